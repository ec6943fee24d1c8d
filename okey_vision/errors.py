"""Domain errors: every one is a ``ValueError`` that quotes the bad input."""

from __future__ import annotations

from enum import Enum


class OkeyError(ValueError):
    """Base class of every okey-vision domain error.

    ``key`` and ``fields`` say what went wrong in a form a translation can
    use (the app's Turkish page, :func:`okey_vision.lang.error_message`);
    the message is the English sentence."""

    def __init__(self, message: str = "", key: str = "", **fields: object) -> None:
        super().__init__(message)
        self.key = key
        self.fields = fields

    def said(self, lang: str = "en") -> str | None:
        """This error's sentence in ``lang`` (without its full stop) where the
        error's own module holds its words in both languages (the reader
        service's, the check's, 101's); None where
        :data:`okey_vision.lang.ERRORS_TR` says it by its key, which
        :func:`okey_vision.lang.error_message` then does."""
        return None


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
    translates by this kind, see :mod:`okey_vision.report.labels`)."""

    MISSING = "missing"
    FOLDER = "folder"
    UNREADABLE = "unreadable"
    NOT_FILE = "not_file"
    EMPTY = "empty"
    FILE_TOO_LARGE = "file_too_large"
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
    ImageProblem.NOT_FILE: "not a regular file ({kind}): only photo files are read",
    ImageProblem.EMPTY: "the file is empty",
    ImageProblem.FILE_TOO_LARGE: "the file is too large ({size} MB; a photo file is at most {limit} MB)",
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


class FileError(OkeyError):
    """A file or folder of the program's that cannot be written or read (a
    read-only or full disk, a file where a folder belongs, a folder where a
    file does): the message names the path and why, and says that nothing was
    changed.

    >>> import errno
    >>> str(FileError.of("/data/x.jsonl", OSError(errno.ENOSPC, "No space left on device")))
    'cannot write /data/x.jsonl: the disk is full'
    """

    @classmethod
    def of(cls, path: object, exc: BaseException | str, doing: str = "write", outcome: str = "") -> FileError:
        """The error for ``doing`` (write, read, remove) ``path``, from the OS
        error ``exc`` (or a reason), and what became of the work (``outcome``)."""
        why = exc if isinstance(exc, str) else os_reason(exc)
        tail = f"; {outcome}" if outcome else ""
        return cls(f"cannot {doing} {clip(str(path), PATH_LIMIT)}: {why}{tail}", "file", path=str(path), why=why)


#: Plain words for the OS errors a write meets (errno name -> reason).
_REASONS = {
    "ENOSPC": "the disk is full", "EDQUOT": "the disk quota is used up", "EROFS": "the disk is read-only",
    "EACCES": "permission denied", "EPERM": "permission denied", "EISDIR": "it is a folder, not a file",
    "ENOTDIR": "a file stands where a folder belongs on its path", "EEXIST": "a file stands where a folder belongs",
    "ENOENT": "its folder does not exist", "ELOOP": "a loop of symbolic links", "ENAMETOOLONG": "the name is too long",
    "EIO": "an input/output error of the disk",
}


def os_reason(exc: BaseException) -> str:
    """An OS error's cause in plain words (its own text when it has no plain one).

    >>> import errno
    >>> os_reason(OSError(errno.EROFS, "Read-only file system")), os_reason(ValueError("odd"))
    ('the disk is read-only', 'odd')
    """
    import errno

    code = getattr(exc, "errno", None)
    name = errno.errorcode.get(code, "") if isinstance(code, int) else ""
    if name in _REASONS:
        return _REASONS[name]
    return str(getattr(exc, "strerror", None) or exc or type(exc).__name__)


def printable(text: str) -> str:
    """``text`` with what cannot be written as UTF-8 (a file name's
    undecodable bytes, kept by Python as lone surrogates) as U+FFFD.

    >>> printable("rack\\udcff.jpg")
    'rack\ufffd.jpg'
    """
    try:
        text.encode("utf-8")
        return text
    except UnicodeEncodeError:
        pass
    try:
        raw = text.encode("utf-8", "surrogateescape")
    except UnicodeEncodeError:  # a lone surrogate not from a file name
        raw = text.encode("utf-8", "replace")
    return raw.decode("utf-8", "replace")


class MissingExtraError(OkeyError):
    """An optional dependency is not installed; the message names the extra
    (key ``missing_extra``: the package and the extra are its fields).

    >>> str(MissingExtraError.of("cv2", "vision", "reading a photo"))
    "reading a photo needs the 'cv2' package: pip install 'okey-vision[vision]'"
    """

    @classmethod
    def of(cls, package: str, extra: str, what: str = "") -> MissingExtraError:
        """The error for ``package`` of the ``extra``, needed for ``what`` (said first when given)."""
        needs = f"{what} needs" if what else "needs"
        return cls(f"{needs} the '{package}' package: pip install 'okey-vision[{extra}]'", "missing_extra",
                   package=package, extra=extra)


#: Most characters of a bad input quoted in an error message.
QUOTE_LIMIT = 80
#: Most characters of a path a file error names (a path cut short names nothing).
PATH_LIMIT = 240


def clip(text: object, limit: int = QUOTE_LIMIT) -> str:
    """``text`` as a string cut to about ``limit`` characters, for quoting bad input.

    >>> clip("r7")
    'r7'
    >>> clip("x" * 200)[-30:]
    'xxxxxxxxxx... (200 characters)'
    """
    s = printable(str(text))
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
        raise MissingExtraError.of(exc.name or module, extra, what) from None
