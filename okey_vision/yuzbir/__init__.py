"""101 Okey (yüzbir): rules, the exact opening solver, the table, the
penalty scores and the coach, in the same shape as the classic game's.

- :mod:`~okey_vision.yuzbir.rules`: :class:`Options101` (the house options),
  :class:`Hand101` (a 101 hand, at most 22 tiles, checked once),
  :class:`Opened` and the point constants;
- :mod:`~okey_vision.yuzbir.opening`: :func:`best_opening` (the largest-valued
  runs and sets, and the most pairs) and its :class:`Opening`;
- :mod:`~okey_vision.yuzbir.table`: :func:`table_melds` (melds entered by
  name), :func:`table_additions` (what the melds on the table take) and
  :func:`takes` (an işlek tile);
- :mod:`~okey_vision.yuzbir.penalty`: :func:`penalty` and
  :func:`round_penalties` (end-of-round scores);
- :mod:`~okey_vision.yuzbir.coach`: :func:`advise101` and :class:`Advice101`;
- :mod:`~okey_vision.yuzbir.text`: every 101 sentence in English and Turkish
  (:mod:`~okey_vision.yuzbir.lines`: the ``solve`` report);
- :mod:`~okey_vision.yuzbir.sim`: a four-seat round simulator and its bots.

>>> best_opening("r11 r12 r13 k11 y11 b11 b12 b13 r10", "k1").progress()
'82 of 101'
"""

from okey_vision.tiles import Game
from okey_vision.yuzbir.coach import COACH, Action101, Advice101, CoachTuning, Why101, advise101
from okey_vision.yuzbir.opening import Opening, OpeningMemo, best_opening
from okey_vision.yuzbir.penalty import RoundEnd, finish_multiplier, penalty, round_penalties
from okey_vision.yuzbir.rules import (
    DEFAULT_OPTIONS,
    FINISH,
    MISPLAY,
    NOT_OPENED,
    OKEY_IN_HAND,
    OPENING_PAIRS,
    OPENING_POINTS,
    Hand101,
    Opened,
    Options101,
    hand_points,
    tile_value,
)
from okey_vision.yuzbir.table import Addition, Place, table_additions, table_melds, takes

__all__ = [
    "COACH", "DEFAULT_OPTIONS", "FINISH", "MISPLAY", "NOT_OPENED", "OKEY_IN_HAND", "OPENING_PAIRS", "OPENING_POINTS",
    "Action101", "Addition", "Advice101", "CoachTuning", "Game", "Hand101", "Opened", "Opening", "OpeningMemo",
    "Options101", "Place", "RoundEnd", "Why101",
    "advise101", "best_opening", "finish_multiplier", "hand_points", "penalty", "round_penalties", "table_additions",
    "table_melds", "takes", "tile_value",
]
