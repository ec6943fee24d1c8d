"""Make a photo's reads obey the tile set: at most two copies of a face (one
if the indicator, read elsewhere, uses one) and at most two false jokers.

When the reader's best guesses break that, the most probable consistent
reading is chosen from each read's ranked alternatives: an exact
maximum-likelihood assignment (sum of log-probabilities) of reads to face
"slots", solved with the Hungarian algorithm. Pure Python + numpy.

>>> from okey_vision.tiles import parse_tile as t
>>> mk = lambda x, alts: TileRead((x, 0, x + 10, 15), t(alts[0][0]), alts[0][1],
...                              tuple((t(n), p) for n, p in alts))
>>> reads = [mk(0, [("r5", .9), ("r6", .05)]), mk(20, [("r5", .95)]),
...          mk(40, [("r5", .6), ("r3", .3)])]
>>> [r.name for r in make_consistent(reads)]
['r5', 'r5', 'r3']
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from okey_vision.tiles import COPIES, NUM_FACES, TILES, Tile, parse_tile
from okey_vision.vision.reads import APART, TileRead

#: Probability given to a face missing from a read's alternatives.
FLOOR = 1e-6


def capacities(indicator: Tile | str | None = None) -> list[int]:
    """Copies of each face (index 0..52) still possible in a photo."""
    cap = [COPIES] * (NUM_FACES + 1)
    if indicator is not None:
        cap[parse_tile(indicator).index] -= 1
    return cap


def violations(reads: Sequence[TileRead], indicator: Tile | str | None = None) -> dict[str, int]:
    """Faces read more often than the set allows: name -> count read."""
    cap = capacities(indicator)
    counts = Counter(r.tile.index for r in reads)
    return {TILES[i].name: n for i, n in counts.items() if n > cap[i]}


def _probs(read: TileRead) -> np.ndarray:
    p = np.full(NUM_FACES + 1, FLOOR)
    alts = read.alternatives or ((read.tile, read.confidence),)
    for tile, prob in alts:
        p[tile.index] = max(p[tile.index], float(prob))
    return p


def make_consistent(reads: Sequence[TileRead], indicator: Tile | str | None = None,
                    fixed: Sequence[bool] = ()) -> list[TileRead]:
    """The reads with tiles changed as little (in probability) as possible so no
    face appears more often than the set allows.

    ``indicator`` (if known and not among ``reads``) uses up one copy of its
    face; a read lying apart (row ``APART``) whose tile is the indicator is
    taken to be the indicator itself. A read marked in ``fixed`` is never
    changed: its face uses up a copy (when the fixed reads alone break the
    rule they are all kept as read). Changed reads get the confidence of
    their new tile (usually low, so the UI asks). Order is kept.
    """
    reads = list(reads)
    ind = parse_tile(indicator) if indicator is not None else None
    subject = list(range(len(reads)))
    if ind is not None:
        apart = [i for i, r in enumerate(reads) if r.row == APART and r.tile == ind]
        if apart:  # the photographed indicator is the indicator: it is not a hand tile
            best = max(apart, key=lambda i: reads[i].confidence)
            subject.remove(best)
    if not violations([reads[i] for i in subject], ind):
        return reads
    cap = capacities(ind)
    held = [i for i in subject if i < len(fixed) and fixed[i]]
    for i in held:  # a sure read keeps its face: one copy fewer for the others
        cap[reads[i].tile.index] = max(cap[reads[i].tile.index] - 1, 0)
    subject = [i for i in subject if i not in held]
    if not subject:
        return reads
    slots = [face for face in range(NUM_FACES + 1) for _ in range(max(cap[face], 0))]
    if len(subject) > len(slots):  # more tiles than a set holds: nothing consistent exists
        return reads
    logp = np.log(np.stack([_probs(reads[i]) for i in subject]))
    cost = -logp[:, slots]
    assign = hungarian(cost)
    out = list(reads)
    for row, col in zip(subject, assign, strict=True):
        face = TILES[slots[col]]
        r = reads[row]
        if face != r.tile:
            prob = float(math.exp(logp[subject.index(row), face.index]))
            out[row] = replace(r, tile=face, confidence=prob)
    return out


def hungarian(cost: np.ndarray) -> list[int]:
    """Column assigned to each row minimising the total cost (rows <= columns)."""
    n, m = cost.shape
    if n > m:
        raise ValueError("more rows than columns")
    a = np.zeros((n + 1, m + 1))
    a[1:, 1:] = cost
    u = np.zeros(n + 1)
    v = np.zeros(m + 1)
    p = np.zeros(m + 1, dtype=int)
    way = np.zeros(m + 1, dtype=int)
    for i in range(1, n + 1):
        p[0] = i
        j0 = 0
        minv = np.full(m + 1, np.inf)
        used = np.zeros(m + 1, dtype=bool)
        while True:
            used[j0] = True
            i0 = p[j0]
            free = ~used
            free[0] = False
            cur = a[i0] - u[i0] - v
            upd = free & (cur < minv)
            minv[upd] = cur[upd]
            way[upd] = j0
            cand = np.where(free, minv, np.inf)
            j1 = int(np.argmin(cand))
            delta = cand[j1]
            u[p[used]] += delta
            v[used] -= delta
            minv[~used] -= delta
            j0 = j1
            if p[j0] == 0:
                break
        while True:
            j1 = way[j0]
            p[j0] = p[j1]
            j0 = j1
            if j0 == 0:
                break
    ans = [0] * n
    for j in range(1, m + 1):
        if p[j]:
            ans[p[j] - 1] = j - 1
    return ans
