"""The rack stage: no tiles without a rack.

A rack (or a meld laid on a table) is a row of tiles side by side, read
surely: at least ``RackConfig.min_row_tiles`` reads in one row whose median
confidence in their numbers (:func:`number_confidence`) reaches
``RackConfig.row_confidence`` -- or, in a photo with colour, a row of at
least ``RackConfig.unsure_row_tiles`` reads however unsure (a real rack
seen badly still gives its reads, flagged; the unsure rows of the no-rack
pictures are a grey test pattern's digits). A frame with no such row
-- a blank wall, a test pattern's digits, a face, a table of cups and
cards -- shows no rack: it keeps reads only where one is sure by itself
(``RackConfig.alone_confidence``: a close-up of a few real tiles), and
then the fairly sure ones, none of them apart from a rack; whatever else
the detector fired on goes (the digits of a camera's test pattern read as a row of tiles, but
unsurely: a median confidence of 0.5-0.7 against 0.99 and more on the real
racks).
A lone tile (row ``APART``) is kept only where it lies beside a rack row:
the indicator beside the rack, not a phantom across the photo.

>>> from okey_vision.tiles import parse_tile
>>> row = [TileRead((x, 0, x + 10, 14), parse_tile("r5"), 0.99, row=0) for x in (0, 11, 22)]
>>> far = TileRead((300, 0, 310, 14), parse_tile("b1"), 0.99, row=APART)
>>> near = TileRead((40, 20, 50, 34), parse_tile("k2"), 0.99, row=APART)
>>> kept = on_racks(row + [far, near])
>>> kept.rack, [r.name for r in kept.reads]
(True, ['r5', 'r5', 'r5', 'k2'])
>>> pair = row[:2]
>>> on_racks(pair).rack, len(on_racks(pair).reads), len(on_racks(pair, RackConfig(alone_confidence=0.98)).reads)
(False, 0, 2)
>>> unsure = [TileRead((0, 30, 10, 44), parse_tile("k9"), 0.7, row=1)]
>>> len(on_racks(pair + unsure, RackConfig(alone_confidence=0.98)).reads)
2
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from okey_vision.vision.config import RackConfig
from okey_vision.vision.crops import quad_axes
from okey_vision.vision.reads import APART, TileRead


@dataclass(frozen=True)
class RackFound:
    """The reads kept on and beside the racks, and whether any rack shows."""

    reads: tuple[TileRead, ...]
    rack: bool


def number_confidence(read: TileRead) -> float:
    """How sure a read is of its number alone: its alternatives with the
    top read's number (any colour) summed.

    >>> from okey_vision.tiles import parse_tile
    >>> r = TileRead((0, 0, 1, 1), parse_tile("b7"), 0.5, ((parse_tile("b7"), 0.5), (parse_tile("k7"), 0.45)))
    >>> round(number_confidence(r), 2)
    0.95
    """
    if not read.alternatives:
        return read.confidence
    top = read.alternatives[0][0]
    return float(sum(p for t, p in read.alternatives if t.number == top.number))


def rack_rows(reads: Sequence[TileRead], config: RackConfig | None = None, colour: bool = True) -> list[int]:
    """The rows (their numbers) that are racks: enough tiles whose numbers read surely
    (their colours may not: a set of unusual inks, before the player's calibration),
    or, in a photo with ``colour``, enough tiles however unsure (``RackConfig.unsure_row_tiles``).

    >>> from okey_vision.tiles import parse_tile
    >>> unsure = [TileRead((x, 0, x + 10, 14), parse_tile("b3"), 0.5, row=0) for x in (0, 11, 22)]
    >>> rack_rows(unsure), rack_rows(unsure, colour=False)
    ([0], [])
    """
    config = config or RackConfig()
    unsure = max(config.unsure_row_tiles, config.min_row_tiles) if config.unsure_row_tiles > 0 and colour else 0
    out = []
    for row in sorted({r.row for r in reads if r.row != APART}):
        conf = [number_confidence(r) for r in reads if r.row == row]
        sure = len(conf) >= config.min_row_tiles and float(np.median(conf)) >= config.row_confidence
        if sure or (unsure and len(conf) >= unsure):
            out.append(row)
    return out


def on_racks(reads: Sequence[TileRead], config: RackConfig | None = None, colour: bool = True) -> RackFound:
    """The reads of a photo (with ``colour`` or greyscale) once rows are known
    (:func:`okey_vision.vision.order.assign_rows`): when no row is a rack
    (:func:`rack_rows`), none unless one read reaches
    ``config.alone_confidence`` (a tile surely there), and then the reads of
    at least ``config.row_confidence``, none of them apart (with no rack there
    is no indicator beside it); else every row's reads, and the lone tiles
    lying within ``config.beside`` tile heights of a rack row's tile."""
    config = config or RackConfig()
    racks = rack_rows(reads, config, colour)
    if not racks:  # no rack: tiles only where one is read surely (a close-up of a few tiles), none apart
        if not any(r.confidence >= config.alone_confidence for r in reads):
            return RackFound((), False)
        return RackFound(tuple(replace(r, row=0) if r.row == APART else r for r in reads
                               if r.confidence >= config.row_confidence), False)
    on = [r for r in reads if r.row in racks]
    centres = np.array([r.center for r in on])
    height = float(np.median([_height(r) for r in on]))
    kept = []
    for r in reads:
        if r.row == APART:
            near = float(np.min(np.hypot(*(centres - np.array(r.center)).T)))
            if near > config.beside * height:
                continue
        kept.append(r)
    return RackFound(tuple(kept), True)


def _height(r: TileRead) -> float:
    """A read's tile height (its quad's, else its box's)."""
    if r.quad is not None and len(r.quad) == 4:
        return float(quad_axes(np.asarray(r.quad, np.float64))[3])
    return r.box[3] - r.box[1]


__all__ = ["RackFound", "number_confidence", "on_racks", "rack_rows"]
