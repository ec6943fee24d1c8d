"""Flags that carry over: the flag rule fitted on one part of the real pixels
and checked on the others.

A flag should mean "this tile is probably wrong". The classifiers' part of
the rule (:class:`~okey_vision.vision.config.FlagConfig`: a read is flagged
below a confidence, or below a higher one when its two ways up disagree;
the detector's doubt of a box is its other part, and a hard crop has no
detector's score) is fitted on one part only (the held-out Rummikub photos that choose) and reported on
the parts it never saw (the real Okey rack; the Rummikub photos that
report), as share of wrong reads flagged and share of right reads flagged.

Wrong reads are rare on the real photos as read (a few in a thousand), too
few to fit or check a rule on. So each tile the reader found is also read
from corners moved as a detector's are when it errs (**hard crops**: slid
along the row by up to 35 % of a width, grown over the neighbours, shrunk,
slid up or down), the truth being the labelled tile the moved corners
overlap most (the benchmark's own matching, IoU >= ``MATCH_IOU``). Those
reads are wrong often enough to fit on.

The fit is split conformal: among the rules of a grid, those that flag at
least ``ceil((n + 1) * target)`` of the fitting part's ``n`` wrong reads
and hard crops (so a new wrong read is flagged with probability >=
``target`` when it is like them), the one flagging fewest of the part's
right reads as read (a hard crop read right is no read a player sees: its
corners were moved on purpose).

>>> cases = [FlagCase("a", False, .5, 0), FlagCase("a", True, .99, 0), FlagCase("a", False, .9, 0)]
>>> flag_rates(cases, FlagConfig(low_confidence=.95))
FlagRates(wrong_flagged=1.0, right_flagged=0.0, wrong=2, right=1)
"""

from __future__ import annotations

import math
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from okey_vision.eval.views import MATCH_IOU, RealView, Scored, polygon_iou
from okey_vision.tiles import Tile
from okey_vision.vision.config import FlagConfig

#: How the hard crops move a tile's corners: (slide along the row, slide
#: across it, scale), in tile widths and heights about the tile's centre.
#: The first ten stay on their tile (a misread if read as another face); the
#: last five leave it (a box between two tiles, or on the rack: a false read
#: whatever it reads, unless it lands on another labelled tile).
MOVES: tuple[tuple[float, float, float], ...] = (
    (-0.35, 0, 1), (-0.2, 0, 1), (0.2, 0, 1), (0.35, 0, 1),
    (0, -0.2, 1), (0, 0.2, 1), (0, 0, 1.3), (0, 0, 0.8), (0.25, 0, 1.3), (-0.25, 0, 1.3),
    (-0.6, 0, 1), (0.6, 0, 1), (0, -0.6, 1), (0, 0.6, 1), (0, 0, 2.0),
)
#: The share of wrong reads a flag rule must flag on the part it is fitted on
#: (the product's target: at least 90 % of wrong reads flagged).
TARGET = 0.9
#: The grids the rule's three thresholds are chosen from.
LOW_GRID = (0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99, 0.995, 0.998, 0.999)
DOUBT_GRID = (0.0, 0.95, 0.98, 0.99, 0.995, 0.998, 0.999)
TURN_GRID = (0.1, 0.2, 0.5, 1.0, 2.0)


@dataclass(frozen=True)
class FlagCase:
    """One read, as the flag rule sees it: its part, whether it is right, its
    confidence and 0/180 evidence, and its box's score over the photo's
    median (None: unknown, as for a hard crop: its corners were moved by hand)."""

    part: str
    right: bool
    confidence: float
    turn: float
    detection: float | None = None


@dataclass(frozen=True)
class FlagRates:
    """Share of wrong reads flagged and of right reads flagged, and how many of each."""

    wrong_flagged: float
    right_flagged: float
    wrong: int
    right: int


def read_cases(scored: Iterable[Scored], part: str) -> list[FlagCase]:
    """The flag cases of scored views: every scored read (false reads are wrong)."""
    return [FlagCase(part, ok, conf, turn, box) for s in scored for _, ok, conf, turn, _, box in s.flags]


def moved(quad: np.ndarray, along: float, across: float, scale: float) -> np.ndarray:
    """A tile's corners (TL, TR, BR, BL) slid ``along`` widths and ``across``
    heights and scaled by ``scale`` about its centre."""
    q = np.asarray(quad, np.float64)
    centre = q.mean(0)
    u = (q[1] - q[0] + q[2] - q[3]) / 2
    v = (q[3] - q[0] + q[2] - q[1]) / 2
    out: np.ndarray = centre + (q - centre) * scale + along * u + across * v
    return out


def hard_crop_cases(classify: Any, view: RealView, reads: Sequence[Any], part: str,
                    moves: Sequence[tuple[float, float, float]] = MOVES) -> list[FlagCase]:
    """Each read's tile read again from moved corners (``classify``: the
    reader's :class:`~okey_vision.vision.classify.Classifier`), scored as the
    benchmark scores a read: against the label the moved corners overlap
    most from ``MATCH_IOU``, else a false read (wrong whatever it reads).
    Not a case: corners on a label without a face (a Rummikub joker), in a
    region not scored, or off the photo."""
    from okey_vision.eval.views import inside

    h, w = view.image.shape[:2]
    quads: list[np.ndarray] = []
    truth: list[Tile | None] = []
    for r in reads:
        if r.quad is None or len(r.quad) != 4:
            continue
        for along, across, scale in moves:
            q = moved(np.asarray(r.quad), along, across, scale)
            centre = q.mean(0)
            if not (0 <= centre[0] < w and 0 <= centre[1] < h) or any(inside(centre, z) for z in view.ignore):
                continue
            ious = [polygon_iou(lab.polygon, q) for lab in view.labels]
            best = int(np.argmax(ious)) if ious else -1
            if best >= 0 and ious[best] >= MATCH_IOU:
                if view.labels[best].tile is None:
                    continue
                truth.append(view.labels[best].tile)
            elif any(inside(centre, lab.polygon) for lab in view.labels if lab.tile is None):
                continue
            else:
                truth.append(None)
            quads.append(q)
    if not quads:
        return []
    faces = classify(view.image, quads, None, group=False)
    from okey_vision.tiles import TILES

    top = faces.probs.argmax(1)
    return [FlagCase(part, TILES[int(k)] == t, float(faces.probs[i, k]), float(faces.turn[i]))
            for i, (k, t) in enumerate(zip(top, truth, strict=True))]


def flag_rates(cases: Sequence[FlagCase], rule: FlagConfig) -> FlagRates:
    """How ``rule`` flags ``cases``."""
    wrong = [rule.flag(c.confidence, c.turn, c.detection) for c in cases if not c.right]
    right = [rule.flag(c.confidence, c.turn, c.detection) for c in cases if c.right]
    return FlagRates(sum(wrong) / max(len(wrong), 1), sum(right) / max(len(right), 1), len(wrong), len(right))


def fit_flags(wrong: Sequence[FlagCase], right: Sequence[FlagCase], target: float = TARGET) -> FlagConfig:
    """The rule of the grid that flags at least ``ceil((n + 1) * target)`` of
    the ``n`` ``wrong`` cases (split conformal; right ones among them are
    left out) and fewest of the ``right`` cases (wrong ones among them left
    out; ties: the most wrong flagged, then the lowest thresholds)."""
    wrong = [c for c in wrong if not c.right]
    right = [c for c in right if c.right]
    if not wrong:
        raise ValueError("no wrong reads to fit a flag rule on")
    need = min(math.ceil((len(wrong) + 1) * target), len(wrong))
    best: tuple[tuple[int, int, float, float], FlagConfig] | None = None
    for low in LOW_GRID:
        for doubt in DOUBT_GRID:
            for turn in TURN_GRID if doubt > low else (TURN_GRID[-1],):
                # the classifiers' thresholds alone (hard crops have no box score), no box doubted
                rule = FlagConfig(low_confidence=low, doubt_confidence=max(doubt, low), turn_doubt=turn, weak_box=0.0)
                caught = sum(rule.flag(c.confidence, c.turn, c.detection) for c in wrong)
                if caught < need:
                    continue
                key = (sum(rule.flag(c.confidence, c.turn, c.detection) for c in right), -caught, low, doubt)
                if best is None or key < best[0]:
                    best = (key, rule)
    if best is None:  # no rule of the grid is strict enough: flag every read below the top of the grid
        return FlagConfig(low_confidence=1.0, doubt_confidence=1.0, turn_doubt=0.0)
    return best[1]


def flag_table(name: str, rule: FlagConfig, reads_by: dict[str, list[FlagCase]],
               hard_by: dict[str, list[FlagCase]]) -> list[str]:
    """A rule's rates, per part, on its reads and its hard crops (markdown lines)."""
    out = [f"\n### {name}: below {rule.low_confidence}, "
           f"or below {rule.doubt_confidence} when the ways up differ by > {rule.turn_doubt}, "
           f"or a box under {rule.weak_box} of the photo's median\n",
           "| part | cases | wrong | wrong flagged | right | right flagged |", "|---|---|---|---|---|---|"]
    for part in sorted(reads_by):
        for label, cases in (("reads", reads_by[part]), ("hard crops", hard_by.get(part, []))):
            r = flag_rates(cases, rule)
            out.append(f"| {part} | {label} | {r.wrong} | {r.wrong_flagged:.1%} | {r.right} | {r.right_flagged:.1%} |")
    return out


__all__ = ["DOUBT_GRID", "LOW_GRID", "MOVES", "TARGET", "TURN_GRID", "FlagCase", "FlagRates", "fit_flags",
           "flag_rates", "flag_table", "hard_crop_cases", "moved", "read_cases"]
