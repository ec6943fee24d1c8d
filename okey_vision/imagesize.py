"""Image format and dimensions from a file's header bytes, without decoding pixels.

The one place that knows the headers of the formats the reader accepts
(JPEG, PNG, WebP, TIFF, BMP): :mod:`okey_vision.vision.io` checks the size
here before any pixel is decoded, so a decompression bomb is refused or
decoded reduced instead of allocating gigabytes. Pure Python.

>>> header_size(b"not an image")
(0, 0)
>>> png = b"\\x89PNG\\r\\n\\x1a\\n" + (13).to_bytes(4, "big") + b"IHDR" + (640).to_bytes(4, "big") + (480).to_bytes(4, "big")
>>> image_format(png), header_size(png)
('PNG', (640, 480))
"""

from __future__ import annotations

from dataclasses import dataclass

#: Sides longer than this are taken as a damaged header (PNG and TIFF allow
#: 2^31; no photo comes near).
MAX_SIDE = 1 << 20
#: JPEG start-of-frame markers (baseline, extended, progressive, lossless...):
#: every SOFn but DHT (C4), JPG (C8) and DAC (CC).
_SOF = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}
#: Progressive (and lossless/hierarchical) frames: libjpeg buffers every
#: coefficient of the full image for them, even when decoding reduced.
_SOF_BUFFERED = {0xC2, 0xC3, 0xC6, 0xC7, 0xCA, 0xCB, 0xCE, 0xCF}


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
    try:
        size = _PARSERS[fmt](data) if fmt else None
    except (IndexError, ValueError):
        size = None
    if not size:
        return None
    w, h, progressive = size
    if not (0 < w <= MAX_SIDE and 0 < h <= MAX_SIDE):
        return None  # no camera or scanner makes this: a damaged or forged header
    return Header(fmt, w, h, progressive)


def header_size(data: bytes) -> tuple[int, int]:
    """(width, height) from an image header, (0, 0) if unknown."""
    h = read_header(data)
    return (h.width, h.height) if h else (0, 0)


def _u16(b: bytes, i: int, big: bool = True) -> int:
    if i + 2 > len(b):
        raise IndexError(i)
    return int.from_bytes(b[i:i + 2], "big" if big else "little")


def _u32(b: bytes, i: int, big: bool = True) -> int:
    if i + 4 > len(b):
        raise IndexError(i)
    return int.from_bytes(b[i:i + 4], "big" if big else "little")


def _jpeg(b: bytes) -> tuple[int, int, bool] | None:
    # Walk the marker segments from the start: the frame header may sit after
    # any amount of APPn/COM data (EXIF thumbnails, ICC profiles).
    i = 2
    n = len(b)
    while i + 4 <= n:
        if b[i] != 0xFF:
            return None  # not at a marker: malformed
        marker = b[i + 1]
        if marker == 0xFF:  # fill byte
            i += 1
            continue
        if marker in (0xD8, 0x01) or 0xD0 <= marker <= 0xD7:  # standalone markers
            i += 2
            continue
        if marker in (0xD9, 0xDA):  # end of image or start of scan before any frame
            return None
        seg = _u16(b, i + 2)
        if marker in _SOF:
            return _u16(b, i + 7), _u16(b, i + 5), marker in _SOF_BUFFERED
        if seg < 2:
            return None
        i += 2 + seg
    return None


def _png(b: bytes) -> tuple[int, int, bool] | None:
    if b[12:16] != b"IHDR":
        return None
    return _u32(b, 16), _u32(b, 20), False


def _webp(b: bytes) -> tuple[int, int, bool] | None:
    chunk = b[12:16]
    if chunk == b"VP8 ":  # lossy: 14-bit sizes after the frame tag and start code
        if b[23:26] != b"\x9d\x01\x2a":
            return None
        return _u16(b, 26, False) & 0x3FFF, _u16(b, 28, False) & 0x3FFF, False
    if chunk == b"VP8L":  # lossless: 14-bit sizes minus one, packed after 0x2f
        if b[20] != 0x2F:
            return None
        bits = _u32(b, 21, False)
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1, False
    if chunk == b"VP8X":  # extended: 24-bit canvas sizes minus one
        w = int.from_bytes(b[24:27], "little") + 1
        h = int.from_bytes(b[27:30], "little") + 1
        if len(b) < 30:
            return None
        return w, h, False
    return None


def _tiff(b: bytes) -> tuple[int, int, bool] | None:
    big = b[:2] == b"MM"
    ifd = _u32(b, 4, big)
    count = _u16(b, ifd, big)
    w = h = 0
    for k in range(min(count, 512)):
        e = ifd + 2 + 12 * k
        tag, typ = _u16(b, e, big), _u16(b, e + 2, big)
        if tag not in (256, 257):
            continue
        value = _u16(b, e + 8, big) if typ == 3 else _u32(b, e + 8, big)
        if tag == 256:
            w = value
        else:
            h = value
    return (w, h, False) if w and h else None


def _bmp(b: bytes) -> tuple[int, int, bool] | None:
    dib = _u32(b, 14, False)
    if dib == 12:  # OS/2 BITMAPCOREHEADER: 16-bit sizes
        return _u16(b, 18, False), _u16(b, 20, False), False
    w = int.from_bytes(b[18:22], "little", signed=True)
    h = int.from_bytes(b[22:26], "little", signed=True)
    if len(b) < 26:
        return None
    return abs(w), abs(h), False  # a negative height means top-down rows


_PARSERS = {"JPEG": _jpeg, "PNG": _png, "WEBP": _webp, "TIFF": _tiff, "BMP": _bmp}

__all__ = ["Header", "image_format", "read_header", "header_size"]
