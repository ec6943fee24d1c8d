"""The real photo set ``../shared/datasets/rummikub-real`` in the project's classes.

Its classes map black -> k, blue -> b, orange -> y, red -> r. Its ``joker`` is a
Rummikub joker, not an Okey false joker: it is kept as ``tile=None`` (the
label ``"joker"``). For single-class detection a joker box is still class
``tile``; in the 53-face detection variant images holding a joker are left
out (the joker has no class and an unlabelled visible tile would teach the
detector to skip tiles). Joker crops never go into ``train/`` or ``val/``;
with ``joker_dir`` they are written to ``extra/joker/`` beside them.
Read the files from the shared folder; never copy them into the repository.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from okey_vision.imagesize import header_size
from okey_vision.synth.datasets import (
    CROP_CLASSES,
    FACE_CLASSES,
    TILE_CLASSES,
    crop_class,
    cut_crop,
    cut_upright,
    obb_line,
    write_data_yaml,
    yolo_line,
)
from okey_vision.tiles import Tile, parse_tile

#: Where the shared real photos live, relative to the repository root.
DEFAULT_ROOT = Path("../shared/datasets/rummikub-real")


@dataclass(frozen=True)
class RealLabel:
    """One labelled tile of a real photo (``tile`` None for a Rummikub joker)."""

    tile: Tile | None
    box: tuple[float, float, float, float]   # pixels, polygon min/max
    polygon: tuple[tuple[float, float], ...]  # pixels

    @property
    def name(self) -> str:
        """Tile name, or ``'joker'``."""
        return self.tile.name if self.tile else "joker"


@dataclass(frozen=True)
class RealImage:
    """A real photo with its labels."""

    path: Path
    width: int
    height: int
    labels: tuple[RealLabel, ...]

    @property
    def stem(self) -> str:
        """File name without the extension."""
        return self.path.stem


def resolve_root(root: str | Path | None = None) -> Path:
    """The data set folder: ``root``, else ../shared/... from the cwd or the package."""
    if root is not None:
        return Path(root)
    candidates = [DEFAULT_ROOT,
                  Path(__file__).resolve().parents[3] / "shared" / "datasets" / "rummikub-real"]
    for c in candidates:
        if (c / "classes.yaml").exists():
            return c
    return DEFAULT_ROOT


def real_class_map(root: str | Path | None = None) -> dict[int, Tile | None]:
    """Class id in the real set -> Tile (None for its joker)."""
    import yaml

    root = resolve_root(root)
    names = yaml.safe_load((root / "classes.yaml").read_text(encoding="utf-8"))["names"]
    if isinstance(names, list):
        names = dict(enumerate(names))
    return {int(k): (None if str(v).lower() == "joker" else parse_tile(str(v)))
            for k, v in names.items()}


def _image_size(path: Path) -> tuple[int, int]:
    """(width, height) read from the image header (cheap), falling back to decoding."""
    with open(path, "rb") as fh:
        w, h = header_size(fh.read(65536))
    if w and h:
        return w, h
    img = cv2.imread(str(path))
    if img is None:
        raise ValueError(f"{path}: not an image OpenCV can read")
    return img.shape[1], img.shape[0]


def load_real(root: str | Path | None = None) -> list[RealImage]:
    """Every photo of the real set with its labels in project classes, sorted by name."""
    root = resolve_root(root)
    cmap = real_class_map(root)
    out = []
    for img_path in sorted((root / "images").glob("*.jpg")):
        w, h = _image_size(img_path)
        lab_path = root / "labels" / (img_path.stem + ".txt")
        labels = []
        if lab_path.exists():
            for line in lab_path.read_text(encoding="utf-8").splitlines():
                parts = line.split()
                if len(parts) < 5:
                    continue
                cls = int(parts[0])
                xy = np.array([float(v) for v in parts[1:]], float).reshape(-1, 2) * [w, h]
                if len(parts) == 5:  # plain YOLO box: cx cy bw bh
                    cx, cy, bw, bh = (float(v) for v in parts[1:])
                    x1, y1, x2, y2 = (cx - bw / 2) * w, (cy - bh / 2) * h, (cx + bw / 2) * w, (cy + bh / 2) * h
                    xy = np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]])
                box = (float(xy[:, 0].min()), float(xy[:, 1].min()),
                       float(xy[:, 0].max()), float(xy[:, 1].max()))
                labels.append(RealLabel(cmap[cls], box, tuple((float(x), float(y)) for x, y in xy)))
        out.append(RealImage(img_path, w, h, tuple(labels)))
    return out


def is_real_val(stem: str, val_fraction: float = 0.2, seed: int = 0) -> bool:
    """Stable held-out rule: a hash of the photo's source name (before Roboflow's
    ``_jpeg.rf.`` suffix) and the seed falls below ``val_fraction``."""
    source = stem.split("_jpeg.rf.")[0]
    digest = hashlib.sha256(f"{seed}:{source}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2 ** 64 < val_fraction


def split_real(images: list[RealImage], val_fraction: float = 0.2,
               seed: int = 0) -> tuple[list[RealImage], list[RealImage]]:
    """(train, val): a deterministic held-out split by file-name hash."""
    train = [im for im in images if not is_real_val(im.stem, val_fraction, seed)]
    val = [im for im in images if is_real_val(im.stem, val_fraction, seed)]
    return train, val


def write_real_detect(out_dir: str | Path, root: str | Path | None = None,
                      val_fraction: float = 0.2, seed: int = 0, classes: str = "tile",
                      split: tuple[str, str] = ("train", "val"), repeat: int = 1) -> Path:
    """Add the real photos to a YOLO detection folder (same layout and classes as the
    synthetic writer), the training ones ``repeat`` times (so that a few real
    photos still weigh among many renders); returns ``data.yaml`` (written if missing)."""
    if repeat < 1:
        raise ValueError(f"repeat must be at least 1, not {repeat!r}")
    if classes not in ("tile", "faces", "obb"):
        raise ValueError(f"classes must be 'tile', 'faces' or 'obb', not {classes!r}")
    out = Path(out_dir)
    images = load_real(root)
    with open(_mk(out) / "real.jsonl", "w", encoding="utf-8") as rec:
        for im in images:
            if classes == "faces" and any(lab.tile is None for lab in im.labels):
                continue
            sp = split[1] if is_real_val(im.stem, val_fraction, seed) else split[0]
            (out / "images" / sp).mkdir(parents=True, exist_ok=True)
            (out / "labels" / sp).mkdir(parents=True, exist_ok=True)
            if classes == "obb":  # real labels are upright boxes: their corners
                lines = [obb_line(0, [(lab.box[0], lab.box[1]), (lab.box[2], lab.box[1]), (lab.box[2], lab.box[3]),
                                      (lab.box[0], lab.box[3])], im.width, im.height) for lab in im.labels]
            else:
                lines = [yolo_line(lab.tile.index if classes == "faces" and lab.tile else 0, lab.box,
                                   im.width, im.height) for lab in im.labels]
            label_text = "\n".join(lines) + ("\n" if lines else "")
            tiles = [{"name": lab.name, "box": [round(v, 2) for v in lab.box]} for lab in im.labels]
            for k in range(repeat if sp == split[0] else 1):  # validation photos count once
                stem = f"real_{im.stem}" + (f"_r{k}" if k else "")
                shutil.copyfile(im.path, out / "images" / sp / f"{stem}.jpg")
                (out / "labels" / sp / f"{stem}.txt").write_text(label_text, encoding="utf-8")
                rec.write(json.dumps({"file": f"images/{sp}/{stem}.jpg", "split": sp, "tiles": tiles}) + "\n")
    yaml_path = out / "data.yaml"
    if not yaml_path.exists():
        write_data_yaml(out, FACE_CLASSES if classes == "faces" else TILE_CLASSES)
    return yaml_path


def _mk(p: Path) -> Path:
    p.mkdir(parents=True, exist_ok=True)
    return p


def write_real_crops(out_dir: str | Path, root: str | Path | None = None, label: str = "face",
                     size: int = 64, val_fraction: float = 0.2, seed: int = 0,
                     joker_dir: bool = False, geometry: str = "box") -> Path:
    """Add crops of the real tiles to classification folders ``train|val/<class>/``.
    Joker crops are skipped, or with ``joker_dir`` written to ``extra/joker/``.
    ``geometry="upright"``: upright crops (``cut_upright``) of the standing
    (portrait) boxes only; a lying (landscape) box's way up is unknown."""
    if label not in CROP_CLASSES:
        raise ValueError(f"label must be one of {sorted(CROP_CLASSES)}, not {label!r}")
    out = Path(out_dir)
    for sp in ("train", "val"):
        for name in CROP_CLASSES[label]:
            (out / sp / name).mkdir(parents=True, exist_ok=True)
    for im in load_real(root):
        sp = "val" if is_real_val(im.stem, val_fraction, seed) else "train"
        image = cv2.imread(str(im.path))
        if image is None:
            raise ValueError(f"{im.path}: not an image OpenCV can read")
        rng = np.random.default_rng(int.from_bytes(hashlib.sha256(im.stem.encode()).digest()[:8], "big"))
        for k, lab in enumerate(im.labels):
            crop: np.ndarray | None
            if geometry == "upright":
                x1, y1, x2, y2 = lab.box
                if x2 - x1 > y2 - y1:
                    continue
                quad = [(x1, y1), (x2, y1), (x2, y2), (x1, y2)]
                crop = cut_upright(image, quad, rng, size, jitter=0.02)
            else:
                crop = cut_crop(image, lab.box, rng, size)
            if crop is None:
                continue
            cls = crop_class(lab.tile, label)
            if cls is None:
                if not joker_dir:
                    continue
                target = _mk(out / "extra" / "joker")
            else:
                target = out / sp / cls
            cv2.imwrite(str(target / f"real_{im.stem}_{k:02d}.png"), crop)
    return out
