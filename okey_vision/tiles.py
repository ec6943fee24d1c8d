"""Tiles, their text notation, the indicator and the okey.

A tile is a small immutable value. Its one text notation is a colour letter
and a number (``r7``, ``y13``, ``b1``, ``k10``) or ``fj`` for a false joker.

>>> parse_tile("red7"), parse_tile("orange5"), parse_tile("FJ")
(Tile('r7'), Tile('y5'), Tile('fj'))
>>> okey_of(parse_tile("b13"))
Tile('b1')
>>> format_hand(parse_hand("r1 r2 r3 fj"))
'r1 r2 r3 fj'
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum
from typing import ClassVar, Protocol

from okey_vision.errors import (
    HandError,
    HandSizeError,
    TileCountError,
    UnknownTileError,
    clip,
)

#: Colour letters in the project's fixed order (index 0..3).
COLORS: tuple[str, ...] = ("r", "y", "b", "k")
#: Full English colour names by letter.
COLOR_NAMES: dict[str, str] = {"r": "red", "y": "yellow", "b": "blue", "k": "black"}
#: Number of distinct numbered faces (4 colours x 13 numbers).
NUM_FACES = 52
#: Copies of each face (and of the false joker) in a full set.
COPIES = 2
#: Tiles a player holds between turns, and the tiles of a finished hand.
HAND_SIZE = 14
#: Most tiles a player ever holds (after taking, before discarding).
MAX_HAND = HAND_SIZE + 1



class Game(str, Enum):
    """The game a hand is played in: classic Okey (the default) or 101 Okey
    (yüzbir), which deals 21 tiles (22 to the starter) and lays melds down
    during the round.

    >>> Game.parse("101"), Game.parse("yüzbir").hand_size, Game.OKEY.max_hand
    (<Game.ONE_OH_ONE: '101'>, 21, 15)
    """

    OKEY = "okey"
    ONE_OH_ONE = "101"

    @property
    def hand_size(self) -> int:
        """Tiles dealt to a player who does not start."""
        return HAND_SIZE if self is Game.OKEY else 21

    @property
    def max_hand(self) -> int:
        """Most tiles a player ever holds (the starter's deal, or after taking)."""
        return self.hand_size + 1

    @property
    def label(self) -> str:
        """The game's name as players say it."""
        return "Okey" if self is Game.OKEY else "101 Okey"

    @classmethod
    def parse(cls, text: str | Game) -> Game:
        """The game named ``text`` ('okey', '101', 'yuzbir'), or an error naming it."""
        if isinstance(text, Game):
            return text
        key = _fold(str(text))
        if key in ("101", "yuzbir", "yuzbirokey", "101okey", "onehundredone"):
            return cls.ONE_OH_ONE
        if key in ("okey", "classic", "classicokey"):
            return cls.OKEY
        raise HandError(f"unknown game {clip(repr(text))}: expected 'okey' or '101'", "unknown_game",
                        name=clip(repr(text)))


#: Turkish colour names by letter, as players say them.
COLOR_NAMES_TR: dict[str, str] = {"r": "kırmızı", "y": "sarı", "b": "mavi", "k": "siyah"}

# Long colour names and their aliases, English and Turkish (folded to ASCII,
# see _fold); orange is how yellow often looks.
_COLOR_ALIASES: dict[str, str] = {
    "r": "r", "red": "r", "kirmizi": "r",
    "y": "y", "yellow": "y", "o": "y", "orange": "y", "sari": "y", "turuncu": "y",
    "b": "b", "blue": "b", "mavi": "b",
    "k": "k", "black": "k", "siyah": "k",
}
_FALSE_JOKER_NAMES = {"fj", "falsejoker", "falseokey", "sahteokey", "sahte", "sahtejoker", "f"}
_TILE_RE = re.compile(r"^([a-z]+)(\d{1,2})$")
# Turkish letters folded to ASCII, so "KIRMIZI", "kırmızı" and "kirmizi" agree
# (Python lowercases "I" to "i" and "İ" to "i" + a combining dot).
_FOLD = str.maketrans({"ı": "i", "ş": "s", "ğ": "g", "ç": "c", "ö": "o", "ü": "u", "\u0307": None})


def _fold(text: str) -> str:
    return re.sub(r"[\s_\-]", "", text.strip().lower().translate(_FOLD))


@dataclass(frozen=True, slots=True)
class Tile:
    """One tile face: a colour letter and a number 1..13, or the false joker."""

    color: str
    number: int
    index: int = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.color == "f" and self.number == 0:
            index = NUM_FACES
        elif self.color in COLORS and 1 <= self.number <= 13:
            index = COLORS.index(self.color) * 13 + self.number - 1
        else:
            raise UnknownTileError(f"unknown tile {self.color!r}{self.number!r}")
        object.__setattr__(self, "index", index)

    @property
    def is_false_joker(self) -> bool:
        """True for the false joker (``fj``)."""
        return self.index == NUM_FACES

    @property
    def name(self) -> str:
        """The short notation, e.g. ``'r7'`` or ``'fj'``."""
        return "fj" if self.is_false_joker else f"{self.color}{self.number}"

    def __str__(self) -> str:
        return self.name

    def __repr__(self) -> str:
        return f"Tile({self.name!r})"

    def __lt__(self, other: Tile) -> bool:
        return self.index < other.index


#: All 53 distinct tiles: the 52 faces in index order, then the false joker.
TILES: tuple[Tile, ...] = tuple(
    [Tile(c, n) for c in COLORS for n in range(1, 14)] + [Tile("f", 0)]
)
#: The false joker.
FALSE_JOKER: Tile = TILES[NUM_FACES]
#: The full set in index order: every face twice and two false jokers.
FULL_SET: tuple[Tile, ...] = tuple(t for t in TILES for _ in range(COPIES))
#: Tiles in a full set (106).
SET_SIZE = len(FULL_SET)


def tile_at(index: int) -> Tile:
    """The tile with the given index (0..51 faces, 52 the false joker).

    >>> tile_at(0), tile_at(51), tile_at(52)
    (Tile('r1'), Tile('k13'), Tile('fj'))
    """
    return TILES[index]


def parse_tile(text: str | Tile) -> Tile:
    """Parse one tile name, short or long, case-insensitive.

    >>> parse_tile("k10"), parse_tile("Black_1"), parse_tile("yellow-13")
    (Tile('k10'), Tile('k1'), Tile('y13'))
    >>> parse_tile("kırmızı5"), parse_tile("SARI 12"), parse_tile("sahte")
    (Tile('r5'), Tile('y12'), Tile('fj'))
    """
    if isinstance(text, Tile):
        return text
    if not isinstance(text, str):
        raise UnknownTileError(f"unknown tile name {clip(repr(text))}: not a string", "unknown_tile",
                               name=clip(repr(text)))
    key = _fold(text)
    if key in _FALSE_JOKER_NAMES:
        return FALSE_JOKER
    match = _TILE_RE.match(key)
    if match:
        color = _COLOR_ALIASES.get(match.group(1))
        number = int(match.group(2))
        if color is not None and 1 <= number <= 13:
            return TILES[COLORS.index(color) * 13 + number - 1]
    raise UnknownTileError(
        f"unknown tile name {clip(repr(text))}: expected a colour (r, y, b, k) and a "
        "number 1-13 such as 'r7', or 'fj' for a false joker", "unknown_tile", name=clip(repr(text))
    )


def format_tile(tile: Tile) -> str:
    """The short notation of a tile (the inverse of :func:`parse_tile`)."""
    return tile.name


def parse_hand(text: str | Iterable[str | Tile]) -> list[Tile]:
    """Parse tiles separated by spaces or commas, or an iterable of names.

    >>> parse_hand("r1, r2 fj")
    [Tile('r1'), Tile('r2'), Tile('fj')]
    >>> parse_hand("mavi 7 siyah13 sahte okey")
    [Tile('b7'), Tile('k13'), Tile('fj')]
    """
    if isinstance(text, str):
        parts: Iterable[str | Tile] = _join_words([p for p in re.split(r"[\s,]+", text) if p])
    else:
        parts = text
    return [parse_tile(p) for p in parts]


def _join_words(words: list[str]) -> list[str]:
    """Rejoin names a player types as two words: a colour and its number
    ("mavi 7"), or "sahte okey" / "false joker"."""
    out: list[str] = []
    for w in words:
        prev = _fold(out[-1]) if out else ""
        if out and ((prev in _COLOR_ALIASES and len(prev) > 1 and w.isdigit())
                    or (prev in ("sahte", "false") and _fold(w) in ("okey", "joker"))):
            out[-1] += w
        else:
            out.append(w)
    return out


def format_hand(tiles: Iterable[Tile]) -> str:
    """Tiles in short notation joined by spaces."""
    return " ".join(t.name for t in tiles)


def tile_order(tile: Tile | str) -> int:
    """The one order in which a list of tiles is shown: by colour (red,
    yellow, blue, black), then number; a false joker last. A sort key for
    tiles or their names (never sort the names as text: b10 b11 b9).

    >>> sorted(["b10", "b9", "fj", "r13", "b11"], key=tile_order)
    ['r13', 'b9', 'b10', 'b11', 'fj']
    """
    return parse_tile(tile).index


def sort_tiles(tiles: Iterable[Tile | str]) -> list[Tile]:
    """Tiles (or names) as tiles, in the order they are shown (:func:`tile_order`)."""
    return sorted((parse_tile(t) for t in tiles), key=tile_order)


def _fj_indicator() -> TileCountError:
    """The one error for a false joker given as the indicator (it is replaced by the next tile)."""
    return TileCountError("a false joker ('fj') cannot be the indicator: turn up the next tile instead",
                          "fj_indicator")


def okey_of(indicator: Tile) -> Tile:
    """The okey (wild) face: the indicator's colour, next number, 13 wraps to 1.

    >>> okey_of(parse_tile("r3")), okey_of(parse_tile("y13"))
    (Tile('r4'), Tile('y1'))
    """
    indicator = parse_tile(indicator)
    if indicator.is_false_joker:
        raise _fj_indicator()
    return TILES[COLORS.index(indicator.color) * 13 + indicator.number % 13]


def false_joker_face(indicator: Tile) -> Tile:
    """The face a false joker plays as: the okey face (it is not wild)."""
    return okey_of(indicator)


def check_counts(
    hand: Sequence[Tile],
    indicator: Tile | None = None,
    seen: Sequence[Tile] = (),
    offered: Tile | None = None,
) -> None:
    """Raise :class:`TileCountError` if the tiles need more copies than exist.

    Every face has two copies and there are two false jokers; the indicator,
    the seen tiles and the tile ``offered`` to the hand (the discard it may
    take, in both games' coaches) use copies too.

    >>> check_counts(parse_hand("r5 r5"), "r5")
    Traceback (most recent call last):
    ...
    okey_vision.errors.TileCountError: 3 copies of 'r5' (hand 2, indicator 1): only 2 exist
    >>> check_counts(parse_hand("r5 r5"), "k1", offered=parse_tile("r5"))
    Traceback (most recent call last):
    ...
    okey_vision.errors.TileCountError: 3 copies of 'r5' (hand 2, offered 1): only 2 exist
    """
    # Parsed once: a name such as "r5" is accepted like the tile itself.
    indicator = None if indicator is None else parse_tile(indicator)
    if indicator is not None and indicator.is_false_joker:
        raise _fj_indicator()
    total = [0] * len(TILES)
    for t in hand:
        total[t.index] += 1
    for t in seen:
        total[t.index] += 1
    if offered is not None:
        total[offered.index] += 1
    if indicator is not None:
        total[indicator.index] += 1
    if max(total) <= COPIES:
        return
    tile = TILES[next(i for i, v in enumerate(total) if v > COPIES)]
    in_hand, in_seen = list(hand).count(tile), list(seen).count(tile)
    where = [f"hand {in_hand}"] if in_hand else []
    if in_seen:
        where.append(f"seen {in_seen}")
    if offered is not None and tile == offered:
        where.append("offered 1")
    if indicator is not None and tile == indicator:
        where.append("indicator 1")
    raise TileCountError(
        f"{total[tile.index]} copies of {tile.name!r} ({', '.join(where)}): only {COPIES} exist",
        "too_many_copies", n=total[tile.index], tile=tile.name, copies=COPIES
    )


class HasTile(Protocol):
    """Anything that carries one tile: a photo's read, an app's hand entry."""

    @property
    def tile(self) -> Tile:
        """The tile it shows."""
        ...


#: What a hand can be built from, item by item: a tile, its name, or a thing carrying one.
TileLike = Tile | str | HasTile


def _tile_of(item: TileLike) -> Tile:
    """The tile of one item (a read or entry gives its ``tile``)."""
    if isinstance(item, (Tile, str)):
        return parse_tile(item)
    tile = getattr(item, "tile", None)
    if not isinstance(tile, Tile):
        raise UnknownTileError(f"unknown tile {clip(repr(item))}: not a tile, a name or a read", "unknown_tile",
                               name=clip(repr(item)))
    return tile


def _tiles_of(items: str | Iterable[TileLike]) -> tuple[Tile, ...]:
    """Tiles from names (one string, see :func:`parse_hand`) or items."""
    if isinstance(items, str):
        return tuple(parse_hand(items))
    return tuple(_tile_of(item) for item in items)


@dataclass(frozen=True)
class Hand:
    """The boundary between reading and rules: a player's tiles, the indicator
    and the tiles seen elsewhere (discards), all checked against the tile set
    once, here, when the hand is built; the solver and the coach take it as
    it is.

    >>> h = Hand.parse("r1 r2 r3", indicator="k5")
    >>> h.okey, len(h)
    (Tile('k6'), 3)
    >>> Hand.of("r5 r5", "r5")
    Traceback (most recent call last):
    ...
    okey_vision.errors.TileCountError: 3 copies of 'r5' (hand 2, indicator 1): only 2 exist
    """

    tiles: tuple[Tile, ...]
    indicator: Tile
    seen: tuple[Tile, ...] = ()
    #: The game whose size limit the hand is checked against (a subclass names its own).
    game: ClassVar[Game] = Game.OKEY

    def __post_init__(self) -> None:
        object.__setattr__(self, "tiles", _tiles_of(self.tiles))
        object.__setattr__(self, "indicator", parse_tile(self.indicator))
        object.__setattr__(self, "seen", _tiles_of(self.seen))
        most = self.game.max_hand
        if len(self.tiles) > most:
            what = "a hand" if self.game is Game.OKEY else f"a {self.game.value} hand"
            raise HandSizeError(
                f"{what} holds at most {most} tiles, got {len(self.tiles)}: "
                f"{clip(format_hand(self.tiles))!r}", "hand_too_big", most=most, n=len(self.tiles)
            )
        check_counts(self.tiles, self.indicator, self.seen)

    @classmethod
    def of(cls, tiles: Hand | str | Iterable[TileLike], indicator: Tile | str | None = None,
           seen: str | Iterable[TileLike] = ()) -> Hand:
        """The one way every caller builds a hand (the command line, the app,
        the photo reader): from tile names, tiles, or things carrying a tile
        (reads, app entries). A hand already built comes back as it is, not
        checked again; the indicator and seen tiles, if given, must be its own.

        >>> Hand.of("r1 r2 r3", "k5").tiles
        (Tile('r1'), Tile('r2'), Tile('r3'))
        >>> h = Hand.of(["r1", "r2"], "k5")
        >>> Hand.of(h) is h, Hand.of(h, "k5") is h
        (True, True)
        """
        if isinstance(tiles, Hand):
            if indicator is not None and parse_tile(indicator) != tiles.indicator:
                raise HandError(f"the hand's indicator is {tiles.indicator.name!r}, not {clip(indicator)!r}",
                                "hand_indicator", indicator=clip(indicator))
            if seen and _tiles_of(seen) != tiles.seen:
                raise HandError(f"the hand carries its own seen tiles: {clip(format_hand(tiles.seen))!r}, "
                                f"not {clip(seen)!r}", "hand_seen", seen=clip(seen))
            if tiles.game is not cls.game:  # a hand of the other game: checked against this one's size
                return cls(tiles.tiles, tiles.indicator, tiles.seen)
            return tiles
        if indicator is None or indicator == "":
            raise HandError(f"no indicator given for the hand {clip(tiles)!r}", "no_indicator")
        return cls(_tiles_of(tiles), parse_tile(indicator), _tiles_of(seen))

    @classmethod
    def parse(
        cls, tiles: str | Iterable[str | Tile], indicator: str | Tile,
        seen: str | Iterable[str | Tile] = (),
    ) -> Hand:
        """Build a hand from tile names (see :func:`parse_hand`)."""
        return cls.of(tuple(parse_hand(tiles)), indicator, seen)

    @classmethod
    def _checked(cls, tiles: tuple[Tile, ...], indicator: Tile, seen: tuple[Tile, ...]) -> Hand:
        """A hand whose tiles are known to be valid (derived from a checked one)."""
        hand = object.__new__(cls)
        object.__setattr__(hand, "tiles", tiles)
        object.__setattr__(hand, "indicator", indicator)
        object.__setattr__(hand, "seen", seen)
        return hand

    def without(self, tile: Tile) -> Hand:
        """The hand less one copy of ``tile`` (still valid: not checked again).

        >>> Hand.of("r1 r2 r1", "k5").without(parse_tile("r1")).tiles
        (Tile('r2'), Tile('r1'))
        """
        rest = list(self.tiles)
        rest.remove(tile)
        return type(self)._checked(tuple(rest), self.indicator, self.seen)

    def plus(self, tile: Tile) -> Hand:
        """The hand with ``tile`` added: only its copies and the size are
        checked (the rest was when this hand was built).

        >>> Hand.of("r5", "r5").plus(parse_tile("r5"))
        Traceback (most recent call last):
        ...
        okey_vision.errors.TileCountError: 3 copies of 'r5' (hand 2, indicator 1): only 2 exist
        """
        tile = parse_tile(tile)
        tiles = self.tiles + (tile,)
        uses = tiles.count(tile) + self.seen.count(tile) + (tile == self.indicator)
        if uses > COPIES or len(tiles) > self.game.max_hand:
            return type(self)(tiles, self.indicator, self.seen)  # raises, naming what is wrong
        return type(self)._checked(tiles, self.indicator, self.seen)

    @property
    def okey(self) -> Tile:
        """The okey face for this hand's indicator."""
        return okey_of(self.indicator)

    def __len__(self) -> int:
        return len(self.tiles)

    def __str__(self) -> str:
        return format_hand(self.tiles)
