"""Corner refinement: move a detected tile's four corners onto the edges of
its cream face, found in the photo itself.

The oriented detector gives each tile a *rectangle*; a tile seen from the
side is a sheared quadrilateral, and the rectangle the detector learned for
it is often turned and too small (its corners are off by a median 17 % of
the tile's height on the player-style validation renders). The classifiers
read much better from the true corners, so before they read, each tile's
quad is refined here:

1. the region around the detected quad (grown by ``RefineConfig.search`` of its size on
   every side) is warped upright into a small patch where the tile is
   ``RefineConfig.patch_h`` pixels tall;
2. every pixel gets a *face-likeness*: how close its colour is to the tile's
   cream face (the brighter pixels in the middle of the detection);
3. each side is searched as a straight line (its two ends moved
   independently, so the side may turn): the line's score is the mean
   face-likeness of a thin strip just inside it minus that of a strip just
   outside -- the face ends there -- less a small pull towards the detected
   side;
4. the four lines' intersections are the refined corners, mapped back to the
   photo. They are kept only when plausible: each side's contrast above
   ``RefineConfig.min_contrast`` (else that side stays where the detector put it), a
   convex, nearly parallelogram quad (:func:`plausible`) whose area and
   aspect stay near the detection's.

The reader reads a tile whose corners moved from *both* quads and averages
the two readings (``reader.REFINED_MARGINS``): the refined corners alone
read worse than the detector's on the validation renders (76.5 vs 77.5 % of
tiles; the number model was fine-tuned on the detector's corners, and the
refined top edge often takes in the tile's lit top surface), the average
better (78.1 %). About 3 ms a tile (numpy on a ~60 x 90 patch), no model.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from okey_vision.vision.config import CropConfig, RefineConfig
from okey_vision.vision.crops import Quad, aligned, quad_axes

#: The shipped fitting settings.
DEFAULT = RefineConfig()



def face_likeness(patch: np.ndarray, centre: tuple[slice, slice], c: RefineConfig = DEFAULT) -> np.ndarray:
    """Per-pixel likeness (0..1) to the tile's face colour: the median Lab of
    the brighter half of the ``centre`` region (the ink left out)."""
    import cv2

    lab = cv2.cvtColor(patch, cv2.COLOR_BGR2LAB).astype(np.float32)
    mid = lab[centre].reshape(-1, 3)
    ref = np.median(mid[mid[:, 0] >= np.quantile(mid[:, 0], 0.5)], axis=0)
    d = np.abs(lab[..., 0] - ref[0]) + CropConfig.chroma_weight * np.hypot(lab[..., 1] - ref[1], lab[..., 2] - ref[2])
    result: np.ndarray = np.clip(1.0 - d / c.face_distance, 0.0, 1.0)
    return result


def edge_maps(f: np.ndarray, c: RefineConfig = DEFAULT) -> tuple[np.ndarray, np.ndarray]:
    """(vertical, horizontal) edge contrast of a face-likeness map: at each
    pixel, the mean of ``f`` over ``RefineConfig.strip`` pixels below (right) minus over
    the same pixels above (left) -- the face starting there, going down (right)."""
    import cv2

    r = max(c.strip)
    k = np.zeros(2 * r + 1, np.float32)
    for d in c.strip:
        k[r + d], k[r - d] = 1.0 / len(c.strip), -1.0 / len(c.strip)
    fv = cv2.filter2D(f.astype(np.float32), -1, k.reshape(-1, 1), borderType=cv2.BORDER_REPLICATE)
    fh = cv2.filter2D(f.astype(np.float32), -1, k.reshape(1, -1), borderType=cv2.BORDER_REPLICATE)
    return fv, fh


def _best_sides(maps: Sequence[np.ndarray], sides: Sequence[tuple[np.ndarray, np.ndarray, np.ndarray, float]],
                c: RefineConfig = DEFAULT, owner: Sequence[int] | None = None
                ) -> list[tuple[np.ndarray, np.ndarray, float]]:
    """For each side (p0, p1, inward unit normal, reach; patch px) the best line
    near it: its two ends each moved along ``inward`` by -reach..reach, coarse
    then fine, scored on its edge map (``maps[owner[k]]``, default ``maps[k]``;
    signed so the face lies inwards) as the mean contrast at ``RefineConfig.samples``
    points less ``RefineConfig.pull`` per px moved. Returns each side's moved ends
    and its line's contrast (every side, of every tile's patch, scored at once)."""
    t = np.linspace((1 - c.span) / 2, (1 + c.span) / 2, c.samples)
    owner = list(range(len(sides))) if owner is None else list(owner)
    shapes = np.array([m.shape for m in maps])
    starts = np.concatenate([[0], np.cumsum(shapes[:, 0] * shapes[:, 1])[:-1]])
    flat = np.concatenate([np.asarray(m, np.float32).ravel() for m in maps])
    base = starts[owner]
    hs, ws = shapes[owner, 0], shapes[owner, 1]
    p0 = np.array([sd[0] for sd in sides])
    p1 = np.array([sd[1] for sd in sides])
    nrm = np.array([sd[2] for sd in sides])

    def score(side: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        w, h = ws[side][:, None], hs[side][:, None]
        at = []
        for axis, size in ((0, w), (1, h)):  # each coordinate apart: two (n, samples) arrays, not one (n, samples, 2)
            q0 = p0[side, axis] + a * nrm[side, axis]
            q1 = p1[side, axis] + b * nrm[side, axis]
            v = q0[:, None] + t[None, :] * (q1 - q0)[:, None]
            at.append(np.clip(np.rint(v).astype(np.intp), 0, size - 1))
        contrast = flat[base[side][:, None] + at[1] * w + at[0]].mean(1)
        return contrast, contrast - c.pull * (np.abs(a) + np.abs(b)) / 2

    def best(counts: list[int], side: np.ndarray, a: np.ndarray, b: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        contrast, s = score(side, a, b)
        starts = np.concatenate([[0], np.cumsum(counts)[:-1]])  # each side's candidates lie together, in order
        peak = np.repeat(np.maximum.reduceat(s, starts), counts)
        first = np.minimum.reduceat(np.where(s == peak, np.arange(len(s)), len(s)), starts)  # argmax: the first
        return first, contrast

    grids = [np.arange(-sd[3], sd[3] + 1e-6, c.coarse_step) for sd in sides]
    mesh = [np.meshgrid(g, g) for g in grids]
    side = np.concatenate([np.full(g.size ** 2, k) for k, g in enumerate(grids)])
    a = np.concatenate([m[0].ravel() for m in mesh])
    b = np.concatenate([m[1].ravel() for m in mesh])
    top, _ = best([g.size ** 2 for g in grids], side, a, b)
    fine = np.arange(-(c.coarse_step - 1), c.coarse_step - 1 + 1e-6, 1.0)
    fa, fb = (v.ravel() for v in np.meshgrid(fine, fine))
    side2 = np.repeat(np.arange(len(sides)), fa.size)
    a2 = np.concatenate([a[i] + fa for i in top])
    b2 = np.concatenate([b[i] + fb for i in top])
    top2, c2 = best([fa.size] * len(sides), side2, a2, b2)
    return [(p0[k] + a2[j] * nrm[k], p1[k] + b2[j] * nrm[k], float(c2[j])) for k, j in enumerate(top2)]


def _intersect(a0: np.ndarray, a1: np.ndarray, b0: np.ndarray, b1: np.ndarray) -> np.ndarray | None:
    """Where lines a0-a1 and b0-b1 cross (None when nearly parallel)."""
    da, db = a1 - a0, b1 - b0
    den = da[0] * db[1] - da[1] * db[0]
    if abs(den) < 1e-6:
        return None
    s = ((b0[0] - a0[0]) * db[1] - (b0[1] - a0[1]) * db[0]) / den
    result: np.ndarray | None = a0 + s * da
    return result


def _convex(q: np.ndarray) -> bool:
    """True for a convex quad whose corners turn the same way (no twist)."""
    def cross(a: np.ndarray, b: np.ndarray) -> float:
        return float(a[0] * b[1] - a[1] * b[0])

    turns = [cross(q[(i + 1) % 4] - q[i], q[(i + 2) % 4] - q[(i + 1) % 4]) for i in range(4)]
    return all(c > 0 for c in turns) or all(c < 0 for c in turns)


def plausible(pq: np.ndarray, c: RefineConfig = DEFAULT) -> bool:
    """Whether a quad looks like a tile's face: convex, opposite sides nearly
    parallel (``RefineConfig.max_side_skew``), no corner sharper than ``RefineConfig.min_corner_angle``."""
    if not _convex(pq):
        return False
    edges = [pq[(i + 1) % 4] - pq[i] for i in range(4)]
    unit = [e / max(float(np.linalg.norm(e)), 1e-9) for e in edges]
    for i in range(2):  # opposite sides run in opposite directions round the quad
        if float(np.degrees(np.arccos(np.clip(-unit[i] @ unit[i + 2], -1, 1)))) > c.max_side_skew:
            return False
    for i in range(4):
        ang = float(np.degrees(np.arccos(np.clip(-unit[i - 1] @ unit[i], -1, 1))))
        if ang < c.min_corner_angle or ang > 180 - c.min_corner_angle:
            return False
    return True


@dataclass(frozen=True)
class _Patch:
    """One tile's search patch: its detected corners, the photo-to-patch
    homography, the detected quad on the patch, and its sides to search."""

    quad: np.ndarray
    to_patch: np.ndarray
    tw: float
    sides: list[tuple[np.ndarray, np.ndarray, np.ndarray, float]]
    maps: list[np.ndarray]


def _patch(img: np.ndarray, quad: Quad, c: RefineConfig) -> _Patch | None:
    """The tile's patch warped upright and its four signed edge maps (None: too small to fit)."""
    return _patches(img, [quad], c)[0]


def _patches(img: np.ndarray, quads: Sequence[Quad], c: RefineConfig) -> list[_Patch | None]:
    """:func:`_patch` of many tiles: each warped apart, their face-likeness
    computed side by side on one strip (the patches share a height)."""
    warped = [_warped(img, q, c) for q in quads]
    out: list[_Patch | None] = [None] * len(quads)
    live = [i for i, w in enumerate(warped) if w is not None]
    for lo in range(0, len(live), 255):  # a strip's tile number is a uint8 channel
        part = live[lo:lo + 255]
        for i, maps in zip(part, _strip_maps([w for w in (warped[i] for i in part) if w is not None], c),
                           strict=True):
            w = warped[i]
            assert w is not None  # `live` holds the tiles that were warped
            q, to_patch, tw, mx, my, _ = w
            rect = _rect(tw, mx, my, c)
            tl, tr, br, bl = rect
            down, rgt = np.array([0.0, 1.0]), np.array([1.0, 0.0])
            reach_v, reach_h = c.search * c.patch_h, c.search * tw
            sides = [(tl, tr, down, reach_v), (tr, br, -rgt, reach_h), (br, bl, -down, reach_v),
                     (bl, tl, rgt, reach_h)]
            gv, gh = maps
            out[i] = _Patch(q, to_patch, tw, sides, [gv, -gh, -gv, gh])
    return out


def _rect(tw: float, mx: float, my: float, c: RefineConfig) -> np.ndarray:
    """The detected quad in patch coordinates: an axis-aligned rectangle."""
    return np.array([[mx, my], [mx + tw, my], [mx + tw, my + c.patch_h], [mx, my + c.patch_h]], np.float64)


def _warped(img: np.ndarray, quad: Quad, c: RefineConfig
            ) -> tuple[np.ndarray, np.ndarray, float, float, float, np.ndarray] | None:
    """The tile's search region warped upright: (corners, photo-to-patch
    homography, the tile's width and the margins in the patch, the patch); None: too small to fit."""
    import cv2

    q = np.asarray(quad, np.float64).reshape(4, 2)
    _, _, w, h = quad_axes(q)
    if h < 4 or w < 3:
        return None
    s = c.patch_h / h
    tw = max(4.0, w * s)
    mx, my = c.search * tw + 4, c.search * c.patch_h + 4
    pw, ph = round(tw + 2 * mx), round(c.patch_h + 2 * my)
    rect = _rect(tw, mx, my, c)
    to_patch = cv2.getPerspectiveTransform(q.astype(np.float32), rect.astype(np.float32))
    m, src = to_patch, img
    if s < 0.5:  # shrinking a lot: a cheap pre-blur of the region stands in for area averaging
        inv = np.linalg.inv(m)
        corners = cv2.perspectiveTransform(np.array([[[0, 0], [pw, 0], [pw, ph], [0, ph]]], np.float32),
                                           inv)[0]
        H, W = img.shape[:2]
        x0, y0 = np.maximum(np.floor(corners.min(0)).astype(int) - 2, 0)
        x1, y1 = np.minimum(np.ceil(corners.max(0)).astype(int) + 3, [W, H])
        if x1 - x0 >= 2 and y1 - y0 >= 2:
            k = int((1.0 / s) // 2) * 2 + 1
            src = cv2.blur(img[y0:y1, x0:x1], (k, k))
            m = m @ np.array([[1, 0, x0], [0, 1, y0], [0, 0, 1]], np.float64)
    patch = cv2.warpPerspective(src, m, (pw, ph), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    return q, to_patch, tw, mx, my, patch


def _strip_maps(warped: Sequence[tuple[np.ndarray, np.ndarray, float, float, float, np.ndarray]],
                c: RefineConfig) -> list[tuple[np.ndarray, np.ndarray]]:
    """Each patch's (vertical, horizontal) edge maps (:func:`edge_maps` of its
    :func:`face_likeness`), the likeness computed on the patches laid side by side."""
    import cv2

    patches = [w[5] for w in warped]  # all ``patch_h`` + 2 * ``search`` margins tall
    strip = np.hstack(patches)
    widths = np.array([p.shape[1] for p in patches])
    starts = np.concatenate([[0], np.cumsum(widths)[:-1]])
    n = len(patches)
    lab8 = cv2.cvtColor(strip, cv2.COLOR_BGR2LAB)
    which = np.broadcast_to(np.repeat(np.arange(n, dtype=np.uint8), widths), strip.shape[:2]).copy()
    centre = np.zeros(strip.shape[:2], np.uint8)
    for (_, _, tw, mx, my, _), x in zip(warped, starts, strict=True):
        rows, cols = _centre(tw, mx, my, c)
        centre[rows, x + cols.start:x + cols.stop] = 1
    ranges = [0, n, 0, 256]
    # the centre's brighter half (L at or above its median, numpy's linear rule) ...
    cum = np.cumsum(cv2.calcHist([which, lab8], [0, 1], centre, [n, 256], ranges), 1)
    p = cum[:, -1].astype(np.int64)
    at = p * 0.5 + (1 + 0.5 * -1) - 1
    lo = np.floor(at).astype(np.int64)
    v_lo = (cum > lo[:, None]).argmax(1)
    v_hi = (cum > np.minimum(lo + 1, p - 1)[:, None]).argmax(1)
    thr = np.where((at - lo > 0) & (v_hi > v_lo), v_hi, v_lo)
    bright = centre * (lab8[..., 0] >= thr[which]).astype(np.uint8)
    # ... and its median Lab, each channel counted
    ref = np.empty((n, 3), np.float32)
    for ch in range(3):
        cum = np.cumsum(cv2.calcHist([which, lab8], [0, 1 + ch], bright, [n, 256], ranges), 1)
        cnt = cum[:, -1:]
        ref[:, ch] = ((cum > (cnt - 1) // 2).argmax(1).astype(np.float32)
                      + (cum > cnt // 2).argmax(1).astype(np.float32)) / 2
    lab = lab8.astype(np.float32)
    col = ref[which[0]]
    d = np.abs(lab[..., 0] - col[:, 0]) + CropConfig.chroma_weight * np.hypot(lab[..., 1] - col[:, 1],
                                                                              lab[..., 2] - col[:, 2])
    f = np.clip(1.0 - d / c.face_distance, 0.0, 1.0)
    # each patch filtered apart: OpenCV's filter sums in another order at another place in a row (last bits)
    return [edge_maps(np.ascontiguousarray(f[:, x:x + w]), c) for x, w in zip(starts, widths, strict=True)]


def _centre(tw: float, mx: float, my: float, c: RefineConfig) -> tuple[slice, slice]:
    """The middle of a tile's patch (``RefineConfig.centre_rows`` and
    ``centre_cols``), where its face's colour is taken."""
    cy0, cy1 = int(my + c.centre_rows[0] * c.patch_h), int(my + c.centre_rows[1] * c.patch_h)
    cx0, cx1 = int(mx + c.centre_cols[0] * tw), int(mx + c.centre_cols[1] * tw) + 1
    return slice(cy0, cy1), slice(cx0, cx1)


def _fitted(p: _Patch, best: Sequence[tuple[np.ndarray, np.ndarray, float]], c: RefineConfig
            ) -> tuple[Quad, int]:
    """The tile's corners from its sides' best lines, if plausible (else as detected, 0 moved)."""
    import cv2

    q = p.quad
    lines, moved = [], 0
    for k, ((p0, p1, _, _), (a, b, contrast)) in enumerate(zip(p.sides, best, strict=True)):
        if contrast >= (c.min_contrast if k % 2 == 0 else c.min_contrast_side):
            lines.append((a, b))
            moved += 1
        else:
            lines.append((p0, p1))
    if moved == 0:
        return q, 0
    new = []
    for i in range(4):  # corner i lies on side i-1 and side i (TL: left and top)
        corner = _intersect(*lines[i - 1], *lines[i])
        if corner is None:
            return q, 0
        new.append(corner)
    pq = np.array(new)
    if not plausible(pq, c):
        return q, 0
    area0 = p.tw * c.patch_h
    area = 0.5 * abs(np.dot(pq[:, 0], np.roll(pq[:, 1], 1)) - np.dot(pq[:, 1], np.roll(pq[:, 0], 1)))
    _, _, nw, nh = quad_axes(pq)
    if not c.area_ratio[0] <= area / area0 <= c.area_ratio[1]:
        return q, 0
    if not c.aspect_ratio[0] <= (nh / max(nw, 1e-6)) / (c.patch_h / p.tw) <= c.aspect_ratio[1]:
        return q, 0
    back = cv2.perspectiveTransform(pq[None].astype(np.float32), np.linalg.inv(p.to_patch))[0]
    return back.astype(np.float64), moved


def refine_quads(img: np.ndarray, quads: Sequence[Quad], c: RefineConfig = DEFAULT) -> list[tuple[Quad, int]]:
    """:func:`refine_quad` of many tiles, their sides searched together (one
    scoring over every patch: the same corners, a fraction of the numpy calls)."""
    patches = _patches(img, quads, c)
    live = [p for p in patches if p is not None]
    found = _best_sides([m for p in live for m in p.maps], [sd for p in live for sd in p.sides], c) if live else []
    out: list[tuple[Quad, int]] = []
    k = 0
    for quad, p in zip(quads, patches, strict=True):
        if p is None:
            out.append((np.asarray(quad, np.float64).reshape(4, 2), 0))
            continue
        out.append(_fitted(p, found[4 * k:4 * k + 4], c))
        k += 1
    return out


def refine_quad(img: np.ndarray, quad: Quad, c: RefineConfig = DEFAULT) -> tuple[Quad, int]:
    """The tile's corners fitted to its face's edges in ``img`` (BGR), in the
    order of ``quad`` (TL, TR, BR, BL as ordered by ``crops.upright_quad``),
    and how many of its sides moved (0: the detection kept as it is)."""
    return refine_quads(img, [quad], c)[0]


def refine_all(img: np.ndarray, quads: Sequence[Quad], c: RefineConfig = DEFAULT) -> list[tuple[Quad, int]]:
    """:func:`refine` of many tiles, each pass fitting every tile still moving at once."""
    out: list[tuple[Quad, int]] = [(np.asarray(q, np.float64), 0) for q in quads]
    todo = list(range(len(quads)))
    for _ in range(c.passes):
        if not todo:
            break
        got = refine_quads(img, [out[i][0] for i in todo], c)
        for i, r in zip(todo, got, strict=True):
            out[i] = r
        todo = [i for i, (_, moved) in zip(todo, got, strict=True) if moved]
    return out


def refine(img: np.ndarray, quad: Quad, c: RefineConfig = DEFAULT) -> tuple[Quad, int]:
    """:func:`refine_quad` repeated ``passes`` times (default ``RefineConfig.passes``), each
    pass searching in the frame of the last: (corners, sides moved in the last pass)."""
    return refine_all(img, [quad], c)[0]


def shift(new: Quad, old: Quad) -> float:
    """Mean distance between two quads' corners (either corner order), over
    the old quad's height."""
    b = np.asarray(old, np.float64)
    d = float(np.linalg.norm(aligned(new, b) - b, axis=1).mean())
    return d / max(quad_axes(b)[3], 1e-6)


__all__ = ["refine", "refine_all", "refine_quad", "refine_quads", "shift", "plausible", "face_likeness", "edge_maps"]
