"""The oriented detector's view data (okey_vision.training.views): the reader's
own normalised views, cut in 416 px crops, labelled with the true faces."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from okey_vision.training import paths, views

cv2 = pytest.importorskip("cv2")


def _inside(pt, poly, tol: float = 1.0) -> bool:
    return cv2.pointPolygonTest(np.float32(poly).reshape(-1, 1, 2), (float(pt[0]), float(pt[1])), True) >= -tol


def test_scene_labels_land_on_the_true_tiles_at_the_readers_scale() -> None:
    """A few close-up scenes: every crop is a part of the reader's view (its
    pixels), every label lies on a true face mapped into it, and the tiles
    stand about ``NormaliseConfig.tile_height`` tall (the jitter is +-15 %)."""
    from okey_vision.synth.datasets import image_seed
    from okey_vision.synth.render import render_scene
    from okey_vision.training.data import load_recipe
    from okey_vision.vision.crops import quad_axes, upright_quad

    config = load_recipe(views.VIEW_RECIPE).replace(long_side=(480, 640))
    labels, heights = 0, []
    for i in range(3):
        scene = render_scene(image_seed(77, i), config)
        quads = [np.asarray(t.quad, float) for t in scene.tiles]
        view = views.photo_view(scene.image, quads, np.random.default_rng(i))
        if view is None:
            continue
        true = [view.to_view(q) for q in quads]
        h, w = scene.image.shape[:2]
        outline = view.to_view(np.array([[0, 0], [w, 0], [w, h], [0, h]], float))
        for crop in views.view_crops(view.image, outline, true, np.random.default_rng(i)):
            assert crop.image.shape == (views.CROP, views.CROP, 3)
            x0, y0 = crop.origin
            vh, vw = view.image.shape[:2]
            sx, sy = max(x0, 0), max(y0, 0)
            ex, ey = min(x0 + views.CROP, vw), min(y0 + views.CROP, vh)
            assert np.array_equal(crop.image[sy - y0:ey - y0, sx - x0:ex - x0], view.image[sy:ey, sx:ex])
            for q in crop.quads:
                labels += 1
                assert (q >= -1e-6).all() and (q <= views.CROP + 1e-6).all()
                centre = q.mean(0) + [x0, y0]
                assert any(_inside(centre, t, 0.0) for t in true)
                heights.append(quad_axes(upright_quad(q))[3])
            line = views.crop_lines(crop)
            assert len(line) == len(crop.quads) and all(s.startswith("0 ") for s in line)
    assert labels >= 8
    assert 0.7 * 40 <= float(np.median(heights)) <= 1.3 * 40


def test_a_cut_tile_is_labelled_by_its_visible_part_or_not_at_all() -> None:
    """The renderer's rule in a crop: >= 60 % visible -> the visible part's
    rectangle, less -> no label."""
    tile = np.array([[0, 0], [20, 0], [20, 40], [0, 40]], float)
    crop = np.array([[10, -5], [100, -5], [100, 100], [10, 100]], float)  # half the tile
    assert views.crop_label(tile, (crop,)) is None
    crop[:, 0] -= 4  # 70 % of it
    part = views.crop_label(tile, (crop,))
    assert part is not None and abs(cv2.contourArea(np.float32(part)) - 0.7 * 800) < 1
    assert part[:, 0].min() >= 6 - 1e-6 and part[:, 0].max() <= 20 + 1e-6  # the visible part, upright
    whole = views.crop_label(tile, (np.array([[-5, -5], [50, -5], [50, 50], [-5, 50]], float),))
    assert whole is not None and np.allclose(whole, tile)


def test_a_real_photos_labels_stay_inside_its_view() -> None:
    """A real training photo turned and normalised: every label lies inside
    the crop and on the photo's own pixels (not on the grey around it)."""
    from okey_vision.synth.real import load_real, resolve_root, split_real

    if not (resolve_root() / "classes.yaml").exists():
        pytest.skip("the shared real photos are not here")
    train, _ = split_real(load_real())
    real = train[3]
    image = cv2.imread(str(real.path))
    rng = np.random.default_rng(0)
    n = 0
    for turn in (0.0, 40.0, 200.0):
        for crop in views.real_crops(image, real, rng, turn):
            for q, line in zip(crop.quads, views.crop_lines(crop), strict=True):
                n += 1
                assert _inside(q.mean(0), crop.outline, 0.0)  # on the photo's own pixels
                corners = np.array(line.split()[1:], float).reshape(4, 2) * views.CROP
                assert all(_inside(p, crop.outline, 3.0) for p in corners)  # clipped to the crop
    assert n >= len(real.labels)


def test_view_data_uses_only_the_real_training_photos(tmp_path, monkeypatch) -> None:
    """``make_view_data`` writes the renders' views (train and val) and the
    real *training* photos' views; a held-out photo never goes in."""
    from okey_vision.synth import real as real_mod

    if not (real_mod.resolve_root() / "classes.yaml").exists():
        pytest.skip("the shared real photos are not here")
    everything = real_mod.load_real()
    held = next(im for im in everything if real_mod.is_real_val(im.stem))
    some = [held] + [im for im in everything if not real_mod.is_real_val(im.stem)][:2]
    monkeypatch.setattr(real_mod, "load_real", lambda root=None: some)
    monkeypatch.setattr(paths, "DATA", tmp_path)
    data = views.make_view_data(3, 5, logging.getLogger("t"), real_turns=1)
    names = [p.name for p in (data.parent / "images").rglob("*.jpg")]
    assert any(n.startswith("view_5_") for n in names)
    assert any(n.startswith("real_") for n in names)
    assert not any(held.stem in n for n in names)
    for p in (data.parent / "images").rglob("*.jpg"):
        assert cv2.imread(str(p)).shape[:2] == (views.CROP, views.CROP)
        assert (data.parent / "labels" / p.parent.name / (p.stem + ".txt")).exists()
