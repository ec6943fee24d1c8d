"""Image dimensions from a file's header bytes, without decoding pixels.

Shared by the reader (refuse or shrink a huge photo before decoding) and the
real-photo converter (label boxes need the size). Pure Python.

>>> header_size(b"not an image")
(0, 0)
"""

from __future__ import annotations


def header_size(data: bytes) -> tuple[int, int]:
    """(width, height) from a JPEG or PNG header, (0, 0) if unknown."""
    if data.startswith(b"\x89PNG") and len(data) >= 24:
        return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")
    if data.startswith(b"\xff\xd8"):
        i = 2
        while i + 9 < len(data):
            if data[i] != 0xFF:
                i += 1
                continue
            marker = data[i + 1]
            seg = int.from_bytes(data[i + 2:i + 4], "big")
            if marker in (0xC0, 0xC1, 0xC2):
                return int.from_bytes(data[i + 7:i + 9], "big"), int.from_bytes(data[i + 5:i + 7], "big")
            i += 2 + seg
    return 0, 0
