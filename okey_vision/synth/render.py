"""Scenes: a two-tier rack of standing tiles (or tiles flat on a table) with
clutter, seen by a phone or webcam, with exact labels (:func:`render_scene`).

Drawing happens on a flat "canvas" (the rack's front, or the table seen from
above) that one homography then maps into the photo, over a table texture
warped the same way. Every drawn face tile gets an id in a mask canvas warped
with the image, so each label knows how much of its tile is visible.

Labelling rule: a face-up tile (player's rack, indicator, discards, tiles on
the table) is labelled when at least ``min_visible`` (60 %) of its drawn
silhouette is inside the image and not covered, and its box is at least
``min_label_px`` tall; otherwise it is left unlabelled and marked 255 in
``Scene.mask``. Tile backs (other players' racks) are never labelled.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import cast

import cv2
import numpy as np

from okey_vision.synth import effects, textures
from okey_vision.synth.config import SynthConfig
from okey_vision.synth.sprites import (
    SpriteMaker,
    TileStyle,
    pinned_style,
    sample_okey_style,
    sample_style,
)
from okey_vision.tiles import COLORS, FULL_SET, Tile

Rng = np.random.Generator
Box = tuple[float, float, float, float]


@dataclass(frozen=True, eq=False)
class SceneTile:
    """One labelled tile in a rendered image."""

    tile: Tile
    box: Box                                   # x1, y1, x2, y2 (px, clipped to the image)
    quad: tuple[tuple[float, float], ...]      # face corners TL, TR, BR, BL (px, unclipped)
    row: int                                   # 0 top tier, 1 bottom tier, -1 on the table
    on_rack: bool
    is_indicator: bool
    visible: float = 1.0                       # visible fraction of the tile


@dataclass(frozen=True, eq=False)
class Scene:
    """A rendered photo with its labels and the true hand."""

    image: np.ndarray                          # BGR uint8
    tiles: list[SceneTile]
    hand: list[Tile]                           # rack tiles, top row L->R then bottom row
    indicator: Tile | None
    mask: np.ndarray = field(repr=False)       # uint8: k -> tiles[k-1], 255 unlabelled tile
    kind: str = "rack"                         # "rack" or "flat"
    seed: int = 0


@dataclass(frozen=True)
class Deal:
    """A chosen hand for a rack scene (tests and benchmarks render known
    hands): the groups of each rack row, left to right, and the indicator.
    Without one (the default) the renderer deals at random, as it always has.

    >>> from okey_vision.tiles import parse_hand, parse_tile
    >>> d = Deal.of([parse_hand("r1 r2 r3"), parse_hand("k5 k6 k7 k8"), parse_hand("y9 b9 k9")], parse_tile("b4"))
    >>> [len(g) for g in d.top], [len(g) for g in d.bottom], len(d.hand)
    ([3, 4], [3], 10)
    """

    top: tuple[tuple[Tile, ...], ...]
    bottom: tuple[tuple[Tile, ...], ...]
    indicator: Tile

    @classmethod
    def of(cls, groups: Sequence[Sequence[Tile]], indicator: Tile) -> Deal:
        """The groups laid out in order, the top row filled to about half the tiles."""
        half = sum(len(g) for g in groups) / 2
        top: list[tuple[Tile, ...]] = []
        for g in groups:
            if sum(len(t) for t in top) >= half:
                break
            top.append(tuple(g))
        return cls(tuple(top), tuple(tuple(g) for g in groups[len(top):]), indicator)

    @property
    def hand(self) -> list[Tile]:
        """The rack's tiles, top row left to right, then the bottom row."""
        return [t for g in self.top + self.bottom for t in g]


@dataclass
class _Drawn:
    tile: Tile
    quad: np.ndarray        # 4 x 2 canvas coords
    outline: np.ndarray     # N x 2 silhouette (convex)
    row: int
    on_rack: bool
    is_indicator: bool


# ----------------------------------------------------------------------------- canvas


class _Canvas:
    """Premultiplied BGRA float canvas plus a tile-id layer."""

    def __init__(self, h: int, w: int) -> None:
        self.h, self.w = h, w
        self.rgba = np.zeros((h, w, 4), np.float32)
        self.ids = np.zeros((h, w), np.uint8)

    def _roi(self, pts: np.ndarray, pad: int = 2) -> tuple[int, int, int, int] | None:
        x0 = max(0, math.floor(pts[:, 0].min()) - pad)
        y0 = max(0, math.floor(pts[:, 1].min()) - pad)
        x1 = min(self.w, math.ceil(pts[:, 0].max()) + pad)
        y1 = min(self.h, math.ceil(pts[:, 1].max()) + pad)
        if x1 <= x0 or y1 <= y0:
            return None
        return x0, y0, x1, y1

    def over(self, x0: int, y0: int, src: np.ndarray, tid: int | None = None) -> None:
        """Composite a premultiplied BGRA patch at (x0, y0)."""
        dst = self.rgba[y0:y0 + src.shape[0], x0:x0 + src.shape[1]]
        np.multiply(dst, 1.0 - src[..., 3:4], out=dst)
        np.add(dst, src, out=dst)
        if tid is not None:
            ids = self.ids[y0:y0 + src.shape[0], x0:x0 + src.shape[1]]
            ids[src[..., 3] > 0.5] = tid

    def poly(self, pts: np.ndarray, color, opacity: float = 1.0, tid: int | None = None,
             blur: float = 0.0, inner: np.ndarray | None = None, inner_color=None) -> None:
        """Fill a convex polygon (canvas coords) with a colour (black = shadow); an
        optional convex ``inner`` polygon inside it gets ``inner_color``."""
        pad = int(3 * blur) + 2
        roi = self._roi(pts, pad)
        if roi is None:
            return
        x0, y0, x1, y1 = roi
        rw, rh = x1 - x0, y1 - y0
        f = max(1.0, blur / 1.5)  # big soft shadows: draw small, blur, scale up
        sw, sh = max(1, math.ceil(rw / f)), max(1, math.ceil(rh / f))
        m = np.zeros((sh, sw), np.uint8)
        p = np.round(((pts - [x0, y0]) / f - 0.5) * 16).astype(np.int32)
        cv2.fillConvexPoly(m, p, 255, cv2.LINE_8, 4)  # exact pixel-centre rule
        a: np.ndarray = m.astype(np.float32) * (opacity / 255.0)
        a = cv2.GaussianBlur(a, (0, 0), max(blur / f, 0.55))  # soft (anti-aliased) edge
        if f > 1:
            a = cv2.resize(a, (sw * math.ceil(f), sh * math.ceil(f)),
                           interpolation=cv2.INTER_LINEAR)
            a = cv2.resize(a, (rw, rh), interpolation=cv2.INTER_LINEAR) if a.shape != (rh, rw) else a
            a = a[:rh, :rw]
        src = np.empty((rh, rw, 4), np.float32)
        col = np.asarray(color, np.float32)
        if inner is not None:
            mi = np.zeros((rh, rw), np.uint8)
            pi = np.round((inner - [x0 + 0.5, y0 + 0.5]) * 16).astype(np.int32)
            cv2.fillConvexPoly(mi, pi, 255, cv2.LINE_8, 4)
            t = cv2.GaussianBlur(mi.astype(np.float32) / 255.0, (0, 0), 0.55)[..., None]
            col = col + (np.asarray(inner_color, np.float32) - col) * t
        src[..., :3] = a[..., None] * col
        src[..., 3] = a
        self.over(x0, y0, src, tid)

    def sprite(self, patch: np.ndarray, tl: np.ndarray, tr: np.ndarray, bl: np.ndarray,
               tid: int | None = None) -> None:
        """Warp a premultiplied BGRA sprite onto the parallelogram tl, tr, bl."""
        br = tr + bl - tl
        roi = self._roi(np.array([tl, tr, bl, br]))
        if roi is None:
            return
        x0, y0, x1, y1 = roi
        h, w = patch.shape[:2]
        src = np.array([[-0.5, -0.5], [w - 0.5, -0.5], [-0.5, h - 0.5]], np.float32)
        dst = np.array([tl, tr, bl], np.float32) - np.array([x0 + 0.5, y0 + 0.5], np.float32)
        m = cv2.getAffineTransform(src, dst)
        out = cv2.warpAffine(patch, m, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
        self.over(x0, y0, out, tid)

    def image(self, img: np.ndarray, x0: int, y0: int, alpha: np.ndarray) -> None:
        """Paste a straight-alpha BGR image with its top-left corner at (x0, y0)."""
        h, w = img.shape[:2]
        xa, ya, xb, yb = max(0, x0), max(0, y0), min(self.w, x0 + w), min(self.h, y0 + h)
        if xa >= xb or ya >= yb:
            return
        sub = img[ya - y0:yb - y0, xa - x0:xb - x0]
        a = alpha[ya - y0:yb - y0, xa - x0:xb - x0, None]
        src = np.concatenate([sub * a, a], axis=2).astype(np.float32)
        self.over(xa, ya, src)


def _premult(img: np.ndarray, a: np.ndarray) -> np.ndarray:
    return np.concatenate([img * a[..., None], a[..., None]], axis=2).astype(np.float32)


def _rounded_outline(w: float, h: float, r: float, n: int = 4) -> np.ndarray:
    """Rounded-rectangle outline points in sprite units, origin at the top-left."""
    r = min(r, w / 2, h / 2)
    pts = []
    for cx, cy, a0 in ((w - r, r, -90), (w - r, h - r, 0), (r, h - r, 90), (r, r, 180)):
        for k in range(n + 1):
            a = math.radians(a0 + 90 * k / n)
            pts.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return np.array(pts, np.float64)


# ----------------------------------------------------------------------------- tiles


class _TileDrawer:
    """Draws tiles of one style and size onto a canvas, recording each one."""

    def __init__(self, canvas: _Canvas, maker: SpriteMaker, rng: Rng) -> None:
        self.c, self.m, self.rng = canvas, maker, rng
        self.drawn: list[_Drawn] = []
        self._patches: dict[str, np.ndarray] = {}
        s = maker.style
        self.outline = _rounded_outline(maker.w, maker.h, s.radius * maker.w)
        body = np.asarray(s.body, np.float32)
        self.side = body * rng.uniform(0.62, 0.8)
        self.top = np.minimum(body * rng.uniform(0.95, 1.08), 255)

    def patch(self, tile: Tile | None) -> np.ndarray:
        """Premultiplied face sprite for a tile (None: a tile back)."""
        key = "back" if tile is None else tile.name
        p = self._patches.get(key)
        if p is None:
            img, a = self.m.face(tile)
            p = self._patches[key] = _premult(img, a)
        return p

    def draw(self, tile: Tile | None, tl: np.ndarray, u: np.ndarray, v: np.ndarray,
             extrude: np.ndarray, *, row: int = -1, on_rack: bool = False,
             is_indicator: bool = False, shadow: np.ndarray | None = None,
             shadow_blur: float = 2.0, top_lit: bool = False) -> None:
        """Draw one tile: face spanned by unit vectors u (along width), v (along height)."""
        w, h = self.m.w, self.m.h
        A = np.column_stack([u, v])
        face_pts = self.outline @ A.T + tl
        moved = face_pts + extrude
        hull = cv2.convexHull(np.concatenate([face_pts, moved]).astype(np.float32))[:, 0, :]
        hull = hull.astype(np.float64)
        tid = None
        if tile is not None:
            if len(self.drawn) >= 254:
                tile = None  # id space full: draw as an unlabelled back
            else:
                tid = len(self.drawn) + 1
        if shadow is not None:
            self.c.poly(hull + shadow, (0, 0, 0), opacity=self.rng.uniform(0.25, 0.5),
                        blur=shadow_blur)
        top = None
        if top_lit:  # the top surface of a standing tile, lit from above
            top_pts = self.outline[self.outline[:, 1] <= self.m.style.radius * w + 1e-6]
            tp = top_pts @ A.T + tl
            top = cv2.convexHull(np.concatenate([tp, tp + extrude]).astype(np.float32))[:, 0, :]
            top = top.astype(np.float64)
        self.c.poly(hull, self.side, tid=tid, inner=top, inner_color=self.top)
        self.c.sprite(self.patch(tile), tl, tl + u * w, tl + v * h, tid)
        if tid is not None and tile is not None:  # tid is set only for a face tile
            quad = np.array([tl, tl + u * w, tl + u * w + v * h, tl + v * h])
            self.drawn.append(_Drawn(tile, quad, hull, row, on_rack, is_indicator))


# ----------------------------------------------------------------------------- dealing


def _deck(rng: Rng) -> list[Tile]:
    deck = list(FULL_SET)
    rng.shuffle(deck)
    return deck


def _take(deck: list[Tile], want: list[Tile]) -> list[Tile] | None:
    have = Counter(deck)
    need = Counter(want)
    if any(have[t] < n for t, n in need.items()):
        return None
    for t in want:
        deck.remove(t)
    return want


def _groups(rng: Rng, deck: list[Tile], n: int, meldy: bool) -> list[list[Tile]]:
    """Deal ``n`` tiles from the deck as groups (runs, sets, pairs, singles)."""
    groups: list[list[Tile]] = []
    left = n
    while left > 0 and deck:
        got = None
        r = rng.random()
        if meldy and left >= 3 and r < 0.4:
            length = min(left, int(rng.integers(3, 6)))
            color = COLORS[rng.integers(4)]
            start = int(rng.integers(1, 15 - length))
            got = _take(deck, [Tile(color, start + i) for i in range(length)])
        elif meldy and left >= 3 and r < 0.7:
            k = min(left, int(rng.integers(3, 5)))
            num = int(rng.integers(1, 14))
            cols = rng.permutation(4)[:k]
            got = _take(deck, [Tile(COLORS[c], num) for c in cols])
        elif meldy and left >= 2 and r < 0.78:
            t = deck[int(rng.integers(len(deck)))]
            got = _take(deck, [t, t])
        if got is None:
            k = min(left, int(rng.integers(1, 4)))
            got = [deck.pop(0) for _ in range(min(k, len(deck)))]
        groups.append(got)
        left -= len(got)
    return groups


# ----------------------------------------------------------------------------- racks


_RACK_WOOD = ((45, 90, 150), (70, 120, 180), (30, 60, 105), (100, 150, 200), (120, 170, 215))
_RACK_PAINT = ((140, 175, 235), (40, 40, 170), (60, 120, 40), (150, 90, 30), (200, 210, 220),
               (50, 150, 210), (110, 60, 120))
_RACK_PLASTIC = ((22, 22, 22), (40, 40, 40), (95, 95, 95), (140, 140, 140), (70, 40, 30),
                 (30, 30, 80))


def _rack_texture(rng: Rng, h: int, w: int, th: float) -> np.ndarray:
    kind = rng.random()
    if kind < 0.45:
        base = np.array(_RACK_WOOD[rng.integers(len(_RACK_WOOD))], float) * rng.uniform(0.8, 1.2)
        tex = textures.wood(rng, h, w, tuple(base), scale=max(0.2, th / 150))
    elif kind < 0.7:
        base = np.array(_RACK_PAINT[rng.integers(len(_RACK_PAINT))], np.float32)
        base = base * rng.uniform(0.75, 1.15)
        tex = base * (0.93 + 0.1 * textures.fractal(rng, h, w, 60, 2))[..., None]
    else:
        base = np.array(_RACK_PLASTIC[rng.integers(len(_RACK_PLASTIC))], np.float32)
        base = base + rng.uniform(-8, 8)
        t = 0.95 + 0.08 * textures.noise(rng, h, w, 2)
        if rng.random() < 0.5:  # moulded grille / ribbing
            p = max(2.0, th * rng.uniform(0.04, 0.1))
            yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
            t = t + 0.25 * ((np.sin(xx / p * np.pi) * np.sin(yy / p * np.pi)) > 0.3)
        tex = base * t[..., None]
    return np.clip(tex, 0, 255).astype(np.float32)


def _draw_rack(rng: Rng, canvas: _Canvas, x0: float, y0: float, length: float, th: float,
               ts: float, gap_top: float) -> tuple[float, float, float]:
    """Draw a two-tier rack body; returns (row0 face bottom y, row1 face bottom y, bottom y)."""
    back_above = th * rng.uniform(0.0, 0.35)
    l1 = th * rng.uniform(0.12, 0.3)
    gap2 = th * rng.uniform(0.0, 0.15)
    l2 = th * rng.uniform(0.15, 0.4)
    y_r0 = back_above + ts + th
    y_r1 = y_r0 + l1 + gap2 + ts + th
    total = y_r1 + l2
    h, w = math.ceil(total), math.ceil(length)
    tex = _rack_texture(rng, h, w, th)
    shade = np.full(h, rng.uniform(0.72, 0.88), np.float32)  # back panel
    front = rng.uniform(1.0, 1.15)
    a, b = int(y_r0), int(y_r0 + l1)
    shade[a:b] = front
    shade[a:min(b, a + max(1, int(l1 * 0.15)))] = front * 1.2  # lit top edge of the ledge
    shade[max(a, b - 2):b] *= 0.7
    lower = rng.uniform(0.55, 0.8)
    shade[b:int(y_r1)] = lower
    c = int(y_r1)
    shade[c:] = front * rng.uniform(0.9, 1.05)
    shade[c:min(h, c + max(1, int(l2 * 0.12)))] *= 1.2
    shade[max(0, h - 2):] *= 0.6
    xs = np.linspace(-1, 1, w, dtype=np.float32)
    shade2 = shade[:, None] * (1 + rng.uniform(-0.08, 0.08) * xs[None, :])
    img = tex * shade2[..., None]
    radius = th * rng.uniform(0.05, 0.2)
    from okey_vision.synth.sprites import rounded_sdf

    alpha = np.clip(0.5 - rounded_sdf(h, w, radius), 0, 1).astype(np.float32)
    # shadow of the rack on the table
    pts = np.array([[x0 + 4, y0 + total * 0.85], [x0 + length - 4, y0 + total * 0.85],
                    [x0 + length, y0 + total + th * 0.25], [x0, y0 + total + th * 0.25]])
    canvas.poly(pts, (0, 0, 0), opacity=rng.uniform(0.3, 0.6), blur=max(1.0, th * 0.12))
    # int(): before numpy 2, round() of a numpy float (x0 may be one) is a float
    canvas.image(img, int(round(x0)), int(round(y0)), alpha)  # noqa: RUF046
    return y0 + y_r0, y0 + y_r1, y0 + total


def _row_positions(rng: Rng, groups: Sequence[Sequence[Tile | None]], pitch: float, inner: float) -> list[float]:
    """x offsets (from the rack's inner left) of each tile in a row of groups."""
    n = sum(len(g) for g in groups)
    if n == 0:
        return []
    gaps = [pitch * float(rng.choice([0.0, 0.3, 1.0, 1.0, 1.2, 2.0])) for _ in groups[1:]]
    width = n * pitch + sum(gaps)
    if width > inner:
        scale = max(0.0, inner - n * pitch) / max(sum(gaps), 1e-6)
        gaps = [g * scale for g in gaps]
        width = n * pitch + sum(gaps)
    free = max(0.0, inner - width)
    x = free * float(rng.choice([0.0, rng.random(), rng.random(), 0.5]))
    xs = []
    for gi, g in enumerate(groups):
        if gi:
            x += gaps[gi - 1]
        for _ in g:
            xs.append(x)
            x += pitch
    return xs


# ----------------------------------------------------------------------------- clutter


_SKIN = ((120, 160, 215), (95, 135, 195), (70, 105, 160), (45, 70, 110), (150, 185, 230))


def _draw_hand(rng: Rng, canvas: _Canvas, center: np.ndarray, th: float) -> None:
    """A hand / fingers reaching in; covers tiles (id 0)."""
    skin = np.array(_SKIN[rng.integers(len(_SKIN))], np.float32) * rng.uniform(0.85, 1.1)
    ang = rng.uniform(0, 2 * np.pi)
    d = np.array([math.cos(ang), math.sin(ang)])
    n = np.array([-d[1], d[0]])
    palm = center - d * th * rng.uniform(1.2, 2.2)
    fw = th * rng.uniform(0.22, 0.32)
    h, w = canvas.h, canvas.w
    r = int(th * 4)
    x0, y0 = max(0, int(palm[0]) - r), max(0, int(palm[1]) - r)
    x1, y1 = min(w, int(palm[0]) + r), min(h, int(palm[1]) + r)
    if x1 <= x0 or y1 <= y0:
        return
    m = np.zeros((y1 - y0, x1 - x0), np.uint8)
    o = np.array([x0, y0])
    pc = palm - o
    cv2.ellipse(m, (int(pc[0]), int(pc[1])), (int(th * 1.1), int(th * 0.8)),
                math.degrees(ang), 0, 360, 255, -1, cv2.LINE_AA)
    for k in range(int(rng.integers(1, 5))):
        off = (k - 1.5) * fw * 1.1
        base = pc + n * off + d * th * 0.5
        tip = base + d * th * rng.uniform(0.8, 1.8)
        cv2.line(m, (int(base[0]), int(base[1])), (int(tip[0]), int(tip[1])), 255,
                 max(2, int(fw)), cv2.LINE_AA)
    a = m.astype(np.float32) / 255.0
    if a.max() == 0:
        return
    small = cv2.resize(a, (max(1, a.shape[1] // 4), max(1, a.shape[0] // 4)),
                       interpolation=cv2.INTER_AREA)
    soft = cv2.resize(cv2.GaussianBlur(small, (0, 0), max(0.5, th * 0.035)),
                      (a.shape[1], a.shape[0]), interpolation=cv2.INTER_LINEAR)
    sh = np.zeros((y1 - y0, x1 - x0, 4), np.float32)
    sh[..., 3] = soft * 0.45
    canvas.over(x0, y0, sh)
    shade = 0.75 + 0.35 * soft
    src = np.empty((y1 - y0, x1 - x0, 4), np.float32)
    src[..., :3] = (a * shade)[..., None] * skin
    src[..., 3] = a
    canvas.over(x0, y0, src, tid=0)


def _draw_objects(rng: Rng, img: np.ndarray, scale: float) -> None:
    """Table clutter drawn into the background: phone, cup, coins, cards, pen."""
    h, w = img.shape[:2]
    for _ in range(int(rng.integers(1, 4))):
        kind = rng.integers(5)
        c = (float(rng.uniform(0, w)), float(rng.uniform(0, h)))
        ang = float(rng.uniform(0, 180))
        if kind == 0:  # phone
            size = (scale * rng.uniform(1.2, 1.6), scale * rng.uniform(2.4, 3.2))
            col = rng.uniform(10, 60, 3)
        elif kind == 1:  # paper card / note (a hard negative: light rectangle)
            size = (scale * rng.uniform(1.0, 2.5), scale * rng.uniform(1.5, 3.5))
            col = rng.uniform(200, 250, 3)
        elif kind == 2:  # pen
            size = (scale * rng.uniform(0.1, 0.2), scale * rng.uniform(2.5, 5))
            col = rng.uniform(0, 255, 3)
        else:  # cup / coin / chip: ellipse
            r = scale * (rng.uniform(0.8, 1.8) if kind == 3 else rng.uniform(0.2, 0.4))
            col = rng.uniform(0, 255, 3)
            cv2.ellipse(img, (int(c[0] + r * 0.2), int(c[1] + r * 0.2)), (int(r), int(r)), 0, 0,
                        360, tuple(float(v) * 0.5 for v in img[min(h - 1, int(c[1])),
                                                               min(w - 1, int(c[0]))]), -1,
                        cv2.LINE_AA)
            cv2.ellipse(img, (int(c[0]), int(c[1])), (int(r), int(r)), 0, 0, 360,
                        tuple(float(v) for v in col), -1, cv2.LINE_AA)
            if kind == 3:
                cv2.ellipse(img, (int(c[0]), int(c[1])), (int(r * 0.8), int(r * 0.8)), 0, 0, 360,
                            tuple(float(v) * 0.6 for v in col), -1, cv2.LINE_AA)
            continue
        rect = cv2.boxPoints((c, size, ang))
        shadow = rect + scale * 0.12
        cv2.fillConvexPoly(img, shadow.astype(np.int32), (20, 20, 20), cv2.LINE_AA)
        cv2.fillConvexPoly(img, rect.astype(np.int32), tuple(float(v) for v in col), cv2.LINE_AA)


def _draw_okey_objects(rng: Rng, img: np.ndarray, scale: float) -> None:
    """Okey-table clutter in the background: coins and badges with a printed
    number (read as tiles by a naive detector), bottles, a glass."""
    h, w = img.shape[:2]
    for _ in range(int(rng.integers(1, 5))):
        c = (int(rng.uniform(0, w)), int(rng.uniform(0, h)))
        kind = rng.integers(3)
        if kind == 0:  # coin or round badge with a number on it
            r = max(3, int(scale * rng.uniform(0.3, 0.7)))
            metal = rng.uniform(120, 230, 3) * np.array([0.6, 0.85, 1.0])[rng.permutation(3)]
            cv2.circle(img, (c[0] + r // 5, c[1] + r // 5), r, (20, 20, 20), -1, cv2.LINE_AA)
            cv2.circle(img, c, r, tuple(float(v) for v in metal), -1, cv2.LINE_AA)
            cv2.circle(img, c, max(1, int(r * 0.8)), tuple(float(v) * 0.7 for v in metal),
                       max(1, r // 10), cv2.LINE_AA)
            txt = str(int(rng.choice([1, 5, 10, 25, 50])))
            fs = r / 22
            (tw, tht), _ = cv2.getTextSize(txt, cv2.FONT_HERSHEY_SIMPLEX, fs, max(1, r // 8))
            m = np.zeros(img.shape[:2], np.uint8)  # putText draws on 8-bit images only
            cv2.putText(m, txt, (c[0] - tw // 2, c[1] + tht // 2), cv2.FONT_HERSHEY_SIMPLEX, fs,
                        255, max(1, r // 8), cv2.LINE_AA)
            a = m.astype(np.float32)[..., None] / 255.0
            img += (np.asarray(metal, np.float32) * 0.4 - img) * a
        elif kind == 1:  # a bottle seen from above / the side: long rounded body
            size = (scale * rng.uniform(0.6, 1.0), scale * rng.uniform(2.5, 4.5))
            col = rng.uniform(10, 120, 3) * np.array([0.5, 1.0, 0.6])[rng.permutation(3)]
            rect = cv2.boxPoints((c, size, float(rng.uniform(0, 180))))
            cv2.fillConvexPoly(img, (rect + scale * 0.15).astype(np.int32), (15, 15, 15), cv2.LINE_AA)
            cv2.fillConvexPoly(img, rect.astype(np.int32), tuple(float(v) for v in col), cv2.LINE_AA)
            mid = rect.mean(0)
            cv2.line(img, tuple(int(v) for v in (rect[0] + mid) / 2), tuple(int(v) for v in (rect[1] + mid) / 2),
                     tuple(float(min(255, v * 2 + 60)) for v in col), max(1, int(scale * 0.08)), cv2.LINE_AA)
        else:  # a glass: rim and a bright reflection
            r = max(3, int(scale * rng.uniform(0.8, 1.4)))
            cv2.circle(img, c, r, tuple(float(v) for v in rng.uniform(150, 230, 3)), max(1, r // 8),
                       cv2.LINE_AA)
            cv2.ellipse(img, c, (r // 2, r // 4), float(rng.uniform(0, 180)), 0, 180, (240, 240, 240),
                        max(1, r // 10), cv2.LINE_AA)


# ----------------------------------------------------------------------------- layout
# A scene is laid out on a flat canvas (the rack's front, or the table seen
# from above), photographed by a camera (one homography), then labelled. Every
# random draw below happens in the order it always has: a seed renders the
# same photo, pixel for pixel, as before this file was split into rooms.


@dataclass(frozen=True)
class _Frame:
    """The photo to take: its size (px), whether the tiles lie flat, and the
    apparent tile height wanted in it (px)."""

    w: int
    h: int
    flat: bool
    target: float


@dataclass(frozen=True, eq=False)
class _Layout:
    """A scene laid out on its canvas: the drawn tiles, the true hand, the
    region the camera frames, a reference tile quad that sets the photo's
    scale, and the indicator shown (None if not shown)."""

    canvas: _Canvas
    drawer: _TileDrawer
    hand: list[Tile]
    roi: Box
    ref: np.ndarray
    indicator: Tile | None


@dataclass(frozen=True)
class _RackPlan:
    """The sizes of a rack scene on its canvas (canvas px)."""

    th: float           # tile height
    w_t: float          # tile width
    gap: float          # between neighbouring tiles
    inner: float        # the rack's usable length
    pad: float          # rack end to its first slot
    ts: float           # visible top surface of a standing tile
    sw: float           # visible side of a standing tile
    sgn: int            # the side that shows: +1 or -1
    margin_x: float     # canvas edge to the rack
    above: float        # canvas top to the rack: room for another rack or the heap
    below: float        # rack to the canvas bottom: room for the indicator and discards
    heap: bool          # the heap of face-down tiles is on the table ...
    heap_behind: bool   # ... behind the rack (else in front of it)

    @property
    def pitch(self) -> float:
        """Tile width plus the gap: one slot."""
        return self.w_t + self.gap

    @property
    def length(self) -> float:
        """The rack's length, ends included."""
        return self.inner + 2 * self.pad

    @property
    def width(self) -> int:
        """The canvas width."""
        return int(self.length + 2 * self.margin_x)

    @property
    def height(self) -> int:
        """The canvas height."""
        rack_h_est = self.th * 3.6 + 2 * self.ts
        return int(self.above + rack_h_est + self.below)


def _sample_out_size(rng: Rng, cfg: SynthConfig) -> tuple[int, int]:
    long_side = int(rng.integers(cfg.long_side[0], cfg.long_side[1] + 1))
    aspect = float(cfg.aspects[rng.integers(len(cfg.aspects))])
    if aspect >= 1:
        w, h = long_side, round(long_side / aspect)
    else:
        h, w = long_side, round(long_side * aspect)
    return w - w % 2, h - h % 2


def _sample_tile_height(rng: Rng, cfg: SynthConfig, fit: float, long_side: int) -> float:
    if cfg.tile_share[1] > 0:  # a share of the photo's long side (close-ups)
        return long_side * math.exp(rng.uniform(math.log(cfg.tile_share[0]), math.log(cfg.tile_share[1])))
    lo, hi = cfg.tile_height
    if rng.random() < 0.7:  # the layout fills a good part of the frame (or overflows it)
        t = fit * math.exp(rng.uniform(math.log(0.4), math.log(1.3)))
    else:
        t = math.exp(rng.uniform(math.log(lo), math.log(hi)))
    return float(np.clip(t, lo, hi))


def _lay_out(rng: Rng, cfg: SynthConfig, deal: Deal | None = None) -> tuple[_Frame, _Layout]:
    """The photo's size, the tile set's style, the deal (``deal``'s hand on a
    rack, when given), and the scene drawn on its canvas."""
    out_w, out_h = _sample_out_size(rng, cfg)
    style = sample_style(rng)
    if cfg.p_okey_style > 0 and rng.random() < cfg.p_okey_style:
        style = sample_okey_style(rng)
    if cfg.pinned_set:  # one set for every photo (after the draws above: the rest of the scene is as unpinned)
        style = pinned_style(cfg.pinned_set)
    flat = rng.random() < cfg.p_flat and deal is None
    deck = _deck(rng)
    indicator = next(t for t in deck if not t.is_false_joker) if deal is None else deal.indicator
    for t in [indicator] + (deal.hand if deal is not None else []):
        deck.remove(t)  # a chosen hand's tiles leave the set, so nothing else shows a third copy

    n_flat = int(rng.integers(cfg.flat_tiles[0], cfg.flat_tiles[1] + 1))
    if flat:
        fit = min(out_w, out_h) / (math.sqrt(n_flat) * 1.9 + 1.5)
    else:
        fit = out_w / (16.5 * style.aspect)
    target = _sample_tile_height(rng, cfg, fit, max(out_w, out_h))
    th = float(np.clip(target * rng.uniform(1.0, 1.2), 14, 240))
    if flat:
        layout = _build_flat_scene(rng, cfg, style, th, deck, n_flat)
    else:
        layout = _build_rack_scene(rng, cfg, style, th, deck, indicator, deal)
    return _Frame(out_w, out_h, flat, target), layout


def _deal_rows(rng: Rng, cfg: SynthConfig, deck: list[Tile], deal: Deal | None = None
               ) -> tuple[list[list[list[Tile | None]]], int, int]:
    """The rack's two rows as groups of tiles (a blank tile is None), and how
    many tiles each row was dealt (``deal``'s rows when given)."""
    if deal is not None:
        chosen = [cast(list[list[Tile | None]], [list(g) for g in row]) for row in (deal.top, deal.bottom)]
        return chosen, sum(len(g) for g in deal.top), sum(len(g) for g in deal.bottom)
    lo, hi = cfg.row_tiles
    if rng.random() < cfg.p_typical_hand:
        total = int(rng.choice(cfg.hand_sizes))
        n0 = int(np.clip(rng.integers(total // 2 - 3, total // 2 + 4), lo, hi))
        n1 = int(np.clip(total - n0, lo, hi))
    else:
        n0, n1 = int(rng.integers(lo, hi + 1)), int(rng.integers(lo, hi + 1))
    meldy = rng.random() < 0.65
    # the groups hold tiles only; a blank (None) may be inserted below
    rows = [cast(list[list[Tile | None]], _groups(rng, deck, n0, meldy)),
            cast(list[list[Tile | None]], _groups(rng, deck, n1, meldy))]
    if cfg.p_blank > 0 and rng.random() < cfg.p_blank:
        # a blank (face-down) tile standing on the rack: drawn, never labelled
        for _ in range(int(rng.integers(1, 3))):
            g = rows[int(rng.integers(2))]
            g.insert(int(rng.integers(len(g) + 1)), [None])
    return rows, n0, n1


def _plan_rack(rng: Rng, cfg: SynthConfig, style: TileStyle, th: float, w_t: float, gap: float,
               n0: int, n1: int) -> _RackPlan:
    """The rack scene's sizes: the rack's length, the tiles' depth, the room around it."""
    heap = cfg.p_heap > 0 and rng.random() < cfg.p_heap
    heap_behind = heap and rng.random() < 0.5
    slots = max(15.0, n0, n1) + rng.uniform(0.2, 1.5)
    inner = slots * (w_t + gap)
    pad = w_t * rng.uniform(0.15, 0.5)
    ts = th * style.thickness * rng.uniform(0.15, 0.6)
    sw = th * style.thickness * rng.uniform(0.0, 0.5)
    sgn = 1 if rng.random() < 0.5 else -1
    margin_x = th * rng.uniform(1.5, 3.5)
    above = th * (rng.uniform(1.0, 2.2) if rng.random() < cfg.p_other_rack else 0.3)
    if heap_behind:  # the heap of face-down tiles in the middle of the table, behind the rack
        above = max(above, th * rng.uniform(2.2, 3.5))
    below = th * rng.uniform(1.6, 2.6)
    return _RackPlan(th, w_t, gap, inner, pad, ts, sw, sgn, margin_x, above, below, heap, heap_behind)


def _build_rack_scene(rng: Rng, cfg: SynthConfig, style: TileStyle, th: float, deck: list[Tile],
                      indicator: Tile, deal: Deal | None = None) -> _Layout:
    """Lay out the rack scene on a canvas: the rack, its tiles, and what lies around it."""
    w_t = th * style.aspect
    gap = w_t * rng.uniform(0.0, 0.05)
    rows, n0, n1 = _deal_rows(rng, cfg, deck, deal)
    plan = _plan_rack(rng, cfg, style, th, w_t, gap, n0, n1)
    canvas = _Canvas(plan.height, plan.width)
    maker = SpriteMaker(style, th, rng)
    drawer = _TileDrawer(canvas, maker, rng)
    flat_squash = rng.uniform(0.45, 0.85)
    if plan.above > th * 0.9:
        _draw_other_rack(rng, canvas, style, plan)

    x0, y0 = plan.margin_x, plan.above
    r0, r1, bottom = _draw_rack(rng, canvas, x0, y0, plan.length, th, plan.ts, 0)
    hand = _draw_rack_tiles(rng, cfg, drawer, rows, plan, (r0, r1))
    if plan.heap:
        _draw_heap(rng, drawer, deck, plan.width, (th * 0.4, plan.above - th * 0.6) if plan.heap_behind
                   else (bottom + th * 0.5, bottom + th * 1.5), th, flat_squash,
                   np.array([0.0, th * style.thickness * 0.3 * flat_squash]))
    roi = (x0, y0, x0 + plan.length, bottom)
    cx = x0 + plan.length / 2
    ref = np.array([[cx, r0 - th], [cx + w_t, r0 - th], [cx + w_t, r0], [cx, r0]])
    shown = _draw_table_clutter(rng, cfg, drawer, deck, indicator, plan, bottom, flat_squash)
    return _Layout(canvas, drawer, hand, roi, ref, shown)


def _draw_other_rack(rng: Rng, canvas: _Canvas, style: TileStyle, plan: _RackPlan) -> None:
    """Another player's rack, farther away, its tiles seen from the back."""
    th, ts = plan.th, plan.ts
    s = rng.uniform(0.35, 0.6)
    sub_th = th * s
    sub_maker = SpriteMaker(style, sub_th, rng)
    sub = _TileDrawer(canvas, sub_maker, rng)
    sx = rng.uniform(-0.3, 0.6) * plan.width
    slen = plan.length * s
    sy = plan.above - th * rng.uniform(0.6, 1.0) - sub_th * 2.2
    r0, r1, _ = _draw_rack(rng, canvas, sx, sy, slen, sub_th, ts * s, 0)
    for yb in (r0, r1):
        for k in range(int(rng.integers(6, 15))):
            x = sx + sub_th * 0.3 + k * sub_maker.w * 1.02
            tl = np.array([x, yb - sub_maker.h])
            sub.draw(None, tl, np.array([1.0, 0]), np.array([0, 1.0]),
                     np.array([0.0, -ts * s]), top_lit=True)


def _draw_rack_tiles(rng: Rng, cfg: SynthConfig, drawer: _TileDrawer, rows: list[list[list[Tile | None]]],
                     plan: _RackPlan, bottoms: tuple[float, float]) -> list[Tile]:
    """The player's tiles standing on the rack's two tiers (faces' bottoms at
    ``bottoms``); returns the hand, top row left to right, then the bottom row."""
    hand: list[Tile] = []
    max_tilt = math.radians(cfg.tile_tilt)
    extrude = np.array([plan.sgn * plan.sw, -plan.ts])
    maker = drawer.m
    for ri, (groups, yb) in enumerate(zip(rows, bottoms, strict=True)):
        xs = _row_positions(rng, groups, plan.pitch, plan.inner)
        tiles = [t for g in groups for t in g]
        # drawn from the side that is hidden, so each tile's visible side overlaps its neighbour
        order = range(len(tiles)) if plan.sgn < 0 else range(len(tiles) - 1, -1, -1)
        for i in order:
            a = rng.uniform(-max_tilt, max_tilt)
            u = np.array([math.cos(a), math.sin(a)])
            v = np.array([-math.sin(a), math.cos(a)])
            bx = plan.margin_x + plan.pad + xs[i] + plan.gap / 2 + rng.uniform(-0.02, 0.02) * plan.w_t
            bottom_center = np.array([bx + plan.w_t / 2, yb])
            tl = bottom_center - u * (maker.w / 2) - v * maker.h
            drawer.draw(tiles[i], tl, u, v, extrude, row=ri, on_rack=True, top_lit=True)
        hand.extend(t for t in tiles if t is not None)
    return hand


def _draw_table_clutter(rng: Rng, cfg: SynthConfig, drawer: _TileDrawer, deck: list[Tile], indicator: Tile,
                        plan: _RackPlan, bottom: float, flat_squash: float) -> Tile | None:
    """On the table in front of the rack: the indicator, a discard pile, a
    hand reaching in; returns the indicator if it was drawn."""
    th, maker, W = plan.th, drawer.m, plan.width
    shadow_vec = np.array([rng.uniform(-0.1, 0.1), rng.uniform(0.02, 0.1)]) * th
    side_vec = np.array([0.0, th * maker.style.thickness * rng.uniform(0.2, 0.5) * flat_squash])

    def flat_tile(t: Tile, c: np.ndarray, ang: float, is_ind: bool) -> None:
        u = np.array([math.cos(ang), math.sin(ang) * flat_squash])
        v = np.array([-math.sin(ang), math.cos(ang) * flat_squash])
        tl = c - u * maker.w / 2 - v * maker.h / 2
        drawer.draw(t, tl, u, v, side_vec, row=-1, is_indicator=is_ind, shadow=shadow_vec,
                    shadow_blur=max(1.0, th * 0.05))

    spots = [np.array([rng.uniform(0.05, 0.95) * W, bottom + rng.uniform(0.5, 1.4) * th])
             for _ in range(2)]
    shown = None
    if rng.random() < cfg.p_indicator:
        shown = indicator
        ang = rng.normal(0, 0.25) + (math.pi if rng.random() < 0.15 else 0)
        flat_tile(indicator, spots[0], ang, True)
    if rng.random() < cfg.p_discards and deck:
        c = spots[1]
        ang = rng.normal(0, 0.4)
        for _ in range(int(rng.integers(1, 5))):
            if not deck:
                break
            t = deck.pop(0)
            flat_tile(t, c, ang, False)
            c = c + rng.normal(0, 0.18, 2) * th
            ang += rng.normal(0, 0.2)
    if rng.random() < cfg.p_hand:
        _draw_hand(rng, drawer.c, np.array([rng.uniform(0.1, 0.9) * W,
                                            rng.uniform(0.2, 1.0) * plan.height]), th)
    return shown


def _draw_heap(rng: Rng, drawer: _TileDrawer, deck: list[Tile], W: float,
               ys: tuple[float, float], th: float, squash: float, side_vec: np.ndarray) -> None:
    """The heap of face-down tiles (unlabelled backs, any angle, piled), with a
    few loose face-up tiles among them (labelled, apart from the rack)."""
    m = drawer.m
    cx = rng.uniform(0.15, 0.85) * W
    cy = (ys[0] + ys[1]) / 2
    spread = np.array([th * rng.uniform(1.0, 3.0), max(th * 0.2, (ys[1] - ys[0]) / 2)])
    shadow = np.array([0.05, 0.06]) * th
    loose = int(rng.integers(0, 3))
    for k in range(int(rng.integers(6, 26))):
        c = np.array([cx, cy]) + rng.uniform(-1, 1, 2) * spread
        ang = rng.uniform(0, 2 * np.pi)
        u = np.array([math.cos(ang), math.sin(ang) * squash])
        v = np.array([-math.sin(ang), math.cos(ang) * squash])
        tl = c - u * m.w / 2 - v * m.h / 2
        t = deck.pop(0) if k < loose and deck else None
        drawer.draw(t, tl, u, v, side_vec, row=-1, shadow=shadow, shadow_blur=max(1.0, th * 0.05))


def _build_flat_scene(rng: Rng, cfg: SynthConfig, style: TileStyle, th: float,
                      deck: list[Tile], n_total: int) -> _Layout:
    """Tiles lying face up on a table, in touching groups or alone, any angle."""
    groups = _groups(rng, deck, n_total, rng.random() < 0.7)
    if rng.random() < 0.3:  # some scattered singles
        groups = [[t] for g in groups for t in g]
    maker = SpriteMaker(style, th, rng)
    w_t, h_t = maker.w, maker.h
    side = math.sqrt(max(1, n_total)) * th * rng.uniform(1.4, 2.4) + 2 * th
    W = int(side * rng.uniform(1.0, 1.5))
    H = int(side)
    canvas = _Canvas(H, W)
    drawer = _TileDrawer(canvas, maker, rng)
    cell = th / 4
    occ = np.zeros((int(H / cell) + 1, int(W / cell) + 1), np.uint8)
    base_ang = rng.uniform(0, 2 * np.pi)
    aligned = rng.random() < 0.5
    gap = w_t * rng.uniform(0.0, 0.06)
    phi = rng.normal(0, 0.4)
    side_vec = np.array([math.sin(phi), math.cos(phi)]) * th * style.thickness * rng.uniform(0.1, 0.5)
    shadow_vec = np.array([rng.uniform(-0.1, 0.1), rng.uniform(-0.1, 0.1)]) * th
    for g in groups:
        n = len(g)
        for _ in range(25):
            ang = base_ang + rng.normal(0, 0.08) if aligned else rng.uniform(0, 2 * np.pi)
            if aligned and rng.random() < 0.15:
                ang += math.pi
            u = np.array([math.cos(ang), math.sin(ang)])
            v = np.array([-math.sin(ang), math.cos(ang)])
            length = n * (w_t + gap)
            c = np.array([rng.uniform(0, W), rng.uniform(0, H)])
            corners = np.array([c - u * length / 2 - v * h_t / 2, c + u * length / 2 - v * h_t / 2,
                                c + u * length / 2 + v * h_t / 2, c - u * length / 2 + v * h_t / 2])
            corners_big = c + (corners - c) * 1.15
            if (corners.min(0) < 0).any() or corners[:, 0].max() > W or corners[:, 1].max() > H:
                continue
            m = np.zeros_like(occ)
            cv2.fillConvexPoly(m, np.round(corners_big / cell).astype(np.int32), 1)
            if (m & occ).any():
                continue
            occ |= m
            for i, t in enumerate(g):
                cc = c + u * ((i - (n - 1) / 2) * (w_t + gap))
                cc = cc + rng.normal(0, 0.01, 2) * th
                tl = cc - u * w_t / 2 - v * h_t / 2
                drawer.draw(t, tl, u, v, side_vec, shadow=shadow_vec,
                            shadow_blur=max(1.0, th * 0.05))
            break
    if rng.random() < cfg.p_hand * 0.6:
        _draw_hand(rng, canvas, np.array([rng.uniform(0, W), rng.uniform(0, H)]), th)
    ref_c = np.array([W / 2, H / 2])
    ref = np.array([ref_c + [-w_t / 2, -h_t / 2], ref_c + [w_t / 2, -h_t / 2],
                    ref_c + [w_t / 2, h_t / 2], ref_c + [-w_t / 2, h_t / 2]])
    return _Layout(canvas, drawer, [], (0.0, 0.0, float(W), float(H)), ref, None)


# ----------------------------------------------------------------------------- camera


@dataclass(frozen=True, eq=False)
class _Camera:
    """How the camera sees the canvas: its angles (degrees), the canvas-to-photo
    homography, and the apparent tile height once a turned rack is fitted in."""

    tilt: float
    yaw: float
    roll: float
    homography: np.ndarray
    target: float


def _safe_focal(h0_center, corners: np.ndarray, focal: float, tilt: float, yaw: float,
                roll: float) -> float:
    """Grow the focal length until every canvas corner is well in front of the camera."""
    r = effects.rotation(tilt, yaw, roll)
    d = corners - h0_center
    need = -(r[2, 0] * d[:, 0] + r[2, 1] * d[:, 1])
    return float(max(focal, need.max() * 1.6 + 1))


def _camera_angles(rng: Rng, cfg: SynthConfig, flat: bool) -> tuple[float, float, float, bool]:
    """Tilt, yaw and roll (degrees), and whether the rack is turned or seen from the side."""
    max_tilt = cfg.max_tilt if flat else cfg.max_tilt * 0.75
    tilt = rng.uniform(-max_tilt, max_tilt) * (1 if rng.random() < 0.8 else 0.3)
    if not flat:
        tilt = abs(tilt) * (1 if rng.random() < 0.8 else -0.5)  # far side (top) farther away
    yaw = rng.uniform(-max_tilt, max_tilt) * 0.6
    roll = rng.uniform(0, 360) if flat else rng.normal(0, cfg.max_roll / 2.5)
    if not flat:
        roll = float(np.clip(roll, -cfg.max_roll, cfg.max_roll))
    turned = False
    if not flat and cfg.rack_roll[1] > 0:  # the phone held at an angle to the rack
        roll = float(rng.uniform(*cfg.rack_roll)) * (1 if rng.random() < 0.5 else -1)
        turned = True
    elif not flat and cfg.p_any_roll > 0 and rng.random() < cfg.p_any_roll:
        roll = float(rng.uniform(0, 360))
        turned = True
    if not flat and cfg.p_side_view > 0 and rng.random() < cfg.p_side_view:
        yaw = float(rng.uniform(35, 58)) * (1 if rng.random() < 0.5 else -1)
        tilt = float(rng.uniform(15, 45))
        turned = True
    return tilt, yaw, roll, turned


def _camera(rng: Rng, cfg: SynthConfig, frame: _Frame, layout: _Layout) -> _Camera:
    """Point the camera at the layout so the reference tile is ``frame.target`` px tall."""
    tilt, yaw, roll, turned = _camera_angles(rng, cfg, frame.flat)
    roi, canvas, target = layout.roi, layout.canvas, frame.target
    center = np.array([(roi[0] + roi[2]) / 2, (roi[1] + roi[3]) / 2])
    diag = math.hypot(roi[2] - roi[0], roi[3] - roi[1])
    corners = np.array([[0, 0], [canvas.w, 0], [canvas.w, canvas.h], [0, canvas.h]], float)
    focal = _safe_focal(center, corners, diag * rng.uniform(0.8, 2.5), tilt, yaw, roll)
    h0 = effects.plane_homography(tuple(center), focal, tilt, yaw, roll)
    q = effects.project(h0, layout.ref)
    ref_h = 0.5 * (np.linalg.norm(q[3] - q[0]) + np.linalg.norm(q[2] - q[1]))
    scale = target / max(float(ref_h), 1e-6)
    place = np.array([frame.w * (0.5 + rng.uniform(-0.2, 0.2)), frame.h * (0.5 + rng.uniform(-0.2, 0.2))])
    if turned:  # keep most of a turned / side-seen rack in the frame (ends may be cut)
        rc = effects.project(h0, np.array([[roi[0], roi[1]], [roi[2], roi[1]], [roi[2], roi[3]],
                                           [roi[0], roi[3]]])) * scale
        ext = rc.max(0) - rc.min(0)
        over = max(ext[0] / frame.w, ext[1] / frame.h) / rng.uniform(*cfg.turned_fit)
        if over > 1:
            scale /= over
            target /= over
    homography = np.array([[scale, 0, place[0]], [0, scale, place[1]], [0, 0, 1]]) @ h0
    return _Camera(tilt, yaw, roll, homography, target)


# ----------------------------------------------------------------------------- drawing


def _background(rng: Rng, cfg: SynthConfig, frame: _Frame, cam: _Camera) -> np.ndarray:
    """The table under the layout (float BGR, photo size): a table texture with
    clutter, seen by a camera tilted a little more than the one on the rack."""
    bw, bh = frame.w // 2, frame.h // 2
    if cfg.p_okey_table > 0 and rng.random() < cfg.p_okey_table:
        tex = textures.okey_table(rng, bh, bw)
    else:
        tex = textures.table(rng, bh, bw)
    if rng.random() < cfg.p_objects:
        _draw_objects(rng, tex, cam.target / 2 * rng.uniform(0.8, 1.5))
    if cfg.p_heap > 0 and rng.random() < cfg.p_heap:
        _draw_okey_objects(rng, tex, cam.target / 2 * rng.uniform(0.8, 1.5))
    btilt = float(np.clip(cam.tilt + (rng.uniform(15, 40) if not frame.flat else 0), -60, 60))
    tex_c = np.array([bw / 2, bh / 2])
    tex_corners = np.array([[0, 0], [bw, 0], [bw, bh], [0, bh]], float)
    bf = _safe_focal(tex_c, tex_corners, max(bw, bh) * rng.uniform(1.0, 2.0), btilt, cam.yaw, cam.roll)
    hb = effects.plane_homography(tuple(tex_c), bf, btilt, cam.yaw, cam.roll)
    hb = np.array([[rng.uniform(0.9, 1.4), 0, bw / 2], [0, rng.uniform(0.9, 1.4), bh / 2],
                   [0, 0, 1]]) @ hb
    bg = cv2.warpPerspective(tex, hb, (bw, bh), flags=cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_REFLECT)
    return cv2.resize(bg, (frame.w, frame.h), interpolation=cv2.INTER_LINEAR)


def _photograph(rng: Rng, cfg: SynthConfig, frame: _Frame, layout: _Layout,
                cam: _Camera) -> tuple[np.ndarray, np.ndarray]:
    """The photo (BGR uint8) and each pixel's tile id (0: no tile): the canvas
    seen over the table, then the phone's light, blur, noise and JPEG."""
    img = _background(rng, cfg, frame, cam)
    size = (frame.w, frame.h)
    fg = cv2.warpPerspective(layout.canvas.rgba, cam.homography, size, flags=cv2.INTER_LINEAR,
                             borderMode=cv2.BORDER_CONSTANT, borderValue=(0, 0, 0, 0))
    ids = cv2.warpPerspective(layout.canvas.ids, cam.homography, size, flags=cv2.INTER_NEAREST,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=0)
    img *= 1.0 - fg[..., 3:4]
    img += fg[..., :3]
    if not cfg.effects:
        return np.clip(img, 0, 255, out=img).astype(np.uint8), ids
    return _camera_effects(rng, cfg, img, ids), ids


def _camera_effects(rng: Rng, cfg: SynthConfig, img: np.ndarray, ids: np.ndarray) -> np.ndarray:
    """What a phone does to the scene (float BGR, changed in place): light,
    glare on the tiles, blur, sensor noise, JPEG; the photo as BGR uint8."""
    out_h, out_w = img.shape[:2]
    low = rng.random() < cfg.p_low_light
    gains = effects.white_balance(rng)
    if cfg.p_tint > 0 and rng.random() < cfg.p_tint:
        gains = gains * effects.tint(rng)
        low = low or rng.random() < 0.3
    img *= effects.light_field(rng, out_h, out_w, low, gains)
    if rng.random() < cfg.p_glare:
        effects.glare(rng, img, ids)
    sigma = rng.uniform(*cfg.noise_sigma) + (rng.uniform(3, 8) if low else 0.0)
    blur_rng = np.random.default_rng(rng.integers(1 << 62))
    out = np.clip(img, 0, 255, out=img).astype(np.uint8)
    out = effects.blur(blur_rng, out, cfg.p_blur, cfg.p_motion_blur)
    if sigma > 0.3:
        img = out.astype(np.float32)
        effects.sensor_noise(rng, img, sigma)
        out = np.clip(img, 0, 255, out=img).astype(np.uint8)
    return effects.jpeg(out, int(rng.integers(cfg.jpeg_quality[0], cfg.jpeg_quality[1] + 1)))


# ----------------------------------------------------------------------------- labels


def _labels(cfg: SynthConfig, drawn: list[_Drawn], homography: np.ndarray,
            ids: np.ndarray) -> tuple[list[SceneTile], np.ndarray]:
    """The labelled tiles (those visible enough) and the label mask: k for
    ``tiles[k-1]``, 255 for a tile left unlabelled, 0 elsewhere."""
    out_h, out_w = ids.shape[:2]
    # continuous coordinates: pixel i covers [i, i+1]; cv2 maps pixel centres
    half = np.array([[1, 0, 0.5], [0, 1, 0.5], [0, 0, 1]])
    H = half @ homography @ np.linalg.inv(half)
    counts = np.bincount(ids.ravel(), minlength=256)
    lut = np.zeros(256, np.uint8)
    labelled: list[SceneTile] = []
    for k, d in enumerate(drawn, start=1):
        if counts[k] == 0:
            continue
        lut[k] = 255
        pts = np.column_stack([d.outline, np.ones(len(d.outline))]) @ H.T
        if (pts[:, 2] <= 1e-9).any():
            continue
        poly = pts[:, :2] / pts[:, 2:3]
        area = abs(cv2.contourArea(poly.astype(np.float32)))
        frac = float(min(1.0, counts[k] / max(area, 1e-6)))
        x1, y1 = max(0.0, poly[:, 0].min()), max(0.0, poly[:, 1].min())
        x2, y2 = min(float(out_w), poly[:, 0].max()), min(float(out_h), poly[:, 1].max())
        if frac < cfg.min_visible or (y2 - y1) < cfg.min_label_px or x2 <= x1:
            continue
        quad = effects.project(H, d.quad)
        labelled.append(SceneTile(
            tile=d.tile, box=(float(x1), float(y1), float(x2), float(y2)),
            quad=tuple((float(x), float(y)) for x, y in quad), row=d.row,
            on_rack=d.on_rack, is_indicator=d.is_indicator, visible=round(frac, 4)))
        lut[k] = len(labelled)
    return labelled, lut[ids]


# ----------------------------------------------------------------------------- scene


def render_scene(seed: int, config: SynthConfig | None = None, deal: Deal | None = None) -> Scene:
    """Render one synthetic photo (deterministic from ``seed``) with exact
    labels; ``deal``: a chosen hand on the rack and its indicator (a rack
    scene whatever ``p_flat``; the indicator shown with ``p_indicator``)."""
    cfg = config or SynthConfig()
    rng = np.random.default_rng(seed)
    frame, layout = _lay_out(rng, cfg, deal)
    cam = _camera(rng, cfg, frame, layout)
    image, ids = _photograph(rng, cfg, frame, layout, cam)
    tiles, mask = _labels(cfg, layout.drawer.drawn, cam.homography, ids)
    return Scene(image=image, tiles=tiles, hand=layout.hand, indicator=layout.indicator, mask=mask,
                 kind="flat" if frame.flat else "rack", seed=int(seed))
