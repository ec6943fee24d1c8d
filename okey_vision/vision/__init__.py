"""Reading tiles from photos: the boundary type and the reader.

:mod:`okey_vision.vision.reads` (the :class:`TileRead` boundary type) is pure
Python; the model code loads numpy, OpenCV and onnxruntime lazily (never
torch or ultralytics: training is :mod:`okey_vision.training`):
``from okey_vision.vision import read_rack`` imports the reader on first use.
"""

from okey_vision.vision.reads import TileRead, hand_from_reads, rack_order

__all__ = ["TileRead", "hand_from_reads", "rack_order", "read_rack", "RackReader", "decide", "make_consistent"]

_LAZY = {
    "read_rack": "okey_vision.vision.reader",
    "RackReader": "okey_vision.vision.reader",
    "make_consistent": "okey_vision.vision.consistency",
    "decide": "okey_vision.vision.decide",
}


def __getattr__(name: str) -> object:
    if name in _LAZY:
        import importlib

        return getattr(importlib.import_module(_LAZY[name]), name)
    raise AttributeError(f"module 'okey_vision.vision' has no attribute {name!r}")
