"""Coach strength: seeded 4-player rounds, each policy's win share with a 95 %
(Wilson) interval and its average turns to win.

    python benchmarks/coach_strength.py --rounds 2000 [--jobs 2] [--no-peer]

Match-ups: coach vs 3 greedy; peer vs 3 greedy; coach, peer and 2 greedy.
The starter rotates every round; round i uses seed (seed, i). The coach bot
ranks discards by distance, then outs, then tiles kept in melds.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import sys
import time
from collections import defaultdict
from concurrent.futures import ProcessPoolExecutor

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from okey_vision.game import CoachPolicy, GreedyPolicy, RandomPolicy, play_round  # noqa: E402

_PEER_ERROR = ""


def _policy(name: str):
    if name == "coach":
        return CoachPolicy()
    if name == "greedy":
        return GreedyPolicy()
    if name == "random":
        return RandomPolicy()
    from peer import PeerPolicy
    return PeerPolicy()


def _chunk(args):
    names, seed, lo, hi = args
    pols = [_policy(n) for n in names]
    out = []
    for i in range(lo, hi):
        r = play_round(pols, random.Random(seed * 1_000_003 + i), starter=i % len(pols))
        out.append((r.winner, r.turns))
    return out


def wilson(k: int, n: int, z: float = 1.96) -> tuple[float, float]:
    """95 % Wilson interval of a proportion."""
    if n == 0:
        return 0.0, 0.0
    p = k / n
    den = 1 + z * z / n
    mid = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return mid - half, mid + half


def run(names: list[str], rounds: int, seed: int, jobs: int) -> None:
    t0 = time.time()
    step = max(1, rounds // (jobs * 4))
    tasks = [(names, seed, lo, min(rounds, lo + step)) for lo in range(0, rounds, step)]
    with ProcessPoolExecutor(jobs) as ex:
        results = [r for part in ex.map(_chunk, tasks) for r in part]
    wins = defaultdict(int)
    turns = defaultdict(list)
    stalls = 0
    for w, t in results:
        if w is None:
            stalls += 1
            continue
        wins[w] += 1
        turns[w].append(t)
    print(f"\n{' + '.join(names)}: {rounds} rounds, {stalls} stalls, {time.time() - t0:.0f} s")
    for seat, name in enumerate(names):
        lo, hi = wilson(wins[seat], rounds)
        avg = sum(turns[seat]) / len(turns[seat]) if turns[seat] else float("nan")
        print(f"  seat {seat} {name:<7} win share {wins[seat] / rounds:6.1%}  "
              f"95% CI [{lo:.1%}, {hi:.1%}]  avg turns to win {avg:.1f}")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--rounds", type=int, default=2000)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--no-peer", action="store_true")
    args = ap.parse_args()
    matchups = [["coach", "greedy", "greedy", "greedy"]]
    peer_ok = not args.no_peer
    if peer_ok:
        try:
            from peer import load_peer
            load_peer()
        except Exception as exc:  # the benchmark still runs without the peer bot
            peer_ok = False
            print(f"peer bot unavailable ({type(exc).__name__}: {exc}); running without it")
    if peer_ok:
        matchups += [["peer", "greedy", "greedy", "greedy"], ["coach", "peer", "greedy", "greedy"]]
    for names in matchups:
        run(names, args.rounds, args.seed, args.jobs)


if __name__ == "__main__":
    main()
