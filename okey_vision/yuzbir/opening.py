"""The exact 101 opening: the largest-valued runs and sets a hand can lay
(reaching 101 opens), or its most pairs (5 or more open).

The search works on the classic solver's state (:func:`okey_vision.solver.encode`:
two bits per face, false jokers as the okey face, and the number of okeys)
but maximises points instead of tiles. It takes the lowest remaining face
and branches on what becomes of it: left in hand, the lowest real tile of a
set (its partners come from higher colours), or of a run (okeys may stand
below it, since every lower face of its colour is gone; a 1 may close a
12-13-1 run when the option allows). An okey counts as the face it stands
for. A meld never uses an okey where a free real tile of the needed face is
left (swapping them keeps every meld valid and every value), so runs take
real tiles first. Values of states are kept in an :class:`OpeningMemo` the
caller owns.

>>> o = best_opening(Hand101.of("r10 r11 r12 r13 k10 y10 b10 b11 b12 y7 y8 y9 k1", "k5"))
>>> o.points, o.reaches, o.progress()
(123, True, '123 of 101')
>>> [m.describe() for m in o.melds]
['r10 y10 k10', 'r11 r12 r13', 'y7 y8 y9', 'b10 b11 b12']
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

from okey_vision.lang import Lang
from okey_vision.melds import PAIR, RUN, SET, Meld
from okey_vision.solver import encode, set_melds
from okey_vision.tiles import COLORS, FALSE_JOKER, NUM_FACES, TILES, Hand, Tile, TileLike, okey_of
from okey_vision.yuzbir.rules import DEFAULT_OPTIONS, Hand101, Opened, Options101, as_hand101, hand_points
from okey_vision.yuzbir.text import progress_words, say

_ONE = [1 << (2 * i) for i in range(NUM_FACES)]
_FIELD = [3 << (2 * i) for i in range(NUM_FACES)]
# A move: (state after, okeys after, points, tiles laid, kind, first position, last position, colour or number).
_Move = tuple[int, int, int, int, str, int, int, int]


class OpeningMemo:
    """The opening search's cache: best value and move per state, for one
    game or app session; emptied past ``limit`` entries."""

    __slots__ = ("best", "limit")

    def __init__(self, limit: int = 400_000) -> None:
        self.limit = limit
        self.best: dict[int, tuple[int, _Move | None]] = {}

    def size(self) -> int:
        """Entries held."""
        return len(self.best)

    def trim(self) -> None:
        """Empty the cache when it holds more than ``limit`` entries."""
        if len(self.best) > self.limit:
            self.best.clear()


def _run_value(start: int, end: int) -> int:
    """Points of the run of positions start..end (14 is a 1 after 13, worth 1)."""
    total = (start + end) * (end - start + 1) // 2
    return total - 13 if end == 14 else total


def _moves(x: int, w: int, ace: bool) -> list[_Move]:
    """Every meld holding the lowest face of ``x``, best value per state after."""
    i = ((x & -x).bit_length() - 1) >> 1
    c, n0 = divmod(i, 13)
    number = n0 + 1
    out: dict[tuple[int, int], _Move] = {}

    def add(move: _Move) -> None:
        key = (move[0], move[1])
        old = out.get(key)
        if old is None or move[2] > old[2]:
            out[key] = move

    rest = x - _ONE[i]
    # Sets: the classic solver's enumeration, valued here by points.
    for taken, k, size in set_melds(x, w, i):
        add((x - taken, w - k, number * size, size, SET, 0, 0, number))
    # Runs with this tile as the lowest real one: okeys below it, then upwards.
    base = c * 13 - 1  # the face index of number p is base + p
    last = 14 if ace else 13
    for below in range(min(w, n0) + 1):
        cx, cw = rest, w - below
        start = number - below
        if number - start + 1 >= 3:
            add((cx, cw, _run_value(start, number), number - start + 1, RUN, start, number, c))
        for p in range(number + 1, last + 1):
            if p - start + 1 > 13:
                break
            if p <= 13 and cx & _FIELD[base + p]:
                cx -= _ONE[base + p]
            elif cw:
                cw -= 1
            else:
                break
            if p - start + 1 >= 3:
                add((cx, cw, _run_value(start, p), p - start + 1, RUN, start, p, c))
    # A 1 after 13: runs ending 12-13-1, built downwards.
    if ace and n0 == 0:
        cx, cw = rest, w
        for p in range(13, 1, -1):
            if cx & _FIELD[base + p]:
                cx -= _ONE[base + p]
            elif cw:
                cw -= 1
            else:
                break
            if 14 - p + 1 >= 3:
                add((cx, cw, _run_value(p, 14), 14 - p + 1, RUN, p, 14, c))
    return list(out.values())


def _search(x: int, w: int, ace: bool, memo: dict[int, tuple[int, _Move | None]]) -> int:
    """Best score (points * 32 + tiles laid) of state ``(x, w)``; records the move."""
    if x == 0:
        return 0
    key = x * 8 + w
    hit = memo.get(key)
    if hit is not None:
        return hit[0]
    i = ((x & -x).bit_length() - 1) >> 1
    best = _search(x - _ONE[i], w, ace, memo)  # the lowest face stays in hand
    choice: _Move | None = None
    for move in _moves(x, w, ace):
        score = move[2] * 32 + move[3] + _search(move[0], move[1], ace, memo)
        if score > best:
            best, choice = score, move
    memo[key] = (best, choice)
    return best


def _faces_of(x: int, okey: Tile) -> list[Tile]:
    """The physical tiles of a state's faces (the okey face is a false joker)."""
    tiles: list[Tile] = []
    while x:
        i = ((x & -x).bit_length() - 1) >> 1
        tile = FALSE_JOKER if i == okey.index else TILES[i]
        tiles += [tile] * ((x >> (2 * i)) & 3)
        x &= ~_FIELD[i]
    return tiles


def _meld_of(move: _Move, x: int, w: int, okey: Tile) -> Meld:
    """The meld a move lays from state ``(x, w)``."""
    x2, w2, _, _, kind, start, end, which = move
    real = _faces_of(x - x2, okey)
    by_face = {(okey if t.is_false_joker else t): t for t in real}
    okeys = w - w2
    if kind == SET:
        faces = [okey if t.is_false_joker else t for t in real]
        free = [TILES[ci * 13 + which - 1] for ci in range(len(COLORS)) if TILES[ci * 13 + which - 1] not in faces]
        faces += free[:okeys]
        tiles = real + [okey] * okeys
        return Meld(SET, tuple(tiles), tuple(faces), okey)
    faces = [TILES[which * 13 + (p - 1) % 13] for p in range(start, end + 1)]
    tiles = [by_face.get(f, okey) for f in faces]
    return Meld(RUN, tuple(tiles), tuple(faces), okey)


def best_melds(tiles: Sequence[Tile], okey: Tile, options: Options101 = DEFAULT_OPTIONS,
               memo: OpeningMemo | None = None) -> tuple[list[Meld], int, list[Tile]]:
    """The largest-valued runs and sets of ``tiles`` (ties: more tiles laid),
    their points and the tiles left in hand."""
    store = OpeningMemo() if memo is None else memo
    store.trim()
    ace = options.ace_after_13
    x, w = encode(tiles, okey)
    _search(x, w, ace, store.best)
    melds: list[Meld] = []
    points = 0
    left: list[Tile] = []
    while x:
        _, move = store.best[x * 8 + w]
        if move is None:
            i = ((x & -x).bit_length() - 1) >> 1
            left += _faces_of(_ONE[i], okey)
            x -= _ONE[i]
            continue
        melds.append(_meld_of(move, x, w, okey))
        points += move[2]
        x, w = move[0], move[1]
    left += [okey] * w
    return melds, points, left


def most_pairs(tiles: Sequence[Tile], okey: Tile,
               options: Options101 = DEFAULT_OPTIONS) -> tuple[list[Meld], list[Tile]]:
    """The most pairs of ``tiles`` and the tiles left: identical faces first,
    then each okey partners the highest single left (so the fewest points
    stay in hand), two spare okeys pair when the option allows."""
    by_face: dict[Tile, list[Tile]] = {}
    okeys: list[Tile] = []
    for t in sorted(tiles, key=lambda t: t.index):
        if t == okey:
            okeys.append(t)
        else:
            by_face.setdefault(okey if t.is_false_joker else t, []).append(t)
    pairs: list[Meld] = []
    singles: list[tuple[Tile, Tile]] = []
    for face, group in by_face.items():
        if len(group) == 2:
            pairs.append(Meld(PAIR, (group[0], group[1]), (face, face), okey))
        else:
            singles.append((face, group[0]))
    singles.sort(key=lambda ft: ft[0].number)
    while okeys and singles:
        face, single = singles.pop()
        pairs.append(Meld(PAIR, (single, okeys.pop()), (face, face), okey))
    if options.okey_pair and len(okeys) == 2:
        pairs.append(Meld(PAIR, (okeys[0], okeys[1]), (okey, okey), okey))
        okeys = []
    return pairs, sorted([t for _, t in singles] + okeys, key=lambda t: t.index)


@dataclass(frozen=True)
class Opening:
    """A hand's best opening: its largest-valued runs and sets with their
    points, and beside them its most pairs; what it must reach; and whether
    it reaches."""

    melds: tuple[Meld, ...]
    points: int
    leftover: tuple[Tile, ...]
    pairs: tuple[Meld, ...]
    pairs_leftover: tuple[Tile, ...]
    okey: Tile
    needed: int = 101
    pairs_needed: int = 5
    options: Options101 = field(default=DEFAULT_OPTIONS, repr=False)

    @property
    def reaches(self) -> bool:
        """The runs and sets reach the points an opening needs."""
        return self.points >= self.needed

    @property
    def reaches_pairs(self) -> bool:
        """The pairs are enough to open with pairs."""
        return len(self.pairs) >= self.pairs_needed

    @property
    def missing(self) -> int:
        """Points the runs and sets still lack (0 when they reach)."""
        return max(0, self.needed - self.points)

    @property
    def kind(self) -> Opened:
        """How this hand opens now: runs and sets first (pairs double the
        penalty and bind the rest of the round), then pairs, else not."""
        if self.reaches:
            return Opened.MELDS
        if self.reaches_pairs:
            return Opened.PAIRS
        return Opened.NO

    @property
    def laid(self) -> tuple[Meld, ...]:
        """The melds or pairs this opening lays (none when it does not reach)."""
        kind = self.kind
        return self.melds if kind is Opened.MELDS else self.pairs if kind is Opened.PAIRS else ()

    @property
    def left_in_hand(self) -> tuple[Tile, ...]:
        """The tiles left after this opening (the whole hand when it does not reach)."""
        kind = self.kind
        if kind is Opened.MELDS:
            return self.leftover
        if kind is Opened.PAIRS:
            return self.pairs_leftover
        return tuple(t for m in self.melds for t in m.tiles) + self.leftover

    def progress(self, lang: Lang | str = Lang.EN) -> str:
        """The points against the need, e.g. '87 of 101' ('101 puandan 87')."""
        return progress_words(self.points, self.needed, lang)

    def headline(self, lang: Lang | str = Lang.EN) -> str:
        """The first thing a player reads: 'Open: 123 of 101.', 'Open with 5
        pairs.' or 'Not yet: 87 of 101.' (in Turkish with ``lang='tr'``).

        >>> best_opening("r11 r12 r13 k11 y11 b11 b12 b13 r10", "k1").headline(Lang.TR)
        'Henüz değil: 101 puandan 82.'
        """
        kind = self.kind
        if kind is Opened.MELDS:
            return say("headline_open", lang, progress=self.progress(lang))
        if kind is Opened.PAIRS:
            return say("headline_pairs", lang, n=len(self.pairs))
        return say("not_yet", lang, progress=self.progress(lang))

    def to_dict(self) -> dict[str, object]:
        """A JSON-ready summary."""
        return {
            "kind": self.kind.value,
            "reaches": self.reaches,
            "points": self.points,
            "needed": self.needed,
            "missing": self.missing,
            "progress": self.progress(),
            "headline": self.headline(),
            "melds": [m.describe() for m in self.melds],
            "leftover": [t.name for t in self.leftover],
            "pairs": [m.describe() for m in self.pairs],
            "pairs_needed": self.pairs_needed,
            "reaches_pairs": self.reaches_pairs,
            "left_points": hand_points(self.left_in_hand, self.okey),
        }


def opening_of(tiles: Sequence[Tile], okey: Tile, options: Options101 = DEFAULT_OPTIONS, highest: int = 0,
               most_pairs_laid: int = 0, memo: OpeningMemo | None = None) -> Opening:
    """:func:`best_opening` on tiles and the okey face (the hot path of the coach and the bots)."""
    melds, points, left = best_melds(tiles, okey, options, memo)
    pairs, pairs_left = most_pairs(tiles, okey, options)
    return Opening(tuple(melds), points, tuple(left), tuple(pairs), tuple(pairs_left), okey,
                   options.needed(highest), options.pairs_needed(most_pairs_laid), options)


def best_opening(hand: Hand101 | Hand | str | Sequence[TileLike], indicator: Tile | str | None = None,
                 options: Options101 = DEFAULT_OPTIONS, *, highest: int = 0, most_pairs_laid: int = 0,
                 memo: OpeningMemo | None = None) -> Opening:
    """The hand's best opening: its largest-valued runs and sets (an okey
    counts as the tile it stands for) and its most pairs, against 101 (or the
    highest opening so far plus one, with ``options.beat_highest``).

    >>> best_opening("r1 r2 r3 y5 y5 b9 b9 k2 k2 r7 r7 y1 y1", "k5").kind
    <Opened.PAIRS: 'pairs'>
    >>> best_opening("r1 r2 r3", "k5").progress(Lang.TR)
    '101 puandan 6'
    """
    h = as_hand101(hand, indicator)
    return opening_of(h.tiles, okey_of(h.indicator), options, highest, most_pairs_laid, memo)
