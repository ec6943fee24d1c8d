"""Scoring schemes of the rules page: countdown (default) and penalty points.

This module owns every scoring rule: what a finish is worth, each player's
change after a round, when a game is over and who leads.

>>> finish_points(FinishKind.MELDS, okey_discard=False)
2
>>> finish_points("pairs", okey_discard=True, scheme=PENALTY)
80
>>> round_deltas(3, winner=0, points=2, twins=(2,), scheme=COUNTDOWN)
(-1, -3, -2)
>>> game_over([4, 0, 6], COUNTDOWN), leader([4, 0, 6], COUNTDOWN)
(True, 2)
"""

from __future__ import annotations

from collections.abc import Sequence
from enum import Enum

from okey_vision.errors import OkeyError


class FinishKind(str, Enum):
    """How a hand is declared: runs and sets, or seven pairs."""

    MELDS = "melds"
    PAIRS = "pairs"

    @property
    def label(self) -> str:
        """The kind in words, e.g. ``'seven pairs'``."""
        return "seven pairs" if self is FinishKind.PAIRS else "runs and sets"

    @classmethod
    def parse(cls, kind: str | FinishKind) -> FinishKind:
        """The kind named ``kind``, or an :class:`OkeyError` naming it."""
        try:
            return cls(kind)
        except ValueError:
            raise OkeyError(f"unknown finish kind {str(kind)[:80]!r}: expected 'melds' or 'pairs'") from None


class Scheme(str, Enum):
    """A scoring scheme; its value is its name on the command line and in JSON."""

    #: Everyone starts at 20 and loses points when another player finishes.
    COUNTDOWN = "countdown"
    #: Everyone starts at 0 and collects penalties; lowest total wins.
    PENALTY = "penalty"

    def __str__(self) -> str:
        # the plain name wherever it is printed (argparse's choices, f-strings), as before it was an enum
        return self.value


COUNTDOWN = Scheme.COUNTDOWN
PENALTY = Scheme.PENALTY
#: Every scheme, the default first.
SCHEMES = tuple(Scheme)

#: Starting score of each player under each scheme.
START = {COUNTDOWN: 20, PENALTY: 0}
# Points each opponent loses (countdown) or takes (penalty) for a normal finish;
# seven pairs and an okey discard each double it, both together quadruple it.
_BASE = {COUNTDOWN: 2, PENALTY: 20}
#: Countdown: others lose 1 when a player shows the indicator's twin.
#: Penalty: every opponent takes 10 at the end of the round.
INDICATOR_BONUS = {COUNTDOWN: 1, PENALTY: 10}
#: Penalty scheme: every player takes this when the stock runs out.
STALL_PENALTY = {COUNTDOWN: 0, PENALTY: 10}


def check_scheme(scheme: str | Scheme) -> Scheme:
    """The :class:`Scheme` named ``scheme``, else a ValueError naming it.

    >>> check_scheme("penalty") is Scheme.PENALTY
    True
    """
    try:
        return Scheme(scheme)
    except ValueError:
        raise OkeyError(f"unknown scoring scheme {str(scheme)[:80]!r}: expected one of "
                        f"{', '.join(s.value for s in Scheme)}") from None


def finish_points(kind: str | FinishKind, okey_discard: bool, scheme: Scheme | str = COUNTDOWN) -> int:
    """Points every opponent loses (countdown) or takes (penalty) for a finish."""
    points = _BASE[check_scheme(scheme)]
    if FinishKind.parse(kind) is FinishKind.PAIRS:
        points *= 2
    if okey_discard:
        points *= 2
    return points


def round_deltas(players: int, winner: int | None, points: int, twins: Sequence[int],
                 scheme: Scheme | str = COUNTDOWN) -> tuple[int, ...]:
    """Each player's score change after a round: the winner's ``points`` from
    every opponent (none for a stall, ``winner`` None, where the penalty scheme
    gives everyone its stall penalty), and the indicator bonus of each seat in
    ``twins`` from every other player. Countdown changes are negative."""
    scheme = check_scheme(scheme)
    sign = -1 if scheme is COUNTDOWN else 1
    delta = [0] * players
    for p in range(players):
        if winner is None:
            delta[p] += sign * STALL_PENALTY[scheme]
        elif p != winner:
            delta[p] += sign * points
        for t in twins:
            if t != p:
                delta[p] += sign * INDICATOR_BONUS[scheme]
    return tuple(delta)


def game_over(scores: Sequence[int], scheme: Scheme | str = COUNTDOWN) -> bool:
    """Countdown: someone has reached 0. Penalty games run until the players stop."""
    return check_scheme(scheme) is COUNTDOWN and min(scores) <= 0


def leader(scores: Sequence[int], scheme: Scheme | str = COUNTDOWN) -> int:
    """The seat placed best: most points (countdown) or fewest (penalty); ties to the lower seat."""
    best = max(scores) if check_scheme(scheme) is COUNTDOWN else min(scores)
    return list(scores).index(best)
