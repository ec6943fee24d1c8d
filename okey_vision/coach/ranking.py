"""Discard ranking: every discard of a 15-tile hand, best first.

Lowest distance after the discard, then most outs, then most tiles kept in
melds, then the left-over tiles' connectivity; an okey is thrown last.

>>> [o.tile.name for o in rank_discards("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 y13", "b2")][:1]
['y13']
>>> best_discard("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 y13", "b2").tile
Tile('y13')
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

from okey_vision.coach.pool import Pool
from okey_vision.coach.reading import HandInput, checked, read, without
from okey_vision.coach.templates import SHIFT, UNREACHABLE, TemplateSearch
from okey_vision.errors import HandSizeError
from okey_vision.melds import PARTNERS, Partner
from okey_vision.memo import Memo, owned
from okey_vision.solver import arrange, tiles_in_melds
from okey_vision.tiles import HAND_SIZE, MAX_HAND, Tile, TileLike, format_hand, okey_of


@dataclass(frozen=True)
class DiscardOption:
    """One discard of a 15-tile hand: the distance after it, its outs (how
    many available tiles lower that distance, and which), and the tie-break."""

    tile: Tile
    distance: int
    outs: int
    out_tiles: tuple[Tile, ...]
    route: str
    keeps: int  # tie-break: tiles of the rest in melds, more is better
    potential: int = 0  # tie-break: available tiles that would join a left-over tile

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary."""
        return {"tile": self.tile.name, "distance": self.distance, "outs": self.outs,
                "out_tiles": [t.name for t in self.out_tiles], "route": self.route}


#: Weight of each meld partner in a left-over tile's connectivity.
_PARTNER_WEIGHT = {Partner.SET: 1, Partner.NEXT: 2, Partner.GAP: 1}
_NEIGHBOURS = [[(j, _PARTNER_WEIGHT[kind]) for j, kind in partners] for partners in PARTNERS]


def _potential(rest: Sequence[Tile], indicator: Tile, pool: Pool, memo: Memo) -> int:
    """Cheap connectivity of a hand's left-over tiles: for each tile the exact
    solver leaves out of melds, the available tiles that would pair it into a
    partial run or set (weighted). A stand-in for two-step outs, used when
    distance and outs tie; the strength benchmark measures its worth."""
    score = 0
    for t in arrange(rest, indicator, memo=memo).leftover:
        face = pool.face(t)
        if face is not None:
            score += sum(pool.avail[j] * weight for j, weight in _NEIGHBOURS[face])
    return score


def rank_key(o: DiscardOption, okey: Tile) -> tuple[int, int, int, int, bool, int]:
    """The sort key of a discard: lower is better."""
    # An okey is wild: never thrown while a tile of equal merit exists.
    return (o.distance, -o.outs, -o.keeps, -o.potential, o.tile == okey, o.tile.index)


def discard_options(tiles: Sequence[Tile], indicator: Tile, seen: Sequence[Tile], memo: Memo,
                    with_outs: bool = True, only_best: bool = False) -> list[DiscardOption]:
    """The discards of a 15-tile hand, unsorted; ``only_best`` leaves out
    those that cannot be ranked first (their distance is surely higher)."""
    search = TemplateSearch(memo)
    okey = okey_of(indicator)
    whole = Pool.of(tiles, indicator, seen)
    candidates = []
    for t in sorted(set(tiles)):
        rest = without(tiles, t)
        pool = Pool.of(rest, indicator, list(seen) + [t])
        candidates.append((t, rest, pool, pool.pairs_distance()))
    # The melds route decides nothing for a discard past its seven-pairs
    # distance: templates with more gaps than any discard could use are
    # never searched (the deepest, costliest depths of the search).
    most = max(p + pool.wh if p < UNREACHABLE else UNREACHABLE for _, _, pool, p in candidates)
    # A template for the 14 is one for the 15 too: the 15's fewest gaps is
    # where every discard's deepening starts.
    g15 = search.fewest_gaps(whole.x, whole.y, whole.w, whole.total, 0, most)
    known = g15 < UNREACHABLE
    if not known and most < UNREACHABLE:
        g15 = most + 1  # at least this many: where the discards' searches start
    d15 = max(0, g15 - whole.wh) if known else UNREACHABLE
    shared: dict[int, tuple[int, int]] = {}
    if with_outs and known and whole.wh < g15:
        # One pass over the 15 finds the outs of every discard that some
        # template with the 15's fewest gaps leaves out: those templates are
        # the optimal ones after that discard. (None of them has a gap at the
        # discarded face: the discarded tile would fill it, one gap fewer.)
        # The other discards need more gaps than g15: they start at g15 + 1.
        every, left = search.gap_faces_left(whole.x, whole.y, whole.w, HAND_SIZE, g15, whole.total)
        for left_out, mask in left.items():
            shared[left_out] = (g15, mask)
        # The others need a gap more; with ``only_best`` those whose seven
        # pairs is farther than d15 are left out below: none of their searches.
        shared.update(_one_gap_more(search, whole, g15, every, [
            (played, pool) for t, _, pool, pairs in candidates
            if (played := pool.face(t)) is not None and played not in shared and g15 + 1 - pool.wh <= pairs
            and not (only_best and pairs > max(0, g15 - whole.wh))]))
    options = []
    for t, rest, pool, pairs in candidates:
        face = pool.face(t)
        melds = shared.get(face) if face is not None else None
        worse = bool(shared) and face is not None and (melds is None or melds[0] > g15)
        if only_best and (worse or face is None) and d15 < UNREACHABLE and pairs > d15:
            # Its melds route is longer than d15 (an okey thrown leaves one
            # gap more to fill) and so is seven pairs: it cannot rank first.
            continue
        lower = g15 + 1 if worse else g15
        r = read(pool, search, with_outs=with_outs, start=max(0, lower - pool.wh), melds=melds)
        options.append(DiscardOption(t, r.distance, r.outs, r.out_tiles, r.route,
                                     tiles_in_melds(rest, okey, memo), _potential(rest, indicator, pool, memo)))
    return options


#: Discards needing a gap more from which one pass over the 15 serves them
#: all (:func:`_one_gap_more`); fewer are searched alone, which costs less
#: (measured on random and far 15-tile hands: 3-6 such discards took up to
#: 1.6x longer in one pass, 7 or more up to 1.5x longer alone).
ONE_PASS_FROM = 7


def _one_gap_more(search: TemplateSearch, whole: Pool, g15: int, every: int,
                  worse: list[tuple[int, Pool]]) -> dict[int, tuple[int, int]]:
    """The fewest gaps and gap faces of discards that every template with the
    15's fewest gaps ``g15`` uses (their 14 need ``g15 + 1`` or more).

    A best template of such a 14 either has no gap at the discarded face:
    it is one of the 15's templates with a gap more that leave a tile of
    that face out (one pass over the 15 serves them all); or it has one:
    put the discarded tile back there and it is one of the 15's best
    templates (they all use it) that can spare a tile for that gap, an
    available copy of the face or an okey. Those are the 15's best templates
    with one copy of the face, or one okey, set aside (all of them, gap
    faces ``every``, when no best template has a gap at the face)."""
    if len(worse) < ONE_PASS_FROM or g15 >= HAND_SIZE:  # fewer: searching them alone costs less
        return {}
    # Only these faces' left-out templates are wanted: the states past them are plain gap searches.
    track = sum(1 << SHIFT[face] for face, _ in worse)
    _, left = search.gap_faces_left(whole.x, whole.y, whole.w, HAND_SIZE, g15 + 1, whole.total, track)
    spare_okey = search.faces_if_fits(whole.x, whole.y, whole.w - 1, HAND_SIZE, g15, whole.total) \
        if whole.w else -1
    found = {}
    for face, pool in worse:
        bit = 1 << SHIFT[face]
        if not pool.avail[face]:
            spare_copy = -1
        elif not every & bit:
            spare_copy = every
        else:
            spare_copy = search.faces_if_fits(whole.x, whole.y - bit, whole.w, HAND_SIZE, g15, whole.total)
        if spare_copy >= 0 or spare_okey >= 0:
            found[face] = (g15 + 1, left.get(face, 0) | max(spare_copy, 0) | max(spare_okey, 0) | bit)
        elif face in left:
            found[face] = (g15 + 1, left[face])
    return found


def _fifteen(hand: HandInput, indicator: Tile | str | None, seen: str | Iterable[TileLike]
             ) -> tuple[list[Tile], Tile, list[Tile]]:
    tiles, ind, gone = checked(hand, indicator, seen)
    if len(tiles) != MAX_HAND:
        raise HandSizeError(f"a discard needs {MAX_HAND} tiles, got {len(tiles)}: {format_hand(tiles)[:80]!r}")
    return tiles, ind, gone


def rank_discards(hand: HandInput, indicator: Tile | str | None = None, seen: str | Iterable[TileLike] = (),
                  with_outs: bool = True, memo: Memo | None = None) -> list[DiscardOption]:
    """Every distinct discard of a 15-tile hand, best first: lowest distance,
    then most outs, then most tiles kept in melds, keeping okeys last."""
    tiles, ind, gone = _fifteen(hand, indicator, seen)
    okey = okey_of(ind)
    return sorted(discard_options(tiles, ind, gone, owned(memo), with_outs), key=lambda o: rank_key(o, okey))


def best_discard(hand: HandInput, indicator: Tile | str | None = None, seen: str | Iterable[TileLike] = (),
                 memo: Memo | None = None) -> DiscardOption:
    """The discard :func:`rank_discards` ranks first, found faster (a bot's
    move): discards that surely lie farther from winning are skipped."""
    tiles, ind, gone = _fifteen(hand, indicator, seen)
    okey = okey_of(ind)
    return min(discard_options(tiles, ind, gone, owned(memo), True, only_best=True), key=lambda o: rank_key(o, okey))

