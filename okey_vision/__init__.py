"""okey-vision: read an Okey rack photo, arrange the hand, advise the discard.

The rules side (:mod:`okey_vision.tiles`, :mod:`okey_vision.melds`,
:mod:`okey_vision.solver`) is pure Python; vision modules load lazily.
"""

from okey_vision.errors import (
    HandSizeError,
    ImageError,
    InvalidMeldError,
    OkeyError,
    TileCountError,
    UnknownTileError,
)
from okey_vision.tiles import (
    FALSE_JOKER,
    TILES,
    Hand,
    Tile,
    format_hand,
    format_tile,
    okey_of,
    parse_hand,
    parse_tile,
)

__version__ = "0.1.0"

__all__ = [
    "FALSE_JOKER", "TILES", "Hand", "Tile", "format_hand", "format_tile",
    "okey_of", "parse_hand", "parse_tile",
    "OkeyError", "UnknownTileError", "TileCountError", "HandSizeError",
    "InvalidMeldError", "ImageError",
]
