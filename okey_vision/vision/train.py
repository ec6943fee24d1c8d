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
from ``runs/okey/<model>/weights/last.pt``); ``--init models/detector.pt``
starts a new run from shipped weights (continue training across sessions);
``--ship-only`` just copies the current best/last weights into ``models/``.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import sys
import time
from pathlib import Path

os.environ.setdefault("YOLO_OFFLINE", "1")

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "data"
RUNS = ROOT / "runs" / "okey"
MODELS = ROOT / "models"

#: Default recipe per model: data size, image size, schedule.
RECIPES: dict[str, dict] = {
    "detector": dict(count=600, seed=100, imgsz=416, batch=16, epochs=12, lr0=0.002,
                     optimizer="AdamW", warmup_epochs=1.0, cos_lr=True, close_mosaic=2),
    "number": dict(count=1500, seed=200, imgsz=64, batch=128, epochs=15, lr0=0.002,
                   optimizer="AdamW", warmup_epochs=1.0, cos_lr=True),
    "color": dict(count=1500, seed=200, imgsz=64, batch=128, epochs=8, lr0=0.002,
                  optimizer="AdamW", warmup_epochs=1.0, cos_lr=True),
}


def log_to(path: Path) -> logging.Logger:
    """Send ultralytics' and our log lines to ``path`` as well as stdout."""
    from ultralytics.utils import LOGGER

    path.parent.mkdir(parents=True, exist_ok=True)
    fh = logging.FileHandler(path, encoding="utf-8")
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


def make_detect_data(count: int, seed: int, log: logging.Logger) -> Path:
    """Render the detector's data (once) plus the real training photos."""
    from okey_vision.synth.datasets import write_detect_dataset
    from okey_vision.synth.real import write_real_detect

    out = DATA / f"detect-{count}-{seed}"
    done = out / ".done"
    if done.exists():
        return out / "data.yaml"
    shutil.rmtree(out, ignore_errors=True)
    t = time.time()
    log.info(f"rendering {count} synthetic detection images into {out}")
    write_detect_dataset(out, count, seed, detect_config(),
                         progress=lambda i: (i + 1) % 100 == 0 and log.info(f"  rendered {i + 1}/{count}"))
    write_real_detect(out)  # real train split -> train, held-out split -> val
    done.write_text("ok")
    log.info(f"detection data ready in {time.time() - t:.0f}s")
    return out / "data.yaml"


def make_crop_data(label: str, count: int, seed: int, log: logging.Logger) -> Path:
    """Render the classifier's crops (once) plus the real training crops.

    The real held-out photos' crops go to ``val/`` (never ``train/``)."""
    from okey_vision.synth.datasets import write_crop_dataset
    from okey_vision.synth.real import write_real_crops

    out = DATA / f"crops-{label}-{count}-{seed}"
    done = out / ".done"
    if done.exists():
        return out
    shutil.rmtree(out, ignore_errors=True)
    t = time.time()
    log.info(f"rendering crops of {count} synthetic images into {out}")
    write_crop_dataset(out, count, seed, crops_config(), label=label, size=64,
                       progress=lambda i: (i + 1) % 250 == 0 and log.info(f"  rendered {i + 1}/{count}"))
    write_real_crops(out, label=label, size=64)
    # real crops are fewer than synthetic ones: repeat the real training crops
    for p in list((out / "train").glob("*/real_*.png")):
        for k in (1, 2):
            shutil.copyfile(p, p.with_name(f"{p.stem}_dup{k}.png"))
    done.write_text("ok")
    n = sum(1 for _ in (out / "train").glob("*/*.png"))
    log.info(f"crop data ready ({n} train crops) in {time.time() - t:.0f}s")
    return out


def ship(model: str, log: logging.Logger) -> Path | None:
    """Copy the run's best (else last) weights, optimizer stripped, to models/."""
    from ultralytics.utils.torch_utils import strip_optimizer

    wdir = RUNS / model / "weights"
    src = next((p for p in (wdir / "best.pt", wdir / "last.pt") if p.exists()), None)
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


def train(model: str, args: argparse.Namespace) -> None:
    """Train (or resume) one model and ship its weights."""
    import torch
    from ultralytics import YOLO

    torch.set_num_threads(args.threads)
    log = log_to(RUNS / f"{model}.log")
    r = dict(RECIPES[model])
    for k in ("count", "seed", "imgsz", "batch", "epochs", "lr0"):
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
            data = make_detect_data(r["count"], r["seed"], log)
            yaml_name = "yolo11n.yaml"
        else:
            data = make_crop_data(model, r["count"], r["seed"], log)
            yaml_name = "yolo11n-cls.yaml"
        net = YOLO(yaml_name)
        if args.init:
            net = YOLO(yaml_name).load(args.init)
            log.info(f"initialised from {args.init}")
        extra = {}
        if model == "detector":
            extra = dict(mosaic=1.0, close_mosaic=r["close_mosaic"], degrees=10.0, fliplr=0.0,
                         scale=0.5, translate=0.1, hsv_h=0.01, hsv_s=0.5, hsv_v=0.4)
        else:
            # no flips or big rotations: a 6 must stay a 6; colour hue kept (it is the label)
            extra = dict(fliplr=0.0, flipud=0.0, degrees=0.0, hsv_h=0.0, hsv_s=0.3, hsv_v=0.3,
                         erasing=0.1, auto_augment=None)
        net.train(data=str(data), epochs=r["epochs"], imgsz=r["imgsz"], batch=r["batch"],
                  workers=args.workers, device="cpu", optimizer=r["optimizer"], lr0=r["lr0"],
                  cos_lr=r["cos_lr"], warmup_epochs=r["warmup_epochs"], project=str(RUNS),
                  name=model, exist_ok=True, plots=False, save_period=1, amp=False,
                  pretrained=False, patience=100, seed=0, deterministic=False, val=True,
                  verbose=True, **extra)
    log.info(f"{model} training finished in {(time.time() - t0) / 60:.1f} min")
    ship(model, log)


def main(argv: list[str] | None = None) -> int:
    """Command line entry."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("model", choices=sorted(RECIPES), nargs="+")
    p.add_argument("--epochs", type=int)
    p.add_argument("--count", type=int, help="synthetic images to render")
    p.add_argument("--seed", type=int)
    p.add_argument("--imgsz", type=int)
    p.add_argument("--batch", type=int)
    p.add_argument("--lr0", type=float)
    p.add_argument("--workers", type=int, default=2)
    p.add_argument("--threads", type=int, default=2)
    p.add_argument("--init", help="start a new run from these weights (e.g. models/detector.pt)")
    p.add_argument("--restart", action="store_true", help="ignore an interrupted run's last.pt")
    p.add_argument("--ship-only", action="store_true", help="only copy weights into models/")
    args = p.parse_args(argv)
    for m in args.model:
        train(m, args)
    return 0


if __name__ == "__main__":
    sys.exit(main())
