"""Pictures with no rack in them, drawn in code: what a camera shows before a
rack is in view. A reader must say "no rack" and read no tile on each.

Kinds: a blank frame, test patterns (colour bars, a checkerboard, a
browser's fake camera: a grey frame with a turning wedge and a frame
counter's digits), a face-like blob, and a table with no rack (felt or
wood, with a cup, coins, cards and a phone). Apart from those, two tables
with a single tile lying on them: a lone tile is the indicator only beside
a rack.

>>> pics = no_rack_pictures()
>>> len(pics), sorted({p.kind for p in pics}), len(lone_tile_pictures())
(20, ['blank', 'face', 'table', 'test-pattern'], 2)
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np


@dataclass(frozen=True)
class NoRackPicture:
    """One picture without a rack: its kind, a name, and its BGR pixels."""

    kind: str
    name: str
    image: np.ndarray = field(compare=False, repr=False)


def _noise(rng: np.random.Generator, img: np.ndarray, sigma: float) -> np.ndarray:
    """Camera noise of ``sigma`` grey levels added."""
    out = img.astype(np.float32) + rng.normal(0.0, sigma, img.shape).astype(np.float32)
    return np.clip(out, 0, 255).astype(np.uint8)


def blank(colour: tuple[int, int, int], size: tuple[int, int] = (960, 720)) -> np.ndarray:
    """A plain frame of one colour (a covered lens, a wall)."""
    w, h = size
    return np.full((h, w, 3), colour, np.uint8)


def colour_bars(size: tuple[int, int] = (960, 720)) -> np.ndarray:
    """The broadcast colour bars: seven upright bars of equal width and a darker strip below."""
    w, h = size
    img = np.zeros((h, w, 3), np.uint8)
    bars = [(192, 192, 192), (0, 192, 192), (192, 192, 0), (0, 192, 0), (192, 0, 192), (0, 0, 192), (192, 0, 0)]
    bw = w / len(bars)
    for k, c in enumerate(bars):
        img[: int(0.7 * h), int(k * bw):int((k + 1) * bw)] = c
        img[int(0.7 * h):, int(k * bw):int((k + 1) * bw)] = bars[-1 - k] if k % 2 else (20, 20, 20)
    return img


def checkerboard(cell: int, size: tuple[int, int] = (960, 720)) -> np.ndarray:
    """A black and white checkerboard of ``cell`` px squares."""
    w, h = size
    y, x = np.mgrid[0:h, 0:w]
    on = ((x // cell + y // cell) % 2).astype(bool)
    img = np.full((h, w, 3), 20, np.uint8)
    img[on] = 235
    return img


def fake_camera(frame: int, size: tuple[int, int] = (960, 720)) -> np.ndarray:
    """A browser's fake camera: a grey frame, a light disc with a dark wedge
    turning frame by frame, and the frame counter and time written in big digits."""
    import cv2

    w, h = size
    img = np.full((h, w, 3), (128, 128, 128), np.uint8)
    centre, r = (w // 2, h // 2), h // 3
    cv2.circle(img, centre, r, (230, 230, 230), -1, cv2.LINE_AA)
    start = (frame * 17) % 360
    cv2.ellipse(img, centre, (r, r), 0, start, start + 60, (40, 40, 40), -1, cv2.LINE_AA)
    text = f"0:00:{frame // 30:02d}.{(frame % 30) * 33:03d} {frame}"
    cv2.putText(img, text, (w // 16, h // 8), cv2.FONT_HERSHEY_SIMPLEX, 1.6, (250, 250, 250), 4, cv2.LINE_AA)
    cv2.putText(img, str(frame % 100), (w // 2 - 60, h - h // 10), cv2.FONT_HERSHEY_DUPLEX, 3.0,
                (20, 20, 20), 6, cv2.LINE_AA)
    return img


def face(rng: np.random.Generator, size: tuple[int, int] = (960, 720)) -> np.ndarray:
    """A face-like blob: a skin-coloured oval with eyes, brows and a mouth on a plain wall."""
    import cv2

    w, h = size
    img = blank(tuple(int(v) for v in rng.integers(150, 230, 3)), size)  # type: ignore[arg-type]
    cx, cy = w // 2 + int(rng.integers(-80, 80)), h // 2 + int(rng.integers(-40, 40))
    ax, ay = int(h * 0.28), int(h * 0.38)
    skin = (int(rng.integers(120, 170)), int(rng.integers(150, 190)), int(rng.integers(200, 240)))
    cv2.ellipse(img, (cx, cy), (ax, ay), 0, 0, 360, skin, -1, cv2.LINE_AA)
    cv2.ellipse(img, (cx, cy - ay // 2), (int(ax * 1.05), ay // 2), 0, 180, 360, (30, 40, 60), -1, cv2.LINE_AA)
    for side in (-1, 1):
        ex = cx + side * ax // 2
        cv2.ellipse(img, (ex, cy - ay // 8), (ax // 6, ax // 10), 0, 0, 360, (250, 250, 250), -1, cv2.LINE_AA)
        cv2.circle(img, (ex, cy - ay // 8), ax // 14, (40, 30, 20), -1, cv2.LINE_AA)
        cv2.line(img, (ex - ax // 5, cy - ay // 4), (ex + ax // 5, cy - ay // 4 - 6), (30, 40, 60), 8)
    cv2.ellipse(img, (cx, cy + ay // 2), (ax // 3, ay // 10), 0, 0, 180, (60, 60, 160), 10, cv2.LINE_AA)
    return img


def _surface(rng: np.random.Generator, wood: bool, size: tuple[int, int]) -> np.ndarray:
    """A table top: green felt, or wood with its grain."""
    import cv2

    w, h = size
    if wood:
        y = np.arange(h, dtype=np.float32)[:, None]
        x = np.arange(w, dtype=np.float32)[None, :]
        grain = np.sin(y / 7.0 + 3 * np.sin(x / 90.0)) * 0.5 + 0.5
        base = np.array([40, 80, 130], np.float32)
        img = base * (0.75 + 0.35 * grain[..., None])
    else:
        img = np.zeros((h, w, 3), np.float32) + np.array([50, 110, 40], np.float32)
    img = cv2.GaussianBlur(img, (0, 0), 1.0)
    return _noise(rng, img.astype(np.uint8), 6.0)


def table(rng: np.random.Generator, wood: bool, lone_tile: bool = False,
          size: tuple[int, int] = (960, 720)) -> np.ndarray:
    """A table with no rack: a cup, coins, a few playing cards and a phone
    (and, with ``lone_tile``, one Okey-like tile face up: cream, a red 7)."""
    import cv2

    w, h = size
    img = _surface(rng, wood, size)
    cx, cy = int(rng.integers(w // 5, w // 3)), int(rng.integers(h // 4, h // 2))
    cv2.circle(img, (cx, cy), 90, (235, 235, 240), -1, cv2.LINE_AA)
    cv2.circle(img, (cx, cy), 70, (30, 50, 80), -1, cv2.LINE_AA)
    for _ in range(4):
        p = (int(rng.integers(w // 2, w - 60)), int(rng.integers(h // 2, h - 60)))
        cv2.circle(img, p, 22, (90, 170, 200), -1, cv2.LINE_AA)
        cv2.circle(img, p, 22, (50, 110, 140), 2, cv2.LINE_AA)
    for k in range(3):  # cards fanned out: white, a red corner pip
        ang = float(rng.uniform(-40, 40))
        centre = (float(w * 0.6 + 50 * k), float(h * 0.3 + 10 * k))
        box = cv2.boxPoints((centre, (110.0, 160.0), ang)).astype(np.int32)
        cv2.fillConvexPoly(img, box, (245, 245, 245), cv2.LINE_AA)
        cv2.polylines(img, [box], True, (120, 120, 120), 2, cv2.LINE_AA)
        cv2.putText(img, "A", (int(centre[0] - 40), int(centre[1] - 40)), cv2.FONT_HERSHEY_SIMPLEX, 1.0,
                    (30, 30, 200), 2, cv2.LINE_AA)
    phone = cv2.boxPoints(((w * 0.2, h * 0.78), (260.0, 130.0), float(rng.uniform(-20, 20)))).astype(np.int32)
    cv2.fillConvexPoly(img, phone, (25, 25, 25), cv2.LINE_AA)
    if lone_tile:
        tw, th = 60, 86
        x0, y0 = int(w * 0.45), int(h * 0.55)
        cv2.rectangle(img, (x0 + 4, y0 + 6), (x0 + tw + 4, y0 + th + 6), (40, 60, 90), -1)  # its side
        cv2.rectangle(img, (x0, y0), (x0 + tw, y0 + th), (205, 230, 240), -1)
        cv2.putText(img, "7", (x0 + 12, y0 + 60), cv2.FONT_HERSHEY_DUPLEX, 1.7, (30, 30, 200), 4, cv2.LINE_AA)
        cv2.circle(img, (x0 + tw // 2, y0 + 74), 5, (30, 30, 200), -1, cv2.LINE_AA)
    return img


def no_rack_pictures(seed: int = 36) -> list[NoRackPicture]:
    """Twenty pictures with no rack and no tile: 3 blank, 6 test patterns, 4 faces, 7 tables."""
    rng = np.random.default_rng(seed)
    out = [NoRackPicture("blank", f"blank {c}", blank(c)) for c in ((0, 0, 0), (128, 128, 128), (250, 250, 250))]
    out += [NoRackPicture("test-pattern", "colour bars", colour_bars()),
            NoRackPicture("test-pattern", "checkerboard 40", checkerboard(40)),
            NoRackPicture("test-pattern", "checkerboard 90", checkerboard(90))]
    out += [NoRackPicture("test-pattern", f"fake camera {f}", fake_camera(f)) for f in (7, 268, 1234)]
    out += [NoRackPicture("face", f"face {k}", _noise(rng, face(rng), 4.0)) for k in range(4)]
    out += [NoRackPicture("table", f"table {'wood' if k % 2 else 'felt'} {k}", table(rng, bool(k % 2)))
            for k in range(7)]
    return out


def lone_tile_pictures(seed: int = 37) -> list[NoRackPicture]:
    """Two tables with one tile lying face up and no rack: the tile may be
    read, but never as an indicator lying apart (there is no rack to lie beside)."""
    rng = np.random.default_rng(seed)
    return [NoRackPicture("lone-tile", f"lone tile on {'wood' if k else 'felt'}", table(rng, bool(k), True))
            for k in range(2)]


__all__ = ["NoRackPicture", "blank", "checkerboard", "colour_bars", "face", "fake_camera", "lone_tile_pictures",
           "no_rack_pictures", "table"]
