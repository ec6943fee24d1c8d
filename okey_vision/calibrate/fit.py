"""The player's set learned from their stored crops: a
:class:`~okey_vision.vision.calibration.Calibration` beside the shipped networks.

Each network's probabilities for every stored crop are computed once (the
shipped ONNX models, onnxruntime); then, for each network:

- a **shift** of its classes' log priors (:func:`fit_shift`: the penalised
  log loss of the shifted probabilities, by gradient descent), its penalty
  chosen by :data:`FOLDS`-fold cross-validation on the crops (the fewest
  errors; :data:`SHIFT_DEFAULT` when it ties), none when no penalty makes
  fewer errors than the network alone;

then, on the shifted probabilities, each expert:

- **ink** (colour): a prototype per colour the player has shown (the mean of
  its crops' ink Lab, :func:`~okey_vision.vision.calibration.ink_features`)
  and a spread per channel (the pooled spread within colours, drawn towards
  :data:`INK_SPREAD` while crops are few);
- **shape** (number): a prototype per number shown at least
  :data:`MIN_NUMBER` times (the mean of its crops' unit gradient histograms,
  made unit length again).

Its vote (weight, reference, cap) is chosen on a small grid, leave one out:
each crop is read by the network and by the expert made without it (a class
shown once is then unknown, as a colour never shown is at a read), and the
vote making the fewest errors is kept: :data:`INK_DEFAULT` (or
:data:`SHAPE_DEFAULT`) when it is among them, else the one with the smallest
Brier score; the network alone (weight 0) when no vote makes fewer errors
than it. A few
thousand crops fit in well under a second.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from okey_vision.tiles import parse_tile
from okey_vision.vision.calibration import (
    INK,
    SHAPE,
    Calibration,
    Expert,
    crop_light,
    ink_features,
    shape_features,
    vote,
)
from okey_vision.vision.classify import net_probs
from okey_vision.vision.crops import COLOR_CLASSES, NUMBER_CLASSES, white_balance_all
from okey_vision.vision.reader import RackReader

#: A number's shape is learned from this many crops of it (fewer: the network alone reads it).
MIN_NUMBER = 2
#: The crops of a colour or a number a fit needs before it can learn it:
#: each crop is judged by the prototype made of the others (leave one out),
#: so a colour needs 2 (1 more than its prototype's 1) and a number
#: ``MIN_NUMBER + 1``. The learning messages say how many more would help.
LEARNS_FROM: dict[str, int] = {"colour": 2, "number": MIN_NUMBER + 1}
#: The ink hue's spread (each component of its unit direction) assumed before the player's crops show theirs ...
INK_SPREAD = 0.06
#: ... worth this many crops: the pooled spread moves towards the crops' own as they come.
SPREAD_PRIOR = 6
#: No channel's spread is taken below this (JPEG and light vary more than a few crops show).
MIN_SPREAD = 0.02
#: The votes tried, leave one out: weights, references (ink: the distance in
#: spreads at which a colour's say turns from for to against; shape: the
#: cosine less one) and caps (nats).
INK_GRID = ((0.25, 0.5, 1.0, 2.0), tuple(-0.5 * d * d for d in (2.0, 3.0, 4.0, 6.0)), (2.0, 4.0, 8.0))
SHAPE_GRID = ((5.0, 10.0, 20.0, 40.0), (-0.5, -0.35, -0.25, -0.15), (2.0, 4.0, 8.0))
#: The vote kept whenever it makes no more leave-one-out errors than the
#: grid's best (a few dozen crops cannot choose finely among votes that tie;
#: on renders of one set, 3 photos' crops chose a vote 4 times weaker by
#: their Brier score and it left 2.5 times the errors on 40 other photos).
INK_DEFAULT = (1.0, -4.5, 4.0)
SHAPE_DEFAULT = (10.0, -0.35, 4.0)


#: Penalties tried for a shift (on its squared length, per crop), the one kept
#: on a tie of errors, the folds that judge them, and the largest shift of a
#: class (nats). On renders of one set (navy, red-orange), one photo's 15
#: crops shifted at 0.01 left 11 of the colour network's 104 errors on 556
#: crops of 40 other photos, at 0.1 42, at 1.0 95.
SHIFT_PENALTIES = (0.003, 0.01, 0.03, 0.1, 0.3)
SHIFT_DEFAULT = 0.01
FOLDS = 5
MAX_SHIFT = 4.0


@dataclass(frozen=True)
class Fitted:
    """One network's shift and expert, and what was measured on the player's
    crops: errors of the network alone, with the shift (cross-validated) and
    with the expert too (leave one out), over ``crops``."""

    expert: Expert | None
    crops: int = 0
    before: int = 0
    after: int = 0
    shown: dict[str, int] = field(default_factory=dict)
    shift: np.ndarray | None = None
    shifted: int = 0
    #: The network's misreads alone, by the class the player gave.
    misread: dict[str, int] = field(default_factory=dict)

    def summary(self) -> dict:
        """Plain data for the calibration's report."""
        e = self.expert
        return {"crops": self.crops, "errors_before": self.before, "errors_shifted": self.shifted,
                "errors_after": self.after, "shown": self.shown, "misread": self.misread,
                "used": bool((e is not None and e.weight > 0) or (self.shift is not None and np.any(self.shift))),
                "shift": None if self.shift is None else [round(float(v), 3) for v in self.shift],
                "vote": [e.weight, e.reference, e.cap] if e is not None else None}


def colour_label(tile: str) -> int:
    """The colour network's class of a tile."""
    t = parse_tile(tile)
    return COLOR_CLASSES.index("fj" if t.is_false_joker else t.color)


def number_label(tile: str) -> int:
    """The number network's class of a tile."""
    t = parse_tile(tile)
    return NUMBER_CLASSES.index("fj" if t.is_false_joker else str(t.number))


def fit(reader: RackReader, crops: Sequence[np.ndarray], tiles: Sequence[str], photos: Sequence[str] = (),
        ) -> Calibration:
    """The calibration fitted on labelled upright crops (as stored), for ``reader``'s classifiers."""
    if not crops:
        return Calibration(None, None, (0.0,) * 6, 0, 0, time.strftime("%Y-%m-%dT%H:%M:%S"), reader.models_key,
                           report={"colour": Fitted(None).summary(), "number": Fitted(None).summary()})
    batch = list(crops)
    wb = white_balance_all(batch)
    pc = net_probs(reader.net("color"), wb, COLOR_CLASSES)
    pn = net_probs(reader.net("number"), batch, NUMBER_CLASSES)
    colour = fit_network(INK, COLOR_CLASSES, ink_features(wb), pc, [colour_label(t) for t in tiles], 1)
    number = fit_network(SHAPE, NUMBER_CLASSES, shape_features(batch), pn, [number_label(t) for t in tiles],
                         MIN_NUMBER)
    light = crop_light(batch)
    return Calibration(colour.expert, number.expert, tuple(float(v) for v in (*light.min(0), *light.max(0))),
                       len(batch), len(set(photos)), time.strftime("%Y-%m-%dT%H:%M:%S"), reader.models_key,
                       colour_shift=colour.shift, number_shift=number.shift,
                       report={"colour": colour.summary(), "number": number.summary()})


def fit_shift(logp: np.ndarray, labels: np.ndarray, penalty: float, steps: int = 300) -> np.ndarray:
    """The log-prior shift (k,) minimising the mean log loss of ``logp + shift``
    plus ``penalty`` times its squared length (gradient descent; a convex problem)."""
    k = logp.shape[1]
    onehot = np.eye(k)[labels]
    shift = np.zeros(k)
    for _ in range(steps):
        z = logp + shift
        p = np.exp(z - z.max(1, keepdims=True))
        p /= p.sum(1, keepdims=True)
        shift -= (p - onehot).mean(0) + 2 * penalty * shift
    return np.clip(shift - shift.mean(), -MAX_SHIFT, MAX_SHIFT)


def choose_shift(logp: np.ndarray, labels: np.ndarray) -> tuple[np.ndarray | None, int]:
    """The shift kept (None: none helps) and its cross-validated errors (see the module's docstring)."""
    n = len(labels)
    before = int((logp.argmax(1) != labels).sum())
    if n < 2 or before == 0:
        return None, before
    fold = np.arange(n) % min(FOLDS, n)
    errors = {}
    for penalty in SHIFT_PENALTIES:
        wrong = 0
        for f in np.unique(fold):
            held = fold == f
            shift = fit_shift(logp[~held], labels[~held], penalty)
            wrong += int(((logp[held] + shift).argmax(1) != labels[held]).sum())
        errors[penalty] = wrong
    fewest = min(errors.values())
    if fewest >= before:
        return None, before
    penalty = SHIFT_DEFAULT if errors[SHIFT_DEFAULT] == fewest else max(p for p in errors if errors[p] == fewest)
    return fit_shift(logp, labels, penalty), fewest


def fit_network(kind: str, classes: Sequence[str], feats: np.ndarray, probs: np.ndarray, labels: Sequence[int],
                min_count: int) -> Fitted:
    """One network's shift, then its expert on the shifted probabilities."""
    y = np.asarray(labels, np.int64)
    logp = np.log(np.clip(probs, 1e-9, None))
    shift, _ = choose_shift(logp, y)
    if shift is not None:  # as the reader applies it: gated by the crops' likeness to the prototypes
        known = fit_expert(kind, classes, feats, probs, labels, min_count).expert  # its prototypes, for membership
        member = known.membership(np.nan_to_num(feats, nan=np.inf)) if known is not None else None
        probs = Calibration.shifted(probs, shift, np.ones(len(y)), member)
    shifted = int((probs.argmax(1) != y).sum())
    fitted = fit_expert(kind, classes, feats, probs, labels, min_count)
    wrong = logp.argmax(1) != y
    misread = {classes[c]: int((wrong & (y == c)).sum()) for c in np.unique(y[wrong])}
    return Fitted(fitted.expert, len(y), int(wrong.sum()), fitted.after if fitted.expert is not None else shifted,
                  fitted.shown, shift, shifted, misread)


def _prototypes(kind: str, feats: np.ndarray, labels: np.ndarray, k: int, min_count: int
                ) -> tuple[np.ndarray, np.ndarray]:
    """Each class's prototype (NaN rows: fewer than ``min_count`` crops) and crop count."""
    means = np.full((k, feats.shape[1]), np.nan)
    counts = np.bincount(labels, minlength=k)
    for c in range(k):
        if counts[c] >= min_count:
            m = feats[labels == c].mean(0)
            means[c] = m / max(float(np.linalg.norm(m)), 1e-9) if kind == SHAPE else m
    return means, counts


def _spread(feats: np.ndarray, labels: np.ndarray, means: np.ndarray) -> np.ndarray:
    """The ink's spread per channel: the pooled spread within colours, drawn towards :data:`INK_SPREAD`."""
    known = ~np.isnan(means).any(1)
    dev = [feats[i] - means[c] for i, c in enumerate(labels) if known[c]]
    groups = int(known.sum())
    dof = max(len(dev) - groups, 0)
    ss = (np.asarray(dev) ** 2).sum(0) if dev else np.zeros(feats.shape[1])
    var = (ss + SPREAD_PRIOR * INK_SPREAD ** 2) / (dof + SPREAD_PRIOR)
    return np.maximum(np.sqrt(var), MIN_SPREAD)


def _left_out_scores(expert: Expert, feats: np.ndarray, labels: np.ndarray, min_count: int) -> np.ndarray:
    """Each crop's scores against prototypes made without it (its own class's
    prototype recomputed from the others; NaN when too few are left)."""
    s = expert.scores(feats)
    counts = expert.counts
    for i, c in enumerate(labels):
        n = counts[c]
        if n - 1 < min_count:
            s[i, c] = np.nan
            continue
        rest = feats[(labels == c) & (np.arange(len(labels)) != i)].mean(0)
        if expert.kind == SHAPE:
            rest = rest / max(float(np.linalg.norm(rest)), 1e-9)
            s[i, c] = float(feats[i] @ rest) - 1.0
        else:
            s[i, c] = -0.5 * float((((feats[i] - rest) / expert.scale) ** 2).sum())
    return s


def _judge(probs: np.ndarray, terms: np.ndarray, labels: np.ndarray) -> tuple[int, float]:
    """(errors, mean Brier score) of the network's probabilities times the
    expert's factors. The Brier score, not the log loss: one crop whose ink
    looks like another colour's (a tinted photo) would make the log loss
    choose a timid vote for every other crop."""
    logp = np.log(np.clip(probs, 1e-9, None)) + terms
    p = np.exp(logp - logp.max(1, keepdims=True))
    p /= p.sum(1, keepdims=True)
    onehot = np.eye(p.shape[1])[labels]
    return int((p.argmax(1) != labels).sum()), float(((p - onehot) ** 2).sum(1).mean())


def fit_expert(kind: str, classes: Sequence[str], feats: np.ndarray, probs: np.ndarray, labels: Sequence[int],
               min_count: int) -> Fitted:
    """One expert fitted on crops' features and their network probabilities (see the module's docstring)."""
    y = np.asarray(labels, np.int64)
    ok = ~np.isnan(feats).any(1)
    f, p, y = feats[ok], probs[ok], y[ok]
    k = len(classes)
    means, counts = _prototypes(kind, f, y, k, min_count)
    shown = {classes[c]: int(counts[c]) for c in range(k) if counts[c]}
    if not len(y) or np.isnan(means).all():
        return Fitted(None, len(y), 0, 0, shown)
    scale = _spread(f, y, means) if kind == INK else np.ones(f.shape[1])
    base = Expert(kind, tuple(classes), means, counts, scale)
    left_out = _left_out_scores(base, f, y, min_count)
    before = _judge(p, np.zeros_like(p), y)
    weights, references, caps = INK_GRID if kind == INK else SHAPE_GRID
    default = INK_DEFAULT if kind == INK else SHAPE_DEFAULT
    tried = {(w, r, cap): _judge(p, vote(left_out, w, r, cap), y)
             for cap in caps for w in weights for r in references}
    tried[default] = _judge(p, vote(left_out, *default), y)
    fewest = min(e for e, _ in tried.values())
    if fewest >= before[0]:  # no fewer errors: the network alone (a lower score is no reason)
        best, best_score = (0.0, 0.0, 0.0), before
    elif tried[default][0] == fewest:
        best, best_score = default, tried[default]
    else:
        best = min((v for v in tried if tried[v][0] == fewest), key=lambda v: tried[v][1])
        best_score = tried[best]
    w, r, cap = best
    expert = Expert(kind, tuple(classes), means, counts, scale, w, r, cap)
    return Fitted(expert, len(y), before[0], best_score[0], shown)


__all__ = ["INK_GRID", "LEARNS_FROM", "MIN_NUMBER", "SHAPE_GRID", "SHIFT_PENALTIES", "Fitted", "choose_shift",
           "colour_label", "fit", "fit_expert", "fit_network", "fit_shift", "number_label"]
