"""An independent brute force of the 101 opening, for the tests and the
benchmark: every subset of the tiles that forms a run or a set, valued by
trying every face the okeys can stand for, then the best disjoint choice."""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from okey_vision.tiles import COLORS, Tile


def meld_value(tiles: Sequence[Tile], okey: Tile, ace: bool = True) -> int | None:
    """The highest value of ``tiles`` read as one run or set, None if none."""
    n = len(tiles)
    wild = sum(t == okey for t in tiles)
    real = [(okey if t.is_false_joker else t) for t in tiles if t != okey]
    best: int | None = None
    # Sets: 3-4 tiles, one number, distinct colours.
    if 3 <= n <= 4:
        numbers = {t.number for t in real}
        colors = [t.color for t in real]
        if len(numbers) <= 1 and len(set(colors)) == len(colors):
            for number in (numbers or set(range(1, 14))):
                best = max(best or 0, number * n)
    # Runs: every colour and start; position 14 is a 1 after 13.
    if 3 <= n <= 13:
        for color in COLORS:
            for start in range(1, 16 - n):
                end = start + n - 1
                if end == 14 and not ace:
                    continue
                wanted = [(color, p if p <= 13 else 1) for p in range(start, end + 1)]
                have = sorted((t.color, t.number) for t in real)
                pool = list(wanted)
                ok = True
                for h in have:
                    if h in pool:
                        pool.remove(h)
                    else:
                        ok = False
                        break
                if ok and len(pool) == wild:
                    value = sum(p if p <= 13 else 1 for p in range(start, end + 1))
                    best = max(best or 0, value)
    return best


def brute_opening(tiles: Sequence[Tile], okey: Tile, ace: bool = True) -> int:
    """The most points disjoint runs and sets of ``tiles`` can lay."""
    items = tuple(sorted(tiles, key=lambda t: t.index))
    n = len(items)

    @cache
    def best(mask: int) -> int:
        # The lowest tile still free: left in hand, or in some meld with it.
        free = [i for i in range(n) if mask >> i & 1]
        if not free:
            return 0
        first, rest = free[0], free[1:]
        top = best(mask & ~(1 << first))
        k = len(rest)
        for sub in range(1, 1 << k):
            size = bin(sub).count("1") + 1
            if size < 3 or size > 13:
                continue
            chosen = [first] + [rest[j] for j in range(k) if sub >> j & 1]
            value = meld_value([items[i] for i in chosen], okey, ace)
            if value is not None:
                m = mask
                for i in chosen:
                    m &= ~(1 << i)
                top = max(top, value + best(m))
        return top

    return best((1 << n) - 1)
