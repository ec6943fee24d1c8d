"""The app's hand, typed: one :class:`Entry` per tile on the rack, from a
photo's read or typed by the player, and whether the player confirmed it.

A read the reader doubts (:attr:`~okey_vision.vision.reads.TileRead.low_confidence`)
is flagged until the player confirms or corrects it; a confirmed entry is
never flagged, whatever its read's confidence. The hand is built from the
entries like any other (:meth:`~okey_vision.tiles.Hand.of`: an entry carries
its ``tile``).

>>> from okey_vision.tiles import parse_tile
>>> e = Entry(parse_tile("r7"), confidence=0.6, flag=UNSURE, read=0)
>>> e.flagged, e.confirm().flagged, e.corrected(parse_tile("r1")).tile
(True, False, Tile('r1'))
>>> hand_of([e, Entry.typed("k3")], "b2").tiles
(Tile('r7'), Tile('k3'))
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace

from okey_vision.tiles import Hand, Tile, TileLike, parse_tile
from okey_vision.vision.reads import TileRead

#: Why a read without a reason of its own is flagged: the reader is unsure of it.
UNSURE = "unsure"


@dataclass(frozen=True)
class Entry:
    """One tile of the app's hand: the tile, how sure its read was, why it is
    flagged ("" when it is not), whether the player confirmed it, the index
    of the photo read it came from (None when typed) and the read's next guesses."""

    tile: Tile
    confidence: float = 1.0
    flag: str = ""
    confirmed: bool = False
    read: int | None = None
    alternatives: tuple[Tile, ...] = ()

    @classmethod
    def of_read(cls, read: TileRead, index: int) -> Entry:
        """The entry for a photo's ``index``-th rack read."""
        flag = (read.reason or UNSURE) if read.low_confidence else ""
        return cls(read.tile, read.confidence, flag, False, index, tuple(t for t, _ in read.alternatives))

    @classmethod
    def typed(cls, tile: Tile | str) -> Entry:
        """A tile the player chose (nothing to confirm)."""
        return cls(parse_tile(tile), confirmed=True)

    @property
    def name(self) -> str:
        """The tile's short notation."""
        return self.tile.name

    @property
    def flagged(self) -> bool:
        """True while the player should check this tile: flagged and not confirmed."""
        return bool(self.flag) and not self.confirmed

    def confirm(self) -> Entry:
        """The same tile, confirmed by the player."""
        return replace(self, confirmed=True)

    def corrected(self, tile: Tile | str) -> Entry:
        """The tile the player put in its place (confirmed: the player chose it)."""
        return replace(self, tile=parse_tile(tile), confirmed=True, alternatives=())


def entries_from_reads(rack: Sequence[TileRead]) -> list[Entry]:
    """One entry per rack read, in the order given (the rack's)."""
    return [Entry.of_read(r, i) for i, r in enumerate(rack)]


def flags_of(entries: Sequence[Entry], reads: int) -> list[bool | None]:
    """For each of a photo's ``reads`` rack reads, whether to mark it: its
    entry's :attr:`Entry.flagged`, or None (the read's own) without an entry."""
    out: list[bool | None] = [None] * reads
    for e in entries:
        if e.read is not None and 0 <= e.read < reads:
            out[e.read] = e.flagged
    return out


def hand_of(entries: Iterable[Entry | TileLike], indicator: Tile | str | None,
            seen: str | Iterable[TileLike] = ()) -> Hand:
    """The hand the entries hold, built as every hand is (:meth:`Hand.of`)."""
    return Hand.of(entries, indicator, seen)


__all__ = ["UNSURE", "Entry", "entries_from_reads", "flags_of", "hand_of"]
