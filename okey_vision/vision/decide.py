"""Decide a photo's tiles together, with the game's rules as knowledge.

Each read brings its classifiers' ranked alternatives. Instead of taking
every read's best face alone, the faces of a rack are chosen jointly:

1. **rows**: players keep tiles side by side in runs and sets. Along
   each rack row, touching neighbours are linked by a prior (a share
   ``DecideConfig.link`` of touching pairs belong to one group, the rest are
   any faces alike), and each read's probabilities over its alternatives
   are updated by the exact forward-backward pass over the row (a small
   hidden Markov chain, its states a read's alternatives);
2. **copies**: the set holds two of each face and two false jokers (one copy
   fewer of the indicator's face): the most probable assignment of faces
   under the rows' probabilities that obeys it
   (:func:`~okey_vision.vision.consistency.make_consistent`, the one place
   of that rule).

Honest by construction: a read at least ``DecideConfig.confident`` sure is
never changed (it only uses up a copy), and a read the rules changed says so
in its ``reason`` (so it is flagged for the player to confirm).

>>> from okey_vision.tiles import parse_tile as t
>>> mk = lambda x, alts: TileRead((x, 0, x + 10, 15), t(alts[0][0]), alts[0][1],
...                              tuple((t(n), p) for n, p in alts))
>>> row = [mk(0, [("r5", .99)]), mk(10, [("r1", .6), ("r6", .35)]), mk(20, [("r7", .99)])]
>>> [r.name for r in decide(row)]
['r5', 'r6', 'r7']
>>> decide(row)[1].reason
'the rules chose r6 over r1 (read 35 % against 60 %): it makes a group with r5 and r7'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from itertools import pairwise

import numpy as np

from okey_vision.tiles import NUM_FACES, TILES, Tile, okey_of, parse_tile
from okey_vision.vision.config import DecideConfig
from okey_vision.vision.consistency import FLOOR, capacities, make_consistent
from okey_vision.vision.reads import APART, TileRead, rack_order

#: The shipped settings of the decision.
DEFAULT_DECIDE = DecideConfig()
#: Faces in the set: 52 numbered faces and the false joker.
FACES = NUM_FACES + 1


def linked(a: Tile, b: Tile, wild: frozenset[Tile] = frozenset()) -> bool:
    """Whether two tiles side by side can belong to one group: a run's step
    (one colour, numbers one apart either way, 13 beside 1) or a set (one
    number, two colours); a false joker, or a ``wild`` tile (the okey), goes
    with any tile. A pair is not a link: tables hold none, racks few, and
    with pairs linked the choose part read a y6 as the y8 beside it.

    >>> linked(parse_tile("r13"), parse_tile("r1")), linked(parse_tile("r5"), parse_tile("b5"))
    (True, True)
    >>> linked(parse_tile("r5"), parse_tile("b6")), linked(parse_tile("fj"), parse_tile("b6"))
    (False, True)
    """
    if a.is_false_joker or b.is_false_joker or a in wild or b in wild:
        return True
    if a.color == b.color:
        return abs(a.number - b.number) in (1, 12)
    return a.number == b.number


@cache
def _link_weights(wild: frozenset[Tile], link: float) -> np.ndarray:
    """The row prior's weight of each face beside each other face (53 x 53),
    relative to faces chosen alike: ``1 - link`` for any pair, plus ``link``
    spread over the faces each face links with."""
    m = np.array([[linked(a, b, wild) for b in TILES] for a in TILES], np.float64)
    weights: np.ndarray = (1.0 - link) + link * FACES * m / m.sum(1, keepdims=True)
    return weights


def _width(r: TileRead) -> float:
    """A read's width along its row (its face's top and bottom sides, else its box)."""
    if r.quad is not None and len(r.quad) == 4:
        q = np.asarray(r.quad, np.float64)
        return float((np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])) / 2)
    return float(r.box[2] - r.box[0])


def touching(a: TileRead, b: TileRead, cfg: DecideConfig = DEFAULT_DECIDE) -> bool:
    """Whether two neighbours of a row stand side by side (no empty place between them)."""
    gap = float(np.hypot(a.center[0] - b.center[0], a.center[1] - b.center[1]))
    return gap <= cfg.touching * (_width(a) + _width(b)) / 2


def _states(r: TileRead, cfg: DecideConfig) -> tuple[list[Tile], np.ndarray]:
    """A read's possible faces and their probabilities (summing to 1): its
    alternatives, or its face alone when it is sure."""
    if r.confidence >= cfg.confident or not r.alternatives:
        return [r.tile], np.ones(1)
    faces: dict[Tile, float] = {}
    for tile, p in r.alternatives:
        faces[tile] = max(faces.get(tile, 0.0), float(p), FLOOR)
    probs = np.array(list(faces.values()))
    return list(faces), probs / probs.sum()


def row_posteriors(row: Sequence[TileRead], cfg: DecideConfig = DEFAULT_DECIDE,
                   wild: frozenset[Tile] = frozenset()) -> list[tuple[tuple[Tile, float], ...]]:
    """Each read's faces and their probabilities given the whole row (in rack
    order): the forward-backward pass over the row's chain, touching
    neighbours linked by the run-and-set prior, most probable first."""
    states = [_states(r, cfg) for r in row]
    weights = _link_weights(wild, cfg.link)
    steps = []
    for (fa, _), (fb, _), left, right in zip(states, states[1:], row, row[1:], strict=False):
        if touching(left, right, cfg):
            steps.append(weights[np.ix_([t.index for t in fa], [t.index for t in fb])])
        else:
            steps.append(np.ones((len(fa), len(fb))))
    n = len(row)
    fwd = [states[0][1]]
    for i in range(1, n):
        f = states[i][1] * (fwd[-1] @ steps[i - 1])
        fwd.append(f / f.sum())
    bwd = [np.ones(len(states[-1][0]))] if n else []
    for i in range(n - 2, -1, -1):
        back = steps[i] @ (states[i + 1][1] * bwd[0])
        bwd.insert(0, back / back.sum())
    out = []
    for (faces, _), ahead, behind in zip(states, fwd, bwd, strict=True):
        post = ahead * behind
        post = post / post.sum()
        order = np.argsort(-post, kind="stable")
        out.append(tuple((faces[k], float(post[k])) for k in order))
    return out


def _prob(r: TileRead, tile: Tile) -> float:
    """The classifiers' probability of ``tile`` for read ``r`` (``FLOOR`` when not among its alternatives)."""
    return max((float(p) for t, p in r.alternatives if t == tile), default=FLOOR)


def _because(reason: str, why: str) -> str:
    """A read's reason with ``why`` added."""
    return f"{reason}; {why}" if reason else why


def decide(reads: Sequence[TileRead], indicator: Tile | str | None = None,
           cfg: DecideConfig = DEFAULT_DECIDE) -> list[TileRead]:
    """The reads with their faces chosen jointly by the game's rules (rows'
    runs and sets, two copies of a face, two false jokers; ``indicator``, if
    known and not photographed, uses a copy of its face). Sure reads are
    kept; a changed read gets its new face's probability as its confidence
    and says why in its ``reason``. Order is kept."""
    reads = list(reads)
    if not cfg.rules or not reads:
        return reads
    ind = parse_tile(indicator) if indicator is not None else None
    wild = frozenset({okey_of(ind)}) if ind is not None and not ind.is_false_joker else frozenset()
    place = {id(r): i for i, r in enumerate(reads)}
    post: list[tuple[tuple[Tile, float], ...]] = [(tuple(zip(*_states(r, cfg), strict=True))) for r in reads]
    rows: dict[int, list[TileRead]] = {}
    for r in rack_order(reads):
        if r.row != APART:
            rows.setdefault(r.row, []).append(r)
    for row in rows.values():
        for r, p in zip(row, row_posteriors(row, cfg, wild), strict=True):
            post[place[id(r)]] = p
    sure = [r.confidence >= cfg.confident for r in reads]
    by_rows = [replace(r, tile=p[0][0], confidence=p[0][1], alternatives=p) for r, p in zip(reads, post, strict=True)]
    chosen = make_consistent(by_rows, ind, fixed=sure)
    neighbours = _neighbours(rows, chosen, place, cfg)
    out = []
    for i, (r, row_pick, pick) in enumerate(zip(reads, by_rows, chosen, strict=True)):
        if pick.tile == r.tile:
            out.append(r)
            continue
        joins = [t for t in neighbours[i] if linked(pick.tile, t, wild)]
        if pick.tile == row_pick.tile and not joins:
            # the row's prior moved a near tie, yet the new face makes no group with the tiles beside it:
            # nothing the player could check says it is better than the classifier's own best face
            out.append(r)
            continue
        head = (f"the rules chose {pick.name} over {r.name} "
                f"(read {_prob(r, pick.tile):.0%} against {r.confidence:.0%})").replace("%", " %")
        if pick.tile == row_pick.tile:
            why = f"{head}: it makes a group with {' and '.join(t.name for t in joins)}"
        else:
            why = f"{head}: {row_pick.name} is read as often as the set holds it elsewhere"
        out.append(replace(r, tile=pick.tile, confidence=_prob(r, pick.tile), reason=_because(r.reason, why)))
    return _too_many(out, ind, sure)


def _neighbours(rows: dict[int, list[TileRead]], chosen: Sequence[TileRead], place: dict[int, int],
                cfg: DecideConfig) -> list[list[Tile]]:
    """Each read's touching neighbours' chosen faces (rack order)."""
    out: list[list[Tile]] = [[] for _ in chosen]
    for row in rows.values():
        for a, b in pairwise(row):
            if touching(a, b, cfg):
                ia, ib = place[id(a)], place[id(b)]
                out[ia].append(chosen[ib].tile)
                out[ib].insert(0, chosen[ia].tile)
    return out


def _too_many(reads: list[TileRead], indicator: Tile | None, sure: Sequence[bool]) -> list[TileRead]:
    """Sure reads of a face the set holds fewer of than they show: each kept
    as read, with a reason (one of them is wrong, the player says which)."""
    cap = capacities(indicator)
    counts = Counter(r.tile.index for r, s in zip(reads, sure, strict=True) if s and r.row != APART)
    over = {i for i, n in counts.items() if n > cap[i]}
    if not over:
        return reads
    return [replace(r, reason=_because(r.reason, f"{r.name} is read {counts[r.tile.index]} times and the set "
                                                f"holds {cap[r.tile.index]}: one of them is wrong"))
            if s and r.tile.index in over and r.row != APART else r
            for r, s in zip(reads, sure, strict=True)]


__all__ = ["DEFAULT_DECIDE", "FACES", "decide", "linked", "row_posteriors", "touching"]
