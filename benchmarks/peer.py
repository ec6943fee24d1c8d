"""Adapter: a bot built on the peer library okey-solver-py's discard evaluator.

The peer library is loaded by :mod:`peer_lib` (installed beside the project
in ``.cache/peer``, never into its environment).
"""

from __future__ import annotations

from peer_lib import PeerSolver, load_peer

import okey_vision.game  # noqa: F401  (ours first, so the peer's never shadows it)
from okey_vision.game import GreedyPolicy, Move, Policy, finishing_move

__all__ = ["PeerPolicy", "load_peer"]


class PeerPolicy(Policy):
    """Discards the peer evaluator's first candidate; takes like greedy."""

    name = "peer"

    def __init__(self) -> None:
        super().__init__()
        self.peer = PeerSolver("backtracking")
        self.evaluator = self.peer.lib.DiscardEvaluator()
        self._greedy = GreedyPolicy()

    def take(self, view, rng):
        """The peer library has no draw advice: take like the greedy bot."""
        return self._greedy.take(view, rng)

    def move(self, view, rng):
        """Declare if finished, else the peer evaluator's best discard."""
        done = finishing_move(view)
        if done:
            return done
        tiles = self.peer.to_peer(view.hand)  # ids are hand positions
        arrangement = self.peer.engine.find_best_arrangement(tiles, self.peer.meta(view.indicator))
        ranked = self.evaluator.evaluate_discards(tiles, arrangement)
        for cand in ranked:
            tile = cand.get("tile") if isinstance(cand, dict) else None
            tid = getattr(tile, "id", None)
            if tid is not None and tid.isdigit() and int(tid) < len(view.hand):
                return Move(view.hand[int(tid)])
        # Every tile sits in the peer's melds (yet no finish): it ranks nothing.
        return self._greedy.move(view, rng)
