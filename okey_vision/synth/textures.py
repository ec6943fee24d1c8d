"""Procedural textures: table tops (wood, felt, cloth, marble), rack materials."""

from __future__ import annotations

import cv2
import numpy as np

Rng = np.random.Generator


def noise(rng: Rng, h: int, w: int, cell: float) -> np.ndarray:
    """Smooth value noise in 0..1 with feature size ``cell`` px (float32, h x w)."""
    gh, gw = max(2, int(h / cell) + 2), max(2, int(w / cell) + 2)
    small = rng.random((gh, gw), dtype=np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def fractal(rng: Rng, h: int, w: int, cell: float, octaves: int = 3) -> np.ndarray:
    """Summed octaves of :func:`noise`, roughly 0..1."""
    out = np.zeros((h, w), np.float32)
    amp, total = 1.0, 0.0
    for _ in range(octaves):
        out += amp * noise(rng, h, w, max(cell, 1.5))
        total += amp
        amp *= 0.5
        cell /= 2.0
    return out / total


def _mix(a: np.ndarray, b: np.ndarray, t: np.ndarray) -> np.ndarray:
    """Blend colours a..b by weight map t (h x w) -> float32 h x w x 3."""
    a = np.asarray(a, np.float32)
    b = np.asarray(b, np.float32)
    return a + (b - a) * t[..., None]


def stretched(rng: Rng, h: int, w: int, cell_y: float, cell_x: float) -> np.ndarray:
    """Value noise with different feature sizes along y and x (float32 0..1)."""
    gh, gw = max(2, int(h / cell_y) + 2), max(2, int(w / cell_x) + 2)
    small = rng.random((gh, gw), dtype=np.float32)
    return cv2.resize(small, (w, h), interpolation=cv2.INTER_CUBIC)


def wood(rng: Rng, h: int, w: int, base: tuple[float, float, float] | None = None,
         scale: float = 1.0) -> np.ndarray:
    """Wood grain running along x (long fibres, gentle waves, plank seams)."""
    if base is None:
        tone = rng.uniform(0.0, 1.0)
        base = tuple(np.array([40, 75, 120]) * (1 - tone) + np.array([110, 165, 205]) * tone)
    base_arr = np.asarray(base, np.float32)
    dark = base_arr * rng.uniform(0.5, 0.8)
    sh, sw = max(8, h // 2), max(8, w // 2)
    ys = np.arange(sh, dtype=np.float32)[:, None] / max(sh, 1)
    period = rng.uniform(0.01, 0.05) * scale
    wave = stretched(rng, sh, sw, sh * rng.uniform(0.2, 0.6), sw * rng.uniform(0.15, 0.5))
    phase = ys / period + wave * rng.uniform(0.5, 3.0)
    lines = (np.sin(phase * 2 * np.pi) * 0.5 + 0.5) ** rng.uniform(1.5, 4.0)
    fibres = stretched(rng, sh, sw, max(1.0, sh / 300), sw / rng.uniform(4, 12))
    blotch = stretched(rng, sh, sw, sh / 6, sw / 2)
    t = np.clip(lines * rng.uniform(0.25, 0.6) + fibres * 0.35 + blotch * 0.3, 0, 1)
    img = _mix(base_arr * rng.uniform(1.0, 1.15), dark, t)
    if rng.random() < 0.5:  # plank seams
        pitch = rng.uniform(0.15, 0.45) * sh
        off = rng.uniform(0, pitch)
        seam = (np.mod(np.arange(sh) + off, pitch) < max(1.0, sh / 400))[:, None]
        img = np.where(seam[..., None], img * 0.55, img)
    return cv2.resize(img, (w, h), interpolation=cv2.INTER_LINEAR)


def felt(rng: Rng, h: int, w: int) -> np.ndarray:
    """Felt / baize: a saturated colour with fine fibre noise."""
    palette = [(40, 110, 30), (30, 80, 20), (90, 40, 20), (40, 40, 130), (60, 60, 60),
               (30, 30, 90), (100, 70, 20)]
    base = np.asarray(palette[rng.integers(len(palette))], np.float32) * rng.uniform(0.7, 1.3)
    t = fractal(rng, h, w, 40, 2) * 0.3 + rng.random((h, w), dtype=np.float32) * 0.25
    return _mix(base * 0.8, base * 1.2, t)


def cloth(rng: Rng, h: int, w: int) -> np.ndarray:
    """Table cloth: gingham checks, stripes or a woven rug."""
    kind = rng.integers(3)
    yy, xx = np.mgrid[0:h, 0:w].astype(np.float32)
    c1: np.ndarray
    c1 = rng.uniform(120, 250, 3).astype(np.float32)
    c2 = rng.uniform(20, 200, 3).astype(np.float32)
    if kind == 0:  # gingham
        p = rng.uniform(15, 60)
        a = (np.mod(xx, p) < p / 2).astype(np.float32)
        b = (np.mod(yy, p) < p / 2).astype(np.float32)
        t = (a + b) / 2
    elif kind == 1:  # stripes
        p = rng.uniform(8, 60)
        t = (np.sin(xx / p * 2 * np.pi) > rng.uniform(-0.5, 0.5)).astype(np.float32)
    else:  # woven rug (like the grey tweed in real photos)
        c1 = np.full(3, rng.uniform(170, 235), np.float32) + rng.uniform(-10, 10, 3)
        c2 = np.full(3, rng.uniform(30, 90), np.float32)
        p = rng.uniform(3, 8)
        weave = (np.sin(xx / p * np.pi) * np.sin(yy / p * np.pi)) * 0.5 + 0.5
        streaks = cv2.resize(rng.random((max(2, h // 30), w), dtype=np.float32), (w, h),
                             interpolation=cv2.INTER_LINEAR)
        t = np.clip((streaks > rng.uniform(0.55, 0.8)) * 0.8 + weave * 0.3, 0, 1)
    t = cv2.GaussianBlur(t.astype(np.float32), (0, 0), 0.8)
    img = _mix(c1, c2, t)
    img *= (0.9 + 0.2 * noise(rng, h, w, 3))[..., None]
    return img


def marble(rng: Rng, h: int, w: int) -> np.ndarray:
    """Light stone / marble / laminate with faint veins."""
    base = np.asarray(rng.uniform(185, 245, 3), np.float32)
    base = base.mean() + (base - base.mean()) * 0.2
    f = fractal(rng, h, w, rng.uniform(80, 300), 4)
    veins = np.abs(np.sin((f * rng.uniform(2, 5)) * np.pi))
    t = np.exp(-veins * rng.uniform(15, 40)) * rng.uniform(0.2, 0.6)
    t += fractal(rng, h, w, 40, 2) * 0.08
    return _mix(base, base * 0.55, t)


def plain(rng: Rng, h: int, w: int) -> np.ndarray:
    """A plain painted or laminate surface with soft mottling."""
    base = np.asarray(rng.uniform(30, 230, 3), np.float32)
    t = fractal(rng, h, w, rng.uniform(30, 200), 3)
    return _mix(base * 0.85, base * 1.1, t)


def table(rng: Rng, h: int, w: int) -> np.ndarray:
    """A random table-top texture, float32 BGR (0..255)."""
    r = rng.random()
    if r < 0.4:
        img = wood(rng, h, w)
    elif r < 0.55:
        img = felt(rng, h, w)
    elif r < 0.75:
        img = cloth(rng, h, w)
    elif r < 0.9:
        img = marble(rng, h, w)
    else:
        img = plain(rng, h, w)
    return img


def speckled(rng: Rng, h: int, w: int) -> np.ndarray:
    """A speckled (terrazzo-like or flecked) table cover: dots of 2-3 colours on a base."""
    base = np.asarray(rng.uniform(40, 220, 3), np.float32)
    img = np.empty((h, w, 3), np.float32)
    img[:] = base
    for _ in range(int(rng.integers(1, 3))):
        col = np.asarray(rng.uniform(0, 255, 3), np.float32)
        dots: np.ndarray = (rng.random((h, w), dtype=np.float32) < rng.uniform(0.03, 0.12)).astype(np.float32)
        dots = cv2.dilate(dots, np.ones((2, 2), np.uint8)) if rng.random() < 0.5 else dots
        img += (col - img) * dots[..., None] * rng.uniform(0.5, 0.9)
    img *= (0.92 + 0.16 * fractal(rng, h, w, 60, 2))[..., None]
    return img


def okey_table(rng: Rng, h: int, w: int) -> np.ndarray:
    """A table cover of a real Okey game: felt, speckled, checked cloth, marble or wood."""
    r = rng.random()
    if r < 0.25:
        return felt(rng, h, w)
    if r < 0.45:
        return speckled(rng, h, w)
    if r < 0.65:
        return cloth(rng, h, w)
    if r < 0.8:
        return marble(rng, h, w)
    return wood(rng, h, w)
