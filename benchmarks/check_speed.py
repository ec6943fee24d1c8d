"""The organiser's check on a folder of 12-megapixel photos: time and memory.

    python benchmarks/check_speed.py                    # 100 photos, okey-vision check FOLDER --json
    python benchmarks/check_speed.py --html --parallel 1 2

The photos are the rendered racks of ``okey_vision/eval/racks.py`` (known hands:
winning and losing, 14 and 15 tiles, an okey finish, seven pairs; the
indicator beside the rack or in a sidecar), each at its own seed, scaled to
4000 x 3000 and JPEG-encoded as ``benchmarks/read_speed.py`` makes its
phone photo; made once into ``--folder`` and reused. ``okey-vision check``
runs in a child process (models loaded in it, as a user runs it); reported:
the wall time, photos a second, the child's peak resident memory and CPU
time, how many hands were read exactly and how many verdicts equal the
solver's on the true hand (renders at other seeds than the pinned test
ones: the reader misses or misreads a tile on some, and the verdict is then
the solver's on the hand read, not on the true one).
"""

from __future__ import annotations

import argparse
import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

SIZE = (4000, 3000)


def make_folder(folder: Path, count: int) -> list[tuple[Path, object]]:
    """``count`` 12 MP photos of the known racks (made once; reused), with their racks."""
    import cv2

    from okey_vision.eval import racks

    folder.mkdir(parents=True, exist_ok=True)
    made = []
    for i in range(count):
        rack = racks.RACKS[i % len(racks.RACKS)]
        path = folder / f"{i:03d}-{rack.name}.jpg"
        if not path.exists():
            scene = racks.render(rack, 5000 + i)
            big = cv2.resize(scene.image, SIZE, interpolation=cv2.INTER_CUBIC)
            ok, buf = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 92])
            assert ok
            path.write_bytes(buf.tobytes())
            if not rack.shown:
                path.with_suffix(".txt").write_text(f"indicator {rack.indicator}\n")
        made.append((path, rack))
    for stale in sorted(folder.glob("*.jpg"))[count:]:  # a larger folder made before: only the first count
        stale.unlink()
        stale.with_suffix(".txt").unlink(missing_ok=True)
    return made


def run_check(folder: Path, html: Path | None, parallel: int) -> tuple[float, float, float, list[dict], int]:
    """``okey-vision check FOLDER --json`` in a child: (seconds, peak MB, CPU seconds, rows, exit code)."""
    env = dict(os.environ, OKEY_VISION_PARALLEL=str(parallel), YOLO_OFFLINE="1", PYTHONPATH=str(ROOT))
    cmd = [sys.executable, "-m", "okey_vision.cli", "check", str(folder), "--json"]
    if html is not None:
        cmd += ["--html", str(html)]
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=False)
    seconds = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = after.ru_utime + after.ru_stime - before.ru_utime - before.ru_stime
    if done.returncode not in (0, 1):
        raise SystemExit(f"check failed ({done.returncode}): {done.stderr[-2000:]}")
    rows = [json.loads(line) for line in done.stdout.splitlines() if line.strip()]
    # ru_maxrss of the children is the largest child so far: runs go from the lightest setting up
    return seconds, after.ru_maxrss / 1024, cpu, rows, done.returncode


def agree(rows: list[dict], made: list[tuple[Path, object]]) -> tuple[int, int]:
    """How many hands were read exactly (tiles in rack order and indicator),
    and how many rows' verdicts equal the solver's on the true hand."""
    from okey_vision.cli.solve import solve_result

    truth = {str(p): rack for p, rack in made}
    exact = same = 0
    for row in rows:
        rack = truth[row["photo"]]
        want = solve_result([t.name for t in rack.hand], rack.indicator)
        exact += row["tiles"] == want["hand"] and row["indicator"] == rack.indicator
        same += row["error"] is None and row["can_declare"] == want["can_declare"] and row["declare"] == want["declare"]
    return exact, same


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--folder", type=Path, default=ROOT / ".cache" / "check_speed")
    ap.add_argument("--html", action="store_true", help="also write the report (the photos drawn)")
    ap.add_argument("--parallel", type=int, nargs="+", default=[1], help="OKEY_VISION_PARALLEL values to run")
    args = ap.parse_args(argv)
    t0 = time.perf_counter()
    made = make_folder(args.folder, args.count)
    print(f"{len(made)} photos {SIZE[0]}x{SIZE[1]} JPEG in {args.folder} (made or found in "
          f"{time.perf_counter() - t0:.1f} s); {os.cpu_count()} cores, load {os.getloadavg()[0]:.1f}")
    for parallel in sorted(args.parallel):
        html = args.folder.parent / "check_speed_report.html" if args.html else None
        seconds, peak, cpu, rows, code = run_check(args.folder, html, parallel)
        kinds = [r["can_declare"] for r in rows]
        exact, same = agree(rows, made)
        line = (f"okey-vision check FOLDER --json{' --html' if html else ''} (OKEY_VISION_PARALLEL={parallel}): "
                f"{len(rows)} photos in {seconds:.1f} s = {len(rows) / seconds:.2f} photos/s, peak memory "
                f"{peak:.0f} MB, CPU {cpu:.0f} s; {sum(kinds)} can be declared, {len(kinds) - sum(kinds)} cannot "
                f"(exit {code}); hands read exactly {exact}/{len(rows)}, verdict = the solver's on the true hand "
                f"{same}/{len(rows)}")
        if html is not None:
            line += f"; report {html.stat().st_size / 1e6:.1f} MB"
        print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
