"""Reading tiles from photos: the boundary type and the reader.

:mod:`okey_vision.vision.reads` (the :class:`TileRead` boundary type) is pure
Python; the model code loads numpy, OpenCV and ultralytics lazily.
"""

from okey_vision.vision.reads import TileRead, hand_from_reads, rack_order

__all__ = ["TileRead", "hand_from_reads", "rack_order"]
