"""Tile sprites: a set style (body, numeral font, ink shades, dimple symbol,
false-joker design) and the face of one tile drawn at a given pixel size."""

from __future__ import annotations

import functools
import os
from dataclasses import dataclass

import cv2
import numpy as np

from okey_vision.tiles import Tile

Rng = np.random.Generator

#: Numeral fonts (file names in matplotlib's bundled fonts) and their weights.
NUMERAL_FONTS: tuple[tuple[str, float], ...] = (
    ("DejaVuSans-Bold.ttf", 5.0),
    ("DejaVuSans.ttf", 1.0),
    ("DejaVuSerif-Bold.ttf", 1.5),
    ("DejaVuSansMono-Bold.ttf", 1.0),
    ("STIXGeneralBol.ttf", 0.7),
    ("cmss10.ttf", 0.5),
)
#: Small symbols printed in the dimple.
DIMPLE_SYMBOLS: tuple[str, ...] = ("\u2660", "\u2665", "\u2663", "\u2666", "\u25cf",
                                   "\u2605", "\u2600", "")
#: False-joker designs (at least three kinds: star, clover, face, crown/mark).
FJ_DESIGNS: tuple[str, ...] = ("star", "clover", "face", "crown", "flower", "mark")

# BGR ink ranges per colour letter: (one end, other end) of the shade range.
_INK = {
    "r": ((35, 30, 205), (20, 75, 235), (40, 30, 150)),
    "y": ((10, 190, 235), (0, 105, 240), (30, 160, 215)),
    "b": ((215, 160, 40), (105, 40, 15), (170, 90, 20)),
    "k": ((25, 25, 25), (75, 70, 70), (45, 40, 35)),
}
_FJ_INKS = ((40, 130, 30), (25, 25, 25), (40, 30, 190), (150, 70, 20), (20, 110, 220))
#: Real Okey set inks (BGR), anchors along each colour's range: blue from
#: teal/turquoise through royal to navy, yellow from golden to deep orange,
#: reds from crimson to orange-red (docs/rules.md, "Tiles").
OKEY_INKS: dict[str, tuple[tuple[float, float, float], ...]] = {
    "r": ((45, 20, 175), (35, 25, 210), (20, 50, 230), (25, 70, 240)),
    "y": ((20, 185, 235), (10, 150, 240), (5, 115, 240), (10, 95, 225)),
    "b": ((175, 160, 20), (200, 170, 40), (210, 120, 30), (190, 60, 25), (110, 40, 20), (80, 30, 25)),
    "k": ((25, 25, 25), (45, 40, 40), (60, 55, 55)),
}
#: Okey sets: hearts are the most common dimple symbol.
OKEY_SYMBOLS: tuple[str, ...] = ("\u2665", "\u2665", "\u2665", "\u2660", "\u2663", "\u2605", "")


#: Fixed tile sets (``SynthConfig.pinned_set``): every field of a
#: :class:`TileStyle`, so every photo shows the same set. ``navy-orange`` is
#: made unlike the training palettes (``_INK``, ``OKEY_INKS``): a navy blue
#: darker than any trained blue, a red-orange yellow between the trained
#: oranges and reds, a crimson red, a plain (not bold) mono numeral and
#: spades; the calibration benchmark (``benchmarks/calibration.py``) learns it.
PINNED_SETS: dict[str, dict] = {
    "navy-orange": dict(
        aspect=0.7, body=(200, 228, 240), radius=0.1, bevel=0.08, bevel_strength=0.08, thickness=0.25,
        font="DejaVuSansMono.ttf", stroke=1, num_height=0.4, num_y=0.33, num_xscale=1.0, outline=False,
        inks={"r": (50, 30, 170), "y": (20, 85, 225), "b": (62, 24, 14), "k": (32, 32, 32)},
        dimple=True, dimple_r=0.24, dimple_y=0.74, symbol="\u2660", symbol_inked=True,
        fj_design="star", fj_ink=(40, 130, 30), hollow=False),
}


def pinned_style(name: str) -> TileStyle:
    """The fixed tile set ``name`` of :data:`PINNED_SETS` (a ``KeyError`` names the known ones)."""
    if name not in PINNED_SETS:
        raise KeyError(f"no pinned tile set {name!r}; known: {sorted(PINNED_SETS)}")
    return TileStyle(**PINNED_SETS[name])


def font_path(name: str) -> str:
    """Absolute path of a font bundled with matplotlib."""
    import matplotlib

    return os.path.join(matplotlib.get_data_path(), "fonts", "ttf", name)


@functools.lru_cache(maxsize=512)
def glyph(font: str, text: str, stroke: int = 0) -> np.ndarray:
    """Tight anti-aliased mask (float32 0..1) of ``text`` at a 128 px font size."""
    from PIL import Image, ImageDraw, ImageFont

    f = ImageFont.truetype(font_path(font), 128)
    box = f.getbbox(text, stroke_width=stroke)
    w, h = max(1, box[2] - box[0] + 4), max(1, box[3] - box[1] + 4)
    im = Image.new("L", (int(w), int(h)), 0)
    ImageDraw.Draw(im).text((2 - box[0], 2 - box[1]), text, font=f, fill=255,
                            stroke_width=stroke, stroke_fill=255)
    m = np.asarray(im, np.float32) / 255.0
    ys, xs = np.nonzero(m > 0.02)
    if len(ys) == 0:
        return np.zeros((2, 2), np.float32)
    return np.ascontiguousarray(m[ys.min():ys.max() + 1, xs.min():xs.max() + 1])


def _fit(mask: np.ndarray, w: float, h: float) -> np.ndarray:
    """Resize a mask to (w, h) px, rounded, with area interpolation."""
    wi, hi = max(1, round(float(w))), max(1, round(float(h)))
    interp = cv2.INTER_AREA if wi < mask.shape[1] else cv2.INTER_LINEAR
    return cv2.resize(mask, (wi, hi), interpolation=interp)


def _paste(img: np.ndarray, mask: np.ndarray, cx: float, cy: float,
           color: np.ndarray) -> None:
    """Blend ``color`` into ``img`` through ``mask`` centred at (cx, cy), in place."""
    mh, mw = mask.shape
    x0, y0 = round(float(cx - mw / 2)), round(float(cy - mh / 2))
    H, W = img.shape[:2]
    xa, ya, xb, yb = max(0, x0), max(0, y0), min(W, x0 + mw), min(H, y0 + mh)
    if xa >= xb or ya >= yb:
        return
    m = mask[ya - y0:yb - y0, xa - x0:xb - x0, None]
    roi = img[ya:yb, xa:xb]
    roi += (color - roi) * m


def rounded_sdf(h: int, w: int, radius: float) -> np.ndarray:
    """Signed distance (px, negative inside) to a w x h rounded rectangle."""
    ys = np.abs(np.arange(h, dtype=np.float32) + 0.5 - h / 2)[:, None]
    xs = np.abs(np.arange(w, dtype=np.float32) + 0.5 - w / 2)[None, :]
    r = min(radius, w / 2, h / 2)
    qx = xs - (w / 2 - r)
    qy = ys - (h / 2 - r)
    outside = np.sqrt(np.maximum(qx, 0) ** 2 + np.maximum(qy, 0) ** 2)
    inside = np.minimum(np.maximum(qx, qy), 0)
    return outside + inside - r


@dataclass(frozen=True)
class TileStyle:
    """The look of one physical tile set (everything that varies between sets)."""

    aspect: float               # width / height of the face
    body: tuple[float, float, float]   # BGR body colour
    radius: float               # corner radius / width
    bevel: float                # bevel width / width
    bevel_strength: float
    thickness: float            # physical thickness / height
    font: str
    stroke: int                 # extra weight (PIL stroke at 128 px)
    num_height: float           # numeral height / tile height
    num_y: float                # numeral centre y / tile height
    num_xscale: float           # condense (<1) or widen (>1)
    outline: bool
    inks: dict                  # colour letter -> BGR
    dimple: bool
    dimple_r: float             # dimple radius / width
    dimple_y: float             # dimple centre y / height
    symbol: str
    symbol_inked: bool
    fj_design: str
    fj_ink: tuple[float, float, float]
    hollow: bool = False        # numerals printed as an outline only (some Okey sets)


def _bgr(values) -> tuple[float, float, float]:
    """Three colour channels as plain floats."""
    b, g, r = (float(v) for v in values)
    return b, g, r


def _okey_ink(rng: Rng, color: str) -> tuple[float, float, float]:
    """A point on the real Okey ink range of one colour (between two neighbouring anchors)."""
    anchors = np.array(OKEY_INKS[color], float)
    k = int(rng.integers(len(anchors) - 1)) if len(anchors) > 1 else 0
    t = rng.random()
    ink = anchors[k] * (1 - t) + anchors[min(k + 1, len(anchors) - 1)] * t
    return _bgr(np.clip(ink + rng.uniform(-8, 8, 3), 0, 255))


def sample_okey_style(rng: Rng) -> TileStyle:
    """A random *Okey* set style: real palettes, hearts, hollow numerals, bold sans."""
    from dataclasses import replace

    base = sample_style(rng)
    inks = {c: _okey_ink(rng, c) for c in ("r", "y", "b", "k")}
    symbol = OKEY_SYMBOLS[rng.integers(len(OKEY_SYMBOLS))]
    hollow = bool(rng.random() < 0.25)
    return replace(base, inks=inks, symbol=symbol, symbol_inked=bool(rng.random() < 0.9),
                   hollow=hollow, outline=False if hollow else base.outline,
                   stroke=max(base.stroke, 2) if hollow else base.stroke)


def sample_style(rng: Rng) -> TileStyle:
    """Draw a random tile-set style."""
    names = [n for n, _ in NUMERAL_FONTS]
    p = np.array([w for _, w in NUMERAL_FONTS])
    font = names[rng.choice(len(names), p=p / p.sum())]
    tone = rng.random()
    body = np.array([238, 246, 250]) * (1 - tone) + np.array([170, 218, 238]) * tone
    body = body + rng.uniform(-6, 6) + rng.uniform(-2, 2, 3)
    inks = {}
    for c, (a, b, mid) in _INK.items():
        t = rng.beta(1.2, 1.2)
        ink = np.array(a) * (1 - t) + np.array(b) * t
        if rng.random() < 0.2:
            ink = np.array(mid, float)
        inks[c] = _bgr(np.clip(ink + rng.uniform(-10, 10, 3), 0, 255))
    symbol = DIMPLE_SYMBOLS[rng.integers(len(DIMPLE_SYMBOLS))]
    return TileStyle(
        aspect=float(rng.uniform(0.6, 0.76)),
        body=_bgr(body),
        radius=float(rng.uniform(0.05, 0.18)),
        bevel=float(rng.uniform(0.04, 0.12)),
        bevel_strength=float(rng.uniform(0.04, 0.14)),
        thickness=float(rng.uniform(0.18, 0.32)),
        font=font,
        stroke=int(rng.integers(0, 5)) if font != "DejaVuSans-Bold.ttf" else int(rng.integers(0, 3)),
        num_height=float(rng.uniform(0.3, 0.44)),
        num_y=float(rng.uniform(0.28, 0.38)),
        num_xscale=float(rng.uniform(0.8, 1.15)),
        outline=bool(rng.random() < 0.2),
        inks=inks,
        dimple=bool(rng.random() < 0.85),
        dimple_r=float(rng.uniform(0.18, 0.3)),
        dimple_y=float(rng.uniform(0.7, 0.78)),
        symbol=symbol,
        symbol_inked=bool(rng.random() < 0.75),
        fj_design=FJ_DESIGNS[rng.integers(len(FJ_DESIGNS))],
        fj_ink=_bgr(_FJ_INKS[rng.integers(len(_FJ_INKS))]),
    )


class SpriteMaker:
    """Draws faces of one style at one pixel size, caching per face."""

    def __init__(self, style: TileStyle, h: float, rng: Rng) -> None:
        """Prepare the body for tiles ``h`` px tall in ``style``."""
        self.style = style
        # float(): h may be a numpy float, whose round() is a float before numpy 2
        self.h = max(6, round(float(h)))
        self.w = max(4, round(float(h * style.aspect)))
        self._cache: dict[str, tuple[np.ndarray, np.ndarray]] = {}
        self._rng = rng
        self.body, self.alpha = self._body()

    def _body(self) -> tuple[np.ndarray, np.ndarray]:
        s, h, w = self.style, self.h, self.w
        d = rounded_sdf(h, w, s.radius * w)
        alpha = np.clip(0.5 - d, 0, 1)
        band = max(1.0, s.bevel * w)
        inner = np.clip(-d / band, 0, 1)
        gy, gx = np.gradient(-d)
        # light from the upper left: edges facing it are lighter
        light = (gx * 0.5 + gy * 0.85)
        shade = 1.0 + s.bevel_strength * (1 - inner) * np.clip(light, -1.5, 1.5)
        shade -= 0.10 * np.clip(1 - (-d) / 1.2, 0, 1)  # thin dark rim at the very edge
        yy = np.linspace(-0.5, 0.5, h, dtype=np.float32)[:, None]
        shade = shade * (1.0 + 0.04 * yy * np.sign(s.bevel_strength - 0.09) + 0 * yy)
        body = np.asarray(s.body, np.float32)[None, None, :] * shade[..., None]
        # faint plastic speckle
        body += self._rng.normal(0, 1.2, (h, w, 1)).astype(np.float32)
        if s.dimple:
            self._dimple(body)
        return body, alpha.astype(np.float32)

    def _dimple(self, body: np.ndarray) -> None:
        s, h, w = self.style, self.h, self.w
        r = s.dimple_r * w
        cx, cy = w / 2, s.dimple_y * h
        ys = np.arange(h, dtype=np.float32)[:, None] + 0.5 - cy
        xs = np.arange(w, dtype=np.float32)[None, :] + 0.5 - cx
        dist = np.sqrt(xs ** 2 + ys ** 2)
        disk = np.clip(r - dist + 0.5, 0, 1)
        # concave: darker at the top inside, lighter at the bottom
        t = np.clip(ys / max(r, 1), -1, 1)
        shade = 1 - disk * (0.05 - 0.07 * t) * (dist / max(r, 1))
        body *= shade[..., None]

    def face(self, tile: Tile | None) -> tuple[np.ndarray, np.ndarray]:
        """(BGR float32 image, alpha) of a tile face; ``None`` draws a tile back."""
        key = "back" if tile is None else tile.name
        hit = self._cache.get(key)
        if hit is not None:
            return hit
        img = self.body.copy()
        if tile is not None:
            if tile.is_false_joker:
                self._false_joker(img)
            else:
                self._numeral(img, tile)
        out = (img, self.alpha)
        self._cache[key] = out
        return out

    def _numeral(self, img: np.ndarray, tile: Tile) -> None:
        s, h, w = self.style, self.h, self.w
        ink = np.asarray(s.inks[tile.color], np.float32)
        m = glyph(s.font, str(tile.number), s.stroke)
        gh = s.num_height * h
        gw = m.shape[1] / m.shape[0] * gh * s.num_xscale
        gw = min(gw, 0.86 * w)
        mask = _fit(m, gw, gh)
        cx, cy = w / 2, s.num_y * h
        if s.hollow:  # an outlined numeral: ink ring, tile body inside
            k = max(1, round(h / 45))
            pad = np.pad(mask, k + 1)
            ring = np.clip(cv2.dilate(pad, np.ones((2 * k + 1, 2 * k + 1), np.uint8))
                           - cv2.erode(pad, np.ones((2 * k + 1, 2 * k + 1), np.uint8)), 0, 1)
            _paste(img, ring, cx, cy, ink)
        elif s.outline:
            k = max(1, round(h / 60))
            pad = np.pad(mask, k + 1)
            dil = cv2.dilate(pad, np.ones((2 * k + 1, 2 * k + 1), np.uint8))
            _paste(img, dil, cx, cy, ink * 0.45)
            _paste(img, pad, cx, cy, np.minimum(ink * 1.15 + 20, 255))
        else:
            _paste(img, mask, cx, cy, ink)
        if s.dimple and s.symbol:
            sm = glyph("DejaVuSans.ttf", s.symbol)
            sh = s.dimple_r * w * 0.9
            smask = _fit(sm, sm.shape[1] / sm.shape[0] * sh, sh)
            col = ink if s.symbol_inked else np.asarray(s.body, np.float32) * 0.8
            _paste(img, smask * (0.9 if s.symbol_inked else 0.6), cx, s.dimple_y * h, col)

    def _false_joker(self, img: np.ndarray) -> None:
        s, h, w = self.style, self.h, self.w
        ink = np.asarray(s.fj_ink, np.float32)
        size = 0.62 * w
        cx, cy = w / 2, 0.42 * h
        design = s.fj_design
        if design in ("star", "crown", "flower", "mark"):
            ch = {"star": "\u2605", "crown": "\u265b", "flower": "\u273f", "mark": "\u2726"}[design]
            m = glyph("DejaVuSans.ttf", ch)
            mask = _fit(m, m.shape[1] / m.shape[0] * size, size)
        else:
            n = max(8, round(size))
            canvas = np.zeros((n * 4, n * 4), np.uint8)
            c, R = 2 * n, int(1.6 * n)
            if design == "clover":
                for dx, dy in ((0, -1), (1, 0), (0, 1), (-1, 0)):
                    cv2.circle(canvas, (c + dx * R // 2, c + dy * R // 2), int(R * 0.5), 255, -1,
                               cv2.LINE_AA)
                cv2.line(canvas, (c, c), (c + R, c + int(R * 1.1)), 255, max(2, n // 5), cv2.LINE_AA)
            else:  # face
                th = max(2, n // 6)
                cv2.circle(canvas, (c, c), R, 255, th, cv2.LINE_AA)
                cv2.circle(canvas, (c - R // 3, c - R // 4), max(2, R // 7), 255, -1, cv2.LINE_AA)
                cv2.circle(canvas, (c + R // 3, c - R // 4), max(2, R // 7), 255, -1, cv2.LINE_AA)
                cv2.ellipse(canvas, (c, c + R // 8), (R // 2, R // 3), 0, 20, 160, 255, th,
                            cv2.LINE_AA)
            mask = _fit(canvas.astype(np.float32) / 255.0, size * 1.25, size * 1.25)
        _paste(img, mask, cx, cy, ink)
        if s.dimple and s.symbol:
            sm = glyph("DejaVuSans.ttf", s.symbol)
            sh = s.dimple_r * w * 0.9
            smask = _fit(sm, sm.shape[1] / sm.shape[0] * sh, sh)
            _paste(img, smask * 0.8, cx, s.dimple_y * h, ink)
