"""Dataset writers: YOLO detection folders, classification crops, hand records."""

from __future__ import annotations

import contextlib
import json
import os
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TextIO

import cv2
import numpy as np

from okey_vision.synth.config import SynthConfig
from okey_vision.synth.render import Scene, render_scene
from okey_vision.tiles import TILES, Tile
from okey_vision.vision.crops import COLOR_CLASSES, NUMBER_CLASSES, upright_crop

#: Detection classes: one class, the detector only finds tiles.
TILE_CLASSES: tuple[str, ...] = ("tile",)
#: Detection classes of the 53-face variant, in TILES index order (r1..k13, fj).
FACE_CLASSES: tuple[str, ...] = tuple(t.name for t in TILES)
#: Classifier classes per label kind (number and colour lists live in
#: ``okey_vision.vision.crops``, shared with the reader).
CROP_CLASSES: dict[str, tuple[str, ...]] = {
    "face": FACE_CLASSES,
    "number": NUMBER_CLASSES,
    "color": COLOR_CLASSES,
}


def image_seed(seed: int, index: int) -> int:
    """The render seed of image ``index`` of a data set made with ``seed``."""
    return int(np.random.SeedSequence([int(seed), int(index)]).generate_state(1)[0])


def split_of(index: int, seed: int, val_fraction: float) -> str:
    """'val' for a deterministic ``val_fraction`` of image indices, else 'train'."""
    r = np.random.default_rng(np.random.SeedSequence([int(seed), int(index), 7])).random()
    return "val" if r < val_fraction else "train"


def crop_class(tile: Tile | None, label: str) -> str | None:
    """Folder name of a tile for a crop label kind; None (a Rummikub joker) has none."""
    if tile is None:
        return None
    if tile.is_false_joker:
        return "fj"
    if label == "face":
        return tile.name
    if label == "number":
        return str(tile.number)
    if label == "color":
        return tile.color
    raise ValueError(f"unknown crop label {label!r}: expected face, number or color")


def scenes(count: int, seed: int, config: SynthConfig | None = None) -> Iterator[tuple[int, Scene]]:
    """Render ``count`` scenes of a data set, each deterministic from (seed, index)."""
    for i in range(count):
        yield i, render_scene(image_seed(seed, i), config)


def yolo_line(cls: int, box: tuple[float, float, float, float], w: int, h: int) -> str:
    """One YOLO label line (class cx cy bw bh, normalised) for a pixel box."""
    x1, y1, x2, y2 = (min(max(v, 0.0), lim) for v, lim in zip(box, (w, h, w, h), strict=True))
    return (f"{cls} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} "
            f"{(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}")


def obb_line(cls: int, quad, w: int, h: int) -> str:
    """One YOLO-OBB label line (class x1 y1 .. x4 y4, normalised, clipped to the
    image) for a tile's four face corners (TL, TR, BR, BL)."""
    q = np.asarray(quad, np.float64).reshape(4, 2) / [w, h]
    q = np.clip(q, 0.0, 1.0)
    return f"{cls} " + " ".join(f"{v:.6f}" for v in q.ravel())


def write_data_yaml(out: Path, names: tuple[str, ...]) -> Path:
    """Write ultralytics ``data.yaml`` (path, train, val, names) into ``out``."""
    import yaml

    data = {"path": str(out.resolve()), "train": "images/train", "val": "images/val",
            "names": {i: n for i, n in enumerate(names)}}
    p = out / "data.yaml"
    p.write_text(yaml.safe_dump(data, sort_keys=False), encoding="utf-8")
    return p


def scene_record(name: str, split: str, scene: Scene) -> dict:
    """The JSON record of one image: true hand, indicator, every labelled tile."""
    return {
        "file": name, "split": split, "seed": scene.seed, "kind": scene.kind,
        "width": int(scene.image.shape[1]), "height": int(scene.image.shape[0]),
        "hand": [t.name for t in scene.hand],
        "indicator": scene.indicator.name if scene.indicator else None,
        "tiles": [{"name": t.tile.name, "box": [round(v, 2) for v in t.box], "row": t.row,
                   "on_rack": t.on_rack, "is_indicator": t.is_indicator,
                   "visible": t.visible} for t in scene.tiles],
    }


@contextlib.contextmanager
def records(path: Path) -> Iterator[TextIO]:
    """``path`` (the scenes' records, JSON Lines) written whole or not at
    all: into ``NAME.part``, moved over ``path`` when the block ends; a
    failure (a missing package, a full disk, Ctrl-C) leaves no file behind."""
    part = path.with_name(path.name + ".part")
    try:
        with open(part, "w", encoding="utf-8") as fh:
            yield fh
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)


def write_detect_dataset(out_dir: str | Path, count: int, seed: int,
                         config: SynthConfig | None = None,
                         split: tuple[str, str] = ("train", "val"), val_fraction: float = 0.1,
                         classes: str = "tile", jpeg_quality: int = 95,
                         progress: Callable[[int], None] | None = None) -> Path:
    """Render ``count`` images into a YOLO detection data set; returns ``data.yaml``."""
    if classes not in ("tile", "faces", "obb"):
        raise ValueError(f"classes must be 'tile', 'faces' or 'obb', not {classes!r}")
    out = Path(out_dir)
    for s in split:
        (out / "images" / s).mkdir(parents=True, exist_ok=True)
        (out / "labels" / s).mkdir(parents=True, exist_ok=True)
    names = FACE_CLASSES if classes == "faces" else TILE_CLASSES
    with records(out / "hands.jsonl") as rec:
        for i, scene in scenes(count, seed, config):
            sp = split[1] if split_of(i, seed, val_fraction) == "val" else split[0]
            stem = f"synth_{seed}_{i:06d}"
            h, w = scene.image.shape[:2]
            cv2.imwrite(str(out / "images" / sp / f"{stem}.jpg"), scene.image,
                        [cv2.IMWRITE_JPEG_QUALITY, jpeg_quality])
            if classes == "obb":  # oriented: the tile's exact face corners
                lines = [obb_line(0, t.quad, w, h) for t in scene.tiles]
            else:
                lines = [yolo_line(0 if classes == "tile" else t.tile.index, t.box, w, h)
                         for t in scene.tiles]
            (out / "labels" / sp / f"{stem}.txt").write_text(
                "\n".join(lines) + ("\n" if lines else ""), encoding="utf-8")
            rec.write(json.dumps(scene_record(f"images/{sp}/{stem}.jpg", sp, scene)) + "\n")
            if progress:
                progress(i)
    return write_data_yaml(out, names)


def cut_crop(image: np.ndarray, box: tuple[float, float, float, float], rng: np.random.Generator,
             size: int, margin: tuple[float, float] = (0.02, 0.15),
             jitter: float = 0.06) -> np.ndarray | None:
    """A square crop around a box with a random margin and jitter, long side ``size``."""
    h, w = image.shape[:2]
    x1, y1, x2, y2 = box
    bw, bh = x2 - x1, y2 - y1
    if bw < 2 or bh < 2:
        return None
    m = rng.uniform(*margin, 4) * np.array([bw, bh, bw, bh])
    j = rng.uniform(-jitter, jitter, 2) * np.array([bw, bh])
    a = np.array([x1 - m[0] + j[0], y1 - m[1] + j[1], x2 + m[2] + j[0], y2 + m[3] + j[1]])
    xa, ya = int(max(0, np.floor(a[0]))), int(max(0, np.floor(a[1])))
    xb, yb = int(min(w, np.ceil(a[2]))), int(min(h, np.ceil(a[3])))
    if xb - xa < 2 or yb - ya < 2:
        return None
    crop = image[ya:yb, xa:xb]
    ch, cw = crop.shape[:2]
    s = size / max(ch, cw)
    nw, nh = max(1, round(cw * s)), max(1, round(ch * s))
    interp = cv2.INTER_AREA if s < 1 else cv2.INTER_LINEAR
    crop = cv2.resize(crop, (nw, nh), interpolation=interp)
    out = np.empty((size, size, 3), np.uint8)
    out[:] = np.median(crop.reshape(-1, 3), axis=0).astype(np.uint8)
    oy, ox = (size - nh) // 2, (size - nw) // 2
    out[oy:oy + nh, ox:ox + nw] = crop
    return out


#: Upright crops: each corner moved by up to this share of the tile's height
#: (``cut_upright``; ``train --jitter``).
UPRIGHT_JITTER = 0.04


def label_rect(quad) -> np.ndarray:
    """A tile's oriented rectangle (what the oriented detector learns and
    finds: the smallest rectangle around its corners), its corners matched
    to the tile's own TL, TR, BR, BL.

    >>> label_rect([(0, 0), (10, 0), (11, 20), (-1, 20)]).round(1).tolist()  # seen from below
    [[-1.0, 0.0], [11.0, 0.0], [11.0, 20.0], [-1.0, 20.0]]
    """
    q = np.asarray(quad, np.float64).reshape(4, 2)
    box = cv2.boxPoints(cv2.minAreaRect(q.astype(np.float32))).astype(np.float64)
    orders = [np.roll(b, k, axis=0) for b in (box, box[::-1]) for k in range(4)]
    return min(orders, key=lambda b: float(np.linalg.norm(b - q, axis=1).sum()))


def cut_upright(image: np.ndarray, quad, rng: np.random.Generator, size: int,
                margin: tuple[float, float] = (0.0, 0.15), jitter: float = UPRIGHT_JITTER,
                rect: bool = False, turn: float = 0.0) -> np.ndarray:
    """An upright crop of a tile from its exact corners, with a random margin per
    side and each corner moved by up to ``jitter`` of the tile's height (like an
    oriented detector's box): the geometry the reader cuts (``upright_crop``).
    ``quad`` is TL, TR, BR, BL *in the tile's own frame* (a label's corners):
    a tile lying upside down in the photo is still cut standing. ``rect``:
    cut from the tile's oriented rectangle (:func:`label_rect`), as the
    reader cuts an oriented detection, not from the exact corners. ``turn``:
    the corners are also turned about their centre by a normal angle of this
    many degrees (clipped at 2.5 times it): a detector's box is often a few
    degrees off the tile, and a classifier that never saw that misreads it."""
    q = label_rect(quad) if rect else np.asarray(quad, np.float64).reshape(4, 2)
    if turn > 0:
        a = np.radians(float(np.clip(rng.normal(0.0, turn), -2.5 * turn, 2.5 * turn)))
        c = q.mean(0)
        q = (q - c) @ np.array([[np.cos(a), np.sin(a)], [-np.sin(a), np.cos(a)]]) + c
    h = float(np.linalg.norm(q[0] - q[3]) + np.linalg.norm(q[1] - q[2])) / 2
    q = q + rng.uniform(-jitter, jitter, (4, 2)) * h
    return upright_crop(image, q, size, tuple(rng.uniform(*margin, 4)))


def write_crop_dataset(out_dir: str | Path, count: int, seed: int,
                       config: SynthConfig | None = None, label: str = "face", size: int = 64,
                       val_fraction: float = 0.1, min_height: float = 12.0,
                       progress: Callable[[int], None] | None = None,
                       geometry: str = "box", jitter: float = UPRIGHT_JITTER, rect: bool = False,
                       turn: float = 0.0) -> Path:
    """Cut labelled tiles of ``count`` rendered images into classification folders
    (``geometry``: "box", square crops of the upright box; "upright", each tile
    warped upright from its corners, each corner moved by up to ``jitter`` of
    the tile's height; ``rect``, ``turn``: see :func:`cut_upright`)."""
    if label not in CROP_CLASSES:
        raise ValueError(f"label must be one of {sorted(CROP_CLASSES)}, not {label!r}")
    out = Path(out_dir)
    for sp in ("train", "val"):
        for name in CROP_CLASSES[label]:
            (out / sp / name).mkdir(parents=True, exist_ok=True)
    for i, scene in scenes(count, seed, config):
        sp = split_of(i, seed, val_fraction)
        rng = np.random.default_rng(np.random.SeedSequence([int(seed), int(i), 11]))
        for k, t in enumerate(scene.tiles):
            if t.box[3] - t.box[1] < min_height:
                continue
            crop: np.ndarray | None
            if geometry == "upright":
                crop = cut_upright(scene.image, t.quad, rng, size, jitter=jitter, rect=rect, turn=turn)
            else:
                crop = cut_crop(scene.image, t.box, rng, size)
            if crop is None:
                continue
            cls = crop_class(t.tile, label)
            if cls is None:  # a rendered tile is never a Rummikub joker
                continue
            cv2.imwrite(str(out / sp / cls / f"synth_{seed}_{i:06d}_{k:02d}.png"), crop)
        if progress:
            progress(i)
    return out


def contact_sheet(scenes_: list[Scene], cols: int = 4, cell_w: int = 320,
                  boxes: bool = True) -> np.ndarray:
    """A grid of scenes with thin label boxes and small names, for judging by eye."""
    cells = []
    cell_h = int(cell_w * 3 / 4)
    for sc in scenes_:
        img = sc.image
        h, w = img.shape[:2]
        s = min(cell_w / w, cell_h / h)
        small = cv2.resize(img, (max(1, int(w * s)), max(1, int(h * s))), interpolation=cv2.INTER_AREA)
        cell = np.full((cell_h, cell_w, 3), 40, np.uint8)
        oy, ox = (cell_h - small.shape[0]) // 2, (cell_w - small.shape[1]) // 2
        cell[oy:oy + small.shape[0], ox:ox + small.shape[1]] = small
        if boxes:
            for t in sc.tiles:
                x1, y1, x2, y2 = (round(v * s) for v in t.box)
                col = (0, 255, 0) if t.on_rack else ((0, 200, 255) if t.is_indicator else (255, 200, 0))
                cv2.rectangle(cell, (ox + x1, oy + y1), (ox + x2, oy + y2), col, 1)
                if y2 - y1 >= 12:
                    cv2.putText(cell, t.tile.name, (ox + x1 + 1, oy + y1 + 8),
                                cv2.FONT_HERSHEY_PLAIN, 0.6, (255, 0, 255), 1, cv2.LINE_AA)
        cells.append(cell)
    while len(cells) % cols:
        cells.append(np.full((cell_h, cell_w, 3), 40, np.uint8))
    rows = [np.hstack(cells[i:i + cols]) for i in range(0, len(cells), cols)]
    sheet = np.vstack(rows)
    # thin separators
    sheet[::cell_h, :] = 255
    sheet[:, ::cell_w] = 255
    return sheet


def write_scenes(out_dir: str | Path, count: int, seed: int,
                 config: SynthConfig | None = None) -> Path:
    """Write plain PNG renders plus ``hands.jsonl`` (for eyeballing or app demos)."""
    out = Path(out_dir)
    out.mkdir(parents=True, exist_ok=True)
    with records(out / "hands.jsonl") as rec:
        for i, scene in scenes(count, seed, config):
            name = f"scene_{seed}_{i:06d}.jpg"
            cv2.imwrite(str(out / name), scene.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
            rec.write(json.dumps(scene_record(name, "all", scene)) + "\n")
    return out


def clear(out_dir: str | Path) -> None:
    """Remove a previously generated data set folder."""
    shutil.rmtree(out_dir, ignore_errors=True)
