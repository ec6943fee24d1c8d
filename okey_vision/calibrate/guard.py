"""The guard: a calibration that reads real photos worse than the shipped
reader is not used.

The judge is the reader issue's real-pixel benchmark
(``benchmarks/real_pixels.py`` over :mod:`okey_vision.eval.views`: real
photos only), cut to what fits beside a fit in well under two minutes: the
``choose`` part's photos (the shared real Okey photo and half of the
held-out real Rummikub photos: 18 photos, 284 tiles), each read **as it
is** and **under a warm, dim light** (the view that moves the colours, which
is what a calibration changes). The turned, framed and side views move the
tiles, not their inks: the classify stage reads the same crops there. Both
readers share the loaded networks; the shipped reader's score is kept in the
data folder for the models and photos it was measured on, so a fit reads the
views once.

The views are the package's own (:mod:`okey_vision.eval.views`), so an
installed wheel judges as a checkout does; the photos are the shared ones
(:func:`okey_vision.eval.shared.real_pixels`: ``$OKEY_VISION_REAL_PIXELS``,
else ``../shared/datasets`` beside the checkout). Where they are not, the
judge is the sample rack photo shipped in the package
(``okey_vision/data/sample_rack.jpg``, its hand recorded beside it), as it
is and under the warm, dim light; the verdict names its judge.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from okey_vision.calibrate.align import rack_pairs
from okey_vision.calibrate.text import Note
from okey_vision.errors import FileError
from okey_vision.eval import views as real_views
from okey_vision.eval.shared import REAL_ENV
from okey_vision.files import atomic_write, set_aside
from okey_vision.vision.calibration import Calibration, data_dir
from okey_vision.vision.reader import RackReader

#: The views read of each photo.
KINDS = ("as-is", "warm-dim")
#: The shipped reader's scores, by judge and models.
CACHE = "guard-shipped.json"
#: The sample photo and its recorded hand.
SAMPLE = Path(__file__).resolve().parents[1] / "data" / "sample_rack.jpg"

#: A view to read: its image and a scorer of reads -> (tiles right, tiles).
Case = tuple[np.ndarray, Callable[[list], tuple[int, int]]]


@dataclass(frozen=True)
class GuardVerdict:
    """What the guard found: the judge, tiles read right without and with
    the calibration out of ``tiles``, over ``views`` views, in ``seconds``."""

    judge: str
    views: int
    tiles: int
    shipped: int
    calibrated: int
    seconds: float = 0.0

    @property
    def passed(self) -> bool:
        """Whether the calibration reads at least as many tiles right as the shipped reader."""
        return self.calibrated >= self.shipped

    def to_dict(self) -> dict:
        """Plain data (the calibration's report)."""
        return {"judge": self.judge, "views": self.views, "tiles": self.tiles, "shipped": self.shipped,
                "calibrated": self.calibrated, "passed": self.passed, "seconds": round(self.seconds, 1)}


def real_cases() -> tuple[str, list[Case]]:
    """The real-pixel judge's views (empty when its photos are not here)."""
    try:
        photos = real_views.real_photos("choose")
    except ImportError:  # the Rummikub photos' labels are YAML (pyyaml: the train extra): the sample judges
        return "", []
    cases: list[Case] = []
    for photo in photos:
        try:
            views = real_views.views(photo, (), KINDS)
        except OSError:  # a photo that cannot be read (FileNotFoundError included): left out
            continue
        for view in views:
            def score(reads: list, view=view) -> tuple[int, int]:
                s = real_views.score_view(view, reads)
                return s.right, s.tiles
            cases.append((view.image, score))
    name = f"real-pixel choose part, {len(photos)} photos as is and under a warm, dim light"
    return (name, cases) if cases else ("", [])


def sample_cases() -> tuple[str, list[Case]]:
    """The shipped sample photo as it is and under a warm, dim light."""
    import cv2

    img = cv2.imread(str(SAMPLE))
    if img is None:
        return "", []
    truth = json.loads(SAMPLE.with_suffix(".json").read_text(encoding="utf-8"))
    hand = list(truth["hand"])

    def score(reads: list) -> tuple[int, int]:
        pairs, _ = rack_pairs(reads, hand)
        return sum(1 for _, r, t in pairs if r.name == t), len(hand)

    dim = np.clip(255.0 * (img.astype(np.float32) / 255.0 * np.array([0.6, 0.85, 1.0])) ** 1.6, 0, 255)
    return "the sample rack photo as is and under a warm, dim light", [(img, score), (dim.astype(np.uint8), score)]


def cases() -> tuple[str, list[Case]]:
    """The judge: the real-pixel subset when it is here, else the sample photo."""
    name, found = real_cases()
    return (name, found) if found else sample_cases()


def score_all(reader: RackReader, found: Sequence[Case]) -> tuple[int, int]:
    """(tiles right, tiles) over the views."""
    right = tiles = 0
    for image, score in found:
        r, t = score(reader.read(image))
        right += r
        tiles += t
    return right, tiles


def guard(reader: RackReader, calibration: Calibration, folder: str | Path | None = None,
          judge: tuple[str, list[Case]] | None = None) -> GuardVerdict:
    """The calibration's verdict: the judge's views read by ``reader``'s
    networks with and without it (the shipped score kept in ``folder``)."""
    t0 = time.perf_counter()
    name, found = judge if judge is not None else cases()
    cache = Path(folder if folder is not None else data_dir()) / CACHE
    key = f"{reader.models_key}|{name}|{len(found)}"
    known = kept_scores(cache)
    if key in known:
        shipped, tiles = known[key]
    else:
        shipped, tiles = score_all(reader.with_calibration(False), found)
        try:
            cache.parent.mkdir(parents=True, exist_ok=True)
            atomic_write(cache, json.dumps({key: [shipped, tiles]}).encode("utf-8"))
        except (OSError, FileError):
            pass  # a read-only folder: measured again next time
    calibrated, _ = score_all(reader.with_calibration(calibration), found)
    return GuardVerdict(name, len(found), tiles, shipped, calibrated, time.perf_counter() - t0)


def kept_scores(cache: Path, notes: list[Note] | None = None) -> dict[str, tuple[int, int]]:
    """The shipped reader's scores kept in ``cache`` (judge and models ->
    (tiles right, tiles)); a file that is not such a record is set aside
    (said in ``notes``) and the scores are measured again."""
    try:
        raw = cache.read_bytes()
    except OSError:  # none yet (or unreadable): measured again
        return {}
    try:
        known = json.loads(raw.decode("utf-8"))
        if not isinstance(known, dict):
            raise ValueError("not a record")
        scores = {str(k): (int(v[0]), int(v[1])) for k, v in known.items()}
        if any(not (0 <= right <= tiles) for right, tiles in scores.values()):
            raise ValueError("scores out of range")
    except (ValueError, TypeError, IndexError, KeyError):
        try:
            aside = set_aside(cache)
        except FileError:
            return {}
        if notes is not None:
            notes.append(("cache_set_aside", {"path": cache, "aside": aside.name}))
        return {}
    return scores


__all__ = ["CACHE", "KINDS", "REAL_ENV", "GuardVerdict", "cases", "guard", "kept_scores", "real_cases",
           "sample_cases", "score_all"]
