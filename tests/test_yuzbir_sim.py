"""The 101 round simulator: the deal, tile conservation, legal play, scores."""

from __future__ import annotations

import random

import pytest

from okey_vision.melds import make_meld
from okey_vision.tiles import FULL_SET
from okey_vision.yuzbir import Opened
from okey_vision.yuzbir.sim import (
    SEATS,
    Bot101,
    CoachBot101,
    GreedyBot101,
    PlayError101,
    Turn101,
    View101,
    deal101,
    play_round101,
)


def test_deal_sizes_and_tiles() -> None:
    indicator, hands, stock = deal101(random.Random(1), starter=2)
    assert [len(h) for h in hands] == [21, 21, 22, 21]
    assert not indicator.is_false_joker
    assert sorted([indicator, *stock, *(t for h in hands for t in h)]) == sorted(FULL_SET)


@pytest.mark.parametrize("seed", range(6))
def test_rounds_conserve_tiles_and_score(seed: int) -> None:
    # check=True verifies after every turn that each of the 106 tiles is in exactly one place
    bots: list[Bot101] = [CoachBot101(), GreedyBot101(), GreedyBot101(), CoachBot101()]
    r = play_round101(bots, random.Random(seed), starter=seed % SEATS, check=True)
    assert len(r.scores) == SEATS and r.turns > 0
    for p, score in enumerate(r.scores):
        if p == r.finisher:
            assert score < 0
        elif r.opened[p] is Opened.NO:
            assert score >= 202
        else:
            assert score >= 0


def test_same_seed_same_round() -> None:
    a = play_round101([GreedyBot101() for _ in range(SEATS)], random.Random(5))
    b = play_round101([GreedyBot101() for _ in range(SEATS)], random.Random(5))
    assert a == b


class _Cheat(Bot101):
    """Lays a meld it does not hold."""

    def take(self, view: View101, offered):  # type: ignore[no-untyped-def]
        return False

    def play(self, view: View101) -> Turn101:
        meld = make_meld(["r10", "r11", "r12"], view.indicator)
        return Turn101((meld,) * 4, (), view.hand[0])


def test_an_illegal_lay_is_refused() -> None:
    with pytest.raises(PlayError101):
        play_round101([_Cheat(), GreedyBot101(), GreedyBot101(), GreedyBot101()], random.Random(2))


def test_the_coach_never_misplays() -> None:
    for seed in range(4):
        r = play_round101([CoachBot101()] * SEATS, random.Random(100 + seed), starter=seed % SEATS)
        assert r.misplays == (0, 0, 0, 0)
