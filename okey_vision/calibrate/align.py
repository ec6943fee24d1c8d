"""The tiles a player gives for a photo, aligned with the photo's reads.

The player lists the rack's tiles in rack order (rows top to bottom, left
to right along the rack), as the reader orders its reads. The two lists are
aligned the way a diff aligns lines (:class:`difflib.SequenceMatcher` on the
tile names): the tiles read right anchor the alignment, so a tile the reader
missed, or a read of something that is no tile, shifts nothing else. Between
two anchors, a stretch of as many given tiles as reads pairs them in order,
where each pair could be one tile misread (the same number, or the same
colour: a navy 7 read as a black 7); a stretch of unequal length pairs
nothing (which read is which tile cannot be told).

>>> align("r1 b2 b3 k4".split(), "r1 k2 k3 k4".split())
[(0, 0), (1, 1), (2, 2), (3, 3)]
>>> align("r1 r2 r3 r4".split(), "r1 r3 r4".split())      # r2 missed by the reader
[(0, 0), (2, 1), (3, 2)]
>>> align("r1 r2 r3".split(), "y9 k8 b7".split())          # nothing alike: no pair
[]
"""

from __future__ import annotations

from collections.abc import Sequence
from difflib import SequenceMatcher

from okey_vision.tiles import parse_tile
from okey_vision.vision.reads import APART, TileRead, rack_order


def alike(given: str, read: str) -> bool:
    """Whether ``read`` can be a misread of ``given``: the same number or the
    same colour (a false joker shares neither with a face)."""
    a, b = parse_tile(given), parse_tile(read)
    return a.number == b.number or a.color == b.color


def align(given: Sequence[str], reads: Sequence[str]) -> list[tuple[int, int]]:
    """(given index, read index) of each aligned pair, in rack order."""
    pairs: list[tuple[int, int]] = []
    matcher = SequenceMatcher(a=list(given), b=list(reads), autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "equal":
            pairs += [(i1 + k, j1 + k) for k in range(i2 - i1)]
        elif tag == "replace" and i2 - i1 == j2 - j1:
            pairs += [(i1 + k, j1 + k) for k in range(i2 - i1) if alike(given[i1 + k], reads[j1 + k])]
    return pairs


def enough(pairs: Sequence[object], reads: int) -> bool:
    """Whether an alignment holds at least half of the ``reads`` (else the list is refused)."""
    return reads > 0 and 2 * len(pairs) >= reads


def rack_pairs(reads: Sequence[TileRead], given: Sequence[str]) -> tuple[list[tuple[int, TileRead, str]], int]:
    """The photo's rack reads (rows, in rack order) aligned with the tiles
    ``given`` in rack order: ``(place, read, given tile)`` for each pair
    (``place``: the read's index among the rack reads), and how many rack reads there are."""
    rack = [r for r in rack_order(reads) if r.row != APART]
    pairs = align([parse_tile(t).name for t in given], [r.name for r in rack])
    return [(j, rack[j], parse_tile(given[i]).name) for i, j in pairs], len(rack)


__all__ = ["align", "alike", "enough", "rack_pairs"]
