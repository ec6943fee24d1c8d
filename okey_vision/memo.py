"""Search caches with an owner: one :class:`Memo` per game or app session.

The solver and the coach memoise exact search states (a state's answer never
changes, so a memo stays valid from hand to hand and turn to turn). The
caches live in a :class:`Memo` that the caller owns and passes down, as
mahjong's shanten calculator owns its own; a call without one gets a fresh
memo that is dropped when it returns. A memo is bounded: every public call
first :meth:`Memo.trim`\\ s it, emptying it when it holds more than
``limit`` entries, so a long app session or a simulation never grows past
the limit plus one call's work.

>>> from okey_vision.solver import declare
>>> memo = Memo(limit=100_000)
>>> declare("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 r9", "b2", memo=memo).can_declare
True
>>> memo.size() > 0
True
>>> memo.clear(); memo.size()
0
"""

from __future__ import annotations

from typing import Any

#: Entries a memo holds before it is emptied: about 250 bytes an entry
#: (int keys of up to 104 bits, tuples), so ~120 MB at most; measured by
#: ``benchmarks/coach_speed.py --memory``.
DEFAULT_LIMIT = 500_000


class Memo:
    """The bounded search caches of one game or app session."""

    __slots__ = (
        "best",
        "complete",
        "fits",
        "free",
        "free_faces",
        "gaps",
        "left",
        "limit",
        "melds",
        "most",
        "move",
        "reach",
    )

    def __init__(self, limit: int = DEFAULT_LIMIT) -> None:
        if limit < 1:
            raise ValueError(f"a memo needs a positive limit, got {limit!r}")
        self.limit = limit
        # The solver: most tiles in melds per state, the move that reaches
        # it, and whether a state is complete.
        self.best: dict[int, int] = {}
        self.move: dict[int, tuple[int, int, int]] = {}
        self.complete: dict[int, bool] = {}
        # The coach's template search: whether a template fits, its gap
        # faces (all, and per tile left out), templates of free tiles only,
        # the faces that melds anchored on a hand can touch, the melds
        # open to the lowest hand tile, and the most hand tiles melds with
        # a number of gaps can hold (the bound that prunes the searches).
        self.fits: dict[tuple[int, int, int, int], bool] = {}
        self.gaps: dict[tuple[int, int, int, int], int] = {}
        self.left: dict[tuple[int, int, int, int, int], tuple[int, dict[int, int]]] = {}
        self.free: dict[tuple[int, int, int], bool] = {}
        self.free_faces: dict[tuple[int, int, int], int] = {}
        self.reach: dict[tuple[int, int], int] = {}
        self.melds: dict[tuple[int, int, int, int, int], list[tuple[int, int, int, int, int, int]]] = {}
        self.most: dict[int, int] = {}

    def _caches(self) -> tuple[dict[Any, Any], ...]:
        return (self.best, self.move, self.complete, self.fits, self.gaps, self.left,
                self.free, self.free_faces, self.reach, self.melds, self.most)

    def size(self) -> int:
        """Entries held, all caches together."""
        return sum(len(c) for c in self._caches())

    def clear(self) -> None:
        """Empty every cache."""
        for c in self._caches():
            c.clear()

    def trim(self) -> None:
        """Empty the caches when they hold more than ``limit`` entries (called
        before each search, so a memo never outgrows the limit by more than
        one call's work)."""
        if self.size() > self.limit:
            self.clear()


def owned(memo: Memo | None) -> Memo:
    """``memo`` trimmed, or a fresh memo for a single call."""
    if memo is None:
        return Memo()
    memo.trim()
    return memo
