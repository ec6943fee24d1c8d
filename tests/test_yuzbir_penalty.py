"""101 end-of-round scores: a table of hands, openings and finishes."""

from __future__ import annotations

import pytest

from okey_vision.tiles import parse_hand
from okey_vision.yuzbir import Opened, Options101, finish_multiplier, penalty, round_penalties

# indicator b2: the okey is b3 (counts 101 in hand); a false joker plays as b3 (3 points)
PENALTIES = [
    ("r5 k13", Opened.MELDS, 0, 1, 18),
    ("r5 k13", Opened.PAIRS, 0, 1, 36),        # a pairs opener's hand counts double
    ("r5 k13", Opened.NO, 0, 1, 202),          # never opened: 202 whatever the hand
    ("r5 b3", Opened.MELDS, 0, 1, 5 + 101),    # an okey left in hand counts 101
    ("r5 b3", Opened.NO, 0, 1, 202 + 101),
    ("r5 fj", Opened.MELDS, 0, 1, 8),          # a false joker is the okey face, 3
    ("r5 k13", Opened.MELDS, 1, 1, 18 + 101),  # a misplay costs 101
    ("r5 k13", Opened.MELDS, 0, 4, 72),        # the finish's multiplier
    ("r5 k13", Opened.MELDS, 2, 2, 36 + 202),  # misplays are not multiplied
    ("", Opened.MELDS, 0, 1, 0),
]


@pytest.mark.parametrize(("hand", "opened", "misplays", "multiplier", "expected"), PENALTIES)
def test_penalty_table(hand: str, opened: Opened, misplays: int, multiplier: int, expected: int) -> None:
    assert penalty(parse_hand(hand), "b2", opened, misplays, multiplier) == expected


@pytest.mark.parametrize(("okey", "pairs", "whole", "factor"), [
    (False, False, False, 1), (True, False, False, 2), (False, True, False, 2), (False, False, True, 2),
    (True, True, False, 4), (True, False, True, 4), (True, True, True, 8),
])
def test_finish_multipliers_multiply(okey: bool, pairs: bool, whole: bool, factor: int) -> None:
    assert finish_multiplier(okey, pairs, whole) == factor


def test_round_scores() -> None:
    hands = [(), parse_hand("r5 k13"), parse_hand("r1"), parse_hand("y2 y2")]
    opened = [Opened.MELDS, Opened.MELDS, Opened.NO, Opened.PAIRS]
    assert round_penalties(hands, "b2", opened, finisher=0) == (-101, 18, 202, 8)
    assert round_penalties(hands, "b2", opened, finisher=0, okey_finish=True) == (-202, 36, 404, 16)
    plain = Options101(multiply_others=False)
    assert round_penalties(hands, "b2", opened, finisher=0, okey_finish=True, options=plain) == (-202, 18, 202, 8)
    # a pairs opener's finish doubles; nobody finishing scores every hand as it is
    assert round_penalties(hands, "b2", [Opened.PAIRS, *opened[1:]], finisher=0)[0] == -202
    assert round_penalties(hands, "b2", opened, finisher=None, misplays=[0, 1, 0, 0]) == (0, 119, 202, 8)
