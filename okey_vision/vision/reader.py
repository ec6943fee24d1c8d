"""The tile reader: photo -> every face-up tile with its colour and number.

Two stages, YOLO11n networks trained here (see :mod:`okey_vision.vision.train`
and ``models/README.md``):

1. detectors find the tiles on a copy of the photo shrunk once (INTER_AREA):
   ``detector_axis`` (upright boxes) first; when most of its boxes stand like
   upright tiles they are kept, else the oriented ``detector`` (ultralytics
   OBB: each tile's four corners) reads the photo -- a tilted rack, a side
   view; when the boxes are only a little taller than wide, both are read and
   the surer reading is kept;
2. each tile is cut *upright* from its corners in the full-resolution photo
   (:mod:`okey_vision.vision.crops`, shared with training), read both ways
   up (0 and 180 degrees; a rack's tiles share one way up), and two small
   classifiers read the number (``1``..``13``, ``fj``) and, on the crop
   white-balanced on the tile's cream face, the colour (``r y b k``, ``fj``).

The two distributions combine into a probability for each of the 53 faces;
:func:`okey_vision.vision.consistency.make_consistent` then makes the reads
obey the tile set, and the reads are grouped into rack rows along the rack's
own axis (top tier first, then along the rack; a lone tile away from the
rows is ``APART``). On a greyscale photo every read is flagged with a reason.

The models load once, lazily. ONNX files (``models/*.onnx``) are preferred
when onnxruntime is importable (faster on CPU, no torch import); otherwise
the ``.pt`` weights run with torch. Set ``OKEY_VISION_MODELS`` to use
another folder.
"""
from __future__ import annotations

import os
import threading
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Sequence

import numpy as np

from okey_vision.errors import ImageError
from okey_vision.tiles import TILES, Tile, parse_tile
from okey_vision.vision.consistency import make_consistent
from okey_vision.vision.crops import (COLOR_CLASSES, NUMBER_CLASSES, aligned, box_quad, cluster_inks, have_ink,
                                      ink_feature, is_greyscale, obb_quad, quad_axes, turned,
                                      upright_crop, upright_quad, white_balance_all)
from okey_vision.vision.io import Photo, as_bgr, load_photo
from okey_vision.vision.memory import release_memory
from okey_vision.vision.nets import DEFAULT_MODELS, STEMS, ModelMissingError, Net, env_int, models_dir
from okey_vision.vision.reads import TileRead, rack_order
from okey_vision.vision import rectify, refine
from okey_vision.vision.rows import assign_rows, common_axis

#: Classifier input size (crops are square, padded with the tile's median colour).
CROP_SIZE = 64
#: Margin added around a detector box before cropping (fraction of the box).
CROP_MARGIN = 0.08
#: Crops read per tile (margins), their distributions averaged: measured +5
#: points per-tile accuracy on the real held-out photos, +1 on synthetic.
CROP_MARGINS = (0.03, 0.08, 0.14)
#: Margins of the upright crops read per tile (their distributions averaged).
UPRIGHT_MARGINS = (0.05, 0.12)
#: Margins of the crops cut from a tile's refined corners (``REFINE_CORNERS``),
#: read besides the detected corners' crops and averaged with them.
REFINED_MARGINS = (0.12,)
#: A tile is read again from its refined corners only if they moved this much
#: (mean corner shift over the tile's height; the classifiers were trained
#: with corners moved by up to 4 %): the others would read the same.
REFINED_SHIFT = 0.08
#: The colour classifier reads white-balanced crops (the face made neutral);
#: it must match how ``color`` was trained (``okey_vision.vision.train``).
COLOR_WHITE_BALANCE = True
#: A tile's own 0/180 evidence (log ratio of its best face probability read
#: both ways) that overrides its rack's common orientation.
OWN_TURN_EVIDENCE = 2.5
#: Weight of the photo's ink cluster in a tile's colour (0: the tile alone).
#: Off: measured on the player-style validation renders (seed 9201) the
#: clusters cost colour accuracy (95.7 % vs 97.9 % with the tile alone).
CLUSTER_WEIGHT = 0.0
#: The upright (axis-aligned) detector, used when the photo's tiles stand upright.
AXIS_DETECTOR = "detector_axis"
#: The upright detector fine-tuned on rectified row strips (``RECTIFY_ROWS``);
#: without it the strips are read by ``AXIS_DETECTOR``.
STRIP_DETECTOR = "detector_strip"
#: A photo is read with the upright detector when this share of its boxes
#: are at least ``UPRIGHT_ASPECT`` times taller than wide (standing tiles).
#: Chosen on validation sets (never the held-out photos): the player-style
#: renders of seed 9201 (1.15: 67.2 %, 1.05: 61.5 % of tiles) and every
#: other real *training* photo (1.05 / 1.1 / 1.15: 98.4 / 98.0 / 98.3 %).
UPRIGHT_SHARE = 0.7
UPRIGHT_ASPECT = 1.15
#: Between this aspect and ``UPRIGHT_ASPECT`` (large tiles seen a little from
#: above, like the shared real Okey photo: boxes 1.12-1.26 x taller than wide)
#: the box shape cannot tell: the photo is read both ways and the reading with
#: the higher mean confidence is kept. Measured on the player-style validation
#: renders (seed 9201, 60 photos; 9 fall in the band) and every real training
#: photo (19 in the band): no change on either (73.7 % / 98.8 % of tiles), and
#: the shared Okey photo takes the upright path (mean confidence 0.75 vs 0.68).
AMBIGUOUS_ASPECT = 1.05
#: Oriented detector input (long side, px; trained at 320 with scale
#: augmentation). Chosen on the player-style validation renders (seed 9201,
#: 20 photos): 320 px 61.8 %, 416 px 67.0 %, 480 px 69.0 % of tiles but more
#: false reads; 416 keeps the photo-to-reads time low.
DETECT_SIZE: int | None = 416
#: Read the photo with the oriented detector twice, as it is and mirrored left
#: to right, and fuse the two passes' boxes (``fuse_passes``): a box both
#: passes find gets their corners averaged (weighted by confidence), which
#: sits the box better on its tile. On the player-style validation renders
#: (seed 9201) the classifiers read 98.7 % of the oriented boxes that overlap
#: their tile by IoU >= 0.8 right and 41.8 % of those under 0.5: the box, not
#: the classifier, makes most wrong reads. Costs one more detector pass.
FLIP_FUSE = True
#: Fusing: boxes of the two passes at least this IoU apart are one tile...
FUSE_IOU = 0.5
#: ... and a box only one pass found is kept from this confidence. Chosen on
#: the validation renders and the real training photos (models/README.md).
FUSE_SINGLE = 0.5
#: Read each leaning rack row again, warped level and square-on
#: (``okey_vision.vision.rectify``), and fuse those boxes with the first
#: pass's (``fuse_rectified``). Chosen on the player-style validation renders
#: (seed 9201) and the real training photos: see models/README.md.
RECTIFY_ROWS = True
#: Fusing: a rectified box and a first-pass box overlapping by more than this
#: IoU are one tile (their corners averaged, weighted by confidence)...
RECTIFIED_IOU = 0.3
#: ... and a rectified box overlapping none is kept from this confidence.
RECTIFIED_NEW = 0.5
#: Two boxes found on overlapping chunks of one strip overlapping by more
#: than this IoU are one tile (the surer kept).
RECTIFIED_SAME_IOU = 0.4
#: Drop detections whose upright crop shows no ink (``crops.ink_feature``):
#: blank / face-down tiles, which the upright detector was never taught.
DROP_BLANKS = True
#: A detection whose best face (after reading both ways up) is below this
#: probability shows no numeral the classifiers know (a checked cloth, a coin,
#: a tile's back): it is not reported. Chosen on the player-style validation
#: renders (seed 9201): see models/README.md.
NO_FACE = 0.2
#: Fit each oriented detection's corners to its face's edges before the
#: classifiers read it (``okey_vision.vision.refine``); upright boxes are kept.
REFINE_CORNERS = os.environ.get("OKEY_VISION_REFINE", "1") != "0"
#: Why every read of a greyscale photo is flagged.
GREYSCALE_REASON = "greyscale photo: tile colours cannot be read"
#: Alternatives kept per read.
TOP_K = 5
#: Tiles shorter than this at the detector's size trigger a second, larger pass...
SMALL_TILE_PX = 16.0
#: ... sized so the tiles become about this tall.
ZOOM_TILE_PX = 30.0


@dataclass
class Detection:
    """A detector box in input pixels, its score and the tile's corners."""

    box: tuple[float, float, float, float]
    score: float
    quad: np.ndarray | None = None   # 4 x 2 face corners (oriented detector), input pixels


class RackReader:
    """Reads tiles from photos; models load on first use and are kept."""

    def __init__(self, folder: str | Path | None = None, prefer_onnx: bool | None = None,
                 conf: float = 0.35, iou: float = 0.5, max_tiles: int = 120, max_size: int = 960,
                 inner: float = 0.6, margins: Sequence[float] = CROP_MARGINS,
                 cluster_weight: float | None = None, parallel: int | None = None):
        self.folder = Path(folder) if folder else models_dir()
        if prefer_onnx is None:
            prefer_onnx = os.environ.get("OKEY_VISION_BACKEND", "onnx") != "torch"
        self.prefer_onnx = prefer_onnx
        self.conf = conf
        self.iou = iou
        self.max_tiles = max_tiles
        self.max_size = max_size
        self.inner = inner
        self.margins = tuple(margins)
        self.cluster_weight = CLUSTER_WEIGHT if cluster_weight is None else cluster_weight
        self._lock = threading.Lock()
        self._nets: dict[str, Net] = {}
        # Reads admitted at once (``$OKEY_VISION_PARALLEL``, default 1): more
        # callers queue. On a small CPU, reads side by side only share the
        # cores (no more reads per second) while each holds its own buffers;
        # measured in benchmarks/read_load.py.
        self.parallel = max(1, parallel or env_int("OKEY_VISION_PARALLEL", 1))
        self._slots = threading.BoundedSemaphore(self.parallel)

    # -- models ---------------------------------------------------------------
    def net(self, stem: str) -> Net:
        """The loaded network ``stem`` (detector, number, color)."""
        with self._lock:
            if stem not in self._nets:
                self._nets[stem] = Net(stem, self.folder, self.prefer_onnx)
            return self._nets[stem]

    def load(self) -> RackReader:
        """Load every model now (otherwise the first read does it)."""
        for stem in self.stems:
            self.net(stem)
        return self

    @property
    def stems(self) -> tuple[str, ...]:
        """The networks this reader runs: the shipped three, and the upright
        and strip detectors when the model folder has them."""
        return STEMS + tuple(s for s in (AXIS_DETECTOR, STRIP_DETECTOR) if self.has_net(s))

    @property
    def backends(self) -> dict[str, str]:
        """Each model's runtime: {'detector': 'onnx', 'number': 'onnx', ...}."""
        return {stem: self.net(stem).kind for stem in self.stems}

    @property
    def backend(self) -> str:
        """'onnx' or 'torch' when every model runs on it, else 'mixed'."""
        kinds = set(self.backends.values())
        return kinds.pop() if len(kinds) == 1 else "mixed"

    # -- stage 1 ----------------------------------------------------------------
    def has_net(self, stem: str) -> bool:
        """Whether the model folder holds network ``stem`` (.onnx or .pt)."""
        return any((self.folder / f"{stem}{ext}").exists() for ext in (".onnx", ".pt"))

    def detect(self, img: np.ndarray) -> list[Detection]:
        """Tile boxes (input pixels) found in a BGR image, with corners when the
        detector is oriented.

        With both detectors shipped (``detector``: oriented; ``detector_axis``:
        upright boxes, the earlier detector, surer on upright racks and real
        tables), the upright one looks first; when most of its boxes stand
        like upright tiles (``upright_photo``) they are kept, else the
        oriented detector reads the photo (a tilted rack, a side view).

        The photo is shrunk once to the detector's size; when the tiles found
        are tiny there (a table strewn with many small tiles), it is detected
        again at a larger size so the tiles get about ``ZOOM_TILE_PX`` tall."""
        return self.detect_candidates(img)[0]

    def detect_candidates(self, img: np.ndarray) -> list[list[Detection]]:
        """The tile boxes of :meth:`detect`, or, when the upright boxes are
        only a little taller than wide (``AMBIGUOUS_ASPECT``..``UPRIGHT_ASPECT``),
        both detectors' boxes (upright first): the reader keeps the surer reading."""
        cands = self._first_candidates(img)
        if RECTIFY_ROWS:  # the last reading is the oriented detector's whenever it ran
            cands[-1] = self.rectify_rows(img, cands[-1])
        return cands

    def _first_candidates(self, img: np.ndarray) -> list[list[Detection]]:
        if self.has_net(AXIS_DETECTOR):
            dets = self._detect_with(AXIS_DETECTOR, img)
            if upright_photo(dets):
                return [dets]
            if upright_photo(dets, AMBIGUOUS_ASPECT):
                return [dets, self._detect_with("detector", img)]
        return [self._detect_with("detector", img)]

    def rectify_rows(self, img: np.ndarray, dets: list[Detection]) -> list[Detection]:
        """``dets`` with every leaning rack row read again warped level and
        square-on (``okey_vision.vision.rectify``) by the strip detector (or
        the upright one), the boxes found there fused in (:func:`fuse_rectified`)."""
        if len(dets) < 3:
            return dets
        quads = [upright_quad(d.quad if d.quad is not None else box_quad(d.box)) for d in dets]
        strips = rectify.row_strips(img, quads)
        if not strips:
            return dets
        stem = next((s for s in (STRIP_DETECTOR, AXIS_DETECTOR) if self.has_net(s)), "detector")
        h, w = img.shape[:2]
        rows = [rs for rs, _ in strips]
        found = []
        for canvas, places in rectify.canvases([im for _, im in strips]):
            for d in self._detect_at(canvas, rectify.CANVAS, stem)[0]:
                q = rectify.to_photo(d.quad if d.quad is not None else box_quad(d.box), places, rows)
                if q is not None:
                    found.append(quad_detection(q, d.score, w, h))
        # one tile seen on two overlapping chunks: the surer box
        found.sort(key=lambda d: -d.score)
        kept: list[Detection] = []
        for d in found:
            if all(quad_iou(d.quad, k.quad) <= RECTIFIED_SAME_IOU for k in kept):
                kept.append(d)
        if len(kept) > 1:
            idx = suppress_inner_quads({i: d.quad for i, d in enumerate(kept)},
                                       np.array([d.score for d in kept]), np.arange(len(kept)), self.inner)
            kept = [kept[i] for i in sorted(idx)]
        members = sorted({i for rs in rows for i in rs.members})
        fused = fuse_rectified(dets, quads, members, kept, w, h)
        if len(fused) > 1:
            keep = suppress_inner_quads({i: d.quad if d.quad is not None else box_quad(d.box)
                                         for i, d in enumerate(fused)},
                                        np.array([d.score for d in fused]), np.arange(len(fused)), self.inner)
            fused = [fused[i] for i in sorted(keep)]
        return fused

    def _detect_with(self, stem: str, img: np.ndarray) -> list[Detection]:
        net = self.net(stem)
        base = net.imgsz if isinstance(net.imgsz, int) else (net.imgsz or [320])[0]
        if stem == "detector" and DETECT_SIZE:
            base = DETECT_SIZE
        dets, scale = self._detect_fused(img, base, stem)
        if dets:
            med_h = float(np.median([d.box[3] - d.box[1] for d in dets])) * scale
            if med_h < SMALL_TILE_PX:
                size = min(self.max_size, int(np.ceil(base * ZOOM_TILE_PX / med_h / 32)) * 32)
                if size > base and size < max(img.shape[:2]) * 1.5:
                    dets, _ = self._detect_fused(img, size, stem)
        return dets

    def _detect_fused(self, img: np.ndarray, size: int, stem: str) -> tuple[list[Detection], float]:
        """:meth:`_detect_at`, and for the oriented detector (``FLIP_FUSE``) also
        on the photo mirrored left to right, the two passes' boxes fused."""
        shrunk = self._shrink(img, size)  # both passes read the same shrunk photo
        dets, scale = self._detect_at(img, size, stem, shrunk=shrunk)
        if stem != "detector" or not FLIP_FUSE or not dets or dets[0].quad is None:
            return dets, scale
        mirrored, _ = self._detect_at(img, size, stem, mirror=True, shrunk=shrunk)
        fused = fuse_passes(dets, mirrored, img.shape[1], img.shape[0])
        if len(fused) > 1:  # a fused box may now straddle two surer ones
            quads = {i: d.quad for i, d in enumerate(fused)}
            keep = suppress_inner_quads(quads, np.array([d.score for d in fused]),
                                        np.arange(len(fused)), self.inner)
            fused = [fused[i] for i in sorted(keep)]
        return fused, scale

    @staticmethod
    def _shrink(img: np.ndarray, size: int) -> tuple[np.ndarray, float]:
        """The photo shrunk so its long side is ``size``, and the scale used."""
        h, w = img.shape[:2]
        s = size / max(h, w)
        return fast_resize(img, max(1, round(w * s)), max(1, round(h * s))), s

    def _detect_at(self, img: np.ndarray, size: int, stem: str = "detector", mirror: bool = False,
                   shrunk: tuple[np.ndarray, float] | None = None) -> tuple[list[Detection], float]:
        """Detections at one input size (long side ``size``) and the scale used;
        ``mirror``: on the photo mirrored left to right, boxes mapped back;
        ``shrunk``: :meth:`_shrink`'s result when already at hand."""
        import cv2

        net = self.net(stem)
        h, w = img.shape[:2]
        small, s = shrunk or self._shrink(img, size)
        nh, nw = small.shape[:2]
        if mirror:
            small = small[:, ::-1]
        if net.kind == "onnx" and not net.dynamic:
            ch = cw = size
        else:  # rectangular: pad to multiples of 32 only
            ch, cw = int(np.ceil(nh / 32) * 32), int(np.ceil(nw / 32) * 32)
        canvas = np.full((ch, cw, 3), 114, np.uint8)
        oy, ox = (ch - nh) // 2, (cw - nw) // 2
        canvas[oy:oy + nh, ox:ox + nw] = small
        x = canvas[:, :, ::-1].transpose(2, 0, 1)[None].astype(np.float32) / 255.0
        y = net(np.ascontiguousarray(x))[0]  # (4 + nc [+ 1 angle], anchors)
        nc = max(1, len(net.names))
        if y.shape[0] == 4 + nc + 1:  # oriented boxes: centre, size, classes, angle
            dets = self._obb_dets(y, nc, s, ox, oy, w, h)
            return ([mirrored_detection(d, w, h) for d in dets] if mirror else dets), s
        scores = y[4:].max(0)
        keep = scores >= self.conf
        if not keep.any():
            return [], s
        xywh, sc = y[:4, keep].T, scores[keep]
        boxes = np.stack([xywh[:, 0] - xywh[:, 2] / 2, xywh[:, 1] - xywh[:, 3] / 2,
                          xywh[:, 2], xywh[:, 3]], 1)
        idx = cv2.dnn.NMSBoxes(boxes.tolist(), sc.astype(float).tolist(), self.conf, self.iou)
        idx = suppress_inner(boxes, sc, np.array(idx, dtype=int).reshape(-1), self.inner)[: self.max_tiles]
        out = []
        for i in idx:
            bx, by, bw, bh = boxes[i]
            x1 = float(np.clip((bx - ox) / s, 0, w))
            y1 = float(np.clip((by - oy) / s, 0, h))
            x2 = float(np.clip((bx + bw - ox) / s, 0, w))
            y2 = float(np.clip((by + bh - oy) / s, 0, h))
            if x2 - x1 >= 2 and y2 - y1 >= 2:
                out.append(Detection((x1, y1, x2, y2), float(sc[i])))
        return out, s

    def _obb_dets(self, y: np.ndarray, nc: int, s: float, ox: int, oy: int, w: int, h: int
                  ) -> list[Detection]:
        """Oriented detections: rotated NMS, then corners mapped to input pixels."""
        import cv2

        scores = y[4:4 + nc].max(0)
        keep = scores >= self.conf
        if not keep.any():
            return []
        xywh, sc, ang = y[:4, keep].T, scores[keep], y[4 + nc, keep]
        fit = not_outsized(xywh[:, 2] * xywh[:, 3])
        xywh, sc, ang = xywh[fit], sc[fit], ang[fit]
        rects = [((float(a), float(b)), (float(c), float(d)), float(np.degrees(t)))
                 for (a, b, c, d), t in zip(xywh, ang)]
        idx = np.array(cv2.dnn.NMSBoxesRotated(rects, sc.astype(float).tolist(), self.conf, self.iou),
                       dtype=int).reshape(-1)
        quads = {int(i): obb_quad(*xywh[i], ang[i]) for i in idx}
        idx = suppress_inner_quads(quads, sc, idx, self.inner)[: self.max_tiles]
        out = []
        for i in idx:
            d = quad_detection((quads[i] - [ox, oy]) / s, float(sc[i]), w, h)
            x1, y1, x2, y2 = d.box
            if x2 - x1 >= 2 and y2 - y1 >= 2:
                out.append(d)
        return out

    # -- stage 2 ----------------------------------------------------------------
    def classify(self, img: np.ndarray, boxes: Sequence) -> np.ndarray:
        """Probabilities over the 53 faces (``TILES`` order) for each box
        (x1, y1, x2, y2) or quad (4 corners), each read the surer way up."""
        probs, _ = self.read_tiles(img, [box_quad(b) if np.size(b) == 4 else np.asarray(b)
                                         for b in boxes])
        return probs

    def read_tiles(self, img: np.ndarray, quads: Sequence[np.ndarray], group: bool = True,
                   also: Sequence[np.ndarray | None] | None = None, details: dict | None = None
                   ) -> tuple[np.ndarray, list[np.ndarray]]:
        """(face probabilities (n, 53), each quad turned the way it was read).

        Every tile is cut upright from its quad and read both ways up (0 and
        180 degrees). Tiles lying along the photo's common axis (a rack) share
        one way up, decided by their summed evidence, unless a tile's own
        evidence is strong (``OWN_TURN_EVIDENCE``); other tiles decide alone.
        ``also``: a second quad per tile or None (its refined corners), read
        too (``REFINED_MARGINS``) and averaged with the first. ``details``, if
        given, receives ``turn`` (n,): each tile's own 0/180 evidence (nats)."""
        n = len(quads)
        if n == 0:
            return np.zeros((0, len(TILES))), []
        qs = [upright_quad(q) for q in quads]
        extra = [i for i in range(n) if also is not None and also[i] is not None]
        rq = [aligned(upright_quad(also[i]), qs[i]) for i in extra]
        cut = [(q, m) for m in UPRIGHT_MARGINS for q in qs + [turned(q) for q in qs]]
        cut += [(q, m) for m in REFINED_MARGINS for q in rq + [turned(q) for q in rq]] if extra else []
        crops = [upright_crop(img, q, margin=m) for q, m in cut]
        k, ke = len(UPRIGHT_MARGINS), len(REFINED_MARGINS)
        pn_all = self._class_probs("number", crops, list(NUMBER_CLASSES))
        if COLOR_WHITE_BALANCE:
            crops = white_balance_all(crops)
        pc_all = self._class_probs("color", crops, list(COLOR_CLASSES))
        split = k * 2 * n
        # per view: number (2n, 14) both ways up, colour (n, 5) both ways alike
        pn = pn_all[:split].reshape(k, 2 * n, -1).mean(0)
        pc = pc_all[:split].reshape(k, 2, n, -1).mean((0, 1))
        if self.cluster_weight > 0 and n >= 2:
            pc = cluster_colours(pc, [ink_feature(c) for c in crops[:n]], self.cluster_weight)
        if extra:  # the refined corners' reads averaged in, view for view
            m = len(extra)
            pn_e = pn_all[split:].reshape(ke, 2 * m, -1).mean(0)
            pc_e = pc_all[split:].reshape(ke, 2, m, -1).mean((0, 1))
            rows = np.array(extra + [i + n for i in extra])
            pn[rows] = (k * pn[rows] + ke * pn_e) / (k + ke)
            pc[extra] = (k * pc[extra] + ke * pc_e) / (k + ke)
        pf = face_probs(pn, np.concatenate([pc, pc]))
        p0, p180 = pf[:n], pf[n:]
        d = np.log(p0.max(1)) - np.log(p180.max(1))  # > 0: upright as cut
        flip = d < 0
        if group and n >= 3:
            axis, members = common_axis(qs)
            if axis is not None and len(members) >= 3:
                vote = float(d[members].sum())
                for i in members:
                    if abs(d[i]) < OWN_TURN_EVIDENCE:
                        flip[i] = vote < 0
        probs = np.where(flip[:, None], p180, p0)
        if details is not None:
            details["turn"] = np.abs(d)
        chosen = [turned(q) if f else q for q, f in zip(qs, flip)]
        return probs, chosen

    def _class_probs(self, stem: str, crops: list[np.ndarray], order: list[str]) -> np.ndarray:
        import cv2

        net = self.net(stem)
        size = net.imgsz if isinstance(net.imgsz, int) else (net.imgsz or [CROP_SIZE])[0]
        if size != CROP_SIZE:
            crops = [cv2.resize(c, (size, size), interpolation=cv2.INTER_AREA) for c in crops]
        x = np.ascontiguousarray(np.stack(crops)[:, :, :, ::-1].transpose(0, 3, 1, 2)).astype(np.float32) / 255.0
        p = net(x)
        cols = {name: i for i, name in net.names.items()}
        return p[:, [cols[n] for n in order]]

    # -- whole photo ------------------------------------------------------------
    def read(self, image: np.ndarray, *, bgr: bool = True, indicator: Tile | str | None = None,
             consistent: bool = True) -> list[TileRead]:
        """Every tile in a photo, in rack order (see :func:`read_rack`).

        Thread-safe: one reader serves every caller (the app shares it across
        players); at most ``parallel`` reads run at once, the others wait."""
        with self._slots:
            reads = self._read(image, bgr=bgr, indicator=indicator, consistent=consistent)
        release_memory()
        return reads

    def _read(self, image: np.ndarray, *, bgr: bool, indicator: Tile | str | None,
              consistent: bool) -> list[TileRead]:
        img = as_bgr(image, bgr)
        best: list[TileRead] = []
        best_conf = -1.0
        for dets in self.detect_candidates(img):
            reads = self._read_dets(img, dets, indicator, consistent)
            conf = float(np.mean([r.confidence for r in reads])) if reads else 0.0
            if conf > best_conf:  # ties: the first (upright) reading
                best, best_conf = reads, conf
        return best

    def _read_dets(self, img: np.ndarray, dets: list[Detection], indicator: Tile | str | None,
                   consistent: bool, trace: dict | None = None) -> list[TileRead]:
        """The reads of one detector's boxes, in rack order. ``trace``, if
        given, receives the detections left after each filter (``cut``,
        ``ink``, ``face``): for benchmarks/read_diagnose.py."""
        if not dets:
            return []
        dets = drop_cut_tiles(dets, img.shape[1], img.shape[0])
        if trace is not None:
            trace["cut"] = list(dets)
        quads = [d.quad if d.quad is not None else box_quad(d.box) for d in dets]
        if DROP_BLANKS:  # a blank (face-down) tile has no ink: never a read
            keep = have_ink(img, [upright_quad(q) for q in quads])
            dets = [d for d, k in zip(dets, keep) if k]
            quads = [q for q, k in zip(quads, keep) if k]
            if trace is not None:
                trace["ink"] = list(dets)
            if not dets:
                return []
        fitted = None
        if REFINE_CORNERS and any(d.quad is not None for d in dets):
            # the oriented detector's rectangles fitted to the faces' edges; a
            # tile whose corners hardly move is not read again
            fitted = [refine.refine(img, q)[0] if d.quad is not None else None for d, q in zip(dets, quads)]
            fitted = [f if f is not None and refine.shift(f, q) >= REFINED_SHIFT else None
                      for f, q in zip(fitted, quads)]
        details: dict = {}
        probs, quads = self.read_tiles(img, quads, also=fitted, details=details)
        if NO_FACE > 0:  # no numeral the classifiers know: not a tile
            keep = probs.max(1) >= NO_FACE
            dets = [d for d, k in zip(dets, keep) if k]
            quads = [q for q, k in zip(quads, keep) if k]
            probs = probs[keep]
            details = {key: v[keep] for key, v in details.items()}
        if trace is not None:
            trace["face"] = list(dets)
        reason = GREYSCALE_REASON if is_greyscale(img) else ""
        reads = []
        for d, p, q, t in zip(dets, probs, quads, details["turn"]):
            top = np.argsort(-p)[:TOP_K]
            alts = tuple((TILES[i], float(p[i])) for i in top)
            reads.append(TileRead(box=tuple(round(v, 1) for v in d.box), tile=alts[0][0],
                                  confidence=alts[0][1], alternatives=alts,
                                  quad=tuple((round(float(x), 1), round(float(y), 1)) for x, y in q),
                                  reason=reason, turn=round(float(t), 3)))
        reads = assign_rows(reads)
        if consistent:
            reads = make_consistent(reads, indicator)
        ordered = rack_order(reads)
        return [_with_order(r, i) for i, r in enumerate(ordered)]

    def read_photo(self, photo: Photo, *, indicator: Tile | str | None = None,
                   consistent: bool = True) -> list[TileRead]:
        """Every tile in a decoded :class:`~okey_vision.vision.io.Photo`, boxes
        in the *input's* pixels (whatever shrinking the decoding did)."""
        reads = self.read(photo.image, indicator=indicator, consistent=consistent)
        return [r.scaled(1 / photo.scale) for r in reads]


def _with_order(r: TileRead, i: int) -> TileRead:
    return replace(r, order=i)


def suppress_inner(xywh: np.ndarray, scores: np.ndarray, idx: np.ndarray, frac: float) -> np.ndarray:
    """Drop kept boxes lying mostly (``frac`` of their area) inside a
    higher-scoring kept box: a part of a tile read as a tile of its own."""
    idx = idx[np.argsort(-scores[idx])]
    kept: list[int] = []
    for i in idx:
        x, y, w, h = xywh[i]
        inner = False
        for k in kept:
            kx, ky, kw, kh = xywh[k]
            ix = max(0.0, min(x + w, kx + kw) - max(x, kx))
            iy = max(0.0, min(y + h, ky + kh) - max(y, ky))
            if ix * iy > frac * min(w * h, kw * kh):
                inner = True
                break
        if not inner:
            kept.append(int(i))
    return np.array(kept, dtype=int)


def cluster_colours(pc: np.ndarray, features: list, weight: float) -> np.ndarray:
    """Colour probabilities (n, 5) mixed with their ink cluster's: the tiles of
    one photo whose inks look alike (``cluster_inks``) share a decision (the
    mean of their log probabilities), weighted ``weight`` against each tile's
    own (geometric mix, renormalised). False jokers keep their own reading."""
    labels = cluster_inks(features)
    out = pc.copy()
    logp = np.log(pc + 1e-6)
    for lab in set(labels) - {-1}:
        members = [i for i, v in enumerate(labels) if v == lab]
        if len(members) < 2:
            continue
        shared = logp[members].mean(0)
        for i in members:
            if pc[i].argmax() == 4:  # a false joker's design is no ink colour
                continue
            mix = np.exp((1 - weight) * logp[i] + weight * shared)
            out[i] = mix / mix.sum()
    return out


def quad_detection(quad: np.ndarray, score: float, w: int, h: int) -> Detection:
    """A detection from a tile's corners (input pixels): the box is their
    bounds clipped to the ``w`` x ``h`` photo, the corners TL, TR, BR, BL."""
    q = upright_quad(quad)
    x1, y1 = np.clip(q.min(0), 0, [w, h])
    x2, y2 = np.clip(q.max(0), 0, [w, h])
    return Detection((float(x1), float(y1), float(x2), float(y2)), float(score), q)


def mirrored_detection(d: Detection, w: int, h: int) -> Detection:
    """A detection on the ``w`` x ``h`` photo mirrored left to right, mapped
    back onto the photo: corners reordered TL, TR, BR, BL again."""
    q = np.asarray(d.quad, np.float64).copy()
    q[:, 0] = w - q[:, 0]
    return quad_detection(q, d.score, w, h)


def quad_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two convex quads."""
    import cv2

    a32, b32 = np.asarray(a, np.float32), np.asarray(b, np.float32)
    inter, _ = cv2.intersectConvexConvex(a32, b32)
    union = abs(cv2.contourArea(a32)) + abs(cv2.contourArea(b32)) - inter
    return float(inter / union) if union > 0 else 0.0


def fuse_passes(first: list[Detection], second: list[Detection], w: int, h: int,
                iou: float | None = None, single: float | None = None) -> list[Detection]:
    """Oriented detections of two passes over one photo, fused: surest first,
    each box takes the other pass's best box overlapping it by ``iou`` (default
    ``FUSE_IOU``); their corners are averaged weighted by confidence, and the
    pair's confidence is their mean. A box without a partner is kept only from
    ``single`` (default ``FUSE_SINGLE``)."""
    iou = FUSE_IOU if iou is None else iou
    single = FUSE_SINGLE if single is None else single
    boxes = sorted([(d, 0) for d in first] + [(d, 1) for d in second], key=lambda t: -t[0].score)
    used = [False] * len(boxes)
    out = []
    for i, (d, src) in enumerate(boxes):
        if used[i]:
            continue
        used[i] = True
        partner = None
        for j in range(i + 1, len(boxes)):
            if not used[j] and boxes[j][1] != src and quad_iou(d.quad, boxes[j][0].quad) > iou:
                used[j] = True
                partner = boxes[j][0]
                break
        if partner is None:
            if d.score >= single:
                out.append(d)
            continue
        wa, wb = d.score, partner.score
        q = (wa * np.asarray(d.quad) + wb * aligned(partner.quad, d.quad)) / (wa + wb)
        out.append(quad_detection(q, (wa + wb) / 2, w, h))
    return out


def fuse_rectified(dets: list[Detection], quads: Sequence[np.ndarray], members: Sequence[int],
                   found: list[Detection], w: int, h: int, iou: float | None = None,
                   new: float | None = None) -> list[Detection]:
    """First-pass detections ``dets`` (corners ``quads``) fused with the boxes
    ``found`` on their rows warped level (``members``: the detections on those
    rows; ``found`` free of duplicates, surest first). A found box
    overlapping first-pass members by ``iou``
    (default ``RECTIFIED_IOU``) is averaged with the one it overlaps most
    (corners weighted by confidence, the higher confidence kept); one
    overlapping none is kept from ``new`` (default ``RECTIFIED_NEW``). The
    other detections stay as they were.

    >>> sq = lambda x: np.array([[x, 0], [x + 10, 0], [x + 10, 14], [x, 14]], float)
    >>> first = [quad_detection(sq(x), 0.8, 100, 20) for x in (0, 11, 22)]
    >>> found = [quad_detection(sq(x) + [1, 0], 0.8, 100, 20) for x in (0, 11, 22, 33)]
    >>> out = fuse_rectified(first, [d.quad for d in first], [0, 1, 2], found, 100, 20)
    >>> [round(float(d.quad[0][0]), 1) for d in out]
    [0.5, 11.5, 22.5, 34.0]
    """
    iou = RECTIFIED_IOU if iou is None else iou
    new = RECTIFIED_NEW if new is None else new
    on_rows = set(members)
    out = [d for i, d in enumerate(dets) if i not in on_rows]
    taken: set[int] = set()
    for d in found:
        overlap = {i: quad_iou(d.quad, quads[i]) for i in on_rows}
        hit = [i for i, v in overlap.items() if v > iou]
        if hit:
            i = max(hit, key=overlap.get)
            taken.add(i)
            wa, wb = d.score, dets[i].score
            q = (wa * np.asarray(d.quad) + wb * aligned(quads[i], d.quad)) / (wa + wb)
            out.append(quad_detection(q, max(wa, wb), w, h))
        elif d.score >= new:
            out.append(d)
    out += [dets[i] for i in sorted(on_rows - taken)]
    return out


#: A tile cut by the photo's edge is read only if at least this share of it
#: shows (the renderer's labelling rule, ``SynthConfig.min_visible``).
MIN_VISIBLE = 0.6


def drop_cut_tiles(dets: list[Detection], w: int, h: int, edge: float = 2.0) -> list[Detection]:
    """Detections minus tiles cut by the photo's edge: a box touching the edge
    whose width or height is under ``MIN_VISIBLE`` of the photo's median tile."""
    if len(dets) < 3:
        return dets
    sizes = np.array([quad_axes(upright_quad(d.quad if d.quad is not None else box_quad(d.box)))[2:]
                      for d in dets])
    mw, mh = np.median(sizes, axis=0)
    out = []
    for d, (tw, th) in zip(dets, sizes):
        x1, y1, x2, y2 = d.box
        at_edge = x1 <= edge or y1 <= edge or x2 >= w - edge or y2 >= h - edge
        if at_edge and (tw < MIN_VISIBLE * mw or th < MIN_VISIBLE * mh):
            continue
        out.append(d)
    return out


#: An oriented box whose area lies this much under surer boxes (their
#: intersections added up) is dropped: a box straddling the gap between two
#: tiles found on their own. Chosen on the player-style validation renders
#: (seed 9201) with the retrained detector: 0.6 drops 13 of 59 false reads and
#: finds as many tiles; 0.45 drops 24 but loses 10 tiles (models/README.md).
COVERED = 0.6


def suppress_inner_quads(quads: dict[int, np.ndarray], scores: np.ndarray, idx: np.ndarray,
                         frac: float) -> np.ndarray:
    """:func:`suppress_inner` for oriented boxes: the overlap is the true
    polygon intersection (upright bounds of tilted neighbours overlap a lot);
    a box also goes when surer boxes together cover ``COVERED`` of it."""
    import cv2

    idx = idx[np.argsort(-scores[idx])]
    kept: list[int] = []
    area = {i: abs(cv2.contourArea(q.astype(np.float32))) for i, q in quads.items()}
    for i in idx:
        qi = quads[int(i)].astype(np.float32)
        inner = False
        covered = 0.0
        for k in kept:
            inter, _ = cv2.intersectConvexConvex(qi, quads[k].astype(np.float32))
            covered += inter
            if inter > frac * min(area[int(i)], area[k]):
                inner = True
                break
        if not inner and covered > COVERED * area[int(i)]:  # across two or more surer boxes
            inner = True
        if not inner:
            kept.append(int(i))
    return np.array(kept, dtype=int)


#: An oriented box this many times the area of the median box above the
#: confidence is not a tile (a detector can fire on a whole table with high
#: confidence); left in, it would take every tile inside it in the NMS.
OUTSIZED_AREA = 12.0


def not_outsized(areas: np.ndarray, ratio: float = OUTSIZED_AREA) -> np.ndarray:
    """Mask of the boxes at most ``ratio`` times the median box's area (all
    of them when fewer than 3: one alone has no median to differ from)."""
    areas = np.asarray(areas, float)
    if len(areas) < 3:
        return np.ones(len(areas), bool)
    return areas <= ratio * float(np.median(areas))


def face_probs(pn: np.ndarray, pc: np.ndarray) -> np.ndarray:
    """Joint face probabilities (n, 53) from number (n, 14: 1..13, fj) and colour
    (n, 5: r y b k fj) probabilities, renormalised."""
    n = pn.shape[0]
    faces = (pc[:, :4, None] * pn[:, None, :13]).reshape(n, 52)  # colour-major: r1..r13, y1..
    fj = (pc[:, 4] * pn[:, 13])[:, None]
    p = np.concatenate([faces, fj], 1) + 1e-9
    return p / p.sum(1, keepdims=True)


def fast_resize(img: np.ndarray, nw: int, nh: int) -> np.ndarray:
    """Resize to (nw, nh): INTER_AREA when shrinking, after a cheap bilinear
    step down to 3x the target when shrinking a lot (a 12 MP photo to 320 px
    costs a few ms instead of a full area average over every pixel)."""
    import cv2

    h, w = img.shape[:2]
    if nw >= w and nh >= h:
        return cv2.resize(img, (nw, nh), interpolation=cv2.INTER_LINEAR)
    if w > 6 * nw and h > 6 * nh:
        img = cv2.resize(img, (3 * nw, 3 * nh), interpolation=cv2.INTER_LINEAR)
    return cv2.resize(img, (nw, nh), interpolation=cv2.INTER_AREA)


def crop_tile(img: np.ndarray, box: Sequence[float], size: int = CROP_SIZE,
              margin: float = CROP_MARGIN) -> np.ndarray:
    """A square ``size`` crop around ``box`` (with a margin), padded with its
    median colour -- the same geometry as the training crops."""
    import cv2

    h, w = img.shape[:2]
    x1, y1, x2, y2 = box
    bw, bh = x2 - x1, y2 - y1
    xa, ya = int(max(0, np.floor(x1 - margin * bw))), int(max(0, np.floor(y1 - margin * bh)))
    xb, yb = int(min(w, np.ceil(x2 + margin * bw))), int(min(h, np.ceil(y2 + margin * bh)))
    crop = img[ya:max(yb, ya + 1), xa:max(xb, xa + 1)]
    ch, cw = crop.shape[:2]
    s = size / max(ch, cw)
    nw, nh = max(1, round(cw * s)), max(1, round(ch * s))
    crop = fast_resize(crop, nw, nh)
    out = np.empty((size, size, 3), np.uint8)
    out[:] = np.median(crop.reshape(-1, 3), axis=0).astype(np.uint8)
    oy, ox = (size - nh) // 2, (size - nw) // 2
    out[oy:oy + nh, ox:ox + nw] = crop
    return out


def upright_photo(dets: list[Detection], aspect: float | None = None) -> bool:
    """True when upright boxes look like standing tiles: at least 3, and at
    least ``UPRIGHT_SHARE`` of them ``aspect`` (default ``UPRIGHT_ASPECT``)
    times taller than wide like a tile (a tilted rack gives squarish boxes
    that straddle two tiles)."""
    if len(dets) < 3:
        return False
    aspect = UPRIGHT_ASPECT if aspect is None else aspect
    tall = [(d.box[3] - d.box[1]) >= aspect * (d.box[2] - d.box[0]) for d in dets]
    return float(np.mean(tall)) >= UPRIGHT_SHARE


_DEFAULT: RackReader | None = None
_DEFAULT_LOCK = threading.Lock()


def default_reader() -> RackReader:
    """The process-wide reader (models loaded once, lazily)."""
    global _DEFAULT
    with _DEFAULT_LOCK:
        if _DEFAULT is None:
            _DEFAULT = RackReader()
        return _DEFAULT


def read_rack(image: np.ndarray | str | Path, *, bgr: bool = True,
              indicator: Tile | str | None = None, consistent: bool = True) -> list[TileRead]:
    """Every face-up tile in a photo: box (input pixels), tile, confidence,
    ranked alternatives and rack row, ordered rows top to bottom and tiles left
    to right. ``image`` is a BGR (``bgr=True``) or RGB numpy array, or a path.
    A photo without tiles gives ``[]``. The reads obey the tile set (at most two
    of a face, one if ``indicator`` is given and not in the photo, at most two
    false jokers); reads with ``low_confidence`` should be confirmed by the player.
    """
    if indicator is not None:
        indicator = parse_tile(indicator)
    if isinstance(image, (str, Path)):
        return default_reader().read_photo(load_photo(image), indicator=indicator, consistent=consistent)
    return default_reader().read(image, bgr=bgr, indicator=indicator, consistent=consistent)


__all__ = ["RackReader", "read_rack", "default_reader", "ModelMissingError", "ImageError", "DEFAULT_MODELS",
           "STEMS", "models_dir", "face_probs", "crop_tile", "assign_rows", "common_axis"]
