"""The oriented detector's training data as the reader sees it: normalised views.

At run time the oriented detector reads the reader's *view*: the
photo turned so the tiles stand upright and scaled so a tile is
``NormaliseConfig.tile_height`` (40) px tall, on a grey canvas
(:func:`okey_vision.vision.normalise.normalise`), at its native size. So
the data is made the same way, with the runtime's own code:

1. a rendered scene (``datasets/synth-closeup.yaml`` by default), or a real
   Rummikub *training* photo (``synth.real.split_real``; never a held-out
   one) turned by a random angle, a few times each;
2. the pose from the TRUE tile quads (:func:`~okey_vision.vision.normalise.estimate_pose`),
   jittered like the first look's errors (angle +-``ANGLE_JITTER`` degrees,
   size +-``SIZE_JITTER``; larger errors make the reader settle the view again);
3. the view built by :func:`~okey_vision.vision.normalise.normalise` (the
   reader's code path: training and inference cannot drift), the true face
   quads mapped into it (``View.to_view``; a real photo's polygon as its
   minimum-area rectangle, the tight box the reader's quads are judged against);
4. ``CROP`` x ``CROP`` crops of the view (random positions around its
   tiles; a smaller view padded with the reader's grey), so the detector
   trains at the scale it reads: YOLO never rescales them.

A tile showing less than ``MIN_VISIBLE`` of its face in a crop (cut by the
crop or the photo's edge) is left unlabelled, as the renderer does; a cut
tile's label is the minimum-area rectangle of its visible part. Real
Rummikub jokers are tiles (class 0). Rendered scenes give the validation
split (``VAL_FRACTION``); the real photos are all training photos.

    python -m okey_vision.training detector_view --init models/detector.onnx
"""

from __future__ import annotations

import logging
import shutil
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from okey_vision.training import paths

if TYPE_CHECKING:
    import numpy as np

    from okey_vision.synth.real import RealImage
    from okey_vision.synth.render import Scene
    from okey_vision.vision.normalise import RackPose

#: The close-up recipe the views are rendered from by default.
VIEW_RECIPE = "synth-closeup.yaml"
#: Side of a training crop of a view (px): the training image size, so YOLO
#: does not rescale it (``train detector_view`` trains at this imgsz).
CROP = 416
#: The first look's pose errors a view is built with (uniform): the reader
#: settles the view again beyond 6 degrees or 15 % (``NormaliseConfig``).
ANGLE_JITTER = 6.0
SIZE_JITTER = 0.15
#: A tile showing less of its face than this in a crop is left unlabelled.
MIN_VISIBLE = 0.6
#: At most this many crops of one view.
MAX_CROPS = 3
#: Share of the rendered scenes whose views validate (the real photos all train).
VAL_FRACTION = 0.1
#: Greys around a turned real photo (the real-pixel benchmark fills with 60).
FILLS = (40, 60, 90, 114, 140)


@dataclass(frozen=True, eq=False)
class ViewCrop:
    """One training image: a ``CROP`` x ``CROP`` part of a view, its tiles'
    quads and the photo's own area (crop px), and where it lies in the view."""

    image: np.ndarray = field(repr=False)
    quads: tuple[np.ndarray, ...] = field(repr=False)
    outline: np.ndarray = field(repr=False)
    origin: tuple[int, int] = (0, 0)


def jitter_pose(pose: RackPose, rng: np.random.Generator, angle: float = ANGLE_JITTER,
                size: float = SIZE_JITTER) -> RackPose:
    """``pose`` off by up to ``angle`` degrees and ``size`` of the tile size (uniform)."""
    from dataclasses import replace

    s = float(rng.uniform(1 - size, 1 + size))
    return replace(pose, angle=pose.angle + float(rng.uniform(-angle, angle)),
                   tile_height=pose.tile_height * s, tile_width=pose.tile_width * s)


def photo_view(img: np.ndarray, quads: Sequence[np.ndarray], rng: np.random.Generator):
    """The reader's view of a photo whose true tile corners are ``quads``
    (the pose from them, jittered), or None without tiles."""
    import numpy as np

    from okey_vision.vision.config import DEFAULT
    from okey_vision.vision.normalise import estimate_pose, normalise

    pose = estimate_pose([np.asarray(q, np.float64) for q in quads])
    if pose is None:
        return None
    return normalise(img, jitter_pose(pose, rng), DEFAULT.normalise)


def visible_part(quad: np.ndarray, regions: Sequence[np.ndarray]) -> np.ndarray | None:
    """The part of convex ``quad`` inside every convex region (None: nothing)."""
    import cv2
    import numpy as np

    poly: np.ndarray = np.asarray(quad, np.float32)
    for r in regions:
        area, inter = cv2.intersectConvexConvex(poly, np.asarray(r, np.float32))
        if inter is None or area <= 0:
            return None
        poly = np.asarray(inter, np.float32).reshape(-1, 2)
    return poly.astype(np.float64)


def crop_label(quad: np.ndarray, regions: Sequence[np.ndarray]) -> np.ndarray | None:
    """A tile's label in a crop: its quad when whole; when cut, the rectangle
    in the tile's own frame (its angle kept) bounding its visible part; None
    when under ``MIN_VISIBLE`` of it shows. (The label line clips its corners
    to the crop, as YOLO does with a box an augmentation cuts.)"""
    import cv2
    import numpy as np

    quad = np.asarray(quad, np.float64)
    full = abs(cv2.contourArea(quad.astype(np.float32)))
    part = visible_part(quad, regions)
    if part is None or full <= 0:
        return None
    seen = abs(cv2.contourArea(part.astype(np.float32)))
    if seen < MIN_VISIBLE * full:
        return None
    if seen >= 0.995 * full:
        return quad
    (cx, cy), _, angle = cv2.minAreaRect(quad.astype(np.float32))
    t = np.radians(angle)
    axes = np.array([[np.cos(t), np.sin(t)], [-np.sin(t), np.cos(t)]])  # rows: the tile's two axes
    local = (part - [cx, cy]) @ axes.T
    (x1, y1), (x2, y2) = local.min(0), local.max(0)
    box = np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]])
    return box @ axes + [cx, cy]


def crop_origins(size: tuple[int, int], centres: np.ndarray, rng: np.random.Generator) -> list[tuple[int, int]]:
    """Top-left corners (view px; negative: padding) of the crops of a ``size``
    (w, h) view: one when it fits, else up to ``MAX_CROPS`` around tiles
    taken in a random order (a side that fits is padded at a random offset)."""
    import numpy as np

    w, h = size
    need = int(np.ceil(w / CROP) * np.ceil(h / CROP))
    n = 1 if need == 1 or not len(centres) else min(MAX_CROPS, need)
    order = rng.permutation(len(centres)) if len(centres) else np.zeros(0, int)
    out = []
    for k in range(n):
        xy = []
        for side, lim in ((0, w), (1, h)):
            if lim <= CROP:
                xy.append(-int(rng.integers(0, CROP - lim + 1)))
            else:
                c = centres[order[k % len(order)], side] if len(order) else lim / 2
                o = round(float(c) - rng.uniform(0.2, 0.8) * CROP)
                xy.append(int(np.clip(o, 0, lim - CROP)))
        out.append((xy[0], xy[1]))
    return out


def view_crops(view_img: np.ndarray, outline: np.ndarray, quads: Sequence[np.ndarray],
               rng: np.random.Generator) -> list[ViewCrop]:
    """The training crops of one view: ``outline`` is the photo's own area in
    the view (a tile is seen only there), ``quads`` the tiles (view px)."""
    import numpy as np

    from okey_vision.vision.detect import PAD_GREY

    h, w = view_img.shape[:2]
    quads = [np.asarray(q, np.float64) for q in quads]
    centres = np.array([q.mean(0) for q in quads]) if quads else np.zeros((0, 2))
    out = []
    for x0, y0 in crop_origins((w, h), centres, rng):
        canvas = np.full((CROP, CROP, 3), PAD_GREY, np.uint8)
        sx0, sy0 = max(x0, 0), max(y0, 0)
        sx1, sy1 = min(x0 + CROP, w), min(y0 + CROP, h)
        canvas[sy0 - y0:sy1 - y0, sx0 - x0:sx1 - x0] = view_img[sy0:sy1, sx0:sx1]
        rect = np.array([[sx0, sy0], [sx1, sy0], [sx1, sy1], [sx0, sy1]], np.float64)
        labels = [crop_label(q, (outline, rect)) for q in quads]
        out.append(ViewCrop(canvas, tuple(q - [x0, y0] for q in labels if q is not None),
                            np.asarray(outline, np.float64) - [x0, y0], (x0, y0)))
    return out


def scene_crops(scene: Scene, rng: np.random.Generator) -> list[ViewCrop]:
    """The crops of a rendered scene's view (none when it has no labelled tile)."""
    import numpy as np

    quads = [np.asarray(t.quad, np.float64) for t in scene.tiles]
    view = photo_view(scene.image, quads, rng)
    if view is None:
        return []
    h, w = scene.image.shape[:2]
    outline = view.to_view(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64))
    return view_crops(view.image, outline, [view.to_view(q) for q in quads], rng)


def turned_photo(img: np.ndarray, degrees: float, fill: int) -> tuple[np.ndarray, np.ndarray]:
    """The photo turned by ``degrees`` (counter-clockwise as shown) on a canvas
    grown to hold it, filled with grey ``fill``: (image, 2 x 3 photo-to-turned matrix)."""
    import cv2

    from okey_vision.vision.normalise import turn_matrix

    m, (nw, nh) = turn_matrix(img.shape[1], img.shape[0], degrees)
    out = cv2.warpAffine(img, m, (nw, nh), flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_CONSTANT,
                         borderValue=(fill, fill, fill))
    return out, m


def min_rect(polygon: np.ndarray) -> np.ndarray:
    """A labelled polygon's minimum-area rectangle (4 corners)."""
    import cv2
    import numpy as np

    return cv2.boxPoints(cv2.minAreaRect(np.asarray(polygon, np.float32))).astype(np.float64)


def real_crops(image: np.ndarray, real: RealImage, rng: np.random.Generator, turn: float | None = None
               ) -> list[ViewCrop]:
    """The crops of one real photo's view, the photo turned by ``turn``
    degrees (None: a random angle) first; each label its polygon's
    minimum-area rectangle in the view."""
    import numpy as np

    angle = float(rng.uniform(0, 360)) if turn is None else turn
    turned, m = turned_photo(image, angle, int(rng.choice(FILLS)))

    def move(pts: Sequence[Sequence[float]] | np.ndarray) -> np.ndarray:
        return np.asarray(pts, np.float64) @ m[:, :2].T + m[:, 2]

    rects = [min_rect(move(lab.polygon)) for lab in real.labels]
    view = photo_view(turned, rects, rng)
    if view is None:
        return []
    h, w = image.shape[:2]
    outline = view.to_view(move(np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float64)))
    return view_crops(view.image, outline, [view.to_view(q) for q in rects], rng)


def crop_lines(crop: ViewCrop) -> list[str]:
    """A crop's YOLO-OBB label lines (class 0)."""
    from okey_vision.synth.datasets import obb_line

    return [obb_line(0, q, CROP, CROP) for q in crop.quads]


def _write(out: Path, split: str, stem: str, crops: list[ViewCrop], repeat: int = 1) -> int:
    """Write ``crops`` as ``stem_k`` images and labels (``repeat`` copies each); how many files."""
    import cv2

    n = 0
    for k, c in enumerate(crops):
        text = "\n".join(crop_lines(c))
        text += "\n" if text else ""
        for r in range(repeat):
            name = f"{stem}_{k}" + (f"_r{r}" if r else "")
            cv2.imwrite(str(out / "images" / split / f"{name}.jpg"), c.image, [cv2.IMWRITE_JPEG_QUALITY, 95])
            (out / "labels" / split / f"{name}.txt").write_text(text, encoding="utf-8")
            n += 1
    return n


def make_view_data(count: int, seed: int, log: logging.Logger, recipe: str | None = None,
                   real_turns: int = 6, real_photos: int = 1, real_root: str | Path | None = None) -> Path:
    """Build (once; resumable: a restart continues after the last scene
    written) the view data set: ``count`` scenes of ``recipe``, and each real
    training photo turned ``real_turns`` times (each crop ``real_photos``
    times); returns its ``data.yaml``."""
    import numpy as np

    from okey_vision.synth.datasets import (
        TILE_CLASSES,
        image_seed,
        split_of,
        write_data_yaml,
    )
    from okey_vision.synth.real import load_real, split_real
    from okey_vision.synth.render import render_scene
    from okey_vision.training.data import load_recipe

    recipe = recipe or VIEW_RECIPE
    out = paths.DATA / f"views-{Path(recipe).stem}-{count}-{seed}-real{real_turns}x{real_photos}"
    done, mark = out / ".done", out / ".scenes"
    if done.exists():
        return out / "data.yaml"
    start = int(mark.read_text()) if mark.exists() else 0
    if not start:
        shutil.rmtree(out, ignore_errors=True)
    for sp in ("train", "val"):
        (out / "images" / sp).mkdir(parents=True, exist_ok=True)
        (out / "labels" / sp).mkdir(parents=True, exist_ok=True)
    config = load_recipe(recipe)
    t = time.time()
    log.info(f"views of {count} scenes of {recipe} (seed {seed}) into {out}, from scene {start}")
    n = 0
    for i in range(start, count):
        scene = render_scene(image_seed(seed, i), config)
        rng = np.random.default_rng(np.random.SeedSequence([seed, i, 13]))
        n += _write(out, split_of(i, seed, VAL_FRACTION), f"view_{seed}_{i:06d}", scene_crops(scene, rng))
        if (i + 1) % 50 == 0 or i + 1 == count:
            mark.write_text(str(i + 1))
        if (i + 1) % 100 == 0:
            log.info(f"  {i + 1}/{count} scenes, {n} crops this session, {time.time() - t:.0f}s")
    train, _ = split_real(load_real(real_root))
    m = 0
    for j, real in enumerate(train):
        import cv2

        image = cv2.imread(str(real.path))
        if image is None:
            continue
        rng = np.random.default_rng(np.random.SeedSequence([seed, j, 17]))
        for k in range(real_turns):
            m += _write(out, "train", f"real_{real.stem}_t{k}", real_crops(image, real, rng), real_photos)
    log.info(f"  {len(train)} real training photos x {real_turns} turns: {m} crops")
    write_data_yaml(out, TILE_CLASSES)
    done.write_text("ok")
    log.info(f"view data ready in {time.time() - t:.0f}s: "
             f"{len(list((out / 'images' / 'train').glob('*.jpg')))} train, "
             f"{len(list((out / 'images' / 'val').glob('*.jpg')))} val images")
    return out / "data.yaml"


__all__ = ["ANGLE_JITTER", "CROP", "MIN_VISIBLE", "SIZE_JITTER", "VIEW_RECIPE", "ViewCrop", "crop_label",
           "jitter_pose", "make_view_data", "min_rect", "photo_view", "real_crops", "scene_crops",
           "turned_photo", "view_crops"]
