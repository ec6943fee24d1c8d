"""Scoring schemes of the rules page: countdown (default) and penalty points.

>>> finish_points("melds", okey_discard=False)
2
>>> finish_points("pairs", okey_discard=True, scheme=PENALTY)
80
"""

from __future__ import annotations

from okey_vision.errors import OkeyError

#: Everyone starts at 20 and loses points when another player finishes.
COUNTDOWN = "countdown"
#: Everyone starts at 0 and collects penalties; lowest total wins.
PENALTY = "penalty"
SCHEMES = (COUNTDOWN, PENALTY)

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


def check_scheme(scheme: str) -> str:
    """Return ``scheme`` if it is known, else raise a ValueError naming it."""
    if scheme not in SCHEMES:
        raise OkeyError(f"unknown scoring scheme {scheme!r}: expected one of {', '.join(SCHEMES)}")
    return scheme


def finish_points(kind: str, okey_discard: bool, scheme: str = COUNTDOWN) -> int:
    """Points every opponent loses (countdown) or takes (penalty) for a finish."""
    check_scheme(scheme)
    if kind not in ("melds", "pairs"):
        raise OkeyError(f"unknown finish kind {kind!r}: expected 'melds' or 'pairs'")
    points = _BASE[scheme]
    if kind == "pairs":
        points *= 2
    if okey_discard:
        points *= 2
    return points
