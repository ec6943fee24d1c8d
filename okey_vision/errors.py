"""Domain errors: every one is a ``ValueError`` that quotes the bad input."""

from __future__ import annotations


class OkeyError(ValueError):
    """Base class of every okey-vision domain error."""


class UnknownTileError(OkeyError):
    """A tile name that no notation knows, e.g. ``'x7'`` or ``'r14'``."""


class TileCountError(OkeyError):
    """More copies of a face than the 106-tile set holds."""


class HandSizeError(OkeyError):
    """A hand with too few or too many tiles for the requested call."""


class InvalidMeldError(OkeyError):
    """Tiles that form no valid run, set or pair."""


class ImageError(OkeyError):
    """An image that cannot be read: missing, empty, corrupt or not an image."""
