"""Readings: a hand's distance to winning by each route, and its outs.

Distance (the rules page's "distance to winning", like shanten) is the fewest
exchanges to a finished 14-tile hand, counting only tiles still available.
Seven pairs is a second route beside runs and sets; the distance is the
lower of the two. The outs are the available tiles whose draw lowers it.

>>> distance("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4", "b2")
0
>>> r = reading("r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 y1", "k1")
>>> r.distance, r.outs, [t.name for t in r.out_tiles]
(1, 15, ['r4', 'y6', 'y10', 'b3', 'b7', 'k1', 'k2', 'k9'])
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from okey_vision.coach.pool import Pool, pairs_distance
from okey_vision.coach.templates import UNREACHABLE, TemplateSearch
from okey_vision.errors import HandSizeError
from okey_vision.memo import Memo, owned
from okey_vision.tiles import HAND_SIZE, MAX_HAND, NUM_FACES, TILES, Hand, Tile, TileLike, format_hand


@dataclass(frozen=True)
class Reading:
    """The distance of a 14-tile hand by each route, and its outs.

    ``melds_distance`` is exact from :func:`reading`; inside the advice it is
    searched only as far as the seven-pairs distance (beyond it neither the
    distance nor the outs depend on it) and is ``UNREACHABLE`` past that."""

    distance: int
    melds_distance: int
    pairs_distance: int
    outs: int
    out_tiles: tuple[Tile, ...]

    @property
    def route(self) -> str:
        """'melds', 'pairs' or 'both': the routes at the shortest distance."""
        if self.melds_distance == self.pairs_distance:
            return "both"
        return "melds" if self.melds_distance < self.pairs_distance else "pairs"


def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


def melds_distance(pool: Pool, search: TemplateSearch, start: int = 0, most: int = UNREACHABLE) -> int:
    """The melds route's distance, searched from ``start`` to ``most`` gaps;
    ``UNREACHABLE`` when no template has that few."""
    g = search.fewest_gaps(pool.x, pool.y, pool.w, pool.total, start, most)
    return max(0, g - pool.wh) if g != UNREACHABLE else UNREACHABLE


def read(pool: Pool, search: TemplateSearch, with_outs: bool = True, start: int = 0,
         melds: tuple[int, int] | None = None, exact: bool = False) -> Reading:
    """Distance (and outs) of the pool's hand, which must hold 14 tiles.

    ``start``: fewest gaps known possible; ``melds``: the fewest gaps and
    their gap faces, when already known; ``exact``: search the melds route
    to the end even when seven pairs is shorter."""
    counts = pool.pair_counts()
    dp = pairs_distance(counts, pool.wh, pool.wa)
    if melds is not None:
        dm = max(0, melds[0] - pool.wh)
    else:
        # Past the pairs distance the melds route changes neither the
        # distance nor the outs; the deepest (costliest) depths are skipped.
        most = UNREACHABLE if exact or dp >= UNREACHABLE else dp + pool.wh
        dm = melds_distance(pool, search, start, most)
    d = min(dm, dp)
    if not with_outs or d == 0 or d >= UNREACHABLE:
        return Reading(d, dm, dp, 0, ())
    outs: set[int] = set()  # tile indices 0..52
    if dm == d:
        gaps = melds[1] if melds is not None else \
            search.gap_faces(pool.x, pool.y, pool.w, HAND_SIZE, dm + pool.wh, pool.total)
        for bit in _bits(gaps):
            j = bit >> 1  # gap faces come as the low bits of 2-bit fields
            if pool.avail[j]:
                outs.add(NUM_FACES if j == pool.okey.index else j)
        if pool.wa:
            outs.add(pool.okey.index)
    if dp == d:
        na, nb0, nb1, nc1, nc2 = counts
        if pool.wa and pairs_distance(counts, pool.wh + 1, pool.wa - 1) < d:
            outs.add(pool.okey.index)
        for j in range(NUM_FACES):
            a = pool.avail[j]
            if not a:
                continue
            h = pool.hand[j]
            # Drawing face j moves it one step: not held -> single -> pair.
            if h == 1:
                new = (na + 1, nb0, nb1 - 1, nc1, nc2)
            elif h == 0:
                new = (na, nb0 + (a == 1), nb1 + (a == 2), nc1 - (a == 1), nc2 - (a == 2))
            else:
                continue
            if pairs_distance(new, pool.wh, pool.wa) < d:
                outs.add(NUM_FACES if j == pool.okey.index else j)
    tiles = tuple(TILES[j] for j in sorted(outs))
    return Reading(d, dm, dp, sum(pool.available(t) for t in tiles), tiles)


#: What the coach's public calls take: a built :class:`Hand`, or tiles (names) made into one.
HandInput = Hand | str | Iterable[TileLike]


def checked(hand: HandInput, indicator: Tile | str | None = None, seen: str | Iterable[TileLike] = ()
            ) -> tuple[list[Tile], Tile, list[Tile]]:
    """The tiles, indicator and seen tiles of a :class:`Hand` (checked once,
    when it was built: :meth:`Hand.of`), or of tiles made into one."""
    h = Hand.of(hand, indicator, seen)
    return list(h.tiles), h.indicator, list(h.seen)


def without(tiles: Sequence[Tile], tile: Tile) -> list[Tile]:
    """``tiles`` less one copy of ``tile``."""
    rest = list(tiles)
    rest.remove(tile)
    return rest


def distance_after_discard(tiles: Sequence[Tile], ind: Tile, gone: Sequence[Tile], search: TemplateSearch) -> int:
    """Distance of a 15-tile hand after its best discard: the 15's fewest gaps
    give the melds route at once (some optimal template leaves a tile out,
    or holds an okey to spare); seven pairs is checked per discard (cheap)."""
    pairs = min(Pool.of(without(tiles, t), ind, list(gone) + [t]).pairs_distance() for t in set(tiles))
    whole = Pool.of(tiles, ind, gone)
    # Templates with more gaps than seven pairs needs cannot win: not searched.
    most = UNREACHABLE if pairs >= UNREACHABLE else pairs + whole.wh
    g15 = search.fewest_gaps(whole.x, whole.y, whole.w, whole.total, 0, most)
    return min(pairs, max(0, g15 - whole.wh) if g15 < UNREACHABLE else UNREACHABLE)


def distance(hand: HandInput, indicator: Tile | str | None = None, seen: str | Iterable[TileLike] = (),
             memo: Memo | None = None) -> int:
    """Fewest exchanges to a finished hand (14 tiles; for 15, after the best discard).

    >>> distance("r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 fj", "b6")
    0
    >>> distance("r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 r13 y1", "k1")
    2
    """
    tiles, ind, gone = checked(hand, indicator, seen)
    if len(tiles) not in (HAND_SIZE, MAX_HAND):
        raise HandSizeError(f"distance needs {HAND_SIZE} or {MAX_HAND} tiles, got {len(tiles)}: "
                            f"{format_hand(tiles)[:80]!r}")
    search = TemplateSearch(owned(memo))
    if len(tiles) == HAND_SIZE:
        return read(Pool.of(tiles, ind, gone), search, with_outs=False).distance
    return distance_after_discard(tiles, ind, gone, search)


def reading(hand: HandInput, indicator: Tile | str | None = None, seen: str | Iterable[TileLike] = (),
            memo: Memo | None = None) -> Reading:
    """Distance of a 14-tile hand by each route (both exact), with its outs."""
    tiles, ind, gone = checked(hand, indicator, seen)
    if len(tiles) != HAND_SIZE:
        raise HandSizeError(f"a reading needs {HAND_SIZE} tiles, got {len(tiles)}: {format_hand(tiles)[:80]!r}")
    return read(Pool.of(tiles, ind, gone), TemplateSearch(owned(memo)), exact=True)
