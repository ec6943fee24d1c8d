"""The one boundary type between vision and rules: a tile read from a photo.

>>> r = TileRead(box=(10, 20, 40, 65), tile=parse_tile("r7"), confidence=0.99,
...              alternatives=((parse_tile("r7"), 0.99), (parse_tile("r1"), 0.005)), row=0)
>>> r.name, r.low_confidence
('r7', False)
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from okey_vision.tiles import Game, Hand, Tile, parse_tile  # noqa: F401 - parse_tile: the doctest above
from okey_vision.vision.config import FlagConfig

#: The flag rule of reads made without a reader's own (``FlagConfig``'s defaults).
DEFAULT_FLAGS = FlagConfig()

#: Row value for a tile lying apart from the rack rows (e.g. the indicator).
APART = -1


@dataclass(frozen=True)
class TileRead:
    """One tile found in a photo: where, what, how sure, and what else it may be."""

    box: tuple[float, float, float, float]
    tile: Tile
    confidence: float
    alternatives: tuple[tuple[Tile, float], ...] = ()
    row: int = 0
    order: int = field(default=0, compare=False)
    #: The tile's face corners (TL, TR, BR, BL as the tile stands), input pixels.
    quad: tuple[tuple[float, float], ...] | None = field(default=None, compare=False)
    #: Position along its rack row's own axis (px): rack order on a tilted rack.
    along: float | None = field(default=None, compare=False)
    #: Why the read is flagged beyond its confidence (e.g. a greyscale photo); "" if not.
    reason: str = field(default="", compare=False)
    #: How much surer the tile reads one way up than the other (nats; the log
    #: ratio of its best face probability read at 0 and at 180 degrees; None:
    #: unknown). Near 0 when both ways read the same face alike.
    turn: float | None = field(default=None, compare=False)
    #: How sure the detector is that a tile lies in the box, next to the
    #: photo's other boxes: its score over their median (1: as sure as of a
    #: typical tile of the photo; None: unknown). Low on a box over the rack's
    #: edge, on part of a tile or over two, however sure the classifiers are of a face there.
    detection: float | None = field(default=None, compare=False)
    #: The corners the classifiers read the tile from, before the row's fit
    #: moved ``quad`` onto the photo's edges (input px; None: ``quad``'s own):
    #: a stored correction is cut from them, so that it holds the pixels the reader misread.
    crop_quad: tuple[tuple[float, float], ...] | None = field(default=None, compare=False)
    #: Whether the reader flagged the read for the player to confirm (its
    #: ``FlagConfig``); None: by the default rule from ``confidence``, ``turn`` and ``detection``.
    flagged: bool | None = field(default=None, compare=False)

    @property
    def name(self) -> str:
        """The tile's short notation."""
        return self.tile.name

    @property
    def cut(self) -> tuple[tuple[float, float], ...] | None:
        """The corners a stored correction of this read is cut from: what the classifiers read."""
        return self.crop_quad if self.crop_quad is not None else self.quad

    @property
    def low_confidence(self) -> bool:
        """True when the read should be confirmed by the player."""
        if self.flagged is not None:
            return self.flagged or bool(self.reason)
        return DEFAULT_FLAGS.flag(self.confidence, self.turn, self.detection) or bool(self.reason)

    @property
    def center(self) -> tuple[float, float]:
        """The box centre (x, y) in pixels."""
        x1, y1, x2, y2 = self.box
        return (x1 + x2) / 2, (y1 + y2) / 2

    def scaled(self, factor: float) -> TileRead:
        """The same read with its box, corners and rack position multiplied by
        ``factor`` (e.g. from a shrunk copy back to the input photo's pixels)."""
        if factor == 1:
            return self
        quad = rounded(self.quad, factor) if self.quad else self.quad
        cut = rounded(self.crop_quad, factor) if self.crop_quad else self.crop_quad
        along = self.along * factor if self.along is not None else None
        x1, y1, x2, y2 = (round(v * factor, 1) for v in self.box)
        return replace(self, box=(x1, y1, x2, y2), quad=quad, crop_quad=cut, along=along)

    def outlined(self, corners: Any, size: tuple[float, float] | None = None) -> TileRead:
        """The same read with its outline moved to ``corners`` (4 x 2, photo px)
        and its box around them (clipped to ``size``, w x h), the corners the
        classifiers read it from kept as ``crop_quad``."""
        xs, ys = [float(x) for x, _ in corners], [float(y) for _, y in corners]
        x1, y1, x2, y2 = min(xs), min(ys), max(xs), max(ys)
        if size is not None:
            w, h = size
            x1, x2 = min(max(x1, 0.0), w), min(max(x2, 0.0), w)
            y1, y2 = min(max(y1, 0.0), h), min(max(y2, 0.0), h)
        box = (round(x1, 1), round(y1, 1), round(x2, 1), round(y2, 1))
        return replace(self, crop_quad=self.cut, quad=rounded(corners), box=box)

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary (box in input pixels)."""
        return {
            "tile": self.tile.name,
            "box": [round(float(v), 1) for v in self.box],
            "confidence": round(float(self.confidence), 4),
            "row": self.row,
            "alternatives": [[t.name, round(float(p), 4)] for t, p in self.alternatives],
            **({"reason": self.reason} if self.reason else {}),
            **({"quad": [[round(float(x), 1), round(float(y), 1)] for x, y in self.quad]}
               if self.quad is not None else {}),
        }


def rounded(points: Any, factor: float = 1.0) -> tuple[tuple[float, float], ...]:
    """Corners (x, y pairs) times ``factor``, to a tenth of a pixel: a read's ``quad`` as it is kept.

    >>> rounded([(1.04, 2.06)], 2)
    ((2.1, 4.1),)
    """
    return tuple((round(float(x) * factor, 1), round(float(y) * factor, 1)) for x, y in points)


def rack_order(reads: Sequence[TileRead]) -> list[TileRead]:
    """Reads as the player sees the rack: rows top to bottom, tiles left to
    right (along the row's own axis when the rack is tilted); tiles apart from
    the rows (row -1) last."""
    return sorted(reads, key=lambda r: (r.row == APART, r.row,
                                        r.center[0] if r.along is None else r.along))


def indicator_read(apart: Sequence[TileRead]) -> TileRead | None:
    """The read apart from the rack most likely to be the indicator: the most
    confident one that is not a false joker (None if there is none). The app
    and the organiser's check take a photo's indicator by this rule."""
    ok = [r for r in apart if not r.tile.is_false_joker]
    if not ok:
        return None
    return max(ok, key=lambda r: r.confidence)


def pick_indicator(apart: Sequence[TileRead]) -> Tile | None:
    """The tile apart from the rack most likely to be the indicator (:func:`indicator_read`'s tile)."""
    read = indicator_read(apart)
    return read.tile if read is not None else None


def hand_from_reads(
    reads: Sequence[TileRead], indicator: Tile | str, seen: Sequence[Tile | str] = (),
    include_apart: bool = False, game: Game = Game.OKEY,
) -> Hand:
    """The hand the reads show (rack rows only unless ``include_apart``),
    built as every hand is (:meth:`Hand.of`, checked once there; a 101
    hand, up to 22 tiles, with ``game``)."""
    chosen = [r for r in rack_order(reads) if include_apart or r.row != APART]
    if game is Game.ONE_OH_ONE:
        from okey_vision.yuzbir.rules import Hand101

        return Hand101.of(chosen, indicator, seen)
    return Hand.of(chosen, indicator, seen)


def corners(r: TileRead) -> tuple[tuple[float, float], ...]:
    """A read's four corners (its fitted quad, else its box's), photo px."""
    if r.quad is not None and len(r.quad) == 4:
        return tuple((float(x), float(y)) for x, y in r.quad)
    x1, y1, x2, y2 = r.box
    return ((x1, y1), (x2, y1), (x2, y2), (x1, y2))
