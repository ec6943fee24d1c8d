"""The rules of 101 Okey that every other 101 module shares: the house
options, the point values, the typed 101 hand and how a player opened.

>>> h = Hand101.of("r10 r11 r12 k5 k5", "b3")
>>> len(h), h.okey, tile_value(parse_tile("r12"), h.okey)
(5, Tile('b4'), 12)
>>> Options101().needed(highest=116), Options101(beat_highest=True).needed(highest=116)
(101, 117)
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import ClassVar

from okey_vision.errors import HandSizeError
from okey_vision.lang import Lang, count
from okey_vision.tiles import Game, Hand, Tile, TileLike, parse_tile  # noqa: F401 - parse_tile: the doctests
from okey_vision.yuzbir.text import say

#: Points the runs and sets of a first lay-down must reach.
OPENING_POINTS = 101
#: Pairs a pairs opening must lay at least.
OPENING_PAIRS = 5
#: Penalty of a player who never opened in the round.
NOT_OPENED = 202
#: What an okey left in hand adds to its holder's penalty.
OKEY_IN_HAND = 101
#: What a finisher takes off (before the finish's multiplier).
FINISH = 101
#: The fine for a misplay: discarding a tile the table takes, or the okey.
MISPLAY = 101


class Opened(str, Enum):
    """How a player has opened this round: not yet, with runs and sets, or with pairs."""

    NO = "no"
    MELDS = "melds"
    PAIRS = "pairs"

    @classmethod
    def parse(cls, text: str | Opened | None) -> Opened:
        """``text`` ('no', 'melds', 'pairs'; None is 'no') as an :class:`Opened`."""
        from okey_vision.errors import OkeyError, clip

        if text is None:
            return cls.NO
        try:
            return cls(text)
        except ValueError:
            raise OkeyError(f"unknown opening state {clip(repr(text))}: expected 'no', 'melds' or 'pairs'",
                            "unknown_opened") from None


@dataclass(frozen=True)
class Options101:
    """The house options of 101 where tables differ; each default is the
    most common table's (see docs/rules-101.md)."""

    #: Each later opener must beat the highest opening so far (116 -> 117); off by default.
    beat_highest: bool = False
    #: An opened player may take back a laid okey by putting the real tile in its place.
    take_back_okey: bool = True
    #: A 1 may follow 13 in a run (12-13-1); 13-1-2 never. Some rulebooks forbid it.
    ace_after_13: bool = True
    #: Two okeys may make a pair.
    okey_pair: bool = True
    #: The finish's multiplier (okey, pairs, whole hand at once) also multiplies the others' penalties.
    multiply_others: bool = True
    #: Points an opening must reach, and pairs a pairs opening must lay.
    opening_points: int = OPENING_POINTS
    opening_pairs: int = OPENING_PAIRS

    def needed(self, highest: int = 0) -> int:
        """Points this player's opening must reach, given the highest opening so far."""
        if self.beat_highest and highest >= self.opening_points:
            return highest + 1
        return self.opening_points

    def pairs_needed(self, most_pairs: int = 0) -> int:
        """Pairs this player's pairs opening must lay, given the most laid so far."""
        if self.beat_highest and most_pairs >= self.opening_pairs:
            return most_pairs + 1
        return self.opening_pairs


#: The defaults.
DEFAULT_OPTIONS = Options101()


class Hand101(Hand):
    """A 101 player's tiles (at most 22: the starter's deal), the indicator
    and the tiles seen (discards and the table's melds), checked once here.

    >>> Hand101.of(" ".join(["r1"] * 2 + ["r2"] * 2), "k5").tiles[:2]
    (Tile('r1'), Tile('r1'))
    >>> Hand101.of("r1 r2 " * 12, "k5")
    Traceback (most recent call last):
    ...
    okey_vision.errors.HandSizeError: a 101 hand holds at most 22 tiles, got 24: 'r1 r2 r1 r2 r1 r2 ...
    """

    game: ClassVar[Game] = Game.ONE_OH_ONE


class Hand101SizeError(HandSizeError):
    """A 101 hand of the wrong size for the call: a rack photo read with
    other than 21 or 22 tiles (:func:`rack101`), or a hand of more than 21
    offered a tile. Its sentences are 101's (:mod:`okey_vision.yuzbir.text`,
    by its key); its field ``n``, a number of tiles, is said with its unit."""

    @classmethod
    def of(cls, key: str, **fields: object) -> Hand101SizeError:
        """The error ``key`` with its English sentence."""
        return cls(_sized(key, Lang.EN, fields), key, **fields)

    def said(self, lang: str = "en") -> str | None:
        """The sentence in ``lang``."""
        return _sized(self.key, lang, self.fields)


def _sized(key: str, lang: str, fields: dict[str, object]) -> str:
    n = fields.get("n")
    said = dict(fields, n=count(n, "tile", lang)) if isinstance(n, int) else fields
    return say(key, lang, **said).rstrip(".")


def rack101(hand: Hand, photo: str) -> Hand101:
    """The 101 hand read off the rack of ``photo``: 21 tiles, or 22 before
    the discard. Any other count is refused in one sentence naming the photo
    (a partial read would be judged, or advised, as a hand): the one check
    of a 101 rack, for ``read --game 101`` and ``check --game 101`` alike.

    >>> len(rack101(Hand101.of("r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13 y1 y2 y3 y4 y5 y6 y7 y8", "k5"), "a.jpg"))
    21
    >>> rack101(Hand101.of("r1 r2 r3", "k5"), "a.jpg")
    Traceback (most recent call last):
    ...
    okey_vision.yuzbir.rules.Hand101SizeError: a.jpg: 3 tiles read on the rack, and a 101 rack holds 21 tiles, ...
    """
    game = Game.ONE_OH_ONE
    n = len(hand.tiles)
    if n not in (game.hand_size, game.max_hand):
        raise Hand101SizeError.of("read_rack_size", photo=photo, n=n, hand=game.hand_size, most=game.max_hand)
    return as_hand101(hand)


def tile_value(tile: Tile, okey: Tile) -> int:
    """Points of a tile left in hand: its number; a false joker plays as the
    okey face; an okey counts :data:`OKEY_IN_HAND`."""
    if tile == okey:
        return OKEY_IN_HAND
    return okey.number if tile.is_false_joker else tile.number


def hand_points(tiles: Iterable[Tile], okey: Tile) -> int:
    """The tiles' points as they count in hand (:func:`tile_value`)."""
    return sum(tile_value(t, okey) for t in tiles)


def as_hand101(hand: Hand101 | Hand | str | Sequence[TileLike], indicator: Tile | str | None = None,
               seen: str | Iterable[TileLike] = ()) -> Hand101:
    """A :class:`Hand101` from a hand or names, built (and checked) once."""
    built = Hand101.of(hand, indicator, seen)
    assert isinstance(built, Hand101), "Hand.of builds the class it is called on"
    return built
