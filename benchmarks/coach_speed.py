"""Coach speed and memory: the worst ``advise`` times over many hands, and
the memory of an app session and of a simulated game.

    python benchmarks/coach_speed.py [--hands 200] [--rounds 20] [--memory [--session 1000]] [--rules lookahead=1]

Times are this process's CPU time (other work on the machine does not
inflate them). Hand sets: random 15-tile hands (nothing shared, far from
finished), random 14-tile hands with an offered tile (take or draw),
adversarial seven-pairs hands with one or two okeys (15 and 14 tiles, where
the melds route is deepest), hands scarce in available tiles, far 15-tile
hands (tiles that seldom share a meld: the most gaps), the known slow hands
(``okey_vision/eval/hands.py``), and the coach bot's hands turn after turn in
simulated 4-player rounds. Each set reports its median, 99th percentile and
max (p100), and its slowest hand. Every call but the
game's starts from a fresh memo (cold: the worst case); the game's share
the bot's memo, as a session does. ``--memory`` runs an app session (one
memo, many advices) and a simulated game in child processes and prints
their peak memory.
"""

from __future__ import annotations

import argparse
import multiprocessing
import random
import resource
import statistics
import time
from collections import Counter

from coach_strength import parse_rules

from okey_vision.coach import RULES, advise
from okey_vision.eval.hands import SLOW_HANDS, far_hand, pairs_hand, random_hand, scarce_hand
from okey_vision.game import CoachPolicy, GreedyPolicy, play_game, play_round
from okey_vision.memo import Memo
from okey_vision.tiles import TILES, format_hand, parse_hand, parse_tile

#: The issue's worst hand: seven pairs with both okeys (1.8 s before).
ISSUE_HAND = ("b4 b4 b6 r7 k7 k7 r13 r13 r8 r8 b6 k12 k2 k2 y10", "b5")
#: The rules timed (``--rules``: over :data:`RULES`, as the strength benchmark takes them).
TIMED_RULES = RULES


def _report(label: str, rows: list[tuple[float, str]]) -> None:
    times = sorted(t for t, _ in rows)
    p99 = times[min(len(times) - 1, int(len(times) * 0.99))]
    worst = max(rows)
    print(f"{label}: {len(times)} hands, median {statistics.median(times):.1f} ms, "
          f"p99 {p99:.1f} ms, max {times[-1]:.1f} ms (worst: {worst[1]})", flush=True)


def _timed(hand, ind, seen=(), offered=None, memo=None, table=None) -> float:
    t0 = time.process_time()
    advise(hand, ind, seen, offered=offered, memo=memo, table=table, rules=TIMED_RULES)
    return (time.process_time() - t0) * 1000


def _free(rng, used):
    count = Counter(used)
    return rng.choice([t for t in TILES if count[t] < 2])


def _scarce(rng):
    return scarce_hand(rng, rng.choice([1, 2, 3]), (0.3, 0.6, 0.8))


def hand_sets(n: int, seed: int) -> None:
    """Time full advice on each hand set and print the figures."""
    rng = random.Random(seed)
    rows = []
    for _ in range(n):
        hand, ind = random_hand(rng, 15, okeys=rng.choice([None, None, 1, 2]))
        rows.append((_timed(hand, ind), f"{format_hand(hand)} / {ind.name}"))
    _report("random 15-tile hands (0-2 okeys), full advice", rows)
    rows = []
    for _ in range(n):
        hand, ind = random_hand(rng, 14, okeys=rng.choice([None, None, 1, 2]))
        off = _free(rng, hand + [ind])
        rows.append((_timed(hand, ind, offered=off), f"{format_hand(hand)} / {ind.name} offered {off.name}"))
    _report("random 14-tile hands with an offered tile", rows)
    rows = []
    for k in range(n):
        hand, ind = pairs_hand(rng, 15 if k % 2 else 14)
        rows.append((_timed(hand, ind), f"{format_hand(hand)} / {ind.name}"))
    hand, ind = parse_hand(ISSUE_HAND[0]), parse_tile(ISSUE_HAND[1])
    rows.append((_timed(hand, ind), f"{ISSUE_HAND[0]} / {ISSUE_HAND[1]}"))
    _report("adversarial seven-pairs hands with okeys (14 and 15 tiles)", rows)
    rows = []
    for k in range(n // 2):
        hand, ind, seen = _scarce(rng)
        if k % 2:
            hand = hand + [_free(rng, hand + seen + [ind])]
        rows.append((_timed(hand, ind, seen), f"{format_hand(hand)} / {ind.name} seen {len(seen)}"))
    _report("hands with most tiles seen (14 and 15 tiles)", rows)
    rows = []
    for _ in range(n):
        hand, ind = far_hand(rng)
        rows.append((_timed(hand, ind), f"{format_hand(hand)} / {ind.name}"))
    _report("far 15-tile hands (tiles that seldom share a meld), full advice", rows)
    rows = []
    for hand, ind, off in SLOW_HANDS:
        rows.append((_timed(parse_hand(hand), parse_tile(ind), offered=off),
                     f"{hand} / {ind}" + (f" offered {off}" if off else "")))
    _report("known slow hands (okey_vision/eval/hands.py SLOW_HANDS)", rows)


class _Timed(CoachPolicy):
    """The coach bot, timing the full advice (with what it knows of the table)
    on each of its 15-tile hands and on each offered tile, with its own memo."""

    def __init__(self, rows: list) -> None:
        super().__init__(rules=TIMED_RULES)
        self.rows = rows

    def take(self, view, rng):
        if view.offered is not None:
            self.rows.append((_timed(view.hand, view.indicator, view.seen_without(view.offered), view.offered,
                                     self.memo, view.table()),
                              f"{format_hand(view.hand)} / {view.indicator.name} offered {view.offered.name}"))
        return super().take(view, rng)

    def move(self, view, rng):
        self.rows.append((_timed(view.hand, view.indicator, view.seen, memo=self.memo, table=view.table()),
                          f"{format_hand(view.hand)} / {view.indicator.name}"))
        return super().move(view, rng)


def game_hands(rounds: int, seed: int) -> None:
    """Time full advice on the coach bot's turns of simulated rounds."""
    rows: list = []
    coach = _Timed(rows)
    for i in range(rounds):
        play_round([coach, GreedyPolicy(), GreedyPolicy(), GreedyPolicy()], random.Random(seed * 1000 + i),
                   starter=i % 4)
    _report(f"full advice on the coach's turns of {rounds} simulated rounds (take or draw, and discard; "
            f"the bot's memo and table)", rows)


def _rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def _session(n: int) -> str:
    """An app session: one memo, ``n`` advices on unrelated random hands."""
    base = _rss_mb()
    memo = Memo()
    rng = random.Random(5)
    largest = 0
    for _ in range(n):
        hand, ind = random_hand(rng, rng.choice([14, 15]), okeys=rng.choice([None, 1, 2]))
        advise(hand, ind, memo=memo)
        largest = max(largest, memo.size())
    return (f"app session, {n} advices on one memo (limit {memo.limit:,} entries): peak memory "
            f"{_rss_mb():.0f} MB (at start {base:.0f} MB), largest memo {largest:,} entries")


def _game(seed: int) -> str:
    """A countdown game: the coach bot and three greedy bots, each with its memo."""
    base = _rss_mb()
    bots = [CoachPolicy(), GreedyPolicy(), GreedyPolicy(), GreedyPolicy()]
    g = play_game(bots, random.Random(seed))
    largest = max(b.memo.size() for b in bots)
    return (f"simulated game, {len(g.rounds)} rounds (coach + 3 greedy): peak memory {_rss_mb():.0f} MB "
            f"(at start {base:.0f} MB), largest bot memo at the end {largest:,} entries")


def memory(n: int, seed: int) -> None:
    """Peak memory of an app session and of a game, each in a fresh child process."""
    ctx = multiprocessing.get_context("spawn")
    for fn, arg in ((_session, n), (_game, seed)):
        with ctx.Pool(1) as pool:
            print(pool.apply(fn, (arg,)), flush=True)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=200, help="hands per set")
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--rounds", type=int, default=20, help="simulated 4-player rounds (coach + 3 greedy)")
    ap.add_argument("--memory", action="store_true", help="also measure an app session and a game")
    ap.add_argument("--session", type=int, default=1000, help="advices in the measured app session")
    ap.add_argument("--rules", default="", help="the coach's rules over RULES, e.g. lookahead=1")
    args = ap.parse_args()
    global TIMED_RULES
    TIMED_RULES = parse_rules(args.rules)
    print(f"coach rules: {TIMED_RULES}")
    if args.hands:
        hand_sets(args.hands, args.seed)
    if args.rounds:
        game_hands(args.rounds, args.seed)
    if args.memory:
        memory(args.session, args.seed)


if __name__ == "__main__":
    main()
