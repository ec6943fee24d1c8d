"""The 101 opening search on seeded random 22-tile hands: its answer checked
against the independent brute force (okey_vision/eval/brute101.py) and its
time.

    python benchmarks/solver101_bench.py [--hands 300] [--seed 2101] [--size 22]

Times are cold (a fresh memo per hand) CPU times of this process, the
fastest of ``--repeat`` calls. Hands come with 0, 1 and 2 okeys in equal
numbers, and one in four forbids 12-13-1 (the house option). Every hand where
the two disagree is printed.
"""

from __future__ import annotations

import argparse
import random
import statistics
import time

from okey_vision.eval.brute101 import brute_opening
from okey_vision.tiles import FULL_SET, Tile, format_hand, okey_of
from okey_vision.yuzbir.opening import OpeningMemo, best_melds, most_pairs
from okey_vision.yuzbir.rules import Options101


def seeded_hands(n: int, seed: int, size: int) -> list[tuple[list[Tile], Tile]]:
    """``n`` random deals of ``size`` tiles and their okey face, a third each with 0, 1 and 2 okeys."""
    rng = random.Random(seed)
    out = []
    for k in range(n):
        deck = list(FULL_SET)
        rng.shuffle(deck)
        ind = next(t for t in deck if not t.is_false_joker)
        deck.remove(ind)
        okey = okey_of(ind)
        wilds = [t for t in deck if t == okey][: k % 3]
        rest = [t for t in deck if t != okey]
        out.append((wilds + rest[: size - len(wilds)], okey))
    return out


def main() -> None:
    """Check and time the search; print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--hands", type=int, default=300)
    parser.add_argument("--seed", type=int, default=2101)
    parser.add_argument("--size", type=int, default=22)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    times, wrong = [], 0
    reach = 0
    for k, (hand, okey) in enumerate(seeded_hands(args.hands, args.seed, args.size)):
        options = Options101(ace_after_13=k % 4 != 3)
        best = float("inf")
        for _ in range(args.repeat):
            t0 = time.process_time()
            _, points, _ = best_melds(hand, okey, options, OpeningMemo())
            most_pairs(hand, okey, options)
            best = min(best, time.process_time() - t0)
        times.append(best)
        reach += points >= options.opening_points
        truth = brute_opening(hand, okey, options.ace_after_13)
        if truth != points:
            wrong += 1
            print(f"DISAGREE: {format_hand(hand)} okey {okey.name}: search {points}, brute force {truth}")
    times.sort()
    ms = [1000 * t for t in times]
    print(f"{args.hands} hands of {args.size} tiles (seed {args.seed}): "
          f"{args.hands - wrong} agree with the brute force, {wrong} disagree; {reach} reach 101")
    print(f"opening search (cold): median {statistics.median(ms):.2f} ms, "
          f"p90 {ms[int(0.9 * len(ms))]:.2f} ms, max {ms[-1]:.2f} ms")


if __name__ == "__main__":
    main()
