"""End-of-round scores of 101 (penalty points: lower is better).

A player who never opened takes 202; one who opened takes the points left in
hand (an okey counts 101), doubled for a pairs opener; each misplay
(discarding a tile the table takes, or the okey) costs 101 more. The
finisher takes -101, doubled for finishing with the okey, with pairs, or by
laying the whole hand in one turn (elden), the doublings multiplying; with
the default option the finish's multiplier multiplies the others' hand
penalties too.

>>> finish_multiplier(okey=True, pairs=True)
4
>>> penalty(parse_hand("r5 k13"), "b2", Opened.MELDS), penalty(parse_hand("r5"), "b2", Opened.PAIRS)
(18, 10)
>>> penalty(parse_hand("r5 b3"), "b2", Opened.MELDS), penalty(parse_hand("r5"), "b2", Opened.NO)
(106, 202)
>>> round_penalties([(), parse_hand("r5 k13"), parse_hand("r1")],
...                 "b2", [Opened.MELDS, Opened.MELDS, Opened.NO], finisher=0, okey_finish=True)
(-202, 36, 404)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from okey_vision.tiles import Tile, TileLike, okey_of, parse_hand, parse_tile  # noqa: F401 - parse_hand: doctests
from okey_vision.yuzbir.rules import (
    DEFAULT_OPTIONS,
    FINISH,
    MISPLAY,
    NOT_OPENED,
    OKEY_IN_HAND,
    Opened,
    Options101,
    hand_points,
)


def finish_multiplier(okey: bool = False, pairs: bool = False, whole_hand: bool = False) -> int:
    """The finish's multiplier: 2 for each of finishing with the okey, with
    pairs, or laying the whole hand at once (elden); they multiply."""
    return (2 if okey else 1) * (2 if pairs else 1) * (2 if whole_hand else 1)


def penalty(tiles: Iterable[Tile | str], indicator: Tile | str, opened: Opened | str | None,
            misplays: int = 0, multiplier: int = 1) -> int:
    """The end-of-round penalty of a player who did not finish: 202 when
    never opened (an okey in hand still adds 101), else the points in hand
    (an okey counts 101), doubled for a pairs opener; times the finisher's
    ``multiplier`` (when the option applies it to the others); plus 101 per
    misplay."""
    okey = okey_of(parse_tile(indicator))
    hand = [parse_tile(t) for t in tiles]
    state = Opened.parse(opened)
    if state is Opened.NO:
        base = NOT_OPENED + OKEY_IN_HAND * sum(t == okey for t in hand)
    else:
        base = hand_points(hand, okey) * (2 if state is Opened.PAIRS else 1)
    return base * multiplier + MISPLAY * misplays


def finisher_score(multiplier: int = 1, misplays: int = 0) -> int:
    """The finisher's score: -101 times the finish's multiplier, plus 101 per misplay."""
    return -FINISH * multiplier + MISPLAY * misplays


@dataclass(frozen=True)
class RoundEnd:
    """How a round ended, for scoring: who finished (None when the stock ran
    out) and how."""

    finisher: int | None = None
    okey_finish: bool = False
    pairs_finish: bool = False
    whole_hand: bool = False

    @property
    def multiplier(self) -> int:
        """The finish's multiplier (1 when nobody finished)."""
        if self.finisher is None:
            return 1
        return finish_multiplier(self.okey_finish, self.pairs_finish, self.whole_hand)


def round_penalties(hands: Sequence[Iterable[TileLike]], indicator: Tile | str, opened: Sequence[Opened | str],
                    finisher: int | None = None, okey_finish: bool = False, whole_hand: bool = False,
                    misplays: Sequence[int] = (), options: Options101 = DEFAULT_OPTIONS) -> tuple[int, ...]:
    """Every player's score for the round: the hands left, how each opened,
    the finisher (if any) and how they finished (a pairs opener's finish is a
    pairs finish), and each player's misplays."""
    states = [Opened.parse(o) for o in opened]
    end = RoundEnd(finisher, okey_finish, finisher is not None and states[finisher] is Opened.PAIRS, whole_hand)
    return scores_of(hands, indicator, states, end, misplays, options)


def scores_of(hands: Sequence[Iterable[TileLike]], indicator: Tile | str, opened: Sequence[Opened],
              end: RoundEnd, misplays: Sequence[int] = (), options: Options101 = DEFAULT_OPTIONS) -> tuple[int, ...]:
    """:func:`round_penalties` given the :class:`RoundEnd`."""
    fines = list(misplays) or [0] * len(hands)
    others = end.multiplier if options.multiply_others else 1
    out = []
    for p, tiles in enumerate(hands):
        if p == end.finisher:
            out.append(finisher_score(end.multiplier, fines[p]))
        else:
            out.append(penalty([parse_tile(t) if isinstance(t, str) else t for t in tiles],  # type: ignore[misc]
                               indicator, opened[p], fines[p], others))
    return tuple(out)
