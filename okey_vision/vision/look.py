"""The look stage: a first, coarse look at the photo to find the rack's tiles,
how they lie and how big they are.

Players take close-ups: the rack fills the frame, a tile is 10-16 % of the
photo's long side -- larger than the oriented detector was taught. So the
first look shrinks the photo *inside a grey border* (``LookConfig.border``
of the long side on every side; the tiles then look smaller), reads it
once with the oriented detector, and estimates the pose
(:func:`okey_vision.vision.normalise.estimate_pose`) from the tiles found.
A photo where nothing shows (tiles too small in a wide shot) is looked at
again larger, without the border.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from okey_vision.vision.config import LookConfig
from okey_vision.vision.detect import PAD_GREY, Detection, Detector
from okey_vision.vision.normalise import RackPose, estimate_pose
from okey_vision.vision.resize import fast_resize


@dataclass(frozen=True)
class Look:
    """What the first look found: the tiles (corners in photo px) and their pose (None: no tiles)."""

    detections: tuple[Detection, ...]
    pose: RackPose | None


def bordered(img: np.ndarray, border: float, size: int) -> tuple[np.ndarray, np.ndarray]:
    """The photo shrunk and centred in a grey border of ``border`` of its long
    side, the whole ``size`` px on its long side: (canvas, 2 x 3 photo-to-canvas matrix).
    The photo is shrunk before the border is added: a 12 MP photo is never copied larger.

    >>> canvas, m = bordered(np.zeros((300, 400, 3), np.uint8), 0.25, 200)
    >>> canvas.shape, m.round(3).tolist()
    ((167, 200, 3), [[0.333, 0.0, 33.0], [0.0, 0.333, 33.0]])
    """
    h, w = img.shape[:2]
    long = max(h, w)
    s = size / (long * (1 + 2 * border))
    nw, nh = max(1, round(w * s)), max(1, round(h * s))
    small = fast_resize(img, nw, nh)
    b = border * long * s
    cw, ch = round(nw + 2 * b), round(nh + 2 * b)
    canvas = np.full((ch, cw, 3), PAD_GREY, np.uint8)
    ox, oy = (cw - nw) // 2, (ch - nh) // 2
    canvas[oy:oy + nh, ox:ox + nw] = small
    return canvas, np.array([[s, 0.0, ox], [0.0, s, oy]])


def look(img: np.ndarray, detector: Detector, config: LookConfig | None = None) -> Look:
    """The first look at a BGR photo with the oriented ``detector``."""
    import cv2

    config = config or LookConfig()
    canvas, m = bordered(img, config.border, config.size)
    back = cv2.invertAffineTransform(m)
    dets = [d.mapped(back) for d in detector(canvas)]
    if not dets and config.retry_size:
        dets = detector(img, config.retry_size)
    pose = estimate_pose([d.quad for d in dets])
    return Look(tuple(dets), pose)


__all__ = ["Look", "bordered", "look"]
