"""Image format and dimensions from a file's header, without decoding pixels.

The one place that knows the headers of the formats the reader accepts
(JPEG, PNG, WebP, TIFF, BMP): :mod:`okey_vision.vision.io` checks the size
here before any pixel is decoded, so a decompression bomb is refused or
decoded reduced instead of allocating gigabytes.

Pillow reads the headers: each format's own plugin opens the file lazily
(the size and mode, no pixels). The plugin classes are used rather than
``Image.open`` because ``Image.open`` refuses anything over twice
``PIL.Image.MAX_IMAGE_PIXELS`` (179 MP) outright, while a baseline JPEG up
to 4096 MP is decoded reduced here; the limits are
:mod:`okey_vision.vision.io`'s. Two things Pillow does not say are read here:

- a JPEG's frame type: Pillow flags progressive frames, not lossless or
  hierarchical ones, and libjpeg decodes none of those reduced without
  buffering the whole image;
- a PNG's size when the chunks after its header are broken: Pillow reads
  every chunk up to the pixels, while the size (the first chunk, IHDR) is
  all the size check needs, so a giant size claim is refused as too large
  whatever follows it.

A WebP over Pillow's limit (179 MP: WebP allows 268) is refused by Pillow's
plugin itself (its decoder would allocate the canvas): no header here.

>>> header_size(b"not an image")
(0, 0)
>>> import struct, zlib
>>> ihdr = b"IHDR" + struct.pack(">IIBBBBB", 640, 480, 8, 2, 0, 0, 0)
>>> png = b"\\x89PNG\\r\\n\\x1a\\n" + struct.pack(">I", 13) + ihdr + struct.pack(">I", zlib.crc32(ihdr))
>>> image_format(png), header_size(png)
('PNG', (640, 480))
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from io import BytesIO
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from PIL.ImageFile import ImageFile

#: Sides longer than this are taken as a damaged header (PNG and TIFF allow
#: 2^31; no photo comes near).
MAX_SIDE = 1 << 20
#: JPEG frames libjpeg decodes reduced (by 2, 4 or 8) without buffering the
#: whole image: baseline and extended sequential DCT (Huffman or arithmetic).
#: Progressive, lossless and hierarchical frames are "progressive" here.
_SEQUENTIAL = {0xC0, 0xC1, 0xC9}
#: Every start-of-frame marker: SOF0-SOF15 but DHT (C4), JPG (C8) and DAC (CC).
_SOF = set(range(0xC0, 0xD0)) - {0xC4, 0xC8, 0xCC}


@dataclass(frozen=True)
class Header:
    """What a file's header says: its format, size and (JPEG) whether the
    decoder must buffer the whole image."""

    format: str
    width: int
    height: int
    progressive: bool = False

    @property
    def pixels(self) -> int:
        """width x height."""
        return self.width * self.height


def image_format(data: bytes) -> str | None:
    """'JPEG', 'PNG', 'WEBP', 'TIFF' or 'BMP' from the magic bytes, else None."""
    if data.startswith(b"\xff\xd8"):
        return "JPEG"
    if data.startswith(b"\x89PNG"):
        return "PNG"
    if data[:4] == b"RIFF" and data[8:12] == b"WEBP":
        return "WEBP"
    if data[:4] in (b"II*\x00", b"MM\x00*"):
        return "TIFF"
    if data.startswith(b"BM"):
        return "BMP"
    return None


def read_header(data: bytes) -> Header | None:
    """The header of an image file's bytes (the whole file, or enough of it);
    None when the format is unknown or the header is cut short or malformed."""
    fmt = image_format(data)
    if fmt is None:
        return None
    size = _pillow_size(fmt, data)
    if size is None and fmt == "PNG":
        size = _png_size(data)
    if size is None:
        return None
    w, h = size
    if not (0 < w <= MAX_SIDE and 0 < h <= MAX_SIDE):
        return None  # no camera or scanner makes this: a damaged or forged header
    return Header(fmt, w, h, fmt == "JPEG" and _jpeg_frame(data) not in _SEQUENTIAL)


def header_size(data: bytes) -> tuple[int, int]:
    """(width, height) from an image header, (0, 0) if unknown."""
    h = read_header(data)
    return (h.width, h.height) if h else (0, 0)


def _pillow_size(fmt: str, data: bytes) -> tuple[int, int] | None:
    """(width, height) as the format's Pillow plugin reads the header, None
    when it cannot (no pixel is decoded)."""
    from PIL import BmpImagePlugin, JpegImagePlugin, PngImagePlugin, TiffImagePlugin, WebPImagePlugin

    plugin: Callable[[BytesIO], ImageFile] = {
        "JPEG": JpegImagePlugin.JpegImageFile, "PNG": PngImagePlugin.PngImageFile,
        "WEBP": WebPImagePlugin.WebPImageFile, "TIFF": TiffImagePlugin.TiffImageFile,
        "BMP": BmpImagePlugin.BmpImageFile}[fmt]
    try:
        with plugin(BytesIO(data)) as im:
            return im.size
    except Exception:  # noqa: BLE001 - a hostile header makes Pillow raise any of a dozen types: none is ours
        return None


def _png_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG's first chunk, IHDR (fixed by the standard)."""
    if len(data) < 24 or data[12:16] != b"IHDR":
        return None
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def _jpeg_frame(data: bytes) -> int | None:
    """A JPEG's start-of-frame marker (0xC0-0xCF), walking the marker
    segments from the start (any amount of APPn/COM data may come first);
    None when the walk finds no frame."""
    i, n = 2, len(data)
    while i + 4 <= n and data[i] == 0xFF:
        marker = data[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
        elif marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # standalone markers
            i += 2
        elif marker in _SOF:
            return marker
        elif marker in (0xD9, 0xDA):  # end of image or start of scan before any frame
            return None
        else:
            i += 2 + int.from_bytes(data[i + 2:i + 4], "big")
    return None


__all__ = ["Header", "header_size", "image_format", "read_header"]
