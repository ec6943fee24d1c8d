"""Files written so that a failure loses nothing and leaves nothing half-written.

Every file the program writes for the user (the check's report, the
player's calibration, the guard's scores, the store's index when it is
tidied) is written here: to a temporary file beside it, flushed and synced
to the disk, then renamed over the old one (:class:`Pending`,
:func:`atomic_write`); the folder is synced too, so after a crash the file
is the old one or the new one, never a mix or an empty one. A failure (a
read-only or full disk, a folder where the file belongs, a file where a
folder does) is one :class:`~okey_vision.errors.FileError` naming the path;
the temporary file is removed.

A damaged file is never deleted: :func:`set_aside` renames it beside itself
(``NAME.damaged-YYYYMMDD-HHMMSS``) and the caller says so in one sentence.

Standard library only.

>>> import tempfile
>>> folder = Path(tempfile.mkdtemp())
>>> atomic_write(folder / "a.txt", b"one").read_bytes()
b'one'
>>> sorted(p.name for p in folder.iterdir())
['a.txt']
"""

from __future__ import annotations

import os
import stat
import tempfile
import time
from collections.abc import Callable
from contextlib import suppress
from pathlib import Path
from typing import BinaryIO

from okey_vision.errors import FileError

#: A file made new is readable by all and writable by its owner (as ``open`` makes it under the usual umask).
NEW_MODE = 0o644
#: What a failed write of a whole file left: the old file as it was.
UNCHANGED = "nothing was changed"


def sync_folder(folder: str | Path) -> None:
    """Sync a folder's entries to the disk (a rename in it survives a crash);
    where a folder cannot be opened for that (some systems), nothing."""
    try:
        fd = os.open(folder, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass  # a file system that cannot sync a folder: the rename is as safe as it can make it
    finally:
        os.close(fd)


def target_of(path: str | Path, outcome: str = UNCHANGED) -> Path:
    """Where a write of ``path`` goes: the file a symbolic link points to;
    :class:`FileError` for a folder or anything but a regular file there."""
    p = Path(path)
    try:
        p = p.resolve() if p.is_symlink() else p
        st = p.stat()
    except FileNotFoundError:
        return p
    except OSError as exc:
        raise FileError.of(path, exc, outcome=outcome) from None
    if stat.S_ISDIR(st.st_mode):
        raise FileError.of(path, "it is a folder, not a file", outcome=outcome)
    if not stat.S_ISREG(st.st_mode):
        raise FileError.of(path, "it is not a regular file", outcome=outcome)
    return p


class Pending:
    """A file being written: a temporary file beside ``path`` made at once
    (so a place that cannot be written fails before any work), renamed over
    ``path`` by :meth:`commit`, removed by :meth:`discard` (or on leaving a
    ``with`` block on an error)."""

    def __init__(self, path: str | Path, outcome: str = UNCHANGED):
        self.given = Path(path)
        self.outcome = outcome
        self.path = target_of(path, outcome)
        try:
            self.mode = stat.S_IMODE(self.path.stat().st_mode)
        except OSError:
            self.mode = NEW_MODE
        try:
            fd, tmp = tempfile.mkstemp(prefix=f".{self.path.name}.", suffix=".tmp", dir=self.path.parent)
        except OSError as exc:
            raise FileError.of(self.given, exc, outcome=outcome) from None
        self.tmp: Path | None = Path(tmp)
        self.file: BinaryIO = os.fdopen(fd, "wb")

    def write(self, data: bytes | Callable[[BinaryIO], object]) -> Pending:
        """Write ``data`` (bytes, or a function writing to the open file); :class:`FileError` on failure."""
        try:
            if callable(data):
                data(self.file)
            else:
                self.file.write(data)
        except OSError as exc:
            self.discard()
            raise FileError.of(self.given, exc, outcome=self.outcome) from None
        return self

    def commit(self) -> Path:
        """Sync the temporary file to the disk and rename it over the file; its path."""
        if self.tmp is None:
            raise FileError.of(self.given, "it was already written or given up", outcome=self.outcome)
        try:
            self.file.flush()
            os.fsync(self.file.fileno())
            self.file.close()
            os.chmod(self.tmp, self.mode)
            os.replace(self.tmp, self.path)
        except OSError as exc:
            self.discard()
            raise FileError.of(self.given, exc, outcome=self.outcome) from None
        self.tmp = None
        sync_folder(self.path.parent)
        return self.path

    def discard(self) -> None:
        """Give the write up: the temporary file removed, the file as it was."""
        with suppress(OSError):  # a full disk refuses the last flush: the file goes anyway
            self.file.close()
        if self.tmp is not None:
            self.tmp.unlink(missing_ok=True)
            self.tmp = None

    def __enter__(self) -> Pending:
        return self

    def __exit__(self, kind: object, exc: object, tb: object) -> None:
        if self.tmp is not None:
            self.discard()


def atomic_write(path: str | Path, data: bytes | Callable[[BinaryIO], object], outcome: str = UNCHANGED) -> Path:
    """Write ``data`` to ``path`` whole or not at all (:class:`Pending`); its path."""
    with Pending(path, outcome) as pending:
        pending.write(data)
        return pending.commit()


def set_aside(path: str | Path) -> Path:
    """Rename a damaged file (or folder) beside itself,
    ``NAME.damaged-YYYYMMDD-HHMMSS`` (``-2``, ``-3`` ... when taken); the new
    path. :class:`FileError` when it cannot be renamed."""
    p = Path(path)
    stem = f"{p.name}.damaged-{time.strftime('%Y%m%d-%H%M%S')}"
    dest = p.with_name(stem)
    n = 1
    while dest.exists() or dest.is_symlink():
        n += 1
        dest = p.with_name(f"{stem}-{n}")
    try:
        os.rename(p, dest)
    except OSError as exc:
        raise FileError.of(p, exc, doing="set aside", outcome="it was left as it is") from None
    sync_folder(p.parent)
    return dest


__all__ = ["NEW_MODE", "UNCHANGED", "Pending", "atomic_write", "set_aside", "sync_folder", "target_of"]
