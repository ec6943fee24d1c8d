"""Hostile images: every format's size read from its header before
decoding, bombs refused or decoded reduced, one clear line, input pixels kept."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")

from okey_vision.errors import ImageError, ImageProblem  # noqa: E402
from okey_vision.eval.hostile import jpeg_with_app_data, jpeg_with_size, png_bomb, png_header, tiff  # noqa: E402
from okey_vision.imagesize import read_header  # noqa: E402
from okey_vision.vision import io  # noqa: E402
from okey_vision.vision.io import as_bgr, decode_image  # noqa: E402


def encode(ext: str, img: np.ndarray, *params: int) -> bytes:
    ok, buf = cv2.imencode(ext, img, list(params))
    assert ok
    return buf.tobytes()


RACK = np.random.default_rng(0).integers(0, 255, (300, 400, 3), dtype=np.uint8)


@pytest.mark.parametrize("ext", [".jpg", ".png", ".webp", ".bmp", ".tiff"])
def test_every_format_reports_its_size(ext: str) -> None:
    h = read_header(encode(ext, RACK))
    assert (h.width, h.height) == (400, 300)
    assert h.format == {".jpg": "JPEG", ".png": "PNG", ".webp": "WEBP", ".bmp": "BMP", ".tiff": "TIFF"}[ext]


def test_lossless_and_progressive_headers() -> None:
    assert read_header(encode(".webp", RACK, cv2.IMWRITE_WEBP_QUALITY, 101)).width == 400
    prog = encode(".jpg", RACK, cv2.IMWRITE_JPEG_PROGRESSIVE, 1)
    assert read_header(prog).progressive and not read_header(encode(".jpg", RACK)).progressive


def test_only_sequential_jpeg_frames_count_as_reducible() -> None:
    # a lossless (SOF3) or hierarchical (SOF5) frame: libjpeg cannot decode it
    # reduced, so a giant one is refused like a progressive one
    base, giant = encode(".jpg", RACK), jpeg_with_size(encode(".jpg", RACK), 30000, 30000)
    for marker in (b"\xff\xc3", b"\xff\xc5"):
        assert read_header(base.replace(b"\xff\xc0", marker, 1)).progressive, marker
        with pytest.raises(ImageError, match="too large"):
            decode_image(giant.replace(b"\xff\xc0", marker, 1), "x.jpg")
    assert not read_header(base.replace(b"\xff\xc0", b"\xff\xc1", 1)).progressive  # extended sequential


def test_jpeg_size_marker_after_128_kb_of_app_data() -> None:
    data = jpeg_with_app_data(encode(".jpg", RACK), 140_000)
    assert data.index(b"\xff\xc0") > 128 * 1024
    photo = decode_image(data, "late.jpg")
    assert (photo.width, photo.height) == (400, 300) and photo.image.shape == (300, 400, 3)
    huge = jpeg_with_size(data, 60000, 60000)
    assert (read_header(huge).width, read_header(huge).height) == (60000, 60000)


@pytest.mark.parametrize("data,name", [
    (png_header(60000, 60000) + b"\x00" * 1800, "giant.png"),
    (tiff(32000, 32000), "deflate.tiff"),
    (jpeg_with_size(encode(".jpg", RACK, cv2.IMWRITE_JPEG_PROGRESSIVE, 1), 30000, 30000), "prog.jpg"),
])
def test_giant_headers_are_refused_before_decoding(data: bytes, name: str) -> None:
    with pytest.raises(ImageError, match=f"^{name}: the image is too large"):
        decode_image(data, name)


def test_a_small_png_bomb_is_refused() -> None:
    bomb = png_bomb(12000, 9000)  # 108 M pixels in ~110 KB
    assert len(bomb) < 200_000
    with pytest.raises(ImageError, match="too large"):
        decode_image(bomb, "bomb.png")


def test_a_giant_baseline_jpeg_decodes_reduced_in_input_pixels() -> None:
    data = jpeg_with_size(encode(".jpg", RACK), 30000, 20000)  # 600 M pixels claimed
    photo = decode_image(data, "big.jpg")
    assert (photo.width, photo.height) == (30000, 20000)
    assert max(photo.image.shape[:2]) <= io.MAX_SIDE  # decoded by 8, then shrunk
    assert photo.scale == pytest.approx(photo.image.shape[1] / 30000)


@pytest.mark.parametrize("data,msg", [
    (b"", "empty"),
    (b"hello, not a photo", "not an image"),
    (b"BM" + b"\x00" * 10, "header is cut short"),
    (b"II*\x00" + b"\x00" * 8, "header is cut short"),
])
def test_broken_files_name_the_problem(data: bytes, msg: str) -> None:
    with pytest.raises(ImageError, match=msg):
        decode_image(data, "x")


def test_truncated_png_is_one_clear_line_without_codec_noise() -> None:
    # libpng prints its own complaints straight to file descriptor 2: run in a
    # child process so the test sees exactly what a user's terminal would
    code = (
        "import cv2, numpy as np\n"
        "from okey_vision.vision.io import decode_image\n"
        "img = np.random.default_rng(1).integers(0, 255, (200, 300, 3), dtype=np.uint8)\n"
        "data = cv2.imencode('.png', img)[1].tobytes()\n"
        "for cut, name in ((data[:len(data) // 2], 'cut.png'), (b'BM' + data[2:], 'fake.bmp')):\n"
        "    try:\n"
        "        decode_image(cut, name)\n"
        "    except ValueError as e:\n"
        "        print(e)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=120)
    assert out.stderr == ""
    lines = out.stdout.splitlines()
    assert len(lines) == 2 and lines[0].startswith("cut.png: the photo is damaged")
    assert lines[1].startswith("fake.bmp:")


def test_sixteen_bit_grey_and_alpha_arrays() -> None:
    img8 = RACK
    img16 = img8.astype(np.uint16) * 257
    assert np.array_equal(as_bgr(img16), img8)
    assert as_bgr(img8[:, :, 0]).shape == (300, 400, 3)
    grey_alpha = np.dstack([img8[:, :, 0], np.full((300, 400), 255, np.uint8)])
    assert np.array_equal(as_bgr(grey_alpha)[:, :, 1], img8[:, :, 0])
    rgba = np.dstack([img8[:, :, ::-1], np.full((300, 400), 255, np.uint8)])
    assert np.array_equal(as_bgr(rgba, bgr=False), img8)
    assert np.array_equal(as_bgr(img8.astype(np.float32) / 255.0), img8)


def test_sixteen_bit_png_file_decodes_to_eight_bits() -> None:
    photo = decode_image(encode(".png", RACK.astype(np.uint16) * 257), "deep.png")
    assert photo.image.dtype == np.uint8 and np.array_equal(photo.image, RACK)


@pytest.mark.parametrize("name,data", [
    ("giant.png", png_header(60000, 60000) + b"\x00" * 1800),
    ("bomb.tif", tiff(32000, 32000)),
    ("cut.png", encode(".png", RACK)[:3000]),
])
def test_cli_read_of_a_hostile_image_is_one_line(tmp_path, name: str, data: bytes) -> None:
    p = tmp_path / name
    p.write_bytes(data)
    out = subprocess.run([sys.executable, "-m", "okey_vision.cli", "read", str(p)], capture_output=True,
                         text=True, timeout=300)
    assert out.returncode == 2 and out.stdout == ""
    assert out.stderr.count("\n") == 1 and out.stderr.startswith(f"okey-vision read: error: {p}: ")


# -- inputs bounded before they are read, the EXIF orientation applied once --------------

def _peak_of(call) -> tuple[object, int]:
    """What ``call()`` raised (or returned) and the most memory Python held meanwhile."""
    import tracemalloc

    tracemalloc.start()
    try:
        try:
            got: object = call()
        except ImageError as exc:
            got = exc
        return got, tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_a_named_pipe_a_device_and_a_folder_are_refused_unread(tmp_path) -> None:
    fifo = tmp_path / "rack.jpg"
    os.mkfifo(fifo)  # nothing ever writes to it: a read would wait for ever
    for path, said in ((fifo, "not a regular file (a named pipe)"), ("/dev/zero", "not a regular file (a device)"),
                       (tmp_path, "is a folder, not an image")):
        got, peak = _peak_of(lambda p=path: io.load_photo(p))
        assert isinstance(got, ImageError) and str(got) == f"{path}: " + (
            f"{said}: only photo files are read" if "regular" in said else said)
        assert peak < 1_000_000


def test_a_huge_file_is_refused_by_its_size_before_it_is_read(tmp_path) -> None:
    big = tmp_path / "big.jpg"
    with open(big, "wb") as fh:
        fh.truncate(1_000_000_000)  # 1 GB (sparse: nothing written)
    got, peak = _peak_of(lambda: io.load_photo(big))
    assert isinstance(got, ImageError) and got.problem is ImageProblem.FILE_TOO_LARGE
    assert str(got) == f"{big}: the file is too large (1000 MB; a photo file is at most 200 MB)"
    assert peak < 1_000_000


@pytest.mark.parametrize("head,problem", [
    (b"hello, not a photo", ImageProblem.NOT_IMAGE),
    (png_header(60000, 60000), ImageProblem.TOO_LARGE),
])
def test_the_header_is_checked_on_the_first_bytes(tmp_path, head: bytes, problem: ImageProblem) -> None:
    path = tmp_path / "x.png"
    with open(path, "wb") as fh:
        fh.write(head)
        fh.truncate(150_000_000)  # under the size limit: only the header decides, the rest is never read
    got, peak = _peak_of(lambda: io.load_photo(path))
    assert isinstance(got, ImageError) and got.problem is problem
    assert peak < 2_000_000


def test_an_upload_over_the_size_limit_is_refused(monkeypatch) -> None:
    monkeypatch.setattr(io, "MAX_FILE_BYTES", 1000)
    with pytest.raises(ImageError, match=r"too large .* at most 0 MB"):
        decode_image(encode(".jpg", RACK), "up.jpg")


SAMPLE = Path(__file__).resolve().parents[1] / "okey_vision" / "data" / "sample_rack.jpg"
#: How the pixels are stored so that the EXIF orientation (the key) turns them upright (Pillow's transposes).
STORED_AS = {1: [], 2: ["FLIP_LEFT_RIGHT"], 3: ["ROTATE_180"], 4: ["FLIP_TOP_BOTTOM"], 5: ["TRANSPOSE"],
             6: ["ROTATE_90"], 7: ["TRANSVERSE"], 8: ["ROTATE_270"]}


def oriented(orientation: int, fmt: str = "JPEG") -> bytes:
    """The sample photo stored as a phone held sideways stores it, its EXIF orientation saying how to turn it."""
    from io import BytesIO

    from PIL import Image

    img = Image.open(SAMPLE).convert("RGB")
    for name in STORED_AS[orientation]:
        img = img.transpose(getattr(Image.Transpose, name))
    exif = Image.Exif()
    exif[0x0112] = orientation
    buf = BytesIO()
    img.save(buf, fmt, exif=exif, **{"JPEG": {"quality": 95}, "WEBP": {"lossless": True}}.get(fmt, {}))
    return buf.getvalue()


@pytest.mark.parametrize("fmt", ["JPEG", "PNG", "WEBP", "TIFF"])
@pytest.mark.parametrize("orientation", range(1, 9))
def test_every_exif_orientation_decodes_upright_once(fmt: str, orientation: int) -> None:
    upright = decode_image(oriented(1, fmt), "up").image
    photo = decode_image(oriented(orientation, fmt), "turned")
    assert (photo.width, photo.height) == (1024, 768) and photo.image.shape == upright.shape
    assert np.abs(photo.image.astype(int) - upright).mean() < (3 if fmt == "JPEG" else 0.5)


def test_an_exif_6_photo_reads_as_the_same_photo_saved_upright(tmp_path, capsys) -> None:
    # The phone's JPEG (pixels stored sideways, orientation 6) and the same photo saved upright by Pillow
    # (ImageOps.exif_transpose: another implementation of the orientation, lossless PNG: the same pixels),
    # read by the command line: the same tiles, and every size and box in the upright photo's frame.
    pytest.importorskip("onnxruntime")
    import json
    from io import BytesIO

    from PIL import Image, ImageOps

    from okey_vision.cli import main

    phone = tmp_path / "phone.jpg"
    phone.write_bytes(oriented(6))
    upright = tmp_path / "upright.png"
    ImageOps.exif_transpose(Image.open(BytesIO(phone.read_bytes()))).save(upright)
    got = []
    for path in (phone, upright):
        assert main(["read", str(path), "--json"]) == 0
        got.append(json.loads(capsys.readouterr().out))
    turned, up = got
    assert (turned["width"], turned["height"]) == (up["width"], up["height"]) == (1024, 768)
    hand = json.loads(SAMPLE.with_suffix(".json").read_text())["hand"]
    assert turned["hand"] == up["hand"] == hand
    assert [t["tile"] for t in turned["tiles"]] == [t["tile"] for t in up["tiles"]]
    for a, b in zip(up["tiles"], turned["tiles"], strict=True):
        assert np.abs(np.subtract(a["box"], b["box"])).max() <= 2, (a, b)
        assert np.abs(np.subtract(a["quad"], b["quad"])).max() <= 2, (a, b)


def test_the_report_and_the_app_draw_an_exif_6_photo_as_the_upright_one(tmp_path) -> None:
    # The check's report boxes the photo it read (check.photos.check with report.html.figure), the app decodes
    # uploads with report.photo.decode_photo: both in the upright frame, as the same photo saved upright.
    pytest.importorskip("onnxruntime")
    from io import BytesIO

    from PIL import Image, ImageOps

    from okey_vision.check.photos import Job, check
    from okey_vision.report.html import figure
    from okey_vision.report.photo import decode_photo
    from okey_vision.vision.reader import RackReader

    phone = tmp_path / "phone.jpg"
    phone.write_bytes(oriented(6))
    upright = tmp_path / "upright.png"
    ImageOps.exif_transpose(Image.open(BytesIO(phone.read_bytes()))).save(upright)
    reader = RackReader(calibration=False)
    turned, up = (check(Job.of_path(p), reader.read, figure=figure) for p in (phone, upright))
    assert turned.verdict.size == up.verdict.size == (1024, 768)
    assert [r.to_dict() for r in turned.verdict.reads] == [r.to_dict() for r in up.verdict.reads]
    drawn = [cv2.imdecode(np.frombuffer(c.figure or b"", np.uint8), cv2.IMREAD_COLOR) for c in (turned, up)]
    assert drawn[0].shape == drawn[1].shape and drawn[0].shape[1] > drawn[0].shape[0]
    assert np.abs(drawn[0].astype(int) - drawn[1]).mean() < 1
    assert np.array_equal(decode_photo(phone.read_bytes()), decode_photo(upright.read_bytes()))
