"""Independent brute-force references for the solver tests.

Nothing here shares code with the solver's search: melds are found by trying
every subset of the hand that could be one (all one colour or all one number,
plus okeys) against :mod:`okey_vision.melds`, and packed by plain recursion.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from okey_vision.melds import as_pair, is_meld
from okey_vision.tiles import Tile, okey_of


def all_melds(hand: Sequence[Tile], indicator: Tile) -> list[int]:
    """Bit masks (over hand positions) of every subset that is a valid run or set."""
    okey = okey_of(indicator)
    wild = [i for i, t in enumerate(hand) if t == okey]
    fixed = [i for i, t in enumerate(hand) if t != okey]

    def face(i: int) -> Tile:
        return okey if hand[i].is_false_joker else hand[i]

    groups: list[list[int]] = []
    for c in "rybk":
        groups.append([i for i in fixed if face(i).color == c])
    for n in range(1, 14):
        groups.append([i for i in fixed if face(i).number == n])
    masks: set[int] = set()
    for group in groups:
        for k in range(1, len(group) + 1):
            for combo in combinations(group, k):
                for wk in range(len(wild) + 1):
                    for wc in combinations(wild, wk):
                        idx = combo + wc
                        if 3 <= len(idx) <= 13 and is_meld([hand[i] for i in idx], indicator):
                            masks.add(sum(1 << i for i in idx))
    return sorted(masks)


def max_placed(hand: Sequence[Tile], indicator: Tile) -> int:
    """Most tiles of the hand that can lie in disjoint valid melds."""
    melds = all_melds(hand, indicator)
    n = len(hand)

    @cache
    def go2(free: int) -> int:
        if not free:
            return 0
        low = (free & -free).bit_length() - 1
        best = go2(free & ~(1 << low))  # the lowest free tile is left over
        for m in melds:
            if m >> low & 1 and m & free == m:
                best = max(best, bin(m).count("1") + go2(free & ~m))
        return best

    return go2((1 << n) - 1)


def _covers(melds: list[int], free: int) -> bool:
    """True when some disjoint melds cover exactly the tiles in ``free``."""
    @cache
    def go(free: int) -> bool:
        if not free:
            return True
        low = free & -free
        return any(m & low and m & free == m and go(free & ~m) for m in melds)

    return go(free)


def is_finished(hand: Sequence[Tile], indicator: Tile) -> bool:
    """True when all tiles of the hand lie in disjoint valid melds."""
    return _covers(all_melds(hand, indicator), (1 << len(hand)) - 1)


def finishing_discards(hand: Sequence[Tile], indicator: Tile) -> set[Tile]:
    """Every tile whose discard leaves the rest of the hand in melds."""
    melds = all_melds(hand, indicator)
    full = (1 << len(hand)) - 1
    return {hand[d] for d in range(len(hand)) if _covers(melds, full & ~(1 << d))}


def is_seven_pairs(hand: Sequence[Tile], indicator: Tile, okey_pair: bool = True) -> bool:
    """True when 14 tiles split into seven valid pairs (tried exhaustively)."""
    if len(hand) != 14:
        return False

    def go(rest: tuple[Tile, ...]) -> bool:
        if not rest:
            return True
        first = rest[0]
        for j in range(1, len(rest)):
            if as_pair([first, rest[j]], indicator, okey_pair) and go(rest[1:j] + rest[j + 1:]):
                return True
        return False

    return go(tuple(hand))


def max_pairs(hand: Sequence[Tile], indicator: Tile, okey_pair: bool = True) -> int:
    """Most disjoint valid pairs in the hand (tried exhaustively, capped at 7)."""
    @cache
    def go(rest: tuple[Tile, ...]) -> int:
        if len(rest) < 2:
            return 0
        first = rest[0]
        best = go(rest[1:])
        for j in range(1, len(rest)):
            if as_pair([first, rest[j]], indicator, okey_pair):
                best = max(best, 1 + go(rest[1:j] + rest[j + 1:]))
        return best

    return min(7, go(tuple(sorted(hand))))
