"""The one decode path for photos: bytes or a file in, a BGR array out.

Every caller (the CLI, :func:`~okey_vision.vision.reader.read_rack`, the app)
decodes here, so a photo gets the same checks everywhere:

- the size is read from the header (:mod:`okey_vision.imagesize`) before a
  pixel is decoded; a photo over :data:`MAX_PIXELS` is decoded reduced
  (baseline JPEG, by 2, 4 or 8 inside the decoder) or refused, so no input
  takes gigabytes of memory;
- OpenCV's and the codecs' own stderr lines are silenced: the caller gets one
  :class:`~okey_vision.errors.ImageError` naming the file and what is wrong;
- :class:`Photo` remembers the input's size, so boxes are reported in the
  input's pixels whatever the decoder or :func:`shrink` did.
"""

from __future__ import annotations

import os
import threading
from collections.abc import Iterator
from contextlib import contextmanager, suppress
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from okey_vision.errors import ImageError, ImageProblem
from okey_vision.imagesize import image_format, read_header
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
        return self.image.shape[1] / self.width


def load_photo(path: str | Path, max_side: int = MAX_SIDE) -> Photo:
    """Read a photo file; :class:`ImageError` naming it if it cannot be read."""
    p = Path(path)
    name = str(p)
    if not p.exists():
        raise ImageError.of(ImageProblem.MISSING, name)
    if p.is_dir():
        raise ImageError.of(ImageProblem.FOLDER, name)
    try:
        data = p.read_bytes()
    except OSError as exc:
        raise ImageError.of(ImageProblem.UNREADABLE, name, why=exc.strerror) from None
    return decode_image(data, name, max_side)


def load_image(path: str | Path) -> np.ndarray:
    """Read a photo as a BGR uint8 array (long side at most ``MAX_SIDE``);
    :class:`ImageError` if it cannot be read: missing, empty, corrupt, not an
    image or too large."""
    return load_photo(path).image


def decode_image(data: bytes | bytearray | memoryview | None, name: str = "photo",
                 max_side: int = MAX_SIDE) -> Photo:
    """Decode image bytes into a :class:`Photo` with the checks above.

    >>> decode_image(b"", "x.jpg")
    Traceback (most recent call last):
    ...
    okey_vision.errors.ImageError: x.jpg: the file is empty
    """
    import cv2

    if not data:
        raise ImageError.of(ImageProblem.EMPTY, name)
    data = bytes(data)
    fmt = image_format(data)
    if fmt is None:
        raise ImageError.of(ImageProblem.NOT_IMAGE, name, formats=FORMATS)
    header = read_header(data)
    if header is None:
        raise ImageError.of(ImageProblem.HEADER, name, format=fmt)
    if max(header.width, header.height) < MIN_SIDE:
        raise ImageError.of(ImageProblem.TOO_SMALL, name, width=header.width, height=header.height)
    flag = cv2.IMREAD_COLOR
    if header.pixels > MAX_PIXELS:
        reduce = _reduction(header.width, header.height)
        if fmt != "JPEG" or header.progressive or reduce is None:
            raise ImageError.of(ImageProblem.TOO_LARGE, name, width=header.width, height=header.height,
                                limit=MAX_PIXELS // 1_000_000)
        flag = {2: cv2.IMREAD_REDUCED_COLOR_2, 4: cv2.IMREAD_REDUCED_COLOR_4,
                8: cv2.IMREAD_REDUCED_COLOR_8}[reduce]
    with quiet_stderr():
        try:
            img = cv2.imdecode(np.frombuffer(data, np.uint8), flag)
        except cv2.error:
            img = None
    if img is None or img.size == 0:
        raise ImageError.of(ImageProblem.DAMAGED, name, format=fmt)
    return Photo(cap_side(img, max_side), header.width, header.height, name)


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
        return np.clip(img.astype(np.float64) * (255.0 / top), 0, 255).round().astype(np.uint8)
    if np.issubdtype(img.dtype, np.floating):
        img = np.nan_to_num(img.astype(np.float64), nan=0.0, posinf=255.0, neginf=0.0)
        if img.max() <= 1.0:
            img = img * 255.0
        return np.clip(img, 0, 255).round().astype(np.uint8)
    raise ImageError(f"not an image array: dtype {img.dtype}")
