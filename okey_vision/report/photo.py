"""Photo bytes in, tile reads out, boxes drawn on the photo.

Every failure is an :class:`~okey_vision.errors.ImageError` (or another
:class:`~okey_vision.errors.OkeyError`) with a plain message, so the app can
show it instead of a traceback. numpy and OpenCV load lazily.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from okey_vision.errors import ImageError
from okey_vision.report.labels import Lang, t
from okey_vision.report.zoom import ZoomView, place_labels, whole_view
from okey_vision.report.zoom import read_at as box_at
from okey_vision.tiles import MAX_HAND, Tile
from okey_vision.vision.reads import APART, TileRead, corners, indicator_read, pick_indicator, rack_order

if TYPE_CHECKING:
    from okey_vision.report.analysis import RackMove

#: Photos are shrunk to this long side before reading (the detector works on
#: a much smaller copy; crops keep enough pixels at this size).
READ_SIDE = 1600
#: Below this variance of the Laplacian (on a 512-px copy) a photo is called blurry.
BLUR_THRESHOLD = 25.0
Reader = Callable[..., list]


@dataclass
class PhotoReads:
    """What one photo gave: the reads (rack order), the hand tiles, the
    indicator candidates (tiles apart from the rack), warnings, timings."""

    reads: list[TileRead]
    rack: list[TileRead]
    apart: list[TileRead]
    warnings: list[str] = field(default_factory=list)
    seconds: float = 0.0
    size: tuple[int, int] = (0, 0)

    @property
    def low(self) -> list[TileRead]:
        """Rack reads the player should confirm."""
        return [r for r in self.rack if r.low_confidence]


def decode_photo(data: bytes | None, name: str = "photo"):
    """A BGR uint8 image from uploaded bytes, shrunk to ``READ_SIDE``
    (:func:`okey_vision.vision.io.decode_image`: one decode path for the app
    and the CLI); :class:`ImageError` with a plain message for an empty,
    non-image, corrupt, tiny or too large file."""
    from okey_vision.vision.io import decode_image

    return decode_image(data, name, max_side=READ_SIDE).image


def sharpness(img) -> float:
    """Variance of the Laplacian of a 512-px grey copy (higher is sharper)."""
    import cv2

    from okey_vision.vision.resize import cap_side

    small = cap_side(img, 512)
    grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    return float(cv2.Laplacian(grey, cv2.CV_64F).var())


def read_photo(img, reader: Reader, lang: Lang = Lang.EN, most: int = MAX_HAND) -> PhotoReads:
    """Read a decoded photo with ``reader(image) -> list[TileRead]`` and
    split the reads into rack tiles and tiles apart; warns about blur. A
    rack holds at most ``most`` tiles (the game's: 15, or 22 in 101)."""
    t0 = time.perf_counter()
    reads = rack_order(list(reader(img)))
    seconds = time.perf_counter() - t0
    rack = [r for r in reads if r.row != APART]
    apart = [r for r in reads if r.row == APART]
    warnings = []
    blur = sharpness(img)
    if not reads:
        raise ImageError(t("no_tiles_blurry" if blur < BLUR_THRESHOLD else "no_tiles", lang))
    if blur < BLUR_THRESHOLD:
        warnings.append(t("blurry", lang))
    if len(rack) > most:
        # keep the surest (in rack order); name the others so the player can add them back
        keep = {id(r) for r in sorted(rack, key=lambda r: -r.confidence)[:most]}
        aside = [r for r in rack if id(r) not in keep]
        rack = [r for r in rack if id(r) in keep]
        warnings.append(t("set_aside", lang, n=len(rack) + len(aside), most=most,
                          tiles=", ".join(r.tile.name for r in aside)))
    h, w = img.shape[:2]
    return PhotoReads(reads, rack, apart, warnings, seconds, (w, h))


#: Overlay size: the whole photo drawn for the page (long side), with labels sized for a phone.
OVERLAY_SIDE = 1024

#: Colours (BGR): a box around a sure read, one to check, a tile apart from the rack.
SURE, CHECK, APART_BOX = (60, 190, 60), (0, 140, 255), (200, 60, 160)
#: A label drawn as a chip: its tile's colour (BGR) behind its number.
CHIP = {"r": (40, 40, 200), "y": (0, 140, 215), "b": (190, 100, 20), "k": (35, 35, 35), "f": (150, 40, 140)}
#: The tile to throw is ringed in red; the okey thrown to finish (doubled points) in gold; melds outlined.
RING, GOLD, MELD = (40, 30, 235), (0, 200, 255), (255, 230, 40)
FONT = 0  # cv2.FONT_HERSHEY_SIMPLEX


def overlay_scale(img, max_side: int = OVERLAY_SIDE) -> float:
    """Overlay pixels per photo pixel (at most 1)."""
    h, w = img.shape[:2]
    return min(1.0, max_side / max(h, w))


def label_forms(tile: Tile, check: bool, indicator: bool, lang: Lang = Lang.EN) -> list[tuple[str, bool]]:
    """A read's label, longest first, each (text, drawn as a chip of the tile's
    colour): English ``y13?`` (``r3 ind`` for the indicator), then the chip
    ``13?``; Turkish only the chip (the page never writes a tile in the Latin
    notation; the chip's colour is the tile's).

    >>> from okey_vision.tiles import parse_tile
    >>> label_forms(parse_tile("y13"), True, False), label_forms(parse_tile("y13"), True, False, Lang.TR)
    ([('y13?', False), ('13?', True)], [('13?', True)])
    """
    mark = "?" if check else ""
    short = ("*" if tile.is_false_joker else str(tile.number)) + mark
    if Lang.of(lang) is Lang.TR:
        return [(short, True)]
    return [(tile.name + mark + (" ind" if indicator else ""), False), (short, True)]


def draw_reads(img, reads: Sequence[TileRead], indicator: Tile | None = None, max_side: int = OVERLAY_SIDE,
               unsure: Sequence[bool] | None = None, *, view: ZoomView | None = None, move: RackMove | None = None,
               lang: Lang = Lang.EN):
    """The photo (RGB) with every read boxed and labelled: a green box for a
    sure read, orange with a '?' for one to check, purple for tiles apart
    from the rack (the indicator's label says so). ``unsure``: beside each
    read, whether the player should still check it (default: each read's
    ``low_confidence``; the app passes what the player has confirmed).

    ``view``: how the photo is shown (default :func:`~okey_vision.report.zoom.whole_view`:
    the whole photo, long side at most ``max_side``; the app's
    :func:`~okey_vision.report.zoom.rack_view` zooms to the tiles). ``move``: the
    advised move drawn on it (:func:`draw_move`). Labels never overlap
    (:func:`~okey_vision.report.zoom.place_labels`: moved, shortened, or only the
    ones to check kept); they are sized for a phone."""
    import cv2
    import numpy as np

    h, w = img.shape[:2]
    checks = [r.low_confidence for r in reads] if unsure is None else list(unsure)
    if len(checks) != len(reads):
        raise ValueError(f"{len(checks)} flags for {len(reads)} reads")
    view = view or whole_view((w, h), len(reads), max_side)
    out = np.full((view.height, view.width, 3), 45, np.uint8)
    for p in view.pieces:
        x1, y1, x2, y2 = p.src
        pw, ph = p.size
        crop = img[y1:y2, x1:x2]
        if (pw, ph) != (x2 - x1, y2 - y1):
            crop = cv2.resize(crop, (max(1, pw), max(1, ph)),
                              interpolation=cv2.INTER_AREA if p.scale < 1 else cv2.INTER_LINEAR)
        px, py = round(p.x), round(p.y)
        ch, cw = min(crop.shape[0], view.height - py), min(crop.shape[1], view.width - px)
        out[py:py + ch, px:px + cw] = crop[:ch, :cw]
    shown = [i for i in range(len(reads)) if view.piece_of(i) is not None]
    quads = {i: view.quad(i, corners(reads[i])) for i in shown}
    zoomed = view.band > 0
    thick = 2 if zoomed else max(2, round(max(out.shape[:2]) / 400))
    for i in shown:
        r, check = reads[i], checks[i]
        color = APART_BOX if r.row == APART else CHECK if check else SURE
        pts = np.round(np.array(quads[i])).astype(np.int32)
        cv2.polylines(out, [pts], True, color, thick + (1 if check else 0), cv2.LINE_AA)
    if move is not None:
        part = {i: (view.pieces.index(view.piece_of(i)), reads[i].row) for i in shown}  # by piece and row
        draw_move(out, quads, move, thick=thick, part=part)
    # sized by the view, not the tile: readable when the photo is shrunk to a phone's width
    scale = 1.0 if zoomed else max(0.8, min(1.5, max(out.shape[:2]) / 900))
    forms = {i: label_forms(reads[i].tile, checks[i], reads[i].row == APART and indicator is not None
                            and reads[i].tile == indicator, lang) for i in shown}
    sizes = {i: [label_size(text, scale) for text, _chip in forms[i]] for i in shown}
    spots = place_labels([_bounds(quads[i]) for i in shown], [sizes[i] for i in shown],
                         (out.shape[1], out.shape[0]), [checks[i] for i in shown])
    for i, spot in zip(shown, spots, strict=True):
        if spot is None:
            continue
        x, y, form = spot
        text, chip = forms[i][form]
        r = reads[i]
        state = APART_BOX if r.row == APART else CHECK if checks[i] else SURE
        _draw_label(out, text, x, y, sizes[i][form], scale, CHIP[r.tile.color] if chip else state,
                    state if chip else None)
    return out[:, :, ::-1]


def label_size(text: str, scale: float) -> tuple[int, int]:
    """A label's size (px) drawn at ``scale``: its text and a margin."""
    import cv2

    (tw, th), base = cv2.getTextSize(text, FONT, scale, 2)
    return tw + 8, th + base + 6


def _bounds(quad) -> tuple[float, float, float, float]:
    xs, ys = [x for x, _ in quad], [y for _, y in quad]
    return min(xs), min(ys), max(xs), max(ys)


def _draw_label(out, text: str, x: int, y: int, size: tuple[int, int], scale: float, fill, edge) -> None:
    """A label: white text on ``fill``, framed in ``edge`` (the box's colour) when it is a chip."""
    import cv2

    w, h = size
    cv2.rectangle(out, (x, y), (x + w - 1, y + h - 1), fill, -1)
    if edge is not None:
        cv2.rectangle(out, (x, y), (x + w - 1, y + h - 1), edge, 2)
    (_tw, th), _base = cv2.getTextSize(text, FONT, scale, 2)
    cv2.putText(out, text, (x + 4, y + 3 + th), FONT, scale, (255, 255, 255), 2, cv2.LINE_AA)


def draw_move(out, quads: Mapping[int, Sequence[tuple[float, float]]], move: RackMove, thick: int = 2,
              part: Mapping[int, object] | None = None) -> None:
    """Draw the advised move on an image (BGR, in place) whose tiles have
    these corners (``quads``: rack place -> corners, image px): each meld
    outlined (piece by piece, ``part``: the piece of each place, on a
    zoomed view; a rack row on a photo or a frame): each run of its tiles
    side by side gets its own outline), the tile to throw ringed in red, in
    gold with a second ring when throwing it is the okey-discard finish."""
    import cv2
    import numpy as np

    part = part or {}
    for meld in move.melds:
        groups: list[list[int]] = []  # side by side in one part (a row, a piece): one outline
        for i in sorted(j for j in meld if j in quads):
            if groups and groups[-1][-1] == i - 1 and part.get(i, 0) == part.get(i - 1, 0):
                groups[-1].append(i)
            else:
                groups.append([i])
        for ids in groups:
            pts = np.array([pt for i in ids for pt in quads[i]], np.float32)
            (cx, cy), (w, h), angle = cv2.minAreaRect(pts)
            side = min(w, h)
            grow = max(4.0, 0.08 * side)
            box = cv2.boxPoints(((cx, cy), (w + 2 * grow, h + 2 * grow), angle))
            cv2.polylines(out, [np.round(box).astype(np.int32)], True, MELD, max(2, thick), cv2.LINE_AA)
    d = move.discard
    if d is not None and d in quads:
        q = np.array(quads[d], np.float32)
        (cx, cy), (w, h), angle = cv2.minAreaRect(q)
        color = GOLD if move.okey_discard else RING
        axes = (round(w * 0.78), round(h * 0.72))
        center = (round(cx), round(cy))
        cv2.ellipse(out, center, axes, angle, 0, 360, (255, 255, 255), 2 * thick + 4, cv2.LINE_AA)
        cv2.ellipse(out, center, axes, angle, 0, 360, color, 2 * thick + 1, cv2.LINE_AA)
        if move.okey_discard:
            outer = (axes[0] + 3 * thick + 3, axes[1] + 3 * thick + 3)
            cv2.ellipse(out, center, outer, angle, 0, 360, color, thick + 1, cv2.LINE_AA)


def read_at(reads: Sequence[TileRead], x: float, y: float) -> int | None:
    """The index of the read a tap at photo pixel (x, y) points at: the box
    holding it (the nearest centre if several), or the nearest box within
    half a tile of it; None when the tap is away from every tile."""
    return box_at([r.box for r in reads], x, y)


__all__ = [
    "OVERLAY_SIDE",
    "corners",
    "draw_move",
    "label_forms",
    "label_size",
    "PhotoReads",
    "decode_photo",
    "draw_reads",
    "indicator_read",
    "overlay_scale",
    "pick_indicator",
    "read_at",
    "read_photo",
    "sharpness",
]
