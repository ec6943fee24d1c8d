"""Hostile images (issue 11): every format's size read from its header before
decoding, bombs refused or decoded reduced, one clear line, input pixels kept."""

from __future__ import annotations

import subprocess
import sys

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")

from okey_vision.errors import ImageError  # noqa: E402
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
