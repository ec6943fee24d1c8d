"""The ultralytics training runs: each model's recipe, a fresh or resumed
run under ``runs/okey/<model>/`` logged to ``runs/okey/<model>.log``, and the
weights shipped to ``models/<model>.pt`` when it ends.

Six models, each by the reader's name, all Ultralytics YOLO11n built from
their yaml (no pretrained weights exist offline) or fine-tuned from an
earlier one; their recipes are :mod:`okey_vision.training.recipes`.
"""

from __future__ import annotations

import argparse
import logging
import sys
import time
from dataclasses import replace
from pathlib import Path
from typing import Any

from okey_vision.training import paths
from okey_vision.training.crop_data import make_crop_data
from okey_vision.training.data import (
    make_detect_data,
    make_obb_data,
    make_strip_data,
    with_strips,
)
from okey_vision.training.export import ship
from okey_vision.training.recipes import RECIPES, Recipe
from okey_vision.training.recover import calibration_images, recover_pt
from okey_vision.training.views import make_view_data

#: Share of mosaic images when training on views (4 views side by side, at their scale).
VIEW_MOSAIC = 0.3
#: Command-line options that override a recipe's value when given.
OVERRIDES = ("count", "seed", "imgsz", "batch", "epochs", "lr0", "fraction", "warmup_epochs")


def recipe(model: str, args: argparse.Namespace) -> Recipe:
    """``model``'s recipe (:data:`~okey_vision.training.recipes.RECIPES`) with the options given on the command line."""
    given = {k: getattr(args, k) for k in OVERRIDES if getattr(args, k, None) is not None}
    return replace(RECIPES[model], **given)


def train(model: str, args: argparse.Namespace) -> None:
    """Train (or resume) one model and ship its weights."""
    import torch

    torch.set_num_threads(args.threads)
    log = paths.log_to(paths.RUNS / f"{model}.log")
    r = recipe(model, args)
    log.info(f"=== {model}: {' '.join(sys.argv)} recipe={r}")
    if args.ship_only:
        ship(model, log)
        return
    last = paths.RUNS / model / "weights" / "last.pt"
    t0 = time.time()
    if last.exists() and not args.restart:
        resume(last, args, log)
    else:
        fresh_run(model, r, args, log)
    log.info(f"{model} training finished in {(time.time() - t0) / 60:.1f} min")
    ship(model, log)


def resume(last: Path, args: argparse.Namespace, log: logging.Logger) -> None:
    """Continue an interrupted run from its ``last.pt``."""
    from ultralytics import YOLO

    log.info(f"resuming from {last}")
    try:
        YOLO(str(last)).train(resume=True, workers=args.workers, plots=False)
    except AssertionError as exc:  # finished run: nothing to resume
        log.info(f"not resumable ({exc}); use --restart or --init to train more")


def fresh_run(model: str, r: Recipe, args: argparse.Namespace, log: logging.Logger) -> None:
    """A new run of ``model`` with recipe ``r``: its data, its first weights, its schedule."""
    from ultralytics import YOLO

    data = training_data(model, r, args, log)
    keep_earlier_run(model, log)
    init = initial_weights(model, args.init, data, log)
    # built again to load ``init`` (as it always was): the random start of
    # any layer the checkpoint lacks stays what earlier runs had
    net = YOLO(r.network)
    if init:
        net = YOLO(r.network)
        net.load(init)
        log.info(f"initialised from {init}")
    net.train(data=str(data), epochs=r.epochs, imgsz=r.imgsz, batch=r.batch,
              workers=args.workers, device="cpu", optimizer=r.optimizer, lr0=r.lr0,
              cos_lr=r.cos_lr, warmup_epochs=r.warmup_epochs, project=str(paths.RUNS),
              name=model, exist_ok=True, plots=False, save_period=1, amp=False,
              pretrained=bool(args.init), patience=100,
              warmup_bias_lr=0.0 if args.init else 0.1, seed=0, deterministic=False, val=True,
              verbose=True, **augmentation(model, r, args))


def training_data(model: str, r: Recipe, args: argparse.Namespace, log: logging.Logger) -> Path:
    """Build (once) the data set a run of ``model`` trains on: a ``data.yaml`` or a classifier folder."""
    if model in ("detector_axis", "detector_strip"):
        data = make_detect_data(r.count, r.seed, log, args.real_photos)
        if args.strips:
            data = with_strips(data, make_strip_data(args.strips, args.strips_seed, log))
        return data
    if model == "detector_view":
        return make_view_data(r.count, r.seed, log, args.recipe, args.view_turns, args.real_photos)
    if model == "detector":
        return make_obb_data(r.count, r.seed, log, args.recipe, args.real_photos)
    return make_crop_data(model, r.count, r.seed, log, fj_repeat=args.fj_repeat,
                          real_repeat=args.real_repeat, real_turns=args.real_turns,
                          geometry=args.geometry, detected=args.detected,
                          detected_seed=args.detected_seed, refined=args.refined,
                          refined_seed=args.refined_seed, recipe=args.recipe,
                          jitter=args.jitter, rect=args.rect, turn=args.turn)


def keep_earlier_run(model: str, log: logging.Logger) -> None:
    """Move an earlier run's folder aside (dated) so a new run keeps its record."""
    prev = paths.RUNS / model
    if prev.exists():
        moved = prev.with_name(f"{model}-{time.strftime('%Y%m%d-%H%M%S')}")
        prev.rename(moved)
        log.info(f"earlier run moved to {moved}")


def initial_weights(model: str, init: str | None, data: Path, log: logging.Logger) -> str | None:
    """The checkpoint ``--init`` names, if any: ``shipped`` is ``models/<model>.pt``,
    else its ``.onnx``; an ``.onnx`` is rebuilt into ``runs/recovered/`` first,
    its BatchNorms calibrated on ``data``'s training images."""
    if not init:
        return None
    path = str(paths.MODELS / f"{model}.pt") if init == "shipped" else init
    if not Path(path).exists() and Path(path).with_suffix(".onnx").exists():
        path = str(Path(path).with_suffix(".onnx"))  # 'shipped' on a fresh machine: the ONNX copy
    if path.endswith(".onnx"):  # the shipped form: rebuild a checkpoint first
        path = str(recover_pt(path, paths.RUNS.parent / "recovered" / f"{Path(path).stem}.pt",
                              calibrate=calibration_images(Path(data))))
        log.info(f"rebuilt a checkpoint from the ONNX model, BatchNorms calibrated on its data: {path}")
    return path


def augmentation(model: str, r: Recipe, args: argparse.Namespace) -> dict[str, Any]:
    """The ultralytics augmentation settings of a ``model`` run."""
    if model == "detector_view":
        # views stand level at the reader's scale: little turning or scaling,
        # mosaic low (it keeps the scale), mirrored like the reader's second pass
        return {"mosaic": VIEW_MOSAIC, "close_mosaic": r.close_mosaic, "degrees": 5.0, "fliplr": 0.5,
                "scale": 0.15, "translate": 0.1, "hsv_h": 0.015, "hsv_s": 0.6, "hsv_v": 0.4}
    if model == "detector":  # rotation is exact for oriented labels: any angle
        return {"mosaic": 1.0, "close_mosaic": r.close_mosaic, "degrees": 180.0, "fliplr": args.fliplr,
                "scale": 0.5, "translate": 0.1, "hsv_h": 0.015, "hsv_s": 0.6, "hsv_v": 0.4}
    if model in ("detector_axis", "detector_strip"):
        return {"mosaic": 1.0, "close_mosaic": r.close_mosaic, "degrees": 10.0, "fliplr": 0.0,
                "scale": 0.5, "translate": 0.1, "hsv_h": 0.01, "hsv_s": 0.5, "hsv_v": 0.4}
    # no flips or big rotations: a 6 must stay a 6; colour hue kept (it is the label)
    return {"fliplr": 0.0, "flipud": 0.0, "degrees": 0.0, "hsv_h": 0.0, "hsv_s": 0.3, "hsv_v": 0.3,
            "erasing": 0.1, "auto_augment": None, "scale": 0.2, "translate": 0.0,
            "fraction": [r.fraction, 0.5]}
