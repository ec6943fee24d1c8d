"""Tile crops shared by training and inference: the classifiers' class lists
and the crop geometry (one module, so the two can never drift apart).

A tile is given by its four face corners (a detector's oriented box, or a
label's exact corners). :func:`upright_quad` orders them so the tile stands
(its long side vertical, its top towards the image's top as far as the
quad alone can tell); :func:`upright_crop` warps that quad, with a margin,
into a square crop where the tile stands upright in the middle. Whether the
tile was upside down (0 vs 180 degrees) the quad cannot tell: the reader
reads both turns and keeps the surer one (``okey_vision.vision.reader``).

:func:`white_balance` rescales a crop's channels so the tile's cream face
becomes neutral: the colour classifier sees inks relative to the tile, not
to the room's light.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from okey_vision.vision.config import CropConfig
from okey_vision.vision.resize import shrink_by

#: Number classifier classes.
NUMBER_CLASSES: tuple[str, ...] = tuple(str(n) for n in range(1, 14)) + ("fj",)
#: Colour classifier classes.
COLOR_CLASSES: tuple[str, ...] = ("r", "y", "b", "k", "fj")
#: Classifier input size (square crops, padded with the crop's median colour).
CROP_SIZE = 64

Quad = np.ndarray  # 4 x 2 float: TL, TR, BR, BL


def box_quad(box: Sequence[float]) -> Quad:
    """The corners (TL, TR, BR, BL) of an upright box x1, y1, x2, y2."""
    x1, y1, x2, y2 = (float(v) for v in box)
    return np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], np.float64)


def obb_quad(cx: float, cy: float, w: float, h: float, angle: float) -> Quad:
    """The corners of an oriented box (centre, size, angle in radians)."""
    c, s = np.cos(angle), np.sin(angle)
    u = np.array([c, s]) * w / 2
    v = np.array([-s, c]) * h / 2
    ctr = np.array([cx, cy], np.float64)
    return np.array([ctr - u - v, ctr + u - v, ctr + u + v, ctr - u + v])


def upright_quad(quad: Quad) -> Quad:
    """The quad's corners reordered TL, TR, BR, BL with the long side as the
    tile's height and its top the side nearer the image's top (ties: left)."""
    q = np.asarray(quad, np.float64).reshape(4, 2)
    # make the edge 0->1 (width) the shorter one
    e01 = np.linalg.norm(q[1] - q[0]) + np.linalg.norm(q[2] - q[3])
    e12 = np.linalg.norm(q[2] - q[1]) + np.linalg.norm(q[3] - q[0])
    if e01 > e12:
        q = q[[1, 2, 3, 0]]
    # the "up" vector (bottom -> top) should point up in the image (y decreasing)
    up = (q[0] + q[1]) / 2 - (q[3] + q[2]) / 2
    if up[1] > 1e-6 or (abs(up[1]) <= 1e-6 and up[0] > 0):
        q = q[[2, 3, 0, 1]]
    # clockwise order in image coordinates (TL -> TR goes to the right of "up")
    right = q[1] - q[0]
    up = (q[0] + q[1]) / 2 - (q[3] + q[2]) / 2
    if up[0] * right[1] - up[1] * right[0] < 0:  # mirrored: swap left and right
        q = q[[1, 0, 3, 2]]
    return q


def grown(quad: Quad, tall: float, wide: float) -> Quad:
    """An ordered quad grown along the tile's own axes: its top and bottom
    each moved out by ``tall`` of its height, its sides by ``wide`` of its width.

    >>> grown(box_quad((0, 0, 10, 20)), 0.1, 0.2).tolist()
    [[-2.0, -2.0], [12.0, -2.0], [12.0, 22.0], [-2.0, 22.0]]
    """
    q = np.asarray(quad, np.float64)
    right, up, w, h = quad_axes(q)
    dv, dh = up * tall * h, right * wide * w
    result: np.ndarray = q + np.array([dv - dh, dv + dh, -dv + dh, -dv - dh])
    return result


def turned(quad: Quad) -> Quad:
    """The same tile read upside down (turned 180 degrees)."""
    return np.asarray(quad)[[2, 3, 0, 1]]


def quad_axes(quad: Quad) -> tuple[np.ndarray, np.ndarray, float, float]:
    """(unit right vector, unit up vector, width, height) of an ordered quad."""
    q = np.asarray(quad, np.float64)
    right = (q[1] - q[0] + q[2] - q[3]) / 2
    up = (q[0] - q[3] + q[1] - q[2]) / 2
    w, h = math.sqrt(right.dot(right)), math.sqrt(up.dot(up))  # np.linalg.norm's sum, without its overhead
    return right / max(w, 1e-9), up / max(h, 1e-9), w, h


def upright_crop(img: np.ndarray, quad: Quad, size: int = CROP_SIZE,
                 margin: float | Sequence[float] = CropConfig.upright_margin) -> np.ndarray:
    """A ``size`` x ``size`` crop of the tile standing upright: the ordered quad,
    grown by ``margin`` (one value, or left, top, right, bottom), warped so the
    tile's height fills the crop and its width keeps the tile's aspect; the
    sides are padded with the crop's median colour."""
    return upright_crops(img, [quad], size, margin)[0]


def upright_crops(img: np.ndarray, quads: Sequence[Quad], size: int = CROP_SIZE,
                  margin: float | Sequence[float] = CropConfig.upright_margin) -> list[np.ndarray]:
    """:func:`upright_crop` of many tiles (the same pixels: their pads' medians counted at once)."""
    return list(_placed([_upright_warp(img, q, size, margin, 0) for q in quads], size))


def _upright_warp(img: np.ndarray, quad: Quad, size: int, margin: float | Sequence[float], grow: int
                  ) -> np.ndarray:
    """The tile warped upright as :func:`upright_crop` cuts it, ``grow`` px
    more at its right and bottom (the turned crop samples the far edge)."""
    import cv2

    q = np.asarray(quad, np.float64)
    right, up, w, h = quad_axes(q)
    ml, mt, mr, mb = (float(margin),) * 4 if isinstance(margin, (int, float)) else tuple(margin)
    # grow each corner along the tile's own axes (perspective: good enough at this scale)
    src = np.array([q[0] - right * ml * w + up * mt * h, q[1] + right * mr * w + up * mt * h,
                    q[2] + right * mr * w - up * mb * h, q[3] - right * ml * w - up * mb * h])
    ow = w * (1 + ml + mr)
    oh = h * (1 + mt + mb)
    s = size / max(oh, ow, 1e-6)
    nw, nh = max(1, round(ow * s)), max(1, round(oh * s))
    dst = np.array([[0, 0], [nw, 0], [nw, nh], [0, nh]], np.float32)
    m = cv2.getPerspectiveTransform(src.astype(np.float32), dst)
    # shrinking a lot: a cheap pre-blur stands in for area averaging
    if s < 0.5:
        x0, y0 = np.floor(src.min(0)).astype(int) - 2
        x1, y1 = np.ceil(src.max(0)).astype(int) + 3
        H, W = img.shape[:2]
        x0, y0, x1, y1 = max(0, x0), max(0, y0), min(W, x1), min(H, y1)
        if x1 - x0 >= 2 and y1 - y0 >= 2:
            f = 1.0 / s
            sub = img[y0:y1, x0:x1]
            k = int(f // 2) * 2 + 1
            sub = cv2.blur(sub, (k, k)) if k >= 3 else sub
            shift = np.array([[1, 0, x0], [0, 1, y0], [0, 0, 1]], np.float64)
            m = m @ shift
            img = sub
    warped: np.ndarray = cv2.warpPerspective(img, m, (nw + grow, nh + grow), flags=cv2.INTER_LINEAR,
                                             borderMode=cv2.BORDER_REPLICATE)
    return warped


def _placed(warps: Sequence[np.ndarray], size: int) -> np.ndarray:
    """Each warped tile centred on a ``size`` x ``size`` crop padded with its
    median colour (``np.median`` of its pixels, counted for all at once), (n, size, size, 3)."""
    out = np.zeros((len(warps), size, size, 3), np.uint8)
    inside = np.zeros((len(warps), size, size), bool)
    boxes = []
    for crop, placed, warped in zip(out, inside, warps, strict=True):
        nh, nw = warped.shape[:2]
        oy, ox = (size - nh) // 2, (size - nw) // 2
        crop[oy:oy + nh, ox:ox + nw] = warped
        placed[oy:oy + nh, ox:ox + nw] = True
        boxes.append((oy, ox, oy + nh, ox + nw))
    if not len(warps):
        return out
    cum = np.cumsum(_histograms(out, inside), 2)
    cnt = cum[:, 0, -1:]
    pads = ((_at_ranks(cum, (cnt - 1) // 2) + _at_ranks(cum, cnt // 2)) // 2).astype(np.uint8)
    for crop, pad, (y0, x0, y1, x1) in zip(out, pads, boxes, strict=True):
        crop[:y0] = pad
        crop[y1:] = pad
        crop[y0:y1, :x0] = pad
        crop[y0:y1, x1:] = pad
    return out


def upright_crop_pair(img: np.ndarray, quad: Quad, size: int = CROP_SIZE,
                      margin: float = CropConfig.upright_margin) -> tuple[np.ndarray, np.ndarray]:
    """``upright_crop(img, quad)`` and ``upright_crop(img, turned(quad))`` (the
    tile read both ways up) from one warp: with a margin alike on every side
    the turned crop samples the same points, read backwards (the same
    pixels, but where OpenCV's 1/32 px rounding of a point falls the other
    way: a grey level, rarely)."""
    ups, downs = upright_crop_pairs(img, [quad], size, margin)
    return ups[0], downs[0]


def upright_crop_pairs(img: np.ndarray, quads: Sequence[Quad], size: int = CROP_SIZE,
                       margin: float = CropConfig.upright_margin) -> tuple[list[np.ndarray], list[np.ndarray]]:
    """:func:`upright_crop_pair` of many tiles: (the upright crops, the turned ones)."""
    warps = [_upright_warp(img, q, size, margin, 1) for q in quads]
    # the tile turned a half turn: its pixel (x, y) is the upright warp's (nw - x, nh - y)
    placed = _placed([w[:-1, :-1] for w in warps] + [w[:0:-1, :0:-1] for w in warps], size)
    return list(placed[:len(warps)]), list(placed[len(warps):])


def _histograms(images: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Each uint8 image's (n, h, w, 3) counts of each channel's values over
    the pixels where ``mask`` (n, h, w) holds, (n, 3, 256): OpenCV's
    histogram, the image's number a second axis (exact whole counts)."""
    import cv2

    n, h, w, _ = images.shape
    out = np.empty((n, 3, 256), np.float32)
    for lo in range(0, n, 255):  # the image's number is a uint8 channel
        hi = min(n, lo + 255)
        which = np.repeat(np.arange(hi - lo, dtype=np.uint8), h * w).reshape((hi - lo) * h, w)
        part = np.ascontiguousarray(images[lo:hi]).reshape((hi - lo) * h, w, 3)
        keep = np.ascontiguousarray(mask[lo:hi]).reshape((hi - lo) * h, w).view(np.uint8)
        for c in range(3):
            out[lo:hi, c] = cv2.calcHist([which, part], [0, 1 + c], keep, [hi - lo, 256], [0, hi - lo, 0, 256])
    return out


def _at_ranks(cum: np.ndarray, ranks: np.ndarray) -> np.ndarray:
    """The values at ``ranks`` (broadcast against ``cum[..., 0]``; 0-based, ascending) of each
    group whose cumulative counts are ``cum`` (..., bins): what ``np.sort`` would hold there."""
    result: np.ndarray = (cum > ranks[..., None]).argmax(-1)
    return result


def work_image(img: np.ndarray, quads: Sequence[Quad], tile_height: float, target: float
               ) -> tuple[np.ndarray, np.ndarray]:
    """The part of a photo holding the tiles (their corners grown by a tile
    height) shrunk by the whole factor that leaves a tile at least ``target``
    px tall (never enlarged; ``target`` 0: full size): (the image, the 2 x 3
    photo-to-image matrix). The crops, the ink check and the corner fitting
    all work on it: a 12 MP photo's tiles are hundreds of px tall, several
    times what a 64 px crop needs.

    >>> img = np.zeros((3000, 4000, 3), np.uint8)
    >>> part, m = work_image(img, [box_quad((1000, 1000, 1300, 1400))], 400.0, 100.0)
    >>> part.shape, m.tolist()
    ((300, 275, 3), [[0.25, 0.0, -150.0], [0.0, 0.25, -150.0]])
    """
    h, w = img.shape[:2]
    if not len(quads):
        return img, np.array([[1.0, 0.0, 0.0], [0.0, 1.0, 0.0]])
    pts = np.concatenate([np.asarray(q, np.float64).reshape(-1, 2) for q in quads])
    x0, y0 = np.clip(np.floor(pts.min(0) - tile_height), 0, [w, h]).astype(int)
    x1, y1 = np.clip(np.ceil(pts.max(0) + tile_height), 0, [w, h]).astype(int)
    k = max(1, int(tile_height // target)) if target > 0 else 1
    part = shrink_by(img[y0:max(y1, y0 + k), x0:max(x1, x0 + k)], k)
    return part, np.array([[1 / k, 0.0, -x0 / k], [0.0, 1 / k, -y0 / k]])


def face_colour(crop: np.ndarray) -> np.ndarray:
    """The tile face's colour in a crop (BGR): the median of its brightest
    third (the cream face covers most of an upright crop; inks are darker)."""
    result: np.ndarray = face_colours([crop])[0]
    return result


def face_colours(crops: Sequence[np.ndarray]) -> np.ndarray:
    """:func:`face_colour` of many crops of one size at once, (n, 3)."""
    stack = np.stack(crops)
    lum = stack[..., 0].astype(np.uint16)   # summed channel by channel: numpy's sum over a 3-long axis is slow
    lum += stack[..., 1]
    lum += stack[..., 2]
    top = _at_least_quantile(lum.reshape(len(crops), -1), 0.66).reshape(lum.shape)
    return _masked_median(stack, top) + 1e-3


def _balance_gains(face: np.ndarray) -> np.ndarray:
    """Channel gains taking ``face`` to ``CropConfig.face_reference``, within ``CropConfig.gain_bounds``."""
    result: np.ndarray = np.clip(np.asarray(CropConfig.face_reference, np.float32) / face, *CropConfig.gain_bounds)
    return result


def white_balance(crop: np.ndarray, face: np.ndarray | None = None) -> np.ndarray:
    """The crop with its channels scaled so the face becomes ``CropConfig.face_reference``
    (gains within ``CropConfig.gain_bounds``: a dark or odd crop is not blown up)."""
    f = face_colour(crop) if face is None else face
    result: np.ndarray = np.clip(crop.astype(np.float32) * _balance_gains(f), 0, 255).astype(np.uint8)
    return result


def white_balance_all(crops: Sequence[np.ndarray]) -> list[np.ndarray]:
    """:func:`white_balance` of many crops of one size at once (the same
    result, computed batched: the reader balances every crop it reads)."""
    import cv2

    if not crops:
        return []
    gains = _balance_gains(face_colours(crops))
    # each crop's 256 levels per channel scaled once (the same float32 products), then looked up
    levels = np.arange(256, dtype=np.float32)[None, :, None]
    tables = np.clip(levels * gains[:, None, :], 0, 255).astype(np.uint8)
    return [cv2.LUT(np.ascontiguousarray(c), t[None]) for c, t in zip(crops, tables, strict=True)]


#: Corner orders of a quad's four cyclic shifts.
_SHIFTS = (np.arange(4)[:, None] + np.arange(4)) % 4


def aligned(quad: Quad, ref: Quad) -> Quad:
    """``quad``'s corners cyclically shifted to lie nearest ``ref``'s, corner by corner."""
    q = np.asarray(quad, np.float64)
    shifts = q[_SHIFTS]                         # (4, 4, 2): np.roll(q, -k, axis=0) for k = 0..3
    gap = np.sqrt(((shifts - np.asarray(ref)) ** 2).sum(2)).sum(1)
    result: np.ndarray = shifts[int(np.argmin(gap))]
    return result



def is_greyscale(img: np.ndarray, tol: float = 3.0) -> bool:
    """True when a BGR image holds no colour (all channels nearly equal)."""
    step = max(1, int(np.sqrt(img.shape[0] * img.shape[1] / 40000)))
    s = img[::step, ::step].astype(np.int16)
    spread = np.abs(s[..., 0] - s[..., 1]) + np.abs(s[..., 1] - s[..., 2])
    return float(np.percentile(spread, 99)) <= tol


def has_ink(img: np.ndarray, quad: Quad, min_share: float = CropConfig.ink_share,
            distance: float = CropConfig.ink_distance) -> bool:
    """Whether a tile's face (the quad shrunk 15 % on every side, so no rack
    or neighbour shows) holds ink: at least ``min_share`` of its pixels
    ``distance`` or more from the face's colour (white-balanced). A blank /
    face-down tile holds none (:func:`have_ink`; the reader's values are
    ``CropConfig.ink_share`` and ``ink_distance``)."""
    return have_ink(img, [quad], min_share, distance)[0]


def _masked_median(values: np.ndarray, mask: np.ndarray) -> np.ndarray:
    """Per image, the median of ``values`` (n, h, w, 3; uint8) over the
    pixels where ``mask`` (n, h, w) holds -- ``np.median`` of each image's
    subset (float32), batched and by counting (no sort)."""
    cum = np.cumsum(_histograms(values, mask), 2)
    cnt = cum[:, 0, -1:]
    mid = (_at_ranks(cum, (cnt - 1) // 2).astype(np.float32) + _at_ranks(cum, cnt // 2).astype(np.float32))
    result: np.ndarray = mid / 2
    return result


def _at_least_quantile(values: np.ndarray, q: float) -> np.ndarray:
    """Per row of whole numbers ``values`` (n, p), where it lies at or above
    the row's ``np.quantile(row, q)`` (its linear rule, found by partition)."""
    p = values.shape[1]
    at = p * q + (1 + q * -1) - 1      # numpy's index for the linear rule (alpha = beta = 1)
    lo = min(int(np.floor(at)), p - 1)
    hi = min(lo + 1, p - 1)
    v = np.partition(values, [lo, hi], axis=1)[:, [lo, hi]]
    # the quantile lies between two neighbouring values, on the lower one only when it falls exactly there
    thr = np.where((at - np.floor(at) > 0) & (v[:, 1] > v[:, 0]), v[:, 1], v[:, 0])
    result: np.ndarray = values >= thr[:, None]
    return result


def have_ink(img: np.ndarray, quads: Sequence[Quad], min_share: float = CropConfig.ink_share,
             distance: float = CropConfig.ink_distance) -> list[bool]:
    """:func:`has_ink` for many quads at once: the reference is the median Lab
    of each face's brighter 40 %, ink a pixel over ``distance`` from it (|dL| + 1.5 |dab|)."""
    import cv2

    if not len(quads):
        return []
    faces = white_balance_all(upright_crops(img, quads, size=48, margin=-0.15))
    whole = cv2.cvtColor(np.concatenate(faces, 0), cv2.COLOR_BGR2LAB).reshape(len(faces), 48, 48, 3)
    lit = _at_least_quantile(whole[..., 0].reshape(len(faces), -1), 0.6).reshape(whole.shape[:3])
    ref = _masked_median(whole, lit)
    lab = whole.reshape(len(faces), -1, 3).astype(np.float32)
    dist = np.abs(lab[..., 0] - ref[:, None, 0]) + CropConfig.chroma_weight * np.hypot(
        lab[..., 1] - ref[:, None, 1], lab[..., 2] - ref[:, None, 2])
    return [bool(v >= min_share) for v in (dist > distance).mean(1)]
