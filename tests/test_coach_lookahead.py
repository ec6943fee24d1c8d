"""The sampling lookahead: a hand-built position where it chooses
differently from distance-then-outs, with its reason; the same answer for
the same position and seed; the simulator still conserves every tile with
it on."""

from __future__ import annotations

import dataclasses
import random

from okey_vision.coach import BASIC, RULES, Reason, Rules, Table, advise
from okey_vision.coach.lookahead import hidden_tiles, look, position_seed
from okey_vision.coach.ranking import rank_discards
from okey_vision.coach.text import explain
from okey_vision.coach.why import LookaheadNote
from okey_vision.game import CoachPolicy, GreedyPolicy, play_round
from okey_vision.lang import Lang
from okey_vision.memo import Memo
from okey_vision.tiles import SET_SIZE, parse_hand, parse_tile

LOOK = dataclasses.replace(RULES, lookahead=True)
# Two away either way, 11 outs either way: b10 ranks first by the tie-breaks.
HAND, IND = "b11 y5 r10 k2 y6 b3 r8 b1 k4 r7 y4 b10 r4 b13 r9", "b8"


def test_the_lookahead_throws_what_distance_then_outs_keeps():
    basic = advise(HAND, IND, rules=BASIC)
    rules = advise(HAND, IND)
    new = advise(HAND, IND, rules=LOOK)
    assert (basic.best.tile.name, basic.best.distance, basic.best.outs) == ("b10", 2, 11)
    assert rules.best.tile.name == "b10"  # the kept rules alone agree with distance-then-outs
    assert (new.best.tile.name, new.best.distance, new.best.outs) == ("k2", 2, 11)
    note = next(n for n in new.notes if n.reason is Reason.LOOKAHEAD)
    other, tile, chosen, first = note.other, note.tile, note.chosen, note.first
    assert other.tile.name == "b10" and tile.name == "k2"
    assert chosen.score > first.score and chosen.samples == LOOK.look_samples and chosen.draws == LOOK.look_draws
    assert "Throwing b10 would wait for 11 tiles" in explain(new) and "sampled deals" in explain(new)
    assert "örnek dağıtımda" in explain(new, Lang.TR)


def test_take_or_draw_by_the_lookahead():
    hand, ind, off = "b9 k12 k7 r5 y3 k6 k1 k3 b10 k8 r3 b12 r4 r2", "b4", "y4"
    kept = advise(hand, ind, offered=off)
    assert kept.take and kept.why.reason is Reason.TAKE_OUTS  # more outs after taking: take, says RULES
    assert advise(hand, ind, offered=off, rules=LOOK).take  # the discard lookahead alone leaves it so
    new = advise(hand, ind, offered=off, rules=dataclasses.replace(LOOK, look_take=True))
    assert not new.take and new.why.reason is Reason.LEAVE_LOOK and new.distance == 2
    took, drew = new.why.took, new.why.drew
    assert drew.score > took.score and drew.draws == took.draws + 1  # taking spends this turn's draw
    assert explain(new).startswith("Draw from the stock: y4 keeps the hand 2 tiles from winning")
    assert explain(new, Lang.TR).startswith("Ortadan çek: sarı 4 eli kısaltmaz")  # The stock is ortadan


def test_the_lookahead_is_deterministic():
    a = advise(HAND, IND, rules=LOOK)
    b = advise(HAND, IND, rules=LOOK, memo=Memo())
    assert a.best.tile == b.best.tile and a.notes == b.notes
    tiles, ind = parse_hand(HAND), parse_tile(IND)
    options = rank_discards(tiles, ind)[:3]
    seed = position_seed(tiles, ind, ())
    first = look(options, tiles, ind, (), Memo(), 6, 100, 40, seed)
    again = look(options, tiles, ind, (), Memo(), 6, 100, 40, seed)
    assert first == again
    # Another seed plays other samples (the scores move), same position, same seed: same scores.
    other = look(options, tiles, ind, (), Memo(), 6, 100, 40, seed + 1)
    assert other != first and [s.samples for s in other] == [100] * 3
    assert position_seed(tiles, ind, ()) == position_seed(list(reversed(tiles)), ind, ())


def test_the_lookahead_keeps_to_its_budget_and_what_is_hidden():
    tiles, ind = parse_hand(HAND), parse_tile(IND)
    seen = parse_hand("r1 r1 y9")
    hidden = hidden_tiles(tiles, ind, seen)
    assert len(hidden) == SET_SIZE - 15 - 3 - 1 and parse_tile("r1") not in hidden
    options = rank_discards(tiles, ind, seen)[:3]
    short = look(options, tiles, ind, seen, Memo(), 6, 200, 2, 7)
    assert all(s.samples < 200 for s in short)  # samples past the search budget are not played
    # Few tiles left in the stock: the player draws about one in four of them.
    table = Table(players=4, stock_left=8)
    late = advise(HAND, IND, rules=LOOK, table=table)
    assert all(n.chosen.draws <= 2 for n in late.notes if isinstance(n, LookaheadNote))


def test_the_simulator_conserves_tiles_with_the_lookahead():
    for seed in range(3):
        r = play_round([CoachPolicy(rules=LOOK), GreedyPolicy(), CoachPolicy(), CoachPolicy(rules=LOOK)],
                       random.Random(seed), starter=seed, check=True)  # check: 106 tiles every turn
        assert r.stall or r.winner in range(4)


def test_the_lookahead_is_a_switch():
    assert not Rules().lookahead and not BASIC.lookahead and Rules().explain is False
    # Measured no stronger on the tuning seed (docs/results.md, "Coach strength"): off in the kept rules.
    assert not RULES.lookahead and not RULES.look_take and RULES.explain
