"""The detectors' data (okey_vision.training.data): rectified row strips labelled with the true faces."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from okey_vision.training import data, paths

cv2 = pytest.importorskip("cv2")


def test_strip_canvases_are_labelled_with_the_true_faces(tmp_path, monkeypatch) -> None:
    """Every labelled box on a rectified-strip canvas is where the renderer
    put a tile: mapped back to the photo it overlaps a true rack face."""
    import yaml

    from okey_vision.synth import load_config
    from okey_vision.synth.datasets import image_seed
    from okey_vision.synth.render import render_scene
    from okey_vision.vision import rectify

    monkeypatch.setattr(paths, "DATA", tmp_path)
    out = data.make_strip_data(4, 5, logging.getLogger("t"))
    labels = sorted((out / "labels").rglob("*.txt"))
    assert labels and len(labels) == len(list((out / "images").rglob("*.jpg")))
    config = load_config(paths.ROOT / "datasets" / data.STRIP_RECIPE)
    boxes = 0
    for lab in labels:
        i, k = int(lab.stem.split("_")[2]), int(lab.stem.split("_")[3])
        scene = render_scene(image_seed(5, i), config)
        places = data.strip_canvases(scene, 5, i)[k][1]
        rack = [np.asarray(t.quad, float) for t in scene.tiles if t.on_rack]
        for line in lab.read_text().split("\n"):
            if not line:
                continue
            _, x, y, w, _h = map(float, line.split())
            s = rectify.DEFAULT.canvas
            assert (x - w / 2) * s >= 0 and (x + w / 2) * s <= s + 1e-6
            boxes += 1
            # the label's centre lies inside a true rack face mapped onto this canvas
            cx, cy = x * s, y * s
            assert any(cv2.pointPolygonTest(np.float32(rectify.to_canvas(q, p, rs)), (cx, cy), False) >= 0
                       for q in rack for rs, p in places)
    assert boxes >= 10
    # the detector's data.yaml gains the strips beside its own images
    base = tmp_path / "detect" / "data.yaml"
    base.parent.mkdir()
    base.write_text(yaml.safe_dump({"path": str(base.parent), "train": "images/train", "val": "images/val",
                                    "names": {0: "tile"}}))
    both = yaml.safe_load(data.with_strips(base, out).read_text())
    assert both["train"] == [str(base.parent / "images" / "train"), str(out / "images" / "train")]
