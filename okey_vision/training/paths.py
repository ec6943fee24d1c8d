"""Where training reads and writes, and its log.

The folders are module attributes read at call time (``paths.DATA``), so a
test can point them elsewhere with one ``monkeypatch.setattr``.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from pathlib import Path

#: The checkout: ``datasets/`` recipes, ``models/``, git-ignored ``data/`` and ``runs/``.
ROOT = Path(__file__).resolve().parents[2]
#: Rendered training data, one folder per recipe and seed (git-ignored).
DATA = ROOT / "data"
#: Training runs, their logs and the retrain marks (git-ignored).
RUNS = ROOT / "runs" / "okey"
#: The shipped weights (``models/*.onnx``) and the trained ``.pt`` beside them.
MODELS = ROOT / "models"


def recipe_path(name: str) -> Path:
    """A synthetic data recipe in ``datasets/`` by file name."""
    return ROOT / "datasets" / name


class RunLog(logging.FileHandler):
    """The log file of one run, told apart from ultralytics' own handlers."""


def log_to(path: Path) -> logging.Logger:
    """Send ultralytics' and our log lines to ``path`` as well as stdout."""
    from ultralytics.utils import LOGGER

    path.parent.mkdir(parents=True, exist_ok=True)
    for h in list(LOGGER.handlers):  # one log file per model run
        if isinstance(h, RunLog):
            LOGGER.removeHandler(h)
            h.close()
    fh = RunLog(path, encoding="utf-8")
    fh.setFormatter(logging.Formatter("%(asctime)s %(message)s"))
    LOGGER.addHandler(fh)
    return LOGGER


def progress(log: logging.Logger, every: int, total: int) -> Callable[[int], None]:
    """A writer's progress callback: logs "rendered i/total" after each ``every`` items."""
    def report(i: int) -> None:
        if (i + 1) % every == 0:
            log.info(f"  rendered {i + 1}/{total}")
    return report
