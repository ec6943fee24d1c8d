"""Crop geometry shared by training and the reader: upright quads, upright
crops, white balance on the tile face, greyscale detection."""

from __future__ import annotations

import math

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")

from okey_vision.synth.datasets import CROP_CLASSES  # noqa: E402
from okey_vision.vision.crops import (  # noqa: E402
    COLOR_CLASSES,
    NUMBER_CLASSES,
    box_quad,
    face_colour,
    is_greyscale,
    obb_quad,
    quad_axes,
    turned,
    upright_crop,
    upright_crop_pair,
    upright_quad,
    white_balance,
)


def test_class_lists_are_shared() -> None:
    assert CROP_CLASSES["number"] is NUMBER_CLASSES
    assert CROP_CLASSES["color"] is COLOR_CLASSES


@pytest.mark.parametrize("deg", [0, 30, 45, 60, 89, 120, 179, 200, 270, 330])
def test_upright_quad_stands_the_tile(deg: float) -> None:
    q = obb_quad(200, 150, 40, 60, math.radians(deg))  # a 2:3 tile turned by deg
    u = upright_quad(q)
    right, up, w, h = quad_axes(u)
    assert h > w  # the long side is the height
    assert up[1] <= 1e-9  # its top towards the image's top
    assert right[0] * up[1] - right[1] * up[0] < 0 or abs(up[1]) < 1e-9  # clockwise: right of up
    assert set(map(tuple, np.round(u, 6))) == set(map(tuple, np.round(q, 6)))
    assert np.allclose(turned(turned(u)), u)


def test_upright_crop_of_a_turned_tile_matches_the_standing_one() -> None:
    # draw a standing "tile" with a mark at its top, turn the photo by 40 degrees
    img = np.full((300, 300, 3), 60, np.uint8)
    cv2.rectangle(img, (120, 90), (180, 210), (230, 235, 240), -1)
    cv2.rectangle(img, (140, 100), (160, 130), (20, 20, 200), -1)  # red mark at the top
    m = cv2.getRotationMatrix2D((150, 150), 40, 1.0)
    rot = cv2.warpAffine(img, m, (300, 300), borderValue=(60, 60, 60))
    corners = np.array([[120, 90], [180, 90], [180, 210], [120, 210]], np.float64)
    q = np.column_stack([corners, np.ones(4)]) @ m.T
    a = upright_crop(img, box_quad((120, 90, 180, 210)), margin=0.0)
    b = upright_crop(rot, upright_quad(q), margin=0.0)
    assert a.shape == b.shape == (64, 64, 3)
    red = lambda c: (c[..., 2] > 150) & (c[..., 0] < 100)  # noqa: E731
    ya = np.nonzero(red(a))[0].mean()
    yb = np.nonzero(red(b))[0].mean()
    assert ya < 32 and abs(ya - yb) < 3  # the mark is at the top in both


def test_white_balance_makes_a_tinted_face_neutral() -> None:
    crop = np.full((64, 64, 3), (220, 230, 235), np.uint8)
    crop[20:40, 25:40] = (40, 40, 200)  # red ink
    tinted = np.clip(crop * np.array([0.5, 0.8, 1.0]), 0, 255).astype(np.uint8)  # warm lamp
    a, b = white_balance(crop), white_balance(tinted)
    assert np.abs(face_colour(a) - face_colour(b)).max() < 6
    assert np.abs(a[30, 30].astype(int) - b[30, 30].astype(int)).max() < 25


def test_greyscale_detection() -> None:
    grey = np.repeat(np.random.default_rng(0).integers(0, 255, (120, 160, 1), np.uint8), 3, axis=2)
    assert is_greyscale(grey)
    colour = grey.copy()
    colour[40:80, 40:80] = (30, 30, 200)
    assert not is_greyscale(colour)


def test_training_crops_stand_even_when_the_tile_lies_upside_down() -> None:
    from okey_vision.synth.datasets import cut_upright

    img = np.full((300, 300, 3), 60, np.uint8)
    cv2.rectangle(img, (120, 90), (180, 210), (230, 235, 240), -1)
    cv2.rectangle(img, (140, 100), (160, 130), (20, 20, 200), -1)  # mark at the tile's top
    flipped = img[::-1, ::-1].copy()  # the tile lies upside down
    # label corners TL, TR, BR, BL in the tile's own frame, as the renderer gives them
    quad = [(300 - x, 300 - y) for x, y in [(120, 90), (180, 90), (180, 210), (120, 210)]]
    crop = cut_upright(flipped, quad, np.random.default_rng(0), 64, margin=(0.0, 0.0), jitter=0.0)
    ys = np.nonzero((crop[..., 2] > 150) & (crop[..., 0] < 100))[0]
    assert ys.mean() < 32  # the mark is at the top: the crop stands


def test_batched_white_balance_and_blank_check_match_the_single_ones() -> None:
    from okey_vision.vision.crops import has_ink, have_ink, white_balance_all

    rng = np.random.default_rng(3)
    img = rng.integers(0, 255, (120, 160, 3)).astype(np.uint8)
    img[20:100, 30:70] = (200, 215, 225)            # a blank cream face
    img[20:100, 90:130] = (200, 215, 225)
    cv2.putText(img, "7", (95, 85), cv2.FONT_HERSHEY_SIMPLEX, 2.0, (40, 40, 200), 5)  # an inked one
    quads = [box_quad((30, 20, 70, 100)), box_quad((90, 20, 130, 100)), box_quad((0, 0, 50, 60))]
    crops = [upright_crop(img, q) for q in quads]
    for a, b in zip(white_balance_all(crops), [white_balance(c) for c in crops], strict=True):
        assert np.array_equal(a, b)
    assert have_ink(img, quads) == [has_ink(img, q) for q in quads]
    assert have_ink(img, quads)[:2] == [False, True]


@pytest.mark.parametrize("margin", [0.08, 0.12, -0.15])
def test_a_crop_pair_is_the_tile_cut_upright_and_turned(margin: float) -> None:
    rng = np.random.default_rng(3)
    img = cv2.GaussianBlur(rng.integers(0, 256, (600, 800, 3), dtype=np.uint8), (3, 3), 0)
    for deg, (cx, cy), (w, h), in [(0.0, (300, 200), (60, 84)), (33.0, (410, 330), (45, 63)),
                                   (-70.0, (500, 250), (200, 280)), (12.0, (30, 40), (70, 100))]:
        q = upright_quad(obb_quad(cx, cy, w, h, math.radians(deg)))
        up, down = upright_crop_pair(img, q, margin=margin)
        assert np.array_equal(up, upright_crop(img, q, margin=margin))           # the same pixels, to the bit
        diff = np.abs(down.astype(int) - upright_crop(img, turned(q), margin=margin))
        assert diff.max() <= 1 and (diff > 0).mean() < 1e-3  # OpenCV rounds a sample point to 1/32 px


def test_counted_medians_and_quantiles_are_numpys_to_the_bit() -> None:
    from okey_vision.vision.crops import _at_least_quantile, _masked_median, _placed

    rng = np.random.default_rng(7)
    for p, q in [(4096, 0.66), (2304, 0.6), (5, 0.5), (1, 0.66), (7, 0.0), (9, 1.0)]:
        vals = rng.integers(0, 256, (6, p, 1, 3), dtype=np.uint8)
        vals[0] = 200                                            # a flat crop: every value alike
        lum = vals.sum(3, dtype=np.uint16)[..., 0]
        mask = _at_least_quantile(lum, q)
        assert np.array_equal(mask, lum >= np.quantile(lum.astype(np.float32), q, axis=1)[:, None])
        want = np.stack([np.median(v[m], axis=0) for v, m in zip(vals[:, :, 0].astype(np.float32), mask, strict=True)])
        assert np.array_equal(_masked_median(vals, mask[..., None]), want.astype(np.float32))
    warps = [rng.integers(0, 256, (h, w, 3), dtype=np.uint8) for h, w in [(64, 49), (1, 1), (2, 3), (64, 64), (7, 64)]]
    for crop, warped in zip(_placed(warps, 64), warps, strict=True):
        pad = np.median(warped.reshape(-1, 3), axis=0).astype(np.uint8)
        h, w = warped.shape[:2]
        y, x = (64 - h) // 2, (64 - w) // 2
        assert np.array_equal(crop[y:y + h, x:x + w], warped)
        assert (crop.reshape(-1, 3) == pad).all(1).sum() >= 64 * 64 - h * w
