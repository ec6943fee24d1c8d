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


class ModelError(OkeyError):
    """A reader weight file that is missing, truncated or not a model."""


class MissingExtraError(OkeyError):
    """An optional dependency is not installed; the message names the extra."""


#: Most characters of a bad input quoted in an error message.
QUOTE_LIMIT = 80


def clip(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as a string cut to about ``limit`` characters, for quoting bad input.

    >>> clip("r7")
    'r7'
    >>> clip("x" * 200)[-30:]
    'xxxxxxxxxx... (200 characters)'
    """
    s = str(text)
    if len(s) <= limit:
        return s
    return f"{s[:limit - 3]}... ({len(s)} characters)"


def require(module: str, extra: str, what: str) -> None:
    """Raise :class:`MissingExtraError` unless ``module`` imports; the message
    says which ``okey-vision[extra]`` to install for ``what``."""
    import importlib

    try:
        importlib.import_module(module)
    except ImportError as exc:
        raise MissingExtraError(
            f"{what} needs the '{exc.name or module}' package: pip install 'okey-vision[{extra}]'"
        ) from None
