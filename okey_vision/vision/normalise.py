"""The normalise stage: turn and scale a photo so the detector reads it at its best.

How a player frames the rack decides little once the photo is normalised:
from the first look's tiles (:mod:`okey_vision.vision.look`) the rack's
angle and the tiles' size are estimated (:func:`estimate_pose`), and the
photo is warped (:func:`normalise`) so that

- the tiles stand upright (their long sides vertical; rows level), and
- a tile is ``NormaliseConfig.tile_height`` px tall, the size the detectors
  read best,

on a grey canvas with a margin around it. Real close-ups (a tile 10-16 % of
the photo's long side) and photos turned 30-60 degrees read much worse as
they come than bordered and levelled (77 % against 96 % of the
tiles on six real Okey photos). :class:`View` keeps the photo-to-view
matrix, so the boxes found on the view map back to the photo, where the
tiles are cut at full resolution.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from okey_vision.vision.config import NormaliseConfig
from okey_vision.vision.crops import Quad, quad_axes, upright_quad
from okey_vision.vision.detect import PAD_GREY
from okey_vision.vision.resize import fast_resize


@dataclass(frozen=True)
class RackPose:
    """How the tiles lie in a photo: the turn that stands them upright and their size.

    ``angle`` (degrees, -90..90) is the direction of the tiles' width (their
    "right" vector) in the photo, measured from the x axis towards y (down):
    turning the photo by ``-angle`` stands them upright (or upside down: a
    quad alone cannot tell 0 from 180 degrees; the classifier can).
    ``aligned`` is False when the tiles lie every which way (a table, no
    rack): the angle is then 0 and only the size counts."""

    angle: float
    tile_height: float
    tile_width: float
    tiles: int
    aligned: bool = True


def estimate_pose(quads: Sequence[Quad], config: NormaliseConfig | None = None) -> RackPose | None:
    """The pose of tiles given by their corners (None without any).

    The angle is the rows' direction: the circular mean (mod 180 degrees) of
    the vectors from each tile to its nearest neighbour, which on a rack is
    the tile beside it; it holds even where the detector's boxes are turned
    (large tiles turned 60 degrees gave near-square boxes at any angle).
    With fewer than three tiles, or neighbours every which way, the tiles'
    own width directions are averaged, each weighted by how much longer than
    wide it is (a near-square box cannot tell its width from its height).
    The size is the median tile height from each box's area, and the width
    from the height (``NormaliseConfig.tile_aspect``).

    >>> import math
    >>> t = math.radians(30)
    >>> r, u = np.array([math.cos(t), math.sin(t)]), np.array([-math.sin(t), math.cos(t)])
    >>> tile = lambda c: np.array([c - 7 * r - 10 * u, c + 7 * r - 10 * u, c + 7 * r + 10 * u, c - 7 * r + 10 * u])
    >>> p = estimate_pose([tile(np.array([50.0 + 15 * k * r[0], 80 + 15 * k * r[1]])) for k in range(5)])
    >>> round(p.angle, 1), round(p.tile_height, 1), round(p.tile_width, 1), p.aligned
    (30.0, 20.0, 14.0, True)
    """
    shape = config or NormaliseConfig()
    if not len(quads):
        return None
    axes = [quad_axes(upright_quad(q)) for q in quads]
    heights = np.array([a[3] for a in axes])
    widths = np.array([a[2] for a in axes])
    # a box's area holds even where its shape does not (the detectors' boxes
    # of turned tiles come out squarer than the tiles): height from the area
    tall = float(np.median(np.sqrt(heights * widths / shape.tile_aspect)))
    size = (tall, tall * shape.tile_aspect)
    z, turns = _neighbour_direction(np.array([np.asarray(q).mean(0) for q in quads]), shape.neighbour_tol), 2
    if z is None:
        theta = np.array([np.arctan2(a[0][1], a[0][0]) for a in axes])
        weight = np.clip(heights / np.maximum(widths, 1e-6) - 1.0, 0.0, 1.0)  # 0 for a square box
        if weight.sum() >= shape.elongated * len(quads):
            z = (weight * np.exp(2j * theta)).sum() / weight.sum()
        else:  # only near-square boxes: their sides, mod 90 degrees
            z, turns = np.exp(4j * theta).mean(), 4
    if abs(z) < 0.5:  # every which way: a table of loose tiles, no rack
        return RackPose(0.0, *size, len(quads), aligned=False)
    angle = float(np.degrees(np.angle(z) / turns))
    period = 360.0 / turns
    angle = (angle + period / 2) % period - period / 2  # the smaller turn
    return RackPose(angle, *size, len(quads))


def _neighbour_direction(centres: np.ndarray, tol: float = NormaliseConfig.neighbour_tol) -> complex | None:
    """The doubled-angle phasor of the direction most tiles' vectors to their
    nearest neighbour share (None under three tiles, or when fewer than half
    agree): the mode, then the mean of the vectors within ``tol``
    (``NormaliseConfig.neighbour_tol``)
    degrees of it, so a few wrong neighbours (a tile found twice, one above
    the other) do not turn the rack.

    >>> row = np.array([[10.0 * k, 0.5 * k] for k in range(6)] + [[20.0, 6.0]])
    >>> round(float(np.degrees(np.angle(_neighbour_direction(row)) / 2)), 1)
    2.9
    """
    n = len(centres)
    if n < 3:
        return None
    d = centres[:, None, :] - centres[None, :, :]
    dist = np.linalg.norm(d, axis=2)
    np.fill_diagonal(dist, np.inf)
    v = d[np.arange(n), dist.argmin(1)]
    z = np.exp(2j * np.arctan2(v[:, 1], v[:, 0]))
    near = np.abs(np.angle(z[:, None] / z[None, :])) <= np.radians(2 * tol)  # doubled angles
    best = near[int(near.sum(1).argmax())]
    if best.sum() < 0.5 * n:
        return None
    mean = complex(z[best].mean())
    return mean / abs(mean)


@dataclass(frozen=True, eq=False)
class View:
    """A photo turned and scaled: the pixels, and the 2 x 3 matrix from photo px to view px."""

    image: np.ndarray = field(repr=False)
    matrix: np.ndarray
    pose: RackPose | None = None
    #: The photo's outline on the view (4 x 2): where the view cut it short, a tile may go on past the edge.
    outline: np.ndarray | None = field(default=None, repr=False)

    def cuts(self, quads: Sequence[Quad], edge: float = 3.0) -> bool:
        """Whether a quad (view px) reaches an edge of the view where the photo
        goes on beyond it: the view, cut to the tiles found so far, missed some."""
        if self.outline is None:
            return False
        import cv2

        h, w = self.image.shape[:2]
        inside = np.asarray(self.outline, np.float32).reshape(-1, 1, 2)
        for q in quads:
            for x, y in np.asarray(q, np.float64):
                at = (min(max(x, 0.0), w), min(max(y, 0.0), h))
                near = x < edge or y < edge or x > w - edge or y > h - edge
                if near and cv2.pointPolygonTest(inside, (float(at[0]), float(at[1])), True) > edge:
                    return True
        return False

    @property
    def inverse(self) -> np.ndarray:
        """The 2 x 3 matrix from view px back to photo px."""
        import cv2

        return cv2.invertAffineTransform(self.matrix)

    def to_photo(self, quad: Quad) -> Quad:
        """Corners on the view mapped back onto the photo."""
        m = self.inverse
        result: np.ndarray = np.asarray(quad, np.float64) @ m[:, :2].T + m[:, 2]
        return result

    def to_view(self, quad: Quad) -> Quad:
        """Corners on the photo mapped onto the view."""
        result: np.ndarray = np.asarray(quad, np.float64) @ self.matrix[:, :2].T + self.matrix[:, 2]
        return result


def view_matrix(w: int, h: int, pose: RackPose, config: NormaliseConfig, region: np.ndarray | None = None
                ) -> tuple[np.ndarray, tuple[int, int]]:
    """The photo-to-view matrix for a ``w`` x ``h`` photo and the view's size:
    turned by ``-pose.angle`` (when levelling), scaled so a tile is
    ``config.tile_height`` px tall, the photo's corners inside a margin of
    ``config.margin`` tiles -- or, given the points of a ``region`` (the tiles
    found so far), only as far as ``config.reach`` tiles past them -- the
    view's sides multiples of 32 (the long side at most ``config.max_side``).

    >>> m, size = view_matrix(400, 300, RackPose(0.0, 80.0, 55.0, 7), NormaliseConfig())
    >>> size, (m.round(2) + 0.0).tolist()
    ((288, 256), [[0.5, 0.0, 44.0], [0.0, 0.5, 53.0]])
    >>> tiles = np.array([[100.0, 100.0], [180.0, 180.0]])
    >>> view_matrix(400, 300, RackPose(0.0, 80.0, 55.0, 7), NormaliseConfig(reach=1.0), tiles)[1]
    (128, 128)
    """
    import cv2

    s = config.tile_height / max(pose.tile_height, 1.0)
    angle = pose.angle if config.level and pose.aligned else 0.0
    corners = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)
    for _ in range(2):  # at most one shrink to fit max_side
        m = cv2.getRotationMatrix2D((0.0, 0.0), angle, s)  # turns +angle counter-clockwise as shown
        pts = corners @ m[:, :2].T + m[:, 2]
        tile = pose.tile_height * s  # a tile's height on the view
        lo, hi = pts.min(0) - config.margin * tile, pts.max(0) + config.margin * tile
        if region is not None and len(region):
            near = np.asarray(region, np.float64).reshape(-1, 2) @ m[:, :2].T + m[:, 2]
            lo = np.maximum(lo, near.min(0) - config.reach * tile)
            hi = np.minimum(hi, near.max(0) + config.reach * tile)
        span = float(max(hi - lo))
        if span <= config.max_side:
            break
        s *= config.max_side / span
    cw, ch = (int(np.ceil(v / 32) * 32) for v in hi - lo)
    m[:, 2] += (np.array([cw, ch]) - (hi - lo)) / 2 - lo  # centred on the canvas
    return m, (cw, ch)


def turn_matrix(w: int, h: int, degrees: float) -> tuple[np.ndarray, tuple[int, int]]:
    """A ``w`` x ``h`` photo turned by ``degrees`` (counter-clockwise as shown)
    about its centre on a canvas grown to hold it all: the 2 x 3 photo-to-canvas
    matrix and the canvas's (width, height). The benchmarks' turned views and
    the view detector's turned training photos are made with it.

    >>> m, size = turn_matrix(400, 300, 90.0)
    >>> size, (m.round(2) + 0.0).tolist()
    ((300, 400), [[0.0, 1.0, 0.0], [-1.0, 0.0, 400.0]])
    """
    import cv2

    m = cv2.getRotationMatrix2D((w / 2, h / 2), degrees, 1.0)
    c, s = abs(m[0, 0]), abs(m[0, 1])
    nw, nh = round(h * s + w * c), round(h * c + w * s)
    m[0, 2] += nw / 2 - w / 2
    m[1, 2] += nh / 2 - h / 2
    return m, (nw, nh)


def normalise(img: np.ndarray, pose: RackPose, config: NormaliseConfig | None = None,
              region: np.ndarray | None = None) -> View:
    """The photo turned so its tiles stand upright and scaled to the
    detectors' tile size (:func:`view_matrix`; ``region``: the points of the
    tiles found so far), on a grey canvas. Only the part of the photo the
    view shows is resampled."""
    import cv2

    config = config or NormaliseConfig()
    h, w = img.shape[:2]
    m, (cw, ch) = view_matrix(w, h, pose, config, region)
    inv = cv2.invertAffineTransform(m)
    seen = np.array([[0, 0], [cw, 0], [cw, ch], [0, ch]], np.float64) @ inv[:, :2].T + inv[:, 2]
    x0, y0 = np.clip(np.floor(seen.min(0)).astype(int) - 2, 0, [w, h])
    x1, y1 = np.clip(np.ceil(seen.max(0)).astype(int) + 3, 0, [w, h])
    part = img[y0:max(y1, y0 + 1), x0:max(x1, x0 + 1)]
    warp = m.copy()
    warp[:, 2] += m[:, :2] @ [x0, y0]  # the part's pixels, not the photo's
    scale = float(np.hypot(m[0, 0], m[0, 1]))
    if scale < 0.5:  # shrink most of the way by area averaging first: a warp alone would alias
        pre = 2 * scale
        ph, pw = part.shape[:2]
        part = fast_resize(part, max(1, round(pw * pre)), max(1, round(ph * pre)))
        warp[:, :2] *= [[pw / part.shape[1], ph / part.shape[0]]]
    image = cv2.warpAffine(part, warp, (cw, ch), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                           borderValue=(PAD_GREY, PAD_GREY, PAD_GREY))
    outline = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64) @ m[:, :2].T + m[:, 2]
    return View(image, m, pose, outline)


__all__ = ["RackPose", "View", "estimate_pose", "normalise", "turn_matrix", "view_matrix"]
