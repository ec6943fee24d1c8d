"""The renderer draws the same pixels for a seed: three small scenes' digests,
recorded from ``render_scene`` before it was split into layout, camera,
drawing and labels, must not move.

A digest covers the image, the label mask and every label. Should an OpenCV
or numpy upgrade change a pixel, this fails too: check that the change is the
library's (the renderer's code unchanged) before recording the new digests
beside the old ones, under the OpenCV version that draws them. OpenCV 5.1
draws other pixels than 5.0 from the same code (checked: the 5.0 digests
pass under opencv-python 5.0.0.93, fail under 5.1.0.95).
"""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import pytest

pytest.importorskip("cv2")
pytest.importorskip("numpy")

import cv2

from okey_vision.synth import SynthConfig, load_config
from okey_vision.synth.render import Scene, render_scene

ROOT = Path(__file__).resolve().parents[1]


def digest(scene: Scene) -> str:
    """The first 16 hex digits of a SHA-256 over the image, the mask and the labels."""
    h = hashlib.sha256(scene.image.tobytes())
    h.update(scene.mask.tobytes())
    labels = [[t.tile.name, t.box, t.quad, t.row, t.on_rack, t.is_indicator, t.visible] for t in scene.tiles]
    h.update(json.dumps(labels).encode())
    return h.hexdigest()[:16]


#: The digests by the OpenCV version (major.minor) that draws them.
PINNED: dict[str, dict[str, str]] = {
    "5.0": {"rack": "449ca1e06a573db8", "flat": "0eb49c5b4f8d7416", "player": "d109424a9dead2a2"},
    "5.1": {"rack": "d3d4e2c911076d18", "flat": "0f7f57ee6092113b", "player": "5bd4f5de9901ed6f"},
}
OPENCV = ".".join(cv2.__version__.split(".")[:2])


@pytest.mark.parametrize("name,seed", [
    ("rack", 3),     # a rack, no photo effects
    ("flat", 5),     # tiles flat on a table
    ("player", 2),   # synth-player.yaml: a turned rack, Okey style, effects, JPEG
])
def test_render_scene_is_pinned(name, seed):
    small = {"long_side": (320, 320)}
    config = {
        "rack": SynthConfig(p_flat=0.0, effects=False, **small),
        "flat": SynthConfig(p_flat=1.0, effects=False, **small),
        "player": load_config(ROOT / "datasets" / "synth-player.yaml").replace(**small),
    }[name]
    assert OPENCV in PINNED, f"no digests recorded for OpenCV {OPENCV}: check the change is the library's, then record"
    assert digest(render_scene(seed, config)) == PINNED[OPENCV][name]
