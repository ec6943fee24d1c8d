"""The tile reader: photo -> every face-up tile with its colour and number.

Two stages, both YOLO11n trained here (see :mod:`okey_vision.vision.train`):

1. a one-class detector finds the tiles on a copy of the photo shrunk once
   (INTER_AREA) to the detector's input size;
2. two small classifiers read the number (``1``..``13``, ``fj``) and the
   colour (``r y b k``, ``fj``) of crops cut from the *full-resolution* photo.

The two distributions combine into a probability for each of the 53 faces;
:func:`okey_vision.vision.consistency.make_consistent` then makes the reads
obey the tile set, and the reads are grouped into rack rows (top to bottom,
left to right; a lone tile away from the rows is ``APART``).

The models load once, lazily. ONNX files (``models/*.onnx``) are preferred
when onnxruntime is importable (faster on CPU, no torch import); otherwise
the ``.pt`` weights run with torch. Set ``OKEY_VISION_MODELS`` to use
another folder.
"""

from __future__ import annotations

import os
import threading
from dataclasses import dataclass
from pathlib import Path
from typing import Sequence

import numpy as np

from okey_vision.errors import ImageError
from okey_vision.tiles import TILES, Tile, parse_tile
from okey_vision.vision.consistency import make_consistent
from okey_vision.vision.io import Photo, as_bgr, load_photo
from okey_vision.vision.memory import release_memory
from okey_vision.vision.nets import DEFAULT_MODELS, STEMS, ModelMissingError, Net, models_dir
from okey_vision.vision.reads import APART, TileRead, rack_order

#: Classifier input size (crops are square, padded with the tile's median colour).
CROP_SIZE = 64
#: Margin added around a detector box before cropping (fraction of the box).
CROP_MARGIN = 0.08
#: Crops read per tile (margins), their distributions averaged: measured +5
#: points per-tile accuracy on the real held-out photos, +1 on synthetic.
CROP_MARGINS = (0.03, 0.08, 0.14)
#: Alternatives kept per read.
TOP_K = 5
#: Tiles shorter than this at the detector's size trigger a second, larger pass...
SMALL_TILE_PX = 16.0
#: ... sized so the tiles become about this tall.
ZOOM_TILE_PX = 30.0


@dataclass
class Detection:
    """A detector box in input pixels and its score."""

    box: tuple[float, float, float, float]
    score: float


class RackReader:
    """Reads tiles from photos; models load on first use and are kept."""

    def __init__(self, folder: str | Path | None = None, prefer_onnx: bool | None = None,
                 conf: float = 0.35, iou: float = 0.5, max_tiles: int = 120, max_size: int = 960,
                 inner: float = 0.6, margins: Sequence[float] = CROP_MARGINS,
                 parallel: int | None = None):
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
        self._lock = threading.Lock()
        self._nets: dict[str, Net] = {}
        # Reads admitted at once (``$OKEY_VISION_PARALLEL``, default 1): more
        # callers queue. On a small CPU, reads side by side only share the
        # cores (no more reads per second) while each holds its own buffers;
        # measured in benchmarks/read_load.py.
        self.parallel = max(1, parallel or _env_int("OKEY_VISION_PARALLEL", 1))
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
        for stem in STEMS:
            self.net(stem)
        return self

    @property
    def backends(self) -> dict[str, str]:
        """Each model's runtime: {'detector': 'torch', 'number': 'onnx', ...}."""
        return {stem: self.net(stem).kind for stem in STEMS}

    @property
    def backend(self) -> str:
        """'onnx' or 'torch' when every model runs on it, else 'mixed'."""
        kinds = set(self.backends.values())
        return kinds.pop() if len(kinds) == 1 else "mixed"

    # -- stage 1 ----------------------------------------------------------------
    def detect(self, img: np.ndarray) -> list[Detection]:
        """Tile boxes (input pixels) found in a BGR image.

        The photo is shrunk once to the detector's size; when the tiles found
        are tiny there (a table strewn with many small tiles), it is detected
        again at a larger size so the tiles get about ``ZOOM_TILE_PX`` tall."""
        net = self.net("detector")
        base = net.imgsz if isinstance(net.imgsz, int) else (net.imgsz or [320])[0]
        dets, scale = self._detect_at(img, base)
        if dets:
            med_h = float(np.median([d.box[3] - d.box[1] for d in dets])) * scale
            if med_h < SMALL_TILE_PX:
                size = min(self.max_size, int(np.ceil(base * ZOOM_TILE_PX / med_h / 32)) * 32)
                if size > base and size < max(img.shape[:2]) * 1.5:
                    dets, _ = self._detect_at(img, size)
        return dets

    def _detect_at(self, img: np.ndarray, size: int) -> tuple[list[Detection], float]:
        import cv2

        net = self.net("detector")
        h, w = img.shape[:2]
        s = size / max(h, w)
        nw, nh = max(1, round(w * s)), max(1, round(h * s))
        small = fast_resize(img, nw, nh)
        if net.kind == "onnx" and not net.dynamic:
            ch = cw = size
        else:  # rectangular: pad to multiples of 32 only
            ch, cw = int(np.ceil(nh / 32) * 32), int(np.ceil(nw / 32) * 32)
        canvas = np.full((ch, cw, 3), 114, np.uint8)
        oy, ox = (ch - nh) // 2, (cw - nw) // 2
        canvas[oy:oy + nh, ox:ox + nw] = small
        x = canvas[:, :, ::-1].transpose(2, 0, 1)[None].astype(np.float32) / 255.0
        y = net(np.ascontiguousarray(x))[0]  # (4 + nc, anchors)
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

    # -- stage 2 ----------------------------------------------------------------
    def classify(self, img: np.ndarray, boxes: Sequence[tuple[float, float, float, float]]
                 ) -> np.ndarray:
        """Probabilities over the 53 faces (``TILES`` order) for each box."""
        if not boxes:
            return np.zeros((0, len(TILES)))
        margins = self.margins
        crops = [crop_tile(img, b, margin=m) for m in margins for b in boxes]
        n = len(boxes)
        pn = self._class_probs("number", crops, [str(k) for k in range(1, 14)] + ["fj"])
        pc = self._class_probs("color", crops, ["r", "y", "b", "k", "fj"])
        # several margins: average the distributions (a cheap test-time augmentation)
        pn = pn.reshape(len(margins), n, -1).mean(0)
        pc = pc.reshape(len(margins), n, -1).mean(0)
        return face_probs(pn, pc)

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
        dets = self.detect(img)
        if not dets:
            return []
        probs = self.classify(img, [d.box for d in dets])
        reads = []
        for d, p in zip(dets, probs):
            top = np.argsort(-p)[:TOP_K]
            alts = tuple((TILES[i], float(p[i])) for i in top)
            reads.append(TileRead(box=tuple(round(v, 1) for v in d.box), tile=alts[0][0],
                                  confidence=alts[0][1], alternatives=alts))
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


def _env_int(name: str, default: int) -> int:
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


def _with_order(r: TileRead, i: int) -> TileRead:
    from dataclasses import replace

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


def assign_rows(reads: Sequence[TileRead]) -> list[TileRead]:
    """Group reads into rows of side-by-side tiles, numbered top to bottom; a
    lone tile away from every row gets ``APART``."""
    from dataclasses import replace

    n = len(reads)
    if n == 0:
        return []
    c = np.array([r.center for r in reads])
    wh = np.array([(r.box[2] - r.box[0], r.box[3] - r.box[1]) for r in reads])
    h = float(np.median(wh[:, 1]))
    w = float(np.median(wh[:, 0]))
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    # link each tile to its nearest horizontal neighbour on each side
    for i in range(n):
        dx = c[:, 0] - c[i, 0]
        dy = np.abs(c[:, 1] - c[i, 1])
        for side in (1, -1):
            ok = (side * dx > 0.2 * w) & (dy < 0.45 * h) & (side * dx < 3.0 * w)
            if ok.any():
                j = int(np.argmin(np.where(ok, np.abs(dx) + 2 * dy, np.inf)))
                parent[find(i)] = find(j)
    groups: dict[int, list[int]] = {}
    for i in range(n):
        groups.setdefault(find(i), []).append(i)
    rows = [g for g in groups.values() if len(g) >= 2]
    lone = [g[0] for g in groups.values() if len(g) == 1]
    row_of = {}
    if rows:
        ys = [float(np.mean(c[g, 1])) for g in rows]
        for i in lone:  # a lone tile within a row's band and span joins it, else apart
            k = int(np.argmin([abs(c[i, 1] - y) for y in ys]))
            g = rows[k]
            xs = c[g, 0]
            if abs(c[i, 1] - ys[k]) < 0.6 * h and xs.min() - 4 * w < c[i, 0] < xs.max() + 4 * w:
                rows[k] = g + [i]
            else:
                row_of[i] = APART
        order = np.argsort([float(np.mean(c[g, 1])) for g in rows])
        for rank, k in enumerate(order):
            for i in rows[k]:
                row_of[i] = rank
    else:  # no rows: one tile, or scattered tiles -- each its own row, top to bottom
        for rank, i in enumerate(np.argsort(c[:, 1])):
            row_of[int(i)] = 0 if n == 1 else rank
    return [replace(r, row=int(row_of[i])) for i, r in enumerate(reads)]


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
           "STEMS", "models_dir",
           "face_probs", "crop_tile", "assign_rows"]
