"""The coach's decision rules, each on a hand-built position where it must
choose differently from distance-then-outs (``BASIC``), with its reason; the
baseline coach (from git history) still plays legal rounds; the simulator shows only public
knowledge of the table."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from okey_vision.coach import BASIC, RULES, Action, Reason, Rules, Table, advise
from okey_vision.coach.strategy import danger, outs_worth_taking
from okey_vision.coach.text import explain
from okey_vision.game import CoachPolicy, GreedyPolicy, Policy, TurnView, play_round
from okey_vision.lang import Lang
from okey_vision.tiles import parse_hand, parse_tile


def test_take_a_tile_that_keeps_the_distance_but_triples_the_outs():
    hand, ind, off = "r5 k6 r12 r7 r4 k10 r1 k3 y4 k4 y9 r1 r6 k8", "k2", "k5"
    basic = advise(hand, ind, offered=off, rules=BASIC)
    new = advise(hand, ind, offered=off, rules=Rules(take_outs=True))
    assert basic.action is Action.DRAW and basic.distance == 2 and basic.outs == 7
    assert new.action is Action.TAKE and new.why.reason is Reason.TAKE_OUTS
    assert "instead of 7" in explain(new) and "r1" in explain(new)  # throws r1 after taking, 21 outs
    assert "yerine" in explain(new, Lang.TR)
    # The margin: one draw given up; taking must shorten the expected wait by more.
    assert outs_worth_taking(7, 21, 60, 1.0) and not outs_worth_taking(20, 21, 60, 1.0)


def test_a_copy_an_opponent_took_is_not_counted_as_an_out():
    # Indicator b7: the okeys are b8 (two in hand, wild), the false joker plays b8.
    hand, ind = "b6 k10 k8 k13 b13 fj y12 r11 r6 r9 b8 r13 b8 y10 k12", "b7"
    table = Table(players=4, stock_left=40, held=tuple(parse_hand("r10 r10")))  # an opponent took both r10
    basic = advise(hand, ind, rules=BASIC, table=table)
    new = advise(hand, ind, rules=Rules(held_gone=True, explain=True), table=table)
    assert (basic.best.tile.name, basic.best.outs) == ("fj", 12) and "r10" in [t.name for t in basic.best.out_tiles]
    # Weighted by what can still come, throwing fj waits for 10 (the r10s are gone): r11 waits for 11.
    assert (new.best.tile.name, new.best.outs) == ("r11", 11) and new.best.distance == basic.best.distance
    fj = next(o for o in new.discards if o.tile.name == "fj")
    assert fj.outs == 10 and "r10" not in [t.name for t in fj.out_tiles]
    assert "You wait for" in explain(new)


def test_keep_back_a_tile_the_next_player_collects():
    hand, ind = "k8 r8 k2 y4 y12 r13 y12 r4 r12 b8 y13 k7 b13 r2 r11", "r3"
    took = tuple(parse_hand("y11"))
    table = Table(players=4, stock_left=40, held=took, next_held=took)
    basic = advise(hand, ind, rules=BASIC, table=table)
    # The rule measured weaker and is not in RULES; the switch still does what it says.
    rules = Rules(safety=True, safety_generic=0.02)
    new = advise(hand, ind, rules=rules, table=table)
    assert basic.best.tile.name == "y12" and new.best.tile.name == "y4"
    assert (new.best.distance, new.best.outs) == (basic.best.distance, basic.best.outs)
    assert any(n.reason is Reason.KEEP_BACK for n in new.notes) and "keep y12 back" in explain(new)
    mine = parse_hand(hand)
    assert danger(parse_tile("y12"), table, mine, 0.02) > 2 * danger(parse_tile("y4"), table, mine, 0.02)
    # Without a table (nothing known of the next player) nothing is kept back.
    assert advise(hand, ind, rules=rules).best.tile.name == "y12"


def test_the_basic_rules_say_what_the_coach_said_before():
    hand = "r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 y1"
    said = "Draw from the stock: you are 1 tile from winning, with 16 outs."
    assert explain(advise(hand, "b9", rules=BASIC)) == said
    assert explain(advise(hand, "b9")).startswith(said + " You wait for")


class _Spy(GreedyPolicy):
    """A greedy bot that keeps every view it is shown."""

    def __init__(self) -> None:
        super().__init__()
        self.views: list[TurnView] = []

    def take(self, view, rng):
        self.views.append(view)
        return super().take(view, rng)


def test_the_simulator_shows_public_knowledge_and_conserves_tiles():
    spy = _Spy()
    for seed in range(3):
        play_round([CoachPolicy(), spy, GreedyPolicy(), CoachPolicy(rules=BASIC)], random.Random(seed),
                   starter=seed, check=True)  # check: 106 tiles every turn, known-held tiles are held
    seen = [v for v in spy.views if any(v.held)]
    assert seen, "no take happened"
    for v in spy.views:
        assert Counter(v.seen) == Counter(t for pile in v.piles for t in pile)
        table = v.table()
        assert table.stock_left == v.stock_left and table.next_pile == v.piles[(v.me + 1) % v.players]


def test_the_baseline_coach_plays_legal_rounds():
    from okey_vision.eval.baseline import BaselineCoachPolicy

    for seed in range(3):
        r = play_round([BaselineCoachPolicy(), CoachPolicy(), GreedyPolicy(), BaselineCoachPolicy()],
                       random.Random(seed), starter=seed, check=True)
        assert r.stall or r.winner in range(4)


def test_the_baseline_coach_is_the_old_package_from_git_history(tmp_path, monkeypatch):
    from okey_vision.eval import baseline as baseline_coach

    # The cached text is the commit's own, with only the package renamed.
    text = baseline_coach.source("advice", baseline_coach.COMMIT)
    assert "from okey_coach_b9e9903 import text" in text and "okey_vision.coach" not in text
    assert baseline_coach.advise.__module__ == "okey_coach_b9e9903.advice"
    # Away from the history it says why, instead of running something else.
    monkeypatch.setattr(baseline_coach, "ROOT", tmp_path)
    with pytest.raises(baseline_coach.BaselineUnavailable, match="git history"):
        baseline_coach.materialise()


def test_waiting_is_a_rule_and_stops_when_the_stock_runs_out():
    # A finished hand holding an okey where waiting pays by the old rule.
    rng = random.Random(8)
    from okey_vision.eval.hands import winning_hand
    from okey_vision.solver import declare
    from okey_vision.tiles import TILES, okey_of
    for _ in range(400):
        hand, ind = winning_hand(rng, okeys=1)
        extra = rng.choice([t for t in TILES if t != okey_of(ind) and Counter(hand + [ind])[t] < 2])
        basic = advise(hand + [extra], ind, rules=BASIC)
        if basic.wait:
            break
    assert basic.wait and basic.action is Action.DISCARD
    assert advise(hand + [extra], ind).action is Action.DECLARE  # RULES: declare at once
    late = Table(players=4, stock_left=5)
    assert advise(hand + [extra], ind, rules=BASIC, table=late).action is Action.DECLARE  # a stall looms
    assert declare(hand + [extra], ind).can_declare


def test_rules_are_explicit():
    assert Rules() == BASIC and RULES != BASIC
    assert isinstance(CoachPolicy().rules, Rules) and CoachPolicy().rules == RULES
    assert Policy().name == "policy"
