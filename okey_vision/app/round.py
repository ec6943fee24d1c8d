"""The live round: the indicator and the tiles seen on the discard piles,
turn by turn, kept across photos (pure Python).

>>> r = LiveRound().with_indicator("b13").add_seen("r5 k7", who="left")
>>> r.add_seen("y1").seen_names()
['r5', 'k7', 'y1']
>>> r.add_seen("r5 r5")
Traceback (most recent call last):
...
okey_vision.errors.TileCountError: 3 copies of 'r5' (seen 3): only 2 exist
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from okey_vision.errors import OkeyError
from okey_vision.tiles import Tile, check_counts, parse_hand, parse_tile


@dataclass(frozen=True)
class Seen:
    """One tile seen on a discard pile at some turn, by whom (free text)."""

    turn: int
    tile: Tile
    who: str = ""


@dataclass(frozen=True)
class LiveRound:
    """The round so far: indicator (None until set), turn number, tiles seen."""

    indicator: Tile | None = None
    turn: int = 1
    seen: tuple[Seen, ...] = ()

    def with_indicator(self, name: str | Tile | None) -> LiveRound:
        """The round with its indicator set (a false joker is refused)."""
        if name is None:
            return replace(self, indicator=None)
        tile = parse_tile(name)
        if tile.is_false_joker:
            raise OkeyError("a false joker ('fj') cannot be the indicator")
        return replace(self, indicator=tile)

    def add_seen(self, text: str, who: str = "") -> LiveRound:
        """The round with more seen tiles (``'r5 k7'``), checked against the tile set."""
        tiles = parse_hand(text)
        if not tiles:
            raise OkeyError("no tile given: type tiles such as 'r5 k7' or 'fj'")
        added = tuple(Seen(self.turn, t, who) for t in tiles)
        check_counts([], None, [s.tile for s in self.seen + added])
        return replace(self, seen=self.seen + added)

    def undo_seen(self) -> LiveRound:
        """The round without its last seen tile."""
        return replace(self, seen=self.seen[:-1])

    def next_turn(self) -> LiveRound:
        """The round one turn later."""
        return replace(self, turn=self.turn + 1)

    def seen_tiles(self) -> list[Tile]:
        """Every seen tile in the order entered."""
        return [s.tile for s in self.seen]

    def seen_names(self) -> list[str]:
        """Seen tiles in short notation."""
        return [s.tile.name for s in self.seen]

    def by_turn(self) -> list[tuple[int, str]]:
        """(turn, 'tiles (who)') lines for display."""
        out: dict[int, list[str]] = {}
        for s in self.seen:
            out.setdefault(s.turn, []).append(s.tile.name + (f" ({s.who})" if s.who else ""))
        return [(t, ", ".join(v)) for t, v in sorted(out.items())]


__all__ = ["LiveRound", "Seen"]
