"""The detect stage (okey_vision.vision.detect): decoding, suppression and
mirroring of a detector's boxes, checked on boxes whose truth is known."""

from __future__ import annotations

from typing import ClassVar

import numpy as np
import pytest

pytest.importorskip("cv2")

from okey_vision.vision.config import DetectConfig
from okey_vision.vision.crops import obb_quad, upright_quad
from okey_vision.vision.detect import Detection, Detector, suppress_inner_quads


class FakeNet:
    """Stands in for an oriented detector: returns fixed boxes (canvas px),
    mirrored when the image it gets is the mirror of the first it saw."""

    names: ClassVar[dict[int, str]] = {0: "tile"}

    def __init__(self, rows: list[tuple[float, ...]]):
        self.rows = np.array(rows, np.float32).T  # cx, cy, w, h, score, angle
        self.seen: list[np.ndarray] = []

    def __call__(self, x: np.ndarray) -> np.ndarray:
        self.seen.append(x)
        return self.rows[None]


def test_an_outsized_box_does_not_swallow_the_tiles() -> None:
    """A detector firing on the whole table with high confidence: that box is
    not a tile, and the five tiles inside it are all kept."""
    tiles = [(60.0 + 40 * i, 200.0, 30.0, 44.0, 0.8, 0.05) for i in range(5)]
    table = (150.0, 200.0, 390.0, 380.0, 0.99, 0.3)
    img = np.zeros((416, 416, 3), np.uint8)
    got = Detector(FakeNet(tiles + [table]))(img)
    assert sorted(round(float(d.quad[:, 0].mean())) for d in got) == [60, 100, 140, 180, 220]
    # why the rule: with the outsized box left in, the tiles go in the NMS
    loose = DetectConfig(outsized=1000.0)
    assert len(Detector(FakeNet(tiles + [table]), loose)(img)) < 5


def test_a_box_across_two_tiles_is_dropped() -> None:
    """A box straddling the gap between two tiles found on their own is not a
    third tile; a tile whose box only touches its neighbours' stays."""
    left, right = obb_quad(100, 100, 40, 60, 0.0), obb_quad(144, 100, 40, 60, 0.0)
    across = obb_quad(122, 100, 40, 60, 0.0)   # half on each: covered 0.9, neither holds 0.6 of it
    beside = obb_quad(184, 100, 40, 60, 0.0)   # overlaps `right` by a tenth of its width
    quads = {0: left, 1: right, 2: across, 3: beside}
    scores = np.array([0.9, 0.85, 0.5, 0.8])
    kept = suppress_inner_quads(quads, scores, np.arange(4), 0.6, 0.6)
    assert sorted(kept.tolist()) == [0, 1, 3]


def test_boxes_come_back_in_image_pixels_and_mirrored_back() -> None:
    """A box the network gives on the shrunk, letterboxed canvas lands on the
    same tile of the image; read mirrored, the box maps back to it too."""
    img = np.zeros((300, 600, 3), np.uint8)          # shrunk to 320 x 160: canvas 320 x 160, no pad
    net = FakeNet([(80.0, 60.0, 20.0, 30.0, 0.9, 0.0)])
    d = Detector(net)(img, size=320)[0]
    assert np.allclose(d.quad.mean(0), (150.0, 112.5))          # canvas (80, 60) / (320 / 600)
    assert np.allclose(sorted(np.ptp(d.quad, axis=0)), (37.5, 56.25))
    m = Detector(net)(img, size=320, mirror=True)[0]
    assert np.allclose(m.quad.mean(0), (600 - 150.0, 112.5))    # the mirrored canvas's box, mapped back
    assert np.allclose(net.seen[1][0, :, :, ::-1], net.seen[0][0])   # the second canvas was the mirror


def test_corners_are_ordered_as_the_tile_stands() -> None:
    """Every detection's corners run TL, TR, BR, BL with the long side as the
    height; a near-square box on a view is stood up by the view's up."""
    tilted = Detection(upright_quad(obb_quad(50, 50, 20, 30, np.radians(20))), 0.9)
    q = tilted.quad
    assert np.linalg.norm(q[3] - q[0]) > np.linalg.norm(q[1] - q[0])   # left side longer than the top
    assert q[0][1] < q[3][1]                                             # top above bottom
    square = Detection(np.roll(obb_quad(50, 50, 30, 32, np.radians(5)), 1, axis=0), 0.9)  # corners a turn off
    stood = square.standing(1.25).quad
    up = (stood[0] + stood[1]) / 2 - (stood[3] + stood[2]) / 2
    assert up[1] < 0 and abs(up[0]) < 0.2 * abs(up[1])
    assert square.standing(1.01).quad is square.quad                    # long enough to trust its sides


def test_mapping_keeps_the_corner_order() -> None:
    """Through a turn and a scale the tile's own top stays its top."""
    d = Detection(upright_quad(obb_quad(50, 50, 20, 30, 0.0)), 0.8)
    turn = np.array([[0.0, -2.0, 100.0], [2.0, 0.0, 0.0]])  # 90 degrees and twice the size
    m = d.mapped(turn)
    assert np.allclose(m.quad, d.quad @ turn[:, :2].T + turn[:, 2])
    assert m.score == 0.8
