"""Time ``arrange`` and ``declare`` on seeded random 15-tile hands, beside the
peer library okey-solver-py on the same hands.

    python benchmarks/solver_bench.py [--hands 300] [--seed 2026] [--no-peer]

Our times are cold: every call without a memo gets a fresh one, so no
hand profits from an earlier one. Each call is timed ``--repeat`` times (CPU
time of this process, so other work on the machine does not inflate it) and
the fastest is kept, for both libraries alike. Hands come with 0, 1 and 2
okeys in equal numbers. Every hand where the two disagree on tiles placed is printed, with
the peer's melds that break the rules.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent

from okey_vision.solver import arrange, declare  # noqa: E402
from okey_vision.tiles import FULL_SET, format_hand, okey_of  # noqa: E402

DECK = list(FULL_SET)


def seeded_hands(n: int, seed: int) -> list[tuple[list, object, int]]:
    """``n`` random 15-tile deals, a third each with 0, 1 and 2 okeys."""
    rng = random.Random(seed)
    out = []
    for k in range(n):
        okeys = k % 3
        deck = DECK[:]
        rng.shuffle(deck)
        ind = next(t for t in deck if not t.is_false_joker)
        deck.remove(ind)
        okey = okey_of(ind)
        hand = [okey] * okeys + [t for t in deck if t != okey][: 15 - okeys]
        rng.shuffle(hand)
        out.append((hand, ind, okeys))
    return out


REPEAT = 3


def timed(fn, *args) -> tuple[float, object]:
    """(seconds of CPU time, result): the fastest of REPEAT calls. Every
    call without a memo gets a fresh one, so each is cold."""
    best = float("inf")
    for _ in range(REPEAT):
        t0 = time.process_time()
        result = fn(*args)
        best = min(best, time.process_time() - t0)
    return best, result


def pct(values: list[float], q: float) -> float:
    """The q-quantile (0..1) of some values, nearest rank."""
    values = sorted(values)
    return values[min(len(values) - 1, int(q * len(values)))]


def ms(x: float) -> str:
    """Seconds as milliseconds with 3 decimals."""
    return f"{x * 1000:.3f} ms"


def main(argv: list[str] | None = None) -> int:
    """Run the benchmark and print its figures."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--hands", type=int, default=300)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--no-peer", action="store_true")
    args = ap.parse_args(argv)
    global REPEAT
    REPEAT = args.repeat
    hands = seeded_hands(args.hands, args.seed)

    ours_arrange, ours_declare, placed, declared = [], [], [], []
    for hand, ind, _ in hands:
        t, a = timed(arrange, hand, ind)
        ours_arrange.append(t)
        placed.append(a.tiles_in_melds)
        t, d = timed(declare, hand, ind)
        ours_declare.append(t)
        declared.append(d.can_declare)

    print(f"okey-vision solver, {len(hands)} random 15-tile hands (seed {args.seed}, 0/1/2 okeys), "
          f"cold memo, CPU time, best of {REPEAT}")
    for name, xs in (("arrange", ours_arrange), ("declare", ours_declare)):
        print(f"  {name}: median {ms(statistics.median(xs))}, p99 {ms(pct(xs, 0.99))}, max {ms(max(xs))}")
    for okeys in (0, 1, 2):
        sel = [ours_arrange[i] for i, h in enumerate(hands) if h[2] == okeys]
        print(f"  arrange with {okeys} okey(s): median {ms(statistics.median(sel))}")

    if args.no_peer:
        return 0
    try:
        from peer_lib import PEER_SPEC, PeerSolver

        peer = PeerSolver("backtracking")
    except Exception as exc:  # noqa: BLE001 - the peer is optional: say why it is missing, whatever it was
        print(f"peer library not available: {exc}")
        return 0

    peer_arrange, peer_declare = [], []
    fewer = invalid = more = 0
    print(f"\npeer {PEER_SPEC} (exact backtracking engine), same hands")
    for k, (hand, ind, okeys) in enumerate(hands):
        t, r = timed(peer.arrange, hand, ind)
        peer_arrange.append(t)
        claimed, valid, bad = peer.placed(hand, ind, r)
        t, _ = timed(peer.declares, hand, ind)
        peer_declare.append(t)
        if claimed != placed[k] or bad:
            if bad:
                invalid += 1
            if valid > placed[k]:
                fewer += 1
            elif valid < placed[k]:
                more += 1
            print(f"  disagree #{k} ({okeys} okeys) indicator {ind.name}: {format_hand(hand)}")
            print(f"    ours {placed[k]} placed; peer claims {claimed}, valid {valid}"
                  + (f"; invalid peer melds: {bad}" if bad else ""))
    for name, ours, theirs in (("arrange", ours_arrange, peer_arrange), ("declare", ours_declare, peer_declare)):
        mo, mp = statistics.median(ours), statistics.median(theirs)
        print(f"  {name}: peer median {ms(mp)}, p99 {ms(pct(theirs, 0.99))}; ours is {mp / mo:.1f}x faster (median)")
    print(f"  hands where we place fewer valid tiles than the peer: {fewer}")
    print(f"  hands where we place more: {more}; hands where the peer's melds break the rules: {invalid}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
