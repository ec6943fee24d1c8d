"""The 101 coach against three greedy 101 bots.

Each deal is played four times, the coach in each seat in turn (the same
tiles, the same stock), against three :class:`GreedyBot101`. Per deal: the
coach's average penalty over its four seats, and the greedy bots' average
over theirs in the same rounds; the printed interval is the 95 % interval
(normal, paired by deal) of the difference. Also printed: the all-greedy
table on the same deals (what a greedy player scores among its own), and
the coach's slowest advice (CPU time).

    python benchmarks/coach101_strength.py --seed 9101 --deals 250   # 1,000 rounds
    python benchmarks/coach101_strength.py --speed-hands 300          # advice CPU time on hard hands only
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time

from okey_vision.yuzbir.coach import advise101
from okey_vision.yuzbir.sim import SEATS, CoachBot101, GreedyBot101, play_round101


class TimedCoach(CoachBot101):
    """The coach bot, timing each advice in CPU seconds."""

    def __init__(self) -> None:
        super().__init__()
        self.times: list[float] = []

    def _advice(self, view, offered=None):  # type: ignore[no-untyped-def]
        t0 = time.process_time()
        out = super()._advice(view, offered)
        self.times.append(time.process_time() - t0)
        return out


def speed(n: int, seed: int) -> None:
    """The advice's CPU time on hands made hard: 22 tiles with both okeys, a
    table of melds, and a tile on offer every other hand."""
    from okey_vision.melds import make_meld
    from okey_vision.tiles import FULL_SET, okey_of

    rng = random.Random(seed)
    times = []
    for k in range(n):
        deck = list(FULL_SET)
        rng.shuffle(deck)
        ind = next(t for t in deck if not t.is_false_joker)
        deck.remove(ind)
        okey = okey_of(ind)
        hand = [t for t in deck if t == okey] + [t for t in deck if t != okey][:20]
        rest = [t for t in deck if t not in hand]
        table = []
        for c in "rybk":
            run = [t for t in rest if t.color == c and 5 <= t.number <= 7]
            if len({t.number for t in run}) == 3:
                table.append(make_meld(sorted({t.number: t for t in run}.values()), ind))
        left = list(rest)  # the offer is a copy the table does not hold (the coach checks the set's copies)
        for t in (t for m in table for t in m.tiles):
            left.remove(t)
        offered = left[-1] if k % 2 else None
        hand_now = hand[:21] if offered is not None else hand
        t0 = time.process_time()
        advise101(hand_now, ind, table=table, opened="melds" if k % 3 == 0 else "no", offered=offered)
        times.append(time.process_time() - t0)
    times.sort()
    print(f"advice on {n} hard 22-tile hands: median {1000 * statistics.median(times):.1f} ms, "
          f"p99 {1000 * times[int(0.99 * n)]:.1f} ms, slowest {1000 * times[-1]:.1f} ms CPU")


def main() -> None:
    """Play the deals and print the figures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=9101, help="the deals' seed (tuning used other seeds)")
    parser.add_argument("--deals", type=int, default=250, help="deals, each played with the coach in every seat")
    parser.add_argument("--baseline", action="store_true", help="also play the all-greedy table on the same deals")
    parser.add_argument("--speed-hands", type=int, default=0,
                        help="only time the advice on this many random 22-tile hands with 2 okeys and a table")
    args = parser.parse_args()
    if args.speed_hands:
        speed(args.speed_hands, args.seed)
        return
    coach = TimedCoach()
    greedy = GreedyBot101()
    diffs, coach_means, greedy_means, base_means = [], [], [], []
    finishes = opens = 0
    t0 = time.time()
    for d in range(args.deals):
        starter = d % SEATS
        c_scores, g_scores = [], []
        for s in range(SEATS):
            bots = [coach if q == s else greedy for q in range(SEATS)]
            r = play_round101(bots, random.Random(args.seed * 1_000_003 + d), starter=starter, check=False)
            c_scores.append(r.scores[s])
            g_scores.append(sum(r.scores[q] for q in range(SEATS) if q != s) / (SEATS - 1))
            finishes += r.finisher == s
            opens += r.opened[s].value != "no"
        cm, gm = statistics.mean(c_scores), statistics.mean(g_scores)
        coach_means.append(cm)
        greedy_means.append(gm)
        diffs.append(gm - cm)
        if args.baseline:
            r = play_round101([greedy] * SEATS, random.Random(args.seed * 1_000_003 + d), starter=starter,
                              check=False)
            base_means.append(statistics.mean(r.scores))
    n = len(diffs)
    mean = statistics.mean(diffs)
    half = 1.96 * statistics.stdev(diffs) / math.sqrt(n) if n > 1 else float("nan")
    c, g = statistics.mean(coach_means), statistics.mean(greedy_means)
    rounds = n * SEATS
    print(f"seed {args.seed}: {n} deals x {SEATS} seats = {rounds} rounds, {time.time() - t0:.0f} s")
    print(f"coach average penalty per round   {c:8.2f}")
    print(f"greedy bots' average, same rounds {g:8.2f}")
    print(f"difference (greedy - coach)       {mean:8.2f}  95% interval [{mean - half:.2f}, {mean + half:.2f}]")
    if g > 0:
        print(f"coach lower by                    {100 * (g - c) / g:8.1f} %")
    print(f"coach opened in {100 * opens / rounds:.1f} % of rounds, finished {100 * finishes / rounds:.1f} %")
    if base_means:
        print(f"all-greedy table, same deals      {statistics.mean(base_means):8.2f}")
    times = sorted(coach.times)
    print(f"advice CPU time: median {1000 * times[len(times) // 2]:.1f} ms, "
          f"slowest {1000 * times[-1]:.1f} ms over {len(times)} advices")


if __name__ == "__main__":
    main()
