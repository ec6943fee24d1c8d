"""What the command line and the app do with a player's corrections: store
a photo's tiles given in rack order, learn the set from the stored tiles
(fit, then the guard), say what was learned, go back to the shipped reader.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from okey_vision.calibrate.align import enough, rack_pairs
from okey_vision.calibrate.fit import LEARNS_FROM, fit
from okey_vision.calibrate.guard import CACHE, GuardVerdict, guard, kept_scores
from okey_vision.calibrate.store import Store, crop_of
from okey_vision.calibrate.text import Note, said, say
from okey_vision.errors import FileError
from okey_vision.lang import Lang, count
from okey_vision.vision.calibration import Calibration, CalibrationError, calibration_path, load_or_set_aside
from okey_vision.vision.reader import RackReader
from okey_vision.vision.reads import TileRead

#: The pulls tried, strongest first, until one reads the guard's photos at
#: least as well as the shipped reader. A set's calibration can pull other
#: sets' tiles too far (five photos of a navy-and-orange set turned nine
#: real Rummikub reds and blacks at full pull) and still fix its own set at
#: half (benchmarks/calibration.py: 4 misreads left of 70, the guard passed).
STRENGTHS = (1.0, 0.5, 0.25)


@dataclass(frozen=True)
class Added:
    """A photo's tiles given in rack order: how many were stored, of how many rack reads and tiles given."""

    photo: str
    stored: int
    reads: int
    given: int
    refused: bool = False

    def line(self, name: str, lang: Lang = Lang.EN) -> str:
        """What happened, in a sentence."""
        if self.reads == 0:
            return say("no_rack", lang, photo=name)
        if self.refused:
            return say("refused", lang, photo=name, n=self.stored, reads=self.reads)
        return say("stored", lang, photo=name, n=self.stored, reads=self.reads,
                   given=count(self.given, "tile", lang))


def store_pairs(store: Store, image: np.ndarray, photo: str, reads: Sequence[TileRead], tiles: Sequence[str],
                source: str) -> Added:
    """Store the rack reads of ``image`` aligned with ``tiles`` (rack order)
    as labelled crops; nothing when fewer than half of the rack reads align."""
    pairs, n = rack_pairs(reads, tiles)
    if n == 0 or not enough(pairs, n):
        return Added(photo, len(pairs), n, len(tiles), refused=True)
    items = [(place, tile, crop_of(image, read.cut)) for place, read, tile in pairs if read.cut is not None]
    return Added(photo, store.add(photo, items, source), n, len(tiles))


def add_photo(reader: RackReader, store: Store, image: np.ndarray, photo: str, tiles: Sequence[str],
              source: str = "cli") -> Added:
    """Read ``image`` and store its rack tiles as given (:func:`store_pairs`)."""
    return store_pairs(store, image, photo, reader.read(image), tiles, source)


@dataclass(frozen=True)
class Learned:
    """A fit's outcome: the calibration (None: no tiles stored), the guard's
    verdict (None: nothing to guard), where it was saved (None: not used)."""

    calibration: Calibration | None
    verdict: GuardVerdict | None = None
    saved: Path | None = None
    seconds: float = 0.0
    #: What was found damaged and set aside on the way.
    notes: tuple[Note, ...] = ()

    def lines(self, lang: Lang = Lang.EN) -> list[str]:
        """What was learned, and whether it is used and why; or why nothing
        was learned and what more would help: in sentences."""
        cal = self.calibration
        if cal is None:
            return said(self.notes, lang) + [say("nothing_stored", lang)]
        seen = dict(crops=count(cal.crops, "tile", lang), photos=count(cal.photos, "photo", lang),
                    seconds=f"{self.seconds:.0f}")
        if not cal.active:
            return [*said(self.notes, lang), say("looked", lang, **seen), *part_lines(cal, lang),
                    why_nothing(cal, lang)]
        out = said(self.notes, lang)
        out.append(say("learned", lang, **seen))
        out += part_lines(cal, lang)
        v = self.verdict
        if v is not None:
            key = "guard_passed" if v.passed else "guard_failed"
            out.append(say(key, lang, judge=v.judge, calibrated=v.calibrated, shipped=v.shipped,
                           tiles=count(v.tiles, "tile", lang)))
        out += strength_lines(cal, lang) if v is not None and v.passed else []
        if self.saved is not None:
            out.append(say("saved", lang, path=self.saved))
        return out


def strength_lines(cal: Calibration, lang: Lang = Lang.EN) -> list[str]:
    """Why a calibration is used at less than its full pull (nothing when it is used whole)."""
    strength = float(cal.report.get("strength", 1.0))
    full = cal.report.get("full_guard")
    if strength >= 1.0 or not full:
        return []
    return [say("weakened", lang, calibrated=full["calibrated"], tiles=count(full["tiles"], "tile", lang),
                shipped=full["shipped"],
                percent=round(100 * strength))]


def part_lines(cal: Calibration, lang: Lang = Lang.EN) -> list[str]:
    """Each network's errors on the player's tiles without and with the calibration."""
    out = []
    for part in ("colour", "number"):
        r = cal.report.get(part) or {}
        if not r.get("crops") or "errors_before" not in r or "errors_after" not in r:
            continue
        key = "part" if r.get("used") else ("part_unused" if r.get("errors_before") else "part_right")
        out.append(say(key, lang, part=say(f"label.{part}", lang), crops=count(r["crops"], "tile", lang),
                       before=r.get("errors_before", 0), after=r.get("errors_after", 0)))
    return out


def shortfall(cal: Calibration) -> list[tuple[str, str, int]]:
    """What more a fit that learned nothing needs: (part, class, more crops)
    for each colour or number the shipped reader misread that has fewer
    crops than :data:`~okey_vision.calibrate.fit.LEARNS_FROM` (most wanted first)."""
    out = []
    for part in ("colour", "number"):
        r = cal.report.get(part) or {}
        shown = r.get("shown") or {}
        for name in r.get("misread") or {}:
            more = LEARNS_FROM[part] - int(shown.get(name, 0))
            if more > 0:
                out.append((part, name, more))
    return sorted(out, key=lambda x: -x[2])


def why_nothing(cal: Calibration, lang: Lang = Lang.EN) -> str:
    """Why a fit learned nothing, in a sentence: the shipped reader reads
    every stored tile right; or the misread colours or numbers have too few
    tiles yet, and how many more of which would help; or they have enough
    and learning from them read none more right (a photo or two more)."""
    misread = sum(int((cal.report.get(p) or {}).get("errors_before", 0)) for p in ("colour", "number"))
    if not misread:
        return say("nothing_to_learn", lang, crops=count(cal.crops, "tile", lang))
    short = shortfall(cal)
    if not short:
        return say("nothing_learned_alike", lang, more=say("label.more_photos", lang, tiles=count(15, "tile", lang)))
    wants = []
    for part, name, more in short[:3]:
        noun = count(more, "tile", lang).split(" ", 1)[1]
        named = say(f"label.colour.{name}", lang) if part == "colour" else (
            say("label.colour.fj", lang) if name == "fj" else name)
        wants.append(say(f"label.more_{part}", lang, n=more, name=named, noun=noun))
    return say("nothing_learned_few", lang, need=min(LEARNS_FROM[p] for p, _, _ in short),
               more=say("label.and", lang).join([", ".join(wants[:-1]), wants[-1]]) if len(wants) > 1 else wants[0])


def learn(reader: RackReader, folder: str | Path | None = None) -> Learned:
    """Fit the stored tiles of ``folder`` (default: the data folder), guard
    the fit, and save it when it passes (else the reader stays as it was)."""
    t0 = time.perf_counter()
    store = Store(folder)
    notes = store.tidy()
    kept_scores(store.folder / CACHE, notes)  # a damaged file of the guard's scores set aside, and said
    crops, tiles, photos = store.samples()
    if not crops:
        return Learned(None, notes=tuple(notes))
    cal = fit(reader, crops, tiles, photos)
    if not cal.active:
        return Learned(cal, seconds=time.perf_counter() - t0, notes=tuple(notes))
    full = verdict = guard(reader, cal, store.folder)
    used = cal
    for strength in STRENGTHS[1:]:
        if verdict.passed:
            break
        used = cal.weakened(strength)
        verdict = guard(reader, used, store.folder)
    cal = used if verdict.passed else cal
    cal = replace(cal, report={**cal.report, "guard": verdict.to_dict(), "full_guard": full.to_dict()})
    saved = cal.save(calibration_path(store.folder)) if verdict.passed else None
    return Learned(cal, verdict if verdict.passed else full, saved, time.perf_counter() - t0, tuple(notes))


def reset(folder: str | Path | None = None, forget: bool = False, lang: Lang = Lang.EN) -> list[str]:
    """Remove the calibration (the reader reads as shipped); with ``forget``
    also the stored tiles, whatever they hold. What was done, in sentences;
    :class:`~okey_vision.errors.FileError` naming what cannot be removed."""
    store = Store(folder)
    store.check_folder()
    path = calibration_path(store.folder)
    there = path.exists() or path.is_symlink()
    try:
        if path.is_dir() and not path.is_symlink():
            raise FileError.of(path, "it is a folder, not a calibration file", doing="remove",
                               outcome="the reader still reads as shipped")
        if there:  # a read-only disk refuses even to remove what is not there
            path.unlink(missing_ok=True)
    except OSError as exc:
        raise FileError.of(path, exc, doing="remove", outcome="the calibration is still used") from None
    out = [say("removed" if there else "no_calibration", lang)]
    if forget:
        out.append(say("forgot", lang, n=store.forget()))
    return out


def show(folder: str | Path | None = None, reader: RackReader | None = None, lang: Lang = Lang.EN) -> list[str]:
    """What is stored and what was learned from how many tiles, in sentences
    (a damaged index's lines or calibration set aside first, and said)."""
    store = Store(folder)
    found = store.scan()
    notes = said(store.tidy(found), lang)  # the same tiles kept, their damaged lines set aside
    kept = found.kept
    out = notes + [say("kept_count", lang, crops=count(len(kept), "tile", lang),
                       photos=count(len({k.photo for k in kept}), "photo", lang), folder=store.folder)]
    path = calibration_path(store.folder)
    if not path.exists():
        return out + [say("no_calibration", lang)]
    try:
        cal = load_or_set_aside(path)
    except CalibrationError as exc:
        return out + [say("not_used", lang, why=str(exc))]
    out.append(say("calibration_of", lang, made=cal.made, crops=count(cal.crops, "tile", lang),
                   photos=count(cal.photos, "photo", lang)))
    shown = (cal.report.get("colour") or {}).get("shown") or {}
    if shown:
        out.append(say("shown", lang, shown=", ".join(f"{c} {n}" for c, n in shown.items())))
    out += part_lines(cal, lang)
    v = cal.report.get("guard")
    if v:
        out.append(say("guard_passed", lang, judge=v["judge"], calibrated=v["calibrated"], shipped=v["shipped"],
                       tiles=count(v["tiles"], "tile", lang)))
        out += strength_lines(cal, lang)
    if reader is not None and reader.calibration is None and reader.calibration_problem:
        out.append(say("not_used", lang, why=reader.calibration_problem.rstrip(".")))
    return out


__all__ = ["STRENGTHS", "Added", "Learned", "add_photo", "learn", "part_lines", "reset", "shortfall", "show",
           "store_pairs", "strength_lines", "why_nothing"]
