"""Packages from a folder outside the environment, imported by name.

Two yardsticks are not installed with the project: the baseline coach (the
coach package as it stood at an old commit, cached from git history) and
the peer library (it ships a top-level ``okey_vision`` of its own, so it is
installed with ``pip --target`` into a folder of its own, with what it
needs). The folder never goes on ``sys.path``: a finder placed after every
other one serves the folder's top-level modules, so a name the environment
has (``okey_vision`` above all) is always the environment's, and the names
in ``never`` are never taken from the folder at all.
"""

from __future__ import annotations

import importlib
import importlib.abc
import importlib.machinery
import sys
from collections.abc import Sequence
from pathlib import Path
from types import ModuleType

#: The project's own package: never imported from a yardstick's folder.
OURS = ("okey_vision",)


class FolderFinder(importlib.abc.MetaPathFinder):
    """Finds top-level modules in ``folder``, but not those named in
    ``never`` (their submodules are found through their package, as usual)."""

    def __init__(self, folder: Path, never: Sequence[str] = OURS) -> None:
        self.folder = Path(folder)
        self.never = frozenset(never)

    def find_spec(self, fullname: str, path=None, target=None):
        """The spec of a top-level module in the folder (None for a submodule or a name in ``never``)."""
        if path is not None or fullname in self.never:
            return None
        return importlib.machinery.PathFinder.find_spec(fullname, [str(self.folder)])


def import_from(folder: Path, package: str, never: Sequence[str] = OURS) -> ModuleType:
    """Import ``package`` (and, when it imports them, the folder's other
    top-level modules) from ``folder``, after everything the environment has."""
    if not any(isinstance(f, FolderFinder) and f.folder == Path(folder) for f in sys.meta_path):
        sys.meta_path.append(FolderFinder(folder, never))
    return importlib.import_module(package)


__all__ = ["OURS", "FolderFinder", "import_from"]
