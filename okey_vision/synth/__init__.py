"""Synthetic Okey rack photos with exact labels, and the real-photo converter.

Attributes load lazily so that ``okey_vision.cli.synth`` stays light;
numpy and OpenCV are needed only when rendering.
"""

from __future__ import annotations

from typing import Any

_EXPORTS = {
    "SynthConfig": "okey_vision.synth.config",
    "load_config": "okey_vision.synth.config",
    "Deal": "okey_vision.synth.render",
    "Scene": "okey_vision.synth.render",
    "SceneTile": "okey_vision.synth.render",
    "render_scene": "okey_vision.synth.render",
    "write_detect_dataset": "okey_vision.synth.datasets",
    "write_crop_dataset": "okey_vision.synth.datasets",
    "write_scenes": "okey_vision.synth.datasets",
    "contact_sheet": "okey_vision.synth.datasets",
    "TILE_CLASSES": "okey_vision.synth.datasets",
    "FACE_CLASSES": "okey_vision.synth.datasets",
    "CROP_CLASSES": "okey_vision.synth.datasets",
    "load_real": "okey_vision.synth.real",
    "split_real": "okey_vision.synth.real",
    "write_real_detect": "okey_vision.synth.real",
    "write_real_crops": "okey_vision.synth.real",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    """Import the public names on first use."""
    if name in _EXPORTS:
        import importlib

        return getattr(importlib.import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'okey_vision.synth' has no attribute {name!r}")
