"""Reproducible, resumable training of the tile reader's models, their ONNX
export and checkpoint mixing.

Each run renders its synthetic data into the git-ignored ``data/`` folder
(deterministic from the seed), adds the *training* split of the real photos
(``okey_vision.synth.real.split_real``; the held-out photos are never used),
trains under ``runs/okey/<model>/``, logs to ``runs/okey/<model>.log`` and
copies the stripped last weights into ``models/<model>.pt``.

    okey-vision train detector --epochs 12
    okey-vision train number --epochs 15
    okey-vision train color --epochs 8
    okey-vision train detector_view --init models/detector.onnx

Each model carries the reader's name (``models/<model>.onnx``) and trains by
its recipe (:mod:`okey_vision.training.recipes`: data, schedule, start and
data options, the same the from-scratch retrain runs); an option given here
overrides the recipe's.

(``python -m okey_vision.training ...`` is the same command.)

Run it again with the same arguments to resume an interrupted run (it resumes
from ``runs/okey/<model>/weights/last.pt``); ``--init models/detector.onnx``
starts a new run from shipped weights (continue training across sessions:
the ``.pt`` files are not shipped, so the checkpoint is rebuilt from the
ONNX copy, :func:`okey_vision.training.recover.recover_pt`);
``--ship-only`` just copies the current last/best weights into ``models/``;
``export`` writes ONNX copies of ``models/*.pt`` (the reader runs them).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence


def build_parser(given_only: bool = True) -> argparse.ArgumentParser:
    """The command line's parser as ``python -m okey_vision.training`` (also
    checks :mod:`okey_vision.training.retrain`'s plan); ``given_only``: the
    options left out are absent from its answer (the recipe's then hold)."""
    p = argparse.ArgumentParser(prog="python -m okey_vision.training")
    add_arguments(p, given_only)
    return p


def add_arguments(p: argparse.ArgumentParser, given_only: bool = True) -> None:
    """The ``train`` subcommand's models and options (``given_only``: see :func:`build_parser`)."""
    from okey_vision.training.recipes import RECIPES  # plain data: no torch or ultralytics loads here

    p.description = (__doc__ or "").split("\n\n")[0]
    p.formatter_class = argparse.RawDescriptionHelpFormatter
    p.add_argument("model", choices=sorted(RECIPES) + ["export", "mix"], nargs="+",
                   help="models to train in turn; 'export' writes models/*.onnx from models/*.pt; "
                        "'mix' interpolates --mix-old and --mix-new into --mix-out")
    add_recipe_options(p)
    add_detector_options(p)
    add_crop_options(p)
    add_run_options(p)
    add_export_options(p)
    if given_only:
        # an option left out must not hide the recipe's own flag (run() fills the defaults per model)
        for action in p._actions:
            if action.option_strings and action.dest != "help":
                action.default = argparse.SUPPRESS


def add_recipe_options(p: argparse.ArgumentParser) -> None:
    """Options that override a model's recipe (``training.recipes.RECIPES``)."""
    g = p.add_argument_group("recipe (overrides the model's default)")
    g.add_argument("--epochs", type=int)
    g.add_argument("--count", type=int, help="synthetic images to render")
    g.add_argument("--seed", type=int)
    g.add_argument("--imgsz", type=int)
    g.add_argument("--batch", type=int)
    g.add_argument("--lr0", type=float)
    g.add_argument("--fraction", type=float, help="classifiers: fraction of the crops per epoch")
    g.add_argument("--warmup-epochs", dest="warmup_epochs", type=float)


def add_detector_options(p: argparse.ArgumentParser) -> None:
    """The detectors' data options."""
    g = p.add_argument_group("detector data")
    g.add_argument("--real-photos", type=int, default=1,
                   help="detectors: the real training photos count this many times among the renders")
    g.add_argument("--strips", type=int, default=0,
                   help="detector_strip: train on the rectified row strips of this many scenes "
                        "(the reader's second pass, okey_vision.vision.rectify)")
    g.add_argument("--strips-seed", dest="strips_seed", type=int, default=3600)
    g.add_argument("--fliplr", type=float, default=0.0,
                   help="detector: mirror this share of the training images left to right (the reader "
                        "also reads the photo mirrored: FLIP_FUSE)")
    g.add_argument("--view-turns", dest="view_turns", type=int, default=6,
                   help="detector_view (trained on the reader's normalised views, okey_vision.training.views, "
                        "of --count scenes of --recipe and of the real training photos): views of each real "
                        "training photo, each turned by a random angle (each crop --real-photos times)")


def add_crop_options(p: argparse.ArgumentParser) -> None:
    """The classifiers' data options (and ``--recipe``, shared with the oriented detectors)."""
    g = p.add_argument_group("classifier crops")
    g.add_argument("--real-repeat", type=int, default=3,
                   help="classifiers: repeat the real training crops this many times")
    g.add_argument("--real-turns", action="store_true",
                   help="classifiers: the real crops' repeats are turned by 90/180/270 degrees")
    g.add_argument("--fj-repeat", type=int, default=1,
                   help="classifiers: repeat the false-joker training crops this many times")
    g.add_argument("--geometry", choices=("box", "upright"), default="box",
                   help="classifiers: crops of upright boxes (box) or tiles warped upright "
                        "from their corners (upright: datasets/synth-upright.yaml)")
    g.add_argument("--detected", type=int, default=0,
                   help="classifiers: add crops cut where the shipped detectors find the tiles "
                        "of this many scenes of datasets/synth-detected.yaml")
    g.add_argument("--detected-seed", dest="detected_seed", type=int, default=3000)
    g.add_argument("--refined", type=int, default=0,
                   help="classifiers: add crops cut from the *refined* corners of the oriented "
                        "detections of this many scenes of datasets/synth-detected.yaml")
    g.add_argument("--refined-seed", dest="refined_seed", type=int, default=3200)
    g.add_argument("--recipe", help="detector: another recipe in datasets/ (default synth-obb.yaml; "
                                    "detector_view: synth-closeup.yaml); "
                                    "number/color with --geometry upright: another crop recipe "
                                    "(default synth-upright.yaml)")
    g.add_argument("--jitter", type=float,
                   help="classifiers, upright crops: move each corner by up to this share of the "
                        "tile's height (default synth.datasets.UPRIGHT_JITTER, 0.04; the oriented "
                        "detector's corners are that far off)")
    g.add_argument("--rect", action="store_true",
                   help="classifiers, upright crops: cut each tile from its oriented rectangle "
                        "(the oriented detector's label and output), not its exact corners")
    g.add_argument("--turn", type=float, default=0.0,
                   help="classifiers, upright crops: turn each tile's corners by a normal angle "
                        "of this many degrees (a detector's box is often a few degrees off)")


def add_run_options(p: argparse.ArgumentParser) -> None:
    """How a run starts, resumes and uses the CPU."""
    g = p.add_argument_group("the run")
    g.add_argument("--workers", type=int, default=2, help="data-loader processes (classifiers: 0 is enough)")
    g.add_argument("--threads", type=int, default=2, help="torch threads (a lane of a retrain: 1, one core)")
    g.add_argument("--init", help="start a new run from these weights (e.g. models/detector.onnx, "
                                  "rebuilt into runs/recovered/; or a .pt; 'shipped': each model "
                                  "from models/<model>.pt, else its .onnx)")
    g.add_argument("--restart", action="store_true", help="ignore an interrupted run's last.pt")
    g.add_argument("--ship-only", action="store_true", help="only copy weights into models/")


def add_export_options(p: argparse.ArgumentParser) -> None:
    """The ``export`` and ``mix`` commands' options."""
    g = p.add_argument_group("export and mix")
    g.add_argument("--onnx", default="number,color",
                   help="export: which models/*.pt to export (shipped: number,color; "
                        "'detector,number,color' for the fastest, all-ONNX reader)")
    g.add_argument("--models", help="export: the folder of the .pt files, where the .onnx go "
                                    "(default models/; a candidate's folder keeps the shipped ones)")
    g.add_argument("--mix-old", help="mix: the checkpoint a fine-tune started from")
    g.add_argument("--mix-new", help="mix: the fine-tuned checkpoint")
    g.add_argument("--mix-weight", type=float, default=0.7, help="mix: weight of --mix-new")
    g.add_argument("--mix-out", help="mix: where to write the mixed checkpoint (e.g. models/number.pt)")


def with_recipe(model: str, given: argparse.Namespace) -> argparse.Namespace:
    """The options of one ``model``'s run: those given, else its recipe's flags, else the defaults."""
    from okey_vision.training.recipes import RECIPES

    r = RECIPES.get(model)
    flags = (*r.flags, *(("--init", r.init) if r.init else ())) if r else ()  # a fine-tune's start too
    args = build_parser(given_only=False).parse_args([model, *flags])
    for key, value in vars(given).items():
        if key != "model" and hasattr(args, key):
            setattr(args, key, value)
    return args


def run(args: argparse.Namespace) -> int:
    """Each named model or command in turn."""
    from okey_vision.training.export import export_onnx, mix_weights
    from okey_vision.training.runs import train

    for m in args.model:
        margs = with_recipe(m, args)
        if m == "mix":
            print(mix_weights(margs.mix_old, margs.mix_new, margs.mix_weight, margs.mix_out))
        elif m == "export":
            export_onnx(stems=tuple(x for x in margs.onnx.split(",") if x), folder=margs.models)
        else:
            train(m, margs)
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    """``python -m okey_vision.training``: the ``train`` subcommand on its own."""
    return run(build_parser().parse_args(argv))


if __name__ == "__main__":
    sys.exit(main())
