"""Photo bytes in, tile reads out, boxes drawn on the photo.

Every failure is an :class:`~okey_vision.errors.ImageError` (or another
:class:`~okey_vision.errors.OkeyError`) with a plain message, so the app can
show it instead of a traceback. numpy and OpenCV load lazily.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from okey_vision.errors import ImageError
from okey_vision.tiles import MAX_HAND, Tile
from okey_vision.ui.text import Lang, t
from okey_vision.vision.reads import APART, TileRead, pick_indicator, rack_order  # pick_indicator: re-exported

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


def read_photo(img, reader: Reader, lang: Lang = Lang.EN) -> PhotoReads:
    """Read a decoded photo with ``reader(image) -> list[TileRead]`` and
    split the reads into rack tiles and tiles apart; warns about blur."""
    t0 = time.perf_counter()
    reads = rack_order(list(reader(img)))
    seconds = time.perf_counter() - t0
    rack = [r for r in reads if r.row != APART]
    apart = [r for r in reads if r.row == APART]
    warnings = []
    blur = sharpness(img)
    if not reads:
        msg = t("no_tiles", lang) + (t("blurry_hint", lang) if blur < BLUR_THRESHOLD else "") + t("try_again", lang)
        raise ImageError(msg)
    if blur < BLUR_THRESHOLD:
        warnings.append(t("blurry", lang))
    if len(rack) > MAX_HAND:
        # keep the surest 15 (in rack order); name the others so the player can add them back
        keep = {id(r) for r in sorted(rack, key=lambda r: -r.confidence)[:MAX_HAND]}
        aside = [r for r in rack if id(r) not in keep]
        rack = [r for r in rack if id(r) in keep]
        warnings.append(t("set_aside", lang, n=len(rack) + len(aside), most=MAX_HAND,
                          tiles=", ".join(r.tile.name for r in aside)))
    h, w = img.shape[:2]
    return PhotoReads(reads, rack, apart, warnings, seconds, (w, h))


#: Overlay size: the photo drawn for the page (long side), with labels sized for a phone.
OVERLAY_SIDE = 1024


def overlay_scale(img, max_side: int = OVERLAY_SIDE) -> float:
    """Overlay pixels per photo pixel (at most 1)."""
    h, w = img.shape[:2]
    return min(1.0, max_side / max(h, w))


def draw_reads(img, reads: Sequence[TileRead], indicator: Tile | None = None, max_side: int = OVERLAY_SIDE,
               unsure: Sequence[bool] | None = None):
    """A copy of the photo (RGB, long side at most ``max_side``) with every
    read boxed and labelled on its tile: green box for a sure read, orange
    with a '?' for one to check, purple for tiles apart from the rack.
    ``unsure``: beside each read, whether the player should still check it
    (default: each read's ``low_confidence``; the app passes what the player
    has confirmed). Labels are large enough to read on a phone (the overlay
    is shown about 400 px wide there)."""
    import cv2

    h, w = img.shape[:2]
    s = overlay_scale(img, max_side)
    out = cv2.resize(img, (round(w * s), round(h * s)), interpolation=cv2.INTER_AREA) if s < 1 else img.copy()
    thick = max(2, round(max(out.shape[:2]) / 400))
    checks = [r.low_confidence for r in reads] if unsure is None else list(unsure)
    for r, check in zip(reads, checks, strict=True):
        # int(): before numpy 2, round() of a numpy float (a box may hold them) is a float
        x1, y1, x2, y2 = (int(round(v * s)) for v in r.box)  # noqa: RUF046
        if r.row == APART:
            color = (200, 60, 160)
        elif check:
            color = (0, 140, 255)
        else:
            color = (60, 190, 60)
        cv2.rectangle(out, (x1, y1), (x2, y2), color, thick + (1 if check else 0))
        label = f"{r.tile.name}" + ("?" if check else "")
        if r.row == APART and indicator is not None and r.tile == indicator:
            label += " ind"
        # sized by the overlay, not the tile: readable when the photo is shrunk to a phone's width
        scale = max(0.8, min(1.5, max(out.shape[:2]) / 900))
        weight = 2
        (tw, th), base = cv2.getTextSize(label, cv2.FONT_HERSHEY_SIMPLEX, scale, weight)
        cx = (x1 + x2) // 2
        lx = int(min(max(0, cx - tw // 2 - 3), out.shape[1] - tw - 6))
        ty = y1 - 4 if y1 - th - 8 > 0 else y2 + th + 6
        cv2.rectangle(out, (lx, ty - th - 4), (lx + tw + 6, ty + base), color, -1)
        cv2.putText(out, label, (lx + 3, ty - 1), cv2.FONT_HERSHEY_SIMPLEX, scale, (255, 255, 255), weight,
                    cv2.LINE_AA)
    return out[:, :, ::-1]


def read_at(reads: Sequence[TileRead], x: float, y: float) -> int | None:
    """The index of the read a tap at photo pixel (x, y) points at: the box
    holding it (the nearest centre if several), or the nearest box within
    half a tile of it; None when the tap is away from every tile."""
    best, best_d = None, None
    for i, r in enumerate(reads):
        x1, y1, x2, y2 = r.box
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


__all__ = [
    "OVERLAY_SIDE",
    "PhotoReads",
    "decode_photo",
    "draw_reads",
    "overlay_scale",
    "pick_indicator",
    "read_at",
    "read_photo",
    "sharpness",
]
