"""The row geometry stage: one geometry per rack row.

Tiles standing in one rack row share their top and bottom lines and have
nearly equal widths; each tile's own corners (its detection, fitted to its
face) are noisier than that. So each row of reads (rows from
:func:`okey_vision.vision.order.assign_rows`) is fitted as one, in the
row's own frame (``u`` along the row, ``v`` down across it):

1. the row's top line through its tiles' top corners, and its bottom line
   through their bottom corners (Theil-Sen fits: the median of the pairwise
   slopes, so a stray corner does not tilt the line); a corner lying within
   ``GeometryConfig.snap`` tile heights of its line is moved onto it, one
   farther off (a tile standing proud of the row) keeps its own;
2. the tiles' sides lean as the row's do: the lean a straight line in the
   side's place along the row (a Theil-Sen fit again), since a row seen in
   perspective has its upright edges meeting at a vanishing point
   (``GeometryConfig.perspective``; off: the row's median lean);
3. each tile's width is set from the row's width-to-height ratio where its
   own departs from it by more than ``GeometryConfig.width_tolerance``;
4. tiles touching side by side share the space between the group's outer
   edges evenly (``GeometryConfig.even``);
5. two neighbours that still overlap meet at the middle of their overlap,
   so no quad covers its neighbour;
6. given the photo, the edge between two touching tiles is moved onto the
   groove between them (``GeometryConfig.seams``), and a side with no
   touching neighbour onto the step from the bright face to what lies
   beside it (``GeometryConfig.outer``), and the row's top and bottom
   lines onto the steps above and below its faces (``GeometryConfig.lines``);
7. last, in every row (fitted or not), a quad still covering a neighbour's
   by more than ``GeometryConfig.max_overlap`` is cut back.

A row of fewer than ``GeometryConfig.min_tiles`` tiles, and a tile apart
from the rows, keep their own corners.

>>> from okey_vision.tiles import parse_tile
>>> q = lambda x, y, w: ((x, y), (x + w, y), (x + w, y + 14), (x, y + 14))
>>> reads = [TileRead((0, 0, 1, 1), parse_tile("r1"), 1.0, quad=q(x, y, w))
...          for x, y, w in ((0, 0.0, 10), (10, 0.4, 10), (20, -0.3, 11.5), (30, 0.1, 10))]
>>> [[round(c, 1) for c in r.quad[0]] for r in fit_rows(reads)]
[[0.0, 0.1], [10.0, 0.1], [20.0, 0.1], [30.0, 0.1]]
>>> worst_overlap(reads) > 0.1, worst_overlap(fit_rows(reads)) <= 0.0
(True, True)
"""

from __future__ import annotations

from collections.abc import Sequence
from itertools import pairwise
from typing import NamedTuple

import numpy as np

from okey_vision.vision.config import GeometryConfig
from okey_vision.vision.reads import APART, TileRead
from okey_vision.vision.resize import shrink_by


def theil_sen(x: np.ndarray, y: np.ndarray) -> tuple[float, float]:
    """The line ``y = a + b x`` through points: ``b`` the median of the
    pairwise slopes, ``a`` the median of ``y - b x``.

    >>> theil_sen(np.array([0.0, 1, 2, 3, 4]), np.array([1.0, 3, 5, 7, 40]))
    (1.0, 2.0)
    """
    i, j = np.triu_indices(len(x), 1)
    dx = x[j] - x[i]
    ok = np.abs(dx) > 1e-9
    b = float(np.median((y[j] - y[i])[ok] / dx[ok])) if ok.any() else 0.0
    return float(np.median(y - b * x)), b


def _frame(quads: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The row's unit right and down vectors from its quads (n, 4, 2: TL, TR, BR, BL)."""
    right = (quads[:, 1] - quads[:, 0] + quads[:, 2] - quads[:, 3]).sum(0)
    right = right / max(float(np.hypot(*right)), 1e-9)
    return right, np.array([-right[1], right[0]])


def _fit_row(quads: np.ndarray, config: GeometryConfig) -> np.ndarray:
    """One row's quads (n, 4, 2, left to right or in any order) fitted as one."""
    right, down = _frame(quads)
    u, v = quads @ right, quads @ down                      # (n, 4) each
    height = float(np.median((v[:, 2] + v[:, 3] - v[:, 0] - v[:, 1]) / 2))
    if height <= 0:
        return quads
    top = theil_sen(np.concatenate([u[:, 0], u[:, 1]]), np.concatenate([v[:, 0], v[:, 1]]))
    bottom = theil_sen(np.concatenate([u[:, 3], u[:, 2]]), np.concatenate([v[:, 3], v[:, 2]]))
    # the sides' lean: du per dv, the median over every side of the row
    sides = np.concatenate([(u[:, 3] - u[:, 0]) / np.maximum(v[:, 3] - v[:, 0], 1e-9),
                            (u[:, 2] - u[:, 1]) / np.maximum(v[:, 2] - v[:, 1], 1e-9)])
    at = np.concatenate([(u[:, 0] + u[:, 3]) / 2, (u[:, 1] + u[:, 2]) / 2])   # where each side stands
    if config.perspective and len(quads) >= 3:
        lean_at = theil_sen(at, sides)
    else:
        lean_at = (float(np.median(sides)), 0.0)

    def lean(x: np.ndarray) -> np.ndarray:
        return lean_at[0] + lean_at[1] * x
    vm = (v.sum(1) / 4)                                      # each tile's middle, across the row
    lu, ru = (u[:, 0] + u[:, 3]) / 2, (u[:, 1] + u[:, 2]) / 2
    left = lu + lean(lu) * (vm - (v[:, 0] + v[:, 3]) / 2)   # sides at mid-height
    rgt = ru + lean(ru) * (vm - (v[:, 1] + v[:, 2]) / 2)
    centre = (left + rgt) / 2
    tall = (bottom[0] + bottom[1] * centre) - (top[0] + top[1] * centre)
    ratio = float(np.median((rgt - left) / np.maximum(tall, 1e-9)))
    wide = ratio * tall
    off = np.abs((rgt - left) / np.maximum(wide, 1e-9) - 1.0) > config.width_tolerance
    left = np.where(off, centre - wide / 2, left)
    rgt = np.where(off, centre + wide / 2, rgt)
    order = np.argsort(centre)
    if config.even:
        _even_edges(order, left, rgt, tall, wide, config)
    for a, b in pairwise(order):     # neighbours meet, never cover each other
        if rgt[a] > left[b]:
            mid = (rgt[a] + left[b]) / 2
            rgt[a], left[b] = mid, mid
    out: np.ndarray = quads.copy()
    snap = config.snap * height
    for i in range(len(quads)):
        for k, (side, line) in enumerate(((left, top), (rgt, top), (rgt, bottom), (left, bottom))):
            edge = side[i]
            a, b = line
            tilt = float(lean(np.array(edge)))
            # the side line u = edge + tilt (v - vm[i]) meets the row line v = a + b u
            vv = (a + b * (edge - tilt * vm[i])) / (1.0 - b * tilt)
            if abs(vv - v[i, k]) > snap:                     # this corner stands off the row's line
                vv = v[i, k]
            uu = edge + tilt * (vv - vm[i])
            out[i, k] = uu * right + vv * down
    return out


def _even_edges(order: np.ndarray, left: np.ndarray, rgt: np.ndarray, tall: np.ndarray, wide: np.ndarray,
                config: GeometryConfig) -> None:
    """Tiles touching side by side (gaps under ``config.touch`` of a width):
    the edges between them spaced evenly (each tile's width in proportion
    to its height, for a row seen at a slant) between the group's two outer
    edges, which stand against the background and are found surely. A group
    whose span is not its tiles' widths (within ``config.span_tolerance``:
    a tile missed inside it) keeps its own edges. Changes ``left`` and ``rgt``."""
    groups = [[int(order[0])]]
    for a, b in pairwise(order):
        if left[b] - rgt[a] < config.touch * wide[a]:
            groups[-1].append(int(b))
        else:
            groups.append([int(b)])
    for g in groups:
        if len(g) < 2:
            continue
        lo, hi = float(left[g[0]]), float(rgt[g[-1]])
        if abs((hi - lo) / max(float(wide[g].sum()), 1e-9) - 1.0) > config.span_tolerance:
            continue
        edges = lo + np.concatenate([[0.0], np.cumsum(tall[g])]) / float(tall[g].sum()) * (hi - lo)
        left[g], rgt[g] = edges[:-1], edges[1:]


def _grey(image: np.ndarray, quads: np.ndarray, config: GeometryConfig) -> tuple[np.ndarray, np.ndarray, float]:
    """The photo's grey pixels about a row's quads (as far out as the searches
    reach, a third of a tile), shrunk by a whole factor so a tile is under
    twice ``config.search_height`` px tall, and blurred by ``config.seam_blur`` of
    its height (float32); the crop's top-left corner in the photo, and the
    scale from photo px to the crop's."""
    import cv2

    h, w = image.shape[:2]
    tall = float(np.median(np.hypot(*(quads[:, 3] - quads[:, 0]).T)))
    lo = np.clip(np.floor(quads.reshape(-1, 2).min(0) - tall / 3).astype(int), 0, [w, h])
    hi = np.clip(np.ceil(quads.reshape(-1, 2).max(0) + tall / 3).astype(int), 0, [w, h])
    # a 12 MP photo's tiles are 300-600 px tall: their edges show as well
    # shrunk by a whole factor (OpenCV's fast area average), and cost less
    k = max(1, int(tall // config.search_height))
    part = shrink_by(image[lo[1]:max(hi[1], lo[1] + k), lo[0]:max(hi[0], lo[0] + k)], k)
    grey = cv2.cvtColor(part, cv2.COLOR_BGR2GRAY) if part.ndim == 3 else part
    scale = 1.0 / k
    sigma = max(config.seam_blur * tall * scale, 0.5)
    blurred: np.ndarray = cv2.GaussianBlur(grey.astype(np.float32), (0, 0), sigma)
    return blurred, lo.astype(np.float64), scale


class _Across(NamedTuple):
    """What a row's searches across its tiles share (:func:`_seams`, :func:`_outer_sides`)."""

    right: np.ndarray           # the row's axis along it
    down: np.ndarray            # and across it
    wide: float                 # its tiles' width
    pairs: list[tuple[int, int]]  # its touching neighbours, left to right
    dt: np.ndarray              # each candidate line's shift at the top end
    db: np.ndarray              # and at the bottom end
    t: np.ndarray               # where along a line the photo is sampled
    half: float                 # how far to either side of a line it is sampled


def _across(quads: np.ndarray, reach: float, config: GeometryConfig) -> _Across | None:
    """A row's axes, tiles' width, touching neighbours and candidate lines
    within ``reach`` of a tile's width of a side; None when its tiles are too
    narrow (under 6 px) to search."""
    right, down = _frame(quads)
    u = quads @ right
    wide = _width(u)
    if wide < 6:
        return None
    pairs = [(int(a), int(b)) for a, b in pairwise(np.argsort(u.mean(1)))
             if _touch(quads, int(a), int(b), config.touch * wide)]
    dt, db = _shifts(reach * wide)
    return _Across(right, down, wide, pairs, dt, db, np.linspace(0.15, 0.85, 15), config.seam_width * wide)


def _seams(seen: tuple[np.ndarray, np.ndarray, float], quads: np.ndarray, config: GeometryConfig) -> np.ndarray:
    """A row's quads (n, 4, 2, standing one way up) with the edge between each
    two touching neighbours moved onto the seam between them in the photo
    (``seen``: the row's grey pixels, their origin and scale, :func:`_grey`; so below):
    the straight line, its two ends each within ``config.seam_reach`` of a
    tile's width of where the fit put them, along which the photo is darkest
    against either side (the groove between two tiles), kept where that
    groove is at least ``config.seam_contrast`` grey levels deep."""
    out: np.ndarray = quads.copy()
    row = _across(quads, config.seam_reach, config)
    if row is None or not row.pairs:          # not touching: each keeps its own side
        return out
    right, down, wide, pairs, dt, db, t, half = row
    grey, origin, scale = seen
    first, second = np.array(pairs).T
    tops, bots = (quads[first, 1] + quads[second, 0]) / 2, (quads[first, 2] + quads[second, 3]) / 2
    x, y = _slid(tops, bots, t, dt, db, origin, right)        # every seam's candidates at once
    hx, hy = half * right
    depths = ((_sample(grey, x, y, scale, -hx, -hy) + _sample(grey, x, y, scale, hx, hy)) / 2
              - _sample(grey, x, y, scale)).mean(2)
    pull = config.seam_pull * (np.abs(dt) + np.abs(db)) / wide
    for (a, b), top, bot, depth in zip(pairs, tops, bots, depths, strict=True):
        k = int(np.argmax(depth - pull))
        if depth[k] < config.seam_contrast:
            continue
        p0, p1 = top + dt[k] * right, bot + db[k] * right
        for i, corners in ((a, (1, 2)), (b, (0, 3))):
            for c in corners:           # each corner slid along the row onto the seam's line
                d = p1 - p0
                den = float(d @ down)
                if abs(den) < 1e-9:
                    continue
                s = float((quads[i, c] - p0) @ down) / den
                out[i, c] = quads[i, c] + float((p0 + s * d - quads[i, c]) @ right) * right
    return out


def _outer_sides(seen: tuple[np.ndarray, np.ndarray, float], quads: np.ndarray, config: GeometryConfig) -> np.ndarray:
    """A row's quads (n, 4, 2, standing one way up) with each side that has no
    touching neighbour moved onto the photo's edge of the face there: the
    straight line, its two ends each within ``config.outer_reach`` of a tile's
    width of the side, across which the photo steps most from bright (the
    face) to dark, kept where the step is at least ``config.outer_contrast``
    grey levels."""
    out: np.ndarray = quads.copy()
    row = _across(quads, config.outer_reach, config)
    if row is None:
        return out
    right, _, wide, pairs, dt, db, t, half = row
    grey, origin, scale = seen
    touching = {side for a, b in pairs for side in ((a, 1), (b, 0))}  # (tile, corner pair 0: left side, 1: right side)
    sides = [(i, c0, c1, inward) for i in range(len(quads))
             for k, (c0, c1), inward in ((0, (0, 3), 1.0), (1, (1, 2), -1.0)) if (i, k) not in touching]
    if not sides:
        return out
    tile, c0s, c1s, inwards = (np.array(v) for v in zip(*sides, strict=True))
    x, y = _slid(quads[tile, c0s], quads[tile, c1s], t, dt, db, origin, right)   # every side's candidates at once
    hx, hy = (inwards * half)[:, None, None] * right[0], (inwards * half)[:, None, None] * right[1]
    steps = (_sample(grey, x, y, scale, hx, hy) - _sample(grey, x, y, scale, -hx, -hy)).mean(2)
    pull = config.seam_pull * (np.abs(dt) + np.abs(db)) / wide
    for (i, c0, c1, _), step in zip(sides, steps, strict=True):
        j = int(np.argmax(step - pull))
        if step[j] >= config.outer_contrast:
            top, bot = quads[i, c0], quads[i, c1]
            out[i, c0], out[i, c1] = top + dt[j] * right, bot + db[j] * right
    return out


def _row_lines(seen: tuple[np.ndarray, np.ndarray, float], quads: np.ndarray, config: GeometryConfig) -> np.ndarray:
    """A row's quads (n, 4, 2, standing one way up) with its top line, and
    then its bottom line, moved onto the photo's step from the faces to what
    lies above (below) them: each end of the line moved alone, within
    ``config.line_reach`` of a tile's height, to where the photo along the
    tiles' tops (bottoms) steps most from bright to dark outwards, kept where
    the step is at least ``config.outer_contrast`` grey levels."""
    right, down = _frame(quads)
    out: np.ndarray = quads.copy()
    u, v = quads @ right, quads @ down
    tall = float(np.median((v[:, 2] + v[:, 3] - v[:, 0] - v[:, 1]) / 2))
    if tall < 6:
        return out
    grey, origin, scale = seen
    e0, e1 = _shifts(config.line_reach * tall)
    t = np.linspace(0.15, 0.85, 9)
    half = config.seam_width * tall
    lo, span = float(u.min()), max(float(np.ptp(u)), 1e-9)
    for (c0, c1), inward in (((0, 1), 1.0), ((3, 2), -1.0)):
        p = np.concatenate([quads[:, c0] + t_ * (quads[:, c1] - quads[:, c0]) for t_ in t])     # (k, 2)
        w = (p @ right - lo) / span
        shift = (1 - w)[None, :] * e0[:, None] + w[None, :] * e1[:, None]          # (m, k) along down
        x, y = (p[:, 0] - origin[0])[None] + shift * down[0], (p[:, 1] - origin[1])[None] + shift * down[1]
        hx, hy = inward * half * down
        step = (_sample(grey, x, y, scale, hx, hy) - _sample(grey, x, y, scale, -hx, -hy)).mean(1)
        j = int(np.argmax(step - config.seam_pull * (np.abs(e0) + np.abs(e1)) / tall))
        if step[j] < config.outer_contrast:
            continue
        for c in (c0, c1):
            wc = (quads[:, c] @ right - lo) / span
            out[:, c] = quads[:, c] + ((1 - wc) * e0[j] + wc * e1[j])[:, None] * down
    return out


def _width(u: np.ndarray) -> float:
    """A row's median tile width from its corners along the row (``u``: n, 4)."""
    return float(np.median(u[:, 1] + u[:, 2] - u[:, 0] - u[:, 3]) / 2)


def _shifts(reach: float) -> tuple[np.ndarray, np.ndarray]:
    """Every pair of shifts of a line's two ends, each within ``reach`` px in
    steps of a twelfth of it (at least 1 px): the candidates the photo searches score."""
    offs = np.arange(-reach, reach + 1e-6, max(1.0, reach / 12))
    first, second = np.meshgrid(offs, offs)
    return first.ravel(), second.ravel()


def _touch(quads: np.ndarray, a: int, b: int, limit: float) -> bool:
    """Whether quad ``a``'s right side meets quad ``b``'s left side within ``limit`` px at both ends."""
    gaps = (np.hypot(*(quads[a, 1] - quads[b, 0])), np.hypot(*(quads[a, 2] - quads[b, 3])))
    return bool(max(gaps) <= limit)


def _slid(top: np.ndarray, bot: np.ndarray, t: np.ndarray, dt: np.ndarray, db: np.ndarray,
          origin: np.ndarray, right: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Points at fractions ``t`` along the lines top-bot (``top``, ``bot``: ..., 2;
    crop px from ``origin``), for each candidate shift of their ends (``dt``,
    ``db``) along ``right``: their x and y, (..., m, k) each."""
    along = top[..., None, :] + t[:, None] * (bot - top)[..., None, :]         # (..., k, 2)
    shift = (1 - t)[None, :] * dt[:, None] + t[None, :] * db[:, None]          # (m, k)
    # x and y apart: the photo searches sample them as flat arrays, not a strided last axis
    return ((along[..., 0] - origin[0])[..., None, :] + shift * right[0],
            (along[..., 1] - origin[1])[..., None, :] + shift * right[1])


def _sample(grey: np.ndarray, x: np.ndarray, y: np.ndarray, scale: float,
            dx: float | np.ndarray = 0.0, dy: float | np.ndarray = 0.0) -> np.ndarray:
    """The grey levels at points (``x + dx``, ``y + dy``: photo px from the
    crop's corner, times ``scale`` on the crop), the nearest pixel's, clipped to it."""
    gh, gw = grey.shape
    # moved, scaled, rounded and clipped in place, one flat index: a row's
    # searches sample some 300 000 points, and temporaries were most of their time
    xs, ys = x + dx, y + dy
    xs *= scale
    ys *= scale
    np.minimum(np.maximum(np.rint(xs, out=xs), 0, out=xs), gw - 1, out=xs)
    np.minimum(np.maximum(np.rint(ys, out=ys), 0, out=ys), gh - 1, out=ys)
    ys *= gw
    ys += xs                                  # exact: whole numbers far below 2**53
    got: np.ndarray = grey.ravel().take(ys.astype(np.intp), mode="clip")
    return got


def fit_rows(reads: Sequence[TileRead], config: GeometryConfig | None = None,
             size: tuple[int, int] | None = None, image: np.ndarray | None = None) -> list[TileRead]:
    """The reads with each row's quads fitted as one (see the module's doc);
    boxes follow the quads (clipped to a photo of ``size``, width and height,
    when given); with the photo (``image``, BGR), the edges between touching
    neighbours found on it (:func:`_seams`)."""
    config = config or GeometryConfig()
    out = list(reads)
    if not config.fit:
        return out
    astray: set[int] = set()          # reads that keep their own corners (fitted rows' tiles or none)
    for row in sorted({r.row for r in reads if r.row != APART}):
        idx = [i for i, r in enumerate(reads) if r.row == row and r.quad is not None and len(r.quad) == 4]
        if len(idx) < config.min_tiles:
            continue
        quads = np.array([reads[i].quad for i in idx], np.float64)
        # tiles read the other way up than most of the row: their corners turned to match, and back after
        up = quads[:, 0] + quads[:, 1] - quads[:, 2] - quads[:, 3]
        flipped = (up @ up.sum(0)) < 0
        quads[flipped] = np.roll(quads[flipped], 2, axis=1)
        # only the tiles standing along the row's way (not a tile lying turned on a table)
        rights = quads[:, 1] - quads[:, 0] + quads[:, 2] - quads[:, 3]
        rights /= np.maximum(np.hypot(rights[:, 0], rights[:, 1]), 1e-9)[:, None]
        along = rights @ _frame(quads)[0] >= np.cos(np.radians(config.max_turn))
        if along.sum() < config.min_tiles:
            continue
        astray |= {i for i, k in zip(idx, along, strict=True) if not k}
        idx = [i for i, k in zip(idx, along, strict=True) if k]
        quads, flipped = quads[along], flipped[along]
        fitted = _fit_row(quads, config)
        fitted[flipped] = np.roll(fitted[flipped], 2, axis=1)
        quads[flipped] = np.roll(quads[flipped], 2, axis=1)
        kept = []
        for i, q, own in zip(idx, fitted, quads, strict=True):
            tall = float(np.hypot(*(own[3] - own[0])))
            moved = float(np.hypot(*(q - own).T).max()) if np.isfinite(q).all() else np.inf
            gone = moved > config.max_move * tall or not _convex(q) or _iou(q, own) < config.keep_iou
            kept.append(own if gone else q)  # a fit gone astray: the tile keeps its own corners
            if gone:
                astray.add(i)
        final = np.array(kept)
        final[flipped] = np.roll(final[flipped], 2, axis=1)
        parted = _parted(final)
        for k in range(len(final)):  # a side moved too far apart keeps the fit's
            if _iou(parted[k], quads[k]) >= config.keep_iou:
                final[k] = parted[k]
        if image is not None and (config.seams or config.outer or config.lines):
            seen = _grey(image, final, config)    # the row's part of the photo, once
            seamed = _seams(seen, final, config) if config.seams else final
            if config.outer:
                seamed = _outer_sides(seen, seamed, config)
            if config.lines:
                seamed = _row_lines(seen, seamed, config)
            for k in range(len(final)):
                if _convex(seamed[k]) and _iou(seamed[k], quads[k]) >= config.keep_iou:
                    final[k] = seamed[k]
        final[flipped] = np.roll(final[flipped], 2, axis=1)
        for i, q in zip(idx, final, strict=True):
            out[i] = reads[i].outlined(q, size)
    fitted_rows = {out[i].row for i in range(len(out)) if out[i] is not reads[i]}
    for row in sorted({r.row for r in reads if r.row != APART}):
        idx = [i for i, r in enumerate(out) if r.row == row and r.quad is not None and len(r.quad) == 4]
        loose = {i for i in idx if row not in fitted_rows or i in astray}
        for i, q in _apart(out, idx, loose, config).items():
            out[i] = out[i].outlined(q, size)
    return out


def _apart(reads: Sequence[TileRead], idx: Sequence[int], loose: set[int], config: GeometryConfig
           ) -> dict[int, np.ndarray]:
    """The quads of one row's reads (``idx``) that still cover a neighbour's
    by more than ``config.max_overlap`` of the smaller one, cut back: a tile
    that kept its own corners (in ``loose``: its fit went astray, or its row
    was not fitted) beside a fitted one stops at the fitted one's side; two
    alike are cut at the line through their overlap's middle, across the
    line between their centres. Returns the quads changed, by read index."""
    quads = {i: np.asarray(reads[i].quad, np.float64) for i in idx}
    changed: dict[int, np.ndarray] = {}
    for n, a in enumerate(idx):
        for b in idx[n + 1:]:
            qa, qb = quads[a], quads[b]
            if _polygon_overlap(qa, qb) <= config.max_overlap:
                continue
            cuts: list[tuple[int, np.ndarray, np.ndarray]] = []
            if (a in loose) != (b in loose):
                firm, soft = (b, a) if a in loose else (a, b)
                p, nrm = _facing_side(quads[firm], quads[soft].mean(0))
                cuts.append((soft, p, nrm))
            else:
                import cv2

                _, inter = cv2.intersectConvexConvex(qa.astype(np.float32), qb.astype(np.float32))
                if inter is None or not len(inter):
                    continue
                p = np.asarray(inter, np.float64).reshape(-1, 2).mean(0)
                nrm = qb.mean(0) - qa.mean(0)
                nrm /= max(float(np.hypot(*nrm)), 1e-9)
                cuts += [(a, p, -nrm), (b, p, nrm)]
            for k, p, nrm in cuts:
                cut = _clip(quads[k], p, nrm)
                if _convex(cut):
                    quads[k] = changed[k] = cut
    return changed


def _facing_side(q: np.ndarray, towards: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """The side of a convex quad that faces a point: a point on it and its outward unit normal."""
    centre = q.mean(0)
    best: tuple[float, np.ndarray, np.ndarray] | None = None
    for k in range(4):
        p0, p1 = q[k], q[(k + 1) % 4]
        nrm = np.array([p1[1] - p0[1], p0[0] - p1[0]])
        nrm /= max(float(np.hypot(*nrm)), 1e-9)
        mid = (p0 + p1) / 2
        if (mid - centre) @ nrm < 0:
            nrm = -nrm
        facing = float((towards - centre) @ nrm)
        if best is None or facing > best[0]:
            best = (facing, mid, nrm)
    assert best is not None
    return best[1], best[2]


def _clip(q: np.ndarray, p: np.ndarray, nrm: np.ndarray) -> np.ndarray:
    """A quad (TL, TR, BR, BL) kept on the side of the line through ``p`` that
    ``nrm`` points to: each corner beyond the line slid along the tile's top or
    bottom (else its side) onto the line."""
    side = (q - p) @ nrm
    out: np.ndarray = q.copy()
    for k in range(4):
        if side[k] >= 0:
            continue
        for j in ((1, 0, 3, 2)[k], (3, 2, 1, 0)[k]):     # along the width first, else along the height
            if side[j] > 0:
                out[k] = q[k] + (q[j] - q[k]) * side[k] / (side[k] - side[j])
                break
    return out


def _parted(quads: np.ndarray) -> np.ndarray:
    """Quads of one row (all standing one way up) whose neighbours still
    overlap along the row (a tile that kept its own corners) by less than half
    a tile: the two sides that cross moved to meet halfway, each corner only
    inwards (two quads that do not touch, one above the other, are left)."""
    right, _ = _frame(quads)
    out: np.ndarray = quads.copy()
    u = out @ right
    width = np.median(u[:, 1] + u[:, 2] - u[:, 0] - u[:, 3]) / 2
    for a, b in pairwise(np.argsort(u.mean(1))):
        if _polygon_overlap(quads[a], quads[b]) <= 0.0:  # tiles one above the other in a merged row: not neighbours
            continue
        for ka, kb in ((1, 0), (2, 3)):                      # a's TR meets b's TL, a's BR meets b's BL
            over = u[a, ka] - u[b, kb]
            if 0 < over < width / 2:
                out[a, ka] -= over / 2 * right
                out[b, kb] += over / 2 * right
    return out


#: Each corner's next one round a quad (np.roll's order, without its cost in a loop over tiles).
_NEXT = np.array([1, 2, 3, 0])


def _convex(q: np.ndarray) -> bool:
    """Whether a quad's corners are finite and turn one way round (no side crosses another)."""
    if not np.isfinite(q).all():
        return False
    e = q[_NEXT] - q
    cross = e[:, 0] * e[_NEXT, 1] - e[:, 1] * e[_NEXT, 0]
    return bool((cross > 0).all() or (cross < 0).all())


def _iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads (0 for a degenerate one)."""
    import cv2

    pa, pb = np.asarray(a, np.float32), np.asarray(b, np.float32)
    ha, hb = cv2.convexHull(pa), cv2.convexHull(pb)
    inter, _ = cv2.intersectConvexConvex(ha, hb)
    union = abs(cv2.contourArea(ha)) + abs(cv2.contourArea(hb)) - inter
    return float(inter) / union if union > 0 and np.isfinite(union) else 0.0


def _polygon_overlap(a: np.ndarray, b: np.ndarray) -> float:
    """The area two convex quads share over the smaller one's area."""
    import cv2

    inter, _ = cv2.intersectConvexConvex(np.asarray(a, np.float32), np.asarray(b, np.float32))
    small = min(abs(cv2.contourArea(np.asarray(a, np.float32))), abs(cv2.contourArea(np.asarray(b, np.float32))))
    return float(inter) / small if small > 0 else 0.0


def worst_overlap(reads: Sequence[TileRead]) -> float:
    """The largest share of a read's quad that a neighbour in its row covers (0: none overlap)."""
    worst = 0.0
    for row in {r.row for r in reads if r.row != APART}:
        quads = [np.asarray(r.quad, np.float64) for r in reads if r.row == row and r.quad is not None]
        for i in range(len(quads)):
            for j in range(i + 1, len(quads)):
                worst = max(worst, _polygon_overlap(quads[i], quads[j]))
    return worst


__all__ = ["fit_rows", "theil_sen", "worst_overlap"]
