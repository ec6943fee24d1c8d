"""The detectors' training data: rendered scenes, real photos, rectified row strips.

Each builder renders into the git-ignored ``data/`` folder once
(deterministic from its seed; a ``.done`` mark makes it resumable) and adds
the *training* split of the real photos (``okey_vision.synth.real``; the
held-out photos go to ``val/`` only, never ``train/``).
"""

from __future__ import annotations

import logging
import shutil
import time
from dataclasses import replace
from pathlib import Path
from typing import TYPE_CHECKING

from okey_vision.training import paths

if TYPE_CHECKING:
    import numpy as np

    from okey_vision.synth.config import SynthConfig
    from okey_vision.synth.render import Scene
    from okey_vision.vision.rectify import Placement, RowStrip

#: The oriented detector's default recipe.
OBB_RECIPE = "synth-obb.yaml"
#: Rectified row strips (``okey_vision.vision.rectify``) for the upright
#: detector: the player-like training recipe (never the test recipe synth-player.yaml).
STRIP_RECIPE = "synth-upright-player.yaml"
#: The true corners are moved by this share of the tile's height (normal
#: sd) before the rows are fitted, as loose as the first pass's boxes.
STRIP_JITTER = 0.08
#: A face less than this share on its strip canvas is left unlabelled.
STRIP_MIN_SHARE = 0.6


def load_recipe(name: str) -> SynthConfig:
    """A synthetic data recipe of ``datasets/`` by file name."""
    from okey_vision.synth import load_config

    return load_config(paths.recipe_path(name))


def detect_config() -> SynthConfig:
    """The synthetic detection recipe (``datasets/synth-detect.yaml``)."""
    return load_recipe("synth-detect.yaml")


def obb_config(recipe: str = OBB_RECIPE) -> SynthConfig:
    """The oriented detector's recipe (``datasets/synth-obb.yaml`` by default)."""
    return load_recipe(recipe)


def make_detect_data(count: int, seed: int, log: logging.Logger, real_photos: int = 1) -> Path:
    """Render the detector's data (once) plus the real training photos (``real_photos`` times)."""
    return make_boxes_data("detect", detect_config(), "tile", count, seed, log, real_photos)


def make_obb_data(count: int, seed: int, log: logging.Logger, recipe: str | None = None,
                  real_photos: int = 1) -> Path:
    """Render the oriented detector's data (once) plus the real training photos
    (their upright boxes as corners; the held-out photos only in val/).
    Another ``recipe`` than the default renders into its own folder; the
    real training photos count ``real_photos`` times."""
    name = "obb" if recipe in (None, OBB_RECIPE) else f"obb-{Path(recipe).stem}"
    return make_boxes_data(name, obb_config(recipe or OBB_RECIPE), "obb", count, seed, log, real_photos)


def make_boxes_data(name: str, config: SynthConfig, classes: str, count: int, seed: int,
                    log: logging.Logger, real_photos: int = 1) -> Path:
    """Render ``count`` scenes of ``config`` (once, resumable by its ``.done``
    mark) as a YOLO ``classes`` data set, plus the real photos (train split
    -> train, ``real_photos`` times; held-out split -> val); its ``data.yaml``."""
    from okey_vision.synth.datasets import write_detect_dataset
    from okey_vision.synth.real import write_real_detect

    out = paths.DATA / (f"{name}-{count}-{seed}" + (f"-real{real_photos}" if real_photos != 1 else ""))
    done = out / ".done"
    if done.exists():
        return out / "data.yaml"
    shutil.rmtree(out, ignore_errors=True)
    t = time.time()
    log.info(f"rendering {count} synthetic {name} images into {out}")
    write_detect_dataset(out, count, seed, config, classes=classes,
                         progress=paths.progress(log, 100, count))
    write_real_detect(out, classes=classes, repeat=real_photos)
    done.write_text("ok")
    log.info(f"{name} data ready in {time.time() - t:.0f}s")
    return out / "data.yaml"


def make_strip_data(count: int, seed: int, log: logging.Logger, recipe: str = STRIP_RECIPE) -> Path:
    """Render ``count`` scenes (once, resumable by its ``.done`` mark) and write
    the canvases the reader's second pass would see -- every rack row warped
    level and unsheared from loosened true corners, stacked on 416 px
    canvases -- labelled with the true faces' upright bounds there (a face
    less than 60 % on its chunk is left unlabelled); returns the folder,
    with ``images/{train,val}`` and ``labels/{train,val}``."""
    import cv2

    from okey_vision.synth.datasets import image_seed, split_of
    from okey_vision.synth.render import render_scene

    out = paths.DATA / f"strips-{Path(recipe).stem}-{count}-{seed}"
    done = out / ".done"
    if done.exists():
        return out
    shutil.rmtree(out, ignore_errors=True)
    for sp in ("train", "val"):
        (out / "images" / sp).mkdir(parents=True, exist_ok=True)
        (out / "labels" / sp).mkdir(parents=True, exist_ok=True)
    config = load_recipe(recipe)
    t, n = time.time(), 0
    log.info(f"cutting rectified row strips of {count} scenes into {out}")
    for i in range(count):
        scene = render_scene(image_seed(seed, i), config)
        sp = split_of(i, seed, 0.1)
        for k, (canvas, places) in enumerate(strip_canvases(scene, seed, i)):
            lines = strip_labels(scene, places)
            stem = f"strip_{seed}_{i:06d}_{k}"
            cv2.imwrite(str(out / "images" / sp / f"{stem}.jpg"), canvas, [cv2.IMWRITE_JPEG_QUALITY, 95])
            (out / "labels" / sp / f"{stem}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
            n += 1
        if (i + 1) % 100 == 0:
            log.info(f"  {i + 1}/{count} scenes, {n} canvases, {time.time() - t:.0f}s")
    done.write_text("ok")
    log.info(f"strip canvases ready: {n} in {time.time() - t:.0f}s")
    return out


def strip_labels(scene: Scene, places: list[tuple[RowStrip, Placement]]) -> list[str]:
    """The YOLO label lines of one strip canvas: each true face's upright
    bounds on each chunk that shows at least ``STRIP_MIN_SHARE`` of it."""
    import numpy as np

    from okey_vision.synth.datasets import yolo_line
    from okey_vision.vision import rectify

    lines = []
    for rs, p in places:
        x_hi = min(rectify.DEFAULT.canvas, rs.size[0] - p.x0)
        for tl in scene.tiles:
            q = rectify.to_canvas(np.asarray(tl.quad, np.float64), p, rs)
            x1, y1 = q.min(0)
            x2, y2 = q.max(0)
            area = (x2 - x1) * (y2 - y1)
            cx1, cy1 = max(x1, 0.0), max(y1, p.y0)
            cx2, cy2 = min(x2, x_hi), min(y2, p.y0 + rs.size[1])
            if area <= 0 or cx2 <= cx1 or cy2 <= cy1 or (cx2 - cx1) * (cy2 - cy1) < STRIP_MIN_SHARE * area:
                continue
            lines.append(yolo_line(0, (cx1, cy1, cx2, cy2), rectify.DEFAULT.canvas, rectify.DEFAULT.canvas))
    return lines


def strip_canvases(scene: Scene, seed: int, index: int
                   ) -> list[tuple[np.ndarray, list[tuple[RowStrip, Placement]]]]:
    """The canvases :func:`make_strip_data` cuts from scene ``index`` of
    ``seed``, each with its (RowStrip, Placement) pairs: every rack row of
    three or more tiles warped from its true corners loosened by
    ``STRIP_JITTER`` (deterministic from seed and index)."""
    import numpy as np

    from okey_vision.vision import rectify
    from okey_vision.vision.crops import quad_axes

    rng = np.random.default_rng(np.random.SeedSequence([seed, index, 11]))
    rack = [np.asarray(tl.quad, np.float64) for tl in scene.tiles if tl.on_rack]
    if len(rack) < 3:
        return []
    loose = [q + rng.normal(0, STRIP_JITTER * quad_axes(q)[3], q.shape) for q in rack]
    strips = rectify.row_strips(scene.image, loose, replace(rectify.DEFAULT, min_lean=0.0))
    rows = [rs for rs, _ in strips]
    return [(canvas, [(rows[p.strip], p) for p in places])
            for canvas, places in rectify.canvases([im for _, im in strips])]


def with_strips(data: Path, strips: Path) -> Path:
    """A ``data.yaml`` training and validating on ``data``'s images and the strip canvases."""
    import yaml

    base = yaml.safe_load(Path(data).read_text())
    root = Path(base["path"])
    out = Path(data).with_name(f"data-{strips.name}.yaml")
    out.write_text(yaml.safe_dump({
        "path": str(root), "names": base["names"],
        "train": [str(root / base["train"]), str(strips / "images" / "train")],
        "val": [str(root / base["val"]), str(strips / "images" / "val")]}))
    return out
