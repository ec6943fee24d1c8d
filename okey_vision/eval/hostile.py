"""Hostile image bytes built by hand (standard library only), shared by
`tests/test_io.py` and `benchmarks/hostile_input.py`: headers that claim
giant sizes, decompression bombs and late size markers.

>>> png_header(60000, 60000)[:8] == b"\\x89PNG\\r\\n\\x1a\\n"
True
"""

from __future__ import annotations

import struct
import zlib

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


def png_chunk(kind: bytes, data: bytes) -> bytes:
    """One PNG chunk: length, kind, data and its CRC."""
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def deflate_zeros(row: int, rows: int) -> bytes:
    """``rows`` rows of ``row`` zero bytes, deflated (about 1000:1)."""
    z = zlib.compressobj(9)
    line = b"\x00" * row
    return b"".join(z.compress(line) for _ in range(rows)) + z.flush()


def png_header(w: int, h: int, colour_type: int = 2) -> bytes:
    """A PNG signature and IHDR claiming ``w`` x ``h`` 8-bit pixels, nothing after."""
    return PNG_SIGNATURE + png_chunk(b"IHDR", struct.pack(">IIBBBBB", w, h, 8, colour_type, 0, 0, 0))


def png(w: int, h: int, idat: bytes, colour_type: int = 0) -> bytes:
    """A whole PNG (grey by default) with the given compressed pixel data."""
    return png_header(w, h, colour_type) + png_chunk(b"IDAT", idat) + png_chunk(b"IEND", b"")


def png_bomb(w: int, h: int) -> bytes:
    """A real grey PNG of ``w`` x ``h`` zero pixels (compresses ~1000:1)."""
    return png(w, h, deflate_zeros(w + 1, h))


def tiff(w: int, h: int, strip: bytes | None = None) -> bytes:
    """A little-endian grey deflate TIFF claiming ``w`` x ``h``; one strip when given, else none."""
    tags = {256: (4, w), 257: (4, h), 258: (3, 8), 259: (3, 8), 262: (3, 1), 277: (3, 1), 278: (4, h)}
    if strip is not None:
        n = 2 + 12 * (len(tags) + 2) + 4
        tags |= {273: (4, 8 + n), 279: (4, len(strip))}   # the strip follows the one IFD
    entries = b"".join(struct.pack("<HHII", tag, kind, 1, value) for tag, (kind, value) in sorted(tags.items()))
    ifd = struct.pack("<H", len(tags)) + entries + b"\x00" * 4
    return b"II*\x00" + struct.pack("<I", 8) + ifd + (strip if strip is not None else b"\x00" * 64)


def jpeg_with_size(data: bytes, w: int, h: int) -> bytes:
    """The JPEG with its frame header (baseline or progressive) rewritten to claim ``w`` x ``h``."""
    i = data.index(b"\xff\xc0") if b"\xff\xc0" in data else data.index(b"\xff\xc2")
    return data[:i + 5] + struct.pack(">HH", h, w) + data[i + 9:]


def jpeg_with_app_data(data: bytes, total: int) -> bytes:
    """The JPEG with at least ``total`` bytes of APP1 segments before its frame header."""
    seg = b""
    while len(seg) < total:
        payload = b"Exif\x00\x00" + b"\x00" * 65000
        seg += b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload
    return data[:2] + seg + data[2:]
