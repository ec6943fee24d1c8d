"""A player's own tile set, learned from their corrections: what
the reader applies.

Every Okey set has its own inks and font: a navy blue the colour network
reads as black, an orange it reads as red. A :class:`Calibration` holds, beside
the shipped networks (never changed), one small *expert* per network fitted
on the player's labelled crops (:mod:`okey_vision.calibrate.fit`):

- **shift** (each network): a log-prior shift per class, added to the
  network's log probabilities (the network's own evidence, which already
  copes with the light, moved where the set lies: a navy the network calls
  black at 0.7 read blue, a black it is sure of still black);
- **ink** (the colour network): the set's ink prototypes, the median Lab of
  each colour's ink pixels on the white-balanced crop (:func:`ink_features`),
  with a per-channel spread;
- **shape** (the number network, where the player gave enough crops of a
  number): the numerals' mean gradient histogram (:func:`shape_features`).

The calibration speaks in the light it learned in (``CalibrationConfig.light_margin``).
The classify stage adds the shift to each crop's log probabilities,
multiplies them by the expert's likelihood ratio and renormalises (a
product of experts):
``log p'(c) = log p(c) - min(cap, weight * (best score - score(c)))``, where
``score(c)`` (<= 0) says how near the crop lies to the prototype of a class
the player has shown, and ``reference`` stands for a class never shown
(:func:`vote`). ``cap`` bounds what a few crops can do against the network:
a read the network is sure of stays.
The shift's strength and the experts' ``weight``, ``reference`` and ``cap``
are chosen at fit time on the player's crops, each crop judged by what was
fitted without it.

The calibration is a small file (``calibration.npz``) in the player's data
folder (:func:`data_dir`: ``$OKEY_VISION_DATA``, else the user data
directory), read by the reader when present and made for the models it runs
(:attr:`Calibration.models`); ``ClassifyConfig.calibration`` turns it off.
numpy and OpenCV only (no torch).
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import numpy as np

from okey_vision.errors import FileError, OkeyError, clip
from okey_vision.vision.config import CalibrationConfig, CropConfig
from okey_vision.vision.crops import COLOR_CLASSES, NUMBER_CLASSES

#: Where the player's corrections and calibration are kept (overrides the user data directory).
DATA_ENV = "OKEY_VISION_DATA"
#: The calibration's file name in the data folder.
FILE = "calibration.npz"
#: The file's format; another is not read.
FORMAT = 1
#: The calibration's tuned values, each with its reason (``vision/config.py``).
TUNED = CalibrationConfig()
#: Orientation bins of the numerals' gradient histogram (:func:`shape_features`).
ORIENTATIONS = 9


class CalibrationError(OkeyError):
    """A calibration file that cannot be used (damaged, another format, other models)."""


class DamagedCalibration(CalibrationError):
    """A calibration file cut short, edited or holding values that are not numbers."""


def data_dir() -> Path:
    """The folder of the player's corrections and calibration:
    ``$OKEY_VISION_DATA``, else the user data directory (platformdirs)."""
    env = os.environ.get(DATA_ENV)
    if env:
        return Path(env)
    import platformdirs

    return Path(platformdirs.user_data_dir("okey-vision", appauthor=False))


def calibration_path(folder: str | Path | None = None) -> Path:
    """The calibration file in ``folder`` (default: :func:`data_dir`)."""
    return Path(folder if folder is not None else data_dir()) / FILE


def models_key(paths: Sequence[Path]) -> str:
    """A fingerprint of the classifier files a calibration was fitted on (first 16 hex of SHA-256)."""
    h = hashlib.sha256()
    for p in paths:
        h.update(Path(p).read_bytes())
    return h.hexdigest()[:16]


# -- features ------------------------------------------------------------------------------

def ink_features(wb_crops: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
    """Each white-balanced upright crop's ink hue: the direction in Lab
    (L*, a*, b*) from the tile's face to its ink, (n, 3) float32 unit
    vectors; a row of NaN where the crop shows too little ink.

    A pixel on a numeral's edge mixes ink with the face, so it lies on the
    line from the face to the ink: the direction (the mean step from the face
    over the ink pixels, weighted by their distance from it) is the same for
    a thin stroke as for a bold one, where the ink's median colour is not."""
    import cv2

    n = len(wb_crops)
    if n == 0:
        return np.zeros((0, 3), np.float32)
    batch = np.stack(list(wb_crops))
    h, w = batch.shape[1:3]
    x0, x1, y0, y1 = (round(v * s) for v, s in zip(TUNED.ink_window, (w, w, h, h), strict=True))
    part = np.ascontiguousarray(batch[:, y0:y1, x0:x1]).astype(np.float32) / 255.0
    lab = cv2.cvtColor(part.reshape(-1, part.shape[2], 3), cv2.COLOR_BGR2LAB).reshape(n, -1, 3)
    light = lab[..., 0] >= np.quantile(lab[..., 0], 0.6, axis=1, keepdims=True)
    face = np.nanmedian(np.where(light[..., None], lab, np.nan), axis=1)
    step = lab - face[:, None, :]
    dist = np.abs(step[..., 0]) * 2.55 + CropConfig.chroma_weight * np.hypot(step[..., 1], step[..., 2])  # 8-bit L
    ink = dist > CropConfig.ink_distance  # the reader's own ink test's distance (crops.have_ink)
    norm = np.linalg.norm(step, axis=2)
    mean = (step * (norm * ink)[..., None]).sum(1)
    out = mean / np.maximum(np.linalg.norm(mean, axis=1, keepdims=True), 1e-9)
    out[ink.sum(1) < TUNED.min_ink] = np.nan
    result: np.ndarray = out.astype(np.float32)
    return result


def crop_light(crops: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
    """Each crop's light: the log gains (B, G, R) that white-balance its face
    (0: the face as ``CropConfig.face_reference``; 1: a
    channel e times darker), (n, 3): the light's strength and its tint."""
    from okey_vision.vision.crops import face_colours

    if len(crops) == 0:
        return np.zeros((0, 3))
    result: np.ndarray = np.log(np.asarray(CropConfig.face_reference) / np.maximum(face_colours(list(crops)), 1.0))
    return result


def shape_features(crops: Sequence[np.ndarray] | np.ndarray) -> np.ndarray:
    """Each upright crop's numeral shape: a histogram of its grey gradients'
    orientations (:data:`ORIENTATIONS` bins, unsigned, weighted by strength)
    in 16 px cells every 8 px of the 64 px crop (7 x 7 cells), square-rooted
    and made unit length, (n, 441) float32: coarse, so a crop a few pixels
    off still matches."""
    import cv2

    n = len(crops)
    size = 64
    if n == 0:
        return np.zeros((0, 49 * ORIENTATIONS), np.float32)
    grey = np.stack([cv2.resize(cv2.cvtColor(np.ascontiguousarray(c), cv2.COLOR_BGR2GRAY), (size, size),
                                interpolation=cv2.INTER_AREA) if c.shape[:2] != (size, size)
                     else cv2.cvtColor(np.ascontiguousarray(c), cv2.COLOR_BGR2GRAY) for c in crops])
    g = grey.astype(np.float32)
    gx = np.zeros_like(g)
    gy = np.zeros_like(g)
    gx[:, :, 1:-1] = g[:, :, 2:] - g[:, :, :-2]
    gy[:, 1:-1, :] = g[:, 2:, :] - g[:, :-2, :]
    mag = np.hypot(gx, gy)
    bins = (np.mod(np.arctan2(gy, gx), np.pi) / np.pi * ORIENTATIONS).astype(np.int64) % ORIENTATIONS
    hist = np.zeros((n, size, size, ORIENTATIONS), np.float32)
    np.put_along_axis(hist, bins[..., None], mag[..., None], axis=3)
    cells = hist.reshape(n, 8, 8, 8, 8, ORIENTATIONS).sum((2, 4))          # 8 px cells
    cells = cells[:, :-1, :-1] + cells[:, 1:, :-1] + cells[:, :-1, 1:] + cells[:, 1:, 1:]  # 16 px, every 8
    f = np.sqrt(cells.reshape(n, -1))
    result: np.ndarray = f / np.maximum(np.linalg.norm(f, axis=1, keepdims=True), 1e-6)
    return result


# -- the experts ---------------------------------------------------------------------------

#: The two kinds of expert: ink colour (Gaussian prototypes) and numeral shape (cosine prototypes).
INK, SHAPE = "ink", "shape"


def vote(scores: np.ndarray, weight: float, reference: float, cap: float) -> np.ndarray:
    """An expert's log factors from its scores (n, k; NaN: a class it never
    saw): a class never seen scores ``reference`` (the background); each
    class loses ``weight`` times its shortfall from the best score, at most
    ``cap`` nats. So a crop near one prototype counts against the other
    classes, the unseen ones too; a crop near none (every score below the
    reference) counts against the seen classes only; a crop without a
    feature (a NaN row) counts for nothing.

    >>> vote(np.array([[-0.1, -3.0, np.nan], [-5.0, -6.0, np.nan]]), 1.0, -2.0, 4.0).round(1).tolist()
    [[0.0, -2.9, -1.9], [-3.0, -4.0, 0.0]]
    """
    if not scores.size:
        return np.zeros_like(scores)
    full = np.where(np.isnan(scores), reference, scores)
    t = np.clip(weight * (full - full.max(1, keepdims=True)), -cap, 0.0)
    t[np.isnan(scores).all(1)] = 0.0
    result: np.ndarray = t
    return result


@dataclass(frozen=True, eq=False)
class Expert:
    """One set-specific expert over one network's classes (see the module's
    docstring): each class's prototype (NaN: never shown), how many crops made
    it, the features' spread, and the weight, reference and cap of its vote."""

    kind: str
    classes: tuple[str, ...]
    means: np.ndarray = field(repr=False)
    counts: np.ndarray = field(repr=False)
    scale: np.ndarray = field(repr=False)
    weight: float = 0.0
    reference: float = 0.0
    cap: float = 0.0

    @property
    def known(self) -> np.ndarray:
        """Which classes have a prototype."""
        result: np.ndarray = ~np.isnan(self.means).any(1)
        return result

    def scores(self, feats: np.ndarray) -> np.ndarray:
        """How near each crop lies to each class's prototype (<= 0, 0 on it),
        (n, k); NaN: no prototype or no feature."""
        if self.kind == INK:
            d = (feats[:, None, :] - self.means[None, :, :]) / self.scale
            result: np.ndarray = -0.5 * (d ** 2).sum(-1)
            return result
        result = feats @ np.nan_to_num(self.means).T - 1.0 + np.where(self.known, 0.0, np.nan)[None, :]
        return result

    def membership(self, feats: np.ndarray) -> np.ndarray:
        """How well each crop matches each class's prototype, 0..1 (0: a class
        never shown, or a crop without a feature): exp(-d^2 / 2) in spreads
        for ink, the cosine's shortfall in ``CalibrationConfig.shape_spread`` for shape."""
        s = self.scores(feats)
        if self.kind == SHAPE:
            s = -0.5 * (s / TUNED.shape_spread) ** 2
        result: np.ndarray = np.nan_to_num(np.exp(s), nan=0.0)
        return result

    def terms(self, feats: np.ndarray) -> np.ndarray:
        """The expert's log factor for each crop and class (:func:`vote`)."""
        return vote(self.scores(feats), self.weight, self.reference, self.cap)

    def apply(self, probs: np.ndarray, feats: np.ndarray, say: np.ndarray | None = None) -> np.ndarray:
        """The network's probabilities ``probs`` (n, k) times the expert's
        factors (each crop's scaled by its ``say``, 0..1), renormalised."""
        if self.weight <= 0 or not len(probs):
            return probs
        terms = self.terms(feats)
        if say is not None:
            terms = terms * say[:, None]
        logp = np.log(np.clip(probs, 1e-9, None)) + terms
        logp -= logp.max(1, keepdims=True)
        p = np.exp(logp)
        result: np.ndarray = p / p.sum(1, keepdims=True)
        return result

    def arrays(self, prefix: str) -> dict[str, np.ndarray]:
        """The expert as named arrays (for :meth:`Calibration.save`)."""
        return {f"{prefix}_means": self.means, f"{prefix}_counts": self.counts, f"{prefix}_scale": self.scale,
                f"{prefix}_vote": np.array([self.weight, self.reference, self.cap], np.float64)}

    @classmethod
    def from_arrays(cls, kind: str, classes: Sequence[str], data: dict[str, np.ndarray], prefix: str) -> Expert:
        """The expert :meth:`arrays` saved."""
        w, r, c = (float(v) for v in data[f"{prefix}_vote"])
        return cls(kind, tuple(classes), np.asarray(data[f"{prefix}_means"], np.float64),
                   np.asarray(data[f"{prefix}_counts"], np.int64), np.asarray(data[f"{prefix}_scale"], np.float64),
                   w, r, c)


@dataclass(frozen=True, eq=False)
class Calibration:
    """The experts fitted on one player's crops, and what they were fitted from."""

    colour: Expert | None
    number: Expert | None
    #: The range of the player's crops' lights (:func:`crop_light`; lowest
    #: B, G, R gains, then highest): the experts' say fades outside it.
    light: tuple[float, ...] = (0.0,) * 6
    #: Crops and photos they came from.
    crops: int = 0
    photos: int = 0
    #: When it was fitted (ISO time) and the classifier files it was fitted for (:func:`models_key`).
    made: str = ""
    models: str = ""
    #: Log-prior shifts of the colour (5) and number (14) networks' classes (None: none).
    colour_shift: np.ndarray | None = field(default=None, repr=False)
    number_shift: np.ndarray | None = field(default=None, repr=False)
    #: What the fit measured: leave-one-out errors on the player's crops
    #: without and with it, and the guard's real-photo check (plain data).
    report: dict[str, Any] = field(default_factory=dict, repr=False)

    @staticmethod
    def shifted(probs: np.ndarray, shift: np.ndarray | None, say: np.ndarray,
                member: np.ndarray | None = None) -> np.ndarray:
        """Probabilities (n, k) with a log-prior ``shift`` (k,) added, each
        crop's scaled by its ``say`` (0..1), renormalised. With ``member``
        (n, k: how well each crop matches each class's prototype, 0..1) a
        class is only raised, and only as far as the crop looks like it: a
        black tile of another set, read black by the network, is not pushed
        to the blue this set's navy needed."""
        if shift is None or not len(probs) or not np.any(shift):
            return probs
        step = say[:, None] * (shift[None, :] if member is None else member * np.maximum(shift, 0.0)[None, :])
        logp = np.log(np.clip(probs, 1e-9, None)) + step
        p = np.exp(logp - logp.max(1, keepdims=True))
        result: np.ndarray = p / p.sum(1, keepdims=True)
        return result

    def say(self, crops: Sequence[np.ndarray]) -> np.ndarray:
        """How much the calibration has to say on each crop (1 in the light it
        learned in, fading to 0 at twice ``CalibrationConfig.light_margin`` outside it)."""
        light = crop_light(crops)
        lo, hi = np.asarray(self.light[:3]), np.asarray(self.light[3:])
        off = np.maximum(np.maximum(lo - light, light - hi).max(1) - TUNED.light_margin, 0.0)
        result: np.ndarray = np.clip(1.0 - off / TUNED.light_margin, 0.0, 1.0)
        return result

    def adjust(self, crops: Sequence[np.ndarray], wb_crops: Sequence[np.ndarray], number: np.ndarray,
               colour: np.ndarray, owner: Sequence[int] | np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray]:
        """The number (n, 14) and colour (n, 5) networks' probabilities of
        upright crops (``wb_crops``: white-balanced) with the experts' say.
        ``owner``: for each crop, the index of a crop showing the same light
        and ink (the classify stage cuts each tile both ways up: the ink
        window is symmetric under a half turn), so they are measured once for
        both (a read's time: at most 10 % more)."""
        if not self.active or not len(crops):
            return number, colour
        own = np.arange(len(crops)) if owner is None else np.asarray(owner, np.int64)
        reps, back = np.unique(own, return_inverse=True)
        say = self.say([crops[i] for i in reps])[back]
        if not say.any():
            return number, colour
        # A numeral's shape is a crop's own (a tile turned shows another shape); only when its expert acts.
        use_shape = self.number is not None and (self.number.weight > 0 or self.number_shift is not None)
        shape = shape_features(crops) if use_shape else None
        ink = ink_features([wb_crops[i] for i in reps])[back] if self.colour is not None else None
        return (self._one(number, self.number_shift, self.number, shape, say),
                self._one(colour, self.colour_shift, self.colour, ink, say))

    def _one(self, probs: np.ndarray, shift: np.ndarray | None, expert: Expert | None, feats: np.ndarray | None,
             say: np.ndarray) -> np.ndarray:
        """One network's probabilities: its shift (gated by the crops' likeness to the prototypes), then its expert."""
        if expert is None or feats is None:
            return self.shifted(probs, shift, say)
        probs = self.shifted(probs, shift, say, expert.membership(feats))
        return expert.apply(probs, feats, say) if expert.weight > 0 else probs

    def weakened(self, strength: float) -> Calibration:
        """The same calibration at ``strength`` (0..1) of its pull: shifts,
        experts' weights and caps scaled (the guard's fallback)."""
        def scale(e: Expert | None) -> Expert | None:
            return None if e is None else replace(e, weight=e.weight * strength, cap=e.cap * strength)

        def shift(s: np.ndarray | None) -> np.ndarray | None:
            return None if s is None else s * strength

        return replace(self, colour=scale(self.colour), number=scale(self.number),
                       colour_shift=shift(self.colour_shift), number_shift=shift(self.number_shift),
                       report={**self.report, "strength": strength})

    @property
    def active(self) -> bool:
        """Whether it changes any read (a shift, or an expert with a weight)."""
        shifts = (s for s in (self.colour_shift, self.number_shift) if s is not None)
        return any(e is not None and e.weight > 0 for e in (self.colour, self.number)) or any(
            bool(np.any(s)) for s in shifts)

    def save(self, path: str | Path) -> Path:
        """Write the calibration whole or not at all (:func:`~okey_vision.files.atomic_write`:
        a reader never sees half a file); :class:`~okey_vision.errors.FileError` naming it when it cannot."""
        from okey_vision.files import atomic_write

        path = Path(path)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise FileError.of(path.parent, exc, outcome="the calibration was not saved") from None
        meta = {"format": FORMAT, "light": list(self.light), "crops": self.crops, "photos": self.photos,
                "made": self.made, "models": self.models, "report": self.report,
                "colour": list(self.colour.classes) if self.colour else None,
                "number": list(self.number.classes) if self.number else None}
        arrays: dict[str, np.ndarray] = {"meta": np.array(json.dumps(meta))}
        if self.colour is not None:
            arrays.update(self.colour.arrays("colour"))
        if self.number is not None:
            arrays.update(self.number.arrays("number"))
        for name, shift in (("colour_shift", self.colour_shift), ("number_shift", self.number_shift)):
            if shift is not None:
                arrays[name] = np.asarray(shift, np.float64)
        # numpy's stubs type savez's keywords as bool
        return atomic_write(path, lambda fh: np.savez(fh, **arrays),  # type: ignore[arg-type]
                            outcome="the calibration was not saved")

    @classmethod
    def load(cls, path: str | Path) -> Calibration:
        """The calibration in ``path``; :class:`DamagedCalibration` naming the
        file when it cannot be read (cut short, edited, values that are not
        numbers), :class:`CalibrationError` when it is of another format."""
        path = Path(path)
        data, meta = _read_npz(path)
        if meta.get("format") != FORMAT:
            raise CalibrationError(f"{clip(path)}: a calibration of another format ({clip(meta.get('format'), 20)})")
        try:
            colour = _expert(INK, COLOR_CLASSES, meta.get("colour"), data, "colour")
            number = _expert(SHAPE, NUMBER_CLASSES, meta.get("number"), data, "number")
            shifts = {k: _finite(data[k], (n,), k) if k in data else None
                      for k, n in (("colour_shift", len(COLOR_CLASSES)), ("number_shift", len(NUMBER_CLASSES)))}
            light = tuple(float(v) for v in _finite(np.asarray(meta.get("light", [0.0] * 6), np.float64), (6,),
                                                    "light"))
            report = _report(meta.get("report") or {})
            made, models = meta.get("made", ""), meta.get("models", "")
            if not isinstance(made, str) or not isinstance(models, str):
                raise ValueError("its date or models are not text")
            crops, photos = _count(meta.get("crops", 0)), _count(meta.get("photos", 0))
        except (KeyError, ValueError, TypeError, IndexError) as exc:
            raise DamagedCalibration(f"{clip(path)}: a damaged calibration ({clip(str(exc), 60)})") from None
        return cls(colour, number, light, crops, photos, made, models, report=report, **shifts)


#: A calibration file is a few tens of kB (19 shifts, two experts of at most 14 x 441 numbers): anything
#: past this is not one, and is not read (a forged file's arrays could claim gigabytes).
MAX_FILE_BYTES = 4 << 20


def _read_npz(path: Path) -> tuple[dict[str, np.ndarray], dict[str, Any]]:
    """The arrays and the metadata of a calibration file, every array's size
    checked before it is read; :class:`DamagedCalibration` for anything else."""
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ValueError(f"{size} bytes, more than a calibration holds")
        with np.load(path, allow_pickle=False) as z:
            claimed = sum(info.file_size for info in z.zip.infolist())
            if claimed > MAX_FILE_BYTES:
                raise ValueError(f"its arrays claim {claimed} bytes, more than a calibration holds")
            data = {k: z[k] for k in z.files}
        meta = json.loads(str(data["meta"]))
        if not isinstance(meta, dict):
            raise ValueError("its metadata is not a record")
    # A damaged file makes zipfile, zlib and numpy raise any of a dozen types (BadZipFile, zlib.error,
    # EOFError, struct.error, UnicodeDecodeError ...): every one means the same here.
    except Exception as exc:  # noqa: BLE001
        why = str(exc) or type(exc).__name__
        raise DamagedCalibration(f"{clip(path)}: not a calibration file ({clip(why, 60)})") from None
    return data, meta


def _finite(values: np.ndarray, shape: tuple[int, ...], name: str) -> np.ndarray:
    """``values`` as float64 of ``shape``, every one a number (ValueError naming ``name`` otherwise)."""
    a = np.asarray(values, np.float64)
    if a.shape != shape:
        raise ValueError(f"{name} of shape {a.shape}, not {shape}")
    if not np.isfinite(a).all():
        raise ValueError(f"{name} holds values that are not numbers")
    return a


#: The fields of a calibration's report that are said (``okey-vision calibrate show``), and their kinds.
REPORT_PART = {"crops": int, "errors_before": int, "errors_after": int, "used": bool, "shown": dict}
REPORT_GUARD = {"judge": str, "tiles": int, "shipped": int, "calibrated": int}


def _report(report: object) -> dict[str, Any]:
    """A calibration's report, checked where it is said (ValueError for an edited one)."""
    if not isinstance(report, dict):
        raise ValueError("its report is not a record")
    wanted = {"colour": REPORT_PART, "number": REPORT_PART, "guard": REPORT_GUARD, "full_guard": REPORT_GUARD}
    for part, fields in wanted.items():
        value = report.get(part)
        if value is None:
            continue
        required = fields is REPORT_GUARD  # a guard's verdict is said whole; a part's missing counts are not said
        if not isinstance(value, dict) or any(
                (name in value or required) and not isinstance(value.get(name), kind) for name, kind in fields.items()):
            raise ValueError(f"its report's {part} is not as written")
        shown = value.get("shown") or {}
        if not all(isinstance(k, str) and isinstance(v, int) for k, v in shown.items()):
            raise ValueError(f"its report's {part} is not as written")
    strength = report.get("strength", 1.0)
    if isinstance(strength, bool) or not isinstance(strength, (int, float)) or not 0 <= strength <= 1:
        raise ValueError("its report's strength is not a share from 0 to 1")
    return report


def _count(value: object) -> int:
    """A count from the metadata (ValueError for anything but a whole number >= 0)."""
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise ValueError(f"a count of {clip(value, 20)}")
    return value


def _expert(kind: str, classes: Sequence[str], named: object, data: dict[str, np.ndarray],
            prefix: str) -> Expert | None:
    """The expert saved under ``prefix``, checked: its network's classes, its
    arrays' shapes, every number finite (a class never shown: a row of NaN)."""
    if not named:
        return None
    if not isinstance(named, list) or named != list(classes):
        raise ValueError(f"{prefix} classes {clip(named, 40)}")
    expert = Expert.from_arrays(kind, classes, data, prefix)
    k, means = len(classes), expert.means
    dims = 3 if kind == INK else 49 * ORIENTATIONS
    if means.shape != (k, dims) or expert.counts.shape != (k,):
        raise ValueError(f"{prefix} prototypes of shape {means.shape}")
    rows = np.isnan(means)
    if np.isinf(means).any() or (rows.any(1) & ~rows.all(1)).any():
        raise ValueError(f"{prefix} prototypes hold values that are not numbers")
    _finite(expert.scale, expert.scale.shape, f"{prefix} spread")
    _finite(np.array([expert.weight, expert.reference, expert.cap]), (3,), f"{prefix} vote")
    if (expert.scale <= 0).any() or expert.counts.min(initial=0) < 0:
        raise ValueError(f"{prefix} spread or counts below zero")
    return expert


def load_or_set_aside(path: str | Path) -> Calibration:
    """The calibration in ``path``; a damaged one is set aside
    (:func:`~okey_vision.files.set_aside`, never deleted) and
    :class:`DamagedCalibration` says so in one sentence."""
    from okey_vision.files import set_aside

    path = Path(path)
    before = _stamp(path)
    try:
        return Calibration.load(path)
    except DamagedCalibration as exc:
        if _stamp(path) != before:  # a fit replaced it while it was read: the next read takes the new one
            raise CalibrationError(f"{clip(path)}: changed while it was read") from None
        try:
            dest = set_aside(path)
        except FileError as err:
            raise DamagedCalibration(f"{exc}; {err}") from None
        raise DamagedCalibration(f"{exc}; it was set aside as {dest.name}", aside=str(dest)) from None


def _stamp(path: Path) -> tuple[int, int, int] | None:
    try:
        st = path.stat()
    except OSError:
        return None
    return st.st_ino, st.st_mtime_ns, st.st_size


__all__ = ["DATA_ENV", "FILE", "INK", "MAX_FILE_BYTES", "SHAPE", "Calibration", "CalibrationError",
           "DamagedCalibration", "Expert", "calibration_path", "crop_light", "data_dir", "ink_features",
           "load_or_set_aside", "models_key", "shape_features", "vote"]
