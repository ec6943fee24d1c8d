"""Row rectification (okey_vision.vision.rectify): geometry checked against
drawn and rendered tiles whose corners are known."""

from __future__ import annotations

import itertools

import cv2
import numpy as np
import pytest

from okey_vision.vision import rectify
from okey_vision.vision.crops import box_quad, quad_axes, upright_quad
from okey_vision.vision.detect import Detection, quad_iou
from okey_vision.vision.fuse import fuse_rectified


def sheared_row(k: float, n: int = 6, h: int = 60, w: int = 40, gap: int = 6, x0: int = 60, y0: int = 80
                ) -> tuple[np.ndarray, list[np.ndarray]]:
    """A dark image with a row of ``n`` cream tiles, each a parallelogram
    whose top is shifted right by ``k`` px per px of height; their corners."""
    img = np.full((260, 600, 3), 40, np.uint8)
    quads = []
    for i in range(n):
        x = x0 + i * (w + gap)
        q = np.array([[x + k * h, y0], [x + w + k * h, y0], [x + w, y0 + h], [x, y0 + h]], np.float64)
        cv2.fillConvexPoly(img, np.int32(np.round(q)), (200, 225, 235))
        cv2.putText(img, str(i + 1), (int(x + k * h / 2 + 8), y0 + 40), cv2.FONT_HERSHEY_SIMPLEX, 1.0,
                    (30, 30, 30), 2)
        quads.append(q)
    return img, quads


@pytest.mark.parametrize("k", [-0.4, 0.0, 0.3])
def test_lean_finds_the_shear_of_upright_edges(k: float) -> None:
    img, _ = sheared_row(k)
    strip = img[50:170]  # level already: only the lean is left
    # the strip's x moves by lean px per px down, the tiles' tops lean right by k
    assert rectify.lean(strip) == pytest.approx(k, abs=0.06)


def side_lean(q: np.ndarray) -> float:
    """How far a quad's left and right sides lean (px across per px down, mean)."""
    left = (q[0][0] - q[3][0]) / max(q[3][1] - q[0][1], 1e-9)
    right = (q[1][0] - q[2][0]) / max(q[2][1] - q[1][1], 1e-9)
    return (left + right) / 2


def test_a_leaning_row_comes_out_upright() -> None:
    img, true = sheared_row(0.45)
    first = [box_quad((q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max())) for q in true]
    strips = rectify.row_strips(img, first)
    assert len(strips) == 1
    rs, im = strips[0]
    assert rs.members == tuple(range(6)) and im.shape[:2] == (rs.size[1], rs.size[0])
    for q in true:  # the true corners in the strip: sides stand upright, tops level
        s = cv2.perspectiveTransform(q[None], rs.transform)[0]
        assert abs(side_lean(s)) < 0.08
        assert abs(s[0][1] - s[1][1]) < 2.0 and abs(s[3][1] - s[2][1]) < 2.0


def test_an_upright_row_is_left_alone() -> None:
    img, true = sheared_row(0.0)
    assert rectify.row_strips(img, true) == []


def test_rows_split_across_and_order_along() -> None:
    q = [box_quad((x, y, x + 10, y + 14)) for y in (40, 0) for x in (22, 0, 11)]
    right, down, rows = rectify.rows_of(q)
    assert rows == [[4, 5, 3], [1, 2, 0]]
    assert right == pytest.approx([1, 0]) and down == pytest.approx([0, 1])


def test_canvas_boxes_map_back_to_the_photo() -> None:
    # a long strip: chunks overlap, sit on stacked canvases; a tile found on
    # any chunk maps back to where it is in the photo
    photo_to_strip = np.array([[0.5, 0, -10], [0, 0.5, -20], [0, 0, 1]], np.float64)
    rs = rectify.RowStrip((0, 1, 2), photo_to_strip, (2000, rectify.DEFAULT.strip_h), 0.0)
    strip = np.zeros((rectify.DEFAULT.strip_h, 2000, 3), np.uint8)
    pages = rectify.canvases([strip])
    assert all(c.shape == (rectify.DEFAULT.canvas, rectify.DEFAULT.canvas, 3) for c, _ in pages)
    starts = [p.x0 for _, places in pages for p in places]
    assert starts[0] == 0 and starts[-1] + rectify.DEFAULT.canvas >= 2000
    assert all(b - a == rectify.DEFAULT.canvas - rectify.DEFAULT.strip_h for a, b in itertools.pairwise(starts))
    tile_in_strip = box_quad((1500, 10, 1530, 50))
    size = rectify.DEFAULT.canvas
    _, places = next((c, ps) for c, ps in pages if any(p.x0 <= 1500 and p.x0 + size >= 1530 for p in ps))
    p = next(p for p in places if p.x0 <= 1500 and p.x0 + rectify.DEFAULT.canvas >= 1530)
    on_canvas = tile_in_strip - [p.x0, -p.y0]
    back = rectify.to_photo(on_canvas, places, [rs])
    assert back == pytest.approx(box_quad((3020, 60, 3080, 140)))


def test_fusing_keeps_other_tiles_and_drops_unsure_new_ones() -> None:
    sq = lambda x, y=0: np.array([[x, y], [x + 10, y], [x + 10, y + 14], [x, y + 14]], float)  # noqa: E731
    first = [Detection(sq(x), 0.8) for x in (0, 11, 22)] + [Detection(sq(0, 60), 0.9)]
    found = [Detection(sq(x) + [2, 0], 0.8) for x in (0, 11)]
    found += [Detection(sq(33), 0.6), Detection(sq(44), 0.4)]
    out = fuse_rectified(first, [0, 1, 2], found)
    xs = sorted(round(float(d.quad[0][0]), 1) for d in out)
    # row 0: two averaged (0 -> 1, 11 -> 12), 22 kept, 33 new; 44 too unsure; the other row untouched
    assert xs == [0.0, 1.0, 12.0, 22.0, 33.0]
    assert any(quad_iou(d.quad, sq(0, 60)) > 0.99 and d.score == 0.9 for d in out)


def test_rendered_side_view_rows_come_out_upright() -> None:
    """On a rendered side view, the renderer's true face corners of the tiles
    on each rectified row lean much less in the strip than in the photo (the
    rows found from those corners: the stage alone, whatever a detector finds)."""
    from test_reader import SIDE_VIEW

    from okey_vision.synth import render_scene

    scene = render_scene(2, SIDE_VIEW)
    quads = [upright_quad(np.asarray(t.quad, np.float64)) for t in scene.tiles if t.on_rack]
    strips = rectify.row_strips(scene.image, quads)
    assert strips
    before, after = [], []
    for rs, _ in strips:
        centres = [quads[i].mean(0) for i in rs.members]
        for t in scene.tiles:
            q = np.asarray(t.quad, np.float64)
            if not t.on_rack or min(np.linalg.norm(c - q.mean(0)) for c in centres) > quad_axes(q)[3] / 2:
                continue
            before.append(abs(side_lean(q)))
            after.append(abs(side_lean(cv2.perspectiveTransform(q[None], rs.transform)[0])))
    assert len(after) >= 6
    assert np.mean(after) < 0.5 * np.mean(before) and np.mean(after) < 0.08
