"""The one decode path for photos: bytes or a file in, a BGR array out.

Every caller (the CLI, :func:`~okey_vision.vision.reader.read_rack`, the app)
decodes here, so a photo gets the same checks everywhere:

- a file is opened without waiting (a named pipe would block) and read only
  when it is a regular file (not a pipe, a device such as ``/dev/zero``, a
  socket or a folder) of at most :data:`MAX_FILE_BYTES`, its header checked
  on its first bytes before the rest is read (:func:`read_photo_file`);
- the size is read from the header (:mod:`okey_vision.imagesize`) before a
  pixel is decoded; a photo over :data:`MAX_PIXELS` is decoded reduced
  (baseline JPEG, by 2, 4 or 8 inside the decoder) or refused, so no input
  takes gigabytes of memory;
- the EXIF orientation is applied once, here (:func:`upright`): the photo,
  its size and every box read on it stand as the phone showed it;
- OpenCV's and the codecs' own stderr lines are silenced: the caller gets one
  :class:`~okey_vision.errors.ImageError` naming the file and what is wrong;
- :class:`Photo` remembers the input's size, so boxes are reported in the
  input's pixels whatever the decoder or :func:`shrink` did.
"""

from __future__ import annotations

import os
import stat
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import numpy as np

from okey_vision.errors import ImageError, ImageProblem
from okey_vision.imagesize import Header, image_format, read_header
from okey_vision.vision.resize import cap_side

#: Photos up to this many pixels decode at full size (8000 x 8000, 192 MB of
#: BGR; a PNG this big takes about 2 s to decode on a small CPU).
MAX_PIXELS = 64_000_000
#: A baseline JPEG up to this many pixels is decoded reduced (1/8 at most);
#: anything larger, or any other format over :data:`MAX_PIXELS`, is refused.
MAX_REDUCED_PIXELS = MAX_PIXELS * 64
#: Photos whose long side exceeds this are shrunk once after decoding.
MAX_SIDE = 6000
#: A photo whose long side is smaller than this cannot show a readable tile.
MIN_SIDE = 64
#: What the app and the CLI accept.
FORMATS = "JPEG, PNG, WebP, BMP or TIFF"
#: A photo file over this many bytes is refused before it is read: the
#: largest photo decoded at full size (:data:`MAX_PIXELS`) is 192 MB as
#: uncompressed 8-bit BMP or TIFF; a phone's JPEG is a few MB.
MAX_FILE_BYTES = 200_000_000
#: What a file that is not a regular one is, said in the refusal.
_KINDS = ((stat.S_ISFIFO, "a named pipe"), (stat.S_ISCHR, "a device"), (stat.S_ISBLK, "a device"),
          (stat.S_ISSOCK, "a socket"))

_STDERR_LOCK = threading.Lock()


@dataclass(frozen=True)
class Photo:
    """A decoded photo: the BGR pixels and the size of the input they came from."""

    image: np.ndarray
    width: int
    height: int
    name: str = "photo"

    @property
    def scale(self) -> float:
        """Decoded pixels per input pixel (1.0 unless reduced or shrunk)."""
        result: float = self.image.shape[1] / self.width
        return result


def load_photo(path: str | Path, max_side: int = MAX_SIDE) -> Photo:
    """Read a photo file; :class:`ImageError` naming it if it cannot be read."""
    data, header = read_photo_file(path)
    return decode_image(data, str(path), max_side, header)


def read_photo_file(path: str | Path) -> tuple[bytes, Header]:
    """A photo file's bytes and header, bounded before anything is read:
    a regular file only, at most :data:`MAX_FILE_BYTES`, its header checked
    on its first bytes (:class:`ImageError` naming it otherwise)."""
    name = str(path)
    try:  # O_NONBLOCK: opening a named pipe does not wait for a writer; a regular file reads as ever
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0))
    except FileNotFoundError:
        raise ImageError.of(ImageProblem.MISSING, name) from None
    except IsADirectoryError:
        raise ImageError.of(ImageProblem.FOLDER, name) from None
    except OSError as exc:
        raise ImageError.of(ImageProblem.UNREADABLE, name, why=exc.strerror or type(exc).__name__) from None
    try:
        _check_kind(os.fstat(fd), name)
        fh = os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise
    with fh:
        try:
            return _read_bounded(fh, name)
        except OSError as exc:
            raise ImageError.of(ImageProblem.UNREADABLE, name, why=exc.strerror or type(exc).__name__) from None


def _check_kind(st: os.stat_result, name: str) -> None:
    """:class:`ImageError` for anything but a regular file (read, it could never end or wait for ever)."""
    if stat.S_ISDIR(st.st_mode):
        raise ImageError.of(ImageProblem.FOLDER, name)
    if not stat.S_ISREG(st.st_mode):
        kind = next((said for test, said in _KINDS if test(st.st_mode)), "not a file")
        raise ImageError.of(ImageProblem.NOT_FILE, name, kind=kind)


def _read_bounded(fh: BinaryIO, name: str) -> tuple[bytes, Header]:
    _check_size(os.fstat(fh.fileno()).st_size, name)
    header = check_header(fh, name)
    data = fh.read(MAX_FILE_BYTES + 1)
    _check_size(len(data), name)  # it grew since it was looked at
    return data, header


def _check_size(size: int, name: str) -> None:
    if size == 0:
        raise ImageError.of(ImageProblem.EMPTY, name)
    if size > MAX_FILE_BYTES:
        raise ImageError.of(ImageProblem.FILE_TOO_LARGE, name, size=f"{size / 1e6:.0f}",
                            limit=MAX_FILE_BYTES // 1_000_000)


def check_header(source: bytes | BinaryIO, name: str) -> Header:
    """The photo's header, read from its first bytes (an open file is read
    no further and left where it was): :class:`ImageError` for a file that
    is not an image, a header cut short, a photo too small, or one too large
    to decode (reduced or not)."""
    head = source[:16] if isinstance(source, (bytes, bytearray)) else _peek(source, 16)
    fmt = image_format(bytes(head))
    if fmt is None:
        raise ImageError.of(ImageProblem.NOT_IMAGE, name, formats=FORMATS)
    header = read_header(source)
    if header is None:
        raise ImageError.of(ImageProblem.HEADER, name, format=fmt)
    if max(header.width, header.height) < MIN_SIDE:
        raise ImageError.of(ImageProblem.TOO_SMALL, name, width=header.width, height=header.height)
    if header.pixels > MAX_PIXELS and (fmt != "JPEG" or header.progressive
                                       or _reduction(header.width, header.height) is None):
        raise ImageError.of(ImageProblem.TOO_LARGE, name, width=header.width, height=header.height,
                            limit=MAX_PIXELS // 1_000_000)
    return header


def _peek(fh: BinaryIO, n: int) -> bytes:
    start = fh.tell()
    try:
        return fh.read(n)
    finally:
        fh.seek(start)


def load_image(path: str | Path) -> np.ndarray:
    """Read a photo as a BGR uint8 array (long side at most ``MAX_SIDE``);
    :class:`ImageError` if it cannot be read: missing, empty, corrupt, not an
    image or too large."""
    return load_photo(path).image


def decode_image(data: bytes | bytearray | memoryview | None, name: str = "photo",
                 max_side: int = MAX_SIDE, header: Header | None = None) -> Photo:
    """Decode image bytes into a :class:`Photo` with the checks above
    (``header``: the one :func:`check_header` read from these bytes, not read again).

    >>> decode_image(b"", "x.jpg")
    Traceback (most recent call last):
    ...
    okey_vision.errors.ImageError: x.jpg: the file is empty
    """
    import cv2

    if not data:
        raise ImageError.of(ImageProblem.EMPTY, name)
    data = bytes(data)  # the same object when it is bytes already
    _check_size(len(data), name)
    if header is None:
        header = check_header(data, name)
    flag = cv2.IMREAD_COLOR
    if header.pixels > MAX_PIXELS:
        reduce = _reduction(header.width, header.height)
        flag = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4, 8: cv2.IMREAD_REDUCED_COLOR_8}[
            reduce or 8]
    with quiet_stderr():
        try:  # the orientation is applied below, once (OpenCV would turn some formats and not others)
            img = cv2.imdecode(np.frombuffer(data, np.uint8), flag | cv2.IMREAD_IGNORE_ORIENTATION)
        except cv2.error:
            img = None
    if img is None or img.size == 0:
        raise ImageError.of(ImageProblem.DAMAGED, name, format=header.format)
    return Photo(cap_side(upright(img, header.orientation), max_side), header.width, header.height, name)


def upright(img: np.ndarray, orientation: int) -> np.ndarray:
    """The decoded pixels as the photo stands, by its EXIF ``orientation``
    (1: as stored; 2 mirrored; 3 half a turn; 4 upside down mirrored; 5
    mirrored along the diagonal; 6 a quarter turn clockwise; 7 mirrored along
    the other diagonal; 8 a quarter turn anticlockwise).

    >>> a = np.arange(6).reshape(2, 3)
    >>> upright(a, 6).tolist(), upright(a, 8).tolist(), upright(a, 1) is a
    ([[3, 0], [4, 1], [5, 2]], [[2, 5], [1, 4], [0, 3]], True)
    """
    turned = {
        2: lambda a: a[:, ::-1], 3: lambda a: a[::-1, ::-1], 4: lambda a: a[::-1],
        5: lambda a: a.swapaxes(0, 1), 6: lambda a: a.swapaxes(0, 1)[:, ::-1],
        7: lambda a: a.swapaxes(0, 1)[::-1, ::-1], 8: lambda a: a.swapaxes(0, 1)[::-1],
    }.get(orientation)
    return img if turned is None else np.ascontiguousarray(turned(img))


def _reduction(width: int, height: int) -> int | None:
    """The JPEG reduction (2, 4, 8) to decode a photo over the limit with: the
    least that brings its long side to ``MAX_SIDE`` (nothing larger is kept
    anyway), else 8; None when even 1/8 stays over ``MAX_PIXELS``."""
    if width * height > MAX_REDUCED_PIXELS:
        return None
    for r in (2, 4, 8):
        if max(width, height) <= MAX_SIDE * r and width * height <= MAX_PIXELS * r * r:
            return r
    return 8


@contextmanager
def quiet_stderr() -> Iterator[None]:
    """Silence file descriptor 2 (libpng/libjpeg/OpenCV print there directly,
    past Python's ``sys.stderr``) for the duration of one decode."""
    _silence_opencv_log()
    with _STDERR_LOCK:
        try:
            saved = os.dup(2)
        except OSError:  # no stderr at all: nothing to silence
            yield
            return
        devnull = os.open(os.devnull, os.O_WRONLY)
        try:
            os.dup2(devnull, 2)
            yield
        finally:
            os.dup2(saved, 2)
            os.close(saved)
            os.close(devnull)


def _silence_opencv_log() -> None:
    import cv2

    with suppress(AttributeError):  # older builds have no cv2.utils.logging
        cv2.utils.logging.setLogLevel(cv2.utils.logging.LOG_LEVEL_SILENT)


def as_bgr(image: np.ndarray, bgr: bool = True) -> np.ndarray:
    """A 3-channel BGR uint8 view/copy of an array image.

    Grey, grey+alpha, BGRA/RGBA and RGB are accepted; 16-bit and other
    integer images are scaled to 8 bits (not clipped), float images in [0, 1]
    are scaled by 255.

    >>> as_bgr(np.full((2, 2), 65535, np.uint16))[0, 0].tolist()
    [255, 255, 255]
    """
    import cv2

    if not isinstance(image, np.ndarray):
        raise ImageError(f"expected a numpy image array, got {type(image).__name__}")
    if image.size == 0 or image.ndim not in (2, 3):
        raise ImageError(f"not an image array: shape {image.shape}")
    img = _to_uint8(image)
    if img.ndim == 2:
        return cv2.cvtColor(img, cv2.COLOR_GRAY2BGR)
    channels = img.shape[2]
    if channels == 1:
        return cv2.cvtColor(img[:, :, 0], cv2.COLOR_GRAY2BGR)
    if channels == 2:  # grey + alpha
        return cv2.cvtColor(np.ascontiguousarray(img[:, :, 0]), cv2.COLOR_GRAY2BGR)
    if channels == 4:
        return cv2.cvtColor(img, cv2.COLOR_BGRA2BGR if bgr else cv2.COLOR_RGBA2BGR)
    if channels != 3:
        raise ImageError(f"not an image array: shape {image.shape}")
    return img if bgr else np.ascontiguousarray(img[:, :, ::-1])


def _to_uint8(img: np.ndarray) -> np.ndarray:
    if img.dtype == np.uint8:
        return img
    if img.dtype == np.bool_:
        return img.astype(np.uint8) * 255
    if np.issubdtype(img.dtype, np.integer):
        info = np.iinfo(img.dtype)
        # scale by the type's range: a 16-bit photo's 40000 is bright, not 255-clipped
        top = float(info.max)
        result: np.ndarray = np.clip(img.astype(np.float64) * (255.0 / top), 0, 255).round().astype(np.uint8)
        return result
    if np.issubdtype(img.dtype, np.floating):
        img = np.nan_to_num(img.astype(np.float64), nan=0.0, posinf=255.0, neginf=0.0)
        if img.max() <= 1.0:
            img = img * 255.0
        result = np.clip(img, 0, 255).round().astype(np.uint8)
        return result
    raise ImageError(f"not an image array: dtype {img.dtype}")
