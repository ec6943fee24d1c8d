"""Print how many synthetic images per second the renderer makes (100 images).

    python benchmarks/synth_speed.py [--count 100] [--config datasets/synth-detect.yaml]
"""

from __future__ import annotations

import argparse
import time


def main() -> None:
    """Render ``--count`` scenes and print images/second (render only, and with JPEG writes)."""
    from okey_vision.synth import SynthConfig, render_scene
    from okey_vision.synth.config import load_config
    from okey_vision.synth.datasets import image_seed

    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--config", default=None)
    ap.add_argument("--seed", type=int, default=0)
    args = ap.parse_args()
    cfg = load_config(args.config) if args.config else SynthConfig()
    render_scene(image_seed(args.seed, 10 ** 6), cfg)  # warm up glyph and noise caches
    t0 = time.perf_counter()
    tiles = 0
    for i in range(args.count):
        tiles += len(render_scene(image_seed(args.seed, i), cfg).tiles)
    dt = time.perf_counter() - t0
    print(f"{args.count} images, {tiles} labelled tiles in {dt:.2f} s: "
          f"{args.count / dt:.1f} images/s ({1000 * dt / args.count:.0f} ms/image)")


if __name__ == "__main__":
    main()
