"""A hand against the tiles still available, and the seven-pairs distance.

Every face has two copies less those in the hand, on the discard piles and
the indicator; the okeys and false jokers likewise. The okey face's non-wild
copies are the false jokers; the physical okeys are wild and counted apart.

>>> from okey_vision.tiles import parse_hand, parse_tile
>>> p = Pool.of(parse_hand("r1 r1 r5 r5 y7 y7 b9 b9 b13 b13 k4 k4 y2 r12"), parse_tile("k1"), ())
>>> p.pairs_distance(), p.wh, p.wa
(1, 0, 2)
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from okey_vision.coach.templates import SHIFT, UNREACHABLE
from okey_vision.tiles import FALSE_JOKER, HAND_SIZE, NUM_FACES, TILES, Tile, okey_of

#: Seven pairs: two okeys may pair (the rules' default).
OKEY_PAIR = True
#: Pairs in a seven-pairs finish.
PAIRS = HAND_SIZE // 2


@dataclass(frozen=True)
class Pool:
    """A hand against the tiles still available: the searches' view."""

    okey: Tile
    x: int          # the hand's non-wild tiles, false jokers as the okey face
    total: int      # how many tiles x holds
    wh: int         # okeys in the hand
    y: int          # available non-wild tiles (false jokers at the okey face)
    w: int          # okeys not seen: in the hand or available
    hand: tuple[int, ...]   # per face: copies in hand (false jokers at the okey face)
    avail: tuple[int, ...]  # per face: copies available

    @classmethod
    def of(cls, tiles: Sequence[Tile], indicator: Tile, seen: Sequence[Tile]) -> Pool:
        """The pool of a hand, given the indicator and the tiles seen elsewhere."""
        okey = okey_of(indicator)
        held = Counter(tiles)
        gone = Counter(seen)
        gone[indicator] += 1
        hand = [0] * NUM_FACES
        avail = [0] * NUM_FACES
        for f in range(NUM_FACES):
            t = FALSE_JOKER if f == okey.index else TILES[f]
            hand[f] = held[t]
            avail[f] = 2 - held[t] - gone[t]
        x = sum(h << SHIFT[f] for f, h in enumerate(hand))
        y = sum(a << SHIFT[f] for f, a in enumerate(avail))
        return cls(okey, x, sum(hand), held[okey], y, 2 - gone[okey], tuple(hand), tuple(avail))

    @property
    def wa(self) -> int:
        """Okeys still available to draw."""
        return self.w - self.wh

    def face(self, tile: Tile) -> int | None:
        """The face a tile plays as (None for a wild okey)."""
        if tile == self.okey:
            return None
        return self.okey.index if tile.is_false_joker else tile.index

    def available(self, tile: Tile) -> int:
        """Copies of ``tile`` still available to draw (okeys: the wild ones)."""
        face = self.face(tile)
        return self.wa if face is None else self.avail[face]

    def pair_counts(self) -> tuple[int, int, int, int, int]:
        """The counts :func:`pairs_kept` takes, for this pool."""
        return pair_counts(self.hand, self.avail)

    def pairs_distance(self) -> int:
        """Distance by the seven-pairs route alone."""
        return pairs_distance(self.pair_counts(), self.wh, self.wa)


def pairs_kept(na: int, nb0: int, nb1: int, nc1: int, nc2: int, wh: int, wa: int) -> int:
    """Most hand tiles in seven pairs built from the pool, or -1 if no seven
    pairs can be built. Counts: faces held twice (na), held once with no
    (nb0) or some (nb1) available twin, not held with one (nc1) or two (nc2)
    available copies; okeys held (wh) and available (wa).

    Greedy by hand tiles per pair: pairs worth 2 (held pairs, a single with
    a held okey, two held okeys), then 1, then 0; within a value the choice
    that spares the scarcer partner (a held okey goes to a single that has no
    twin left; a spare okey partners a face with one copy before one with two).

    >>> pairs_kept(6, 0, 1, 0, 10, 0, 2)
    13
    """
    slots = PAIRS
    kept = 0
    t = min(slots, na)
    kept += 2 * t
    slots -= t
    t = min(slots, wh, nb0)
    kept += 2 * t
    slots -= t
    wh -= t
    nb0 -= t
    t = min(slots, wh, nb1)
    kept += 2 * t
    slots -= t
    wh -= t
    nb1 -= t
    if OKEY_PAIR:
        t = min(slots, wh // 2)
        kept += 2 * t
        slots -= t
        wh -= 2 * t
    t = min(slots, nb1)
    kept += t
    slots -= t
    # A held okey left over partners an available tile (kept 1).
    t = min(slots, wh, nc1 + nc2 + (wa if OKEY_PAIR else 0))
    kept += t
    slots -= t
    use = min(t, nc1)
    nc1 -= use
    t -= use
    use = min(t, nc2)
    nc2 -= use
    wa -= t - use
    t = min(slots, nb0, wa)
    kept += t
    slots -= t
    wa -= t
    # Pairs of tiles all drawn (kept 0), only to fill the seven.
    t = min(slots, nc2)
    slots -= t
    t = min(slots, nc1, wa)
    slots -= t
    wa -= t
    if OKEY_PAIR and slots and wa >= 2:
        slots -= 1
    return kept if slots == 0 else -1


def pair_counts(hand: Sequence[int], avail: Sequence[int]) -> tuple[int, int, int, int, int]:
    """(na, nb0, nb1, nc1, nc2) of :func:`pairs_kept` from per-face counts."""
    na = nb0 = nb1 = nc1 = nc2 = 0
    for h, a in zip(hand, avail, strict=True):
        if h >= 2:
            na += 1
        elif h == 1:
            if a:
                nb1 += 1
            else:
                nb0 += 1
        elif a == 1:
            nc1 += 1
        elif a >= 2:
            nc2 += 1
    return na, nb0, nb1, nc1, nc2


def pairs_distance(counts: tuple[int, int, int, int, int], wh: int, wa: int) -> int:
    """Seven-pairs distance from :func:`pair_counts` and the okeys held and available."""
    kept = pairs_kept(*counts, wh, wa)
    return HAND_SIZE - kept if kept >= 0 else UNREACHABLE
