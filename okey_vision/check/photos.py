"""The photos to check, and checking them in parallel with one shared reader.

A :class:`Job` is one photo (a file, or an upload's bytes) with the
indicator given for it: a sidecar beside the photo (``NAME.txt`` or
``NAME.jpg.txt`` holding ``r3``, or a line ``indicator r3``), else the
photo's own (the tile lying apart from the rack), else the ``--indicator``
option (the page's box): the organiser's choice fills only the photos that
show none, never replacing a photo's own. :func:`check_all` decodes each through the
one decode path (:mod:`okey_vision.vision.io`), reads it, judges it
(:func:`~okey_vision.check.verdict.judge`) and, when asked, draws it, on a
thread pool bounded by the cores; the reads share one reader, which admits
``$OKEY_VISION_PARALLEL`` reads at once (the others queue), so decoding,
judging and drawing overlap the reads. A photo that fails (empty, damaged,
no tiles) is one verdict with its error; the others are still checked.

Every entry of a folder named as a photo gets its row, whatever it is: a
link that leads nowhere or around a loop, a named pipe, a folder named
``x.jpg`` are each a row with its error. A name that is not UTF-8 (bytes a
file system allows) is shown with U+FFFD where its bytes cannot be read
(:func:`~okey_vision.errors.printable`); the file is still opened by its own
name.
"""

from __future__ import annotations

import os
import re
import time
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING

from okey_vision.check.verdict import CheckError, Source, Verdict, judge
from okey_vision.errors import OkeyError, clip, os_reason, printable
from okey_vision.scoring import COUNTDOWN, Scheme, check_scheme
from okey_vision.tiles import Game, Tile, parse_tile
from okey_vision.vision.reads import TileRead
from okey_vision.yuzbir.rules import Options101

if TYPE_CHECKING:  # the decoded photo's type: numpy loads only when a photo is read
    from okey_vision.vision.io import Photo

#: The file types a folder's photos are taken from (a file named on its own is checked whatever its name).
PHOTO_TYPES = frozenset({".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff"})
#: A sidecar holds a tile's name: more than this many bytes of it are not read.
SIDECAR_BYTES = 4096
#: A sidecar line naming the indicator: ``indicator r3`` (also ``indicator: r3``, ``gösterge r3``).
SIDECAR_LINE = re.compile(r"^\s*(?:indicator|gösterge)\s*[:=]?\s*(?P<tile>\S.*?)\s*$", re.IGNORECASE)

#: A reader: ``read(image, indicator=...) -> [TileRead, ...]`` (``RackReader.read``, or a stand-in).
Read = Callable[..., list[TileRead]]
#: Draws a checked photo for the report: ``figure(photo, verdict) -> JPEG bytes``.
Figure = Callable[["Photo", Verdict], bytes]


class UsageError(CheckError):
    """A path that names no photo (missing, or a folder without photos): a
    sentence of :mod:`okey_vision.check.text` by its key, as every check error."""


@dataclass(frozen=True, eq=False)
class Job:
    """One photo to check: its name, its file or bytes, its own indicator
    given beside it (its sidecar's) and where from, the organiser's choice
    for a photo that shows none (``fallback``), or the error found before
    reading (a bad sidecar)."""

    name: str
    path: Path | None = None
    data: bytes | None = None
    indicator: Tile | None = None
    source: Source = Source.NONE
    failure: OkeyError | None = None
    fallback: Tile | None = None

    @classmethod
    def of_path(cls, path: Path, fallback: Tile | None = None) -> Job:
        """A photo file: its sidecar's indicator; ``fallback`` (the option's) for a photo that shows none."""
        name = printable(str(path))
        try:
            side = sidecar_indicator(path)
        except OkeyError as exc:
            return cls(name, path, failure=exc)
        if side is not None:
            return cls(name, path, indicator=side, source=Source.SIDECAR)
        return cls(name, path, fallback=fallback)

    @classmethod
    def of_upload(cls, name: str, data: bytes, fallback: Tile | None = None) -> Job:
        """An uploaded photo, with the indicator chosen for the photos that show none."""
        return cls(name, data=data, fallback=fallback)


@dataclass(frozen=True, eq=False)
class Checked:
    """A photo's verdict and, when asked for, its figure (the photo boxed, JPEG)."""

    verdict: Verdict
    figure: bytes | None = None


def photos_in(paths: Sequence[str | Path]) -> list[Path]:
    """The photos named: a file as it is, every entry of a folder named as a
    photo (by name, not its sub-folders' photos; a broken link or a loop
    too, to be its row); in the order given. :class:`UsageError` for a path
    that does not exist or a folder without photos."""
    found: list[Path] = []
    for given in paths:
        path = Path(given)
        if path.is_dir():
            try:
                inside = sorted(p for p in path.iterdir() if p.suffix.lower() in PHOTO_TYPES)
            except OSError as exc:
                raise UsageError.of("folder_unreadable", name=clip(given), why=os_reason(exc)) from None
            if not inside:
                raise UsageError.of("no_photos", name=clip(given), types=", ".join(sorted(PHOTO_TYPES)))
            found += inside
        elif os.path.lexists(path):  # a file, or a link however broken: its row says what it is
            found.append(path)
        else:
            raise UsageError.of("no_path", name=clip(given))
    return found


def sidecar_of(photo: Path) -> Path | None:
    """The sidecar beside a photo: ``NAME.txt``, or ``NAME.jpg.txt`` (None: none)."""
    for side in (photo.with_suffix(".txt"), photo.with_name(photo.name + ".txt")):
        if side != photo and side.is_file():
            return side
    return None


def sidecar_indicator(photo: Path) -> Tile | None:
    """The indicator a photo's sidecar names (None without a sidecar):
    a line ``indicator r3``, or the file holding the tile alone (``r3``,
    ``kırmızı 3``). :class:`CheckError` for a sidecar that names none."""
    side = sidecar_of(photo)
    if side is None:
        return None
    try:
        with open(side, "rb") as fh:
            text = fh.read(SIDECAR_BYTES).decode("utf-8", errors="replace")
    except OSError as exc:
        raise CheckError.of("sidecar_unreadable", name=clip(photo), sidecar=clip(side.name), why=os_reason(exc)) \
            from None
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    named = [m.group("tile") for m in map(SIDECAR_LINE.match, lines) if m]
    candidates = named[:1] or (lines if len(lines) == 1 else [])
    bad = CheckError.of("sidecar", name=clip(photo), sidecar=clip(side.name))
    if not candidates:
        raise bad
    try:
        return parse_tile(candidates[0])
    except OkeyError:
        raise bad from None


def check(job: Job, read: Read, scheme: Scheme | str = COUNTDOWN, figure: Figure | None = None,
          app: bool = False, game: Game = Game.OKEY, options101: Options101 | None = None) -> Checked:
    """One photo: decoded, read, judged (and drawn with ``figure``); every
    failure is the verdict's error. ``game``: 101 judges the opening."""
    from okey_vision.vision.io import decode_image, load_photo

    t0 = time.perf_counter()
    scheme = check_scheme(scheme)
    if job.failure is not None:
        return Checked(Verdict(job.name, scheme=scheme, failure=job.failure))
    try:
        photo = load_photo(job.path) if job.path is not None else decode_image(job.data, job.name)
    except OkeyError as exc:
        return Checked(Verdict(job.name, scheme=scheme, failure=exc))
    return check_photo(job, photo, read, scheme, figure, app, t0, game, options101)


def check_photo(job: Job, photo: Photo, read: Read, scheme: Scheme | str = COUNTDOWN, figure: Figure | None = None,
                app: bool = False, t0: float | None = None, game: Game = Game.OKEY,
                options101: Options101 | None = None) -> Checked:
    """A decoded photo of ``job``: read, judged (and drawn); :func:`check`
    after the decoding (a Ray worker decodes the bytes it is sent, then
    this). ``t0``: when its bytes were taken (default now)."""
    t0 = time.perf_counter() if t0 is None else t0
    scheme = check_scheme(scheme)
    try:
        reads = [r.scaled(1 / photo.scale) for r in read(photo.image, indicator=job.indicator)]
    except OkeyError as exc:
        return Checked(Verdict(job.name, scheme=scheme, failure=exc))
    except Exception as exc:  # noqa: BLE001 - a reader crash on one photo is that photo's error row
        why = f"{type(exc).__name__}: {clip(exc, 60)}"
        return Checked(Verdict(job.name, scheme=scheme, failure=CheckError.of("reader_failed", name=clip(job.name),
                                                                              why=why)))
    verdict = judge(reads, job.name, job.indicator, job.source, scheme, (photo.width, photo.height), app,
                    fallback=job.fallback, game=game, options101=options101)
    drawn = figure(photo, verdict) if figure is not None else None
    return Checked(replace(verdict, seconds=time.perf_counter() - t0), drawn)


def workers_for(jobs: int) -> int:
    """Threads for ``jobs`` photos: one a core, at most one a photo."""
    return max(1, min(jobs, os.cpu_count() or 1))


def check_all(jobs: Sequence[Job], read: Read | None = None, scheme: Scheme | str = COUNTDOWN,
              figure: Figure | None = None, workers: int | None = None, app: bool = False,
              game: Game = Game.OKEY, options101: Options101 | None = None) -> Iterator[Checked]:
    """Every job checked, yielded in the order given as soon as it and those
    before it are done; photos are decoded, read and drawn in parallel
    (``workers`` threads, default :func:`workers_for`). ``read``: default
    the shipped reader, loaded first (missing weights stop here, before any
    photo; the reader service's when ``$OKEY_VISION_SERVER`` names one)."""
    if read is None:  # the reader service when $OKEY_VISION_SERVER names one, else this process's
        from okey_vision.vision.service import open_reader

        read = open_reader().load().read
    if not jobs:
        return
    chosen = read
    pool = ThreadPoolExecutor(workers or workers_for(len(jobs)), thread_name_prefix="okey-check")
    try:
        yield from pool.map(lambda job: check(job, chosen, scheme, figure, app, game, options101), jobs)
    finally:  # stopped early (Ctrl-C, an error downstream): the photos not started are dropped
        pool.shutdown(wait=True, cancel_futures=True)


__all__ = ["Checked", "Figure", "Job", "PHOTO_TYPES", "Read", "UsageError", "check", "check_all", "check_photo",
           "photos_in", "sidecar_indicator", "sidecar_of", "workers_for"]
