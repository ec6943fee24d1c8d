"""Domain errors: every one is a ``ValueError`` that quotes the bad input."""

from __future__ import annotations

from enum import Enum


class OkeyError(ValueError):
    """Base class of every okey-vision domain error.

    ``key`` and ``fields`` say what went wrong in a form a translation can
    use (the app's Turkish page, :func:`okey_vision.report.text.error_message`);
    the message is the English sentence."""

    def __init__(self, message: str = "", key: str = "", **fields: object) -> None:
        super().__init__(message)
        self.key = key
        self.fields = fields


class UnknownTileError(OkeyError):
    """A tile name that no notation knows, e.g. ``'x7'`` or ``'r14'``."""


class TileCountError(OkeyError):
    """More copies of a face than the 106-tile set holds."""


class HandSizeError(OkeyError):
    """A hand with too few or too many tiles for the requested call."""


class HandError(OkeyError):
    """A hand that cannot be built as asked: no indicator, or a built hand
    given again with another indicator or other seen tiles."""


class InvalidMeldError(OkeyError):
    """Tiles that form no valid run, set or pair."""


class ImageProblem(str, Enum):
    """Why a photo cannot be read; each with its sentence (English; the app
    translates by this kind, see :mod:`okey_vision.report.text`)."""

    MISSING = "missing"
    FOLDER = "folder"
    UNREADABLE = "unreadable"
    EMPTY = "empty"
    NOT_IMAGE = "not_image"
    HEADER = "header"
    TOO_SMALL = "too_small"
    TOO_LARGE = "too_large"
    DAMAGED = "damaged"

    @property
    def template(self) -> str:
        """The sentence, with ``{fields}`` to fill."""
        return _IMAGE_SENTENCES[self]


_IMAGE_SENTENCES = {
    ImageProblem.MISSING: "no such file",
    ImageProblem.FOLDER: "is a folder, not an image",
    ImageProblem.UNREADABLE: "cannot be read ({why})",
    ImageProblem.EMPTY: "the file is empty",
    ImageProblem.NOT_IMAGE: "not an image file ({formats} expected)",
    ImageProblem.HEADER: "the photo is damaged: its {format} header is cut short or malformed",
    ImageProblem.TOO_SMALL: "the photo is too small ({width}x{height} pixels) to read tiles",
    ImageProblem.TOO_LARGE: "the image is too large ({width}x{height} pixels; at most {limit} million)",
    ImageProblem.DAMAGED: "the photo is damaged and cannot be decoded (corrupt or truncated {format})",
}


class ImageError(OkeyError):
    """An image that cannot be read: missing, empty, corrupt or not an image.

    Its ``key`` is the :class:`ImageProblem`'s value; ``fields`` hold the
    photo's ``name`` and the sentence's fields.

    >>> str(ImageError.of(ImageProblem.EMPTY, "x.jpg"))
    'x.jpg: the file is empty'
    """

    @property
    def problem(self) -> ImageProblem | None:
        """Why the photo cannot be read (None for an error made without one)."""
        return ImageProblem(self.key) if self.key in ImageProblem._value2member_map_ else None

    @classmethod
    def of(cls, problem: ImageProblem, name: str, **fields: object) -> ImageError:
        """The error for ``problem`` with photo ``name`` (quoted, cut to 80 characters)."""
        name = clip(name)
        return cls(f"{name}: {problem.template.format(**fields)}", problem.value, name=name, **fields)


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
