"""Evaluation as a package: the one IoU matching, where the shared real
photos are, and the calibration's guard judging alike from a checkout and
from the package copied anywhere else."""

from __future__ import annotations

import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
from itertools import permutations
from pathlib import Path

import pytest

from okey_vision.eval.match import box_iou, greedy_match, match
from okey_vision.eval.shared import REAL_ENV, real_pixels

ROOT = Path(__file__).resolve().parents[1]


def test_box_iou():
    assert box_iou((0, 0, 10, 10), (0, 0, 10, 10)) == 1.0
    assert box_iou((0, 0, 10, 10), (10, 0, 20, 10)) == 0.0
    assert box_iou((0, 0, 10, 10), (5, 0, 15, 10)) == pytest.approx(50 / 150)
    assert box_iou((0, 0, 0, 0), (0, 0, 0, 0)) == 0.0  # no area: no overlap, not a division by zero


def _greedy_by_hand(iou: list[list[float]], threshold: float) -> set[tuple[int, int]]:
    """The greedy rule written out another way: repeatedly take the best
    remaining pair (ties: the larger label index, then read index)."""
    left = {(i, j) for i in range(len(iou)) for j in range(len(iou[0])) if iou[i][j] >= threshold}
    out = set()
    while left:
        i, j = max(left, key=lambda p: (iou[p[0]][p[1]], p[0], p[1]))
        out.add((i, j))
        left = {(a, b) for a, b in left if a != i and b != j}
    return out


def test_greedy_matching_is_one_to_one_best_first_and_above_the_threshold():
    rng = random.Random(5)
    for _ in range(300):
        n, m = rng.randint(0, 5), rng.randint(1, 5)
        iou = [[rng.choice([0.0, 0.2, 0.35, 0.5, 0.5, 0.8, rng.random()]) for _ in range(m)] for _ in range(n)]
        got = greedy_match(range(n), range(m), lambda i, j, iou=iou: iou[i][j], 0.3)
        assert {(i, j) for i, j, _ in got} == _greedy_by_hand(iou, 0.3)
        assert [v for _, _, v in got] == sorted((v for _, _, v in got), reverse=True)
        assert all(v == iou[i][j] >= 0.3 for i, j, v in got)


def test_greedy_is_not_the_best_assignment_but_the_benchmarks_rule():
    # label 0 overlaps read 0 best; greedy takes it and leaves label 1 unmatched,
    # where an optimal assignment would match both: the benchmarks count it this way.
    iou = [[0.9, 0.8], [0.7, 0.0]]
    got = greedy_match([0, 1], [0, 1], lambda i, j: iou[i][j], 0.5)
    assert [(i, j) for i, j, _ in got] == [(0, 0)]
    best = max(permutations(range(2)), key=lambda p: sum(iou[i][p[i]] >= 0.5 for i in range(2)))
    assert sum(iou[i][best[i]] >= 0.5 for i in range(2)) == 2


def test_match_pairs_truth_boxes_and_reads():
    class Read:
        def __init__(self, box):
            self.box = box

    truth = [("r1", (0, 0, 10, 10)), ("r2", (20, 0, 30, 10)), ("r3", (100, 0, 110, 10))]
    reads = [Read((21, 0, 31, 10)), Read((1, 1, 11, 11)), Read((50, 50, 60, 60))]
    assert sorted(match(truth, reads)) == [(0, 1), (1, 0)]


def test_the_shared_photos_are_found_by_the_variable_else_beside_the_checkout(monkeypatch, tmp_path):
    monkeypatch.setenv(REAL_ENV, str(tmp_path))
    assert real_pixels() == tmp_path
    monkeypatch.delenv(REAL_ENV)
    assert real_pixels() == (ROOT.parent / "shared" / "datasets").resolve()


# The guard's judge, as plain data: its name and, for each case, the image's
# shape and digest and what reading nothing scores (the tiles it counts).
JUDGE = """
import hashlib, json, sys
import okey_vision
from okey_vision.calibrate.guard import cases
name, found = cases()
print(json.dumps({"package": okey_vision.__file__, "name": name,
                  "cases": [[list(img.shape), hashlib.sha256(img.tobytes()).hexdigest()[:16], list(score([]))]
                            for img, score in found]}))
"""


def test_a_copy_of_the_package_elsewhere_guards_exactly_as_the_checkout(tmp_path):
    pytest.importorskip("cv2")
    copy = tmp_path / "site"
    shutil.copytree(ROOT / "okey_vision", copy / "okey_vision",
                    ignore=shutil.ignore_patterns("models", "__pycache__"))
    away = tmp_path / "elsewhere"
    away.mkdir()
    env = dict(os.environ, PYTHONPATH=str(copy), **{REAL_ENV: str(real_pixels())})
    done = subprocess.run([sys.executable, "-c", JUDGE], cwd=away, env=env, capture_output=True, text=True,
                          check=False, timeout=300)
    assert done.returncode == 0, done.stderr[-2000:]
    there = json.loads(done.stdout)
    assert Path(there["package"]).is_relative_to(copy)  # the copy answered, not the checkout

    from okey_vision.calibrate.guard import cases

    name, found = cases()
    here = [[list(img.shape), hashlib.sha256(img.tobytes()).hexdigest()[:16], list(score([]))]
            for img, score in found]
    assert (there["name"], there["cases"]) == (name, here)
    if (real_pixels() / "okey-real").is_dir():  # the shared photos are here: the real judge, not the sample
        assert name.startswith("real-pixel choose part") and len(here) >= 2
