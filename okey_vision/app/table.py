"""The melds laid on the table in 101 Okey, as the app keeps them (pure
Python): written out as the player types them ("r3 r4 r5, k7 b7 y7"), or
read from a photo of the table and written out the same way, so one text
box shows them and corrects them; the melds themselves are made from that
text with the round's indicator (:func:`okey_vision.melds.parse_melds`: an
okey in a meld stands for the tile it replaces).

>>> from okey_vision.tiles import parse_tile
>>> def read(name, x, y=0.0):
...     return TileRead((x, y, x + 30, y + 40), parse_tile(name), 0.99, row=int(y > 0))
>>> reads = [read("r3", 0), read("r4", 31), read("r5", 62), read("k7", 140), read("b7", 171), read("y9", 0, 60)]
>>> text = table_text(meld_groups(reads))
>>> text
'r3 r4 r5, k7 b7, y9'
>>> laid_melds("r3 r4 r5, k7 b7 y7", "b1")[1].kind
'set'
"""

from __future__ import annotations

import statistics
from collections.abc import Sequence

from okey_vision.melds import Meld, parse_melds
from okey_vision.tiles import Tile, format_hand, parse_tile
from okey_vision.vision.reads import APART, TileRead, rack_order

#: Two tiles in a row whose centres lie more than this many tile widths
#: apart belong to different melds: tiles of one meld are laid touching
#: (about 1.0-1.1 widths centre to centre), and players leave a gap of at
#: least half a tile between melds.
MELD_GAP = 1.5


def meld_groups(reads: Sequence[TileRead], gap: float = MELD_GAP) -> list[list[Tile]]:
    """The tiles of a photo of the table grouped into melds: each row of
    tiles in order, split where two neighbours lie more than ``gap`` tile
    widths apart; a tile lying apart from every row is a group of its own."""
    ordered = rack_order(reads)
    widths = [r.box[2] - r.box[0] for r in ordered]
    width = statistics.median(widths) if widths else 1.0
    groups: list[list[Tile]] = []
    last: TileRead | None = None
    for r in ordered:
        along = r.center[0] if r.along is None else r.along
        before = None if last is None else (last.center[0] if last.along is None else last.along)
        new = (last is None or r.row == APART or r.row != last.row or before is None
               or along - before > gap * width)
        if new:
            groups.append([r.tile])
        else:
            groups[-1].append(r.tile)
        last = r
    return groups


def table_text(groups: Sequence[Sequence[Tile]]) -> str:
    """Groups of tiles written as the table's text box holds them: 'r3 r4 r5, k7 b7 y7'."""
    return ", ".join(format_hand(g) for g in groups if g)


def laid_melds(text: str, indicator: Tile | str) -> tuple[Meld, ...]:
    """The melds of the table's text with the round's indicator (an
    :class:`~okey_vision.errors.InvalidMeldError` quoting a group that is no
    meld; an empty text is an empty table)."""
    return parse_melds(text, parse_tile(indicator))


__all__ = ["MELD_GAP", "laid_melds", "meld_groups", "table_text"]
