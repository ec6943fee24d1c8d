"""Rack rows along the rack's own axis: rack order and APART on level,
diagonal and side-view racks."""

from __future__ import annotations

import math

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("cv2")

from okey_vision.tiles import parse_tile  # noqa: E402
from okey_vision.vision.crops import obb_quad  # noqa: E402
from okey_vision.vision.order import assign_rows, axial_mean, common_axis  # noqa: E402
from okey_vision.vision.reads import APART, TileRead, rack_order  # noqa: E402


def test_rows_follow_a_diagonal_rack() -> None:
    ang = math.radians(40)
    u = np.array([math.cos(ang), math.sin(ang)])
    v = np.array([-math.sin(ang), math.cos(ang)])  # down the rack's tiers
    reads = []
    for row, n in ((0, 6), (1, 5)):
        for i in range(n):
            c = np.array([300.0, 200.0]) + u * 24 * i + v * 40 * row
            q = obb_quad(c[0], c[1], 20, 30, ang)
            box = (q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max())
            reads.append(TileRead(box, parse_tile(f"r{i + 1 + 6 * row}"), 0.9,
                                  quad=tuple(map(tuple, q))))
    far = obb_quad(100, 500, 20, 30, ang)
    reads.append(TileRead((90, 485, 110, 515), parse_tile("k1"), 0.9, quad=tuple(map(tuple, far))))
    out = rack_order(assign_rows(reads[::-1]))
    assert [r.name for r in out] == [f"r{k}" for k in range(1, 12)] + ["k1"]
    assert [r.row for r in out] == [0] * 6 + [1] * 5 + [APART]


def test_rows_follow_the_row_when_the_boxes_are_turned() -> None:
    """A side view: the detector's boxes turned 35 degrees off a level rack
    row; the rows follow the tiles' neighbours, not the boxes' axes."""
    ang = math.radians(35)
    reads = []
    for row, n in ((0, 6), (1, 5)):
        for i in range(n):
            q = obb_quad(300.0 + 24 * i, 200.0 + 45 * row, 20, 30, ang)
            box = (q[:, 0].min(), q[:, 1].min(), q[:, 0].max(), q[:, 1].max())
            reads.append(TileRead(box, parse_tile(f"r{i + 1 + 6 * row}"), 0.9, quad=tuple(map(tuple, q))))
    out = rack_order(assign_rows(reads[::-1]))
    assert [r.name for r in out] == [f"r{k}" for k in range(1, 12)]
    assert [r.row for r in out] == [0] * 6 + [1] * 5


def test_rows_and_apart() -> None:
    def tr(x, y):
        return TileRead((x, y, x + 20, y + 30), parse_tile("r1"), 0.9)

    top = [tr(100 + 22 * i, 100) for i in range(5)]
    bottom = [tr(100 + 22 * i, 140 + i) for i in range(4)]
    far = tr(400, 300)
    out = assign_rows(bottom + [far] + top)
    assert [r.row for r in out] == [1] * 4 + [APART] + [0] * 5


@pytest.mark.parametrize("deg", [0, 30, 60, 89, 120, 170])
def test_common_axis_is_the_tiles_axis_mod_180(deg: float) -> None:
    """Tiles turned ``deg`` (a few one way up, most the other) share one axis."""
    ang = math.radians(deg)
    quads = [obb_quad(50.0 * i, 0.0, 20, 30, ang + (math.pi if i % 4 == 0 else 0.0) + 0.02 * (i % 3))
             for i in range(9)]
    u, members = common_axis(quads)
    assert abs(abs(float(u @ [math.cos(ang), math.sin(ang)])) - 1.0) < 1e-2
    assert members == list(range(9))


def test_axial_mean_refuses_vectors_pointing_every_which_way() -> None:
    """No shared direction (a heap of loose tiles): None, not a made-up axis."""
    v = np.array([[math.cos(t), math.sin(t)] for t in np.linspace(0, math.pi, 8, endpoint=False)])
    assert axial_mean(v) is None
    # opposite vectors along one line share its axis (mod 180 degrees)
    assert abs(float(axial_mean(np.array([[1.0, 0.01], [-1.0, 0.0], [1.0, -0.01]])) @ [1.0, 0.0])) > 0.999
