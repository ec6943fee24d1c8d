"""Melds: runs, sets and pairs, with okeys standing in for any tile.

A meld keeps the physical tiles as held and the face each one plays as: an
okey (wild) plays any face, a false joker plays the okey face.

>>> m = make_meld(parse_hand("r12 r13 r1"), indicator=parse_tile("k5"))
>>> m.kind, str(m)
('run', 'r12 r13 r1')
>>> make_meld(parse_hand("b13 b1 b2"), parse_tile("k5"))
Traceback (most recent call last):
...
okey_vision.errors.InvalidMeldError: 'b13 b1 b2' is no valid run or set (indicator k5, okey k6)
>>> m = make_meld(parse_hand("y7 k6 b7"), parse_tile("k5"))   # k6 is the okey
>>> m.kind, m.wilds
('set', ((1, Tile('r7')),))
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from enum import Enum

from okey_vision.errors import InvalidMeldError
from okey_vision.tiles import COLORS, NUM_FACES, TILES, Tile, format_hand, okey_of, parse_hand, parse_tile

#: Meld kinds.
RUN, SET, PAIR = "run", "set", "pair"



class Partner(Enum):
    """How another face would join a face into a partial meld."""

    SET = "set"     # the same number in another colour
    NEXT = "next"   # the same colour, one step away
    GAP = "gap"     # the same colour, two steps away


def meld_partners(i: int) -> tuple[tuple[int, Partner], ...]:
    """The faces (by index) that would make face ``i`` part of a partial
    meld, and how: a 1 also follows 13 (12-13-1) but 13-1-2 never counts.

    >>> [(TILES[j].name, k.value) for j, k in meld_partners(TILES.index(parse_tile("r13")))]
    [('y13', 'set'), ('b13', 'set'), ('k13', 'set'), ('r12', 'next'), ('r1', 'next'), ('r11', 'gap')]
    """
    c, n0 = divmod(i, 13)
    out = [(d * 13 + n0, Partner.SET) for d in range(len(COLORS)) if d != c]
    for q in (n0 + 1, 14) if n0 == 0 else (n0 + 1,):  # 14: the 1 after 13
        for m, kind in ((q - 1, Partner.NEXT), (q + 1, Partner.NEXT), (q - 2, Partner.GAP), (q + 2, Partner.GAP)):
            if 1 <= m <= 14:
                out.append((c * 13 + (m - 1) % 13, kind))
    return tuple(out)


#: :func:`meld_partners` of every face, by face index.
PARTNERS = tuple(meld_partners(i) for i in range(NUM_FACES))


@dataclass(frozen=True)
class Meld:
    """A run, set or pair: the physical tiles and the face each plays as."""

    kind: str
    tiles: tuple[Tile, ...]
    faces: tuple[Tile, ...]
    okey: Tile

    @property
    def wilds(self) -> tuple[tuple[int, Tile], ...]:
        """(position, face stood for) of each okey in the meld."""
        return tuple((i, f) for i, (t, f) in enumerate(zip(self.tiles, self.faces, strict=True)) if t == self.okey)

    @property
    def names(self) -> list[str]:
        """The physical tiles in short notation."""
        return [t.name for t in self.tiles]

    def describe(self) -> str:
        """Tiles with what each okey stands for, e.g. ``'r3 r4 k6(=r5)'``."""
        wild = dict(self.wilds)
        return " ".join(
            f"{t.name}(={wild[i].name})" if i in wild else t.name for i, t in enumerate(self.tiles)
        )

    def __len__(self) -> int:
        return len(self.tiles)

    def __str__(self) -> str:
        return format_hand(self.tiles)


def _split(tiles: Sequence[Tile], okey: Tile) -> tuple[list[tuple[int, Tile]], int]:
    """(position, played face) of the non-wild tiles, and the number of okeys."""
    fixed: list[tuple[int, Tile]] = []
    wilds = 0
    for i, t in enumerate(tiles):
        if t == okey:
            wilds += 1
        else:
            fixed.append((i, okey if t.is_false_joker else t))
    return fixed, wilds


def _face(color: str, number: int) -> Tile:
    """The face of a colour letter and a number 1..14 (14 is the 1 after 13)."""
    return TILES[COLORS.index(color) * 13 + (number - 1) % 13]


def as_run(tiles: Sequence[Tile], indicator: Tile) -> Meld | None:
    """The tiles as a run (3..13 of one colour, consecutive, 12-13-1 allowed,
    13-1-2 not), ordered low to high; None if they form none."""
    return run_with_okey(tiles, okey_of(indicator))


def run_with_okey(tiles: Sequence[Tile], okey: Tile) -> Meld | None:
    """:func:`as_run` given the okey face instead of the indicator."""
    n = len(tiles)
    if not 3 <= n <= 13:
        return None
    fixed, _ = _split(tiles, okey)
    colors = {f.color for _, f in fixed}
    if len(colors) > 1:
        return None
    color = colors.pop() if colors else okey.color
    numbers = [f.number for _, f in fixed]
    if len(set(numbers)) != len(numbers):
        return None
    # Positions 1..14, where 14 is a 1 played after 13; a window of n <= 13
    # positions never holds both 1 and 14, so 13-1-2 is excluded by construction.
    # Prefer the plain reading (1 low, okeys after the fixed tiles), then 12-13-1.
    low = min(numbers, default=1)
    starts = [s for s in range(low, 0, -1) if s + n - 1 <= 13]
    starts += [s for s in range(low + 1, 15 - n) if s + n - 1 <= 13]
    starts += [15 - n] if n <= 13 else []
    for start in starts:
        end = start + n - 1
        pos: dict[int, int] = {}
        for i, num in ((i, f.number) for i, f in fixed):
            p = num if start <= num <= end else 14 if (num == 1 and end == 14) else 0
            if not p:
                break
            pos[p] = i
        else:
            wild_idx = iter(i for i, t in enumerate(tiles) if t == okey)
            order = [pos[p] if p in pos else next(wild_idx) for p in range(start, end + 1)]
            return Meld(
                RUN,
                tuple(tiles[i] for i in order),
                tuple(_face(color, p) for p in range(start, end + 1)),
                okey,
            )
    return None


def as_set(tiles: Sequence[Tile], indicator: Tile) -> Meld | None:
    """The tiles as a set (3 or 4 of one number, distinct colours); None if not."""
    return set_with_okey(tiles, okey_of(indicator))


def set_with_okey(tiles: Sequence[Tile], okey: Tile) -> Meld | None:
    """:func:`as_set` given the okey face instead of the indicator."""
    if not 3 <= len(tiles) <= 4:
        return None
    fixed, _ = _split(tiles, okey)
    numbers = {f.number for _, f in fixed}
    colors = [f.color for _, f in fixed]
    if len(numbers) > 1 or len(set(colors)) != len(colors):
        return None
    number = numbers.pop() if numbers else okey.number
    free = iter(c for c in COLORS if c not in colors)
    faces = tuple(
        _face(next(free), number) if t == okey else (okey if t.is_false_joker else t) for t in tiles
    )
    return Meld(SET, tuple(tiles), faces, okey)


def as_pair(tiles: Sequence[Tile], indicator: Tile, okey_pair: bool = True) -> Meld | None:
    """The tiles as a seven-pairs pair (two identical faces, an okey partners
    anything; two okeys pair only when ``okey_pair``); None if not."""
    return pair_with_okey(tiles, okey_of(indicator), okey_pair)


def pair_with_okey(tiles: Sequence[Tile], okey: Tile, okey_pair: bool = True) -> Meld | None:
    """:func:`as_pair` given the okey face instead of the indicator."""
    if len(tiles) != 2:
        return None
    fixed, wilds = _split(tiles, okey)
    if wilds == 2 and not okey_pair:
        return None
    if wilds == 0 and fixed[0][1] != fixed[1][1]:
        return None
    face = fixed[0][1] if fixed else okey
    return Meld(PAIR, tuple(tiles), (face, face), okey)


def make_meld(tiles: Sequence[Tile | str], indicator: Tile | str, kind: str | None = None) -> Meld:
    """The tiles as a valid meld (a run or set; a pair when ``kind='pair'``),
    raising :class:`InvalidMeldError` when they form none."""
    indicator = parse_tile(indicator)
    tiles = parse_hand(tiles)
    if kind in (None, RUN):
        meld = as_run(tiles, indicator)
        if meld:
            return meld
    if kind in (None, SET):
        meld = as_set(tiles, indicator)
        if meld:
            return meld
    if kind == PAIR:
        meld = as_pair(tiles, indicator)
        if meld:
            return meld
    what = kind or "run or set"
    raise InvalidMeldError(
        f"{format_hand(tiles)!r} is no valid {what} "
        f"(indicator {indicator.name}, okey {okey_of(indicator).name})"
    )


#: What separates the melds of a table written out: a comma, a semicolon,
#: a bar or a new line (the tiles of one meld are separated by spaces).
MELD_SEPARATORS = re.compile(r"[,;|\n]+")


def parse_meld(text: str, indicator: Tile | str, pairs: bool = True) -> Meld | None:
    """One meld typed by name ("r5 r6 r7", Turkish names too): a run or a
    set, or with ``pairs`` two tiles as a pair; None for a blank text. Tiles
    that form no meld raise :class:`InvalidMeldError` quoting them, in English
    and (by its key) in Turkish. The one rule behind :func:`parse_melds` and
    the 101 table's :func:`okey_vision.yuzbir.table.table_melds`.

    >>> parse_meld("y9 b9 k2", "k1").describe(), parse_meld("  ", "k1")
    ('y9 b9 k2(=r9)', None)
    >>> parse_meld("b9 b9", "k1", pairs=False)
    Traceback (most recent call last):
    ...
    okey_vision.errors.InvalidMeldError: 'b9 b9' is no valid run or set (indicator k1, okey k2)
    """
    indicator = parse_tile(indicator)
    tiles = parse_hand(text)
    if not tiles:
        return None
    if pairs and len(tiles) == 2:
        meld = as_pair(tiles, indicator)
    else:
        meld = as_run(tiles, indicator) or as_set(tiles, indicator)
    if meld is None:
        what, key = ("run, set or pair", "not_a_meld") if pairs else ("run or set", "not_a_run_or_set")
        raise InvalidMeldError(f"{format_hand(tiles)!r} is no valid {what} "
                               f"(indicator {indicator.name}, okey {okey_of(indicator).name})",
                               key, tiles=format_hand(tiles))
    return meld


def parse_melds(text: str, indicator: Tile | str) -> tuple[Meld, ...]:
    """The melds laid on a table, written as players type them: melds
    separated by commas (or ``;``, ``|``, new lines), tiles by spaces, Turkish
    names too; two tiles are a pair (laid by a pairs opener). A group that is
    no meld raises :class:`InvalidMeldError` quoting it (:func:`parse_meld`).

    >>> [m.describe() for m in parse_melds("r3 r4 r5, k7 b7 y7; b9 b9", "y1")]
    ['r3 r4 r5', 'k7 b7 y7', 'b9 b9']
    >>> [m.kind for m in parse_melds("kırmızı 3 kırmızı 4 y2 | mavi 8 mavi 8", "y1")]
    ['run', 'pair']
    >>> parse_melds("r3 r4 r5, k7 b8", "y1")
    Traceback (most recent call last):
    ...
    okey_vision.errors.InvalidMeldError: 'k7 b8' is no valid run, set or pair (indicator y1, okey y2)
    """
    melds = (parse_meld(group, indicator) for group in MELD_SEPARATORS.split(text))
    return tuple(m for m in melds if m is not None)


def format_melds(melds: Sequence[Meld]) -> str:
    """Melds written as :func:`parse_melds` reads them.

    >>> format_melds(parse_melds("r3 r4 r5,k7 b7 y7", "y1"))
    'r3 r4 r5, k7 b7 y7'
    """
    return ", ".join(format_hand(m.tiles) for m in melds)


def is_meld(tiles: Sequence[Tile], indicator: Tile) -> bool:
    """True when the tiles form a valid run or set."""
    return as_run(tiles, indicator) is not None or as_set(tiles, indicator) is not None
