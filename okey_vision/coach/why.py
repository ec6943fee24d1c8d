"""Why the advice says what it does, as plain typed data: the main reason or
a note, each its own frozen dataclass with the values it rests on (each
surface's text module says it in its own words and language:
:func:`okey_vision.coach.text.said`). :data:`Why` is any one of them; each
carries its :class:`Reason` as ``reason``.

>>> from okey_vision.tiles import parse_tile
>>> note = KeepBackNote(parse_tile("r5"), parse_tile("k9"))
>>> note.reason, note.kept
(<Reason.KEEP_BACK: 'keep_back'>, Tile('r5'))
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from okey_vision.coach.lookahead import LookScore
from okey_vision.coach.ranking import DiscardOption
from okey_vision.coach.reading import Reading
from okey_vision.scoring import Scheme
from okey_vision.solver import Finish
from okey_vision.tiles import Tile


class Reason(Enum):
    """Which reason or note a :data:`Why` is (its class says the same; the kind, for a quick test)."""

    DECLARE = "declare"
    WAIT = "wait"
    DISCARD = "discard"
    DRAW = "draw"
    TAKE = "take"
    LEAVE = "leave"
    TAKE_OUTS = "take_outs"
    TAKE_LOOK = "take_look"
    LEAVE_LOOK = "leave_look"
    # notes, said after the main reason
    WAITS_FOR = "waits_for"
    KEEP_BACK = "keep_back"
    CHOICE = "choice"
    LOOKAHEAD = "lookahead"


class Choice(str, Enum):
    """Why the first of equally good discards (the same distance and outs)
    comes first: the tie-break that set it before the next one."""

    LOOSE = "loose"              # a loose tile (in no drawn meld) before a tile inside one
    LOOSE_SAFER = "loose_safer"  # ... and, of the loose tiles, the one the next player least likely wants
    SAFER = "safer"              # the one the next player least likely wants
    KEEPS = "keeps"              # the one that keeps the most tiles in melds
    CHANCES = "chances"          # the one whose loose tiles keep the most chances to join a meld
    OKEY = "okey"                # not the okey: it is wild
    ANY = "any"                  # nothing tells them apart


@dataclass(frozen=True)
class DeclareWhy:
    """Declare now: this finish, scored under this scheme."""

    reason: ClassVar[Reason] = Reason.DECLARE
    finish: Finish
    scheme: Scheme


@dataclass(frozen=True)
class WaitWhy:
    """A finished hand waits one turn: ``wins`` of ``unseen`` draws finish richer (``later`` points, not ``now``)."""

    reason: ClassVar[Reason] = Reason.WAIT
    wins: int
    unseen: int
    later: int
    now: int


@dataclass(frozen=True)
class DiscardWhy:
    """Throw the first-ranked tile; ``ties``: the others as good (said by a :class:`ChoiceNote`)."""

    reason: ClassVar[Reason] = Reason.DISCARD
    best: DiscardOption
    ties: tuple[DiscardOption, ...]


@dataclass(frozen=True)
class DrawWhy:
    """Draw (nothing offered): the hand as it stands."""

    reason: ClassVar[Reason] = Reason.DRAW
    now: Reading


@dataclass(frozen=True)
class TakeWhy:
    """Take the offered tile: it brings the hand closer (or ``finishes`` it)."""

    reason: ClassVar[Reason] = Reason.TAKE
    offered: Tile
    now: Reading
    finishes: bool


@dataclass(frozen=True)
class LeaveWhy:
    """Leave the offered tile and draw: it brings the hand no closer."""

    reason: ClassVar[Reason] = Reason.LEAVE
    offered: Tile
    now: Reading


@dataclass(frozen=True)
class TakeOutsWhy:
    """Take a tile that keeps the distance, throwing ``throw``: more outs after (``after``)."""

    reason: ClassVar[Reason] = Reason.TAKE_OUTS
    offered: Tile
    throw: Tile
    now: Reading
    after: DiscardOption


@dataclass(frozen=True)
class TakeLookWhy:
    """Take a tile that keeps the distance: the lookahead finishes more often after taking."""

    reason: ClassVar[Reason] = Reason.TAKE_LOOK
    offered: Tile
    throw: Tile
    took: LookScore
    drew: LookScore


@dataclass(frozen=True)
class LeaveLookWhy:
    """Leave a tile that keeps the distance: the lookahead finishes more often after drawing."""

    reason: ClassVar[Reason] = Reason.LEAVE_LOOK
    offered: Tile
    took: LookScore
    drew: LookScore


@dataclass(frozen=True)
class WaitsForNote:
    """The tiles the hand waits for, and how many of them are left."""

    reason: ClassVar[Reason] = Reason.WAITS_FOR
    out_tiles: tuple[Tile, ...]
    outs: int


@dataclass(frozen=True)
class KeepBackNote:
    """A tile kept back from the next player, ``thrown`` instead."""

    reason: ClassVar[Reason] = Reason.KEEP_BACK
    kept: Tile
    thrown: Tile


@dataclass(frozen=True)
class ChoiceNote:
    """Equally good discards, and the tie-break (``basis``) that put ``best`` first."""

    reason: ClassVar[Reason] = Reason.CHOICE
    best: DiscardOption
    ties: tuple[DiscardOption, ...]
    basis: Choice


@dataclass(frozen=True)
class LookaheadNote:
    """The lookahead throws ``tile`` rather than ``other``, ranked first by distance then outs."""

    reason: ClassVar[Reason] = Reason.LOOKAHEAD
    other: DiscardOption
    tile: Tile
    chosen: LookScore
    first: LookScore


#: Any reason or note.
Why = (DeclareWhy | WaitWhy | DiscardWhy | DrawWhy | TakeWhy | LeaveWhy | TakeOutsWhy | TakeLookWhy | LeaveLookWhy
       | WaitsForNote | KeepBackNote | ChoiceNote | LookaheadNote)
#: Each reason's class (each :class:`Reason` has exactly one).
KINDS: dict[Reason, type[Why]] = {k.reason: k for k in (
    DeclareWhy, WaitWhy, DiscardWhy, DrawWhy, TakeWhy, LeaveWhy, TakeOutsWhy, TakeLookWhy, LeaveLookWhy,
    WaitsForNote, KeepBackNote, ChoiceNote, LookaheadNote)}

__all__ = ["KINDS", "ChoiceNote", "Choice", "DeclareWhy", "DiscardWhy", "DrawWhy", "KeepBackNote", "LeaveLookWhy",
           "LeaveWhy", "LookaheadNote", "Reason", "TakeLookWhy", "TakeOutsWhy", "TakeWhy", "WaitWhy",
           "WaitsForNote", "Why"]
