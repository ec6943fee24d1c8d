"""Giving memory back to the system after a burst of reads.

A photo read allocates tens of MB of short-lived arrays (the decoded photo,
crops, network activations); glibc keeps freed blocks in its arenas, so a
server that served eight players at once would stay at that peak. Trimming
the heap after a read returns it (measured in ``benchmarks/read_load.py``).
"""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import lru_cache


@lru_cache(maxsize=1)
def _libc() -> ctypes.CDLL | None:
    name = ctypes.util.find_library("c")
    try:
        lib = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return lib if lib is not None and hasattr(lib, "malloc_trim") else None


def release_memory() -> bool:
    """Return freed heap memory to the system (glibc ``malloc_trim``); False
    where the C library has no such call (other platforms: nothing to do)."""
    lib = _libc()
    if lib is None:
        return False
    lib.malloc_trim(0)
    return True


__all__ = ["release_memory"]
