"""A stand-in reader for testing the app without model weights.

Run the app with ``OKEY_VISION_APP_READER=app_fakes:reader`` (this folder
on the path, as pytest puts it) and it reads every photo as the reads set
here (or none):

>>> from okey_vision.tiles import parse_tile
>>> set_reads([]); reader()(None)
[]
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from okey_vision.eval.racks import reads_from_truth
from okey_vision.vision.reads import TileRead

_NEXT: list[TileRead] = []


def set_reads(reads: Sequence[TileRead]) -> None:
    """The reads every photo will give from now on."""
    _NEXT[:] = list(reads)


def reader() -> Callable[..., list[TileRead]]:
    """The factory the app calls: a reader returning the reads set by :func:`set_reads`."""
    return lambda image, **kw: list(_NEXT)


def sample_reader() -> Callable[..., list[TileRead]]:
    """A factory whose reader reads every photo as the sample's true tiles,
    the sample's 4th tile with low confidence (for looking at the UI)."""
    from okey_vision.synth.sample import sample_truth

    reads = reads_from_truth(sample_truth(), low=(3,))
    return lambda image, **kw: list(reads)


def failing_reader() -> Callable[..., list[TileRead]]:
    """A factory whose reader always crashes (the app must say so plainly)."""
    def read(image, **kw):
        raise RuntimeError("model exploded")

    return read
