"""What each stage of one read found: a typed trace for diagnosis and tests.

:meth:`okey_vision.vision.reader.RackReader.read_traced` returns one
:class:`ReadTrace` beside the reads: the first look, the view the detector
read, and the detections left after each stage (all corners in photo px).
``benchmarks/read_diagnose.py`` counts where tiles are lost with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from okey_vision.vision.detect import Detection
from okey_vision.vision.look import Look
from okey_vision.vision.normalise import RackPose, View


@dataclass(frozen=True)
class ReadTrace:
    """The detections of one read after each stage, and the time each stage took (s)."""

    look: Look
    view: View | None = None
    #: how the tiles lie, from the view's own boxes (finer than the first look's; None: no tiles)
    pose: RackPose | None = None
    #: the view's detector passes, fused (and rows rectified), in photo px
    detected: tuple[Detection, ...] = ()
    #: after tiles cut by the photo's edge were dropped
    uncut: tuple[Detection, ...] = ()
    #: after blank (ink-less) tiles were dropped
    inked: tuple[Detection, ...] = ()
    #: after detections showing no face the classifiers know were dropped
    faced: tuple[Detection, ...] = ()
    seconds: tuple[tuple[str, float], ...] = field(default=(), compare=False)
    #: whether a rack shows (False: the reads' rows held no rack, and no tile was read)
    rack: bool = True


__all__ = ["ReadTrace"]
