"""Live mode figures: frames read per second, time from a rack change to the
updated hand and advice, and the CPU share, measured without a browser.

A simulated camera offers frames at ``--fps`` to a :class:`LiveReader` (the
app's live worker) with the shipped reader: rack A for ``--hold`` seconds,
then rack B. Prints the reads per second, the seconds from the switch until
the voted hand is B's and its advice is computed, and the process CPU time
over wall time (on this machine's cores).

    python benchmarks/live_speed.py [--fps 15] [--hold 8] [--changes 3]
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def racks(n: int) -> list[tuple[object, tuple[str, ...], str]]:
    """``n`` rendered racks (frame, true hand, indicator), clean and camera-sized."""
    from okey_vision.synth import SynthConfig, render_scene

    cfg = SynthConfig(long_side=(960, 960), aspects=(4 / 3,), p_flat=0.0, p_typical_hand=1.0, effects=False,
                      p_hand=0.0, p_objects=0.0, p_other_rack=0.0, p_discards=0.0, p_indicator=1.0,
                      max_tilt=8.0, max_roll=2.0, tile_height=(70.0, 90.0))
    out = []
    for seed in range(40, 40 + n):
        scene = render_scene(seed, cfg)
        rack = sorted((t for t in scene.tiles if t.on_rack), key=lambda t: (t.row, (t.box[0] + t.box[2]) / 2))
        out.append((scene.image, tuple(t.tile.name for t in rack), scene.indicator.name))
    return out


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("--fps", type=float, default=15.0)
    p.add_argument("--hold", type=float, default=8.0, help="seconds each rack stays in view")
    p.add_argument("--changes", type=int, default=3)
    args = p.parse_args()

    from okey_vision.ui.advice import Session
    from okey_vision.ui.live import LiveReader
    from okey_vision.vision.reader import RackReader

    reader = RackReader().load()
    shots = racks(args.changes + 1)
    live = LiveReader(reader.read)
    session = Session()
    lags = []
    cpu0, wall0 = time.process_time(), time.perf_counter()
    for k, (frame, hand, ind) in enumerate(shots):
        t_switch = time.perf_counter()
        done = None
        while time.perf_counter() - t_switch < args.hold:
            live.offer(frame)
            state = live.state()
            if done is None and state.hand == hand:
                session.analyse(list(state.hand), ind, (), "countdown")
                done = time.perf_counter() - t_switch
            time.sleep(1 / args.fps)
        print(f"rack {k}: {f'hand and advice after {done:.2f} s' if done else 'NOT read within the hold'}"
              f" ({len(hand)} tiles)", flush=True)
        if k and done is not None:
            lags.append(done)
    wall = time.perf_counter() - wall0
    cpu = time.process_time() - cpu0
    state = live.state()
    live.stop()
    print(f"frames read: {state.reads} in {wall:.1f} s = {state.reads / wall:.2f} a second "
          f"(one read {state.read_seconds * 1000:.0f} ms, one every {live.interval:.1f} s at most)")
    if lags:
        print(f"rack change -> updated hand and advice: median {statistics.median(lags):.2f} s, "
              f"max {max(lags):.2f} s over {len(lags)} changes")
    print(f"CPU: {cpu / wall * 100:.0f} % of one core ({cpu / wall / (os.cpu_count() or 1) * 100:.0f} % "
          f"of this machine's {os.cpu_count()} cores)")


if __name__ == "__main__":
    main()
