"""How each shipped model is trained: one frozen :class:`Recipe` a model, the
single source of ``train <model>``'s defaults and of the from-scratch
retrain's commands (:mod:`okey_vision.training.retrain` writes its command
lines from these recipes, so the two cannot drift apart).

The models carry the reader's names (``models/<name>.onnx``, what
:mod:`okey_vision.vision.nets` loads): ``detector`` (oriented tile corners on
the photo), ``detector_view`` (the oriented one fine-tuned on the reader's
normalised views), ``detector_axis`` (upright boxes; only the strip
detector's start), ``detector_strip`` (upright boxes on the rectified row
strips), ``number`` and ``color`` (the classifiers).

>>> RECIPES["detector"].count, RECIPES["detector"].epochs, RECIPES["detector"].imgsz
(1500, 15, 416)
>>> RECIPES["detector_strip"].argv()[:3]
('detector_strip', '--count', '450')
"""

from __future__ import annotations

from dataclasses import dataclass, replace

from okey_vision.training.views import CROP as VIEW_CROP  # the view detector trains at its crop size

#: The classifiers' crops: the player-like recipe cut from the oriented
#: rectangle, turned and jittered as a detector's corners are; the real
#: training crops repeated (turned), the rare false jokers repeated.
CROP_FLAGS = ("--geometry", "upright", "--recipe", "synth-upright-player.yaml", "--rect", "--turn", "15",
              "--jitter", "0.06", "--fj-repeat", "10", "--real-repeat", "8", "--real-turns")


@dataclass(frozen=True)
class Recipe:
    """One model's training: network, data size, schedule, its start and its data options."""

    #: the model's name, the reader's: ``models/<model>.pt`` / ``.onnx``
    model: str
    #: the ultralytics network yaml it is built from (no pretrained weights exist offline)
    network: str
    #: synthetic scenes (detectors) or crops (classifiers) to render
    count: int
    #: the renders' first seed
    seed: int
    imgsz: int
    epochs: int
    lr0: float
    batch: int = 16
    #: warm-up epochs; 0 for the classifiers (ultralytics' warmup_bias_lr=0.1 with AdamW stalls them)
    #: and for fine-tunes (they start from trained weights)
    warmup_epochs: float = 0.0
    #: the last epochs without mosaic (detectors)
    close_mosaic: int = 2
    #: share of the crops seen each epoch (classifiers)
    fraction: float = 1.0
    optimizer: str = "AdamW"
    cos_lr: bool = True
    #: the weights a fine-tune starts from (an earlier recipe's model), or None: from the yaml
    init: str | None = None
    #: the data options, as ``train``'s own flags (strips, views, crops)
    flags: tuple[str, ...] = ()
    #: why these values
    why: str = ""

    def argv(self) -> tuple[str, ...]:
        """The ``train`` command line that runs exactly this recipe."""
        init = ("--init", self.init) if self.init else ()
        return (self.model, "--count", str(self.count), "--seed", str(self.seed), "--imgsz", str(self.imgsz),
                "--epochs", str(self.epochs), "--batch", str(self.batch), "--lr0", str(self.lr0),
                "--warmup-epochs", str(self.warmup_epochs), "--fraction", str(self.fraction), *init, *self.flags)


_DETECTOR = Recipe(
    "detector", "yolo11n-obb.yaml", count=1500, seed=1000, imgsz=416, epochs=15, lr0=0.002, warmup_epochs=0.5,
    why="oriented boxes (labels: the exact tile corners) on whole photos; 416 px keeps a far rack's tiles "
        "several pixels wide; 1500 scenes / 15 epochs fit one core's night")
_AXIS = Recipe(
    "detector_axis", "yolo11n.yaml", count=450, seed=100, imgsz=320, epochs=18, lr0=0.002, warmup_epochs=1.0,
    why="upright boxes, one class 'tile': only the start the strip detector is fine-tuned from")
_NUMBER = Recipe(
    "number", "yolo11n-cls.yaml", count=2000, seed=2900, imgsz=64, epochs=12, lr0=0.001, batch=64,
    flags=CROP_FLAGS, why="1..13 or fj on 64 px crops cut as the reader cuts them")

#: Each model's recipe, by the reader's name.
RECIPES: dict[str, Recipe] = {r.model: r for r in (
    _DETECTOR,
    replace(_DETECTOR, model="detector_view", count=2000, seed=4100, imgsz=VIEW_CROP, epochs=14, lr0=0.0004,
            warmup_epochs=0.0, init="models/detector.pt",
            flags=("--view-turns", "6", "--recipe", "synth-closeup.yaml"),
            why="the oriented detector fine-tuned on the reader's normalised views of close-ups (each scene "
                "viewed as the reader views it, the real training photos turned 6 times), at the view's crop"),
    _AXIS,
    replace(_AXIS, model="detector_strip", epochs=3, lr0=0.0005, warmup_epochs=0.0, init="models/detector_axis.pt",
            flags=("--strips", "1200", "--strips-seed", "3600"),
            why="the upright detector fine-tuned on the rectified row strips the reader's second pass reads"),
    _NUMBER,
    replace(_NUMBER, model="color", imgsz=32, epochs=6,
            why="r y b k or fj on 32 px crops: colour needs few pixels, and few epochs"),
)}

#: The number model's last step: fine-tuned once more on crops cut where the
#: shipped detectors find the tiles (their corners' own errors), briefly.
NUMBER_ON_DETECTED = replace(
    _NUMBER, init="models/number.pt", epochs=2, lr0=0.0003,
    flags=(*CROP_FLAGS, "--detected", "1000", "--detected-seed", "3500"),
    why="crops where the retrained detectors find the tiles: the number model learns their corners' errors")


__all__ = ["CROP_FLAGS", "NUMBER_ON_DETECTED", "RECIPES", "Recipe"]
