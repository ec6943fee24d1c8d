"""Corner refinement (okey_vision.vision.refine): corners pulled onto the face's edges."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("cv2")

from okey_vision.synth import SynthConfig, render_scene  # noqa: E402
from okey_vision.vision.crops import quad_axes, upright_quad  # noqa: E402
from okey_vision.vision.refine import plausible, refine, refine_all, refine_quad, shift  # noqa: E402

#: A clean Okey rack (as in tests/test_reader.py), turned 45 degrees or seen from the side.
OKEY_CLEAN = SynthConfig(long_side=(1200, 1200), aspects=(4 / 3,), p_flat=0.0, p_typical_hand=1.0,
                         effects=False, p_hand=0.0, p_objects=0.0, p_other_rack=0.0, p_discards=0.0,
                         p_indicator=0.0, max_tilt=10.0, max_roll=3.0, tile_height=(80.0, 100.0),
                         p_okey_style=1.0)


def detector_like(quad: np.ndarray, degrees: float = 10.0, scale: float = 0.9) -> np.ndarray:
    """The true quad turned ``degrees`` about its centre and shrunk: the kind
    of error the oriented detector makes."""
    c = quad.mean(0)
    a = np.radians(degrees)
    rot = np.array([[np.cos(a), -np.sin(a)], [np.sin(a), np.cos(a)]])
    return (quad - c) @ rot.T * scale + c


@pytest.mark.parametrize("config, seed", [(OKEY_CLEAN.replace(rack_roll=(45.0, 45.0)), 1),
                                          (OKEY_CLEAN.replace(rack_roll=(45.0, 45.0)), 2),
                                          (OKEY_CLEAN.replace(p_side_view=1.0, max_tilt=0.0), 2)])
def test_refinement_moves_offset_corners_back_to_the_tile(config: SynthConfig, seed: int) -> None:
    scene = render_scene(seed, config)
    before, after = [], []
    for t in scene.tiles:
        true = upright_quad(np.array(t.quad, float))
        off = detector_like(true)
        got, _ = refine(scene.image, off)
        before.append(shift(off, true))
        after.append(shift(got, true))
    before, after = np.array(before), np.array(after)
    assert len(before) >= 10
    assert np.median(after) < 0.6 * np.median(before)   # ~11 % of the height -> under 7 %
    assert (after <= before + 0.02).all()                # no tile pushed further off


def test_a_flat_photo_keeps_the_detection() -> None:
    img = np.full((200, 200, 3), 200, np.uint8)
    quad = np.array([[80.0, 60.0], [120.0, 60.0], [120.0, 120.0], [80.0, 120.0]])
    got, moved = refine(img, quad)
    assert moved == 0 and np.allclose(got, quad)


def test_plausible_rejects_twisted_and_sliver_quads() -> None:
    square = np.array([[0.0, 0.0], [10.0, 0.0], [10.0, 14.0], [0.0, 14.0]])
    assert plausible(square)
    assert plausible(square + np.array([[4.0, 0.0], [4.0, 0.0], [0.0, 0.0], [0.0, 0.0]]))  # sheared
    assert not plausible(square[[0, 2, 1, 3]])                                             # twisted
    assert not plausible(np.array([[0.0, 0.0], [10.0, 0.0], [3.0, 14.0], [0.0, 14.0]]))     # a wedge
    assert quad_axes(square)[3] == 14.0


def test_tiles_fitted_together_get_the_corners_each_gets_alone() -> None:
    scene = render_scene(1, OKEY_CLEAN.replace(rack_roll=(45.0, 45.0)))
    offs = [detector_like(upright_quad(np.array(t.quad, float)), degrees=d)
            for t, d in zip(scene.tiles, np.tile([-8.0, 0.0, 10.0], len(scene.tiles)), strict=False)]
    offs.append(np.array([[5.0, 5.0], [6.0, 5.0], [6.0, 6.0], [5.0, 6.0]]))  # too small to fit: kept
    together = refine_all(scene.image, offs)
    alone = [refine_quad(scene.image, q) for q in offs]
    assert sum(m > 0 for _, m in together) >= 10
    for (q1, m1), (q2, m2) in zip(together, alone, strict=True):
        assert m1 == m2 and np.array_equal(q1, q2)
    assert together[-1][1] == 0 and np.array_equal(together[-1][0], offs[-1])


def test_patches_side_by_side_give_each_tiles_own_edge_maps() -> None:
    """The batched search patches (face-likeness on one strip) hold, bit for
    bit, the edge maps each tile's patch gives alone."""
    from okey_vision.vision.config import RefineConfig
    from okey_vision.vision.refine import _centre, _patches, _warped, edge_maps, face_likeness

    c = RefineConfig()
    scene = render_scene(1, OKEY_CLEAN.replace(rack_roll=(45.0, 45.0)))
    quads = [detector_like(upright_quad(np.array(t.quad, float)), deg, s)
             for t, deg, s in zip(scene.tiles, [0.0, 10.0, -8.0, 4.0] * 10, [1.0, 0.9, 1.1, 0.8] * 10, strict=False)]
    quads.append(np.array([[5.0, 5.0], [6.0, 5.0], [6.0, 6.0], [5.0, 6.0]]))  # too small to fit
    patches = _patches(scene.image, quads, c)
    assert patches[-1] is None and all(p is not None for p in patches[:-1])
    for q, p in zip(quads[:-1], patches[:-1], strict=True):
        warp = _warped(scene.image, q, c)
        assert warp is not None and p is not None
        _, _, tw, mx, my, patch = warp
        gv, gh = edge_maps(face_likeness(patch, _centre(tw, mx, my, c), c), c)
        assert np.array_equal(p.maps[0], gv) and np.array_equal(p.maps[3], gh)
        assert np.array_equal(p.maps[1], -gh) and np.array_equal(p.maps[2], -gv)
