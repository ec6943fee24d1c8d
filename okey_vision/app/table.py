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

import itertools
import statistics
from collections.abc import Sequence

from okey_vision.melds import Meld, as_pair, is_meld, parse_melds
from okey_vision.tiles import Tile, format_hand, parse_hand, parse_tile  # noqa: F401 - parse_hand: doctests
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


def split_melds(group: Sequence[Tile], indicator: Tile | str) -> list[list[Tile]]:
    """A group of tiles that lie touching, split into the fewest melds (runs
    and sets of 3 or more, pairs) that make it up whole, in order; the group
    as it is when no split does (the player corrects it). Melds laid too
    close together read as one group: the game's own rules part them.

    >>> names = lambda gs: [" ".join(t.name for t in g) for g in gs]
    >>> names(split_melds(parse_hand("k7 b7 y7 y10 y11 y12 y13"), "b1"))
    ['k7 b7 y7', 'y10 y11 y12 y13']
    >>> names(split_melds(parse_hand("b1 b1 k9 k10 k11"), "y2")), names(split_melds(parse_hand("r1 y5"), "y2"))
    (['b1 b1', 'k9 k10 k11'], ['r1 y5'])
    """
    ind = parse_tile(indicator)
    tiles = list(group)
    n = len(tiles)
    best: list[list[int] | None] = [[]] + [None] * n  # best[i]: the cuts of tiles[:i] into the fewest melds
    for end in range(2, n + 1):
        for start in range(end - 1):
            part = tiles[start:end]
            if best[start] is None or not ((len(part) == 2 and as_pair(part, ind)) or is_meld(part, ind)):
                continue
            cuts = best[start]
            assert cuts is not None
            if best[end] is None or len(cuts) + 1 < len(best[end] or []):
                best[end] = [*cuts, start]
    cuts = best[n]
    if not tiles or cuts is None:
        return [tiles]
    bounds = [*cuts, n]
    return [tiles[a:b] for a, b in itertools.pairwise(bounds)]


def table_text(groups: Sequence[Sequence[Tile]]) -> str:
    """Groups of tiles written as the table's text box holds them: 'r3 r4 r5, k7 b7 y7'."""
    return ", ".join(format_hand(g) for g in groups if g)


def laid_melds(text: str, indicator: Tile | str) -> tuple[Meld, ...]:
    """The melds of the table's text with the round's indicator (an
    :class:`~okey_vision.errors.InvalidMeldError` quoting a group that is no
    meld; an empty text is an empty table)."""
    return parse_melds(text, parse_tile(indicator))


__all__ = ["MELD_GAP", "laid_melds", "meld_groups", "split_melds", "table_text"]
