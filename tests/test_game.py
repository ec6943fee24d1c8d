"""The simulator: the deal, tile conservation, legal declarations, scoring."""

from __future__ import annotations

import random

import pytest

from okey_vision.game import (
    CoachPolicy,
    GameError,
    GreedyPolicy,
    Move,
    Policy,
    RandomPolicy,
    deal,
    play_game,
    play_round,
)
from okey_vision.scoring import COUNTDOWN, PENALTY
from okey_vision.solver import declare
from okey_vision.tiles import FALSE_JOKER


def test_deal_sizes_and_indicator():
    for n in (2, 3, 4):
        hands, indicator, stock = deal(random.Random(n), n, starter=1)
        assert [len(h) for h in hands] == [14 if p != 1 else 15 for p in range(n)]
        assert indicator != FALSE_JOKER
        assert sum(map(len, hands)) + len(stock) + 1 == 106
    with pytest.raises(GameError, match="5"):
        deal(random.Random(0), 5)


def test_rounds_conserve_tiles_and_only_finished_hands_are_declared():
    declared = []

    def watch(state):
        move = state["move"]
        if move.declare:
            hand = state["hands"][state["player"]] + [move.discard]
            assert any(f.discard == move.discard for f in declare(hand, state["indicator"]).finishes)
            declared.append(state["player"])

    mixes = [[RandomPolicy(), GreedyPolicy()], [GreedyPolicy(), CoachPolicy(), RandomPolicy()],
             [CoachPolicy(), GreedyPolicy(), GreedyPolicy(), RandomPolicy()]]
    results = []
    for seed in range(6):
        pols = mixes[seed % 3]
        results.append(play_round(pols, random.Random(seed), starter=seed % len(pols),
                                  check=True, on_turn=watch))
    assert len(declared) == sum(not r.stall for r in results) > 0


def test_random_players_reach_a_stall_and_it_is_scored():
    r = play_round([RandomPolicy(), RandomPolicy()], random.Random(1), scheme=PENALTY, check=True)
    assert r.stall and r.winner is None
    assert all(d >= 10 for d in r.delta)  # every player takes the stall penalty


class Cheater(Policy):
    name = "cheater"

    def move(self, view, rng):
        return Move(view.hand[0], declare=True)


def test_declaring_an_unfinished_hand_is_refused():
    with pytest.raises(GameError, match="unfinished"):
        play_round([Cheater(), GreedyPolicy()], random.Random(0))


def test_scoring_of_a_round_and_games():
    r = play_round([GreedyPolicy()] * 4, random.Random(4), scheme=COUNTDOWN)
    assert not r.stall
    losers = [d for p, d in enumerate(r.delta) if p != r.winner]
    twin_loss = [sum(1 for t in r.twins if t != p) for p in range(4)]
    assert all(d == -r.points - twin_loss[p] for p, d in enumerate(r.delta) if p != r.winner)
    assert r.delta[r.winner] == -twin_loss[r.winner] and len(losers) == 3
    g = play_game([GreedyPolicy(), GreedyPolicy()], random.Random(2), scheme=COUNTDOWN)
    assert min(g.scores) <= 0 and g.scores[g.winner] == max(g.scores)
    g = play_game([GreedyPolicy(), GreedyPolicy(), GreedyPolicy()], random.Random(3),
                  scheme=PENALTY, rounds=3)
    assert len(g.rounds) == 3 and g.scores[g.winner] == min(g.scores) and max(g.scores) > 0
