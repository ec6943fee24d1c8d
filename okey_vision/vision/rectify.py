"""Row rectification: each rack row warped level and square-on, where the
upright detector finds its tiles again.

A rack photographed from the side shows its tiles as sheared, foreshortened
parallelograms; neither detector was taught those well (side views hold
most of the player-style validation misses and wrong reads). But a rack row
is one straight band of tiles: its top and bottom edges are two lines and
its tiles' sides all lean alike. So, from the first pass's boxes:

1. the tiles are grouped into rows along the row direction (:func:`rows_of`);
2. through each row's tile tops and bottoms a line is fitted; the band
   between them, grown by ``margin`` of the row's height above and below and
   by ``extend`` tile widths at each end (a tile the first pass missed at
   the row's end), is warped to a strip ``strip_h`` px tall (a homography:
   converging lines made parallel);
3. the tiles' sides in the strip lean by the view's shear: the shear that
   makes the strip's vertical edges sharpest (:func:`lean`) is undone;
4. a row that hardly leans (``min_lean``: an upright rack) is left alone;
5. the strips are cut into chunks ``canvas`` px wide (overlapping by one
   strip height) and stacked onto ``canvas`` px square canvases, which the
   detector reads; each box found is mapped back to the photo
   (:func:`to_photo`) as the tile's four corners.

The reader then fuses these boxes with the first pass's (``reader.rectify_rows``).
Pure geometry (numpy + OpenCV), no model.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from okey_vision.vision.config import RectifyConfig
from okey_vision.vision.crops import Quad, quad_axes
from okey_vision.vision.order import common_axis, row_direction

#: The shipped settings (``config.RectifyConfig``).
DEFAULT = RectifyConfig()


@dataclass(frozen=True, eq=False)
class RowStrip:
    """One rack row warped level: the first pass's detections in it, the
    photo-to-strip homography, the strip's size and its undone shear."""

    members: tuple[int, ...]
    transform: np.ndarray  # 3 x 3, photo px -> strip px
    size: tuple[int, int]  # width, height
    lean: float


def rows_of(quads: Sequence[Quad]) -> tuple[np.ndarray, np.ndarray, list[list[int]]] | None:
    """(unit vector along the rows, unit vector down across them, the rows as
    lists of quad indices, top to bottom), or None when the tiles share no
    axis. Rows split where consecutive tiles across the rows are more than
    0.6 of a tile's height apart.

    >>> q = [np.array([[x, y], [x + 10, y], [x + 10, y + 14], [x, y + 14]], float)
    ...      for y in (0, 30) for x in (0, 11, 22)]
    >>> rows_of(q)[2]
    [[0, 1, 2], [3, 4, 5]]
    """
    if len(quads) < 2:
        return None
    c = np.array([np.asarray(q).mean(0) for q in quads])
    axis, _ = common_axis(quads)
    if axis is None:
        return None
    right = row_direction(c, axis)
    if right[0] < 0:
        right = -right
    down = np.array([-right[1], right[0]])
    h = float(np.median([quad_axes(q)[3] for q in quads]))
    t = c @ down
    order = [int(i) for i in np.argsort(t, kind="stable")]
    rows, cur = [], [order[0]]
    for a, b in itertools.pairwise(order):
        if t[b] - t[a] > 0.6 * h:
            rows.append(sorted(cur, key=lambda i: c[i] @ right))
            cur = []
        cur.append(b)
    rows.append(sorted(cur, key=lambda i: c[i] @ right))
    return right, down, rows


def lean(strip: np.ndarray, max_lean: float = DEFAULT.max_lean, steps: int = DEFAULT.lean_steps) -> float:
    """The shear k (x moves by k px per px down from the strip's middle) that
    stands the strip's vertical edges upright: the one whose column profile
    of horizontal gradients is sharpest (tile sides line up in few columns).

    >>> img = np.zeros((40, 200, 3), np.uint8)
    >>> for x0 in range(20, 180, 30):  # bars leaning right by 0.5 px per px up
    ...     for y in range(40):
    ...         img[y, int(x0 + 0.5 * (20 - y)):int(x0 + 0.5 * (20 - y)) + 12] = 255
    >>> round(lean(img), 2)
    0.5
    """
    import cv2

    g = cv2.cvtColor(strip, cv2.COLOR_BGR2GRAY).astype(np.float32) if strip.ndim == 3 else strip.astype(np.float32)
    gx = np.abs(cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3))
    h, w = gx.shape
    best, best_k = -1.0, 0.0
    for k in np.linspace(-max_lean, max_lean, steps):
        a = np.array([[1, k, -k * h / 2], [0, 1, 0]], np.float32)
        p = cv2.warpAffine(gx, a, (w, h)).sum(0)
        score = float((p ** 2).sum() / max(float(p.sum()) ** 2, 1e-9))
        if score > best:
            best, best_k = score, float(k)
    return best_k


def row_strips(img: np.ndarray, quads: Sequence[Quad], c: RectifyConfig = DEFAULT
               ) -> list[tuple[RowStrip, np.ndarray]]:
    """Each row of three or more tiles that leans at least ``min_lean``,
    warped level and unsheared: (its :class:`RowStrip`, the strip image)."""
    import cv2

    got = rows_of(quads)
    if got is None:
        return []
    right, down, rows = got
    out = []
    for row in rows:
        if len(row) < 3:
            continue
        qs = [np.asarray(quads[i], np.float64) for i in row]
        tops = np.array([((q[0] + q[1]) / 2) @ np.column_stack([right, down]) for q in qs])
        bots = np.array([((q[3] + q[2]) / 2) @ np.column_stack([right, down]) for q in qs])
        height = float(np.median(bots[:, 1] - tops[:, 1]))
        if height <= 4:
            continue
        top = np.polyfit(tops[:, 0], tops[:, 1], 1)
        bottom = np.polyfit(bots[:, 0], bots[:, 1], 1)
        along = np.array([q.mean(0) @ right for q in qs])
        width = float(np.median([quad_axes(q)[2] for q in qs]))
        s0, s1 = along.min() - c.extend * width, along.max() + c.extend * width
        m = c.margin * height
        band = [(s0, np.polyval(top, s0) - m), (s1, np.polyval(top, s1) - m),
                (s1, np.polyval(bottom, s1) + m), (s0, np.polyval(bottom, s0) + m)]
        src = np.array([a * right + b * down for a, b in band], np.float32)
        w = round(c.strip_h * (s1 - s0) / (height + 2 * m))
        if w < c.strip_h:
            continue
        corners = np.array([[0, 0], [w, 0], [w, c.strip_h], [0, c.strip_h]], np.float32)
        to_band = cv2.getPerspectiveTransform(src, corners)
        k = lean(cv2.warpPerspective(img, to_band, (w, c.strip_h), flags=cv2.INTER_LINEAR), c.max_lean, c.lean_steps)
        if abs(k) < c.min_lean:
            continue
        pad = abs(k) * c.strip_h / 2  # the sheared strip is wider by the lean
        unshear = np.array([[1, k, -k * c.strip_h / 2 + pad], [0, 1, 0], [0, 0, 1]])
        transform = unshear @ to_band
        size = (int(w + 2 * pad), c.strip_h)
        strip = cv2.warpPerspective(img, transform, size, flags=cv2.INTER_LINEAR)
        out.append((RowStrip(tuple(row), transform, size, k), strip))
    return out


@dataclass(frozen=True)
class Placement:
    """Where a chunk of a strip sits on a canvas: the strip's index, the
    chunk's left edge in the strip and its top edge on the canvas."""

    strip: int
    x0: int
    y0: int


def canvases(strips: Sequence[np.ndarray], size: int = DEFAULT.canvas, gap: int = DEFAULT.gap
             ) -> list[tuple[np.ndarray, list[Placement]]]:
    """The strips cut into chunks ``size`` px wide (overlapping by a strip's
    height, so no tile is only ever seen cut) and stacked, ``gap`` px apart,
    onto grey ``size`` x ``size`` canvases."""
    chunks = []
    for k, s in enumerate(strips):
        h, w = s.shape[:2]
        step = max(1, size - h)
        x0 = 0
        while True:
            chunks.append((k, x0))
            if x0 + size >= w:
                break
            x0 += step
    out = []
    y0, canvas, places = 0, None, []  # type: tuple[int, np.ndarray | None, list[Placement]]
    for k, x0 in chunks:
        s = strips[k]
        h = s.shape[0]
        if canvas is None or y0 + h > size:
            if canvas is not None:
                out.append((canvas, places))
            canvas, places, y0 = np.full((size, size, 3), 114, np.uint8), [], 0
        part = s[:, x0:x0 + size]
        canvas[y0:y0 + h, :part.shape[1]] = part
        places.append(Placement(k, x0, y0))
        y0 += h + gap
    if canvas is not None:
        out.append((canvas, places))
    return out


def to_photo(quad: Quad, places: Sequence[Placement], strips: Sequence[RowStrip]) -> Quad | None:
    """A quad found on a canvas mapped back to the photo (None when its centre
    lies on no chunk)."""
    import cv2

    q = np.asarray(quad, np.float64)
    cy = float(q[:, 1].mean())
    for p in places:
        rs = strips[p.strip]
        if p.y0 <= cy < p.y0 + rs.size[1]:
            local = q + [p.x0, -p.y0]
            back = np.linalg.inv(rs.transform)
            result: np.ndarray | None = cv2.perspectiveTransform(local[None], back)[0]
            return result
    return None


def to_canvas(quad: Quad, place: Placement, strip: RowStrip) -> Quad:
    """A photo quad mapped onto the chunk ``place`` of ``strip`` (canvas px):
    :func:`to_photo` the other way, for labelling training canvases."""
    import cv2

    q = cv2.perspectiveTransform(np.asarray(quad, np.float64)[None], strip.transform)[0]
    result: np.ndarray = q - [place.x0, -place.y0]
    return result


__all__ = ["DEFAULT", "Placement", "RowStrip", "canvases", "lean", "row_strips", "rows_of", "to_canvas",
           "to_photo"]
