"""Retrain every shipped model from its yaml, in one command, timed.

    python -m okey_vision.training.retrain            # all five models, two lanes
    python -m okey_vision.training.retrain --dry-run  # print the plan

The plan (:data:`PLAN`: each stage one recipe of
:mod:`okey_vision.training.recipes`, run as ``train`` runs it) runs in two lanes, one CPU core each, because the
machine has two: the oriented detector in one; the classifiers, then the
upright detector and the strip detector (fine-tuned from the upright one) in
the other. When both lanes are done the detectors are exported and the
number model is fine-tuned once more on crops cut where *these* detectors
find the tiles, then everything is exported. Nothing starts from earlier
weights or anything downloaded: each first stage builds its network from
the ultralytics model yaml.

It writes ``models/*.pt`` and ``models/*.onnx`` (replacing the shipped ones:
run it in a separate clone to compare) and logs each stage's start, end and
minutes to ``runs/okey/retrain.log``. Each stage is one ``train`` command
(``python -m okey_vision.training``); a finished stage leaves a mark in
``runs/okey/retrain/``, so running the command again after an interruption
skips the finished stages and resumes the interrupted one from its
``last.pt``. ``--restart`` forgets the marks.
"""

from __future__ import annotations

import argparse
import logging
import os
import shutil
import subprocess
import sys
import threading
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

from okey_vision.training import paths
from okey_vision.training.recipes import NUMBER_ON_DETECTED, RECIPES, Recipe


@dataclass(frozen=True)
class Stage:
    """One step of the plan: a ``train`` command line (a recipe's, or an export)."""

    name: str
    argv: tuple[str, ...] = ()
    #: data-loader processes for the train command (classifiers read small files: 0)
    workers: int = 1

    @classmethod
    def of(cls, name: str, recipe: Recipe, workers: int = 1) -> Stage:
        """The stage that trains ``recipe`` exactly (its own command line)."""
        return cls(name, recipe.argv(), workers)


#: The lanes run side by side; the stages of a lane in turn; ``FINISH`` after both.
PLAN: tuple[tuple[Stage, ...], ...] = (
    (Stage.of("oriented detector", RECIPES["detector"]),),
    (Stage.of("number", RECIPES["number"], workers=0),
     Stage.of("colour", RECIPES["color"], workers=0),
     Stage.of("upright detector", RECIPES["detector_axis"]),
     Stage.of("strip detector", RECIPES["detector_strip"])),
)
FINISH: tuple[Stage, ...] = (
    Stage.of("view detector", RECIPES["detector_view"]),
    # the upright detector is only the strip detector's start: the reader does not read with it
    Stage("export detectors", ("export", "--onnx", "detector,detector_view,detector_strip")),
    Stage.of("number on detected crops", NUMBER_ON_DETECTED, workers=0),
    Stage("export classifiers", ("export", "--onnx", "number,color")),
)

#: Where the finished stages leave their marks.
MARKS = paths.RUNS / "retrain"

Runner = Callable[[Sequence[str], int], int]


def run_command(argv: Sequence[str], core: int) -> int:
    """Run one ``train`` command pinned to one CPU core; its exit status."""
    def pin() -> None:
        if hasattr(os, "sched_setaffinity") and core < (os.cpu_count() or 1):
            os.sched_setaffinity(0, {core})

    cmd = [sys.executable, "-m", "okey_vision.training", *argv]
    return subprocess.call(cmd, preexec_fn=pin, cwd=paths.ROOT, stdout=subprocess.DEVNULL)


def stage_command(stage: Stage, restart: bool) -> list[str]:
    """The ``train`` arguments of a stage: one torch thread; ``--restart`` on a fresh start."""
    argv = list(stage.argv)
    if argv[0] != "export":
        argv += ["--threads", "1", "--workers", str(stage.workers)]
        if restart:
            argv.append("--restart")
    return argv


def _mark(lane: int, index: int) -> Path:
    return MARKS / f"{lane}-{index}"


def run_stage(stage: Stage, lane: int, index: int, core: int, log: logging.Logger,
              runner: Runner) -> bool:
    """Run one stage unless its mark says it finished; True when it succeeded."""
    done, started = _mark(lane, index).with_suffix(".done"), _mark(lane, index).with_suffix(".started")
    if done.exists():
        log.info(f"[lane {lane}] {stage.name}: done before, skipped")
        return True
    t0 = time.time()
    fresh = not started.exists()
    started.parent.mkdir(parents=True, exist_ok=True)
    started.write_text(time.strftime("%Y-%m-%d %H:%M:%S"))
    argv = stage_command(stage, restart=fresh)
    log.info(f"[lane {lane}] {stage.name}: train {' '.join(argv)}")
    rc = runner(argv, core)
    minutes = (time.time() - t0) / 60
    if rc != 0:
        log.info(f"[lane {lane}] {stage.name}: FAILED (exit {rc}) after {minutes:.1f} min")
        return False
    done.parent.mkdir(parents=True, exist_ok=True)
    done.write_text(f"{minutes:.2f}")
    log.info(f"[lane {lane}] {stage.name}: finished in {minutes:.1f} min")
    return True


def retrain(plan: Sequence[Sequence[Stage]] = PLAN, finish: Sequence[Stage] = FINISH,
            runner: Runner = run_command, restart: bool = False,
            log: logging.Logger | None = None, lanes: Sequence[int] | None = None) -> bool:
    """Run the lanes side by side, then the finishing stages; True when all
    succeeded. ``lanes``: only these lanes, and no finishing stages."""
    log = log or paths.log_to(paths.RUNS / "retrain.log")
    if restart:
        shutil.rmtree(MARKS, ignore_errors=True)
    t0 = time.time()
    ok = [True] * len(plan)

    def lane(i: int) -> None:
        for k, stage in enumerate(plan[i]):
            if not run_stage(stage, i, k, i % (os.cpu_count() or 1), log, runner):
                ok[i] = False
                return

    chosen = range(len(plan)) if lanes is None else lanes
    threads = [threading.Thread(target=lane, args=(i,)) for i in chosen]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    if lanes is not None:
        log.info(f"lanes {list(lanes)} {'finished' if all(ok) else 'STOPPED'}: "
                 f"{(time.time() - t0) / 60:.1f} min")
        return all(ok)
    good = all(ok) and all(run_stage(s, len(plan), k, 0, log, runner) for k, s in enumerate(finish))
    log.info(f"retrain {'finished' if good else 'STOPPED'}: {(time.time() - t0) / 60:.1f} min "
             f"wall clock (stages finished before this start not counted)")
    return good


def main(argv: list[str] | None = None) -> int:
    """Command line entry."""
    p = argparse.ArgumentParser(prog="python -m okey_vision.training.retrain",
                                description=(__doc__ or "").split("\n\n")[0])
    p.add_argument("--dry-run", action="store_true", help="print the plan's commands and stop")
    p.add_argument("--restart", action="store_true", help="forget finished stages; start over")
    p.add_argument("--lane", type=int, action="append",
                   help="run only this lane (repeatable; e.g. one lane a machine), no finishing stages")
    args = p.parse_args(argv)
    if args.dry_run:
        for i, lane in enumerate([*PLAN, FINISH]):
            title = f"lane {i}" if i < len(PLAN) else "after both lanes"
            print(f"# {title}")
            for s in lane:
                print("python -m okey_vision.training " + " ".join(stage_command(s, True)))
        return 0
    return 0 if retrain(restart=args.restart, lanes=args.lane) else 1


if __name__ == "__main__":
    sys.exit(main())
