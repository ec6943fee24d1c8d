"""The melds on the table, and what a hand can add to them (işlek taşlar).

After opening, a player may add tiles to any run or set on the table: a run
grows at either end (12-13-1 with the option, never past a 1 after 13), a
set up to its fourth colour; and, with the option, take back a laid okey by
putting the real tile it stands for in its place. A tile the table takes is
one a player must never discard (it costs 101).

>>> table = table_melds(["r5 r6 r7", "y9 b9 k9"], "k1")
>>> [(a.tile.name, a.meld, a.place.value) for a in table_additions("r4 r8 r9 y9 r9 k2", "k1", table)]
[('r4', 0, 'low'), ('r8', 0, 'high'), ('r9', 1, 'set'), ('k2', 0, 'low'), ('k2', 0, 'high'), ('k2', 1, 'set')]
>>> takes(table, parse_tile("b10"), okey_of(parse_tile("k1"))), takes(table, parse_tile("k2"), parse_tile("k2"))
(False, True)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum

from okey_vision.melds import RUN, SET, Meld, parse_meld
from okey_vision.tiles import COLORS, TILES, Hand, Tile, TileLike, okey_of, parse_hand, parse_tile  # noqa: F401
from okey_vision.yuzbir.rules import DEFAULT_OPTIONS, Options101, as_hand101


class Place(str, Enum):
    """Where an added tile goes: below a run, above it, into a set, or in an okey's place."""

    LOW = "low"
    HIGH = "high"
    SET = "set"
    OKEY = "okey"


@dataclass(frozen=True)
class Addition:
    """One tile of the hand that a table meld takes, and the meld it makes."""

    tile: Tile
    meld: int
    place: Place
    result: Meld

    def describe(self) -> str:
        """E.g. ``'r8 -> r5 r6 r7 r8'``."""
        return f"{self.tile.name} -> {self.result.describe()}"


def run_span(meld: Meld) -> tuple[int, int]:
    """The positions (1..14, 14 a 1 after 13) a run covers."""
    n = len(meld.faces)
    if n > 1 and meld.faces[-1].number == 1:
        return 15 - n, 14
    start = meld.faces[0].number
    return start, start + n - 1


def _face(color: str, position: int) -> Tile:
    return TILES[COLORS.index(color) * 13 + (position - 1) % 13]


def fits(meld: Meld, tile: Tile, okey: Tile, options: Options101 = DEFAULT_OPTIONS) -> list[tuple[Place, Meld]]:
    """Every way ``tile`` joins ``meld`` (an okey joins anywhere a face would)."""
    wild = tile == okey
    face = okey if tile.is_false_joker else tile
    out: list[tuple[Place, Meld]] = []
    if meld.kind == RUN:
        start, end = run_span(meld)
        color = meld.faces[0].color
        last = 14 if options.ace_after_13 else 13
        if start > 1 and end - start + 1 < 13:
            low = _face(color, start - 1)
            if wild or face == low:
                out.append((Place.LOW, Meld(RUN, (tile, *meld.tiles), (low, *meld.faces), okey)))
        if end < last and end - start + 1 < 13:
            high = _face(color, end + 1)
            if wild or face == high:
                out.append((Place.HIGH, Meld(RUN, (*meld.tiles, tile), (*meld.faces, high), okey)))
    elif meld.kind == SET and len(meld.tiles) < 4:
        number = meld.faces[0].number
        colors = {f.color for f in meld.faces}
        free = [c for c in COLORS if c not in colors]
        if wild and free:
            out.append((Place.SET, Meld(SET, (*meld.tiles, tile), (*meld.faces, _face(free[0], number)), okey)))
        elif face.number == number and face.color in free:
            out.append((Place.SET, Meld(SET, (*meld.tiles, tile), (*meld.faces, face), okey)))
    if options.take_back_okey and not wild and meld.kind in (RUN, SET):
        for i, t in enumerate(meld.tiles):
            if t == okey and meld.faces[i] == face:
                tiles = list(meld.tiles)
                tiles[i] = tile
                out.append((Place.OKEY, Meld(meld.kind, tuple(tiles), meld.faces, okey)))
                break
    return out


def takes(table: Sequence[Meld], tile: Tile, okey: Tile, options: Options101 = DEFAULT_OPTIONS) -> bool:
    """Whether some table meld takes ``tile`` (an işlek tile: never discard it).
    An okey is always taken while a run or an open set lies on the table."""
    return any(fits(m, tile, okey, options) for m in table)


def table_additions(hand: Hand | str | Sequence[TileLike], indicator: Tile | str | None,
                    table: Iterable[Meld], options: Options101 = DEFAULT_OPTIONS) -> tuple[Addition, ...]:
    """Every single tile of the hand that a meld on the table takes, and where."""
    h = as_hand101(hand, indicator)
    okey = okey_of(h.indicator)
    return additions_of(h.tiles, okey, tuple(table), options)


def additions_of(tiles: Sequence[Tile], okey: Tile, table: Sequence[Meld],
                 options: Options101 = DEFAULT_OPTIONS) -> tuple[Addition, ...]:
    """:func:`table_additions` on tiles and the okey face."""
    out: list[Addition] = []
    for tile in sorted(set(tiles), key=lambda t: t.index):
        for k, meld in enumerate(table):
            for place, result in fits(meld, tile, okey, options):
                out.append(Addition(tile, k, place, result))
    return tuple(out)


def add_all(tiles: Sequence[Tile], okey: Tile, table: Sequence[Meld], options: Options101 = DEFAULT_OPTIONS,
            keep: int = 1, spare_okey: bool = True) -> tuple[list[Addition], list[Tile], list[Meld]]:
    """Add tiles to the table one after another while any fits (a chain: r8
    then r9), real tiles first, highest first, leaving ``keep`` tiles in hand
    (one must stay to discard). The okey is added only with ``spare_okey``
    false (it is kept for the player's own melds otherwise). Returns the
    additions made, the tiles left and the new table."""
    hand = list(tiles)
    melds = list(table)
    made: list[Addition] = []
    progress = True
    while progress and len(hand) > keep:
        progress = False
        for tile in sorted(set(hand), key=lambda t: (t == okey, -t.number)):
            if tile == okey and spare_okey:
                continue
            for k, meld in enumerate(melds):
                ways = fits(meld, tile, okey, options)
                if ways:
                    place, result = ways[0]
                    if place is Place.OKEY:  # the okey comes back to the hand
                        hand.append(okey)
                    melds[k] = result
                    hand.remove(tile)
                    made.append(Addition(tile, k, place, result))
                    progress = True
                    break
            if progress:
                break
    return made, hand, melds


def table_melds(texts: Iterable[str], indicator: Tile | str) -> tuple[Meld, ...]:
    """Melds on the table from their tile names, one string a meld ("r5 r6
    r7"), runs and sets only (:func:`okey_vision.melds.parse_meld`); a meld
    the rules refuse is an error naming it, blank strings are skipped.

    >>> [m.describe() for m in table_melds(["r5 r6 k2", "y9 b9 k9"], "k1")]
    ['r5 r6 k2(=r7)', 'y9 b9 k9']
    """
    melds = (parse_meld(text, indicator, pairs=False) for text in texts)
    return tuple(m for m in melds if m is not None)
