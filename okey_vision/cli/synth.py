"""``okey-vision synth``: render synthetic data sets and a contact sheet.

Its packages are the ``[synth]`` extra's (:data:`PACKAGES`: the reader's
numpy, OpenCV and Pillow, matplotlib for its bundled fonts, PyYAML for the
recipes), checked before anything is written: a missing one is one line
naming ``pip install 'okey-vision[synth]'``, and no folder or empty
``hands.jsonl`` is left behind."""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from okey_vision.cli.common import fail

KINDS = ("detect", "crops", "scenes")
#: The packages rendering imports (the module each is imported as).
PACKAGES = ("numpy", "cv2", "PIL", "matplotlib", "yaml")


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Add the synth options to a (sub)parser."""
    parser.add_argument("--count", type=int, default=16, help="images to render (default 16)")
    parser.add_argument("--out", type=Path, required=True, help="output folder")
    parser.add_argument("--seed", type=int, default=0, help="data set seed (default 0)")
    parser.add_argument("--kind", default="detect",
                        help="detect (YOLO), crops (classifier folders) or scenes (plain images)")
    parser.add_argument("--config", type=Path, default=None,
                        help="recipe YAML from datasets/ (its config: section)")
    parser.add_argument("--preview", action="store_true",
                        help="also write OUT/preview.png, a contact sheet of the first 16 scenes")
    parser.add_argument("--classes", default="tile", help="detect: tile (1 class) or faces (53)")
    parser.add_argument("--label", default="face", help="crops: face, number or color")
    parser.add_argument("--size", type=int, default=64, help="crops: side in px (default 64)")
    parser.add_argument("--val-fraction", type=float, default=0.1, help="share of images in val")


def save_preview(sheet, path: Path) -> None:
    """Save a contact sheet as a compact PNG (256-colour palette, small enough for a README)."""
    from PIL import Image

    rgb = Image.fromarray(sheet[:, :, ::-1].copy())
    rgb.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE).save(
        path, optimize=True)


def _error(msg: str) -> int:
    return fail("synth", msg)


def run(args: argparse.Namespace) -> int:
    """Run the command; 0 on success, 2 on bad arguments."""
    if args.count < 0:
        return _error(f"--count must be >= 0, got {args.count}")
    if args.kind not in KINDS:
        return _error(f"--kind must be one of {', '.join(KINDS)}, got {args.kind!r}")
    if args.classes not in ("tile", "faces"):
        return _error(f"--classes must be tile or faces, got {args.classes!r}")
    if args.label not in ("face", "number", "color"):
        return _error(f"--label must be face, number or color, got {args.label!r}")
    if not 0.0 <= args.val_fraction < 1.0:
        return _error(f"--val-fraction must be in [0, 1), got {args.val_fraction}")
    if args.size < 8:
        return _error(f"--size must be >= 8, got {args.size}")
    if args.config is not None and not Path(args.config).is_file():
        return _error(f"--config {args.config}: no such file")

    from okey_vision.errors import require

    for module in PACKAGES:  # before anything is written
        require(module, "synth", "rendering synthetic racks")
    from okey_vision.synth import datasets
    from okey_vision.synth.config import SynthConfig, load_config

    try:
        config = load_config(args.config) if args.config else SynthConfig()
    except (ValueError, TypeError, OSError) as exc:
        return _error(f"--config {args.config}: {exc}")
    out: Path = args.out
    out.mkdir(parents=True, exist_ok=True)
    t0 = time.perf_counter()
    if args.kind == "detect":
        result = datasets.write_detect_dataset(out, args.count, args.seed, config,
                                               val_fraction=args.val_fraction, classes=args.classes)
    elif args.kind == "crops":
        result = datasets.write_crop_dataset(out, args.count, args.seed, config, label=args.label,
                                             size=args.size, val_fraction=args.val_fraction)
    else:
        result = datasets.write_scenes(out, args.count, args.seed, config)
    dt = time.perf_counter() - t0
    print(f"{args.count} images in {dt:.1f} s -> {result}")
    if args.preview:
        n = min(16, max(args.count, 1))
        sheet = datasets.contact_sheet([s for _, s in datasets.scenes(n, args.seed, config)])
        save_preview(sheet, out / "preview.png")
        print(f"preview: {out / 'preview.png'}")
    return 0
