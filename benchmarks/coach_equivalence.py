"""Coach equivalence: record the coach's decisions on fixed seeds, or check
that the current code makes exactly the recorded ones.

    python benchmarks/coach_equivalence.py --record tests/data/coach_reference.json.gz
    python benchmarks/coach_equivalence.py --check tests/data/coach_reference.json.gz [--quick]
        [--coach basic|baseline]

Issue 14 changed the coach's decisions on purpose (``okey_vision.coach.RULES``).
The check proves what did not change: ``--coach basic`` (the default) replays
the current code with the new rules switched off (``rules=BASIC``:
distance-then-outs, the same searches); ``--coach baseline`` replays the
old coach taken from git history at commit b9e9903
(``benchmarks/baseline_coach.py``, the strength benchmark's yardstick),
proving that it is what it claims to be.

The reference was recorded from the code before the coach became a package
(commit cc23646). Each case is one public call on a seeded hand: full advice
on 15 tiles (every ranked discard with its distance, outs, route and
tie-breaks), advice with an offered tile on 14 (take or draw), a reading and
the distance, the coach bot's take decision, and whole simulated rounds of
the strength benchmark (every move of every player, so a single changed
decision of the coach bot shows). Only public names are used, so the same
script runs on the old and the new code.
"""

from __future__ import annotations

import argparse
import dataclasses
import gzip
import json
import os
import random
import sys
import time
from collections import Counter

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests"))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

from hands import pairs_hand, random_hand, scarce_hand

from okey_vision import coach
from okey_vision.coach import text as coach_text
from okey_vision.game import CoachPolicy, GreedyPolicy, View, play_round

# The coach under check (set by --coach): advise, distance, reading, its bot
# and the advice's JSON summary with the reason in words.
advise = coach.advise
distance = coach.distance
reading = coach.reading
Bot = CoachPolicy
summary = coach_text.advice_dict


def use_coach(which: str) -> None:
    """Check ``which`` coach: the current code with the new rules off ("basic"), or the "baseline" from git history."""
    global advise, distance, reading, Bot, summary
    if which == "baseline":
        import baseline_coach
        advise, distance, reading = baseline_coach.advise, baseline_coach.distance, baseline_coach.reading
        Bot = baseline_coach.BaselineCoachPolicy
        summary = baseline_coach.summary  # the old Advice said its reason itself
    else:
        def advise(*args, **kwargs):
            return coach.advise(*args, rules=coach.BASIC, **kwargs)
        distance, reading = coach.distance, coach.reading

        def Bot(**kwargs):
            # The old bot declared at once (the old advice's wait was never played).
            return CoachPolicy(rules=dataclasses.replace(coach.BASIC, wait=False), **kwargs)
from okey_vision.tiles import TILES, okey_of  # noqa: E402

# How strength-benchmark rounds are seeded (benchmarks/coach_strength.py).
STRENGTH_SEED = 1


def _names(tiles) -> list[str]:
    return [t.name for t in tiles]


def _free_tile(rng: random.Random, used) -> object:
    """A tile of which a copy is still left beside ``used``."""
    count = Counter(used)
    return rng.choice([t for t in TILES if count[t] < 2])


def _scarce(rng: random.Random, changes: int):
    return scarce_hand(rng, changes, (0.3, 0.6, 0.8, 0.9))


def _option(o) -> dict:
    d = o.to_dict()
    d["keeps"] = o.keeps
    d["potential"] = o.potential
    return d


def cases(quick: bool = False):
    """Yield (name, function, inputs): each function returns a JSON-ready
    result; inputs are (hand, indicator, seen) for single hands."""
    n = 4 if quick else 1
    # One generator per group, so that --quick takes a prefix of each group.
    rng = random.Random(2024)
    for k in range(160 // n):
        hand, ind = random_hand(rng, 15, okeys=rng.choice([None, None, 1, 2]))
        yield f"random15-{k}", _advise15(hand, ind, []), (hand, ind, [])
    rng = random.Random(2025)
    for k in range(60 // n):
        hand, ind, seen = _scarce(rng, rng.choice([1, 2, 3]))
        hand = hand + [_free_tile(rng, hand + seen + [ind])]
        yield f"scarce15-{k}", _advise15(hand, ind, seen), (hand, ind, seen)
    rng = random.Random(2026)
    for k in range(60 // n):
        hand, ind = pairs_hand(rng, 15)
        yield f"pairs15-{k}", _advise15(hand, ind, []), (hand, ind, [])
    rng = random.Random(2027)
    for k in range(120 // n):
        if k % 3 == 0:
            hand, ind = pairs_hand(rng, 14)
            seen = []
        elif k % 3 == 1:
            hand, ind, seen = _scarce(rng, rng.choice([1, 2]))
        else:
            hand, ind = random_hand(rng, 14, okeys=rng.choice([None, 1]))
            seen = []
        off = _free_tile(rng, hand + seen + [ind])
        yield f"draw14-{k}", _advise14(hand, ind, seen, off), (hand, ind, seen)
    for k in range(12 // n):
        rounds = 3
        names = ["coach", "greedy", "greedy", "greedy"]
        yield f"strength-{k}", _rounds(names, range(k * rounds, (k + 1) * rounds)), None
    for k in range(3 // n):
        yield f"fast-coach-{k}", _rounds(["fastcoach", "greedy", "coach"], range(k * 2, k * 2 + 2)), None


def _advise15(hand, ind, seen):
    def run():
        a = advise(hand, ind, seen)
        d = summary(a)
        d["options"] = [_option(o) for o in a.discards]
        d["fast"] = [_option(o) for o in advise(hand, ind, seen, with_outs=False).discards]
        d["distance"] = distance(hand, ind, seen)
        return d
    return run


def _advise14(hand, ind, seen, off):
    def run():
        d = {"draw": summary(advise(hand, ind, seen)), "offered": summary(advise(hand, ind, seen, offered=off))}
        r = reading(hand, ind, seen + [off])
        d["reading"] = [r.distance, r.melds_distance, r.pairs_distance, r.outs, _names(r.out_tiles), r.route]
        # every seen tile on the previous player's pile, the offered one on top
        view = View(0, tuple(hand), ind, ((), (), (), tuple(seen) + (off,)), off, 40, 4)
        d["bot_take"] = Bot().take(view, random.Random(0))
        return d
    return run


def _rounds(names, seeds):
    def run():
        out = []
        for i in seeds:
            pols = [Bot(with_outs=False) if n == "fastcoach" else
                    Bot() if n == "coach" else GreedyPolicy() for n in names]
            moves: list[str] = []

            def watch(state, moves=moves):  # bound now: called during this round only
                m = state["move"]
                moves.append(f"{state['player']}:{m.discard.name}{'!' if m.declare else ''}:{len(state['stock'])}")

            r = play_round(pols, random.Random(STRENGTH_SEED * 1_000_003 + i), starter=i % len(pols),
                           on_turn=watch)
            out.append({"winner": r.winner, "turns": r.turns, "points": r.points, "moves": " ".join(moves)})
        return out
    return run


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--record", metavar="FILE")
    ap.add_argument("--check", metavar="FILE")
    ap.add_argument("--quick", action="store_true", help="a quarter of the cases")
    ap.add_argument("--coach", choices=("basic", "baseline"), default="basic",
                    help="the current code with rules=BASIC (default), or the baseline coach from git history")
    args = ap.parse_args()
    use_coach(args.coach)
    if bool(args.record) == bool(args.check):
        ap.error("give one of --record or --check")
    if args.record:
        ref = {}
        t0 = time.process_time()
        for name, run, _ in cases():
            ref[name] = run()
        with gzip.open(args.record, "wt") as f:
            json.dump(ref, f, sort_keys=True)
        print(f"recorded {len(ref)} cases in {time.process_time() - t0:.0f} s CPU to {args.record}")
        return 0
    with gzip.open(args.check, "rt") as f:
        ref = json.load(f)
    bad = fixed = checked = 0
    t0 = time.process_time()
    waits = 0
    for name, run, inputs in cases(args.quick):
        got = json.loads(json.dumps(run()))
        checked += 1
        if got == ref[name]:
            continue
        if inputs is not None and _wait_fixed(ref[name], got, *inputs):
            waits += 1
            print(f"WAIT RULE FIXED: {name}: the old advice counted the player's own okey among the tiles "
                  f"to draw; brute-force draws agree with the new verdict")
            continue
        if _take_fixed(ref[name], got):
            fixed += 1
            print(f"TAKE RULE FIXED: {name}: the old advice said draw where the old bot (the exact rule) "
                  f"took; the new advice takes, as the bot does")
            continue
        bad += 1
        print(f"DIFFERS: {name}")
    print(f"coach: {args.coach}")
    print(f"{checked} cases checked in {time.process_time() - t0:.0f} s CPU: {checked - bad - fixed - waits} "
          f"identical, {fixed} take-or-draw advice now following the bot's (exact) rule, {waits} wait verdicts "
          f"fixed (brute force agrees), {bad} differ")
    return 1 if bad else 0


def _wait_fixed(old: dict, new: dict, hand, ind, seen) -> bool:
    """True when the only change is whether a finished hand waits, and
    brute-force draws (tests/brute.py, independent of the coach) agree
    with the new verdict and not the old."""
    from brute import is_finished, is_seven_pairs

    from okey_vision.coach import OPPONENT_FINISH_RATE
    from okey_vision.solver import declare
    from okey_vision.tiles import FULL_SET, SET_SIZE

    changed = {k for k in set(old) | set(new) if old.get(k) != new.get(k)}
    if not changed or not changed <= {"wait", "action", "reason"} or not (old["wait"] or new["wait"]):
        return False
    finish = declare(hand, ind).best
    okey = okey_of(ind)
    base = list(hand)
    base.remove(finish.discard)
    base.remove(okey)
    left = Counter(FULL_SET) - Counter(hand) - Counter(seen) - Counter([ind])
    wins = sum(n for t, n in left.items() if is_finished(base + [t], ind) or is_seven_pairs(base + [t], ind))
    p = wins / (SET_SIZE - len(hand) - len(seen) - 1)
    now = finish.points()
    wait = p * 2 * now + (1 - p) * (1 - OPPONENT_FINISH_RATE) * now > now
    # The verdict agrees with brute force, and so does the count it quotes.
    return new["wait"] == wait and (not wait or f"{wins} of " in new["reason"])


def _take_fixed(old: dict, new: dict) -> bool:
    """True when the only change is the offered tile's take-or-draw advice,
    which now agrees with the old coach bot's decision where the old advice
    did not (the old advice missed an offered tile that is the last copy of
    its face: it lowers the distance, yet no out counts it)."""
    if set(old) != set(new) or "bot_take" not in old:
        return False
    same = {k: v for k, v in old.items() if k != "offered"} == {k: v for k, v in new.items() if k != "offered"}
    rest = {k: v for k, v in old["offered"].items() if k not in ("take", "action", "reason")} == \
        {k: v for k, v in new["offered"].items() if k not in ("take", "action", "reason")}
    return same and rest and old["offered"]["take"] != old["bot_take"] and new["offered"]["take"] == old["bot_take"]


if __name__ == "__main__":
    sys.exit(main())
