"""The template gap search: the melds route's distance and its gap faces.

A finished hand is a *template* of 14 slots; each slot holds a hand tile
(free) or is a gap filled by an available tile of its face or by an okey.
With ``wh`` okeys in hand, the melds distance is ``14 - wh - R`` where ``R``
is the most non-wild hand tiles in a template whose gaps the available
tiles and the okeys not yet seen can fill. :class:`TemplateSearch` finds the
fewest gaps by a memoised search on the lowest remaining hand tile, as in the
solver, where each meld may also take gaps: a gap of a face uses an
available real tile of it first, else an okey. Melds made only of gaps pad
the template to 14 when no hand tile can. The same search, kept to optimal
branches, yields every gap face of some optimal template: exactly the tiles
whose draw lowers the distance (the outs).

States are integers with two bits per face: ``x`` the hand's non-wild tiles
(false jokers at the okey face), ``y`` the available non-wild tiles, ``w``
the okeys not seen; ``b`` slots to fill, ``g`` gaps allowed.

>>> from okey_vision.coach.pool import Pool
>>> from okey_vision.tiles import parse_hand, parse_tile
>>> p = Pool.of(parse_hand("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 y13"), parse_tile("b2"), ())
>>> TemplateSearch().fewest_gaps(p.x, p.y, p.w, p.total)
1
"""

from __future__ import annotations

from okey_vision.memo import Memo
from okey_vision.tiles import HAND_SIZE, NUM_FACES

#: A distance (or a number of gaps) that cannot be reached: no finished hand
#: is left in the pool.
UNREACHABLE = 99

SHIFT = [2 * i for i in range(NUM_FACES)]
_NONE: tuple[int, dict[int, int]] = (-1, {})  # no template fits (never mutated)
_M1 = int("01" * NUM_FACES, 2)  # the low bit of every 2-bit face count

# Per face: the 2-bit fields of the four faces of its number (sets), and of
# its colour from each lower start to the 1 after 13 (runs).
_SET_FIELDS = [sum(3 << SHIFT[d * 13 + j % 13] for d in range(4)) for j in range(NUM_FACES)]
_RUN_FIELDS = [
    [sum(3 << SHIFT[(j // 13) * 13 + p - 1] for p in range(max(1, j % 13 + 1 - g), 14)) | (3 << SHIFT[(j // 13) * 13])
     for g in range(16)]
    for j in range(NUM_FACES)
]


def low_face(x: int) -> int:
    """The lowest face held in a state."""
    return ((x & -x).bit_length() - 1) >> 1


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
        families.append((0, [(sum(1 << SHIFT[j] for j in [i] + [others[m] for m in combo]), len(combo) + 1)]))
    for lo in range(n, 0, -1):
        top = min(lo + 12, 14 if lo >= 2 else 13)
        run = [(sum(1 << SHIFT[base + (p - 1) % 13] for p in range(lo, hi + 1)), hi - lo + 1)
               for hi in range(max(n, lo + 2), top + 1)]
        # Growing upwards from the shortest: its first meld already holds the
        # slots below face i, so a family only grows.
        families.append((n - lo, run))
    if n == 1:
        families.append((0, [((1 << SHIFT[base]) | sum(1 << SHIFT[base + p - 1] for p in range(lo, 14)), 15 - lo)
                             for lo in range(12, 1, -1)]))
    return families


_SHAPES = [_shape_table(i) for i in range(NUM_FACES)]
# Per face: every face (as a low bit) that one of its melds holds; the melds
# open to a state depend only on the hand and the available tiles there.
_LOCAL = [0] * NUM_FACES
for _i in range(NUM_FACES):
    for _lead, _family in _SHAPES[_i]:
        for _mask, _size in _family:
            _LOCAL[_i] |= _mask


def _options(i: int, hx: int, hy: int, w: int, cap: int) -> list[tuple[int, int, int, int, int, int]]:
    """Every meld holding face ``i`` (the lowest hand tile) with at most
    ``cap`` gaps, its other slots taken from the hand where it has the face
    (``hx``: faces held, as low bits), else gaps (an available tile of the
    face, ``hy``, else an okey): (hand tiles taken, available tiles taken,
    okeys taken, size, hand tiles used, gap faces), all but the counts as
    low bits of 2-bit fields.

    Taking the hand's own tile where it has the face loses nothing: a
    template using a gap there and the hand tile elsewhere swaps them with
    the same faces. Faces below the lowest hand tile are gaps (none left).
    Bit-parallel: one mask per meld shape, a few integer operations each."""
    out: list[tuple[int, int, int, int, int, int]] = []
    for lead, family in _SHAPES[i]:
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
            out.append((used, real, wild, size, k, gaps))
    return out


def _free_options(y: int, w: int) -> list[tuple[int, int, int, int]]:
    """Melds of available tiles and okeys only, holding the lowest available
    face: (y after, okeys after, size, faces mask)."""
    hy = (y | y >> 1) & _M1
    out: list[tuple[int, int, int, int]] = []
    for lead, family in _SHAPES[low_face(y)]:
        if lead > 2:
            break  # below the lowest available face only okeys: at most 2
        for mask, size in family:
            real = mask & hy
            wild = size - real.bit_count()
            if wild > w:
                break
            out.append((y - real, w - wild, size, mask))
    return out


class TemplateSearch:
    """The template searches of one :class:`~okey_vision.memo.Memo`."""

    def __init__(self, memo: Memo | None = None) -> None:
        memo = memo if memo is not None else Memo()
        self._fits = memo.fits
        self._gaps = memo.gaps
        self._left = memo.left
        self._free_ok = memo.free
        self._free_mask = memo.free_faces
        self._reach = memo.reach
        self._melds = memo.melds
        self._most = memo.most

    def options(self, x: int, y: int, w: int, cap: int) -> list[tuple[int, int, int, int, int, int]]:
        """:func:`_options` for the lowest tile of ``x``, memoised on what
        the hand holds and what is available where its melds lie."""
        i = ((x & -x).bit_length() - 1) >> 1
        local = _LOCAL[i]
        hx = (x | x >> 1) & local
        hy = (y | y >> 1) & local
        key = (i, hx, hy, w, cap)
        found = self._melds.get(key)
        if found is None:
            found = self._melds[key] = _options(i, hx, hy, w, cap)
        return found

    def reach(self, x: int, g: int) -> int:
        """The faces (2-bit fields) that melds anchored on the tiles of ``x``
        with at most ``g`` gaps can touch: only these of the available tiles
        matter to the rest of the search, so the memo keys keep only them."""
        key = (x, g)
        value = self._reach.get(key)
        if value is None:
            value = 0
            rest = x
            while rest:
                j = low_face(rest)
                rest &= ~(3 << SHIFT[j])
                value |= _SET_FIELDS[j] | _RUN_FIELDS[j][g]
            self._reach[key] = value
        return value

    def most(self, x: int, g: int) -> int:
        """The most tiles of ``x`` that melds with at most ``g`` gaps can
        hold, whatever is available: a template of ``b`` slots with at most
        ``g`` gaps holds at least ``b - g`` hand tiles, so none fits when
        ``b - g`` is more than this. The melds are the searches' own
        (:meth:`options`, every gap open: it takes nothing from ``y``), so
        any template they find is one of these. Memoised on ``(x, g)``
        alone: far fewer states than the searches it prunes, most of whose
        states fail (the far hands' searches lost about two thirds
        of their states, their time halved or better)."""
        key = x << 4 | g
        value = self._most.get(key)
        if value is None:
            if x == 0:
                return 0
            total = (x & _M1).bit_count() + 2 * ((x >> 1) & _M1).bit_count()
            # The lowest tile is left out, or lies in a meld (gaps anywhere:
            # nothing is taken from y). The melds are :func:`_options`'s with
            # every gap open, walked here (not memoised: each state is met once).
            value = self.most(x - (1 << (((x & -x).bit_length() - 1) & ~1)), g)
            held = (x | x >> 1) & _M1
            for lead, family in _SHAPES[((x & -x).bit_length() - 1) >> 1]:
                if lead > g or value == total:
                    break
                for mask, size in family:
                    used = held & mask
                    k = used.bit_count()
                    if size - k > g:
                        break  # the family's later melds only add gaps
                    value = max(value, k + self.most(x - used, g - size + k))
            self._most[key] = value
        return value

    def free(self, y: int, w: int, b: int) -> bool:
        """True when exactly ``b`` slots can be melds of available tiles and okeys."""
        if b == 0:
            return True
        if b < 3 or y == 0:
            return False
        key = (y, w, b)
        value = self._free_ok.get(key)
        if value is None:
            j = low_face(y)
            value = any(size <= b and self.free(cy, cw, b - size) for cy, cw, size, _ in _free_options(y, w)) \
                or self.free(y & ~(3 << SHIFT[j]), w, b)
            self._free_ok[key] = value
        return value

    def free_faces(self, y: int, w: int, b: int) -> int:
        """Faces (bit mask) in some filling of ``b`` slots by :meth:`free` melds."""
        if b == 0 or not self.free(y, w, b):
            return 0
        key = (y, w, b)
        value = self._free_mask.get(key)
        if value is None:
            value = 0
            for cy, cw, size, g in _free_options(y, w):
                if size <= b and self.free(cy, cw, b - size):
                    value |= g | self.free_faces(cy, cw, b - size)
            value |= self.free_faces(y & ~(3 << SHIFT[low_face(y)]), w, b)
            self._free_mask[key] = value
        return value

    def _key(self, x: int, y: int, w: int, b: int, g: int) -> tuple[int, int, int, int]:
        """The memo key of a search state. Only the available tiles that melds
        anchored on ``x`` can touch matter, unless a meld of gaps alone may
        still come (it needs 3 gaps and 3 slots): it may take any available
        tile. With no gap left neither matters, nor the okeys; with ``g``
        gaps left at most ``g`` okeys can be used, and with one, a face is
        available or not (how many copies does not matter)."""
        if g == 0:
            return (x, 0, 0, b * 16)
        if g == 1:
            return (x, (y | y >> 1) & _M1 & self.reach(x, 1), min(w, 1), b * 16 + 1)
        return (x, y & self.reach(x, g) if g < 3 or b < 3 else y, min(w, g), b * 16 + g)

    def fits(self, x: int, y: int, w: int, b: int, g: int, total: int) -> bool:
        """True when some template of exactly ``b`` slots holds hand tiles of
        ``x`` (``total`` of them) and at most ``g`` gaps (from ``y``, then ``w``)."""
        if b - g > total:
            return False  # too few hand tiles left to fill the non-gap slots
        if x == 0:
            return b <= g and self.free(y, w, b)
        most = self._most.get(x << 4 | g)
        if b - g > (self.most(x, g) if most is None else most):
            return False  # too few hand tiles fit in melds with so few gaps
        if g == 0:
            key = (x, 0, 0, b * 16)  # inline of _key (the hottest line of the search)
        else:
            key = self._key(x, y, w, b, g)
        value = self._fits.get(key)
        if value is not None:
            return value
        # The lowest tile lies in some meld, or is left out of the template.
        value = False
        fits = self.fits
        for used, real, wild, size, k, _ in self.options(x, y, w, g):
            if size <= b and fits(x - used, y - real, w - wild, b - size, g - size + k, total - k):
                value = True
                break
        else:
            value = fits(x - (1 << (((x & -x).bit_length() - 1) & ~1)), y, w, b, g, total - 1)  # one tile fewer
        self._fits[key] = value
        return value

    def gap_faces(self, x: int, y: int, w: int, b: int, g: int, total: int) -> int:
        """Every gap face (bit mask) of some template that :meth:`fits` finds
        (0 when there is none)."""
        return max(0, self.faces_if_fits(x, y, w, b, g, total))

    def faces_if_fits(self, x: int, y: int, w: int, b: int, g: int, total: int) -> int:
        """:meth:`gap_faces`, or -1 when no template fits: one pass that
        decides and collects at once (a memoised "no" from :meth:`fits` is
        trusted; a "yes" is recorded for it)."""
        if b - g > total:
            return -1
        if x == 0:
            return self.free_faces(y, w, b) if b <= g and self.free(y, w, b) else -1
        most = self._most.get(x << 4 | g)
        if b - g > (self.most(x, g) if most is None else most):
            return -1
        key = self._key(x, y, w, b, g)
        value = self._gaps.get(key)
        if value is not None:
            return value
        if self._fits.get(key) is False:
            return -1
        faces_of = self.faces_if_fits
        value = faces_of(x - (1 << (((x & -x).bit_length() - 1) & ~1)), y, w, b, g, total - 1)
        for used, real, wild, size, k, faces in self.options(x, y, w, g):
            if size <= b:
                sub = faces_of(x - used, y - real, w - wild, b - size, g - size + k, total - k)
                if sub >= 0:
                    value = max(value, 0) | faces | sub
        self._gaps[key] = value
        self._fits[key] = value >= 0
        return value

    def gap_faces_left(self, x: int, y: int, w: int, b: int, g: int, total: int, track: int = _M1
                       ) -> tuple[int, dict[int, int]]:
        """:meth:`gap_faces`, and per face of ``x`` (of ``track``, low bits:
        every face unless told): the gap faces of the templates that leave a
        tile of that face out.

        Run on a 15-tile hand, it serves every discard at once: a template of
        the 15 that leaves a tile out is a template of the 14 after
        discarding it, and when it has the 15's fewest gaps it is an optimal
        one there."""
        found = self._faces_left(x, y, w, b, g, total, track)
        return (found[0], found[1]) if found[0] >= 0 else (0, {})

    def _faces_left(self, x: int, y: int, w: int, b: int, g: int, total: int, track: int
                    ) -> tuple[int, dict[int, int]]:
        """:meth:`gap_faces_left` in one pass, as :meth:`faces_if_fits`: (-1, {})
        when no template fits. A state holding no tracked face has nothing
        to say per face: its gap faces are :meth:`faces_if_fits`'s."""
        tracked = (x | x >> 1) & track
        if not tracked:
            faces = self.faces_if_fits(x, y, w, b, g, total)
            return (faces, {}) if faces >= 0 else _NONE
        if b - g > total or b - g > self.most(x, g):
            return _NONE
        key = self._key(x, y, w, b, g) + (tracked,)
        found = self._left.get(key)
        if found is not None:
            return found
        if self._fits.get(key[:4]) is False:
            return _NONE
        p = ((x & -x).bit_length() - 1) & ~1
        every, below = self._faces_left(x - (1 << p), y, w, b, g, total - 1, track)
        left = dict(below)
        if every >= 0 and tracked & (1 << p):
            left[p >> 1] = left.get(p >> 1, 0) | every  # this tile is the one left out
        for used, real, wild, size, k, faces in self.options(x, y, w, g):
            if size <= b:
                sub, sub_left = self._faces_left(x - used, y - real, w - wild, b - size, g - size + k, total - k,
                                                 track)
                if sub >= 0:
                    every = max(every, 0) | faces | sub
                    for f, m in sub_left.items():
                        left[f] = left.get(f, 0) | faces | m
        found = (every, left) if every >= 0 else _NONE
        self._left[key] = found
        self._fits[key[:4]] = every >= 0
        return found

    def fewest_gaps(self, x: int, y: int, w: int, total: int, start: int = 0, most: int = HAND_SIZE) -> int:
        """Fewest gaps in a 14-slot template for hand tiles ``x``: iterative
        deepening on the gap budget from ``start`` to ``most``, each depth a
        search that stops at the first template; ``UNREACHABLE`` if none."""
        for g in range(max(0, start), min(most, HAND_SIZE) + 1):
            if self.fits(x, y, w, HAND_SIZE, g, total):
                return g
        return UNREACHABLE
