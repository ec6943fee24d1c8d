"""The detect stage: one detector network run over an image, its boxes decoded
into tile corners.

A detector is a YOLO11n network exported to ONNX: the oriented one
(``detector``: each tile's centre, size and angle, ultralytics OBB) or an
upright-box one (``detector_axis``, ``detector_strip``). :class:`Detector`
shrinks the image to the size asked (or takes it as it is), pads it to
multiples of 32, runs the network, keeps the boxes above the score, runs the
(rotated) non-maximum suppression and drops boxes lying inside surer ones.
Every :class:`Detection` carries its four corners, TL, TR, BR, BL as the
tile stands (``crops.upright_quad``), in the image's pixels.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from okey_vision.vision.config import DetectConfig
from okey_vision.vision.crops import Quad, box_quad, obb_quad, quad_axes, upright_quad
from okey_vision.vision.nets import Net
from okey_vision.vision.resize import shrink

#: Grey the detectors were trained to see around a letterboxed image (ultralytics' pad value).
PAD_GREY = 114


@dataclass(frozen=True, eq=False)
class Detection:
    """One tile found: its corners (TL, TR, BR, BL, image px; a corner may lie
    past the image's edge), score, and whether an oriented detector found it
    (an upright box is only bounds)."""

    quad: Quad = field(repr=False)
    score: float
    oriented: bool = True

    @property
    def box(self) -> tuple[float, float, float, float]:
        """The corners' bounds x1, y1, x2, y2."""
        q = np.asarray(self.quad)
        return (float(q[:, 0].min()), float(q[:, 1].min()), float(q[:, 0].max()), float(q[:, 1].max()))

    def mapped(self, matrix: np.ndarray) -> Detection:
        """The same detection through a 2 x 3 affine ``matrix`` (a turn and a
        scale: the corners keep their order, the tile's own top stays its top)."""
        q = np.asarray(self.quad, np.float64) @ matrix[:, :2].T + matrix[:, 2]
        return Detection(q, self.score, self.oriented)

    def standing(self, squarish: float) -> Detection:
        """The detection with its corners ordered so the tile stands upright in
        the image it was found on (a normalised view, where every tile of the
        rack stands): a box less than ``squarish`` times longer than wide is
        turned by whole corners to stand nearest upright, whatever its long
        side says (the detector's boxes of tiles seen at an angle are often
        near square, and their long side then lies)."""
        q = np.asarray(self.quad, np.float64)
        _, _, w, h = quad_axes(q)
        if max(w, h) >= squarish * min(w, h):
            return self
        rolls = [np.roll(q, -k, axis=0) for k in range(4)]
        best = max(rolls, key=lambda r: float(-quad_axes(r)[1][1]))  # "up" nearest the image's up
        return Detection(best, self.score, self.oriented)


#: Each byte's value over 255, as the detectors read a pixel.
_UNIT = np.arange(256, dtype=np.float32) / np.float32(255.0)


def letterbox(img: np.ndarray) -> tuple[np.ndarray, int, int]:
    """The image centred on a grey canvas whose sides are multiples of 32: (canvas, x offset, y offset)
    (the image itself when its sides are already: a normalised view is)."""
    nh, nw = img.shape[:2]
    ch, cw = int(np.ceil(nh / 32) * 32), int(np.ceil(nw / 32) * 32)
    if (ch, cw) == (nh, nw):
        return img, 0, 0
    canvas = np.full((ch, cw, 3), PAD_GREY, np.uint8)
    oy, ox = (ch - nh) // 2, (cw - nw) // 2
    canvas[oy:oy + nh, ox:ox + nw] = img
    return canvas, ox, oy


class Detector:
    """One detector network and how its boxes are kept (``DetectConfig``)."""

    def __init__(self, net: Net, config: DetectConfig | None = None):
        self.net = net
        self.config = config or DetectConfig()

    def __call__(self, img: np.ndarray, size: int | None = None, mirror: bool = False) -> list[Detection]:
        """Tiles in a BGR image, corners in its pixels: the image shrunk so its
        long side is ``size`` (None: read as it is), ``mirror``: read mirrored
        left to right, the corners mapped back."""
        h, w = img.shape[:2]
        small, s = shrink(img, size) if size else (img, 1.0)
        if mirror:
            small = small[:, ::-1]  # a view: the letterbox or the table's pass copies it
        canvas, ox, oy = letterbox(small)
        # RGB planes scaled to 0-1 through a table: one pass, the same floats as dividing by 255
        x = _UNIT.take(canvas[:, :, ::-1].transpose(2, 0, 1))[None]
        y = self.net(x)[0]  # (4 + classes [+ angle], anchors)
        nc = max(1, len(self.net.names))
        oriented = y.shape[0] == 4 + nc + 1
        quads, scores = (self._oriented(y, nc) if oriented else self._upright(y))
        out = []
        for q, sc in zip(quads, scores, strict=True):
            q = (q - [ox, oy]) / s
            if mirror:
                q[:, 0] = small.shape[1] / s - q[:, 0]
            d = Detection(upright_quad(q), float(sc), oriented)
            x1, y1, x2, y2 = d.box
            if min(x2, w) - max(x1, 0) >= 2 and min(y2, h) - max(y1, 0) >= 2:  # on the image
                out.append(d)
        return out

    def _oriented(self, y: np.ndarray, nc: int) -> tuple[list[Quad], list[float]]:
        """Oriented boxes: rotated NMS, boxes inside surer ones dropped (canvas px)."""
        import cv2

        cfg = self.config
        scores = y[4:4 + nc].max(0)
        keep = scores >= cfg.conf
        if not keep.any():
            return [], []
        xywh, sc, ang = y[:4, keep].T, scores[keep], y[4 + nc, keep]
        fit = not_outsized(xywh[:, 2] * xywh[:, 3], cfg.outsized)
        xywh, sc, ang = xywh[fit], sc[fit], ang[fit]
        rects = [((float(a), float(b)), (float(c), float(d)), float(np.degrees(t)))
                 for (a, b, c, d), t in zip(xywh, ang, strict=True)]
        idx = np.array(cv2.dnn.NMSBoxesRotated(rects, sc.astype(float).tolist(), cfg.conf, cfg.iou),
                       dtype=int).reshape(-1)
        quads = {int(i): obb_quad(float(xywh[i, 0]), float(xywh[i, 1]), float(xywh[i, 2]), float(xywh[i, 3]),
                                  float(ang[i])) for i in idx}
        idx = suppress_inner_quads(quads, sc, idx, cfg.inner, cfg.covered)[: cfg.max_tiles]
        return [quads[int(i)] for i in idx], [float(sc[i]) for i in idx]

    def _upright(self, y: np.ndarray) -> tuple[list[Quad], list[float]]:
        """Upright boxes: NMS, boxes inside surer ones dropped (canvas px)."""
        import cv2

        cfg = self.config
        scores = y[4:].max(0)
        keep = scores >= cfg.conf
        if not keep.any():
            return [], []
        xywh, sc = y[:4, keep].T, scores[keep]
        boxes = np.stack([xywh[:, 0] - xywh[:, 2] / 2, xywh[:, 1] - xywh[:, 3] / 2, xywh[:, 2], xywh[:, 3]], 1)
        found = cv2.dnn.NMSBoxes(boxes.tolist(), sc.astype(float).tolist(), cfg.conf, cfg.iou)
        idx = suppress_inner(boxes, sc, np.array(found, dtype=int).reshape(-1), cfg.inner)[: cfg.max_tiles]
        return ([box_quad((bx, by, bx + bw, by + bh)) for bx, by, bw, bh in boxes[idx]],
                [float(sc[i]) for i in idx])


def not_outsized(areas: np.ndarray, ratio: float) -> np.ndarray:
    """Mask of the boxes at most ``ratio`` times the median box's area (all
    of them when fewer than 3: one alone has no median to differ from).

    >>> not_outsized(np.array([1.0, 1.2, 0.9, 40.0]), 12.0).tolist()
    [True, True, True, False]
    """
    areas = np.asarray(areas, float)
    if len(areas) < 3:
        return np.ones(len(areas), bool)
    return areas <= ratio * float(np.median(areas))


def suppress_inner(xywh: np.ndarray, scores: np.ndarray, idx: np.ndarray, frac: float) -> np.ndarray:
    """Of the upright boxes ``idx`` (x, y, w, h), drop those lying mostly
    (``frac`` of their area) inside a higher-scoring kept box: a part of a
    tile read as a tile of its own."""
    idx = idx[np.argsort(-scores[idx])]
    kept: list[int] = []
    for i in idx:
        x, y, w, h = xywh[i]
        inner = False
        for k in kept:
            kx, ky, kw, kh = xywh[k]
            ix = max(0.0, min(x + w, kx + kw) - max(x, kx))
            iy = max(0.0, min(y + h, ky + kh) - max(y, ky))
            if ix * iy > frac * min(w * h, kw * kh):
                inner = True
                break
        if not inner:
            kept.append(int(i))
    return np.array(kept, dtype=int)


def suppress_inner_quads(quads: dict[int, Quad], scores: np.ndarray, idx: np.ndarray, frac: float,
                         covered: float) -> np.ndarray:
    """:func:`suppress_inner` for oriented boxes: the overlap is the true
    polygon intersection (upright bounds of tilted neighbours overlap a lot);
    a box also goes when surer boxes together cover ``covered`` of it."""
    import cv2

    idx = idx[np.argsort(-scores[idx])]
    kept: list[int] = []
    area = {i: abs(cv2.contourArea(np.asarray(q, np.float32))) for i, q in quads.items()}
    for i in idx:
        qi = np.asarray(quads[int(i)], np.float32)
        inner = False
        total = 0.0
        for k in kept:
            inter, _ = cv2.intersectConvexConvex(qi, np.asarray(quads[k], np.float32))
            total += inter
            if inter > frac * min(area[int(i)], area[k]):
                inner = True
                break
        if not inner and total > covered * area[int(i)]:  # across two or more surer boxes
            inner = True
        if not inner:
            kept.append(int(i))
    return np.array(kept, dtype=int)


def quad_iou(a: Quad, b: Quad) -> float:
    """Intersection over union of two convex quads.

    >>> sq = np.array([[0, 0], [10, 0], [10, 10], [0, 10]], float)
    >>> round(quad_iou(sq, sq + [5, 0]), 3)
    0.333
    """
    import cv2

    a32, b32 = np.asarray(a, np.float32), np.asarray(b, np.float32)
    inter, _ = cv2.intersectConvexConvex(a32, b32)
    union = abs(cv2.contourArea(a32)) + abs(cv2.contourArea(b32)) - inter
    return float(inter / union) if union > 0 else 0.0


def dedupe(dets: list[Detection], config: DetectConfig) -> list[Detection]:
    """Detections minus those lying inside surer ones (after fusing passes,
    a box may straddle two surer ones)."""
    if len(dets) < 2:
        return dets
    keep = suppress_inner_quads({i: d.quad for i, d in enumerate(dets)}, np.array([d.score for d in dets]),
                                np.arange(len(dets)), config.inner, config.covered)
    return [dets[i] for i in sorted(keep)]


__all__ = ["Detection", "Detector", "PAD_GREY", "dedupe", "letterbox", "not_outsized", "quad_iou",
           "suppress_inner", "suppress_inner_quads"]
