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

The size is the photo's as it stands upright: a phone holding its camera
sideways stores the pixels as the sensor lay and says how to turn them in
the EXIF orientation tag (6: a quarter turn clockwise). The header's size is
then swapped, and :attr:`Header.orientation` says what the decoded pixels
are still to be given (:func:`okey_vision.vision.io.upright`, the one place
that turns them; OpenCV is told not to). The tag is read from the EXIF data
the header holds (a JPEG's APP1, a PNG's eXIf chunk before its pixels, a
WebP's EXIF chunk); a TIFF's pixels are turned by libtiff as they are
decoded, so its orientation left to apply is 1.

A file is read through its header only: :func:`read_header` takes the open
file and reads the bytes the header needs (the JPEG walk seeks past the
segments before the frame, it does not read them).

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
from typing import TYPE_CHECKING, BinaryIO

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
#: The JPEG marker walk gives up after this many segments before the frame
#: (a camera writes a dozen; a forged file of 4-byte segments would take
#: millions of steps): the frame is then taken as one that cannot be reduced.
MAX_SEGMENTS = 4096
#: The EXIF tag saying how the camera held the photo (1: upright; 2-8: mirrored and/or turned).
ORIENTATION_TAG = 0x0112
#: The orientations whose upright photo has the stored width and height swapped (turned a quarter).
QUARTER_TURNS = frozenset({5, 6, 7, 8})


@dataclass(frozen=True)
class Header:
    """What a file's header says: its format, its size as the photo stands
    upright (EXIF orientation applied), the orientation the decoded pixels
    are still to be given (1: none), and (JPEG) whether the decoder must
    buffer the whole image."""

    format: str
    width: int
    height: int
    progressive: bool = False
    orientation: int = 1

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


def read_header(data: bytes | BinaryIO) -> Header | None:
    """The header of an image file: its bytes (the whole file, or enough of
    it), or the open file, of which only the header's bytes are read (it is
    left where it was); None when the format is unknown or the header is cut
    short or malformed."""
    fp: BinaryIO = BytesIO(data) if isinstance(data, (bytes, bytearray, memoryview)) else data
    start = fp.tell()
    try:
        return _header(fp)
    finally:
        fp.seek(start)


def _header(fp: BinaryIO) -> Header | None:
    start = fp.tell()
    fmt = image_format(fp.read(16))
    if fmt is None:
        return None
    fp.seek(start)
    info = _pillow_info(fmt, fp)
    if info is None and fmt == "PNG":
        fp.seek(start)
        size = _png_size(fp.read(24))
        info = (size, 1) if size else None
    if info is None:
        return None
    (w, h), orientation = info
    if not (0 < w <= MAX_SIDE and 0 < h <= MAX_SIDE):
        return None  # no camera or scanner makes this: a damaged or forged header
    fp.seek(start)
    progressive = fmt == "JPEG" and _jpeg_frame(fp) not in _SEQUENTIAL
    if orientation in QUARTER_TURNS:
        w, h = h, w
    # libtiff turns a TIFF's pixels itself while OpenCV decodes them: nothing is left to do after
    return Header(fmt, w, h, progressive, 1 if fmt == "TIFF" else orientation)


def header_size(data: bytes) -> tuple[int, int]:
    """(width, height) from an image header, (0, 0) if unknown."""
    h = read_header(data)
    return (h.width, h.height) if h else (0, 0)


def _pillow_info(fmt: str, fp: BinaryIO) -> tuple[tuple[int, int], int] | None:
    """((width, height) as stored, EXIF orientation) as the format's Pillow
    plugin reads the header, None when it cannot (no pixel is decoded)."""
    from PIL import BmpImagePlugin, JpegImagePlugin, PngImagePlugin, TiffImagePlugin, WebPImagePlugin

    plugin: Callable[[BinaryIO], ImageFile] = {
        "JPEG": JpegImagePlugin.JpegImageFile, "PNG": PngImagePlugin.PngImageFile,
        "WEBP": WebPImagePlugin.WebPImageFile, "TIFF": TiffImagePlugin.TiffImageFile,
        "BMP": BmpImagePlugin.BmpImageFile}[fmt]
    try:
        with plugin(fp) as im:
            if fmt == "TIFF":  # the tags as stored (Pillow's size may already be turned)
                size = (int(im.tag_v2.get(256, 0)), int(im.tag_v2.get(257, 0)))
                return size, _orientation(im.tag_v2.get(274, 1))
            return im.size, _exif_orientation(im.info.get("exif"))
    except Exception:  # noqa: BLE001 - a hostile header makes Pillow raise any of a dozen types: none is ours
        return None


def _exif_orientation(exif: object) -> int:
    """The orientation in EXIF data read with the header (Pillow's ``getexif``
    would decode a PNG's pixels to look for it); 1 when there is none."""
    if not isinstance(exif, bytes) or not exif:
        return 1
    from PIL import Image

    try:
        tags = Image.Exif()
        tags.load(exif)
        return _orientation(tags.get(ORIENTATION_TAG, 1))
    except Exception:  # noqa: BLE001 - damaged EXIF: the photo as stored
        return 1


def _orientation(value: object) -> int:
    """An orientation tag's value, 1 for anything but 1-8."""
    return value if isinstance(value, int) and 1 <= value <= 8 else 1


def _png_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a PNG's first chunk, IHDR (fixed by the standard)."""
    if len(data) < 24 or data[12:16] != b"IHDR":
        return None
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def _jpeg_frame(fp: BinaryIO) -> int | None:
    """A JPEG's start-of-frame marker (0xC0-0xCF), walking the marker
    segments from the start (any amount of APPn/COM data may come first,
    skipped, not read); None when the walk finds no frame."""
    start = fp.tell()
    i = 2
    for _ in range(MAX_SEGMENTS):
        fp.seek(start + i)
        head = fp.read(4)
        if len(head) < 4 or head[0] != 0xFF:
            return None
        marker = head[1]
        if marker == 0xFF:  # fill byte
            i += 1
        elif marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # standalone markers
            i += 2
        elif marker in _SOF:
            return marker
        elif marker in (0xD9, 0xDA):  # end of image or start of scan before any frame
            return None
        else:
            i += 2 + int.from_bytes(head[2:4], "big")
    return None


__all__ = ["MAX_SEGMENTS", "ORIENTATION_TAG", "QUARTER_TURNS", "Header", "header_size", "image_format",
           "read_header"]
