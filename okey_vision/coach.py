"""The coach: distance to winning, outs, discard and draw advice.

Distance (the rules page's "distance to winning", like shanten) is the fewest
exchanges to a finished 14-tile hand, counting only tiles still available:
each face has two copies less those in the hand, on the discard piles and
the indicator; the okeys and false jokers likewise. Seven pairs is a second
route beside runs and sets; the distance is the lower of the two.

>>> distance(parse_hand("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4"), parse_tile("b2"))
0
>>> distance(parse_hand("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 y13"), parse_tile("b6"))
1
>>> a = advise("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 y13", "b2")
>>> a.discards[0].tile, a.discards[0].distance, a.discards[0].outs
(Tile('y13'), 0, 0)
>>> a.can_declare, a.declare.discard
(True, Tile('y13'))

How the melds route is computed (exact): a finished hand is a *template*
of 14 slots; each slot holds a hand tile (free) or is a gap filled by an
available tile of its face or by an okey. With ``wh`` okeys in hand, the
distance is ``14 - wh - R`` where ``R`` is the most non-wild hand tiles in a
template whose gaps the available tiles and the okeys not yet seen can fill
(``R`` counts the okeys in hand as gap fillers, since an okey fills any gap).
``R`` is found by a memoised search on the lowest remaining hand tile, as in
the solver, where each meld may also take gaps: a gap of a face uses an
available real tile of it first, else an okey. Melds made only of gaps pad
the template to 14 when no hand tile can. The same search, kept to optimal
branches, yields every gap face of some optimal template: exactly the tiles
whose draw lowers the distance (the outs).
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Iterable, Sequence

from okey_vision.errors import HandSizeError
from okey_vision.scoring import COUNTDOWN, check_scheme
from okey_vision.solver import Finish, declare
from okey_vision.tiles import (
    FALSE_JOKER,
    NUM_FACES,
    TILES,
    Tile,
    check_counts,
    format_hand,
    okey_of,
    parse_hand,
    parse_tile,
)

#: Tiles in a finished hand.
FINISHED = 14
#: A distance that cannot be reached (no finished hand is left in the pool).
UNREACHABLE = 99
#: Seven pairs: two okeys may pair (the rules' default).
OKEY_PAIR = True

_SH = [2 * i for i in range(NUM_FACES)]
_M1 = int("01" * NUM_FACES, 2)  # the low bit of every 2-bit face count
_MEMO_LIMIT = 1_500_000
_best: dict[tuple[int, int, int, int], int] = {}
_mask: dict[tuple[int, int, int, int], int] = {}
_left: dict[tuple[int, int, int, int], tuple[int, dict[int, int]]] = {}
_free_ok: dict[tuple[int, int, int], bool] = {}
_free_mask: dict[tuple[int, int, int], int] = {}


def _clear_if_big() -> None:
    # Memos are keyed on exact states, so they stay valid across hands and
    # games; cleared when large so long simulations keep bounded memory.
    for memo in (_best, _mask, _left, _free_ok, _free_mask):
        if len(memo) > _MEMO_LIMIT:
            memo.clear()


# Per face: the 2-bit fields of the four faces of its number (sets), and of
# its colour from each lower start to the 1 after 13 (runs).
_SET_FIELDS = [sum(3 << _SH[d * 13 + j % 13] for d in range(4)) for j in range(NUM_FACES)]
_RUN_FIELDS = [
    [sum(3 << _SH[(j // 13) * 13 + p - 1] for p in range(max(1, j % 13 + 1 - g), 14)) | (3 << _SH[(j // 13) * 13])
     for g in range(16)]
    for j in range(NUM_FACES)
]
_reach: dict[tuple[int, int], int] = {}


def _reach_of(x: int, g: int) -> int:
    """The faces (2-bit fields) that melds anchored on the tiles of ``x`` with
    at most ``g`` gaps can touch: only these of the available tiles matter to
    the rest of the search, so the memo keys keep only them."""
    key = (x, g)
    value = _reach.get(key)
    if value is None:
        value = 0
        rest = x
        while rest:
            j = _low(rest)
            rest &= ~(3 << _SH[j])
            value |= _SET_FIELDS[j] | _RUN_FIELDS[j][g]
        _reach[key] = value
    return value


def _low(x: int) -> int:
    return ((x & -x).bit_length() - 1) >> 1


# ------------------------------------------------------------ templates ---

def _shape_table(i: int) -> list[tuple[int, list[tuple[int, int]]]]:
    """Every meld holding face ``i`` as its lowest hand face, as families
    ``(slots below face i, [(faces as low bits of 2-bit fields, size), ...])``
    where each family's melds grow by one face at a time (so gaps only grow
    along it). Sets: face ``i`` and two or three other colours of its number
    (one family each). Runs of its colour through it, from ``lo`` (at most 12
    below) up to 13, or to 14 (the 1 after 13; never 13-1-2); a 1 also tops
    runs ending ...12-13-1, grown downwards."""
    c, n0 = divmod(i, 13)
    n, base = n0 + 1, c * 13
    families: list[tuple[int, list[tuple[int, int]]]] = []
    others = [d * 13 + n0 for d in range(4) if d != c]
    for combo in ((0, 1), (0, 2), (1, 2), (0, 1, 2)):
        families.append((0, [(sum(1 << _SH[j] for j in [i] + [others[m] for m in combo]), len(combo) + 1)]))
    for lo in range(n, 0, -1):
        top = min(lo + 12, 14 if lo >= 2 else 13)
        run = [(sum(1 << _SH[base + (p - 1) % 13] for p in range(lo, hi + 1)), hi - lo + 1)
               for hi in range(max(n, lo + 2), top + 1)]
        # Growing upwards from the shortest: its first meld already holds the
        # slots below face i, so a family only grows.
        families.append((n - lo, run))
    if n == 1:
        families.append((0, [((1 << _SH[base]) | sum(1 << _SH[base + p - 1] for p in range(lo, 14)), 15 - lo)
                             for lo in range(12, 1, -1)]))
    return families


_SHAPES = [_shape_table(i) for i in range(NUM_FACES)]


def _options(x: int, y: int, w: int, cap: int) -> list[tuple[int, int, int, int, int, int]]:
    """Every meld holding the lowest hand tile of ``x`` with at most ``cap``
    gaps, its other slots taken from the hand where it has the face, else
    gaps (an available tile of the face, else an okey): (x after, y after,
    okeys after, size, hand tiles used, gap faces as 2-bit-field low bits).

    Taking the hand's own tile where it has the face loses nothing: a
    template using a gap there and the hand tile elsewhere swaps them with
    the same faces. Faces below the lowest hand tile are gaps (none left).
    Bit-parallel: one mask per meld shape, a few integer operations each."""
    hx = (x | x >> 1) & _M1   # faces the hand holds
    hy = (y | y >> 1) & _M1   # faces still available
    out: list[tuple[int, int, int, int, int, int]] = []
    for lead, family in _SHAPES[_low(x)]:
        if lead > cap:
            break  # families come by growing lead
        for mask, size in family:
            used = hx & mask
            k = used.bit_count()
            if size - k > cap:
                break  # the family's later melds only add gaps
            gaps = mask ^ used
            real = gaps & hy
            wild = size - k - real.bit_count()
            if wild > w:
                break
            out.append((x - used, y - real, w - wild, size, k, gaps))
    return out


def _free_options(y: int, w: int) -> list[tuple[int, int, int, int]]:
    """Melds of available tiles and okeys only, holding the lowest available
    face: (y after, okeys after, size, faces mask)."""
    hy = (y | y >> 1) & _M1
    out: list[tuple[int, int, int, int]] = []
    for lead, family in _SHAPES[_low(y)]:
        if lead > 2:
            break  # below the lowest available face only okeys: at most 2
        for mask, size in family:
            real = mask & hy
            wild = size - real.bit_count()
            if wild > w:
                break
            out.append((y - real, w - wild, size, mask))
    return out


def _free(y: int, w: int, b: int) -> bool:
    """True when exactly ``b`` slots can be melds of available tiles and okeys."""
    if b == 0:
        return True
    if b < 3 or y == 0:
        return False
    key = (y, w, b)
    value = _free_ok.get(key)
    if value is None:
        j = _low(y)
        value = any(size <= b and _free(cy, cw, b - size) for cy, cw, size, _ in _free_options(y, w)) \
            or _free(y & ~(3 << _SH[j]), w, b)
        _free_ok[key] = value
    return value


def _free_faces(y: int, w: int, b: int) -> int:
    """Faces (bit mask) in some filling of ``b`` slots by :func:`_free` melds."""
    if b == 0 or not _free(y, w, b):
        return 0
    key = (y, w, b)
    value = _free_mask.get(key)
    if value is None:
        value = 0
        for cy, cw, size, g in _free_options(y, w):
            if size <= b and _free(cy, cw, b - size):
                value |= g | _free_faces(cy, cw, b - size)
        value |= _free_faces(y & ~(3 << _SH[_low(y)]), w, b)
        _free_mask[key] = value
    return value


def _key(x: int, y: int, w: int, b: int, g: int) -> tuple[int, int, int, int]:
    """The memo key of a search state. Only the available tiles that melds
    anchored on ``x`` can touch matter, unless a meld of gaps alone may still
    come (it needs 3 gaps and 3 slots): it may take any available tile."""
    return (x, y & _reach_of(x, g) if g < 3 or b < 3 else y, w, b * 16 + g)


def _fits(x: int, y: int, w: int, b: int, g: int, total: int) -> bool:
    """True when some template of exactly ``b`` slots holds hand tiles of
    ``x`` (``total`` of them) and at most ``g`` gaps (from ``y``, then ``w``)."""
    if b - g > total:
        return False  # too few hand tiles left to fill the non-gap slots
    if x == 0:
        return b <= g and _free(y, w, b)
    key = _key(x, y, w, b, g)
    value = _best.get(key)
    if value is not None:
        return value
    # The lowest tile lies in some meld, or is left out of the template.
    value = False
    for x2, y2, w2, size, k, _ in _options(x, y, w, g):
        if size <= b and _fits(x2, y2, w2, b - size, g - size + k, total - k):
            value = True
            break
    else:
        value = _fits(x - (1 << _SH[_low(x)]), y, w, b, g, total - 1)
    _best[key] = value
    return value


def _gap_faces(x: int, y: int, w: int, b: int, g: int, total: int) -> int:
    """Every gap face (bit mask) of some template that :func:`_fits` finds."""
    if not _fits(x, y, w, b, g, total):
        return 0
    if x == 0:
        return _free_faces(y, w, b)
    key = _key(x, y, w, b, g)
    value = _mask.get(key)
    if value is not None:
        return value
    i = _low(x)
    value = _gap_faces(x - (1 << _SH[i]), y, w, b, g, total - 1)
    for x2, y2, w2, size, k, faces in _options(x, y, w, g):
        if size <= b and _fits(x2, y2, w2, b - size, g - size + k, total - k):
            value |= faces | _gap_faces(x2, y2, w2, b - size, g - size + k, total - k)
    _mask[key] = value
    return value


def _gap_faces_left(x: int, y: int, w: int, b: int, g: int, total: int) -> tuple[int, dict[int, int]]:
    """:func:`_gap_faces`, and per face of ``x``: the gap faces of the
    templates that leave a tile of that face out.

    Run on a 15-tile hand, it serves every discard at once: a template of the
    15 that leaves a tile out is a template of the 14 after discarding it,
    and when it has the 15's fewest gaps it is an optimal one there."""
    if not _fits(x, y, w, b, g, total):
        return 0, {}
    if x == 0:
        return _free_faces(y, w, b), {}
    key = _key(x, y, w, b, g)
    found = _left.get(key)
    if found is not None:
        return found
    i = _low(x)
    every, below = _gap_faces_left(x - (1 << _SH[i]), y, w, b, g, total - 1)
    left = dict(below)
    if _fits(x - (1 << _SH[i]), y, w, b, g, total - 1):
        left[i] = left.get(i, 0) | every  # this tile is the one left out
    for x2, y2, w2, size, k, faces in _options(x, y, w, g):
        if size <= b and _fits(x2, y2, w2, b - size, g - size + k, total - k):
            sub, sub_left = _gap_faces_left(x2, y2, w2, b - size, g - size + k, total - k)
            every |= faces | sub
            for f, m in sub_left.items():
                left[f] = left.get(f, 0) | faces | m
    _left[key] = (every, left)
    return every, left


def _fewest_gaps(x: int, y: int, w: int, total: int, start: int = 0) -> int:
    """Fewest gaps in a 14-slot template for hand tiles ``x``: iterative
    deepening on the gap budget, each depth a search that stops at the first
    template. ``UNREACHABLE`` if there is none."""
    for g in range(max(0, start), FINISHED + 1):
        if _fits(x, y, w, FINISHED, g, total):
            return g
    return UNREACHABLE


# ------------------------------------------------------------ the pool ---

@dataclass(frozen=True)
class _Pool:
    """A hand against the tiles still available: the search's view."""

    okey: Tile
    x: int          # the hand's non-wild tiles, false jokers as the okey face
    total: int      # how many tiles x holds
    wh: int         # okeys in the hand
    y: int          # available non-wild tiles (false jokers at the okey face)
    w: int          # okeys not seen: in the hand or available
    hand: tuple[int, ...]   # per face: copies in hand (false jokers at the okey face)
    avail: tuple[int, ...]  # per face: copies available

    @property
    def wa(self) -> int:
        """Okeys still available to draw."""
        return self.w - self.wh

    def pairs_distance(self) -> int:
        """Distance by the seven-pairs route alone."""
        return _pairs_distance(_pair_counts(self.hand, self.avail), self.wh, self.wa)


def _pool(tiles: Sequence[Tile], indicator: Tile, seen: Sequence[Tile]) -> _Pool:
    okey = okey_of(indicator)
    held = Counter(tiles)
    gone = Counter(seen)
    gone[indicator] += 1
    hand = [0] * NUM_FACES
    avail = [0] * NUM_FACES
    for f in range(NUM_FACES):
        # The okey face's non-wild copies are the false jokers; the physical
        # okeys are wild and counted apart.
        t = FALSE_JOKER if f == okey.index else TILES[f]
        hand[f] = held[t]
        avail[f] = 2 - held[t] - gone[t]
    x = sum(h << _SH[f] for f, h in enumerate(hand))
    y = sum(a << _SH[f] for f, a in enumerate(avail))
    return _Pool(okey, x, sum(hand), held[okey], y, 2 - gone[okey], tuple(hand), tuple(avail))


def _pairs_kept(na: int, nb0: int, nb1: int, nc1: int, nc2: int, wh: int, wa: int) -> int:
    """Most hand tiles in seven pairs built from the pool, or -1 if no seven
    pairs can be built. Counts: faces held twice (na), held once with no
    (nb0) or some (nb1) available twin, not held with one (nc1) or two (nc2)
    available copies; okeys held (wh) and available (wa).

    Greedy by hand tiles per pair: pairs worth 2 (held pairs, a single with
    a held okey, two held okeys), then 1, then 0; within a value the choice
    that spares the scarcer partner (a held okey goes to a single that has no
    twin left; a spare okey partners a face with one copy before one with two)."""
    slots = 7
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


def _pair_counts(hand: Sequence[int], avail: Sequence[int]) -> list[int]:
    na = nb0 = nb1 = nc1 = nc2 = 0
    for h, a in zip(hand, avail):
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
    return [na, nb0, nb1, nc1, nc2]


def _pairs_distance(counts: Sequence[int], wh: int, wa: int) -> int:
    kept = _pairs_kept(*counts, wh, wa)
    return FINISHED - kept if kept >= 0 else UNREACHABLE


def _melds_distance(x: int, total: int, wh: int, y: int, w: int, start: int = 0) -> int:
    g = _fewest_gaps(x, y, w, total, start + wh)
    return max(0, g - wh) if g != UNREACHABLE else UNREACHABLE


# ------------------------------------------------------------ readings ---

def _bits(mask: int) -> list[int]:
    out = []
    while mask:
        low = mask & -mask
        out.append(low.bit_length() - 1)
        mask ^= low
    return out


@dataclass(frozen=True)
class Reading:
    """The distance of a 14-tile hand by each route, and its outs."""

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


def _read(pool: _Pool, with_outs: bool = True, start: int = 0,
          melds: tuple[int, int] | None = None) -> Reading:
    """Distance (and outs) of the pool's hand, which must hold 14 tiles;
    ``melds``: the fewest gaps and their gap faces, when already known."""
    if melds is not None:
        dm = max(0, melds[0] - pool.wh)
    else:
        dm = _melds_distance(pool.x, pool.total, pool.wh, pool.y, pool.w, start)
    counts = _pair_counts(pool.hand, pool.avail)
    dp = _pairs_distance(counts, pool.wh, pool.wa)
    d = min(dm, dp)
    if not with_outs or d == 0 or d >= UNREACHABLE:
        return Reading(d, dm, dp, 0, ())
    outs: set[int] = set()  # tile indices 0..52
    if dm == d:
        gaps = melds[1] if melds is not None else \
            _gap_faces(pool.x, pool.y, pool.w, FINISHED, dm + pool.wh, pool.total)
        for bit in _bits(gaps):
            j = bit >> 1  # gap faces come as the low bits of 2-bit fields
            if pool.avail[j]:
                outs.add(NUM_FACES if j == pool.okey.index else j)
        if pool.wa:
            outs.add(pool.okey.index)
    if dp == d:
        na, nb0, nb1, nc1, nc2 = counts
        if pool.wa and _pairs_distance(counts, pool.wh + 1, pool.wa - 1) < d:
            outs.add(pool.okey.index)
        for j in range(NUM_FACES):
            a = pool.avail[j]
            if not a:
                continue
            h = pool.hand[j]
            # Drawing face j moves it one step: not held -> single -> pair.
            if h == 1:
                new = [na + 1, nb0, nb1 - 1, nc1, nc2]
            elif h == 0:
                new = [na, nb0 + (a == 1), nb1 + (a == 2), nc1 - (a == 1), nc2 - (a == 2)]
            else:
                continue
            if _pairs_distance(new, pool.wh, pool.wa) < d:
                outs.add(NUM_FACES if j == pool.okey.index else j)
    tiles = tuple(TILES[j] for j in sorted(outs))
    count = sum(pool.wa if t == pool.okey else pool.avail[pool.okey.index if t.is_false_joker else t.index]
                for t in tiles)
    return Reading(d, dm, dp, count, tiles)


def _checked(hand: Iterable[Tile | str], indicator: Tile | str, seen: Iterable[Tile | str]
             ) -> tuple[list[Tile], Tile, list[Tile]]:
    tiles = parse_hand(hand)
    ind = parse_tile(indicator)
    gone = parse_hand(seen)
    check_counts(tiles, ind, gone)
    return tiles, ind, gone


def distance(hand: Iterable[Tile | str], indicator: Tile | str, seen: Iterable[Tile | str] = ()) -> int:
    """Fewest exchanges to a finished hand (14 tiles; for 15, after the best discard).

    >>> distance("r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 fj", "b6")
    0
    >>> distance("r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 r13 y1", "k1")
    2
    """
    tiles, ind, gone = _checked(hand, indicator, seen)
    if len(tiles) not in (FINISHED, FINISHED + 1):
        raise HandSizeError(f"distance needs 14 or 15 tiles, got {len(tiles)}: {format_hand(tiles)!r}")
    _clear_if_big()
    if len(tiles) == FINISHED:
        return _read(_pool(tiles, ind, gone), with_outs=False).distance
    return _distance15(tiles, ind, gone)


def reading(hand: Iterable[Tile | str], indicator: Tile | str, seen: Iterable[Tile | str] = ()) -> Reading:
    """Distance of a 14-tile hand by each route, with its outs.

    >>> r = reading("r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 y1", "k1")
    >>> r.distance, r.outs, [t.name for t in r.out_tiles]
    (1, 15, ['r4', 'y6', 'y10', 'b3', 'b7', 'k1', 'k2', 'k9'])
    """
    tiles, ind, gone = _checked(hand, indicator, seen)
    if len(tiles) != FINISHED:
        raise HandSizeError(f"a reading needs 14 tiles, got {len(tiles)}: {format_hand(tiles)!r}")
    _clear_if_big()
    return _read(_pool(tiles, ind, gone))


def _without(tiles: Sequence[Tile], tile: Tile) -> list[Tile]:
    rest = list(tiles)
    rest.remove(tile)
    return rest


def holds_indicator_twin(hand: Iterable[Tile | str], indicator: Tile | str) -> bool:
    """True when the hand holds the indicator's twin (shown at the start for a bonus).

    >>> holds_indicator_twin("r3 k5", "r3"), holds_indicator_twin("r4", "r3")
    (True, False)
    """
    ind = parse_tile(indicator)
    return ind in parse_hand(hand)


# -------------------------------------------------------------- advice ---

@dataclass(frozen=True)
class DiscardOption:
    """One discard of a 15-tile hand: the distance after it, its outs (how
    many available tiles lower that distance, and which), and the tie-break."""

    tile: Tile
    distance: int
    outs: int
    out_tiles: tuple[Tile, ...]
    route: str
    keeps: int  # tie-break: tiles of the rest in melds or pairs, more is better
    potential: int = 0  # tie-break: available tiles that would join a left-over tile

    def to_dict(self) -> dict:
        """A JSON-ready summary."""
        return {"tile": self.tile.name, "distance": self.distance, "outs": self.outs,
                "out_tiles": [t.name for t in self.out_tiles], "route": self.route}


@dataclass(frozen=True)
class Advice:
    """What to do with a hand: declare, which tile to discard, or whether to
    take the offered discard, with the reason in words."""

    hand: tuple[Tile, ...]
    indicator: Tile
    seen: tuple[Tile, ...]
    action: str                       # 'declare', 'discard', 'take' or 'draw'
    reason: str
    distance: int                     # now (14 tiles) or after the best discard (15)
    discards: tuple[DiscardOption, ...] = ()
    can_declare: bool = False
    declare: Finish | None = None
    wait: bool = False                # finished, but waiting for a richer finish pays
    offered: Tile | None = None
    take: bool | None = None
    outs: int = 0
    out_tiles: tuple[Tile, ...] = ()
    indicator_twin: bool = False
    scheme: str = COUNTDOWN

    @property
    def okey(self) -> Tile:
        """The okey face."""
        return okey_of(self.indicator)

    @property
    def best(self) -> DiscardOption | None:
        """The recommended discard (first ranked), if the hand has 15 tiles."""
        return self.discards[0] if self.discards else None

    def to_dict(self) -> dict:
        """A JSON-ready summary; ``discards`` is the ranked list."""
        return {
            "hand": [t.name for t in self.hand],
            "indicator": self.indicator.name,
            "okey": self.okey.name,
            "action": self.action,
            "reason": self.reason,
            "distance": self.distance,
            "can_declare": self.can_declare,
            "declare": self.declare.to_dict() if self.declare else None,
            "declare_points": self.declare.points(self.scheme) if self.declare else 0,
            "wait": self.wait,
            "discards": [d.to_dict() for d in self.discards],
            "offered": self.offered.name if self.offered else None,
            "take": self.take,
            "outs": self.outs,
            "out_tiles": [t.name for t in self.out_tiles],
            "indicator_twin": self.indicator_twin,
            "scheme": self.scheme,
        }


def _keeps(tiles: Sequence[Tile], okey: Tile) -> int:
    # Tie-break: tiles the rest holds in melds now (the solver's exact count),
    # or in pairs; a steadier hand when the distance and outs are equal.
    from okey_vision.solver import best_count, encode
    x, w = encode(tiles, okey)
    return best_count(x, w, len(tiles) - w)


def _neighbours(i: int) -> list[tuple[int, int]]:
    """(face, weight) of the faces that would make face ``i`` part of a
    partial meld: its colour one step away (2) or two (1), where a 1 also
    follows 13 (12-13-1) but 13-1-2 never counts, and its number in the
    other colours (1)."""
    c, n0 = divmod(i, 13)
    out = [(d * 13 + n0, 1) for d in range(4) if d != c]
    for q in (n0 + 1, 14) if n0 == 0 else (n0 + 1,):  # 14: the 1 after 13
        for m, weight in ((q - 1, 2), (q + 1, 2), (q - 2, 1), (q + 2, 1)):
            if 1 <= m <= 14:
                out.append((c * 13 + (m - 1) % 13, weight))
    return out


_NEIGHBOURS = [_neighbours(i) for i in range(NUM_FACES)]


def _potential(rest: Sequence[Tile], indicator: Tile, pool: _Pool) -> int:
    """Cheap connectivity of a hand's left-over tiles: for each tile the exact
    solver leaves out of melds, the available tiles that would pair it into a
    partial run or set (weighted). A stand-in for two-step outs, used when
    distance and outs tie; the strength benchmark measures its worth."""
    from okey_vision.solver import arrange

    score = 0
    for t in arrange(rest, indicator).leftover:
        if t == pool.okey:
            continue
        face = pool.okey.index if t.is_false_joker else t.index
        score += sum(pool.avail[j] * weight for j, weight in _NEIGHBOURS[face])
    return score


def _rank_key(o: DiscardOption, okey: Tile) -> tuple:
    # An okey is wild: never thrown while a tile of equal merit exists.
    return (o.distance, -o.outs, -o.keeps, -o.potential, o.tile == okey, o.tile.index)


def _discard_options(tiles: Sequence[Tile], indicator: Tile, seen: Sequence[Tile], with_outs: bool,
                     only_best: bool = False) -> list[DiscardOption]:
    """The discards of a 15-tile hand, unsorted; ``only_best`` leaves out
    those that cannot be ranked first (their distance is surely higher)."""
    okey = okey_of(indicator)
    options = []
    # A template for the 14 is one for the 15 too: the 15's fewest gaps is
    # where every discard's deepening starts.
    whole = _pool(tiles, indicator, seen)
    g15 = _fewest_gaps(whole.x, whole.y, whole.w, whole.total)
    d15 = max(0, g15 - whole.wh) if g15 < UNREACHABLE else UNREACHABLE
    shared: dict[int, tuple[int, int]] = {}
    if with_outs and whole.wh < g15 < UNREACHABLE:
        # One pass over the 15 finds the outs of every discard that some
        # template with the 15's fewest gaps leaves out: those templates are
        # the optimal ones after that discard. (None of them has a gap at the
        # discarded face: the discarded tile would fill it, one gap fewer.)
        # The other discards need more gaps than g15: they start at g15 + 1.
        for face, mask in _gap_faces_left(whole.x, whole.y, whole.w, FINISHED, g15, whole.total)[1].items():
            shared[face] = (g15, mask)
    for t in sorted(set(tiles)):
        rest = _without(tiles, t)
        pool = _pool(rest, indicator, list(seen) + [t])
        face = None if t == okey else (okey.index if t.is_false_joker else t.index)
        worse = bool(shared) and face is not None and face not in shared
        if only_best and (worse or face is None) and d15 < UNREACHABLE:
            # Its melds route is longer than d15 (an okey thrown leaves one
            # gap more to fill): only seven pairs could still make it first.
            if pool.pairs_distance() > d15:
                continue
        lower = g15 + 1 if worse else g15
        r = _read(pool, with_outs=with_outs, start=max(0, lower - pool.wh), melds=shared.get(face))
        options.append(DiscardOption(t, r.distance, r.outs, r.out_tiles, r.route,
                                     _keeps(rest, okey), _potential(rest, indicator, pool)))
    return options


def rank_discards(tiles: Sequence[Tile], indicator: Tile, seen: Sequence[Tile] = (),
                  with_outs: bool = True) -> list[DiscardOption]:
    """Every distinct discard of a 15-tile hand, best first: lowest distance,
    then most outs, then most tiles kept in melds, keeping okeys last."""
    okey = okey_of(indicator)
    return sorted(_discard_options(tiles, indicator, seen, with_outs), key=lambda o: _rank_key(o, okey))


def best_discard(hand: Iterable[Tile | str], indicator: Tile | str,
                 seen: Iterable[Tile | str] = ()) -> DiscardOption:
    """The discard :func:`rank_discards` ranks first, found faster (a bot's
    move): discards that surely lie farther from winning are skipped.

    >>> best_discard("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 y13", "b2").tile
    Tile('y13')
    """
    tiles, ind, gone = _checked(hand, indicator, seen)
    if len(tiles) != FINISHED + 1:
        raise HandSizeError(f"a discard needs 15 tiles, got {len(tiles)}: {format_hand(tiles)!r}")
    _clear_if_big()
    okey = okey_of(ind)
    return min(_discard_options(tiles, ind, gone, True, only_best=True), key=lambda o: _rank_key(o, okey))


def _distance15(tiles: Sequence[Tile], ind: Tile, gone: Sequence[Tile]) -> int:
    """Distance of a 15-tile hand after its best discard: the 15's fewest gaps
    give the melds route at once (some optimal template leaves a tile out,
    or holds an okey to spare); seven pairs is checked per discard (cheap)."""
    whole = _pool(tiles, ind, gone)
    g15 = _fewest_gaps(whole.x, whole.y, whole.w, whole.total)
    best = max(0, g15 - whole.wh) if g15 < UNREACHABLE else UNREACHABLE
    for t in sorted(set(tiles)):
        pool = _pool(_without(tiles, t), ind, list(gone) + [t])
        best = min(best, pool.pairs_distance())
    return best


#: Chance per turn that some opponent finishes, estimated from the
#: simulator's 4-player rounds; used to judge whether waiting pays.
OPPONENT_FINISH_RATE = 0.08


def _wait_pays(finishes: Sequence[Finish], tiles: Sequence[Tile], indicator: Tile,
               seen: Sequence[Tile], scheme: str) -> tuple[bool, str]:
    """Whether a finished hand should wait one turn for a richer finish
    (throwing an okey to finish doubles the score): waiting pays when the
    chance to draw a tile that frees the okey, times the doubled points,
    beats declaring now less the risk that an opponent finishes first."""
    okey = okey_of(indicator)
    best = max(finishes, key=lambda f: f.points(scheme))
    if best.okey_discard or okey not in tiles:
        return False, ""
    # Keep the finished 14 (throw the best finish's discard) holding the okey;
    # next turn a drawn tile t finishes with an okey discard when the 14 less
    # the okey plus t is finished.
    hold = _without(tiles, best.discard) if best.discard is not None else list(tiles)
    unseen = 106 - len(tiles) - len(seen) - 1
    base = _without(hold, okey)
    wins = 0
    pool = _pool(base, indicator, list(seen) + ([best.discard] if best.discard else []))
    for j in range(NUM_FACES + 1):
        t = TILES[j]
        a = pool.wa if t == okey else pool.avail[okey.index if t.is_false_joker else j]
        if a and declare(base + [t], indicator, scheme).can_declare:
            wins += a
    p = wins / max(1, unseen)
    now = best.points(scheme)
    later = 2 * now
    q = OPPONENT_FINISH_RATE
    if p * later + (1 - p) * (1 - q) * now > now:
        return True, (f"finished, but {wins} of {unseen} unseen tiles let you finish by throwing "
                      f"the okey next turn for {later} points instead of {now}: worth one turn")
    return False, ""


def advise(hand: Iterable[Tile | str] | str, indicator: Tile | str, seen: Iterable[Tile | str] = (),
           offered: Tile | str | None = None, scheme: str = COUNTDOWN, with_outs: bool = True) -> Advice:
    """Advice for a hand: 15 tiles -> declare or which discard (ranked);
    14 tiles with ``offered`` (the previous player's discard) -> take it or
    draw from the stock; 14 without -> draw, with the distance and outs.

    >>> advise("r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 y1", "b9", offered="k9").action
    'take'
    """
    tiles, ind, gone = _checked(hand, indicator, seen)
    check_scheme(scheme)
    twin = ind in tiles
    if offered is not None:
        off = parse_tile(offered)
        check_counts(tiles + [off], ind, gone)
    else:
        off = None
    _clear_if_big()
    if len(tiles) == FINISHED + 1 and off is None:
        return _advise_discard(tiles, ind, gone, scheme, twin, with_outs)
    if len(tiles) == FINISHED:
        return _advise_draw(tiles, ind, gone, off, scheme, twin, with_outs)
    need = "14 tiles and the offered discard, or 15 tiles" if off is None else "14 tiles with an offered discard"
    raise HandSizeError(f"advice needs {need}; got {len(tiles)} tiles: {format_hand(tiles)!r}")


def _advise_discard(tiles: list[Tile], ind: Tile, gone: list[Tile], scheme: str, twin: bool,
                    with_outs: bool) -> Advice:
    decl = declare(tiles, ind, scheme)
    options = rank_discards(tiles, ind, gone, with_outs)
    best = options[0]
    if decl.can_declare:
        finish = decl.best
        assert finish is not None
        wait, why = _wait_pays(decl.finishes, tiles, ind, gone, scheme)
        if wait:
            # Keep the finished 14: throw the finish's own discard.
            keep = [o for o in options if o.tile == finish.discard]
            options = keep + [o for o in options if o.tile != finish.discard]
            return Advice(tuple(tiles), ind, tuple(gone), "discard", why, 0, tuple(options), True,
                          finish, True, indicator_twin=twin, scheme=scheme)
        how = "seven pairs" if finish.kind == "pairs" else "runs and sets"
        extra = " (throwing the okey doubles it)" if finish.okey_discard else ""
        reason = (f"declare: throw {finish.discard.name} and show {how} for "
                  f"{finish.points(scheme)} points{extra}")
        first = [o for o in options if o.tile == finish.discard]
        options = first + [o for o in options if o.tile != finish.discard]
        return Advice(tuple(tiles), ind, tuple(gone), "declare", reason, 0, tuple(options), True,
                      finish, indicator_twin=twin, scheme=scheme)
    ties = [o for o in options if (o.distance, o.outs) == (best.distance, best.outs)]
    reason = (f"throw {best.tile.name}: {best.distance} exchange(s) from a finished hand "
              f"({best.route}) with {best.outs} outs")
    if len(ties) > 1:
        reason += f"; tied with {' '.join(o.tile.name for o in ties[1:])}, it keeps most tiles in melds"
    return Advice(tuple(tiles), ind, tuple(gone), "discard", reason, best.distance, tuple(options),
                  indicator_twin=twin, scheme=scheme)


def _advise_draw(tiles: list[Tile], ind: Tile, gone: list[Tile], off: Tile | None, scheme: str,
                 twin: bool, with_outs: bool) -> Advice:
    now = _read(_pool(tiles, ind, gone + ([off] if off else [])), with_outs=True)
    if off is None:
        reason = f"draw from the stock: {now.distance} exchange(s) away, {now.outs} outs"
        return Advice(tuple(tiles), ind, tuple(gone), "draw", reason, now.distance,
                      outs=now.outs, out_tiles=now.out_tiles, indicator_twin=twin, scheme=scheme)
    taken = tiles + [off]
    if declare(taken, ind, scheme).can_declare:
        take, reason = True, f"take {off.name}: it finishes the hand"
    elif off in now.out_tiles:
        take, reason = True, (f"take {off.name}: it brings the hand to {now.distance - 1} exchange(s) "
                              f"from finished (the stock does so only {now.outs} times in the unseen tiles)")
    else:
        take, reason = False, (f"draw from the stock: {off.name} does not shorten the hand "
                               f"({now.distance} exchange(s), {now.outs} outs), and the stock hides your plan")
    return Advice(tuple(tiles), ind, tuple(gone), "take" if take else "draw", reason, now.distance,
                  offered=off, take=take, outs=now.outs, out_tiles=now.out_tiles,
                  indicator_twin=twin, scheme=scheme)
