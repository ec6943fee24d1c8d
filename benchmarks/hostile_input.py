"""Peak memory and time of the command line on hostile input and under faults.

Every file, store and folder is made here (nothing fetched), then the
command runs in a child process; for every case the script prints one line:
the exit status, the wall time, the child's peak resident memory
(``wait4``), the player's corrections counted before and after (apart from
the store's code: ``tests/faults.corrections``; ``-`` where the case has no
store), how many lines it wrote on stderr and the first of them (or what
was read). The goals: one sentence, exit 2 (or a read with one sentence
about a file set aside), no traceback, nothing the player stored lost;
``read`` of /dev/zero, a named pipe and a 1 GB file refused within 1 s and
300 MB.

The read-only and full-disk cases mount a small tmpfs (root only; they are
said to be skipped elsewhere).

    python benchmarks/hostile_input.py
    python benchmarks/hostile_input.py --only store   # the cases whose name holds 'store'
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from dataclasses import dataclass, field
from pathlib import Path

from okey_vision.eval.faults import full_disk, hostile_folder, read_only, truncated_npz
from okey_vision.eval.hostile import deflate_zeros, jpeg_with_app_data, jpeg_with_size, png, tiff

ROOT = Path(__file__).resolve().parents[1]

SAMPLE = ROOT / "okey_vision" / "data" / "sample_rack.jpg"
HAND = " ".join(json.loads(SAMPLE.with_suffix(".json").read_text(encoding="utf-8"))["hand"])


def jpeg(img, *params: int) -> bytes:
    import cv2

    return cv2.imencode(".jpg", img, list(params))[1].tobytes()


def image_cases(tmp: Path) -> list[tuple[str, Path]]:
    """The hostile images: every format's bomb, truncation and lie (and a few more)."""
    import cv2
    import numpy as np

    small = jpeg(np.full((64, 64, 3), 128, np.uint8))
    rack = SAMPLE.read_bytes()
    made = {
        "PNG header 60000x60000 (1.8 KB)": png(60000, 60000, b"\x00" * 1700),
        "JPEG, size marker after 128 KB of APP data": jpeg_with_app_data(rack, 140_000),
        "PNG bomb 32000x32000 blank": png(32000, 32000, deflate_zeros(32001, 32000)),
        "PNG 8000x8000 blank (64 MP: accepted, the largest full decode)": png(8000, 8000, deflate_zeros(8001, 8000)),
        "PNG 8001x8000 blank (just over the limit)": png(8001, 8000, deflate_zeros(8002, 8000)),
        "deflate TIFF 32000x32000": tiff(32000, 32000, deflate_zeros(32000, 32000)),
        "JPEG header 30000x30000, small file": jpeg_with_size(small, 30000, 30000),
        "progressive JPEG header 30000x30000": jpeg_with_size(jpeg(np.full((64, 64, 3), 128, np.uint8),
                                                              cv2.IMWRITE_JPEG_PROGRESSIVE, 1), 30000, 30000),
        "real JPEG 20000x15000 (300 MP)": jpeg(cv2.resize(cv2.imdecode(np.frombuffer(rack, np.uint8), 1),
                                                          (20000, 15000)), cv2.IMWRITE_JPEG_QUALITY, 80),
        "truncated PNG": cv2.imencode(".png", np.random.default_rng(0).integers(0, 255, (400, 600, 3),
                                                                                dtype=np.uint8))[1].tobytes()[:9000],
        "fake BMP": b"BM" + os.urandom(3000),
    }
    out = []
    for i, (name, data) in enumerate(made.items()):
        ext = next(e for k, e in (("PNG", ".png"), ("TIFF", ".tif"), ("BMP", ".bmp"), ("", ".jpg")) if k in name)
        p = tmp / f"case{i}{ext}"
        p.write_bytes(data)
        out.append((name, p))
    return out


def exif_photos(tmp: Path) -> tuple[Path, Path]:
    """The sample as a phone holding its camera sideways stores it (EXIF orientation 6), and the same
    photo saved upright by Pillow (lossless: the same pixels)."""
    from io import BytesIO

    from PIL import Image, ImageOps

    exif = Image.Exif()
    exif[0x0112] = 6
    buf = BytesIO()
    Image.open(SAMPLE).convert("RGB").transpose(Image.Transpose.ROTATE_90).save(buf, "JPEG", quality=95, exif=exif)
    phone, upright = tmp / "phone-exif6.jpg", tmp / "phone-upright.png"
    phone.write_bytes(buf.getvalue())
    ImageOps.exif_transpose(Image.open(BytesIO(buf.getvalue()))).save(upright)
    return phone, upright


@dataclass
class Case:
    """One hostile run: the command's arguments, its data folder (its
    corrections counted), and what is done around it (a mount: None when it
    cannot be had here)."""

    name: str
    argv: list[str]
    data: Path | None = None
    stdout: str | None = None
    around: Callable[[], AbstractContextManager[Path | None]] | None = None
    then: Callable[[str], str] | None = None  # what to say of a read's output (exit 0)
    env: dict[str, str] = field(default_factory=dict)


@contextmanager
def nothing() -> Iterator[Path | None]:
    yield Path(".")


def read_said(out: str) -> str:
    got = json.loads(out)
    return f"read: {got['width']}x{got['height']} (input pixels), {len(got['tiles'])} tiles"


def store(tmp: Path, template: Path, name: str) -> Path:
    """A copy of the template store (the sample's 15 corrections) as a case's data folder."""
    folder = tmp / name / "data"
    shutil.copytree(template, folder)
    return folder


def damage(folder: Path, how: str) -> Path:
    """The store damaged as the issue found it."""
    index = folder / "corrections.jsonl"
    if how == "byte":  # one bad byte in the fourth line
        lines = index.read_bytes().splitlines(keepends=True)
        lines[3] = lines[3].replace(b'"cli"', b'"c\xffli"')
        index.write_bytes(b"".join(lines))
    elif how == "torn":  # a crash in the middle of the last line
        index.write_bytes(index.read_bytes()[:-40])
    elif how == "cache":
        (folder / "guard-shipped.json").write_text("[1, 2, 3]")
    elif how == "huge":  # the same tiles corrected again and again: 200 MB
        lines = index.read_bytes()
        with open(index, "ab") as fh:
            for _ in range(200_000_000 // len(lines)):
                fh.write(lines)
    elif how == "huge-distinct":  # 200 MB of corrections of different tiles (1.4 million: no player's)
        first = json.loads(index.read_bytes().splitlines()[0])
        with open(index, "ab") as fh:
            written = i = 0
            while written < 200_000_000:
                line = (json.dumps({**first, "photo": f"{i:016x}", "place": i % 15}) + "\n").encode()
                written += fh.write(line)
                i += 1
    return folder


def calibrations(tmp: Path) -> dict[str, Path]:
    """Data folders holding a damaged calibration (the issue's three kinds)."""
    import io
    import zipfile

    import numpy as np

    from okey_vision.vision.calibration import Calibration

    out = {}
    for kind in ("truncated", "NaN shifts", "edited metadata"):
        folder = tmp / f"cal-{kind.replace(' ', '-')}"
        folder.mkdir()
        path = folder / "calibration.npz"
        if kind == "truncated":
            truncated_npz(path)
        else:
            cal = Calibration(None, None, (0.0,) * 6, 15, 1, "now", "key", colour_shift=np.ones(5))
            if kind == "NaN shifts":
                cal = Calibration(None, None, (0.0,) * 6, 15, 1, "now", "key", colour_shift=np.full(5, np.nan))
            with np.errstate(all="ignore"):
                cal.save(path)
            if kind == "edited metadata":
                buf = io.BytesIO()
                np.save(buf, np.array('{"format": 1, "light": "bright", "crops": "x"}'))
                import warnings

                with warnings.catch_warnings(), zipfile.ZipFile(path, "a") as z:
                    warnings.simplefilter("ignore")
                    z.writestr("meta.npy", buf.getvalue())
        out[kind] = folder
    return out


def fault_cases(tmp: Path, template: Path) -> list[Case]:
    """Every fault case."""
    fifo = tmp / "pipe.jpg"
    os.mkfifo(fifo)
    big = tmp / "big.jpg"
    with open(big, "wb") as fh:
        fh.truncate(1_000_000_000)
    phone, upright = exif_photos(tmp)
    add = ["calibrate", "add", str(SAMPLE), "--tiles", HAND]
    cases = [
        Case("read /dev/zero", ["read", "/dev/zero", "--json"]),
        Case("read a named pipe no one writes to", ["read", str(fifo), "--json"]),
        Case("read a 1 GB file", ["read", str(big), "--json"]),
        Case("read a folder", ["read", str(tmp), "--json"]),
        Case("read an EXIF-6 phone photo", ["read", str(phone), "--json"], then=lambda out: exif_said(out, upright)),
    ]
    for kind, folder in calibrations(tmp).items():
        cases.append(Case(f"read with a {kind} calibration.npz", ["read", str(SAMPLE), "--json"], folder,
                          then=read_said))
    byte = "a non-UTF-8 byte in corrections.jsonl"
    cases += [
        Case(f"store: calibrate show, {byte}", ["calibrate", "show"], damage(store(tmp, template, "s1"), "byte")),
        Case(f"store: calibrate fit, {byte}", ["calibrate", "fit"], damage(store(tmp, template, "s2"), "byte")),
        Case(f"store: calibrate reset --forget, {byte}", ["calibrate", "reset", "--forget"],
             damage(store(tmp, template, "s3"), "byte")),
        Case("store: calibrate fit, a broken guard cache", ["calibrate", "fit"],
             damage(store(tmp, template, "s4"), "cache")),
        Case("store: calibrate add after a torn last line", add, damage(store(tmp, template, "s5"), "torn")),
        Case("store: calibrate show, a 200 MB index (15 tiles corrected again and again)", ["calibrate", "show"],
             damage(store(tmp, template, "s6"), "huge")),
        Case("store: calibrate show, a 200 MB index of 1.4 million different tiles", ["calibrate", "show"],
             damage(store(tmp, template, "s6b"), "huge-distinct")),
    ]
    ro = store(tmp, template, "s7")
    full = store(tmp, template, "s8")
    afile = tmp / "a-file.txt"
    afile.write_text("mine")
    folder_index = tmp / "s9" / "data"
    (folder_index / "corrections.jsonl").mkdir(parents=True)
    cases += [
        Case("store: calibrate add, a read-only store", add, ro, around=lambda: read_only(ro)),
        Case("store: calibrate reset --forget, a read-only store", ["calibrate", "reset", "--forget"], ro,
             around=lambda: read_only(ro)),
        Case("store: calibrate add, a full disk", add, full, around=lambda: full_disk(full, free=0)),
        Case("store: calibrate add, OKEY_VISION_DATA a file", add, afile),
        Case("store: calibrate add, the index a folder", add, folder_index),
    ]
    hands = tmp / "hands"
    hostile_folder(hands)
    (hands / os.fsdecode(b"rack-\xff\xfe.jpg")).write_bytes(b"\xff\xd8junk")
    out = tmp / "out"
    out.mkdir()
    (out / "report.html").write_text("<p>the earlier report</p>")
    (out / "a-folder.html").mkdir()
    check = ["check", str(hands), "--json", "--html"]
    cases += [
        Case("check: 8 hostile entries (links around a loop, a pipe, a non-UTF-8 name)", [*check, str(out / "r.html")],
             then=lambda o: f"{len(o.splitlines())} rows"),
        Case("check: --html a folder", [*check, str(out / "a-folder.html")]),
        Case("check: --html in a read-only folder", [*check, str(out / "report.html")], around=lambda: read_only(out)),
        Case("check: --html on a full disk (the earlier report kept)", [*check, str(out / "report.html")],
             around=lambda: full_disk(out, free=0), then=lambda o: "the earlier report: " + (
                 out / "report.html").read_text()),
        Case("check: --json to a full disk (/dev/full)", check[:-1], stdout="/dev/full"),
    ]
    return cases


def exif_said(out: str, upright: Path) -> str:
    """The EXIF-6 photo's read beside the same photo's saved upright."""
    got = json.loads(out)
    code, _, _, _, up_out = run_measured(["read", str(upright), "--json"])
    up = json.loads(up_out) if code == 0 else {"tiles": [], "width": 0, "height": 0}
    same = [a["tile"] for a in got["tiles"]] == [b["tile"] for b in up["tiles"]]
    off = max((abs(x - y) for a, b in zip(got["tiles"], up["tiles"], strict=False)
               for x, y in zip(a["box"], b["box"], strict=True)), default=0.0)
    return (f"read: {got['width']}x{got['height']}, {len(got['tiles'])} tiles; upright copy "
            f"{up['width']}x{up['height']}, same tiles: {same}, boxes within {off:.1f} px")


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--make":  # the child that makes the images
        for name, path in image_cases(Path(sys.argv[2])):
            print(f"{path}\t{name}")
        return
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", default="", help="run only the cases whose name holds this text")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        # make the files in a child: this process stays small, so the commands
        # it starts do not inherit a big resident size into their peak figure
        made = subprocess.run([sys.executable, __file__, "--make", tmp], capture_output=True, text=True,
                              check=True).stdout.splitlines()
        template = Path(tmp) / "template"
        code, err, _, _, _ = run_measured(["calibrate", "add", str(SAMPLE), "--tiles", HAND], data=template)
        assert code == 0, err
        cases = [Case(name, ["read", line.split("\t")[0], "--json"], then=read_said)
                 for line in made for name in [line.split("\t")[1]]]
        cases += fault_cases(Path(tmp), template)
        print("okey-vision on hostile input: exit, wall time, peak memory of the child, corrections before -> after, "
              "what it said")
        for case in cases:
            if args.only in case.name:
                print(run_case(case), flush=True)


def count_corrections(folder: Path | None) -> int | None:
    """The corrections a data folder holds (None: no folder), counted in a child: this process stays
    small (a child's peak memory counts what it inherits when it starts)."""
    if folder is None or not folder.is_dir():
        return None
    code = ("from okey_vision.eval.faults import corrections; from pathlib import Path; "
            f"print(corrections(Path({str(folder)!r})))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=ROOT)
    return int(done.stdout)


def run_case(case: Case) -> str:
    """The case's line."""
    with (case.around or nothing)() as ready:
        if ready is None:
            return f"- {case.name}: skipped (no tmpfs can be mounted here)"
        before = count_corrections(case.data)
        code, err, wall, peak, out = run_measured(case.argv, case.data, case.stdout)
        after = count_corrections(case.data)
        try:
            said = case.then(out) if case.then else " / ".join(out.splitlines()[:3])
        except ValueError:  # no JSON: the command refused, its line says why
            said = ""
    lines = err.splitlines()
    counted = "-" if before is None else f"{before} -> {after}"
    first = lines[0] if lines else ""
    shown = "; ".join(s for s in (said, first) if s)
    return (f"- {case.name}: exit {code}, {wall:.2f} s, {peak:.0f} MB peak, corrections {counted}, "
            f"{len(lines)} stderr line(s){' (Traceback!)' if 'Traceback' in err else ''}: {shown[:300]}")


def run_measured(argv: list[str], data: Path | None = None,
                 stdout: str | None = None) -> tuple[int, str, float, float, str]:
    """``okey-vision ARGV`` in a child: exit, stderr, wall time, the child's own peak memory (``wait4``), stdout."""
    env = {**os.environ, "YOLO_OFFLINE": "1", "PYTHONPATH": str(ROOT),
           # the guard judges on the shipped sample (the real photos would take minutes a fit)
           "OKEY_VISION_REAL_PIXELS": str(ROOT / "no-such-folder")}
    env["OKEY_VISION_DATA"] = str(data) if data is not None else tempfile.mkdtemp(prefix="okey-hostile-")
    sink = open(stdout, "w") if stdout else None  # noqa: SIM115 - closed below
    t = time.perf_counter()
    try:
        proc = subprocess.Popen([sys.executable, "-m", "okey_vision.cli", *argv], stdout=sink or subprocess.PIPE,
                                stderr=subprocess.PIPE, cwd=ROOT, env=env)
        # read the pipes, then reap the child ourselves so its rusage is its own
        out_b = proc.stdout.read() if proc.stdout else b""
        err_b = proc.stderr.read() if proc.stderr else b""
        _, status, usage = os.wait4(proc.pid, 0)
    finally:
        if sink:
            sink.close()
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - t
    return (proc.returncode, err_b.decode(errors="replace").strip(), wall, usage.ru_maxrss / 1024,
            out_b.decode(errors="replace"))


if __name__ == "__main__":
    main()
