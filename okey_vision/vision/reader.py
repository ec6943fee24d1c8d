"""The tile reader: photo -> every face-up tile with its colour and number.

A pipeline of stages, one module each, every setting in one frozen
:class:`~okey_vision.vision.config.ReaderConfig`:

1. **look** (:mod:`~okey_vision.vision.look`): the oriented detector looks
   at the photo shrunk inside a grey border; the tiles found give the rack's
   pose -- the turn that stands the tiles upright and their size;
2. **normalise** (:mod:`~okey_vision.vision.normalise`): the photo turned
   level and scaled so a tile is the size the detectors read best;
3. **detect** (:mod:`~okey_vision.vision.detect`): the detector reads that
   view (and the view mirrored);
4. **fuse** (:mod:`~okey_vision.vision.fuse`): the passes' boxes joined, each
   leaning rack row read again warped square-on, tiles cut by the photo's
   edge dropped; the boxes mapped back onto the photo;
5. **crop** (:mod:`~okey_vision.vision.crops`, :mod:`~okey_vision.vision.refine`):
   blank tiles dropped, each tile's corners fitted to its face, each tile cut
   upright from the *full-resolution* photo;
6. **classify** (:mod:`~okey_vision.vision.classify`): number and colour
   read both ways up, the rack's tiles sharing one way up;
7. **order** (:mod:`~okey_vision.vision.order`,
   :mod:`~okey_vision.vision.decide`): rack rows along the rack's own
   axis, each row's quads fitted as one (:mod:`~okey_vision.vision.geometry`:
   shared top and bottom lines, like widths, no neighbour covered), the
   faces chosen jointly by the game's rules (rows' runs and sets, two copies
   of a face), rack order;
8. **rack** (:mod:`~okey_vision.vision.rack`): no tiles without a rack --
   a frame whose reads form no row of sure tiles (in a colour photo, no
   row of three however unsure: a rack seen badly is read, flagged) reads
   none, and a lone
   tile is kept (the indicator) only beside a rack row.

The networks are ONNX files run by onnxruntime (``models/``, or the folder
in ``$OKEY_VISION_MODELS``), loaded once, lazily, and shared by every caller.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Sequence
from dataclasses import replace
from functools import cache
from pathlib import Path

import cv2
import numpy as np

from okey_vision.errors import ImageError
from okey_vision.tiles import TILES, Tile, parse_tile
from okey_vision.vision import refine
from okey_vision.vision.calibration import (
    Calibration,
    CalibrationError,
    DamagedCalibration,
    calibration_path,
    load_or_set_aside,
    models_key,
)
from okey_vision.vision.classify import Classifier, FaceReads, face_probs
from okey_vision.vision.config import DEFAULT, GREYSCALE_REASON, FlagConfig, NormaliseConfig, ReaderConfig
from okey_vision.vision.crops import aligned, grown, have_ink, is_greyscale, work_image
from okey_vision.vision.decide import decide
from okey_vision.vision.detect import Detection, Detector, dedupe
from okey_vision.vision.fuse import drop_cut_tiles, fuse_passes, on_photo, rectify_rows
from okey_vision.vision.geometry import fit_rows
from okey_vision.vision.io import Photo, as_bgr, load_photo
from okey_vision.vision.look import Look, look
from okey_vision.vision.memory import release_memory
from okey_vision.vision.nets import DEFAULT_MODELS, STEMS, ModelMissingError, Net, env_int, models_dir
from okey_vision.vision.normalise import RackPose, View, estimate_pose, normalise
from okey_vision.vision.order import assign_rows
from okey_vision.vision.rack import on_racks
from okey_vision.vision.reads import TileRead, rack_order, rounded
from okey_vision.vision.trace import ReadTrace

#: The oriented detector: the first look, and the view when ``DetectConfig.view_stem`` names it
#: (or names a network the model folder does not hold).
ORIENTED = "detector"
#: The view detector: the oriented detector fine-tuned on the normalised views it reads.
VIEW = "detector_view"
#: Upright-box detectors: ``detector_axis`` (whole photos), ``detector_strip``
#: (rack rows warped level: the rectified rows' pass), each when shipped.
AXIS, STRIP = "detector_axis", "detector_strip"
#: The classifiers a calibration is fitted for (:func:`~okey_vision.vision.calibration.models_key`).
CLASSIFIERS = ("number", "color")

log = logging.getLogger(__name__)


class _Clock:
    """Seconds spent in each stage of one read."""

    def __init__(self) -> None:
        self.t = time.perf_counter()
        self.laps: list[tuple[str, float]] = []

    def __call__(self, stage: str) -> None:
        now = time.perf_counter()
        self.laps.append((stage, round(now - self.t, 4)))
        self.t = now


class RackReader:
    """Reads tiles from photos; the models load on first use and are kept."""

    def __init__(self, folder: str | Path | None = None, prefer_onnx: bool | None = None,
                 config: ReaderConfig | None = None, parallel: int | None = None,
                 calibration: Calibration | str | Path | bool = True):
        """``calibration``: True reads with the player's calibration file
        (:func:`~okey_vision.vision.calibration.calibration_path`), a path
        with that file (either is looked at before each read: a new fit is
        used from the next read, a removed one no more), a
        :class:`~okey_vision.vision.calibration.Calibration` with that one,
        False with none (the shipped networks alone)."""
        self.folder = Path(folder) if folder else models_dir()
        if prefer_onnx is None:
            prefer_onnx = os.environ.get("OKEY_VISION_BACKEND", "onnx") != "torch"
        self.prefer_onnx = prefer_onnx
        self.config = config or DEFAULT
        self._lock = threading.Lock()
        self._nets: dict[str, Net] = {}
        # Reads admitted at once ($OKEY_VISION_PARALLEL, default 1): more
        # callers queue. On a small CPU, reads side by side only share the
        # cores while each holds its own buffers (benchmarks/read_load.py).
        self.parallel = max(1, parallel or env_int("OKEY_VISION_PARALLEL", 1))
        self._slots = threading.BoundedSemaphore(self.parallel)
        self._cal_lock = threading.Lock()
        self._cal_file: Path | None = None
        self._cal: Calibration | None = calibration if isinstance(calibration, Calibration) else None
        if calibration is True:
            try:
                self._cal_file = calibration_path()
            except ImportError:  # platformdirs missing (an older install): read as shipped
                self._cal_file = None
        elif isinstance(calibration, (str, Path)):
            self._cal_file = Path(calibration)
        self._cal_stamp: tuple[int, int] | None = None
        self._models_key = ""
        #: Why the calibration file is not used ('' when it is, or when there is none).
        self.calibration_problem = ""

    # -- models ------------------------------------------------------------------------
    def net(self, stem: str) -> Net:
        """The loaded network ``stem`` (detector, number, color, ...)."""
        with self._lock:
            if stem not in self._nets:
                self._nets[stem] = Net(stem, self.folder, self.prefer_onnx)
            return self._nets[stem]

    def has_net(self, stem: str) -> bool:
        """Whether the model folder holds network ``stem``."""
        return any((self.folder / f"{stem}{ext}").exists() for ext in (".onnx", ".pt"))

    @property
    def stems(self) -> tuple[str, ...]:
        """The networks this reader runs: the three it needs, and the view and upright ones the folder has."""
        return STEMS + tuple(s for s in (VIEW, AXIS, STRIP) if self.has_net(s))

    def load(self) -> RackReader:
        """Load every model now (otherwise the first read does it)."""
        for stem in self.stems:
            self.net(stem)
        return self

    @property
    def backends(self) -> dict[str, str]:
        """Each model's runtime: {'detector': 'onnx', 'number': 'onnx', ...}."""
        return {stem: self.net(stem).kind for stem in self.stems}

    @property
    def backend(self) -> str:
        """'onnx' or 'torch' when every model runs on it, else 'mixed'."""
        kinds = set(self.backends.values())
        return kinds.pop() if len(kinds) == 1 else "mixed"

    def detector(self, stem: str) -> Detector:
        """Network ``stem`` as a :class:`~okey_vision.vision.detect.Detector`."""
        return Detector(self.net(stem), self.config.detect)

    @property
    def classifier(self) -> Classifier:
        """The number and colour networks as a :class:`~okey_vision.vision.classify.Classifier`
        (with the player's calibration, when there is one)."""
        return Classifier(self.net("number"), self.net("color"), self.config.classify, self.config.crop,
                          self.calibration)

    # -- the player's own tile set ----------------------------------------------------------
    @property
    def models_key(self) -> str:
        """The fingerprint of the classifier files a calibration must be fitted for."""
        if not self._models_key:
            self._models_key = models_key([self.net(stem).path for stem in CLASSIFIERS])
        return self._models_key

    @property
    def calibration(self) -> Calibration | None:
        """The calibration this reader reads with (None: the shipped networks
        alone). A calibration file is looked at (its size and time) each
        time: a new fit is used from the next read, a removed one no more."""
        if not self.config.classify.calibration:
            return None
        if self._cal_file is None:
            return self._cal
        try:
            st = self._cal_file.stat()
            stamp: tuple[int, int] | None = (st.st_mtime_ns, st.st_size)
        except OSError:
            stamp = None
        with self._cal_lock:
            if stamp != self._cal_stamp:
                self._cal_stamp = stamp
                self._cal, self.calibration_problem = self._load_calibration() if stamp else (None, "")
            return self._cal

    def _load_calibration(self) -> tuple[Calibration | None, str]:
        """The calibration file, if it can be used; else None and why (a
        damaged file is set aside: the shipped networks read, and it is said once)."""
        assert self._cal_file is not None
        try:
            cal = load_or_set_aside(self._cal_file)
        except CalibrationError as exc:
            log.warning("calibration not used: %s; the reader reads as shipped.", exc)
            if isinstance(exc, DamagedCalibration) and exc.fields.get("aside"):
                self._cal_stamp = None  # set aside: the next look finds no file, and why is still said
            return None, str(exc)
        if cal.models != self.models_key:
            why = f"{self._cal_file}: fitted for other models; fit it again (okey-vision calibrate fit)"
            log.warning("calibration not used: %s; the reader reads as shipped.", why)
            return None, why
        return cal, ""

    def with_calibration(self, calibration: Calibration | str | Path | bool) -> RackReader:
        """The same reader (its loaded networks shared) reading with ``calibration`` instead."""
        other = RackReader(self.folder, self.prefer_onnx, self.config, self.parallel, calibration)
        other._nets, other._lock = self._nets, self._lock
        return other

    # -- stages 1-4: where the tiles are ---------------------------------------------------
    def detect(self, img: np.ndarray) -> list[Detection]:
        """Every tile found in a BGR photo (corners in its pixels): stages 1 to 4."""
        return list(self._detect(img)[2])

    def _detect(self, img: np.ndarray) -> tuple[Look, View | None, list[Detection], RackPose | None]:
        """Stages 1-4: the first look; the view read once; the view made again
        when its boxes say the look's pose was off (or find a rack where the
        look saw none) or lie on an edge where the view cut the photo; the
        view's other passes; the detections in photo px and their pose."""
        cfg = self.config.normalise
        seen = look(img, self.detector(ORIENTED), self.config.look)
        if seen.pose is None:
            return seen, None, [], None
        det = self.view_detector
        view = normalise(img, seen.pose, cfg, _corners(seen.detections))
        first = det(view.image)
        back = view.inverse
        mapped = [d.mapped(back) for d in first]
        better = estimate_pose([d.quad for d in mapped], cfg)
        if better is not None and ((better.aligned and (not seen.pose.aligned or _departs(better, seen.pose, cfg)))
                                   or view.cuts([d.quad for d in first])):
            view = normalise(img, better, cfg, _corners(mapped))
            first = det(view.image)
        found = self.detect_view(view, first, mirror=self._needs_mirror(view, first))
        return seen, view, found, estimate_pose([d.quad for d in found], cfg)

    def _needs_mirror(self, view: View, first: Sequence[Detection]) -> bool:
        """Whether the view is read mirrored too: not for a level, close rack
        whose first pass is sure of every box, with ``DetectConfig.one_pass``
        on (``DetectConfig.one_pass_*``)."""
        cfg = self.config.detect
        pose = view.pose
        if not cfg.mirror:
            return False
        if not cfg.one_pass or pose is None or not pose.aligned or not first:
            return True
        level = abs((pose.angle + 90.0) % 180.0 - 90.0) <= cfg.one_pass_angle
        close = pose.tile_height >= cfg.one_pass_px
        sure = min(d.score for d in first) >= cfg.one_pass_score
        return not (level and close and sure)

    @property
    def view_detector(self) -> Detector:
        """The detector that reads the normalised view (``DetectConfig.view_stem``)."""
        stem = self.config.detect.view_stem
        return self.detector(stem if self.has_net(stem) else ORIENTED)

    def detect_view(self, view: View, first: list[Detection] | None = None, mirror: bool = True
                    ) -> list[Detection]:
        """The tiles on a normalised view: its first pass (``first``, when
        already read) and (``mirror`` and ``DetectConfig.mirror``) the mirrored
        one fused, leaning rows read again; corners mapped back onto the photo."""
        cfg = self.config
        det = self.view_detector
        found = det(view.image) if first is None else first
        if cfg.detect.mirror and mirror:
            found = dedupe(fuse_passes(found, det(view.image, mirror=True), cfg.fuse), cfg.detect)
        if cfg.fuse.rectify_rows:
            strips = next((s for s in (STRIP, AXIS) if self.has_net(s)), ORIENTED)
            found = rectify_rows(view.image, found, self.detector(strips), cfg.fuse, cfg.detect, cfg.rectify)
        back = view.inverse
        return [d.standing(cfg.detect.squarish).mapped(back) for d in found]

    # -- stages 5-7: what they are ----------------------------------------------------------
    def read(self, image: np.ndarray, *, bgr: bool = True, indicator: Tile | str | None = None,
             consistent: bool = True) -> list[TileRead]:
        """Every tile in a photo, in rack order (see :func:`read_rack`).

        Thread-safe: one reader serves every caller (the app shares it across
        players); at most ``parallel`` reads run at once, the others wait."""
        return self.read_traced(image, bgr=bgr, indicator=indicator, consistent=consistent)[0]

    def read_traced(self, image: np.ndarray, *, bgr: bool = True, indicator: Tile | str | None = None,
                    consistent: bool = True) -> tuple[list[TileRead], ReadTrace]:
        """:meth:`read`, and the :class:`~okey_vision.vision.trace.ReadTrace` of what each stage found."""
        with self._slots:
            try:
                return self._read(as_bgr(image, bgr), indicator, consistent)
            finally:
                release_memory()

    def _read(self, img: np.ndarray, indicator: Tile | str | None, consistent: bool
              ) -> tuple[list[TileRead], ReadTrace]:
        cfg, clock = self.config, _Clock()
        seen, view, found, pose = self._detect(img)
        clock("detect")
        h, w = img.shape[:2]
        uncut = drop_cut_tiles(found, w, h, cfg.fuse.min_visible)
        work, to_work = work_image(img, [d.quad for d in uncut], pose.tile_height if pose else 0.0,
                                   cfg.crop.work_tile_height)
        local = [d.mapped(to_work) for d in uncut]
        ink = (have_ink(work, [d.quad for d in local], cfg.crop.ink_share, cfg.crop.ink_distance)
               if cfg.crop.drop_blanks else [True] * len(local))
        inked = [d for d, k in zip(uncut, ink, strict=True) if k]
        local = [d for d, k in zip(local, ink, strict=True) if k]
        fitted = self._fit(work, local)
        clock("crop")
        also = [f if f is not None and refine.shift(f, d.quad) >= cfg.crop.refined_shift else None
                for d, f in zip(local, fitted, strict=True)]
        faces = self.classifier(work, [d.quad for d in local], also)
        keep = faces.probs.max(1) >= cfg.classify.no_face if len(faces) else np.zeros(0, bool)
        faced = [d for d, k in zip(inked, keep, strict=True) if k]
        back = cv2.invertAffineTransform(to_work)
        faces = faces.keep(keep).mapped(back)
        fitted = [None if f is None else f @ back[:, :2].T + back[:, 2] for f, k in zip(fitted, keep, strict=True) if k]
        clock("classify")
        reads, rack = self._reads(img, faces, fitted, [d.score for d in faced], indicator, consistent)
        clock("order")
        trace = ReadTrace(seen, view, pose, tuple(found), tuple(uncut), tuple(inked), tuple(faced), tuple(clock.laps),
                          rack)
        return reads, trace

    def _fit(self, img: np.ndarray, dets: list[Detection]) -> list[np.ndarray | None]:
        """Each oriented detection's corners fitted to its face's edges (None: not moved)."""
        if not self.config.crop.refine:
            return [None] * len(dets)
        oriented = [i for i, d in enumerate(dets) if d.oriented]
        out: list[np.ndarray | None] = [None] * len(dets)
        for i, (q, moved) in zip(oriented, refine.refine_all(img, [dets[i].quad for i in oriented],
                                                            self.config.refine), strict=True):
            out[i] = q if moved else None
        return out

    def _reads(self, img: np.ndarray, faces: FaceReads, fitted: list[np.ndarray | None], scores: list[float],
               indicator: Tile | str | None, consistent: bool) -> tuple[list[TileRead], bool]:
        """The reads of the kept detections: corners, ranked faces, flags, rows
        and rack order; none when no rack shows (:mod:`~okey_vision.vision.rack`),
        and whether one does."""
        cfg = self.config
        h, w = img.shape[:2]
        grey = is_greyscale(img)
        reason = GREYSCALE_REASON if grey else ""
        reads = []
        # each box's score next to the photo's median box: a photo framed far or lit dim scores every box lower
        typical = float(np.median(scores)) if scores else 1.0
        for p, q, f, t, s in zip(faces.probs, faces.quads, fitted, faces.turn, scores, strict=True):
            if cfg.crop.report_refined and f is not None:  # the tile's own outline, turned the way it was read
                q = grown(aligned(f, q), cfg.crop.grow_tall, cfg.crop.grow_wide)
            top = np.argsort(-p)[:cfg.classify.top_k]
            alts = tuple((TILES[i], float(p[i])) for i in top)
            x1, y1, x2, y2 = (round(v, 1) for v in on_photo(q, w, h))
            reads.append(TileRead(box=(x1, y1, x2, y2), tile=alts[0][0],
                                  confidence=alts[0][1], alternatives=alts,
                                  quad=rounded(q),
                                  reason=reason, turn=None if np.isnan(t) else round(float(t), 3),
                                  detection=round(float(s) / max(typical, 1e-6), 3)))
        racks = on_racks(fit_rows(assign_rows(reads, cfg.order), cfg.geometry, (w, h), img), cfg.rack, not grey)
        reads = list(racks.reads)
        if consistent:
            reads = decide(reads, indicator, cfg.decide)
        return [_flagged(r, i, cfg.flags) for i, r in enumerate(rack_order(reads))], racks.rack

    def read_photo(self, photo: Photo, *, indicator: Tile | str | None = None,
                   consistent: bool = True) -> list[TileRead]:
        """Every tile in a decoded :class:`~okey_vision.vision.io.Photo`, boxes
        in the *input's* pixels (whatever shrinking the decoding did)."""
        reads = self.read(photo.image, indicator=indicator, consistent=consistent)
        return [r.scaled(1 / photo.scale) for r in reads]


def _flagged(r: TileRead, order: int, rule: FlagConfig) -> TileRead:
    """A read with its place in rack order and its flag, the flag's cause beyond its confidence in its reason."""
    why = rule.why(r.confidence, r.turn, r.detection)
    reason = f"{r.reason}; {why}" if r.reason and why else r.reason or why
    return replace(r, order=order, flagged=rule.flag(r.confidence, r.turn, r.detection), reason=reason)


def _corners(dets: Sequence[Detection]) -> np.ndarray:
    """Every corner of the detections, (4n, 2)."""
    return np.concatenate([d.quad for d in dets]) if dets else np.zeros((0, 2))


def _departs(pose: RackPose, first: RackPose, cfg: NormaliseConfig) -> bool:
    """Whether ``pose`` departs from ``first`` by more than the settling bounds."""
    turn = abs((pose.angle - first.angle + 90.0) % 180.0 - 90.0)
    return turn > cfg.settle_angle or abs(pose.tile_height / first.tile_height - 1.0) > cfg.settle_size


@cache
def default_reader() -> RackReader:
    """The process-wide reader (models loaded once, lazily)."""
    return RackReader()


def read_rack(image: np.ndarray | str | Path, *, bgr: bool = True,
              indicator: Tile | str | None = None, consistent: bool = True) -> list[TileRead]:
    """Every face-up tile in a photo: corners and box (input pixels), tile,
    confidence, ranked alternatives and rack row, ordered rows top to bottom
    and tiles left to right. ``image`` is a BGR (``bgr=True``) or RGB numpy
    array, or a path. A photo without tiles gives ``[]``. The reads obey the
    tile set (at most two of a face, one if ``indicator`` is given and not in
    the photo, at most two false jokers); reads with ``low_confidence``
    should be confirmed by the player."""
    if indicator is not None:
        indicator = parse_tile(indicator)
    if isinstance(image, (str, Path)):
        return default_reader().read_photo(load_photo(image), indicator=indicator, consistent=consistent)
    return default_reader().read(image, bgr=bgr, indicator=indicator, consistent=consistent)


__all__ = ["CLASSIFIERS", "DEFAULT_MODELS", "ImageError", "ModelMissingError", "RackReader", "STEMS",
           "default_reader",
           "face_probs", "models_dir", "read_rack"]
