"""The player's corrections, kept on their machine: labelled tile crops.

Only the tiles' crops and their labels are kept, never a whole photo: each
a small PNG (the tile cut upright from its corners, as the classifiers see
it: :func:`crop_of`) under ``crops/`` in the player's data folder
(:func:`~okey_vision.vision.calibration.data_dir`: ``$OKEY_VISION_DATA``, or
the user data directory), and one JSON line per crop in
``corrections.jsonl``: the tile, the photo's hash (its bytes' SHA-256, not
its name), the tile's place on the rack, where from (the app or the command
line) and when. A tile stored again for the same photo and place replaces
the earlier label (the player corrected it again). Nothing is sent anywhere.

Nothing stored is lost, and nothing is left half-written:

- every writer holds the store's lock (:data:`LOCK`, ``filelock``: the app
  and the command line may write at once);
- :meth:`Store.add` writes the crops to temporary files, appends the lines
  in one write, synced, then renames the crops into place; a failure (a
  read-only or full disk) takes back what it wrote (the index cut back to
  its size before, the temporary crops removed) and is one
  :class:`~okey_vision.errors.FileError` naming the path;
- the index is read a line at a time (its size does not bound the memory,
  the tiles kept do); a line that cannot be read (not UTF-8, not JSON, not
  a correction, or the last line cut short by a crash) is skipped, never
  glued to the next: :meth:`Store.tidy` sets such lines aside in
  :data:`ASIDE` (as they were) and rewrites the index whole (a temporary
  file, synced, renamed: :mod:`okey_vision.files`), its replaced labels
  dropped, and says so in one sentence.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import time
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import BinaryIO

import numpy as np

from okey_vision.calibrate.text import Note
from okey_vision.errors import FileError, OkeyError
from okey_vision.files import Pending, sync_folder
from okey_vision.tiles import parse_tile
from okey_vision.vision.calibration import data_dir
from okey_vision.vision.config import CropConfig
from okey_vision.vision.crops import CROP_SIZE, upright_crop

#: The index of the stored crops, one JSON object a line.
INDEX = "corrections.jsonl"
#: The folder of the crops' PNG files.
CROPS = "crops"
#: Lines of the index that cannot be read, set aside here as they were (appended).
ASIDE = "corrections.damaged"
#: The lock every writer of the store holds.
LOCK = ".corrections.lock"
#: How long a writer waits for another one (an app fitting while the command line adds).
LOCK_SECONDS = 30.0
#: The index is rewritten without its replaced labels when they are this many more than the tiles kept
#: (a player correcting the same photos again and again grows it without bound otherwise).
COMPACT_AFTER = 1000
#: Parsed lines remembered while reading the index (an index of repeated lines is parsed once a line).
PARSED_LINES = 4096
#: The most tiles read from the store (the first stored; more stay on disk, unread): 1300 photos' rack
#: tiles, more than a fit needs, and what bounds the memory a store's reader takes (a few MB).
MAX_TILES = 20_000
#: The most of the index read: its newest part when it is longer (no index the program writes comes
#: near: MAX_TILES lines are 3 MB, and replaced labels are dropped when they pass twice the tiles kept).
#: A longer one is not rewritten (that would need it read whole); it takes a second or two to read.
MAX_INDEX_BYTES = 16_000_000
#: What a failed write of the store left.
NOTHING_STORED = "nothing was stored"


def photo_hash(data: bytes) -> str:
    """A photo's name in the store: the first 16 hex digits of its bytes' SHA-256."""
    return hashlib.sha256(data).hexdigest()[:16]


def crop_of(image: np.ndarray, quad: Sequence[Sequence[float]]) -> np.ndarray:
    """The tile with corners ``quad`` (TL, TR, BR, BL as it stands, ``image`` px)
    cut upright as the classifiers read it (64 px, the classifiers' margin)."""
    return upright_crop(image, np.asarray(quad, np.float64), CROP_SIZE, margin=CropConfig.upright_margin)


@dataclass(frozen=True)
class Kept:
    """One stored crop: its label, the photo it came from and its place there, where from and when."""

    tile: str
    photo: str
    place: int
    file: str
    source: str = ""
    time: float = 0.0

    @property
    def key(self) -> tuple[str, int]:
        """What a later label of the same tile replaces."""
        return self.photo, self.place

    def line(self) -> bytes:
        """The index line (with its end)."""
        return (json.dumps(asdict(self)) + "\n").encode("utf-8")

    @classmethod
    def parse(cls, raw: bytes) -> Kept | None:
        """The correction an index line holds; None for a line that is not
        one (not UTF-8, not JSON, a field missing or of the wrong kind, a
        crop outside the store's folder)."""
        try:
            k = cls(**json.loads(raw.decode("utf-8")))
        except (ValueError, TypeError):  # not UTF-8 or not JSON (both ValueErrors), not an object of these fields
            return None
        ok = (isinstance(k.tile, str) and isinstance(k.photo, str) and isinstance(k.place, int)
              and not isinstance(k.place, bool) and k.place >= 0 and isinstance(k.file, str)
              and k.file.startswith(f"{CROPS}/") and "/" not in k.file[len(CROPS) + 1:] and ".." not in k.file
              and isinstance(k.source, str) and isinstance(k.time, (int, float)))
        try:
            return k if ok and parse_tile(k.tile) else None
        except OkeyError:
            return None


@dataclass(frozen=True)
class Scan:
    """What reading the index found: the tiles kept (the latest label of
    each), the lines that cannot be read, whether the last line was cut
    short (a write that never ended), and the labels replaced by later ones."""

    kept: tuple[Kept, ...] = ()
    damaged: int = 0
    torn: bool = False
    replaced: int = 0
    unended: bool = field(default=False, repr=False)
    #: The index's size when only its newest :data:`MAX_INDEX_BYTES` were read (0: read whole).
    cut: int = 0
    #: Tiles past :data:`MAX_TILES`, not read.
    over: int = 0

    @property
    def untidy(self) -> bool:
        """Whether :meth:`Store.tidy` has anything to do."""
        return bool(self.damaged or self.torn or self.unended or self.cut or self.over
                    or self.replaced > max(COMPACT_AFTER, 2 * len(self.kept)))


def _lines(fh: BinaryIO) -> Iterator[tuple[bytes, Kept | None, bool]]:
    """Each line of an index file: (its bytes without the end, its
    correction or None, whether it ends with a newline); blank lines left out."""
    parsed: dict[bytes, Kept | None] = {}
    for raw in fh:
        ended = raw.endswith(b"\n")
        body = raw.rstrip(b"\r\n")
        if not body.strip():
            continue
        if body in parsed:
            yield body, parsed[body], ended
            continue
        kept = Kept.parse(body)
        if len(parsed) < PARSED_LINES:
            parsed[body] = kept
        yield body, kept, ended


class Store:
    """The stored crops in ``folder`` (default: the player's data folder)."""

    def __init__(self, folder: str | Path | None = None):
        self.folder = Path(folder) if folder is not None else data_dir()

    @property
    def index(self) -> Path:
        """The JSON-lines index."""
        return self.folder / INDEX

    @property
    def aside(self) -> Path:
        """Where the index's damaged lines are set aside."""
        return self.folder / ASIDE

    # -- reading ---------------------------------------------------------------------------
    def check_folder(self) -> None:
        """:class:`FileError` when the data folder's path holds a file (``$OKEY_VISION_DATA`` naming one)."""
        if self.folder.exists() and not self.folder.is_dir():
            raise FileError.of(self.folder, "it is a file, not a folder (the data folder must be one)",
                               doing="use", outcome="nothing was changed")

    def scan(self) -> Scan:
        """Read the index a line at a time (nothing is written): at most its
        newest :data:`MAX_INDEX_BYTES`, at most :data:`MAX_TILES` tiles."""
        self.check_folder()
        try:
            fh = open(self.index, "rb")  # noqa: SIM115 - closed below; a missing index is an empty store
        except FileNotFoundError:
            return Scan()
        except OSError as exc:
            raise FileError.of(self.index, exc, doing="read", outcome="nothing was changed") from None
        latest: dict[tuple[str, int], Kept] = {}
        damaged = lines = over = 0
        torn = unended = False
        with fh:
            try:
                size = os.fstat(fh.fileno()).st_size
                cut = size if size > MAX_INDEX_BYTES else 0
                if cut:
                    fh.seek(size - MAX_INDEX_BYTES)
                    fh.readline()  # the line the cut falls in
                for _, kept, ended in _lines(fh):
                    lines += 1
                    if kept is None:
                        damaged += ended
                        torn = not ended
                        continue
                    unended = not ended
                    if kept.key in latest or len(latest) < MAX_TILES:
                        latest[kept.key] = kept
                    else:
                        over += 1
            except OSError as exc:
                raise FileError.of(self.index, exc, doing="read", outcome="nothing was changed") from None
        good = lines - damaged - torn - over
        return Scan(tuple(latest.values()), damaged, torn, good - len(latest), unended, cut, over)

    def kept(self) -> list[Kept]:
        """Every stored crop, the latest label of each (a damaged line is skipped)."""
        return list(self.scan().kept)

    def samples(self) -> tuple[list[np.ndarray], list[str], list[str]]:
        """The stored crops that can be read: (crops, their tiles, their photos)."""
        import cv2

        crops, tiles, photos = [], [], []
        for k in self.kept():
            path = self.folder / k.file
            if not path.is_file():
                continue
            img = cv2.imread(str(path), cv2.IMREAD_COLOR)
            if img is None or img.shape[:2] != (CROP_SIZE, CROP_SIZE):
                continue
            crops.append(img)
            tiles.append(k.tile)
            photos.append(k.photo)
        return crops, tiles, photos

    # -- writing ---------------------------------------------------------------------------
    @contextmanager
    def locked(self, outcome: str = NOTHING_STORED) -> Iterator[None]:
        """Hold the store's lock (the folder made first); :class:`FileError` when it cannot be had."""
        from filelock import FileLock, Timeout

        self._make_folder(self.folder, outcome)
        lock = FileLock(str(self.folder / LOCK), timeout=LOCK_SECONDS)
        try:
            lock.acquire()
        except Timeout:
            raise FileError.of(self.folder, f"another okey-vision held its lock for {LOCK_SECONDS:.0f} s",
                               outcome=outcome) from None
        except OSError as exc:  # its lock file cannot be made: the folder cannot be written
            raise FileError.of(self.folder, exc, outcome=outcome) from None
        try:
            yield
        finally:
            lock.release()

    def _make_folder(self, folder: Path, outcome: str) -> None:
        try:
            folder.mkdir(parents=True, exist_ok=True)
        except FileExistsError:
            raise FileError.of(folder, "it is a file, not a folder", outcome=outcome) from None
        except OSError as exc:
            raise FileError.of(folder, exc, outcome=outcome) from None

    def add(self, photo: str, items: Iterable[tuple[int, str, np.ndarray]], source: str) -> int:
        """Store ``(place, tile, crop)`` items of photo ``photo`` (its hash); how
        many were stored. All of them or none: :class:`FileError` naming the
        path that could not be written, the store as it was."""
        import cv2

        encoded = []
        stamp = round(time.time(), 3)
        for place, tile, crop in items:
            name = parse_tile(tile).name
            ok, png = cv2.imencode(".png", crop)
            if not ok:
                raise FileError.of(f"{CROPS}/{photo}-{place:02d}-{name}.png", "the crop cannot be encoded as PNG",
                                   outcome=NOTHING_STORED)
            encoded.append((Kept(name, photo, place, f"{CROPS}/{photo}-{place:02d}-{name}.png", source, stamp),
                            png.tobytes()))
        if not encoded:
            return 0
        self.check_folder()
        with self.locked():
            self._make_folder(self.folder / CROPS, NOTHING_STORED)
            self._mend_end()
            written: list[tuple[Pending, Path]] = []
            try:
                for k, data in encoded:
                    written.append(self._crop_file(k, data))
                size = self._append(b"".join(k.line() for k, _ in encoded))
                try:
                    self._place(written)
                except FileError:
                    self._cut_back(size)
                    raise
            finally:
                for pending, _ in written:
                    pending.discard()  # the crops not placed (all of them after a failure)
        sync_folder(self.folder / CROPS)
        return len(encoded)

    def _crop_file(self, kept: Kept, data: bytes) -> tuple[Pending, Path]:
        """A crop written to a temporary file beside its place (synced), and its place."""
        target = self.folder / kept.file
        return Pending(target, NOTHING_STORED).write(data), target

    def _place(self, written: list[tuple[Pending, Path]]) -> None:
        """The crops renamed into place (a failure takes back the ones placed that were new)."""
        placed = []
        try:
            for pending, target in written:
                new = not target.exists()
                pending.commit()
                placed.append((target, new))
        except FileError:
            for target, new in placed:
                if new:
                    target.unlink(missing_ok=True)
            raise

    def _append(self, block: bytes) -> int:
        """Append ``block`` to the index in one write, synced; the index's size before.
        A failure cuts the index back to that size (no half line is left)."""
        try:
            fd = os.open(self.index, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o644)
        except OSError as exc:
            raise FileError.of(self.index, exc, outcome=NOTHING_STORED) from None
        size = os.fstat(fd).st_size
        try:
            view = memoryview(block)
            while view:
                view = view[os.write(fd, view):]
            os.fsync(fd)
        except OSError as exc:
            with suppress(OSError):  # the disk refuses even that: the next read skips the cut line, tidy sets it aside
                os.ftruncate(fd, size)
            raise FileError.of(self.index, exc, outcome=NOTHING_STORED) from None
        finally:
            os.close(fd)
        return size

    def _cut_back(self, size: int) -> None:
        with suppress(OSError):  # the lines stay: their crops are missing and samples() skips them
            os.truncate(self.index, size)

    def _mend_end(self) -> None:
        """Before an append (the lock held): an index whose last line has no
        end gets one when the line is a correction, else the cut line is set
        aside (:data:`ASIDE`) and cut off, so a new line is never glued to it."""
        try:
            with open(self.index, "r+b") as fh:
                end = fh.seek(0, os.SEEK_END)
                start = self._line_start(fh, end)
                fh.seek(start)
                if start == end:
                    return
                tail = fh.read(min(end - start, 1 << 16))
                if end - start <= len(tail) and Kept.parse(tail) is not None:
                    fh.seek(end)
                    fh.write(b"\n")  # a whole correction that only lost its end
                else:
                    fh.seek(start)
                    with open(self.aside, "ab") as out:
                        shutil.copyfileobj(fh, out)
                        out.write(b"\n")
                        out.flush()
                        os.fsync(out.fileno())
                    fh.truncate(start)
                fh.flush()
                os.fsync(fh.fileno())
        except FileNotFoundError:
            return
        except OSError as exc:
            raise FileError.of(self.index, exc, outcome=NOTHING_STORED) from None

    @staticmethod
    def _line_start(fh: BinaryIO, end: int) -> int:
        """Where the last line of a file ``end`` bytes long starts (``end``: it ends with a newline)."""
        pos = end
        while pos > 0:
            step = min(pos, 1 << 16)
            fh.seek(pos - step)
            chunk = fh.read(step)
            if pos == end and chunk.endswith(b"\n"):
                return end
            cut = chunk.rfind(b"\n")
            if cut >= 0:
                return pos - step + cut + 1
            pos -= step
        return 0

    def tidy(self, found: Scan | None = None) -> list[Note]:
        """Set the index's damaged lines aside and drop its replaced labels,
        if there are any (the lock held); what was done, as sentences to say
        (the lines skipped, when the folder cannot be written; an index too
        long to be read whole, which is left as it is). ``found``: the scan
        just made, not made again."""
        try:
            found = found or self.scan()
        except FileError:  # an index that cannot be read: the command's own read or write says why
            return []
        if found.cut:
            return [("index_bounded", {"index": self.index, "size": round(found.cut / 1e6),
                                       "limit": MAX_INDEX_BYTES // 1_000_000, "tiles": MAX_TILES})]
        if found.over:
            return [("too_many_tiles", {"index": self.index, "tiles": MAX_TILES})]
        if not found.untidy:
            return []
        bad = found.damaged + found.torn
        try:
            with self.locked("nothing was changed"):
                bad, kept = self._rewrite("nothing was changed")
        except FileError as exc:
            return [("lines_skipped", {"index": self.index, "n": bad, "why": exc.fields.get("why", str(exc))})] \
                if bad else []
        return [("lines_set_aside", {"index": self.index, "n": bad, "aside": self.aside.name, "kept": kept})] \
            if bad else []

    def _rewrite(self, outcome: str) -> tuple[int, int]:
        """The index read again (the lock held): its damaged lines appended to
        :data:`ASIDE` (synced first), the latest label of each tile written
        whole in its place; (lines set aside, tiles kept)."""
        latest: dict[tuple[str, int], Kept] = {}
        bad = 0
        out: BinaryIO | None = None  # the file of lines set aside, opened at the first
        try:
            with open(self.index, "rb") as fh:
                if os.fstat(fh.fileno()).st_size > MAX_INDEX_BYTES:
                    return 0, 0  # grown past the bound since it was scanned: left as it is
                for body, kept, _ in _lines(fh):
                    if kept is not None:
                        latest[kept.key] = kept
                        continue
                    out = out or open(self.aside, "ab")  # noqa: SIM115 - closed below
                    out.write(body + b"\n")
                    bad += 1
            if out is not None:
                out.flush()
                os.fsync(out.fileno())
        except FileNotFoundError:
            return 0, 0
        except OSError as exc:
            raise FileError.of(self.aside, exc, outcome=outcome) from None
        finally:
            if out is not None:
                with suppress(OSError):
                    out.close()
        with Pending(self.index, outcome) as pending:
            pending.write(lambda f: f.writelines(k.line() for k in latest.values()))
            pending.commit()
        return bad, len(latest)

    def forget(self) -> int:
        """Delete every stored crop and the index (and its lines set aside);
        how many crops were there. It works whatever the index holds."""
        self.check_folder()
        if not self.folder.exists():
            return 0
        try:
            n = len(self.scan().kept)
        except FileError:
            n = 0  # an index that cannot be read is deleted all the same
        outcome = "the stored tiles that were not deleted are kept"
        with self.locked("nothing was deleted"):
            for path in (self.folder / CROPS, self.index, self.aside):
                try:
                    if path.is_dir() and not path.is_symlink():
                        if path.name != CROPS:
                            raise FileError.of(path, "it is a folder, not the store's file", doing="delete",
                                               outcome=outcome)
                        shutil.rmtree(path)
                    else:
                        path.unlink(missing_ok=True)
                except OSError as exc:
                    raise FileError.of(path, exc, doing="delete", outcome=outcome) from None
        return n


__all__ = ["ASIDE", "COMPACT_AFTER", "CROPS", "INDEX", "LOCK", "MAX_INDEX_BYTES", "MAX_TILES", "Kept", "Scan", "Store",
           "crop_of", "photo_hash"]
