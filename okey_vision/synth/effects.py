"""Camera and light: homographies, lighting fields, glare, blur, noise, JPEG."""

from __future__ import annotations

import math

import cv2
import numpy as np

from okey_vision.synth.textures import noise

Rng = np.random.Generator


def rotation(tilt_deg: float, yaw_deg: float, roll_deg: float) -> np.ndarray:
    """3x3 rotation: tilt about x, then yaw about y, then roll about the optical axis."""
    a, b, c = (math.radians(v) for v in (tilt_deg, yaw_deg, roll_deg))
    rx = np.array([[1, 0, 0], [0, math.cos(a), -math.sin(a)], [0, math.sin(a), math.cos(a)]])
    ry = np.array([[math.cos(b), 0, math.sin(b)], [0, 1, 0], [-math.sin(b), 0, math.cos(b)]])
    rz = np.array([[math.cos(c), -math.sin(c), 0], [math.sin(c), math.cos(c), 0], [0, 0, 1]])
    return rz @ ry @ rx


def plane_homography(center: tuple[float, float], focal: float, tilt: float, yaw: float,
                     roll: float) -> np.ndarray:
    """Homography of a plane seen by a rotated pinhole camera, centre -> origin, scale ~1."""
    cx, cy = center
    t = np.array([[1, 0, -cx], [0, 1, -cy], [0, 0, 1]], float)
    r = rotation(tilt, yaw, roll)
    k = np.diag([focal, focal, 1.0])
    m = k @ np.column_stack([r[:, 0], r[:, 1], [0, 0, focal]])
    return m @ t


def project(h: np.ndarray, pts: np.ndarray) -> np.ndarray:
    """Apply a homography to N x 2 points."""
    pts = np.asarray(pts, np.float64).reshape(-1, 2)
    q = np.column_stack([pts, np.ones(len(pts))]) @ h.T
    return q[:, :2] / q[:, 2:3]


def light_field(rng: Rng, h: int, w: int, low_light: bool,
                gains: np.ndarray | None = None) -> np.ndarray:
    """Smooth multiplicative light (h x w x 3): gain, gradient, vignette, shadows, colour cast."""
    sh, sw = max(4, h // 8), max(4, w // 8)
    yy, xx = np.mgrid[0:sh, 0:sw].astype(np.float32)
    xx = xx / sw - 0.5
    yy = yy / sh - 0.5
    gain = rng.uniform(0.35, 0.6) if low_light else rng.uniform(0.8, 1.12)
    ang = rng.uniform(0, 2 * np.pi)
    field = 1 + rng.uniform(0, 0.45) * (xx * math.cos(ang) + yy * math.sin(ang))
    field -= rng.uniform(0, 0.5) * (xx ** 2 + yy ** 2)
    field *= 1 + (noise(rng, sh, sw, max(sh, sw) / 2) - 0.5) * 0.15
    if rng.random() < 0.45:  # a soft cast shadow (arm, phone, lamp shade)
        m: np.ndarray = np.zeros((sh, sw), np.float32)
        pts = (rng.random((int(rng.integers(3, 7)), 2)) * [sw * 1.4, sh * 1.4]
               - [sw * 0.2, sh * 0.2]).astype(np.int32)
        cv2.fillPoly(m, [cv2.convexHull(pts)], 1.0)
        m = cv2.GaussianBlur(m, (0, 0), rng.uniform(1, 6))
        field *= 1 - rng.uniform(0.2, 0.55) * m
    field = (field * gain)[..., None] * (np.ones(3, np.float32) if gains is None else gains)
    return cv2.resize(field.astype(np.float32), (w, h), interpolation=cv2.INTER_LINEAR)


def white_balance(rng: Rng) -> np.ndarray:
    """Per-channel BGR gains for warm (lamp) or cool (daylight, LED) light."""
    t = rng.normal(0, 0.45)
    t = float(np.clip(t, -1, 1))
    if t > 0:  # warm
        g = np.array([1 - 0.35 * t, 1 - 0.06 * t, 1 + 0.05 * t])
    else:  # cool
        g = np.array([1 - 0.15 * t, 1 - 0.02 * t, 1 + 0.15 * t])
    return (g * rng.uniform(0.97, 1.03, 3)).astype(np.float32)


def tint(rng: Rng) -> np.ndarray:
    """Strong BGR gains of tinted light: a tungsten lamp, a purple or green phone
    filter, cold LED, each with the camera's white balance left wrong."""
    kind = rng.integers(4)
    if kind == 0:    # warm tungsten: blue strongly down
        g = np.array([rng.uniform(0.45, 0.7), rng.uniform(0.72, 0.9), 1.0])
    elif kind == 1:  # purple / magenta filter: green down
        g = np.array([rng.uniform(1.0, 1.2), rng.uniform(0.55, 0.8), rng.uniform(0.95, 1.15)])
    elif kind == 2:  # cold LED: red down
        g = np.array([1.0, rng.uniform(0.85, 1.0), rng.uniform(0.6, 0.85)])
    else:            # greenish fluorescent
        g = np.array([rng.uniform(0.75, 0.95), 1.0, rng.uniform(0.7, 0.9)])
    return (g / g.max() * rng.uniform(0.95, 1.1)).astype(np.float32)


def glare(rng: Rng, img: np.ndarray, tile_mask: np.ndarray) -> None:
    """Add specular highlights (soft bright streaks), stronger on tiles, in place."""
    h, w = img.shape[:2]
    for _ in range(int(rng.integers(1, 4))):
        ax = (rng.uniform(0.03, 0.25) * w + 2, rng.uniform(0.01, 0.06) * h + 2)
        sig = rng.uniform(0.15, 0.4) * min(ax)
        r = int(max(ax) + 3 * sig) + 1
        cx, cy = int(rng.uniform(0, w)), int(rng.uniform(0, h))
        x0, y0, x1, y1 = max(0, cx - r), max(0, cy - r), min(w, cx + r), min(h, cy + r)
        if x1 <= x0 or y1 <= y0:
            continue
        g = np.zeros((y1 - y0, x1 - x0), np.float32)
        cv2.ellipse(g, (cx - x0, cy - y0), (int(ax[0]), int(ax[1])), float(rng.uniform(0, 180)),
                    0, 360, float(rng.uniform(0.4, 1.0)), -1)
        g = cv2.GaussianBlur(g, (0, 0), sig)
        weight = np.where(tile_mask[y0:y1, x0:x1] > 0, 1.0, 0.35).astype(np.float32)
        a = (g * weight * rng.uniform(0.4, 0.9))[..., None]
        roi = img[y0:y1, x0:x1]
        roi += (255.0 - roi) * a


def blur(rng: Rng, img: np.ndarray, p_blur: float, p_motion: float) -> np.ndarray:
    """Defocus or motion blur, sometimes."""
    r = rng.random()
    if r < p_motion:
        k = int(rng.integers(3, 10))
        kern: np.ndarray = np.zeros((k, k), np.float32)
        kern[k // 2, :] = 1.0 / k
        m = cv2.getRotationMatrix2D((k / 2 - 0.5, k / 2 - 0.5), float(rng.uniform(0, 180)), 1.0)
        kern = cv2.warpAffine(kern, m, (k, k))
        kern = kern / max(kern.sum(), 1e-6)
        return cv2.filter2D(img, -1, kern)
    if r < p_motion + p_blur:
        return cv2.GaussianBlur(img, (0, 0), rng.uniform(0.4, 1.8))
    return img


_BANK: np.ndarray | None = None
_BANK_SIZE = 1400


def _noise_bank() -> np.ndarray:
    """A fixed field of correlated Gaussian noise (luma + chroma), made once."""
    global _BANK
    if _BANK is None:
        r = np.random.default_rng(20240607)
        n = _BANK_SIZE
        lum = r.standard_normal((n, n, 1), dtype=np.float32)
        chroma: np.ndarray = r.standard_normal((n // 2, n // 2, 3), dtype=np.float32) * 0.5
        chroma = cv2.resize(chroma, (n, n), interpolation=cv2.INTER_LINEAR)
        _BANK = np.ascontiguousarray(lum + chroma)
    return _BANK


def sensor_noise(rng: Rng, img: np.ndarray, sigma: float) -> np.ndarray:
    """Add Gaussian luminance + chroma noise (a random window of a fixed bank), in place."""
    if sigma <= 0:
        return img
    h, w = img.shape[:2]
    bank = _noise_bank()
    if h > bank.shape[0] or w > bank.shape[1]:
        bank = cv2.resize(bank, (max(w, bank.shape[1]), max(h, bank.shape[0])))
    y0 = int(rng.integers(0, bank.shape[0] - h + 1))
    x0 = int(rng.integers(0, bank.shape[1] - w + 1))
    win = bank[y0:y0 + h, x0:x0 + w]
    if rng.random() < 0.5:
        win = win[::-1]
    img += win * np.float32(sigma)
    return img


def jpeg(img: np.ndarray, quality: int) -> np.ndarray:
    """JPEG round trip at ``quality``."""
    ok, buf = cv2.imencode(".jpg", img, [cv2.IMWRITE_JPEG_QUALITY, int(quality)])
    out = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return img if out is None else out
