"""The fuse stage: the boxes of several detector passes joined into one box a tile.

- :func:`fuse_passes`: two passes over one image (as it is and mirrored): a
  box both found gets their corners averaged, weighted by score (it sits
  better on its tile); a box one pass alone found is kept from a score.
- :func:`rectify_rows`: each leaning rack row warped level and square-on
  (:mod:`okey_vision.vision.rectify`) and read again; those boxes fused in
  (:func:`fuse_rectified`).
- :func:`drop_cut_tiles`: tiles cut by the photo's edge, too little showing to read.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from okey_vision.vision import rectify
from okey_vision.vision.config import DetectConfig, FuseConfig, RectifyConfig
from okey_vision.vision.crops import Quad, aligned, quad_axes, upright_quad
from okey_vision.vision.detect import Detection, Detector, dedupe, quad_iou


def averaged(a: Detection, b: Detection, score: float) -> Detection:
    """One detection from two of one tile: corners averaged, weighted by score."""
    wa, wb = a.score, b.score
    q = (wa * np.asarray(a.quad) + wb * aligned(b.quad, a.quad)) / (wa + wb)
    return Detection(upright_quad(q), score, a.oriented or b.oriented)


def fuse_passes(first: Sequence[Detection], second: Sequence[Detection], config: FuseConfig | None = None
                ) -> list[Detection]:
    """Detections of two passes over one image, fused: surest first, each box
    takes the other pass's best box overlapping it by ``config.iou``; their
    corners are averaged weighted by score and the pair's score is their
    mean. A box without a partner is kept only from ``config.single``.

    >>> sq = lambda x, s: Detection(np.array([[x, 0], [x + 10, 0], [x + 10, 14], [x, 14]], float), s)
    >>> out = fuse_passes([sq(0, 0.9), sq(30, 0.4)], [sq(2, 0.9), sq(60, 0.8)])
    >>> [(round(float(d.quad[0][0]), 1), round(d.score, 2)) for d in out]
    [(1.0, 0.9), (60.0, 0.8)]
    """
    config = config or FuseConfig()
    boxes = sorted([(d, 0) for d in first] + [(d, 1) for d in second], key=lambda t: -t[0].score)
    used = [False] * len(boxes)
    out = []
    for i, (d, src) in enumerate(boxes):
        if used[i]:
            continue
        used[i] = True
        partner = None
        for j in range(i + 1, len(boxes)):
            if not used[j] and boxes[j][1] != src and quad_iou(d.quad, boxes[j][0].quad) > config.iou:
                used[j] = True
                partner = boxes[j][0]
                break
        if partner is None:
            if d.score >= config.single:
                out.append(d)
            continue
        out.append(averaged(d, partner, (d.score + partner.score) / 2))
    return out


def fuse_rectified(dets: Sequence[Detection], members: Sequence[int], found: Sequence[Detection],
                   config: FuseConfig | None = None) -> list[Detection]:
    """First-pass detections ``dets`` fused with the boxes ``found`` on their
    rows warped level (``members``: the detections on those rows; ``found``
    free of duplicates, surest first). A found box overlapping members by
    ``config.rectified_iou`` is averaged with the one it overlaps most (the
    higher score kept); one overlapping none is kept from
    ``config.rectified_new``. The other detections stay as they were.

    >>> sq = lambda x: np.array([[x, 0], [x + 10, 0], [x + 10, 14], [x, 14]], float)
    >>> first = [Detection(sq(x), 0.8) for x in (0, 11, 22)]
    >>> found = [Detection(sq(x) + [1, 0], 0.8) for x in (0, 11, 22, 33)]
    >>> out = fuse_rectified(first, [0, 1, 2], found)
    >>> [round(float(d.quad[0][0]), 1) for d in out]
    [0.5, 11.5, 22.5, 34.0]
    """
    config = config or FuseConfig()
    on_rows = set(members)
    out = [d for i, d in enumerate(dets) if i not in on_rows]
    taken: set[int] = set()
    for d in found:
        overlap = {i: quad_iou(d.quad, dets[i].quad) for i in on_rows}
        hit = [i for i, v in overlap.items() if v > config.rectified_iou]
        if hit:
            i = max(hit, key=lambda k: overlap[k])
            taken.add(i)
            out.append(averaged(d, dets[i], max(d.score, dets[i].score)))
        elif d.score >= config.rectified_new:
            out.append(d)
    out += [dets[i] for i in sorted(on_rows - taken)]
    return out


def rectify_rows(img: np.ndarray, dets: list[Detection], detector: Detector, config: FuseConfig | None = None,
                 detect: DetectConfig | None = None, rows: RectifyConfig | None = None) -> list[Detection]:
    """``dets`` with every leaning rack row read again by ``detector`` warped
    level and square-on (:func:`okey_vision.vision.rectify.row_strips`), the
    boxes found there fused in (:func:`fuse_rectified`)."""
    config, detect = config or FuseConfig(), detect or DetectConfig()
    if len(dets) < 3:
        return dets
    rows = rows or RectifyConfig()
    strips = rectify.row_strips(img, [d.quad for d in dets], rows)
    if not strips:
        return dets
    made = [rs for rs, _ in strips]
    found = []
    for canvas, places in rectify.canvases([im for _, im in strips], rows.canvas, rows.gap):
        for d in detector(canvas):
            q = rectify.to_photo(d.quad, places, made)
            if q is not None:
                found.append(Detection(upright_quad(q), d.score, True))
    found.sort(key=lambda d: -d.score)  # one tile seen on two overlapping chunks: the surer box
    kept: list[Detection] = []
    for d in found:
        if all(quad_iou(d.quad, k.quad) <= config.rectified_same_iou for k in kept):
            kept.append(d)
    members = sorted({i for rs in made for i in rs.members})
    return dedupe(fuse_rectified(dets, members, dedupe(kept, detect), config), detect)


def drop_cut_tiles(dets: Sequence[Detection], w: int, h: int, min_visible: float = FuseConfig.min_visible,
                   edge: float = 2.0) -> list[Detection]:
    """Detections minus tiles cut by the photo's edge: a box touching the edge
    whose width or height is under ``min_visible`` of the photo's median tile.

    >>> sq = lambda x, w: Detection(np.array([[x, 10], [x + w, 10], [x + w, 40], [x, 40]], float), 0.9)
    >>> len(drop_cut_tiles([sq(0, 8), sq(30, 20), sq(60, 20), sq(90, 20)], 200, 100))
    3
    """
    if len(dets) < 3:
        return list(dets)
    sizes = np.array([quad_axes(d.quad)[2:] for d in dets])
    mw, mh = np.median(sizes, axis=0)
    out = []
    for d, (tw, th) in zip(dets, sizes, strict=True):
        x1, y1, x2, y2 = d.box
        at_edge = x1 <= edge or y1 <= edge or x2 >= w - edge or y2 >= h - edge
        if at_edge and (tw < min_visible * mw or th < min_visible * mh):
            continue
        out.append(d)
    return out


def on_photo(quad: Quad, w: int, h: int) -> tuple[float, float, float, float]:
    """A quad's bounds clipped to a ``w`` x ``h`` photo."""
    q = np.asarray(quad)
    return (float(np.clip(q[:, 0].min(), 0, w)), float(np.clip(q[:, 1].min(), 0, h)),
            float(np.clip(q[:, 0].max(), 0, w)), float(np.clip(q[:, 1].max(), 0, h)))


__all__ = ["averaged", "drop_cut_tiles", "fuse_passes", "fuse_rectified", "on_photo", "rectify_rows"]
