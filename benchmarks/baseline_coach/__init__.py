"""The frozen baseline coach: okey_vision.coach as it was before issue 14.

A verbatim copy (commit b9e9903) of the coach package's decision code, kept
so that the strength benchmark can seat "today's coach" beside the new one
and the equivalence check can replay it. Only stable lower modules are
imported (tiles, solver, scoring, memo, errors). Do not edit: it is the
yardstick.

The original docstring follows.

The coach: distance to winning, outs, discard and draw advice.

One public entry, :func:`advise`, serves the app, the command line and the
coach bot of :mod:`okey_vision.game`. The package holds one concern per
module, each using only the public names of the others:

- :mod:`~baseline_coach.templates`: the template gap search (melds route
  distance and its gap faces), memoised in a :class:`~okey_vision.memo.Memo`;
- :mod:`~baseline_coach.pool`: a hand against the available tiles, and
  the seven-pairs distance;
- :mod:`~baseline_coach.reading`: the distance by each route and the outs;
- :mod:`~baseline_coach.ranking`: every discard of 15 tiles, best first;
- :mod:`~baseline_coach.advice`: the advice (declare, discard, take or
  draw, whether waiting pays), with :class:`Action`;
- :mod:`~baseline_coach.text`: every sentence shown to a player.

>>> distance("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 y13", "b6")
1
>>> a = advise("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 y13", "b2")
>>> a.discards[0].tile, a.discards[0].distance, a.discards[0].outs
(Tile('y13'), 0, 0)
>>> a.can_declare, a.declare.discard, a.action.label
(True, Tile('y13'), 'declare')
"""

from baseline_coach.advice import OPPONENT_FINISH_RATE, Action, Advice, Why, advise, holds_indicator_twin, \
    take_offered, wait_pays
from baseline_coach.pool import OKEY_PAIR
from baseline_coach.ranking import DiscardOption, best_discard, rank_discards
from baseline_coach.reading import Reading, distance, reading
from baseline_coach.policy import BaselineCoachPolicy
from baseline_coach.templates import UNREACHABLE
from okey_vision.memo import Memo
from okey_vision.tiles import HAND_SIZE as FINISHED  # the old name, kept for callers

__all__ = [
    "Action", "Advice", "BaselineCoachPolicy", "DiscardOption", "FINISHED", "Memo", "OKEY_PAIR", "OPPONENT_FINISH_RATE", "Reading", "UNREACHABLE",
    "advise", "best_discard", "distance", "holds_indicator_twin", "rank_discards", "reading", "take_offered",
    "wait_pays",
    "Why",
]
