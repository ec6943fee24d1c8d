"""Peak memory and time of ``okey-vision read`` on hostile images (issue 11).

Each file is made here (nothing fetched), then read by the CLI in a child
process; the script prints the file's size, the exit status, the one line the
user sees, the wall time and the child's peak resident memory (``wait4``).
The goal: under 1 GB and 5 s each, one line, no traceback.

    python benchmarks/hostile_input.py
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from okey_vision.eval.hostile import deflate_zeros, jpeg_with_app_data, jpeg_with_size, png, tiff

ROOT = Path(__file__).resolve().parents[1]


def jpeg(img, *params: int) -> bytes:
    import cv2

    return cv2.imencode(".jpg", img, list(params))[1].tobytes()


def cases(tmp: Path) -> list[tuple[str, Path]]:
    """The hostile files of the issue's table (and a few more)."""
    import cv2
    import numpy as np

    from okey_vision.synth.sample import sample_bytes

    small = jpeg(np.full((64, 64, 3), 128, np.uint8))
    rack = sample_bytes()
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


def main() -> None:
    if len(sys.argv) == 3 and sys.argv[1] == "--make":  # the child that makes the files
        for name, path in cases(Path(sys.argv[2])):
            print(f"{path}\t{name}")
        return
    with tempfile.TemporaryDirectory() as tmp:
        # make the files in a child: this process stays small, so the readers
        # it starts do not inherit a big resident size into their peak figure
        made = subprocess.run([sys.executable, __file__, "--make", tmp], capture_output=True, text=True,
                              check=True).stdout.splitlines()
        print("okey-vision read on hostile images: exit, wall time, peak memory of the child, what it said")
        for line in made:
            path, name = Path(line.split("\t")[0]), line.split("\t")[1]
            code, err, wall, peak, size = run_measured(path)
            lines = err.splitlines()
            said = size if code == 0 else (lines[0] if lines else "")
            print(f"- {name} ({path.stat().st_size / 1e6:.2f} MB): exit {code}, {wall:.2f} s, "
                  f"{peak:.0f} MB peak, {len(lines)} stderr line(s): {said[:140]}", flush=True)


def run_measured(path: Path) -> tuple[int, str, float, float, str]:
    """:func:`run` with the child's own peak memory from ``wait4``."""
    t = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "okey_vision.cli", "read", str(path), "--json"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, cwd=ROOT)
    # read the pipes, then reap the child ourselves so its rusage is its own
    out_b = proc.stdout.read()
    err_b = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    wall = time.perf_counter() - t
    size = ""
    if proc.returncode == 0:
        import json

        got = json.loads(out_b)
        size = f"read: {got['width']}x{got['height']} (input pixels), {len(got['tiles'])} tiles"
    return proc.returncode, err_b.decode(errors="replace").strip(), wall, usage.ru_maxrss / 1024, size


if __name__ == "__main__":
    main()
