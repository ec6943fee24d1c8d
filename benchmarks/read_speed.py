"""Photo-to-reads time of the tile reader for a 12-megapixel phone photo.

    python benchmarks/read_speed.py            # torch and ONNX (if exported)
    python benchmarks/read_speed.py --runs 15 --backend onnx
    python benchmarks/read_speed.py --against 2bb6a98 --runs 15   # this reader and the one at a revision

``--against REV``: the revision is unpacked (``git archive``) into a
temporary folder and imported in a child process, this checkout's reader in
another; the parent hands both the same photos in turns (this, then the
other, then the other first), each child timing its own read, and prints
both medians and their ratio (this over the other), upright and tilted.

The photo is a rendered rack scaled to 4000 x 3000 (12 MP) and JPEG-encoded.
Reported: the median over ``--runs`` of read_rack on the decoded array
(detector resize + detect + crops from the full photo + two classifiers +
consistency + rows), and separately the JPEG decode time of the file.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

os.environ.setdefault("YOLO_OFFLINE", "1")

ROOT = Path(__file__).resolve().parents[1]


def phone_photo(seed: int = 5, tilted: bool = False) -> tuple[bytes, int]:
    """A 4000x3000 JPEG of a rendered rack (``tilted``: a player-style rack
    turned 30-60 degrees, read by the oriented detector), and its tile count."""
    import cv2

    from okey_vision.synth import SynthConfig, load_config
    from okey_vision.synth.render import render_scene

    cfg = SynthConfig().replace(p_flat=0.0, p_typical_hand=1.0, long_side=(1024, 1024), aspects=(4 / 3,))
    if tilted:
        cfg = load_config(ROOT / "datasets" / "synth-player.yaml").replace(
            long_side=(1024, 1024), aspects=(4 / 3,))
    scene = render_scene(seed, cfg)
    big = cv2.resize(scene.image, (4000, 3000), interpolation=cv2.INTER_CUBIC)
    _, buf = cv2.imencode(".jpg", big, [cv2.IMWRITE_JPEG_QUALITY, 92])
    return buf.tobytes(), len(scene.tiles)


def time_backend(backend: str, data: bytes, runs: int) -> dict:
    import cv2
    import numpy as np

    from okey_vision.vision.reader import ModelMissingError, RackReader

    if backend == "torch":  # the runtime runs ONNX only: training hands it the torch runner
        from okey_vision.training.torchnet import use_torch

        use_torch()
    reader = RackReader(prefer_onnx=backend == "onnx")
    t = time.perf_counter()
    try:
        reader.load()
    except ModelMissingError as exc:
        return {"backend": backend, "skipped": str(exc)}
    load_s = time.perf_counter() - t
    if backend == "onnx" and reader.backend == "torch":
        return {"backend": backend, "skipped": "no ONNX models in the model folder"}
    backend = f"{reader.backend} ({', '.join(f'{k}:{v}' for k, v in reader.backends.items())})"
    arr = np.frombuffer(data, np.uint8)
    decode = []
    for _ in range(3):
        t = time.perf_counter()
        img = cv2.imdecode(arr, cv2.IMREAD_COLOR)
        decode.append(time.perf_counter() - t)
    reader.read(img)  # warm-up
    times, cpu, n = [], [], 0
    for _ in range(runs):
        t, c = time.perf_counter(), time.process_time()
        reads = reader.read(img)
        times.append(time.perf_counter() - t)
        cpu.append(time.process_time() - c)
        n = len(reads)
    return {"backend": backend, "image": f"{img.shape[1]}x{img.shape[0]}", "tiles_read": n,
            "median_ms": round(1000 * statistics.median(times), 1),
            "min_ms": round(1000 * min(times), 1),
            "cpu_median_ms": round(1000 * statistics.median(cpu), 1),
            "jpeg_decode_ms": round(1000 * statistics.median(decode), 1),
            "model_load_s": round(load_s, 2), "runs": runs}


def serve() -> int:
    """A child's loop: each line on stdin names a photo; the reply is one JSON
    line with the time of one read of it (the photo decoded once, kept)."""
    import cv2

    from okey_vision.vision.reader import RackReader

    try:
        reader = RackReader(calibration=False)
    except TypeError:  # a reader from before the player's calibration
        reader = RackReader()
    reader.load()
    images: dict[str, object] = {}
    print(json.dumps({"ready": True}), flush=True)
    for line in sys.stdin:
        path = line.strip()
        if path not in images:
            images[path] = cv2.imread(path)
            reader.read(images[path])  # warm-up
        t, c = time.perf_counter(), time.process_time()
        n = len(reader.read(images[path]))
        print(json.dumps({"ms": 1000 * (time.perf_counter() - t), "cpu_ms": 1000 * (time.process_time() - c),
                          "tiles": n}), flush=True)
    return 0


class _Child:
    """A reader in a child process importing the package from ``root``."""

    def __init__(self, root: Path):
        import subprocess

        env = {k: v for k, v in os.environ.items() if k != "OKEY_VISION_MODELS"}
        env["PYTHONPATH"] = str(root)
        env["YOLO_OFFLINE"] = "1"
        self.proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve()), "--serve"], env=env,
                                     cwd=str(root), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.ask("")

    def ask(self, path: str) -> dict:
        """Send a line (a photo's path; '' only waits for the child to be ready) and read the reply."""
        assert self.proc.stdin is not None and self.proc.stdout is not None
        if path:
            self.proc.stdin.write(path + "\n")
            self.proc.stdin.flush()
        line = self.proc.stdout.readline()
        if not line:
            raise SystemExit(f"the reader in {self.proc.args} stopped")
        return json.loads(line)

    def close(self) -> None:
        """End the child."""
        assert self.proc.stdin is not None
        self.proc.stdin.close()
        self.proc.wait(timeout=60)


def against(rev: str, runs: int) -> list[dict]:
    """This checkout's reader and the one at ``rev``, timed side by side on the same photos."""
    import subprocess
    import tempfile

    with tempfile.TemporaryDirectory(prefix="read-speed-") as tmp:
        old = Path(tmp) / "rev"
        old.mkdir()
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", rev], check=True, capture_output=True).stdout
        subprocess.run(["tar", "-x", "-C", str(old)], input=archive, check=True)
        photos = {}
        for kind in ("upright", "tilted"):
            data, _ = phone_photo(tilted=kind == "tilted")
            photos[kind] = Path(tmp) / f"{kind}.jpg"
            photos[kind].write_bytes(data)
        readers = {"this": _Child(ROOT), rev: _Child(old)}
        results = []
        try:
            for kind, path in photos.items():
                got: dict[str, list[dict]] = {name: [] for name in readers}
                for i in range(runs):
                    for name in (list(readers) if i % 2 == 0 else list(readers)[::-1]):
                        got[name].append(readers[name].ask(str(path)))
                med = {name: statistics.median(r["ms"] for r in rs) for name, rs in got.items()}
                cpu = {name: statistics.median(r["cpu_ms"] for r in rs) for name, rs in got.items()}
                ratio = med["this"] / med[rev]
                results.append({"rack": kind, "runs": runs, "against": rev, "ratio": round(ratio, 3),
                                **{f"{name}_median_ms": round(v, 1) for name, v in med.items()},
                                **{f"{name}_cpu_ms": round(v, 1) for name, v in cpu.items()},
                                **{f"{name}_tiles": got[name][-1]["tiles"] for name in got}})
                print(f"[{kind} rack] this reader {med['this']:.0f} ms (CPU {cpu['this']:.0f}), {rev} "
                      f"{med[rev]:.0f} ms (CPU {cpu[rev]:.0f}): ratio {ratio:.2f} "
                      f"(median of {runs} reads each, in turns; tiles {got['this'][-1]['tiles']} and "
                      f"{got[rev][-1]['tiles']})", flush=True)
        finally:
            for child in readers.values():
                child.close()
    return results


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--runs", type=int, default=11)
    p.add_argument("--backend", choices=("torch", "onnx", "both"), default="both")
    p.add_argument("--against", metavar="REV", help="time this reader and the one at git revision REV side by side")
    p.add_argument("--serve", action="store_true", help=argparse.SUPPRESS)
    p.add_argument("--out", default=str(ROOT / "benchmarks" / "out"))
    args = p.parse_args(argv)
    if args.serve:
        return serve()
    if args.against:
        results = against(args.against, args.runs)
        out = Path(args.out)
        out.mkdir(parents=True, exist_ok=True)
        (out / "read_speed_against.json").write_text(json.dumps(results, indent=2))
        return 0
    results = []
    for kind in ("upright", "tilted"):
        data, ntiles = phone_photo(tilted=kind == "tilted")
        for b in (("torch", "onnx") if args.backend == "both" else (args.backend,)):
            r = time_backend(b, data, args.runs)
            r["rack"] = kind
            results.append(r)
            if "skipped" in r:
                print(f"[{kind} rack] {b}: skipped ({r['skipped']})")
            else:
                print(f"[{kind} rack] {r['backend']}: median {r['median_ms']} ms photo-to-reads "
                      f"(CPU {r['cpu_median_ms']} ms, every thread) on a "
                      f"{r['image']} photo ({r['tiles_read']}/{ntiles} tiles read; JPEG decode "
                      f"{r['jpeg_decode_ms']} ms extra; model load {r['model_load_s']} s)")
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    (out / "read_speed.json").write_text(json.dumps(results, indent=2))
    return 0


if __name__ == "__main__":
    sys.exit(main())
