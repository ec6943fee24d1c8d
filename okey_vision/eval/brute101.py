"""An independent brute force of the 101 opening, for the tests and the
solver benchmark.

Nothing here shares code with the opening search: candidate melds are the
subsets of the hand within one colour or one number (plus okeys), each
valued by trying every run and set it could be read as (an okey taking
every face it could stand for); the best disjoint choice is found by plain
recursion over the hand's positions.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache
from itertools import combinations

from okey_vision.tiles import COLORS, Tile


def meld_value(tiles: Sequence[Tile], okey: Tile, ace: bool = True) -> int | None:
    """The highest value of ``tiles`` read as one run or set, None if none."""
    n = len(tiles)
    wild = sum(t == okey for t in tiles)
    real = [(okey if t.is_false_joker else t) for t in tiles if t != okey]
    best: int | None = None
    if 3 <= n <= 4:  # a set: one number, distinct colours
        numbers = {t.number for t in real}
        colors = [t.color for t in real]
        if len(numbers) <= 1 and len(set(colors)) == len(colors):
            for number in (numbers or set(range(1, 14))):
                best = max(best or 0, number * n)
    if 3 <= n <= 13:  # a run: every colour and start; position 14 is a 1 after 13
        have = sorted((t.color, t.number) for t in real)
        for color in COLORS:
            for start in range(1, 16 - n):
                end = start + n - 1
                if end == 14 and not ace:
                    continue
                pool = [(color, p if p <= 13 else 1) for p in range(start, end + 1)]
                ok = True
                for h in have:
                    if h in pool:
                        pool.remove(h)
                    else:
                        ok = False
                        break
                if ok and len(pool) == wild:
                    best = max(best or 0, sum(p if p <= 13 else 1 for p in range(start, end + 1)))
    return best


def candidate_melds(tiles: Sequence[Tile], okey: Tile, ace: bool = True) -> list[tuple[int, int]]:
    """(mask over positions, value) of every subset that is a run or a set."""
    wild = [i for i, t in enumerate(tiles) if t == okey]

    def face(i: int) -> Tile:
        return okey if tiles[i].is_false_joker else tiles[i]

    fixed = [i for i, t in enumerate(tiles) if t != okey]
    groups = [[i for i in fixed if face(i).color == c] for c in COLORS]
    groups += [[i for i in fixed if face(i).number == n] for n in range(1, 14)]
    seen: set[int] = set()
    out: list[tuple[int, int]] = []
    for group in groups:
        for k in range(1, min(len(group), 13) + 1):
            for part in combinations(group, k):
                for j in range(len(wild) + 1):
                    for okeys in combinations(wild, j):
                        if not 3 <= k + j <= 13:
                            continue
                        mask = sum(1 << i for i in (*part, *okeys))
                        if mask in seen:
                            continue
                        seen.add(mask)
                        value = meld_value([tiles[i] for i in (*part, *okeys)], okey, ace)
                        if value is not None:
                            out.append((mask, value))
    return out


def brute_opening(tiles: Sequence[Tile], okey: Tile, ace: bool = True) -> int:
    """The most points disjoint runs and sets of ``tiles`` can lay."""
    n = len(tiles)
    melds = candidate_melds(tiles, okey, ace)
    by_low: list[list[tuple[int, int]]] = [[] for _ in range(n)]
    for mask, value in melds:
        by_low[(mask & -mask).bit_length() - 1].append((mask, value))

    @cache
    def best(free: int) -> int:
        if not free:
            return 0
        low = (free & -free).bit_length() - 1
        top = best(free & ~(1 << low))  # the lowest free tile stays in hand
        for mask, value in by_low[low]:
            if mask & free == mask:
                top = max(top, value + best(free & ~mask))
        return top

    return best((1 << n) - 1)
