"""The exact solver: arrange a hand into melds, and say how it can be declared.

The search works on a compact state: the non-wild tiles as an integer with
two bits per face (false jokers counted as the okey face they play as) and
the number of okeys. It always takes the lowest remaining face and branches
on what becomes of it: left over, the lowest real tile of a set, or of a run
(only okeys can lie below it, since every lower face of its colour is gone;
a 1 may also close a 12-13-1 run). Results are memoised on the state in a
:class:`~okey_vision.memo.Memo` the caller owns (one per game or app
session), so a hand's sub-hands are solved once across calls.

>>> a = arrange(parse_hand("r1 r2 r3 k7 y7 b7 b9 b11 k12 y2"), parse_tile("k11"))
>>> [m.describe() for m in a.melds], [t.name for t in a.leftover], a.tiles_in_melds
(['r1 r2 r3', 'y7 b7 k7', 'b9 k12(=b10) b11'], ['y2'], 9)
>>> declare(parse_hand("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 r9"), parse_tile("b2")).best.discard
Tile('r9')
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from operator import attrgetter
from typing import Any

from okey_vision.errors import HandSizeError
from okey_vision.melds import PAIR, Meld, run_with_okey, set_with_okey
from okey_vision.memo import Memo, owned
from okey_vision.scoring import COUNTDOWN, FinishKind, Scheme, check_scheme, finish_points
from okey_vision.tiles import (
    FALSE_JOKER,
    HAND_SIZE,
    MAX_HAND,
    NUM_FACES,
    TILES,
    Hand,
    Tile,
    TileLike,
    okey_of,
    parse_hand,  # noqa: F401 - the doctests use it
    parse_tile,  # noqa: F401 - the doctests use it
)

_SHIFT = [2 * i for i in range(NUM_FACES)]
_BY_INDEX = attrgetter("index")  # sort key for tiles, faster than Tile.__lt__
_ONE = [1 << (2 * i) for i in range(NUM_FACES)]  # one tile of face i
_FIELD = [3 << (2 * i) for i in range(NUM_FACES)]  # the count bits of face i


# ---------------------------------------------------------------- state ---

def encode(tiles: Iterable[Tile], okey: Tile) -> tuple[int, int]:
    """The search state of some tiles: (faces as 2 bits each, number of okeys)."""
    x = w = 0
    for t in tiles:
        if t == okey:
            w += 1
        else:
            x += 1 << _SHIFT[okey.index if t.is_false_joker else t.index]
    return x, w


def _sets_of(i: int, free: int, w: int) -> tuple[tuple[int, int, int], ...]:
    """The sets holding face ``i`` as their lowest real tile, with the higher
    colours of its number in ``free`` (a bit each, lowest colour first) and
    ``w`` okeys: (tiles taken, okeys taken, size). Partners come only from
    higher colours (lower ones are gone), and okeys only once every free
    colour of the number is in (an okey where a real tile is free can swap
    with it)."""
    others = [_ONE[j] for b, j in enumerate(range(i + 13, NUM_FACES, 13)) if free >> b & 1]
    m = len(others)
    full = (1 << m) - 1
    out = []
    for mask in range(1 << m):
        taken = _ONE[i]
        size = 1
        for j in range(m):
            if mask >> j & 1:
                taken += others[j]
                size += 1
        top = min(w, 4 - size) if mask == full else 0
        out += [(taken, k, size + k) for k in range(3 - size if size < 3 else 0, top + 1)]
    return tuple(out)


#: Each face's higher colours of its number, as count fields (0 where there is none): a set's partners.
_HIGHER = [(*(_FIELD[j] for j in range(i + 13, NUM_FACES, 13)), 0, 0, 0)[:3] for i in range(NUM_FACES)]
#: Every face's sets by the higher colours free (8 ways) and the okeys held (3 or more use as many as 3).
_SETS = [[[_sets_of(i, free, w) for w in range(4)] for free in range(8)] for i in range(NUM_FACES)]


def set_melds(x: int, w: int, i: int) -> tuple[tuple[int, int, int], ...]:
    """Every set holding face ``i``, the lowest of ``x``, as its lowest real
    tile: (tiles taken, okeys taken, size), read off a table made once. The
    one enumeration of sets of both searches: the classic solver's (tiles
    placed) and 101's opening (points laid).

    >>> x, w = encode(parse_hand("r7 y7 b7 k2"), parse_tile("k2"))  # k2 the okey
    >>> [(size, k) for _, k, size in set_melds(x, w, parse_tile("r7").index)]
    [(3, 0), (4, 1)]
    """
    a, b, c = _HIGHER[i]
    return _SETS[i][(1 if x & a else 0) | (2 if x & b else 0) | (4 if x & c else 0)][w if w < 3 else 3]


def _moves(x: int, w: int) -> set[tuple[int, int, int]]:
    """Every meld holding the lowest face of ``x``: (state after, okeys after, size).

    Two exchange arguments prune without losing the optimum: a meld never uses
    an okey where a real tile of the needed face is still free (swapping them
    keeps both melds valid), so runs take real tiles first and sets take okeys
    only after every free colour of their number.
    """
    i = ((x & -x).bit_length() - 1) >> 1
    c, n0 = divmod(i, 13)
    one = _ONE
    field = _FIELD
    # A set, since okeys above or below a run (or in a set) often reach the same state.
    out = {(x - taken, w - k, size) for taken, k, size in set_melds(x, w, i)}
    add = out.add
    rest = x - one[i]
    # Runs with this tile at its own number, okeys only below it.
    base = c * 13 - 1  # face index of number p is base + p
    for below in range(min(w, n0) + 1):
        cx, cw, length = rest, w - below, 1 + below
        if length >= 3:
            add((cx, cw, length))
        for p in range(n0 + 2, 15):
            if length == 13:
                break
            if p <= 13 and cx & field[base + p]:
                cx -= one[base + p]
            elif cw:
                cw -= 1
            else:
                break
            length += 1
            if length >= 3:
                add((cx, cw, length))
    # A 1 played after 13: runs ending 12-13-1, built downwards.
    if n0 == 0:
        cx, cw, length = rest, w, 1
        for p in range(13, 1, -1):
            if cx & field[base + p]:
                cx -= one[base + p]
            elif cw:
                cw -= 1
            else:
                break
            length += 1
            if length >= 3:
                add((cx, cw, length))
    return out


def _windows(i: int) -> list[tuple[int, int]]:
    """The two other faces of every 3-run holding face ``i`` (12-13-1 included)."""
    c, n0 = divmod(i, 13)
    spots = [n0 + 1] + ([14] if n0 == 0 else [])
    out = []
    for p in spots:
        for start in range(p - 2, p + 1):
            if start >= 1 and start + 2 <= 14:
                others = [q for q in range(start, start + 3) if q != p]
                out.append(tuple(c * 13 + (q - 1) % 13 for q in others))
    return out  # type: ignore[return-value]


# Per face: the fields of its set partners, and of each 3-run's other two faces.
_SET_FIELDS = [[_FIELD[c * 13 + i % 13] for c in range(4) if c != i // 13] for i in range(NUM_FACES)]
_RUN_FIELDS = [[(_FIELD[a], _FIELD[b]) for a, b in _windows(i)] for i in range(NUM_FACES)]
# Per face: every field that can share a meld with it when one okey helps.
_NEAR = [0] * NUM_FACES
for _i in range(NUM_FACES):
    for _f in _SET_FIELDS[_i] + [f for pair in _RUN_FIELDS[_i] for f in pair]:
        _NEAR[_i] |= _f  # OR, not sum: the windows share faces


def _alive(x: int, w: int, i: int) -> bool:
    """Whether face ``i`` has enough partners in state ``x`` for some meld
    with ``w`` okeys (a necessary condition: 3 - 1 - w partners in one
    3-run window, or among the other colours of its number)."""
    if w >= 2:
        return True
    if w == 1:
        return bool(x & _NEAR[i])
    a, b, c = _SET_FIELDS[i]
    if (x & a > 0) + (x & b > 0) + (x & c > 0) >= 2:
        return True
    for a, b in _RUN_FIELDS[i]:  # noqa: SIM110 - a loop: any() over a generator is slower on this hot path
        if x & a and x & b:
            return True
    return False


def _dead_tiles(x: int, w: int) -> int:
    """The faces of ``x`` (as a state) that no meld can hold: too few partners
    in reach even with the okeys. They are left over in every arrangement, so
    the search can drop them first."""
    if w >= 2:
        return 0
    dead = 0
    rest = x
    while rest:
        i = ((rest & -rest).bit_length() - 1) >> 1
        rest &= ~_FIELD[i]
        if not _alive(x, w, i):
            dead |= x & _FIELD[i]
    return dead


def _tiles_in(x: int) -> int:
    """Number of tiles in a state."""
    return sum((x >> _SHIFT[i]) & 3 for i in range(NUM_FACES)) if x else 0


def _search(x: int, w: int, total: int, memo: Memo) -> int:
    """Memoised core of :func:`best_count`; records the best move of each state."""
    if x == 0:
        return 0
    key = x * 3 + w
    hit = memo.best.get(key)
    if hit is not None:
        return hit
    i = ((x & -x).bit_length() - 1) >> 1
    rest = x - _ONE[i]
    if w < 2 and not _alive(x, w, i):  # the lowest face fits nowhere: it is left over
        best = _search(rest, w, total - 1, memo)
        choice = (rest, w, 0)
    else:
        bound = total + w
        best = -1
        choice = None
        for move in _moves(x, w):
            x2, w2, size = move
            value = size + _search(x2, w2, total - size + (w - w2), memo)
            if value > best:
                best, choice = value, move
                if best == bound:
                    break
        if best < total - 1 + w:  # leaving the lowest face over might still do better
            value = _search(rest, w, total - 1, memo)
            if value > best:
                best, choice = value, (rest, w, 0)
    memo.best[key] = best
    memo.move[key] = choice  # type: ignore[assignment]
    return best


def best_count(x: int, w: int, total: int | None = None, memo: Memo | None = None) -> int:
    """Most tiles (okeys included) of state ``(x, w)`` placeable in runs and
    sets; ``total`` (the number of non-wild tiles in ``x``) saves a count.

    >>> best_count(*encode(parse_hand("r1 r2 r3 k9 y4"), parse_tile("b1")))
    3
    """
    memo = owned(memo)
    dead = _dead_tiles(x, w)
    if total is None:
        total = _tiles_in(x)
    return _search(x - dead, w, total - _tiles_in(dead), memo)


def tiles_in_melds(tiles: Sequence[Tile], okey: Tile, memo: Memo | None = None) -> int:
    """Most of ``tiles`` (okeys included) placeable in runs and sets.

    >>> tiles_in_melds(parse_hand("r1 r2 r3 k9 b2"), parse_tile("b2"))
    4
    """
    x, w = encode(tiles, okey)
    return best_count(x, w, len(tiles) - w, memo)


def _complete(x: int, w: int, memo: dict[int, bool]) -> bool:
    if x == 0:
        return w == 0
    key = x * 3 + w
    value = memo.get(key)
    if value is None:
        value = any(_complete(x2, w2, memo) for x2, w2, _ in _moves(x, w))
        memo[key] = value
    return value


def is_complete(x: int, w: int, memo: Memo | None = None) -> bool:
    """True when every tile of state ``(x, w)`` fits in runs and sets.

    >>> is_complete(*encode(parse_hand("r1 r2 r3 b2"), parse_tile("b1")))
    False
    """
    return _complete(x, w, owned(memo).complete)


def _faces_of(x: int, okey: Tile) -> list[Tile]:
    """The physical tiles of a state's faces (the okey face is a false joker)."""
    tiles: list[Tile] = []
    while x:
        i = ((x & -x).bit_length() - 1) >> 1
        tile = FALSE_JOKER if i == okey.index else TILES[i]
        for _ in range((x >> _SHIFT[i]) & 3):
            tiles.append(tile)
        x &= ~_FIELD[i]
    return tiles


def _decode_meld(taken: int, okeys: int, okey: Tile) -> Meld:
    tiles = _faces_of(taken, okey) + [okey] * okeys
    meld = run_with_okey(tiles, okey) or set_with_okey(tiles, okey)
    assert meld is not None, "the search only makes valid melds"
    return meld


def _best_path(x: int, w: int, total: int, okey: Tile, memo: Memo) -> tuple[list[Meld], list[Tile]]:
    """Melds and leftover tiles of one optimal arrangement of state ``(x, w)``."""
    melds: list[Meld] = []
    dead = _dead_tiles(x, w)
    leftover = _faces_of(dead, okey)
    x -= dead
    _search(x, w, total - len(leftover), memo)
    while x:
        x2, w2, size = memo.move[x * 3 + w]
        if size:
            melds.append(_decode_meld(x - x2, w - w2, okey))
        else:
            leftover += _faces_of(x - x2, okey)
        x, w = x2, w2
    return melds, sorted(leftover, key=_BY_INDEX) + [okey] * w


def _complete_path(x: int, w: int, okey: Tile, memo: Memo) -> list[Meld]:
    """The melds of one complete arrangement of state ``(x, w)`` (must exist)."""
    melds: list[Meld] = []
    while x:
        for x2, w2, _ in _moves(x, w):
            if _complete(x2, w2, memo.complete):
                melds.append(_decode_meld(x - x2, w - w2, okey))
                x, w = x2, w2
                break
        else:  # pragma: no cover - callers check is_complete first
            raise AssertionError("state is not complete")
    return melds


# ---------------------------------------------------------- seven pairs ---

def best_pairs(tiles: Sequence[Tile], indicator: Tile, okey_pair: bool = True) -> tuple[list[Meld], list[Tile]]:
    """The most seven-pairs pairs (at most 7) and the tiles left over.

    Identical faces pair first; okeys then partner single tiles, and two
    spare okeys pair each other when ``okey_pair`` (the rules' default).
    """
    okey = okey_of(indicator)
    by_face: dict[Tile, list[Tile]] = {}
    okeys: list[Tile] = []
    for t in sorted(tiles, key=_BY_INDEX):
        if t == okey:
            okeys.append(t)
        else:
            by_face.setdefault(okey if t.is_false_joker else t, []).append(t)
    pairs: list[Meld] = []
    singles: list[Tile] = []
    for face, group in by_face.items():
        if len(group) == 2 and len(pairs) < 7:
            pairs.append(Meld(PAIR, (group[0], group[1]), (face, face), okey))
        else:
            singles += group
    while okeys and singles and len(pairs) < 7:
        single = singles.pop(0)
        face = okey if single.is_false_joker else single
        pairs.append(Meld(PAIR, (single, okeys.pop()), (face, face), okey))
    if okey_pair and len(okeys) == 2 and len(pairs) < 7:
        pairs.append(Meld(PAIR, (okeys[0], okeys[1]), (okey, okey), okey))
        okeys = []
    return pairs, sorted(singles + okeys, key=_BY_INDEX)


# ------------------------------------------------------------ results ---

@dataclass(frozen=True)
class Arrangement:
    """The best runs-and-sets arrangement of a hand, and beside it the best
    seven-pairs arrangement."""

    hand: tuple[Tile, ...]
    indicator: Tile
    melds: tuple[Meld, ...]
    leftover: tuple[Tile, ...]
    pairs: tuple[Meld, ...]
    pairs_leftover: tuple[Tile, ...]

    @property
    def okey(self) -> Tile:
        """The okey face."""
        return okey_of(self.indicator)

    @property
    def tiles_in_melds(self) -> int:
        """Tiles (okeys included) placed in runs and sets."""
        return sum(len(m) for m in self.melds)

    @property
    def tiles_in_pairs(self) -> int:
        """Tiles placed in seven-pairs pairs."""
        return 2 * len(self.pairs)

    @property
    def shows_pairs(self) -> bool:
        """True when the hand is drawn as seven pairs: that route places
        more tiles, in five pairs at least (else runs and sets)."""
        return self.tiles_in_pairs > self.tiles_in_melds and len(self.pairs) >= 5

    @property
    def shown(self) -> tuple[tuple[Meld, ...], tuple[Tile, ...]]:
        """What a player sees drawn: the groups (seven pairs when
        :attr:`shows_pairs`, else runs and sets) and the loose tiles apart.
        The app draws these, and the coach's choice among equal discards
        calls a tile loose by them."""
        if self.shows_pairs:
            return self.pairs, self.pairs_leftover
        return self.melds, self.leftover

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (tile names in short notation)."""
        return {
            "melds": [m.names for m in self.melds],
            "leftover": [t.name for t in self.leftover],
            "tiles_in_melds": self.tiles_in_melds,
            "okeys_stand_for": [[f"{m.tiles[i].name}={f.name}" for i, f in m.wilds] for m in self.melds],
            "pairs": [m.names for m in self.pairs],
            "pairs_leftover": [t.name for t in self.pairs_leftover],
        }


@dataclass(frozen=True)
class Finish:
    """One way to declare: the discard (None for a 14-tile hand), the kind of
    finish, whether the discard is an okey, and the 14 tiles' melds or pairs."""

    discard: Tile | None
    kind: FinishKind
    okey_discard: bool
    melds: tuple[Meld, ...]

    def points(self, scheme: Scheme | str = COUNTDOWN) -> int:
        """Points the finish is worth under a scoring scheme."""
        return finish_points(self.kind, self.okey_discard, scheme)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary."""
        return {
            "discard": self.discard.name if self.discard else None,
            "kind": self.kind.value,
            "okey_discard": self.okey_discard,
            "melds": [m.names for m in self.melds],
        }


@dataclass(frozen=True)
class Declaration:
    """Whether and how a hand can be declared."""

    hand: tuple[Tile, ...]
    indicator: Tile
    finishes: tuple[Finish, ...]
    scheme: Scheme = COUNTDOWN
    note: str = ""

    @property
    def can_declare(self) -> bool:
        """True when some finish exists."""
        return bool(self.finishes)

    @property
    def best(self) -> Finish | None:
        """The highest-scoring finish (ties: melds before pairs, lowest discard)."""
        if not self.finishes:
            return None
        return max(self.finishes, key=lambda f: f.points(self.scheme))


def _tiles(hand: Hand | str | Sequence[TileLike], indicator: Tile | str | None) -> tuple[list[Tile], Tile]:
    """The tiles and indicator of a :class:`Hand` (as built: checked once,
    there), or of tile names made into one; at least one tile."""
    h = Hand.of(hand, indicator)
    if not h.tiles:
        raise HandSizeError(f"expected 1 to {MAX_HAND} tiles, got none", "hand_empty")
    return list(h.tiles), h.indicator


def arrange(hand: Hand | str | Sequence[TileLike], indicator: Tile | str | None = None, okey_pair: bool = True,
            memo: Memo | None = None) -> Arrangement:
    """The arrangement placing the most tiles in runs and sets (exact), with
    the leftovers, and the best seven-pairs arrangement beside it. ``hand``:
    a :class:`Hand` (its own indicator), or tiles with ``indicator``."""
    tiles, ind = _tiles(hand, indicator)
    okey = okey_of(ind)
    x, w = encode(tiles, okey)
    melds, leftover = _best_path(x, w, len(tiles) - w, okey, owned(memo))
    pairs, pairs_left = best_pairs(tiles, ind, okey_pair)
    return Arrangement(tuple(tiles), ind, tuple(melds), tuple(leftover), tuple(pairs), tuple(pairs_left))


def _finishes_of(tiles: list[Tile], ind: Tile, discard: Tile | None, okey_pair: bool,
                 memo: Memo) -> list[Finish]:
    okey = okey_of(ind)
    x, w = encode(tiles, okey)
    found = []
    okey_discard = discard is not None and discard == okey
    if _complete(x, w, memo.complete):
        found.append(Finish(discard, FinishKind.MELDS, okey_discard, tuple(_complete_path(x, w, okey, memo))))
    pairs, rest = best_pairs(tiles, ind, okey_pair)
    if not rest and len(pairs) == 7:
        found.append(Finish(discard, FinishKind.PAIRS, okey_discard, tuple(pairs)))
    return found


def declare(
    hand: Hand | str | Sequence[TileLike], indicator: Tile | str | None = None,
    scheme: Scheme | str = COUNTDOWN, okey_pair: bool = True, memo: Memo | None = None,
) -> Declaration:
    """Whether a hand is finished: for 14 tiles, whether they form melds or
    seven pairs; for 15, every discard that leaves a finished hand.
    ``hand``: a :class:`Hand` (its own indicator), or tiles with ``indicator``."""
    tiles, ind = _tiles(hand, indicator)
    scheme = check_scheme(scheme)
    memo = owned(memo)
    if len(tiles) < HAND_SIZE:
        note = (f"{len(tiles)} tiles: a finished hand has {HAND_SIZE} tiles "
                f"({MAX_HAND} before the discard)")
        return Declaration(tuple(tiles), ind, (), scheme, note)
    finishes: list[Finish] = []
    if len(tiles) == HAND_SIZE:
        finishes = _finishes_of(tiles, ind, None, okey_pair, memo)
    else:
        for discard in sorted(Counter(tiles)):
            rest = list(tiles)
            rest.remove(discard)
            finishes += _finishes_of(rest, ind, discard, okey_pair, memo)
    note = "" if finishes else "no finish: not every tile fits in melds or seven pairs"
    return Declaration(tuple(tiles), ind, tuple(finishes), scheme, note)
