"""Tiles drawn with OpenCV at a known angle and size: cream faces with a
numeral, standing in rows on a wooden-brown rack (the stages' geometry is
checked against what was drawn)."""

from __future__ import annotations

import math

import cv2
import numpy as np

INKS = {"r": (40, 40, 200), "b": (190, 90, 30), "k": (30, 30, 30), "y": (20, 140, 230)}


def drawn_rack(angle: float, tile_h: float, size: tuple[int, int] = (900, 1200), rows: int = 2,
               per_row: int = 6, seed: int = 0) -> tuple[np.ndarray, list[np.ndarray], list[str]]:
    """A photo (h, w) of ``rows`` x ``per_row`` tiles ``tile_h`` px tall whose
    width direction is turned ``angle`` degrees (image x towards y), and the
    corners (TL, TR, BR, BL as each tile stands) and names, in rack order, of
    the tiles wholly inside the photo."""
    rng = np.random.default_rng(seed)
    h, w = size
    img = np.zeros((h, w, 3), np.uint8)
    img[:] = (60, 95, 140)
    img = cv2.add(img, rng.integers(0, 12, img.shape, dtype=np.uint8))
    t = math.radians(angle)
    right, down = np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])
    tw = 0.7 * tile_h
    gap = 0.06 * tile_h
    centre = np.array([w / 2, h / 2])
    quads, names = [], []
    colours = list(INKS)
    for r in range(rows):
        for i in range(per_row):
            c = centre + right * (i - (per_row - 1) / 2) * (tw + gap) + down * (r - (rows - 1) / 2) * 1.25 * tile_h
            q = np.array([c - right * tw / 2 - down * tile_h / 2, c + right * tw / 2 - down * tile_h / 2,
                          c + right * tw / 2 + down * tile_h / 2, c - right * tw / 2 + down * tile_h / 2])
            cv2.fillConvexPoly(img, np.int32(np.round(q)), (205, 228, 238), lineType=cv2.LINE_AA)
            number = int(rng.integers(1, 14))
            colour = colours[(r * per_row + i) % 4]
            names.append(f"{colour}{number}")
            # the numeral drawn upright on a patch, then warped onto the tile
            patch = np.full((100, 70, 3), (205, 228, 238), np.uint8)
            text = str(number)
            scale = 1.6 if len(text) == 1 else 1.2
            (tx, _), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_DUPLEX, scale, 4)
            cv2.putText(patch, text, ((70 - tx) // 2, 52), cv2.FONT_HERSHEY_DUPLEX, scale, INKS[colour], 4,
                        cv2.LINE_AA)
            cv2.circle(patch, (35, 75), 10, INKS[colour], -1, cv2.LINE_AA)
            m = cv2.getPerspectiveTransform(np.float32([[0, 0], [70, 0], [70, 100], [0, 100]]), np.float32(q))
            warped = cv2.warpPerspective(patch, m, (w, h), flags=cv2.INTER_LINEAR)
            mask = cv2.warpPerspective(np.full((100, 70), 255, np.uint8), m, (w, h))
            mask = cv2.erode(mask, np.ones((3, 3), np.uint8))
            img[mask > 0] = warped[mask > 0]
            quads.append(q)
    inside = [k for k, q in enumerate(quads) if (q >= 0).all() and (q[:, 0] < w).all() and (q[:, 1] < h).all()]
    return img, [quads[k] for k in inside], [names[k] for k in inside]
