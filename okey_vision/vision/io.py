"""Loading photos with clear errors, and shrinking huge ones safely."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from okey_vision.errors import ImageError
from okey_vision.imagesize import header_size as _header_size

#: Decoded images larger than this many pixels are refused (decompression bombs).
MAX_PIXELS = 200_000_000
#: Photos whose long side exceeds this are shrunk once after decoding.
MAX_SIDE = 6000


def load_image(path: str | Path) -> np.ndarray:
    """Read a photo as a BGR uint8 array; :class:`ImageError` if it cannot be read.

    A missing, empty, corrupt or non-image file is refused with a one-line
    message; a huge photo is shrunk so its long side is at most ``MAX_SIDE``.
    """
    import cv2

    p = Path(path)
    if not p.exists():
        raise ImageError(f"{p}: no such file")
    if p.is_dir():
        raise ImageError(f"{p}: is a folder, not an image")
    size = p.stat().st_size
    if size == 0:
        raise ImageError(f"{p}: empty file")
    data = np.fromfile(str(p), dtype=np.uint8)
    head = bytes(data[:16])
    if not _looks_like_image(head):
        raise ImageError(f"{p}: not an image file (JPEG, PNG, BMP, WebP or TIFF expected)")
    w, h = _header_size(bytes(data[:65536]))
    if w and h and w * h > MAX_PIXELS:
        # decode shrunk by 8 (JPEG) or refuse, never allocate gigabytes
        img = cv2.imdecode(data, cv2.IMREAD_REDUCED_COLOR_8)
    else:
        img = cv2.imdecode(data, cv2.IMREAD_COLOR)
    if img is None or img.size == 0:
        raise ImageError(f"{p}: corrupt or unsupported image")
    return shrink(img)


def shrink(img: np.ndarray, max_side: int = MAX_SIDE) -> np.ndarray:
    """The image with its long side at most ``max_side`` (INTER_AREA)."""
    import cv2

    h, w = img.shape[:2]
    s = max_side / max(h, w)
    if s >= 1:
        return img
    return cv2.resize(img, (max(1, round(w * s)), max(1, round(h * s))), interpolation=cv2.INTER_AREA)


def as_bgr(image: np.ndarray, bgr: bool = True) -> np.ndarray:
    """A 3-channel BGR uint8 view/copy of an array image (gray, BGRA or RGB accepted)."""
    import cv2

    if not isinstance(image, np.ndarray):
        raise ImageError(f"expected a numpy image array, got {type(image).__name__}")
    if image.size == 0 or image.ndim not in (2, 3):
        raise ImageError(f"not an image array: shape {image.shape}")
    img = image
    if img.dtype != np.uint8:
        if np.issubdtype(img.dtype, np.floating) and img.max() <= 1.0:
            img = img * 255.0
        img = np.clip(img, 0, 255).astype(np.uint8)
    if img.ndim == 2 or img.shape[2] == 1:
        return cv2.cvtColor(img.reshape(img.shape[:2]), cv2.COLOR_GRAY2BGR)
    if img.shape[2] == 4:
        img = cv2.cvtColor(img, cv2.COLOR_BGRA2BGR if bgr else cv2.COLOR_RGBA2BGR)
        return img
    if img.shape[2] != 3:
        raise ImageError(f"not an image array: shape {image.shape}")
    return img if bgr else np.ascontiguousarray(img[:, :, ::-1])


def _looks_like_image(head: bytes) -> bool:
    return (head.startswith(b"\xff\xd8") or head.startswith(b"\x89PNG") or head.startswith(b"BM")
            or (head[:4] == b"RIFF" and head[8:12] == b"WEBP")
            or head[:4] in (b"II*\x00", b"MM\x00*"))
