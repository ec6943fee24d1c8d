"""Coach speed: full advice (ranked discards with outs) for random 15-tile
hands, and for the hands of simulated games turn after turn.

    python benchmarks/coach_speed.py [--hands 100] [--rounds 20]

Times are this process's CPU time (other work on the machine does not
inflate them); the coach's memo carries over from hand to hand. Random
hands are the hardest case (nothing in common, far from finished); in a game
the hand changes by one tile a turn, with the discards seen counted.
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
from okey_vision.coach import advise, best_discard  # noqa: E402
from okey_vision.game import CoachPolicy, GreedyPolicy, play_round  # noqa: E402


def _report(label: str, times: list[float]) -> None:
    times = sorted(times)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    print(f"{label}: {len(times)} hands, median {statistics.median(times):.1f} ms, "
          f"p99 {p99:.1f} ms, max {times[-1]:.1f} ms")


class _Timed(CoachPolicy):
    """The coach bot, timing the full advice on each of its 15-tile hands."""

    def __init__(self, times: list[float]) -> None:
        super().__init__()
        self.times = times

    def move(self, view, rng):
        t0 = time.process_time()
        advise(view.hand, view.indicator, view.seen)
        self.times.append((time.process_time() - t0) * 1000)
        return super().move(view, rng)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--hands", type=int, default=100)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--rounds", type=int, default=20, help="simulated 4-player rounds (coach + 3 greedy)")
    args = ap.parse_args()
    rng = random.Random(args.seed)
    runs = (("full advice (every discard ranked, with outs)", lambda h, i: advise(h, i)),
            ("best discard only (the coach bot's move)", best_discard),
            ("ranking without outs", lambda h, i: advise(h, i, with_outs=False)))
    for label, call in runs:
        times = []
        for _ in range(args.hands):
            hand, ind = random_hand(rng, 15)
            t0 = time.process_time()
            call(hand, ind)
            times.append((time.process_time() - t0) * 1000)
        _report(label + ", random hands", times)
    game: list[float] = []
    coach = _Timed(game)
    for i in range(args.rounds):
        play_round([coach, GreedyPolicy(), GreedyPolicy(), GreedyPolicy()], random.Random(args.seed * 1000 + i),
                   starter=i % 4)
    _report(f"full advice on the coach's turns of {args.rounds} simulated rounds", game)


if __name__ == "__main__":
    main()
