"""Shrinking photos: the one place the reader resamples a whole image.

Every stage that needs a smaller copy of a photo (the first look, the
normalised view, the work copy the tiles are cut from) shrinks it here, so
a 12 MP photo is never averaged pixel by pixel more than needed.
"""

from __future__ import annotations

import numpy as np


def fast_resize(img: np.ndarray, nw: int, nh: int) -> np.ndarray:
    """Resize to (nw, nh): INTER_AREA when shrinking, after a cheap bilinear
    step down to 3x the target when shrinking a lot (a 12 MP photo to 416 px
    costs a few ms instead of a full area average over every pixel)."""
    import cv2

    h, w = img.shape[:2]
    if nw >= w and nh >= h:
        return cv2.resize(img, (nw, nh), interpolation=cv2.INTER_LINEAR)
    if w > 6 * nw and h > 6 * nh:
        img = cv2.resize(img, (3 * nw, 3 * nh), interpolation=cv2.INTER_LINEAR)
    return cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA)


def shrink_by(img: np.ndarray, k: int) -> np.ndarray:
    """The image shrunk by a whole factor ``k`` (area average; OpenCV's fast
    path: ten times quicker than a fractional factor on a 12 MP photo), its
    last ``w % k`` columns and ``h % k`` rows dropped."""
    import cv2

    if k <= 1:
        return img
    h, w = img.shape[:2]
    return cv2.resize(img[:h - h % k, :w - w % k], (w // k, h // k), interpolation=cv2.INTER_AREA)


def shrink(img: np.ndarray, size: int) -> tuple[np.ndarray, float]:
    """The image with its long side ``size`` (never enlarged past it), and the scale used."""
    h, w = img.shape[:2]
    s = size / max(h, w)
    if s == 1:
        return img, 1.0
    return fast_resize(img, max(1, round(w * s)), max(1, round(h * s))), s


def cap_side(img: np.ndarray, max_side: int) -> np.ndarray:
    """The image with its long side at most ``max_side``.

    Exact halvings first (INTER_AREA's fast path: a pixel average), then one
    bilinear step for the last factor (under 2, so nothing aliases): a
    general INTER_AREA resize of a 100 MP photo took 1.8 s here."""
    import cv2

    h, w = img.shape[:2]
    while max(h, w) >= 2 * max_side:
        img = cv2.resize(img, (w // 2, h // 2), interpolation=cv2.INTER_AREA)
        h, w = img.shape[:2]
    s = max_side / max(h, w)
    if s >= 1:
        return img
    return cv2.resize(img, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_LINEAR)


__all__ = ["cap_side", "fast_resize", "shrink", "shrink_by"]
