"""The photo zoomed to the rack: the tiles read, cut out in pieces and laid
out large enough to tap one at a time on a phone; and where each label goes.

A phone shows the photo about 320 px wide: a rack of 15 tiles across a
whole photo leaves each tile 12-25 px wide there, too small to tap one at a
time. :func:`rack_view` cuts the photo along its rack rows, at the gaps
between groups of tiles, into pieces (each a crop around its tiles' boxes)
and lays them out in lines at most :data:`LINE_TILES` tiles wide with every
tile at least :data:`TILE_PX` view pixels wide, a band above each line for
the labels. Shown at most the column's width, a 320-px phone column gives
every tile at least 40 px. :func:`whole_view` is the photo as it was taken.
:class:`ZoomView` maps the photo's pixels to the view's and a tap on the view
back to the read under it (:meth:`ZoomView.read_at`).

:func:`place_labels` puts each label above or below its tile where it
overlaps no other label (shortened, or left out when it is not one to check,
where neither fits).

Pure Python (no numpy): the layout is tested without drawing it.

>>> boxes = [(100.0 + 60 * i, 50.0, 155.0 + 60 * i, 130.0) for i in range(15)]
>>> v = rack_view(boxes, [0] * 15, (1100, 200))
>>> v.width <= LINE_TILES * TILE_PX, len(v.pieces) > 1
(True, True)
>>> min(v.tile_width(i, b) for i, b in enumerate(boxes)) >= TILE_PX
True
>>> x1, y1, x2, y2 = v.box(14, boxes[14])
>>> v.read_at((x1 + x2) / 2, (y1 + y2) / 2, boxes)
14
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from statistics import median

Box = tuple[float, float, float, float]
Quad = tuple[tuple[float, float], ...]

#: The narrowest tile in the zoomed view (view px); the view is at most
#: :data:`LINE_TILES` such tiles wide, so a 320-px column shows each at 40 px or more.
TILE_PX = 80
#: Most tile widths a line of the zoomed view holds.
LINE_TILES = 8
#: A gap wider than this (in tile widths) between two tiles of a row splits it into pieces.
GAP = 0.3
#: Space between two pieces on a line (in tile widths).
SEP = 0.2
#: The label band above each line (view px).
BAND = 40
#: Room around the zoomed view's pieces (view px), for the melds' outlines.
MARGIN = 8
#: Most the zoomed view enlarges the photo.
MAX_SCALE = 4.0
#: Row value of a tile lying apart (as in :mod:`okey_vision.vision.reads`).
APART = -1


@dataclass(frozen=True)
class Piece:
    """A crop of the photo placed on the view: ``src`` (photo px: x1, y1, x2,
    y2), its top-left corner on the view, its scale (view px per photo px)
    and the reads it shows (indices)."""

    src: tuple[int, int, int, int]
    x: float
    y: float
    scale: float
    reads: tuple[int, ...]

    @property
    def size(self) -> tuple[int, int]:
        """Its width and height on the view (px)."""
        x1, y1, x2, y2 = self.src
        return round((x2 - x1) * self.scale), round((y2 - y1) * self.scale)

    def to_view(self, px: float, py: float) -> tuple[float, float]:
        """A photo point on the view."""
        return self.x + (px - self.src[0]) * self.scale, self.y + (py - self.src[1]) * self.scale

    def to_photo(self, x: float, y: float) -> tuple[float, float]:
        """A view point in the photo."""
        return self.src[0] + (x - self.x) / self.scale, self.src[1] + (y - self.y) / self.scale

    def near(self, x: float, y: float, above: float = 0.0) -> bool:
        """Whether a view point lies on this piece (or in the ``above`` px over it: its labels)."""
        w, h = self.size
        return self.x <= x <= self.x + w and self.y - above <= y <= self.y + h


@dataclass(frozen=True)
class ZoomView:
    """The image shown for a photo: its size (px), the pieces of the photo on
    it, and the label band above each line (0: labels go on the photo itself)."""

    width: int
    height: int
    pieces: tuple[Piece, ...]
    band: int = 0

    def piece_of(self, i: int) -> Piece | None:
        """The piece showing read ``i`` (None when the view leaves it out)."""
        return next((p for p in self.pieces if i in p.reads), None)

    def box(self, i: int, box: Box) -> Box:
        """Read ``i``'s box (photo px) on the view."""
        p = self.piece_of(i)
        if p is None:
            raise KeyError(i)
        x1, y1 = p.to_view(box[0], box[1])
        x2, y2 = p.to_view(box[2], box[3])
        return x1, y1, x2, y2

    def quad(self, i: int, quad: Quad) -> Quad:
        """Read ``i``'s corners (photo px) on the view."""
        p = self.piece_of(i)
        if p is None:
            raise KeyError(i)
        return tuple(p.to_view(x, y) for x, y in quad)

    def tile_width(self, i: int, box: Box) -> float:
        """How wide read ``i`` is drawn (view px)."""
        x1, _, x2, _ = self.box(i, box)
        return x2 - x1

    def read_at(self, x: float, y: float, boxes: Sequence[Box]) -> int | None:
        """The read a tap at view pixel (x, y) points at (its piece's reads
        only; a tap on a label counts for its tile); None away from every tile."""
        for p in self.pieces:
            if p.near(x, y, above=self.band):
                px, py = p.to_photo(x, max(y, p.y))
                hit = read_at([boxes[i] for i in p.reads], px, py)
                if hit is not None:
                    return p.reads[hit]
        return None


def tapped_read(view: ZoomView, boxes: Sequence[Box], tap: dict) -> int | None:
    """The read a tap points at: ``tap`` as the tap component gives it (x, y
    on the image as shown, and the shown width and height)."""
    if not tap or not tap.get("width"):
        return None
    x = tap["x"] * view.width / tap["width"]
    y = tap["y"] * view.height / (tap.get("height") or tap["width"] * view.height / view.width)
    return view.read_at(x, y, boxes)


def whole_view(size: tuple[int, int], n: int, max_side: int = 1024) -> ZoomView:
    """The whole photo (``size``: width, height), shrunk to ``max_side``, showing all ``n`` reads."""
    w, h = size
    s = min(1.0, max_side / max(w, h))
    return ZoomView(round(w * s), round(h * s), (Piece((0, 0, w, h), 0.0, 0.0, s, tuple(range(n))),))


def _segments(boxes: Sequence[Box], rows: Sequence[int], gap: float) -> list[list[int]]:
    """The reads in groups: consecutive reads of one rack row with no gap wider
    than ``gap`` px between them; a tile apart from the rows alone."""
    out: list[list[int]] = []
    for i, (box, row) in enumerate(zip(boxes, rows, strict=True)):
        if out and row != APART and rows[out[-1][-1]] == row and box[0] - boxes[out[-1][-1]][2] <= gap:
            out[-1].append(i)
        else:
            out.append([i])
    return out


def rack_view(boxes: Sequence[Box], rows: Sequence[int], size: tuple[int, int], tile_px: int = TILE_PX,
              line_tiles: int = LINE_TILES) -> ZoomView:
    """The photo zoomed to its reads (``boxes`` in photo px, in rack order with
    their ``rows``; ``size``: the photo's width and height): each group of
    touching tiles a piece, the pieces in lines at most ``line_tiles`` tiles
    wide, a new line for each rack row, every tile at least ``tile_px`` wide."""
    if not boxes:
        return whole_view(size, 0)
    widths = [b[2] - b[0] for b in boxes]
    tile_w, tile_h = median(widths), median(b[3] - b[1] for b in boxes)
    s = min(MAX_SCALE, tile_px / max(1.0, min(widths)))  # the narrowest tile sets the scale
    pad_x, pad_y = 0.05 * tile_w, 0.1 * tile_h
    line_max = line_tiles * tile_px - 2 * MARGIN  # the whole view at most line_tiles tiles wide
    W, H = size

    def crop(ids: Sequence[int]) -> tuple[int, int, int, int]:
        x1 = max(0, int(min(boxes[i][0] for i in ids) - pad_x))
        y1 = max(0, int(min(boxes[i][1] for i in ids) - pad_y))
        x2 = min(W, int(max(boxes[i][2] for i in ids) + pad_x + 1))
        y2 = min(H, int(max(boxes[i][3] for i in ids) + pad_y + 1))
        return x1, y1, max(x2, x1 + 1), max(y2, y1 + 1)

    chunks: list[list[int]] = []
    for seg in _segments(boxes, rows, GAP * tile_w):
        chunk: list[int] = []
        for i in seg:  # a group wider than a line is cut between two tiles
            if chunk and (crop([*chunk, i])[2] - crop([*chunk, i])[0]) * s > line_max:
                chunks.append(chunk)
                chunk = []
            chunk.append(i)
        chunks.append(chunk)
    sep = SEP * tile_px
    pieces: list[Piece] = []
    x, y = float(MARGIN), 0.0
    line_h = 0.0
    width = 0.0
    row_of_line = None
    for ids in chunks:
        src = crop(ids)
        w, h = (src[2] - src[0]) * s, (src[3] - src[1]) * s
        row = rows[ids[0]]
        new_row = row != APART and row_of_line is not None and row != row_of_line
        if pieces and (new_row or x + sep + w > max(line_max, w) + MARGIN):
            y += line_h + sep / 2
            x, line_h = float(MARGIN), 0.0
        elif pieces:
            x += sep
        if row != APART:
            row_of_line = row
        pieces.append(Piece(src, x, y + BAND, s, tuple(ids)))
        x += w
        width = max(width, x)
        line_h = max(line_h, BAND + h)
    return ZoomView(round(width + MARGIN), round(y + line_h + MARGIN), tuple(pieces), BAND)


def read_at(boxes: Sequence[Box], x: float, y: float) -> int | None:
    """The index of the box a tap at (x, y) points at: the box holding it
    (the nearest centre if several), or the nearest box within half a tile
    of it; None when the tap is away from every tile."""
    best, best_d = None, None
    for i, (x1, y1, x2, y2) in enumerate(boxes):
        w, h = x2 - x1, y2 - y1
        dx = max(x1 - x, 0.0, x - x2) / max(w, 1.0)
        dy = max(y1 - y, 0.0, y - y2) / max(h, 1.0)
        if dx > 0.5 or dy > 0.5:
            continue
        cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
        d = (dx + dy, ((x - cx) / max(w, 1.0)) ** 2 + ((y - cy) / max(h, 1.0)) ** 2)
        if best_d is None or d < best_d:
            best, best_d = i, d
    return best


def _overlap(a: Box, b: Box) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def place_labels(boxes: Sequence[Box], sizes: Sequence[Sequence[tuple[int, int]]], bounds: tuple[int, int],
                 keep: Sequence[bool], gap: int = 2) -> list[tuple[int, int, int] | None]:
    """Where each label goes: for the tile ``boxes[i]`` (view px) and its
    label's ``sizes[i]`` (width, height of each form, longest first), the
    (x, y, form) of its top-left corner, above the tile or else below it,
    overlapping no label placed before it and inside ``bounds`` (width,
    height); a shorter form where the long one fits nowhere; None where none
    fits, unless ``keep[i]`` (a tile to check: moved sideways until it fits).
    The labels to keep are placed first.

    >>> place_labels([(0, 20, 30, 60), (25, 20, 55, 60)], [[(40, 10)], [(40, 10)]], (100, 100), [False, False])
    [(0, 8, 0), (20, 62, 0)]
    """
    W, H = bounds
    placed: list[Box] = []
    out: list[tuple[int, int, int] | None] = [None] * len(boxes)
    order = sorted(range(len(boxes)), key=lambda i: (not keep[i], i))

    def free(x: float, y: float, w: int, h: int) -> bool:
        r = (x, y, x + w, y + h)
        return y >= 0 and y + h <= H and not any(_overlap(r, p) for p in placed)

    for i in order:
        x1, y1, x2, y2 = boxes[i]
        cx = (x1 + x2) / 2
        spot = None
        for form, (w, h) in enumerate(sizes[i]):
            lx = min(max(0.0, cx - w / 2), max(0.0, W - w))
            for ly in (y1 - h - gap, y2 + gap):
                if free(lx, ly, w, h):
                    spot = (int(lx), int(ly), form)
                    break
            if spot:
                break
        if spot is None and keep[i]:  # a tile to check keeps its label: slide it along until it fits
            w, h = sizes[i][-1]
            for dx in range(0, int(W), max(2, w // 4)):
                for lx in (cx - w / 2 + dx, cx - w / 2 - dx):
                    lx = min(max(0.0, lx), max(0.0, W - w))
                    for ly in (y1 - h - gap, y2 + gap, y1 + gap):
                        if spot is None and free(lx, ly, w, h):
                            spot = (int(lx), int(ly), len(sizes[i]) - 1)
                if spot:
                    break
        if spot is not None:
            w, h = sizes[i][spot[2]]
            placed.append((spot[0], spot[1], spot[0] + w, spot[1] + h))
        out[i] = spot
    return out


__all__ = ["BAND", "LINE_TILES", "TILE_PX", "Piece", "ZoomView", "place_labels", "rack_view", "read_at",
           "tapped_read", "whole_view"]
