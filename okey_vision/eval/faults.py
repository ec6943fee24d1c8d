"""Real write failures for the tests and ``benchmarks/hostile_input.py``:
a folder on a full disk and a read-only folder, made with a
small tmpfs mounted on it (root), or by taking the write permission away
(any other user: root writes through it). None where neither can be had:
the caller skips.

Also the damaged files of a player's store, built by hand.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path


def _mount(folder: Path, size: int, options: str = "") -> bool:
    """A tmpfs of ``size`` bytes mounted on ``folder``; whether it could be."""
    opts = f"size={size}" + (f",{options}" if options else "")
    try:
        done = subprocess.run(["mount", "-t", "tmpfs", "-o", opts, "tmpfs", str(folder)], capture_output=True,
                              timeout=20)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def _unmount(folder: Path) -> None:
    subprocess.run(["umount", "-l", str(folder)], capture_output=True, timeout=20)


@contextmanager
def full_disk(folder: Path, free: int = 0, size: int = 1 << 20) -> Iterator[Path | None]:
    """``folder`` (its files kept) on a disk of ``size`` bytes with about
    ``free`` bytes left; None when no disk can be mounted here."""
    if os.geteuid() != 0:
        yield None
        return
    folder.mkdir(parents=True, exist_ok=True)
    keep = folder.with_name(folder.name + ".before")
    shutil.copytree(folder, keep)
    if not _mount(folder, size):
        shutil.rmtree(keep)
        yield None
        return
    try:
        shutil.copytree(keep, folder, dirs_exist_ok=True)
        fill(folder / ".filler", free)
        yield folder
    finally:
        _unmount(folder)
        shutil.rmtree(keep, ignore_errors=True)


def fill(path: Path, free: int) -> None:
    """Write ``path`` until its disk has about ``free`` bytes left (or none)."""
    with open(path, "wb") as fh:
        chunk = b"\0" * 4096
        try:
            while True:
                st = os.statvfs(path.parent)
                if st.f_bavail * st.f_frsize <= free:
                    break
                fh.write(chunk)
                fh.flush()
        except OSError:
            pass  # full


@contextmanager
def read_only(folder: Path) -> Iterator[Path | None]:
    """``folder`` (its files kept) made read-only for real: a read-only
    tmpfs for root, the write permission taken away for anyone else; None
    when neither works here."""
    folder.mkdir(parents=True, exist_ok=True)
    if os.geteuid() != 0:
        modes = {p: p.stat().st_mode for p in [folder, *folder.rglob("*")] if p.is_dir()}
        for p in modes:
            p.chmod(0o555)
        try:
            yield folder
        finally:
            for p, mode in modes.items():
                p.chmod(mode)
        return
    keep = folder.with_name(folder.name + ".before")
    shutil.copytree(folder, keep)
    if not _mount(folder, 8 << 20):
        shutil.rmtree(keep)
        yield None
        return
    try:
        shutil.copytree(keep, folder, dirs_exist_ok=True)
        remounted = subprocess.run(["mount", "-o", "remount,ro", str(folder)], capture_output=True, timeout=20)
        yield folder if remounted.returncode == 0 else None
    finally:
        _unmount(folder)
        shutil.rmtree(keep, ignore_errors=True)


def corrections(folder: Path) -> int:
    """How many corrections a store holds, counted apart from the store's own code:
    the distinct (photo, place) of its index's lines that are whole JSON objects."""
    index = folder / "corrections.jsonl"
    if not index.is_file():
        return 0
    import json

    keys = set()
    with open(index, "rb") as fh:
        for raw in fh:
            try:
                obj = json.loads(raw.decode("utf-8"))
                keys.add((obj["photo"], obj["place"]))
            except (ValueError, KeyError, TypeError):
                continue
    return len(keys)


def truncated_npz(path: Path) -> None:
    """The issue's damaged calibration: the first 300 bytes of a real npz file."""
    import io

    import numpy as np

    buf = io.BytesIO()
    np.savez(buf, a=np.zeros(1000))
    path.write_bytes(buf.getvalue()[:300])


def hostile_folder(folder: Path) -> list[str]:
    """A folder whose entries named as photos are each something else (a
    damaged file, links around a loop, a link to itself, a broken link, a
    named pipe, a folder): the names of their rows."""
    folder.mkdir()
    (folder / "damaged.jpg").write_bytes(b"\xff\xd8\xff\xe0junk")
    os.symlink("loop-b.jpg", folder / "loop-a.jpg")  # two links around a loop
    os.symlink("loop-a.jpg", folder / "loop-b.jpg")
    os.symlink("self.jpg", folder / "self.jpg")
    os.symlink("missing.jpg", folder / "dangling.jpg")
    os.mkfifo(folder / "pipe.jpg")  # a read would wait for ever
    (folder / "shots.jpg").mkdir()
    return sorted(["damaged.jpg", "loop-a.jpg", "loop-b.jpg", "self.jpg", "dangling.jpg", "pipe.jpg", "shots.jpg"])
