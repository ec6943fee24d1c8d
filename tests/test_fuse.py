"""The fuse stage (okey_vision.vision.fuse): passes joined into one box a tile,
rectified rows fused in, tiles cut by the photo's edge dropped."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("cv2")

from okey_vision.vision.config import FuseConfig
from okey_vision.vision.crops import obb_quad, upright_quad
from okey_vision.vision.detect import Detection, quad_iou
from okey_vision.vision.fuse import drop_cut_tiles, fuse_passes, fuse_rectified


def det(cx: float, score: float, dx: float = 0.0, cy: float = 100.0) -> Detection:
    """A 40 x 60 tile centred at (cx + dx, cy)."""
    return Detection(upright_quad(obb_quad(cx + dx, cy, 40, 60, 0.0)), score)


def test_two_passes_fuse_into_one_box_a_tile() -> None:
    """Boxes the two passes agree on become one box between them (weighted by
    score); a box only one pass found stays only when it is sure."""
    first = [det(100, 0.9), det(200, 0.8), det(300, 0.45)]
    second = [det(100, 0.6, dx=6.0), det(250, 0.7), det(300, 0.6, dx=-4.0)]
    got = sorted(fuse_passes(first, second, FuseConfig(iou=0.5, single=0.5)), key=lambda d: d.quad[:, 0].mean())
    centres = [round(float(d.quad[:, 0].mean()), 1) for d in got]
    # 100 (0.9) + 106 (0.6): weighted 102.4; 200 and 250 alone and sure; 300 (0.45) + 296 (0.6): 297.7
    assert centres == [102.4, 200.0, 250.0, 297.7]
    assert [round(d.score, 3) for d in got] == [0.75, 0.8, 0.7, 0.525]
    # a lone box under `single` goes; boxes of one pass never fuse with each other
    assert len(fuse_passes([det(100, 0.4)], [], FuseConfig(single=0.5))) == 0
    assert len(fuse_passes([det(100, 0.9), det(104, 0.8)], [], FuseConfig(single=0.5))) == 2


def test_rectified_boxes_fuse_with_the_first_ones() -> None:
    """On a row read again: a box on a first-pass tile is averaged with it, a
    new sure box is added, an unsure new one is not; other rows stay."""
    first = [det(0, 0.9), det(50, 0.7), det(100, 0.8), det(0, 0.9, cy=300)]
    found = [det(0, 0.5, dx=4), det(50, 0.9, dx=2), det(150, 0.8), det(200, 0.3)]
    out = fuse_rectified(first, [0, 1, 2], found)
    xs = sorted(round(float(d.quad[:, 0].mean()), 1) for d in out)
    assert xs == [0.0, 1.4, 51.1, 100.0, 150.0]
    assert any(quad_iou(d.quad, det(50, 0).quad) > 0.9 and d.score == 0.9 for d in out)


def test_a_tile_cut_by_the_edge_is_dropped_only_when_little_shows() -> None:
    """At the photo's edge a tile showing under 60 % of the median tile goes;
    a whole tile touching the edge stays."""
    tiles = [det(100 + 45 * i, 0.9) for i in range(4)]
    sliver = Detection(np.array([[0, 70], [12, 70], [12, 130], [0, 130]], float), 0.9)
    whole = Detection(np.array([[0, 70], [40, 70], [40, 130], [0, 130]], float), 0.9)
    kept = drop_cut_tiles(tiles + [sliver, whole], 400, 200)
    assert len(kept) == 5 and sliver not in kept and whole in kept
