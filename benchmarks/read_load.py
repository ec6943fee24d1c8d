"""Several players, one server: N concurrent photo reads on one shared reader.

Each "player" decodes a photo from its bytes and reads it with the shared
reader (as the app does across sessions), ``--rounds`` times. Prints latency
percentiles per N, the process memory once loaded, its peak under load and
after the players leave (idle for a second), and checks that every read under
load equals the lone read of the same photo.

    python benchmarks/read_load.py                 # N = 1, 2, 4, 8
    python benchmarks/read_load.py --players 1 4 --rounds 6
"""

from __future__ import annotations

import argparse
import gc
import json
import statistics
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def rss_mb() -> float:
    """Resident memory of this process (MB), from /proc."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    return float("nan")


class Peak:
    """Samples the resident memory every few ms in a thread; keeps the peak."""

    def __init__(self) -> None:
        self.peak = rss_mb()
        self._stop = threading.Event()
        self._t = threading.Thread(target=self._run, daemon=True)

    def _run(self) -> None:
        while not self._stop.wait(0.01):
            self.peak = max(self.peak, rss_mb())

    def __enter__(self) -> Peak:
        self._t.start()
        return self

    def __exit__(self, *exc) -> None:
        self._stop.set()
        self._t.join()


def percentile(xs: list[float], q: float) -> float:
    """Nearest-rank percentile (never above the maximum)."""
    s = sorted(xs)
    return s[min(len(s) - 1, max(0, -(-len(s) * q // 100) - 1))]


def photos() -> list[tuple[str, bytes]]:
    """The shipped sample photo and rendered racks of other shapes, as JPEG bytes."""
    import cv2

    from okey_vision.synth.sample import sample_bytes

    out = [("sample", sample_bytes())]
    try:
        from okey_vision.synth import SynthConfig, render_scene
    except ImportError:  # the light runtime has no renderer: the sample, cropped
        img = cv2.imdecode(__import__("numpy").frombuffer(out[0][1], "uint8"), cv2.IMREAD_COLOR)
        h, w = img.shape[:2]
        for name, crop in (("wide", img[: h // 2]), ("tall", img[:, : w // 2])):
            out.append((name, cv2.imencode(".jpg", crop)[1].tobytes()))
        return out
    for seed, side in ((11, (1600, 1600)), (12, (3000, 3000)), (13, (1200, 1200))):
        scene = render_scene(seed, SynthConfig(long_side=side))
        out.append((f"render{seed}", cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, 92])[1].tobytes()))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--players", type=int, nargs="+", default=[1, 2, 4, 8])
    p.add_argument("--rounds", type=int, default=4, help="photos each player reads")
    p.add_argument("--parallel", type=int, default=None, help="reads admitted at once (default: the reader's)")
    p.add_argument("--json", type=Path, help="also write the figures here")
    args = p.parse_args()

    from okey_vision.vision.io import decode_image
    from okey_vision.vision.memory import release_memory
    from okey_vision.vision.reader import RackReader

    base = rss_mb()
    t0 = time.perf_counter()
    reader = RackReader(parallel=args.parallel).load()
    load_s = time.perf_counter() - t0
    shots = photos()
    alone = {}
    for name, data in shots:
        alone[name] = [(r.name, r.box) for r in reader.read(decode_image(data, name).image)]
    gc.collect()
    release_memory()
    loaded = rss_mb()
    print(f"reader: {reader.backend} {reader.backends}, {reader.parallel} read(s) at once; loaded in {load_s:.2f} s; "
          f"memory {base:.0f} MB before, {loaded:.0f} MB loaded (after one read of each photo)")
    results = []
    for n in args.players:
        def player(k: int, n: int = n) -> list[float]:
            times = []
            for r in range(args.rounds):
                name, data = shots[(k + r) % len(shots)]
                t = time.perf_counter()
                reads = reader.read(decode_image(data, name).image)
                times.append(time.perf_counter() - t)
                got = [(x.name, x.box) for x in reads]
                if got != alone[name]:
                    raise SystemExit(f"FAIL: {name} read differently with {n} players")
            return times

        with Peak() as peak, ThreadPoolExecutor(n) as pool:
            t = time.perf_counter()
            lat = [x for times in pool.map(player, range(n)) for x in times]
            wall = time.perf_counter() - t
        time.sleep(1.0)
        gc.collect()
        release_memory()
        after = rss_mb()
        row = {"players": n, "reads": len(lat), "p50_ms": round(statistics.median(lat) * 1000),
               "p95_ms": round(percentile(lat, 95) * 1000), "max_ms": round(max(lat) * 1000),
               "reads_per_s": round(len(lat) / wall, 2), "peak_mb": round(peak.peak),
               "after_mb": round(after), "loaded_mb": round(loaded)}
        results.append(row)
        print(f"N={n}: {row['reads']} reads, latency p50 {row['p50_ms']} ms, p95 {row['p95_ms']} ms, "
              f"max {row['max_ms']} ms; {row['reads_per_s']} reads/s; memory peak {row['peak_mb']} MB, "
              f"after the players left {row['after_mb']} MB (loaded {row['loaded_mb']} MB); "
              "every read equal to the lone read")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
