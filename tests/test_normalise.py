"""The look and normalise stages (okey_vision.vision.look, .normalise): the
rack's angle and tile size found on drawn tiles of known angle and size, and
the view they give."""

from __future__ import annotations

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")

from drawn import drawn_rack  # noqa: E402

from okey_vision.vision.config import LookConfig, NormaliseConfig  # noqa: E402
from okey_vision.vision.crops import obb_quad, quad_axes  # noqa: E402
from okey_vision.vision.look import Look, bordered, look  # noqa: E402
from okey_vision.vision.normalise import RackPose, View, estimate_pose, normalise, view_matrix  # noqa: E402

#: Drawn racks: the tiles' width direction (degrees) and height (px in a 1200 x 900 photo:
#: 10 % and 20 % of its long side, as players' close-ups).
POSES = [(a, h) for a in (0, 30, 45, 60, 90, 135, -20, 170) for h in (120, 240)]


def angle_error(found: float, true: float) -> float:
    """Degrees between two rows' directions (mod 180)."""
    return abs((found - true + 90.0) % 180.0 - 90.0)


@pytest.mark.parametrize("angle, tile_h", POSES)
def test_the_pose_of_drawn_tiles_is_found(reader, angle: float, tile_h: float) -> None:
    """The reader's pose (its first look, settled on the view's boxes) is
    within 3 degrees and 10 % of the drawn tiles'."""
    img, quads, _ = drawn_rack(angle, tile_h, per_row=5)
    assert len(quads) >= 6
    _, trace = reader.read_traced(img)
    pose = trace.pose
    assert pose is not None and pose.aligned
    assert angle_error(pose.angle, angle) <= 3.0
    assert abs(pose.tile_height / tile_h - 1.0) <= 0.10


@pytest.mark.parametrize("angle, tile_h", [(30, 120), (60, 240), (135, 120)])
def test_the_view_stands_the_tiles_upright_at_the_detectors_size(angle: float, tile_h: float) -> None:
    """Normalised with the true pose, the drawn tiles stand upright and are
    ``tile_height`` px tall on the view; the view maps back onto the photo."""
    img, quads, _ = drawn_rack(angle, tile_h, per_row=5)
    truth = estimate_pose(quads)
    assert truth is not None and angle_error(truth.angle, angle) < 0.5
    cfg = NormaliseConfig()
    view = normalise(img, truth, cfg)
    assert isinstance(view, View) and view.image.shape[0] % 32 == 0 and view.image.shape[1] % 32 == 0
    for q in quads:
        right, _up, _w, h = quad_axes(view.to_view(q))
        assert abs(h - cfg.tile_height) < 1.0
        assert abs(abs(right[0]) - 1.0) < 1e-6                      # width level: the tile stands upright
        assert np.allclose(view.to_photo(view.to_view(q)), q)
        x, y = view.to_view(q).mean(0)
        assert 0 <= x < view.image.shape[1] and 0 <= y < view.image.shape[0]


def test_a_wide_table_is_scaled_down_to_the_longest_view() -> None:
    """Tiny tiles on a large photo would make a huge view: it is capped."""
    m, (cw, ch) = view_matrix(4000, 3000, RackPose(0.0, 10.0, 7.0, 40), NormaliseConfig(max_side=1280))
    assert max(cw, ch) <= 1280 + 32
    assert m[0, 0] < 4.0


def test_tiles_lying_every_which_way_are_not_turned() -> None:
    """Loose tiles at random angles share no rack axis: the pose says so."""
    rng = np.random.default_rng(1)
    quads = [obb_quad(rng.uniform(0, 800), rng.uniform(0, 600), 40, 60, rng.uniform(0, np.pi)) for _ in range(12)]
    quads = [q for q in quads]
    pose = estimate_pose(quads)
    assert pose is not None and not pose.aligned and pose.angle == 0.0
    assert estimate_pose([]) is None


def test_the_border_shrinks_the_photo_around_it() -> None:
    """The bordered canvas holds the whole photo, shrunk, inside the border."""
    img = np.full((900, 1200, 3), 200, np.uint8)
    canvas, m = bordered(img, 0.3, 416)
    assert max(canvas.shape[:2]) == 416
    corners = np.array([[0, 0], [1200, 900]], float) @ m[:, :2].T + m[:, 2]
    border = 0.3 * 1200 * m[0, 0]
    assert np.allclose(corners[0], (border, border), atol=1.0)
    assert (canvas[:int(border) - 1] == 114).all()


def test_a_photo_without_tiles_has_no_pose(reader) -> None:
    """Nothing to see: no pose, no view, no reads."""
    grey = np.full((600, 800, 3), 90, np.uint8)
    seen = look(grey, reader.detector("detector"), LookConfig())
    assert isinstance(seen, Look) and seen.pose is None and seen.detections == ()
    reads, trace = reader.read_traced(grey)
    assert reads == [] and trace.view is None


@pytest.mark.parametrize("tile_h, angle, at", [(311.5, 0.0, (2000, 1500)), (500.0, 20.0, (1501, 977)),
                                               (120.0, -35.0, (2999, 2011))])
def test_a_photo_point_lands_where_the_view_matrix_puts_it(tile_h: float, angle: float, at) -> None:
    """A 12 MP photo shrunk onto the view (area-averaged first, then warped): a spot
    of the photo lies on the view where ``view.matrix`` says, within half a
    view px (the shrink maps the part's sides, not its pixel centres)."""
    img = np.zeros((3000, 4000, 3), np.uint8)
    cv2.circle(img, at, round(0.2 * tile_h), (255, 255, 255), -1)
    view = normalise(img, RackPose(angle, tile_h, 0.7 * tile_h, 14, True))
    g = view.image[..., 0].astype(float) * (view.image[..., 0] > 114)
    ys, xs = np.mgrid[:g.shape[0], :g.shape[1]]
    found = np.array([(g * xs).sum(), (g * ys).sum()]) / g.sum()
    assert np.abs(found - view.to_view(np.array([at], float))[0]).max() < 0.5
