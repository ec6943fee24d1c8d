"""The coach: distance to winning, outs, discard and draw advice.

One public entry, :func:`advise`, serves the app, the command line and the
coach bot of :mod:`okey_vision.game`. The package holds one concern per
module, each using only the public names of the others:

- :mod:`~okey_vision.coach.templates`: the template gap search (melds route
  distance and its gap faces), memoised in a :class:`~okey_vision.memo.Memo`;
- :mod:`~okey_vision.coach.pool`: a hand against the available tiles, and
  the seven-pairs distance;
- :mod:`~okey_vision.coach.reading`: the distance by each route and the outs;
- :mod:`~okey_vision.coach.ranking`: every discard of 15 tiles, best first;
- :mod:`~okey_vision.coach.lookahead`: close discards compared by sampled
  draws played forward (deterministic, bounded by a count of searches);
- :mod:`~okey_vision.coach.strategy`: what a player knows of the table
  (:class:`Table`) and the decision rules past distance-then-outs
  (:class:`Rules`: :data:`RULES` kept, :data:`BASIC` off);
- :mod:`~okey_vision.coach.why`: the reasons as typed data (:data:`Why`:
  one frozen dataclass a :class:`Reason`, with the values it rests on);
- :mod:`~okey_vision.coach.advice`: the advice (declare, discard, take or
  draw, whether waiting pays), with :class:`Action` and its reason;
- :mod:`~okey_vision.coach.text`: every sentence shown to a player (it
  imports the advice; the advice never imports it).

>>> distance("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 y13", "b6")
1
>>> a = advise("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 y13", "b2")
>>> a.discards[0].tile, a.discards[0].distance, a.discards[0].outs
(Tile('y13'), 0, 0)
>>> a.can_declare, a.declare.discard, a.action, a.why.reason
(True, Tile('y13'), <Action.DECLARE: 'declare'>, <Reason.DECLARE: 'declare'>)
"""

from okey_vision.coach.advice import (
    OPPONENT_FINISH_RATE,
    Action,
    Advice,
    advise,
    holds_indicator_twin,
    take_offered,
    wait_pays,
)
from okey_vision.coach.pool import OKEY_PAIR
from okey_vision.coach.ranking import DiscardOption, best_discard, rank_discards
from okey_vision.coach.reading import Reading, distance, reading
from okey_vision.coach.strategy import BASIC, RULES, Rules, Table
from okey_vision.coach.templates import UNREACHABLE
from okey_vision.coach.why import Choice, Reason, Why
from okey_vision.memo import Memo
from okey_vision.tiles import HAND_SIZE as FINISHED  # the old name, kept for callers

__all__ = [
    "Action", "Advice", "BASIC", "Choice", "DiscardOption", "FINISHED", "Memo", "OKEY_PAIR", "OPPONENT_FINISH_RATE",
    "RULES",
    "Reading", "Reason", "Rules", "Table", "UNREACHABLE",
    "advise", "best_discard", "distance", "holds_indicator_twin", "rank_discards", "reading", "take_offered",
    "wait_pays",
    "Why",
]
