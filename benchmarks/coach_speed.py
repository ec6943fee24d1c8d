"""Coach speed: full advice (ranked discards with outs) for random 15-tile hands.

    python benchmarks/coach_speed.py [--hands 100]

Times are this process's CPU time (other work on the machine does not
inflate them); the coach's memo carries over from hand to hand, as in a game.
"""

from __future__ import annotations

import argparse
import os
import random
import statistics
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests"))

from hands import random_hand  # noqa: E402
from okey_vision.coach import advise  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--seed", type=int, default=7)
    args = ap.parse_args()
    rng = random.Random(args.seed)
    for label, outs in (("full advice (with outs)", True), ("bot mode (no outs)", False)):
        times = []
        for _ in range(args.hands):
            hand, ind = random_hand(rng, 15)
            t0 = time.process_time()
            advise(hand, ind, with_outs=outs)
            times.append((time.process_time() - t0) * 1000)
        times.sort()
        p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
        print(f"{label}: {args.hands} hands, median {statistics.median(times):.1f} ms, "
              f"p99 {p99:.1f} ms, max {times[-1]:.1f} ms")


if __name__ == "__main__":
    main()
