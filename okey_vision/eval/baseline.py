"""The baseline coach: ``okey_vision.coach`` as it stood at commit b9e9903
(before the decision rules), the strength benchmark's "today's coach" and a coach the
equivalence check replays (a checkout's: it reads the repository's history).

Nothing of it is copied into the tree: at first use its modules are taken
from git history (``git show b9e9903:okey_vision/coach/NAME.py``) into
``.cache/baseline_coach/<commit>/`` (ignored), with ``okey_vision.coach``
renamed to the cached package so that it imports itself and only the stable
lower modules of today's tree (``tiles``, ``solver``, ``scoring``, ``memo``,
``errors``). Without git or without that commit in the history (a shallow
clone, a source archive) it raises :class:`BaselineUnavailable`, saying so.
The cached package is imported by name from its folder
(:func:`okey_vision.eval.external.import_from`), never put on ``sys.path``.

    >>> from okey_vision.eval import baseline                  # doctest: +SKIP
    >>> baseline.advise("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 y13", "b2").action  # doctest: +SKIP
"""

from __future__ import annotations

import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from types import ModuleType
from typing import Any

from okey_vision.eval.external import import_from
from okey_vision.game import Move, Policy, TurnView
from okey_vision.memo import Memo

#: The commit whose coach is the baseline (the decision rules came after it).
COMMIT = "b9e9903"
#: The coach package's modules at that commit.
MODULES = ("__init__", "advice", "pool", "ranking", "reading", "templates", "text")
#: The name the cached copy imports as (``okey_vision.coach`` renamed).
PACKAGE = "okey_coach_b9e9903"
ROOT = Path(__file__).resolve().parents[2]
#: Where the copy is cached (``.cache/`` is ignored by git).
CACHE = ROOT / ".cache" / "baseline_coach"


class BaselineUnavailable(RuntimeError):
    """The old coach cannot be taken from git history here."""


def _git(*args: str) -> str:
    """Run git in the repository; :class:`BaselineUnavailable` when it cannot."""
    try:
        out = subprocess.run(["git", "-C", str(ROOT), *args], capture_output=True, text=True, check=False)
    except FileNotFoundError as exc:
        raise BaselineUnavailable(f"the baseline coach is read from git history (commit {COMMIT}), "
                                  f"but git is not installed ({exc})") from exc
    if out.returncode != 0:
        raise BaselineUnavailable(
            f"the baseline coach is read from git history, and 'git {' '.join(args)}' failed in {ROOT}: "
            f"{out.stderr.strip()[:200]!r}; run from a clone with full history (git fetch --unshallow)")
    return out.stdout


def source(module: str, commit: str) -> str:
    """One coach module's text at ``commit``, its package renamed to :data:`PACKAGE`."""
    text = _git("show", f"{commit}:okey_vision/coach/{module}.py")
    # \b keeps okey_vision.coach_command (a different module) as it is.
    return re.sub(r"\bokey_vision\.coach\b", PACKAGE, text)


def materialise() -> Path:
    """The folder holding the cached package (written once per commit, atomically)."""
    full = _git("rev-parse", "--verify", f"{COMMIT}^{{commit}}").strip()
    home = CACHE / full
    if (home / PACKAGE / "__init__.py").is_file():
        return home
    CACHE.mkdir(parents=True, exist_ok=True)
    # Written beside the target, then renamed: parallel benchmark workers never see half a package.
    tmp = Path(tempfile.mkdtemp(prefix=".partial-", dir=CACHE))
    try:
        (tmp / PACKAGE).mkdir()
        for m in MODULES:
            (tmp / PACKAGE / f"{m}.py").write_text(source(m, full))
        try:
            os.rename(tmp, home)
        except OSError:  # another process cached it first: the same text
            if not (home / PACKAGE / "__init__.py").is_file():
                raise
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return home


def load() -> ModuleType:
    """The old coach package, cached from git history and imported (once: then it is in ``sys.modules``)."""
    loaded = sys.modules.get(PACKAGE)
    return loaded if loaded is not None else import_from(materialise(), PACKAGE)


def __getattr__(name: str) -> Any:
    """The old coach's ``advise``, ``distance`` and ``reading``, loaded at first use
    (importing this module reads no git history)."""
    if name in ("advise", "distance", "reading"):
        return getattr(load(), name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def summary(advice) -> dict:
    """The old advice's JSON summary (its ``reason`` in English included)."""
    return advice.to_dict()


class BaselineCoachPolicy(Policy):
    """The coach bot at commit b9e9903 (``game.CoachPolicy`` then), playing the
    baseline advice: takes the offered tile when the advice does, declares at
    once when finished, else discards the first-ranked tile."""

    name = "baseline"

    def __init__(self, with_outs: bool = True, memo: Memo | None = None) -> None:
        super().__init__(memo)
        self.with_outs = with_outs

    def take(self, view: TurnView, rng: random.Random) -> bool:
        """Take the offered tile when the baseline advice says so."""
        if view.offered is None:
            return False
        advice = load().advise(view.hand, view.indicator, view.seen_without(view.offered), offered=view.offered,
                               scheme=view.scheme, with_outs=False, memo=self.memo)
        return bool(advice.take)

    def move(self, view: TurnView, rng: random.Random) -> Move:
        """Declare if finished, else the baseline's first-ranked discard."""
        advice = load().advise(view.hand, view.indicator, view.seen, scheme=view.scheme, with_outs=self.with_outs,
                               memo=self.memo, only_best=True)
        if advice.declare is not None and advice.declare.discard is not None:
            return Move(advice.declare.discard, True)
        assert advice.best is not None
        return Move(advice.best.tile)


__all__ = [
    "COMMIT",
    "BaselineCoachPolicy",
    "BaselineUnavailable",
    "load",
    "materialise",
    "summary",
]
