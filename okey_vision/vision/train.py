"""Reproducible, resumable training of the tile reader's models.

Three models, all Ultralytics YOLO11n built from their yaml (no pretrained
weights exist offline):

* ``detector`` -- one class ``tile``; finds every face-up tile.
* ``number``   -- classifier of a tile crop: ``1``..``13`` or ``fj``.
* ``color``    -- classifier of a tile crop: ``r y b k`` or ``fj``.

Each run renders its synthetic data into the git-ignored ``data/`` folder
(deterministic from the seed), adds the *training* split of the real photos
(``okey_vision.synth.real.split_real``; the held-out photos are never used),
trains under ``runs/okey/<model>/``, logs to ``runs/okey/<model>.log`` and
copies the stripped best weights into ``models/<model>.pt``.

    python -m okey_vision.vision.train detector --epochs 12
    python -m okey_vision.vision.train number --epochs 15
    python -m okey_vision.vision.train color --epochs 8

Run it again with the same arguments to resume an interrupted run (it resumes
from ``runs/okey/<model>/weights/last.pt``); ``--init models/detector.onnx``
starts a new run from shipped weights (continue training across sessions:
the ``.pt`` files are not shipped, so the checkpoint is rebuilt from the
ONNX copy, :func:`recover_pt`);
``--ship-only`` just copies the current best/last weights into ``models/``;
``export`` writes ONNX copies of ``models/*.pt`` (the reader prefers them).
"""

from __future__ import annotations

import argparse
import hashlib
import logging
import os
import shutil
import sys
import time
from collections.abc import Sequence
from pathlib import Path

os.environ.setdefault("YOLO_OFFLINE", "1")

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
RUNS = ROOT / "runs" / "okey"
MODELS = ROOT / "models"

#: Default recipe per model: data size, image size, schedule.
RECIPES: dict[str, dict] = {
    # oriented detector (ultralytics OBB, labels = exact tile corners); ships as detector.*
    "obb": dict(count=900, seed=1000, imgsz=320, batch=16, epochs=10, lr0=0.002,
                optimizer="AdamW", warmup_epochs=0.5, cos_lr=True, close_mosaic=2),
    "detector": dict(count=450, seed=100, imgsz=320, batch=16, epochs=25, lr0=0.002,
                     optimizer="AdamW", warmup_epochs=1.0, cos_lr=True, close_mosaic=2),
    # classifiers: no warmup (ultralytics' warmup_bias_lr=0.1 with AdamW stalls them)
    "number": dict(count=800, seed=200, imgsz=64, batch=64, epochs=25, lr0=0.001, fraction=0.6,
                   optimizer="AdamW", warmup_epochs=0.0, cos_lr=True),
    "color": dict(count=800, seed=200, imgsz=32, batch=64, epochs=6, lr0=0.001, fraction=0.6,
                  optimizer="AdamW", warmup_epochs=0.0, cos_lr=True),
}


def log_to(path: Path) -> logging.Logger:
    """Send ultralytics' and our log lines to ``path`` as well as stdout."""
    from ultralytics.utils import LOGGER

    path.parent.mkdir(parents=True, exist_ok=True)
    for h in list(LOGGER.handlers):  # one log file per model run
        if getattr(h, "_okey_log", False):
            LOGGER.removeHandler(h)
            h.close()
    fh = logging.FileHandler(path, encoding="utf-8")
    fh._okey_log = True
    fh.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
    LOGGER.addHandler(fh)
    return LOGGER


def detect_config():
    """The synthetic detection recipe (``datasets/synth-detect.yaml``)."""
    from okey_vision.synth import load_config

    return load_config(ROOT / "datasets" / "synth-detect.yaml")


def crops_config():
    """The synthetic crop recipe (``datasets/synth-crops.yaml``)."""
    from okey_vision.synth import load_config

    return load_config(ROOT / "datasets" / "synth-crops.yaml")


def make_detect_data(count: int, seed: int, log: logging.Logger, real_photos: int = 1) -> Path:
    """Render the detector's data (once) plus the real training photos (``real_photos`` times)."""
    return _make_boxes_data("detect", detect_config(), "tile", count, seed, log, real_photos)


#: The oriented detector's default recipe.
OBB_RECIPE = "synth-obb.yaml"


def obb_config(recipe: str = OBB_RECIPE):
    """The oriented detector's recipe (``datasets/synth-obb.yaml`` by default)."""
    from okey_vision.synth import load_config

    return load_config(ROOT / "datasets" / recipe)


def make_obb_data(count: int, seed: int, log: logging.Logger, recipe: str | None = None,
                  real_photos: int = 1) -> Path:
    """Render the oriented detector's data (once) plus the real training photos
    (their upright boxes as corners; the held-out photos only in val/).
    Another ``recipe`` than the default renders into its own folder; the
    real training photos count ``real_photos`` times."""
    name = "obb" if recipe in (None, OBB_RECIPE) else f"obb-{Path(recipe).stem}"
    return _make_boxes_data(name, obb_config(recipe or OBB_RECIPE), "obb", count, seed, log, real_photos)


def _make_boxes_data(name: str, config, classes: str, count: int, seed: int, log: logging.Logger,
                     real_photos: int = 1) -> Path:
    """Render ``count`` scenes of ``config`` (once, resumable by its ``.done``
    mark) as a YOLO ``classes`` data set, plus the real photos (train split
    -> train, ``real_photos`` times; held-out split -> val)."""
    from okey_vision.synth.datasets import write_detect_dataset
    from okey_vision.synth.real import write_real_detect

    out = DATA / (f"{name}-{count}-{seed}" + (f"-real{real_photos}" if real_photos != 1 else ""))
    done = out / ".done"
    if done.exists():
        return out / "data.yaml"
    shutil.rmtree(out, ignore_errors=True)
    t = time.time()
    log.info(f"rendering {count} synthetic {name} images into {out}")
    write_detect_dataset(out, count, seed, config, classes=classes,
                         progress=lambda i: (i + 1) % 100 == 0 and log.info(f"  rendered {i + 1}/{count}"))
    write_real_detect(out, classes=classes, repeat=real_photos)
    done.write_text("ok")
    log.info(f"{name} data ready in {time.time() - t:.0f}s")
    return out / "data.yaml"


#: Rectified row strips (``okey_vision.vision.rectify``) for the upright
#: detector: the player-like training recipe (never the test recipe synth-player.yaml).
STRIP_RECIPE = "synth-upright-player.yaml"
#: The true corners are moved by this share of the tile's height (normal
#: sd) before the rows are fitted, as loose as the first pass's boxes.
STRIP_JITTER = 0.08


def make_strip_data(count: int, seed: int, log: logging.Logger, recipe: str = STRIP_RECIPE) -> Path:
    """Render ``count`` scenes (once, resumable by its ``.done`` mark) and write
    the canvases the reader's second pass would see -- every rack row warped
    level and unsheared from loosened true corners, stacked on 416 px
    canvases -- labelled with the true faces' upright bounds there (a face
    less than 60 % on its chunk is left unlabelled); returns the folder,
    with ``images/{train,val}`` and ``labels/{train,val}``."""
    import cv2

    from okey_vision.synth import load_config
    from okey_vision.synth.datasets import image_seed, split_of, yolo_line
    from okey_vision.synth.render import render_scene
    from okey_vision.vision import rectify

    out = DATA / f"strips-{Path(recipe).stem}-{count}-{seed}"
    done = out / ".done"
    if done.exists():
        return out
    shutil.rmtree(out, ignore_errors=True)
    for sp in ("train", "val"):
        (out / "images" / sp).mkdir(parents=True, exist_ok=True)
        (out / "labels" / sp).mkdir(parents=True, exist_ok=True)
    config = load_config(ROOT / "datasets" / recipe)
    t, n = time.time(), 0
    log.info(f"cutting rectified row strips of {count} scenes into {out}")
    for i in range(count):
        scene = render_scene(image_seed(seed, i), config)
        sp = split_of(i, seed, 0.1)
        for k, (canvas, places) in enumerate(strip_canvases(scene, seed, i)):
            lines = []
            for rs, p in places:
                x_hi = min(rectify.CANVAS, rs.size[0] - p.x0)
                for tl in scene.tiles:
                    q = rectify.to_canvas(tl.quad, p, rs)
                    x1, y1 = q.min(0)
                    x2, y2 = q.max(0)
                    area = (x2 - x1) * (y2 - y1)
                    cx1, cy1 = max(x1, 0.0), max(y1, p.y0)
                    cx2, cy2 = min(x2, x_hi), min(y2, p.y0 + rs.size[1])
                    if area <= 0 or cx2 <= cx1 or cy2 <= cy1 or (cx2 - cx1) * (cy2 - cy1) < 0.6 * area:
                        continue
                    lines.append(yolo_line(0, (cx1, cy1, cx2, cy2), rectify.CANVAS, rectify.CANVAS))
            stem = f"strip_{seed}_{i:06d}_{k}"
            cv2.imwrite(str(out / "images" / sp / f"{stem}.jpg"), canvas, [cv2.IMWRITE_JPEG_QUALITY, 95])
            (out / "labels" / sp / f"{stem}.txt").write_text("\n".join(lines) + ("\n" if lines else ""))
            n += 1
        if (i + 1) % 100 == 0:
            log.info(f"  {i + 1}/{count} scenes, {n} canvases, {time.time() - t:.0f}s")
    done.write_text("ok")
    log.info(f"strip canvases ready: {n} in {time.time() - t:.0f}s")
    return out


def strip_canvases(scene, seed: int, index: int) -> list[tuple]:
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
    strips = rectify.row_strips(scene.image, loose, min_lean=0.0)
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


#: The upright crops' default recipe.
UPRIGHT_RECIPE = "synth-upright.yaml"


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


def upright_config(recipe: str = UPRIGHT_RECIPE):
    """The upright crop recipe (``datasets/synth-upright.yaml`` by default)."""
    from okey_vision.synth import load_config

    return load_config(ROOT / "datasets" / recipe)


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

    out = DATA / (f"crops-face-{count}-{seed}" + upright_suffix(geometry, recipe, jitter, rect, turn))
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
                       progress=lambda i: (i + 1) % 250 == 0 and log.info(f"  rendered {i + 1}/{count}"))
    write_real_crops(out, label="face", size=64, geometry=geometry)
    done.write_text("ok")
    log.info(f"face crops ready in {time.time() - t:.0f}s")
    return out


def detected_config():
    """The recipe of the crops cut from detections (``datasets/synth-detected.yaml``)."""
    from okey_vision.synth import load_config

    return load_config(ROOT / "datasets" / "synth-detected.yaml")


#: Detected crops: a detection is a tile's when their upright boxes overlap this
#: much (the benchmark's matching rule), and is cut only when its long axis is
#: within 60 degrees of the tile's (a box turned sideways reads nothing).
DETECTED_IOU = 0.4
DETECTED_MIN_COS = 0.5
#: Detected crops: random margin per side (the reader reads 5 % and 12 %).
DETECTED_MARGIN = (0.03, 0.15)


def detected_crops(reader, scene, rng, size: int = 64, refined: bool = False
                   ) -> list[tuple[str, "np.ndarray"]]:
    """(face name, crop) for each labelled tile of ``scene`` that ``reader``'s
    detectors find: cut upright from the *detected* corners, turned the tile's
    true way up -- the crops the reader's classifiers will see. ``refined``:
    cut from the refined corners instead, only for the oriented detections
    the reader reads again from them (``reader.REFINED_SHIFT``)."""
    import numpy as np

    from okey_vision.vision.crops import box_quad, quad_axes, turned, upright_crop, upright_quad
    from okey_vision.vision.reader import REFINED_SHIFT, drop_cut_tiles
    from okey_vision.vision.refine import refine, shift

    img = scene.image
    dets = drop_cut_tiles(reader.detect(img), img.shape[1], img.shape[0])
    pairs = sorted(((_iou(t.box, d.box), i, j) for i, t in enumerate(scene.tiles)
                    for j, d in enumerate(dets)), reverse=True)
    used_t: set[int] = set()
    used_d: set[int] = set()
    out = []
    for v, i, j in pairs:
        if v < DETECTED_IOU:
            break
        if i in used_t or j in used_d:
            continue
        used_t.add(i)
        used_d.add(j)
        t, d = scene.tiles[i], dets[j]
        q = upright_quad(d.quad if d.quad is not None else box_quad(d.box))
        if refined:
            if d.quad is None:
                continue
            rq = refine(img, q)[0]
            if shift(rq, q) < REFINED_SHIFT:
                continue
            q = upright_quad(rq)
        true_up = quad_axes(np.asarray(t.quad, np.float64))[1]
        cos = float(quad_axes(q)[1] @ true_up)
        if abs(cos) < DETECTED_MIN_COS:
            continue
        q = q if cos > 0 else turned(q)
        out.append((t.tile.name, upright_crop(img, q, size, tuple(rng.uniform(*DETECTED_MARGIN, 4)))))
    return out


def _iou(a, b) -> float:
    ix = max(0.0, min(a[2], b[2]) - max(a[0], b[0]))
    iy = max(0.0, min(a[3], b[3]) - max(a[1], b[1]))
    inter = ix * iy
    u = (a[2] - a[0]) * (a[3] - a[1]) + (b[2] - b[0]) * (b[3] - b[1]) - inter
    return inter / u if u > 0 else 0.0


def detectors_fingerprint() -> str:
    """A short hash of the detector weights in ``models/``: detected crops are
    reused only while the detectors that cut them are the ones there."""
    h = hashlib.sha1()
    for path in sorted(MODELS.glob("detector*")):
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

    out = DATA / (f"crops-face-detected-{count}-{seed}" + ("-refined" if refined else ""))
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
    reader = RackReader(MODELS).load()
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
    import cv2
    import numpy as np
    from okey_vision.synth.datasets import CROP_CLASSES
    from okey_vision.tiles import parse_tile

    from okey_vision.vision.crops import white_balance

    faces = make_face_crops(count, seed, log, geometry, recipe, jitter, rect, turn)
    sources = [faces] + ([make_detected_crops(detected, detected_seed, log)] if detected else [])
    sources += [make_detected_crops(refined, refined_seed, log, refined=True)] if refined else []
    # upright crops: the colour classifier reads white-balanced crops (as the reader does)
    wb = geometry == "upright" and label == "color"
    out = DATA / (f"crops-{label}-{count}-{seed}" + upright_suffix(geometry, recipe, jitter, rect, turn)
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
                    cv2.imwrite(str(dst), np.rot90(cv2.imread(str(src)), k % 4))
                elif wb:
                    cv2.imwrite(str(dst), white_balance(cv2.imread(str(src))))
                else:
                    os.link(src, dst)
    done.write_text(stamp)
    n = sum(1 for _ in (out / "train").glob("*/*.png"))
    log.info(f"{label} crop data ready ({n} train crops)")
    return out


def ship(model: str, log: logging.Logger) -> Path | None:
    """Copy the run's last (else best) weights, optimizer stripped, to models/."""
    from ultralytics.utils.torch_utils import strip_optimizer

    wdir = RUNS / model / "weights"
    # The last epoch, not the "best": the best is picked on the run's val
    # split, and a detector's holds the held-out real photos, which must not
    # choose anything; the epoch count is fixed before the run instead.
    src = next((p for p in (wdir / "last.pt", wdir / "best.pt") if p.exists()), None)
    if src is None:
        log.info(f"no weights to ship in {wdir}")
        return None
    MODELS.mkdir(exist_ok=True)
    tmp = MODELS / f".{model}.tmp.pt"
    shutil.copyfile(src, tmp)
    strip_optimizer(str(tmp))
    dst = MODELS / f"{model}.pt"
    os.replace(tmp, dst)
    log.info(f"shipped {src} -> {dst} ({dst.stat().st_size / 1e6:.1f} MB)")
    return dst


def mix_weights(old: str | Path, new: str | Path, weight: float, out: str | Path) -> Path:
    """Interpolate two checkpoints of one network, ``(1 - weight) * old +
    weight * new`` (WiSE-FT: a fine-tuned model mixed with the one it started
    from keeps more of what the old one read right). Writes ``out``."""
    import torch

    co = torch.load(str(old), map_location="cpu", weights_only=False)
    cn = torch.load(str(new), map_location="cpu", weights_only=False)
    # an epoch checkpoint of a run in progress keeps its weights in "ema" only
    so = (co.get("ema") or co["model"]).float().state_dict()
    net = (cn.get("ema") or cn["model"]).float()
    mixed = {k: (1 - weight) * so[k] + weight * v if v.is_floating_point() else v
             for k, v in net.state_dict().items()}
    net.load_state_dict(mixed)
    cn["model"], cn["ema"], cn["optimizer"] = net.half(), None, None
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    torch.save(cn, str(out))
    return Path(out)


def export_onnx(log: logging.Logger | None = None, stems: tuple[str, ...] = ("detector", "number", "color"),
                half_weights: bool = True) -> list[Path]:
    """Export the shipped ``models/*.pt`` to ONNX beside them (the reader prefers ONNX)."""
    from ultralytics import YOLO

    log = log or log_to(RUNS / "export.log")
    out = []
    for stem in stems:
        pt = MODELS / f"{stem}.pt"
        if not pt.exists():
            log.info(f"no {pt}; skipped")
            continue
        net = YOLO(str(pt))
        imgsz = net.ckpt["train_args"]["imgsz"] if getattr(net, "ckpt", None) else None
        path = net.export(format="onnx", imgsz=imgsz, dynamic=True, simplify=True,
                          opset=17, device="cpu")
        if half_weights:
            (store_int8 if stem in INT8_STEMS else store_half)(Path(path))
        out.append(Path(path))
        log.info(f"exported {path} ({Path(path).stat().st_size / 1e6:.1f} MB)")
    return out


#: Models stored with int8 convolution weights (``store_int8``): the strip
#: detector, added within the 20 MB weight budget; the others keep float16.
INT8_STEMS = ("detector_strip",)


def drop_shape_info(path: Path) -> None:
    """Drop an ONNX model's shape annotations (``value_info``; onnxruntime
    infers them): 0.1-0.7 MB a model, the outputs unchanged."""
    import onnx

    model = onnx.load(str(path))
    del model.graph.value_info[:]
    onnx.save(model, str(path))


def store_half(path: Path) -> None:
    """Store an ONNX model's float weights as float16 behind Cast nodes: half
    the file; onnxruntime folds the casts when it loads, so it runs in fp32.
    The graph's shape annotations (``value_info``) are dropped too."""
    _store_weights(path, int8=False)


def store_int8(path: Path) -> None:
    """Store an ONNX model's convolution weights as int8, one scale per output
    channel, behind DequantizeLinear nodes (the other float weights as
    float16 behind Cast nodes, as :func:`store_half`): about a quarter of
    the fp32 file; it still computes in fp32."""
    _store_weights(path, int8=True)


def _store_weights(path: Path, int8: bool) -> None:
    """:func:`store_half` and :func:`store_int8`: every float weight of 64+
    values goes behind a node that gives it back in fp32 -- a Cast from
    float16, or with ``int8`` for a convolution's weight (4-D, 1024+ values) a
    per-output-channel DequantizeLinear."""
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper

    model = onnx.load(str(path))
    g = model.graph
    nodes = []
    for init in list(g.initializer):
        if init.data_type != onnx.TensorProto.FLOAT:
            continue
        arr = numpy_helper.to_array(init)
        if arr.size < 64:
            continue
        name = init.name
        g.initializer.remove(init)
        if int8 and arr.ndim == 4 and arr.size >= 1024:
            scale = np.abs(arr.reshape(arr.shape[0], -1)).max(1) / 127.0
            scale = np.where(scale > 0, scale, 1.0).astype(np.float32)
            q = np.clip(np.round(arr / scale[:, None, None, None]), -127, 127).astype(np.int8)
            g.initializer.extend([numpy_helper.from_array(q, name + "_int8"),
                                  numpy_helper.from_array(scale, name + "_scale"),
                                  numpy_helper.from_array(np.zeros(len(scale), np.int8), name + "_zp")])
            nodes.append(helper.make_node("DequantizeLinear", [name + "_int8", name + "_scale", name + "_zp"],
                                          [name], axis=0, name=name + "_dq"))
        else:
            g.initializer.append(numpy_helper.from_array(arr.astype(np.float16), name + "_fp16"))
            nodes.append(helper.make_node("Cast", [name + "_fp16"], [name], to=onnx.TensorProto.FLOAT,
                                          name=name + "_cast"))
    for node in reversed(nodes):
        g.node.insert(0, node)
    del g.value_info[:]  # shape annotations: onnxruntime infers them (0.1-0.7 MB a model)
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


#: Which network yaml an exported ONNX task was built from (``recover``).
TASK_YAML = {"obb": "yolo11n-obb.yaml", "detect": "yolo11n.yaml", "classify": "yolo11n-cls.yaml"}


def recover_pt(onnx_path: str | Path, out: str | Path, calibrate: Sequence[Path] = ()) -> Path:
    """Rebuild a trainable Ultralytics checkpoint from a shipped ONNX model.

    The ``.pt`` files are not shipped (they would pass the 20 MB budget), so a
    fresh machine continues training from the ONNX copy: the network is built
    from its yaml, every exported (BatchNorm-fused) convolution's weight goes
    back into its conv, and its bias into a BatchNorm set to the identity
    (mean 0, variance 1, scale sqrt(1 + eps)), so the rebuilt network computes
    what the ONNX one does. With ``calibrate`` images the BatchNorms are then
    given the statistics those images produce (:func:`calibrate_batchnorm`),
    so that it also computes that in *training* mode; with identity BatchNorms
    a training step normalises every layer by batch statistics the network
    never had and starts from a different network."""
    import ast

    import onnx
    import torch
    from onnx import numpy_helper
    from ultralytics.nn.tasks import ClassificationModel, DetectionModel, OBBModel

    model = onnx.load(str(onnx_path))
    meta = {p.key: p.value for p in model.metadata_props}
    task, names = meta["task"], ast.literal_eval(meta["names"])
    imgsz = ast.literal_eval(meta["imgsz"])
    weights = {}
    inits = {init.name: numpy_helper.to_array(init) for init in model.graph.initializer}
    for name, arr in inits.items():
        if arr.dtype.kind == "f" and not name.endswith("_scale"):
            weights[name.removesuffix("_fp16")] = torch.from_numpy(arr.astype("float32"))
        elif name.endswith("_int8"):  # store_int8: per-output-channel int8
            stem = name.removesuffix("_int8")
            scale = inits[stem + "_scale"].reshape(-1, *([1] * (arr.ndim - 1)))
            weights[stem] = torch.from_numpy((arr.astype("float32") * scale).astype("float32"))
    cls = {"obb": OBBModel, "detect": DetectionModel, "classify": ClassificationModel}[task]
    net = cls(TASK_YAML[task], nc=len(names), verbose=False)
    state = net.state_dict()
    done = set()
    new = {}
    for key, val in state.items():
        if key.endswith(".bn.weight"):
            stem = key.removesuffix(".bn.weight")
            eps = dict(net.named_modules())[stem + ".bn"].eps
            new[key] = torch.full_like(val, (1 + eps) ** 0.5)
            new[stem + ".bn.bias"] = weights[stem + ".conv.bias"]
            new[stem + ".bn.running_mean"] = torch.zeros_like(val)
            new[stem + ".bn.running_var"] = torch.ones_like(val)
            done.add(stem + ".conv.bias")
        elif key in weights:
            new[key] = weights[key].reshape(val.shape)
            done.add(key)
    missing = [k for k, v in state.items() if k not in new and v.is_floating_point()]
    unused = [k for k in weights if k not in done and k.startswith("model.")]
    if missing or unused:
        raise ValueError(f"{onnx_path}: cannot map weights (missing {missing[:5]}, unused {unused[:5]})")
    net.load_state_dict({**state, **new})
    size = imgsz[0] if isinstance(imgsz, list) else imgsz
    if calibrate:
        calibrate_batchnorm(net, _image_batch(calibrate, int(size)))
    net.names = names
    net.args = {"task": task, "imgsz": size}
    ckpt = {"model": net, "ema": None, "optimizer": None, "epoch": -1,
            "train_args": {"task": task, "imgsz": net.args["imgsz"]},
            "date": meta.get("date"), "version": meta.get("version")}
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    torch.save(ckpt, str(out))
    return Path(out)


def calibrate_batchnorm(net, images) -> None:
    """Give the identity BatchNorms of a rebuilt network (:func:`recover_pt`)
    the per-channel mean ``m`` and variance ``v`` of their inputs on
    ``images`` (an N x 3 x H x W float tensor), with scale ``sqrt(v + eps)`` and
    bias ``b + m``: the network computes exactly what it did in evaluation
    mode, and about the same in training mode, where the BatchNorms use the
    statistics of each batch instead."""
    import torch

    stats: dict[str, tuple] = {}

    def keep(name: str):
        def hook(module, inputs, output) -> None:
            x = inputs[0].detach().double()
            stats[name] = (x.mean((0, 2, 3)), x.var((0, 2, 3), unbiased=False))
        return hook

    norms = {n: m for n, m in net.named_modules() if isinstance(m, torch.nn.BatchNorm2d)}
    hooks = [m.register_forward_hook(keep(n)) for n, m in norms.items()]
    net.eval()
    try:
        with torch.no_grad():
            net(images)
    finally:
        for h in hooks:
            h.remove()
    with torch.no_grad():
        for name, bn in norms.items():
            if name not in stats:  # a branch the forward pass does not take
                continue
            mean, var = stats[name]
            # identity BatchNorm: y = x * sqrt(1 + eps) / sqrt(1 + eps) + b
            bias = bn.bias.double()
            bn.running_mean.copy_(mean)
            bn.running_var.copy_(var)
            bn.weight.copy_((var + bn.eps).sqrt())
            bn.bias.copy_(bias + mean)


def _image_batch(paths: Sequence[Path], size: int):
    """The images at ``paths`` as one float batch of ``size`` x ``size`` RGB tensors in [0, 1]."""
    import cv2
    import numpy as np
    import torch

    arrays = []
    for p in paths:
        img = cv2.imread(str(p))
        if img is not None:
            arrays.append(cv2.resize(img, (size, size))[:, :, ::-1].transpose(2, 0, 1))
    if not arrays:
        raise ValueError(f"no readable calibration image among {len(paths)} paths, e.g. {paths[0]}")
    return torch.from_numpy(np.ascontiguousarray(np.stack(arrays))).float() / 255


def calibration_images(data: Path, count: int = 48) -> list[Path]:
    """``count`` training images spread over a data set (a YOLO ``data.yaml``
    or a folder of them, or a classifier folder)."""
    root = data.parent if data.is_file() else data
    found = sorted(p for p in root.rglob("*") if p.suffix.lower() in (".jpg", ".jpeg", ".png")
                   and "train" in p.relative_to(root).parts)
    step = max(1, len(found) // count)
    return found[::step][:count]


def train(model: str, args: argparse.Namespace) -> None:
    """Train (or resume) one model and ship its weights."""
    import torch
    from ultralytics import YOLO

    torch.set_num_threads(args.threads)
    log = log_to(RUNS / f"{model}.log")
    r = dict(RECIPES[model])
    for k in ("count", "seed", "imgsz", "batch", "epochs", "lr0", "fraction", "warmup_epochs"):
        if getattr(args, k) is not None:
            r[k] = getattr(args, k)
    log.info(f"=== {model}: {' '.join(sys.argv)} recipe={r}")
    if args.ship_only:
        ship(model, log)
        return
    last = RUNS / model / "weights" / "last.pt"
    t0 = time.time()
    if last.exists() and not args.restart:
        log.info(f"resuming from {last}")
        try:
            YOLO(str(last)).train(resume=True, workers=args.workers, plots=False)
        except AssertionError as exc:  # finished run: nothing to resume
            log.info(f"not resumable ({exc}); use --restart or --init to train more")
    else:
        if model == "detector":
            data = make_detect_data(r["count"], r["seed"], log, args.real_photos)
            if args.strips:
                data = with_strips(data, make_strip_data(args.strips, args.strips_seed, log))
            yaml_name = "yolo11n.yaml"
        elif model == "obb":
            data = make_obb_data(r["count"], r["seed"], log, args.recipe, args.real_photos)
            yaml_name = "yolo11n-obb.yaml"
        else:
            data = make_crop_data(model, r["count"], r["seed"], log, fj_repeat=args.fj_repeat,
                                  real_repeat=args.real_repeat, real_turns=args.real_turns,
                                  geometry=args.geometry, detected=args.detected,
                                  detected_seed=args.detected_seed, refined=args.refined,
                                  refined_seed=args.refined_seed, recipe=args.recipe,
                                  jitter=args.jitter, rect=args.rect, turn=args.turn)
            yaml_name = "yolo11n-cls.yaml"
        prev = RUNS / model
        if prev.exists():  # keep the earlier run's record beside the new one
            moved = prev.with_name(f"{model}-{time.strftime('%Y%m%d-%H%M%S')}")
            prev.rename(moved)
            log.info(f"earlier run moved to {moved}")
        net = YOLO(yaml_name)
        init = args.init and (str(MODELS / f"{model}.pt") if args.init == "shipped" else args.init)
        if init and not Path(init).exists() and Path(init).with_suffix(".onnx").exists():
            init = str(Path(init).with_suffix(".onnx"))  # 'shipped' on a fresh machine: the ONNX copy
        if init and init.endswith(".onnx"):  # the shipped form: rebuild a checkpoint first
            init = str(recover_pt(init, RUNS.parent / "recovered" / f"{Path(init).stem}.pt",
                                  calibrate=calibration_images(Path(data))))
            log.info(f"rebuilt a checkpoint from the ONNX model, BatchNorms calibrated on its data: {init}")
        if init:
            net = YOLO(yaml_name).load(init)
            log.info(f"initialised from {init}")
        extra = {}
        if model == "obb":  # rotation is exact for oriented labels: any angle
            extra = dict(mosaic=1.0, close_mosaic=r["close_mosaic"], degrees=180.0, fliplr=args.fliplr,
                         scale=0.5, translate=0.1, hsv_h=0.015, hsv_s=0.6, hsv_v=0.4)
        elif model == "detector":
            extra = dict(mosaic=1.0, close_mosaic=r["close_mosaic"], degrees=10.0, fliplr=0.0,
                         scale=0.5, translate=0.1, hsv_h=0.01, hsv_s=0.5, hsv_v=0.4)
        else:
            # no flips or big rotations: a 6 must stay a 6; colour hue kept (it is the label)
            extra = dict(fliplr=0.0, flipud=0.0, degrees=0.0, hsv_h=0.0, hsv_s=0.3, hsv_v=0.3,
                         erasing=0.1, auto_augment=None, scale=0.2, translate=0.0,
                         fraction=[r["fraction"], 0.5])
        net.train(data=str(data), epochs=r["epochs"], imgsz=r["imgsz"], batch=r["batch"],
                  workers=args.workers, device="cpu", optimizer=r["optimizer"], lr0=r["lr0"],
                  cos_lr=r["cos_lr"], warmup_epochs=r["warmup_epochs"], project=str(RUNS),
                  name=model, exist_ok=True, plots=False, save_period=1, amp=False,
                  pretrained=bool(args.init), patience=100,
                  warmup_bias_lr=0.0 if args.init else 0.1, seed=0, deterministic=False, val=True,
                  verbose=True, **extra)
    log.info(f"{model} training finished in {(time.time() - t0) / 60:.1f} min")
    ship(model, log)


def build_parser() -> argparse.ArgumentParser:
    """The command line's parser (also checks :mod:`okey_vision.vision.retrain`'s plan)."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", choices=sorted(RECIPES) + ["export", "mix"], nargs="+",
                   help="models to train in turn; 'export' writes models/*.onnx from models/*.pt; "
                        "'mix' interpolates --mix-old and --mix-new into --mix-out")
    p.add_argument("--epochs", type=int)
    p.add_argument("--count", type=int, help="synthetic images to render")
    p.add_argument("--seed", type=int)
    p.add_argument("--imgsz", type=int)
    p.add_argument("--batch", type=int)
    p.add_argument("--lr0", type=float)
    p.add_argument("--fraction", type=float, help="classifiers: fraction of the crops per epoch")
    p.add_argument("--warmup-epochs", dest="warmup_epochs", type=float)
    p.add_argument("--real-repeat", type=int, default=3,
                   help="classifiers: repeat the real training crops this many times")
    p.add_argument("--real-photos", type=int, default=1,
                   help="detectors: the real training photos count this many times among the renders")
    p.add_argument("--real-turns", action="store_true",
                   help="classifiers: the real crops' repeats are turned by 90/180/270 degrees")
    p.add_argument("--fj-repeat", type=int, default=1,
                   help="classifiers: repeat the false-joker training crops this many times")
    p.add_argument("--geometry", choices=("box", "upright"), default="box",
                   help="classifiers: crops of upright boxes (box) or tiles warped upright "
                        "from their corners (upright: datasets/synth-upright.yaml)")
    p.add_argument("--detected", type=int, default=0,
                   help="classifiers: add crops cut where the shipped detectors find the tiles "
                        "of this many scenes of datasets/synth-detected.yaml")
    p.add_argument("--detected-seed", dest="detected_seed", type=int, default=3000)
    p.add_argument("--refined", type=int, default=0,
                   help="classifiers: add crops cut from the *refined* corners of the oriented "
                        "detections of this many scenes of datasets/synth-detected.yaml")
    p.add_argument("--refined-seed", dest="refined_seed", type=int, default=3200)
    p.add_argument("--recipe", help="obb: another recipe in datasets/ (default synth-obb.yaml); "
                                    "number/color with --geometry upright: another crop recipe "
                                    "(default synth-upright.yaml)")
    p.add_argument("--jitter", type=float,
                   help="classifiers, upright crops: move each corner by up to this share of the "
                        "tile's height (default synth.datasets.UPRIGHT_JITTER, 0.04; the oriented "
                        "detector's corners are that far off)")
    p.add_argument("--rect", action="store_true",
                   help="classifiers, upright crops: cut each tile from its oriented rectangle "
                        "(the oriented detector's label and output), not its exact corners")
    p.add_argument("--turn", type=float, default=0.0,
                   help="classifiers, upright crops: turn each tile's corners by a normal angle "
                        "of this many degrees (a detector's box is often a few degrees off)")
    p.add_argument("--strips", type=int, default=0,
                   help="detector: also train on the rectified row strips of this many scenes "
                        "(the reader's second pass, okey_vision.vision.rectify)")
    p.add_argument("--strips-seed", dest="strips_seed", type=int, default=3600)
    p.add_argument("--fliplr", type=float, default=0.0,
                   help="obb: mirror this share of the training images left to right (the reader "
                        "also reads the photo mirrored: FLIP_FUSE)")
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--init", help="start a new run from these weights (e.g. models/detector.onnx, "
                                  "rebuilt into runs/recovered/; or a .pt; 'shipped': each model "
                                  "from models/<model>.pt, else its .onnx)")
    p.add_argument("--restart", action="store_true", help="ignore an interrupted run's last.pt")
    p.add_argument("--ship-only", action="store_true", help="only copy weights into models/")
    p.add_argument("--onnx", default="number,color",
                   help="export: which models/*.pt to export (shipped: number,color; "
                        "'detector,number,color' for the fastest, all-ONNX reader)")
    p.add_argument("--mix-old", help="mix: the checkpoint a fine-tune started from")
    p.add_argument("--mix-new", help="mix: the fine-tuned checkpoint")
    p.add_argument("--mix-weight", type=float, default=0.7, help="mix: weight of --mix-new")
    p.add_argument("--mix-out", help="mix: where to write the mixed checkpoint (e.g. models/number.pt)")
    return p


def main(argv: list[str] | None = None) -> int:
    """Command line entry."""
    args = build_parser().parse_args(argv)
    for m in args.model:
        if m == "mix":
            print(mix_weights(args.mix_old, args.mix_new, args.mix_weight, args.mix_out))
        elif m == "export":
            export_onnx(stems=tuple(x for x in args.onnx.split(",") if x))
        else:
            train(m, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
