"""The classifiers' training data: tile crops rendered, from the real photos,
and cut where the shipped detectors find the tiles.

Face crops (53 folders, one per face) are rendered once per recipe and seed
into the git-ignored ``data/``; the ``number`` and ``color`` folders link
to them (classes merged, the real and false-joker crops repeated). The
held-out real photos' crops go to ``val/`` only, never ``train/``.
"""

from __future__ import annotations

import hashlib
import logging
import os
import shutil
import time
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from okey_vision.eval.match import box_iou, greedy_match
from okey_vision.training import paths
from okey_vision.training.data import load_recipe

if TYPE_CHECKING:
    import numpy as np

    from okey_vision.synth.config import SynthConfig
    from okey_vision.synth.render import Scene
    from okey_vision.vision.reader import RackReader

#: The upright crops' default recipe.
UPRIGHT_RECIPE = "synth-upright.yaml"
#: Detected crops: a detection is a tile's when their upright boxes overlap this
#: much (the benchmark's matching rule), and is cut only when its long axis is
#: within 60 degrees of the tile's (a box turned sideways reads nothing).
DETECTED_IOU = 0.4
DETECTED_MIN_COS = 0.5
#: Detected crops: random margin per side (the reader reads 5 % and 12 %).
DETECTED_MARGIN = (0.03, 0.15)


def crops_config() -> SynthConfig:
    """The synthetic crop recipe (``datasets/synth-crops.yaml``)."""
    return load_recipe("synth-crops.yaml")


def upright_config(recipe: str = UPRIGHT_RECIPE) -> SynthConfig:
    """The upright crop recipe (``datasets/synth-upright.yaml`` by default)."""
    return load_recipe(recipe)


def detected_config() -> SynthConfig:
    """The recipe of the crops cut from detections (``datasets/synth-detected.yaml``)."""
    return load_recipe("synth-detected.yaml")


def upright_suffix(geometry: str, recipe: str | None, jitter: float | None, rect: bool, turn: float) -> str:
    """The part of a crop folder's name that tells how its upright crops were
    cut (nothing for the defaults; ``None``: the default), so other cuts never
    reuse its crops."""
    from okey_vision.synth.datasets import UPRIGHT_JITTER

    if geometry != "upright":
        return ""
    return ("-upright" + (f"-{Path(recipe).stem}" if recipe not in (None, UPRIGHT_RECIPE) else "")
            + (f"-jit{jitter:g}" if jitter not in (None, UPRIGHT_JITTER) else "")
            + ("-rect" if rect else "") + (f"-turn{turn:g}" if turn else ""))


def make_face_crops(count: int, seed: int, log: logging.Logger, geometry: str = "box",
                    recipe: str | None = None, jitter: float | None = None, rect: bool = False,
                    turn: float = 0.0) -> Path:
    """Render 53-class face crops (once): synthetic plus the real photos' crops.

    The real held-out photos' crops go to ``val/`` only (never ``train/``).
    Upright crops of another ``recipe`` than the default, or with another
    corner ``jitter``, cut from the oriented rectangles (``rect``) or turned
    (``turn``, degrees), render into their own folder."""
    from okey_vision.synth.datasets import UPRIGHT_JITTER, write_crop_dataset
    from okey_vision.synth.real import write_real_crops

    out = paths.DATA / (f"crops-face-{count}-{seed}" + upright_suffix(geometry, recipe, jitter, rect, turn))
    done = out / ".done"
    if done.exists():
        return out
    shutil.rmtree(out, ignore_errors=True)
    t = time.time()
    log.info(f"rendering crops of {count} synthetic images into {out}")
    write_crop_dataset(out, count, seed,
                       upright_config(recipe or UPRIGHT_RECIPE) if geometry == "upright" else crops_config(),
                       label="face", size=64, geometry=geometry, rect=rect, turn=turn,
                       jitter=UPRIGHT_JITTER if jitter is None else jitter,
                       progress=paths.progress(log, 250, count))
    write_real_crops(out, label="face", size=64, geometry=geometry)
    done.write_text("ok")
    log.info(f"face crops ready in {time.time() - t:.0f}s")
    return out


def detected_crops(reader: RackReader, scene: Scene, rng: np.random.Generator, size: int = 64,
                   refined: bool = False) -> list[tuple[str, np.ndarray]]:
    """(face name, crop) for each labelled tile of ``scene`` that ``reader``'s
    detectors find: cut upright from the *detected* corners, turned the tile's
    true way up -- the crops the reader's classifiers will see. ``refined``:
    cut from the refined corners instead, only for the oriented detections
    the reader reads again from them (``CropConfig.refined_shift``)."""
    import numpy as np

    from okey_vision.vision.crops import quad_axes, turned, upright_crop, upright_quad
    from okey_vision.vision.fuse import drop_cut_tiles
    from okey_vision.vision.refine import refine, shift

    img = scene.image
    dets = drop_cut_tiles(reader.detect(img), img.shape[1], img.shape[0], reader.config.fuse.min_visible)
    out = []
    for i, j, _ in greedy_match(scene.tiles, dets, lambda t, d: box_iou(t.box, d.box), DETECTED_IOU):
        t, d = scene.tiles[i], dets[j]
        q = upright_quad(d.quad)
        if refined:
            if not d.oriented:
                continue
            rq = refine(img, q)[0]
            if shift(rq, q) < reader.config.crop.refined_shift:
                continue
            q = upright_quad(rq)
        true_up = quad_axes(np.asarray(t.quad, np.float64))[1]
        cos = float(quad_axes(q)[1] @ true_up)
        if abs(cos) < DETECTED_MIN_COS:
            continue
        q = q if cos > 0 else turned(q)
        out.append((t.tile.name, upright_crop(img, q, size, tuple(rng.uniform(*DETECTED_MARGIN, 4)))))
    return out


def detectors_fingerprint() -> str:
    """A short hash of the detector weights in ``models/``: detected crops are
    reused only while the detectors that cut them are the ones there."""
    h = hashlib.sha1()
    for path in sorted(paths.MODELS.glob("detector*")):
        if path.suffix in (".onnx", ".pt"):
            h.update(path.name.encode())
            h.update(path.read_bytes())
    return h.hexdigest()[:16]


def make_detected_crops(count: int, seed: int, log: logging.Logger, refined: bool = False) -> Path:
    """Render ``count`` scenes of ``synth-detected.yaml`` (once) and cut each
    found tile where the shipped detectors put it (:func:`detected_crops`;
    ``refined``: from the refined corners), into 53 face folders."""
    import cv2
    import numpy as np

    from okey_vision.synth.datasets import FACE_CLASSES, scenes, split_of
    from okey_vision.vision.reader import RackReader

    out = paths.DATA / (f"crops-face-detected-{count}-{seed}" + ("-refined" if refined else ""))
    done = out / ".done"
    stamp = f"detectors {detectors_fingerprint()}"
    if done.exists() and done.read_text() == stamp:
        return out
    if done.exists():  # cut by other detectors (e.g. before a retrain): cut again
        log.info(f"{out} was cut by other detectors; cutting it again")
    shutil.rmtree(out, ignore_errors=True)
    for sp in ("train", "val"):
        for name in FACE_CLASSES:
            (out / sp / name).mkdir(parents=True, exist_ok=True)
    reader = RackReader(paths.MODELS).load()
    t0, n = time.time(), 0
    log.info(f"cutting detected crops of {count} scenes into {out} (detectors: {reader.backends})")
    for i, scene in scenes(count, seed, detected_config()):
        sp = split_of(i, seed, 0.1)
        rng = np.random.default_rng(np.random.SeedSequence([int(seed), int(i), 13]))
        for k, (name, crop) in enumerate(detected_crops(reader, scene, rng, refined=refined)):
            cv2.imwrite(str(out / sp / name / f"det_{seed}_{i:06d}_{k:02d}.png"), crop)
            n += 1
        if (i + 1) % 100 == 0:
            log.info(f"  {i + 1}/{count} scenes, {n} crops, {time.time() - t0:.0f}s")
    done.write_text(stamp)
    log.info(f"detected crops ready: {n} in {time.time() - t0:.0f}s")
    return out


def make_crop_data(label: str, count: int, seed: int, log: logging.Logger,
                   real_repeat: int = 3, fj_repeat: int = 1, real_turns: bool = False,
                   geometry: str = "box", detected: int = 0, detected_seed: int = 3000,
                   refined: int = 0, refined_seed: int = 3200, recipe: str | None = None,
                   jitter: float | None = None, rect: bool = False, turn: float = 0.0) -> Path:
    """A classifier folder for ``label`` (number/color) linked from the face crops;
    the real training crops appear ``real_repeat`` times (they are few), the
    false-joker training crops ``fj_repeat`` times (2 of 106 tiles: rare).
    ``real_turns``: the real crops' repeats are turned by 90, 180 and 270
    degrees instead of copied (tiles on a table lie at any angle; the real
    photos show few of them turned). ``detected``: also the crops cut where
    the shipped detectors find the tiles of that many scenes
    (:func:`make_detected_crops`); ``refined``: and cut from the refined
    corners in that many scenes. ``recipe``, ``jitter``, ``rect``, ``turn``:
    the upright crops' recipe, corner jitter and cut (see :func:`make_face_crops`)."""
    faces = make_face_crops(count, seed, log, geometry, recipe, jitter, rect, turn)
    sources = [faces] + ([make_detected_crops(detected, detected_seed, log)] if detected else [])
    sources += [make_detected_crops(refined, refined_seed, log, refined=True)] if refined else []
    out = paths.DATA / (f"crops-{label}-{count}-{seed}" + upright_suffix(geometry, recipe, jitter, rect, turn)
                        + (f"-fj{fj_repeat}" if fj_repeat > 1 else "")
                        + (f"-real{real_repeat}" + ("turns" if real_turns else "")
                           if real_repeat != 3 or real_turns else "")
                        + (f"-det{detected}-{detected_seed}" if detected else "")
                        + (f"-ref{refined}-{refined_seed}" if refined else ""))
    done = out / ".done"
    stamp = "\n".join((f / ".done").read_text() for f in sources)  # rebuilt when a source was
    if done.exists() and done.read_text() == stamp:
        return out
    shutil.rmtree(out, ignore_errors=True)
    # upright crops: the colour classifier reads white-balanced crops (as the reader does)
    white = geometry == "upright" and label == "color"
    link_crops(out, sources, label, real_repeat, fj_repeat, real_turns, white)
    done.write_text(stamp)
    n = sum(1 for _ in (out / "train").glob("*/*.png"))
    log.info(f"{label} crop data ready ({n} train crops)")
    return out


def link_crops(out: Path, sources: Sequence[Path], label: str, real_repeat: int, fj_repeat: int,
               real_turns: bool, white: bool) -> None:
    """Fill ``out``'s ``label`` class folders from the face folders of
    ``sources``: hard links, the real training crops ``real_repeat`` times
    (turned when ``real_turns``), the false-joker ones ``fj_repeat`` times;
    ``white``: written white-balanced instead of linked."""
    import cv2
    import numpy as np

    from okey_vision.synth.datasets import CROP_CLASSES
    from okey_vision.tiles import parse_tile
    from okey_vision.vision.crops import white_balance

    for sp in ("train", "val"):
        for name in CROP_CLASSES[label]:
            (out / sp / name).mkdir(parents=True, exist_ok=True)
        for src in (p for f in sources for p in (f / sp).glob("*/*.png")):
            tile = parse_tile(src.parent.name)
            cls = "fj" if tile.is_false_joker else (tile.color if label == "color" else str(tile.number))
            real = sp == "train" and src.name.startswith("real_")
            reps = real_repeat if real else 1
            if sp == "train" and cls == "fj":
                reps *= fj_repeat
            for k in range(reps):
                dst = out / sp / cls / (src.name if k == 0 else f"{src.stem}_dup{k}.png")
                if real and real_turns and k % 4:
                    cv2.imwrite(str(dst), np.rot90(read_image(src), k % 4))
                elif white:
                    cv2.imwrite(str(dst), white_balance(read_image(src)))
                else:
                    os.link(src, dst)


def read_image(path: Path) -> np.ndarray:
    """A crop read back from disk (BGR); an unreadable one raises ValueError naming it."""
    import cv2
    import numpy as np

    img = cv2.imread(str(path))
    if img is None:
        raise ValueError(f"{path}: not a readable image")
    return np.asarray(img)
