"""The order stage: rack rows and rack order along the rack's own axis --
which reads stand side by side in one row, top to bottom, and which lie
apart (``APART``).

A rack photographed on a diagonal or from the side has rows that do not run
along the photo's x axis, so the tiles' common orientation and the line from
each tile to its neighbour give the direction first; rows and rack order are
then found in that frame. The reads' corners are turned the way their tiles
were read (TL, TR, BR, BL as the tile stands), so "left to right" and "top
to bottom" are the player's, however the photo itself was turned.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from okey_vision.vision.config import OrderConfig
from okey_vision.vision.crops import quad_axes
from okey_vision.vision.reads import APART, TileRead


def assign_rows(reads: Sequence[TileRead], config: OrderConfig | None = None) -> list[TileRead]:
    """Group reads into rows of side-by-side tiles, numbered top to bottom; a
    lone tile away from every row gets ``APART``."""
    from dataclasses import replace

    config = config or OrderConfig()
    n = len(reads)
    if n == 0:
        return []
    c = np.array([r.center for r in reads])
    wh = np.array([(r.box[2] - r.box[0], r.box[3] - r.box[1]) for r in reads])
    quads = [np.asarray(r.quad, np.float64) for r in reads if r.quad is not None]
    axis = common_axis(quads)[0] if len(quads) == n else None
    if axis is not None:
        axis = row_direction(c, axis, config.row_direction_min_deg)
    if axis is not None:  # work in the rack's own frame: x along the rows, y down the tiers
        right = axis
        down = np.array([-right[1], right[0]])
        c = np.column_stack([c @ right, c @ down])
        wh = np.array([quad_axes(q)[2:] for q in quads])
    h = float(np.median(wh[:, 1]))
    w = float(np.median(wh[:, 0]))
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    # link each tile to its nearest horizontal neighbour on each side
    for i in range(n):
        dx = c[:, 0] - c[i, 0]
        dy = np.abs(c[:, 1] - c[i, 1])
        for side in (1, -1):
            ok = (side * dx > 0.2 * w) & (dy < config.row_band * h) & (side * dx < config.neighbour * w)
            if ok.any():
                j = int(np.argmin(np.where(ok, np.abs(dx) + 2 * dy, np.inf)))
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    rows = merge_rows([g for g in groups.values() if len(g) >= 2], c, w, h, config)
    lone = [g[0] for g in groups.values() if len(g) == 1]
    row_of = {}
    if rows:
        ys = [float(np.mean(c[g, 1])) for g in rows]
        for i in lone:  # a lone tile within a row's band and span joins it, else apart
            k = int(np.argmin([abs(c[i, 1] - y) for y in ys]))
            g = rows[k]
            xs = c[g, 0]
            if abs(c[i, 1] - ys[k]) < config.lone_band * h and xs.min() - config.lone_reach * w < c[i, 0] \
                    < xs.max() + config.lone_reach * w:
                rows[k] = g + [i]
            else:
                row_of[i] = APART
        order = np.argsort([float(np.mean(c[g, 1])) for g in rows])
        for rank, k in enumerate(order):
            for i in rows[k]:
                row_of[i] = rank
    else:  # no rows: one tile, or scattered tiles -- each its own row, top to bottom
        for rank, i in enumerate(np.argsort(c[:, 1])):
            row_of[int(i)] = 0 if n == 1 else rank
    return [replace(r, row=int(row_of[i]), along=float(c[i, 0]) if axis is not None else None)
            for i, r in enumerate(reads)]


def merge_rows(rows: list[list[int]], c: np.ndarray, w: float, h: float, config: OrderConfig
               ) -> list[list[int]]:
    """Groups of tiles (indices into the centres ``c``, rack frame) joined when
    they lie in one band across the rows (``config.row_band`` tile heights)
    with at most ``config.merge_reach`` tile widths between their ends: two
    groups of one rack row with empty places between them."""
    rows = [list(g) for g in rows]
    merged = True
    while merged:
        merged = False
        for a in range(len(rows)):
            for b in range(a + 1, len(rows)):
                ya, yb = float(np.mean(c[rows[a], 1])), float(np.mean(c[rows[b], 1]))
                xa, xb = c[rows[a], 0], c[rows[b], 0]
                gap = max(xb.min() - xa.max(), xa.min() - xb.max())
                if abs(ya - yb) < config.row_band * h and gap < config.merge_reach * w:
                    rows[a] += rows.pop(b)
                    merged = True
                    break
            if merged:
                break
    return rows


def row_direction(centres: np.ndarray, axis: np.ndarray, min_deg: float = OrderConfig.row_direction_min_deg
                  ) -> np.ndarray:
    """The rows' direction: the mean (mod 180 degrees) of each tile's vector to
    its nearest neighbour, signed like ``axis``, when those vectors agree and
    depart from ``axis`` by more than ``min_deg`` (a side view's boxes turned
    off the row); else ``axis``."""
    n = len(centres)
    if n < 3:
        return axis
    d = centres[:, None, :] - centres[None, :, :]
    dist = np.linalg.norm(d, axis=2)
    np.fill_diagonal(dist, np.inf)
    u = axial_mean(d[np.arange(n), dist.argmin(1)])
    if u is None:
        return axis
    if u @ axis < 0:
        u = -u
    if np.degrees(np.arccos(min(1.0, float(u @ axis)))) <= min_deg:
        return axis
    return u


def axial_mean(vectors: np.ndarray) -> np.ndarray | None:
    """The unit direction (mod 180 degrees, sign arbitrary) the vectors share:
    their circular mean with doubled angles; ``None`` when they point every
    which way (the doubled angles' mean is shorter than 0.5)."""
    v = np.asarray(vectors, np.float64)
    z = np.exp(2j * np.arctan2(v[:, 1], v[:, 0])).mean()
    if abs(z) < 0.5:
        return None
    theta = np.angle(z) / 2
    return np.array([np.cos(theta), np.sin(theta)])


def common_axis(quads: Sequence[np.ndarray], tol_deg: float = 20.0
                ) -> tuple[np.ndarray | None, list[int]]:
    """(unit "right" vector of the photo's common tile axis, indices of the
    tiles lying along it): the circular mean of the tiles' axes (mod 180
    degrees), its sign set by most tiles' right vectors. ``None`` when the
    tiles lie every which way (no rack)."""
    if not quads:
        return None, []
    rights = np.array([quad_axes(q)[0] for q in quads])
    u = axial_mean(rights)
    if u is None:
        return None, []
    dots = rights @ u
    if (dots < 0).sum() > (dots > 0).sum() or ((dots < 0).sum() == (dots > 0).sum() and dots.sum() < 0):
        u = -u
        dots = -dots
    members = [i for i, dd in enumerate(dots) if abs(dd) >= np.cos(np.radians(tol_deg))]
    return u, members


__all__ = ["assign_rows", "axial_mean", "common_axis", "merge_rows", "row_direction"]
