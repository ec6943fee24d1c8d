"""The frozen baseline's bot: okey_vision.game.CoachPolicy as it was before
issue 14, playing the frozen baseline coach's advice."""

from __future__ import annotations

import random

from baseline_coach.advice import advise
from okey_vision.game import Move, Policy, View
from okey_vision.memo import Memo


class BaselineCoachPolicy(Policy):
    """Today's coach bot, frozen: takes the offered tile when the baseline
    advice does (it finishes or shortens the hand), declares at once when
    finished, else discards the first-ranked tile (distance, then outs, then
    tiles kept in melds)."""

    name = "baseline"

    def __init__(self, with_outs: bool = True, memo: Memo | None = None) -> None:
        super().__init__(memo)
        self.with_outs = with_outs

    def take(self, view: View, rng: random.Random) -> bool:
        """Take the offered tile when the baseline advice says so."""
        if view.offered is None:
            return False
        advice = advise(view.hand, view.indicator, view.seen_without(view.offered), offered=view.offered,
                        scheme=view.scheme, with_outs=False, memo=self.memo)
        return bool(advice.take)

    def move(self, view: View, rng: random.Random) -> Move:
        """Declare if finished, else the baseline's first-ranked discard."""
        advice = advise(view.hand, view.indicator, view.seen, scheme=view.scheme, with_outs=self.with_outs,
                        memo=self.memo, only_best=True)
        if advice.declare is not None and advice.declare.discard is not None:
            return Move(advice.declare.discard, True)
        assert advice.best is not None
        return Move(advice.best.tile)
