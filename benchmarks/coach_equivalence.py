"""Coach equivalence: record the coach's decisions on fixed seeds, or check
that the current code makes exactly the recorded ones.

    python benchmarks/coach_equivalence.py --record tests/data/coach_reference.json.gz
    python benchmarks/coach_equivalence.py --check tests/data/coach_reference.json.gz [--quick]
        [--coach basic|baseline|ties]

The decision rules changed the coach's decisions on purpose (``okey_vision.coach.RULES``).
The check proves what did not change: ``--coach basic`` (the default) replays
the current code with the new rules switched off (``rules=BASIC``:
distance-then-outs, the same searches); ``--coach baseline`` replays the
old coach taken from git history at commit b9e9903
(``okey_vision/eval/baseline.py``, the strength benchmark's yardstick),
proving that it is what it claims to be. ``--coach ties`` replays the
basic rules with the choice among equal discards switched on
(``loose_first``: a loose tile first, then the one the next player least
likely wants): each change must be equally good discards re-ordered (the
same discards with the same distance and outs, in another order within
each tie, a loose tile first), or a simulated round that follows the
recorded one move for move up to a coach's turn where the rule threw
another of equally good discards.

The decisions are compared, not the words: the reasons' sentences are the
text module's (``okey_vision/coach/text.py``, checked by
``tests/test_text.py``), reworded since. A finished 14-tile hand now
says to declare where the old advice said "draw, 0 exchanges away": its
own category (the same hand, distance and outs).

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
import random
import sys
import time
from collections import Counter

from okey_vision import coach
from okey_vision.coach import text as coach_text
from okey_vision.eval.hands import pairs_hand, random_hand, scarce_hand
from okey_vision.game import CoachPolicy, GreedyPolicy, TurnView, play_round

# The coach under check (set by --coach): advise, distance, reading, its bot
# and the advice's JSON summary with the reason in words.
advise = coach.advise
distance = coach.distance
reading = coach.reading
Bot = CoachPolicy
summary = coach_text.advice_dict


#: The simulated round being played (its number in the case and its moves so
#: far), and the coach's turns where the choice among equal discards threw
#: another tile than the basic ranking: (round, move, the basic discard, the
#: one thrown, equally good?).
_PLAYING: dict = {"round": 0, "moves": None, "reorders": []}


def use_coach(which: str) -> None:
    """Check ``which`` coach: the current code with the new rules off ("basic"),
    with the choice among equal discards on ("ties"), or the "baseline" from git history."""
    global advise, distance, reading, Bot, summary
    if which == "baseline":
        from okey_vision.eval import baseline as baseline_coach
        advise, distance, reading = baseline_coach.advise, baseline_coach.distance, baseline_coach.reading
        Bot = baseline_coach.BaselineCoachPolicy
        summary = baseline_coach.summary  # the old Advice said its reason itself
    else:
        rules = dataclasses.replace(coach.BASIC, loose_first=which == "ties")

        def advise(*args, **kwargs):
            return coach.advise(*args, rules=rules, **kwargs)
        distance, reading = coach.distance, coach.reading

        def Bot(**kwargs):
            # The old bot declared at once (the old advice's wait was never played).
            return _Bot(rules=dataclasses.replace(rules, wait=False), **kwargs)


class _Bot(CoachPolicy):
    """The coach bot; where its rules choose among equal discards, each move
    is compared with the basic ranking's first discard (a round that changes
    must change first at such a move)."""

    def move(self, view, rng):
        m = super().move(view, rng)
        if self.rules.loose_first and not m.declare and _PLAYING["moves"] is not None:
            basic = coach.advise(view.hand, view.indicator, view.seen, scheme=view.scheme,
                                 with_outs=self.with_outs, memo=self.memo, only_best=True, table=view.table(),
                                 rules=dataclasses.replace(self.rules, loose_first=False))
            if basic.best.tile != m.discard:
                thrown = next(o for o in coach.advise(view.hand, view.indicator, view.seen, scheme=view.scheme,
                                                      with_outs=self.with_outs, table=view.table(),
                                                      rules=self.rules).discards if o.tile == m.discard)
                _PLAYING["reorders"].append((_PLAYING["round"], len(_PLAYING["moves"]), basic.best.tile.name,
                                             m.discard.name,
                                             (thrown.distance, thrown.outs) == (basic.best.distance,
                                                                                basic.best.outs)))
        return m
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
        view = TurnView(0, tuple(hand), ind, ((), (), (), tuple(seen) + (off,)), off, 40, 4)
        d["bot_take"] = Bot().take(view, random.Random(0))
        return d
    return run


def _rounds(names, seeds):
    def run():
        out = []
        for k, i in enumerate(seeds):
            _PLAYING["round"] = k
            pols = [Bot(with_outs=False) if n == "fastcoach" else
                    Bot() if n == "coach" else GreedyPolicy() for n in names]
            moves: list[str] = []
            _PLAYING["moves"] = moves

            def watch(state, moves=moves):  # bound now: called during this round only
                m = state["move"]
                moves.append(f"{state['player']}:{m.discard.name}{'!' if m.declare else ''}:{len(state['stock'])}")

            r = play_round(pols, random.Random(STRENGTH_SEED * 1_000_003 + i), starter=i % len(pols),
                           on_turn=watch)
            out.append({"winner": r.winner, "turns": r.turns, "points": r.points, "moves": " ".join(moves)})
            _PLAYING["moves"] = None
        return out
    return run


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--record", metavar="FILE")
    ap.add_argument("--check", metavar="FILE")
    ap.add_argument("--quick", action="store_true", help="a quarter of the cases")
    ap.add_argument("--coach", choices=("basic", "baseline", "ties"), default="basic",
                    help="the current code with rules=BASIC (default), BASIC with the choice among equal "
                         "discards, or the baseline coach from git history")
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
    waits = declares = ties = rounds = advised = 0
    for name, run, inputs in cases(args.quick):
        _PLAYING["reorders"] = []
        got = json.loads(json.dumps(run()))
        checked += 1
        if _decisions(got) == _decisions(ref[name]):
            continue
        if _finished_declares(ref[name], got):
            declares += 1
            continue
        if args.coach == "ties" and inputs is not None and _ties_reordered(ref[name], got, *inputs):
            ties += 1
            was, now = ref[name]["options"][0]["tile"], got["options"][0]["tile"]
            advised += was != now
            print(f"TIE RE-ORDERED: {name}: equally good discards (the same distance and outs) in the player's "
                  f"order, a loose tile first" + (f"; advised {now} instead of {was}" if was != now else ""))
            continue
        if args.coach == "ties" and inputs is None and _round_follows_to_a_tie(ref[name], got):
            rounds += 1
            first = _PLAYING["reorders"][0]
            print(f"ROUND CHANGES AT A TIE: {name}: the same moves up to round {first[0]}'s move {first[1]}, where "
                  f"the coach threw {first[3]} instead of {first[2]}, equally good (same distance and outs)")
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
    same = checked - bad - fixed - waits - declares - ties - rounds
    print(f"{checked} cases checked in {time.process_time() - t0:.0f} s CPU: {same} identical, {fixed} take-or-draw "
          f"advice now following the bot's (exact) rule, {waits} wait verdicts fixed (brute force agrees), "
          f"{declares} finished 14-tile hands now saying declare, {ties} with ties re-ordered by the loose-tile "
          f"rule ({advised} of them advising another of the equally good discards), "
          f"{rounds} rounds changed at such a tie, {bad} differ")
    return 1 if bad else 0


#: The summary's keys that hold words, not decisions (the headline among them).
WORDS = frozenset({"reason", "headline"})


def _decisions(result):
    """A recorded result without its words (``reason`` and ``headline``, at any depth)."""
    if isinstance(result, dict):
        return {k: _decisions(v) for k, v in result.items() if k not in WORDS}
    if isinstance(result, list):
        return [_decisions(v) for v in result]
    return result


def _finished_declares(old: dict, new: dict) -> bool:
    """True when the only change is a finished 14-tile hand's advice: the old
    one said draw (0 exchanges away), the new one says declare, with the
    hand, distance and outs unchanged."""
    if "draw" not in old or set(_decisions(old)) != set(_decisions(new)):
        return False
    o, n = _decisions(old["draw"]), _decisions(new["draw"])
    if not (o["action"] == "draw" and o["distance"] == 0 and n["action"] == "declare" and n["can_declare"]
            and n["declare"] is not None and n["declare"]["discard"] is None):
        return False
    changed = {"action", "can_declare", "declare", "declare_points"}
    rest = {k: v for k, v in _decisions(old).items() if k != "draw"} == \
        {k: v for k, v in _decisions(new).items() if k != "draw"}
    return rest and {k: v for k, v in o.items() if k not in changed} == {k: v for k, v in n.items() if k not in changed}


def _by_tie(options: list[dict]) -> list:
    """Ranked discards with each tie's (equal distance and outs) order forgotten."""
    groups: dict = {}
    for o in options:
        groups.setdefault((o["distance"], o["outs"]), []).append(json.dumps(o, sort_keys=True))
    return [(k, sorted(v)) for k, v in groups.items()]


def _ties_reordered(old: dict, new: dict, hand, ind, seen) -> bool:
    """True when a 15-tile advice changed only in the order of equally good
    discards (the same distance and outs), and each tie now leads with a
    loose tile (in no drawn meld) whenever it holds one."""
    from okey_vision.solver import arrange

    if "options" not in old or set(_decisions(old)) != set(_decisions(new)):
        return False
    lists = ("options", "fast", "discards")
    o, n = _decisions(old), _decisions(new)
    if any(_by_tie(o[k]) != _by_tie(n[k]) for k in lists):
        return False
    if {k: v for k, v in o.items() if k not in lists} != {k: v for k, v in n.items() if k not in lists}:
        return False
    loose = {t.name for t in arrange(hand, ind).shown[1]}
    for k in ("options", "discards"):
        seen_ties: set = set()
        for opt in n[k]:
            key = (opt["distance"], opt["outs"])
            if key in seen_ties:
                continue
            seen_ties.add(key)
            tie = [x["tile"] for x in n[k] if (x["distance"], x["outs"]) == key]
            if new.get("can_declare") or len(tie) < 2:
                continue
            if any(t in loose for t in tie) and opt["tile"] not in loose:
                return False
    return o[lists[0]] != n[lists[0]] or o[lists[1]] != n[lists[1]] or o[lists[2]] != n[lists[2]]


def _round_follows_to_a_tie(old: list, new: list) -> bool:
    """True when the simulated rounds changed only after a coach's turn where
    the choice among equal discards threw another tile than the basic
    ranking, equally good (the same distance and outs): every move before
    it is the recorded one."""
    reorders = _PLAYING["reorders"]
    if not reorders or len(old) != len(new) or not all(tie for *_, tie in reorders):
        return False
    # Each round that differs must differ first at a re-ordered tie of its own.
    changed = False
    for k, (o, n) in enumerate(zip(old, new, strict=True)):
        if o == n:
            continue
        om, nm = o["moves"].split(), n["moves"].split()
        first = next((i for i, (a, b) in enumerate(zip(om, nm, strict=False)) if a != b),  # the shorter ends first
                     min(len(om), len(nm)))
        if min(at for r, at, *_ in reorders if r == k) != first if any(r == k for r, *_ in reorders) else True:
            return False
        changed = True
    return changed


def _wait_fixed(old: dict, new: dict, hand, ind, seen) -> bool:
    """True when the only change is whether a finished hand waits, and
    brute-force draws (okey_vision/eval/brute.py, independent of the coach) agree
    with the new verdict and not the old."""
    from okey_vision.coach import OPPONENT_FINISH_RATE
    from okey_vision.eval.brute import is_finished, is_seven_pairs
    from okey_vision.solver import declare
    from okey_vision.tiles import FULL_SET, SET_SIZE

    changed = {k for k in set(old) | set(new) if k not in WORDS and _decisions(old.get(k)) != _decisions(new.get(k))}
    if not changed or not changed <= {"wait", "action"} or not (old["wait"] or new["wait"]):
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
    if set(_decisions(old)) != set(_decisions(new)) or "bot_take" not in old:
        return False
    old, new = _decisions(old), _decisions(new)
    same = {k: v for k, v in old.items() if k != "offered"} == {k: v for k, v in new.items() if k != "offered"}
    rest = {k: v for k, v in old["offered"].items() if k not in ("take", "action", "reason")} == \
        {k: v for k, v in new["offered"].items() if k not in ("take", "action", "reason")}
    return same and rest and old["offered"]["take"] != old["bot_take"] and new["offered"]["take"] == old["bot_take"]


if __name__ == "__main__":
    sys.exit(main())
