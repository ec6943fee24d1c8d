"""The training runs and their command line (okey_vision.training.runs, .cli):
recipes, ``--init`` from the shipped ONNX models, ``python -m okey_vision.training``."""

from __future__ import annotations

import logging
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from okey_vision.cli import train as cli
from okey_vision.training import paths, runs
from okey_vision.training.recipes import RECIPES

ROOT = Path(__file__).resolve().parent.parent


def test_options_override_the_recipe() -> None:
    args = cli.with_recipe("number", cli.build_parser().parse_args(["number", "--epochs", "3", "--lr0", "0.0003"]))
    r = runs.recipe("number", args)
    assert (r.epochs, r.lr0, r.imgsz) == (3, 0.0003, RECIPES["number"].imgsz)
    assert RECIPES["number"].epochs != 3  # the default recipe is left as it was


@pytest.mark.parametrize("init", ["models/number.onnx", "shipped"])
def test_init_from_the_shipped_onnx_recovers_a_checkpoint(tmp_path: Path, monkeypatch, init: str) -> None:
    """train number --init models/number.onnx (or 'shipped' on a machine without
    models/number.pt): a checkpoint rebuilt into runs/recovered/, calibrated on the data."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    cv2 = pytest.importorskip("cv2")
    monkeypatch.setattr(paths, "RUNS", tmp_path / "runs" / "okey")
    models = tmp_path / "models"  # as on a fresh machine: the shipped ONNX copy, no .pt
    models.mkdir()
    shutil.copy(paths.MODELS / "number.onnx", models / "number.onnx")
    monkeypatch.setattr(paths, "MODELS", models)
    monkeypatch.chdir(ROOT)  # --init paths are the command line's, relative to the checkout
    photo = cv2.imread(str(ROOT / "okey_vision" / "data" / "sample_rack.jpg"))
    data = tmp_path / "crops"
    (data / "train" / "7").mkdir(parents=True)
    for i in range(4):
        cv2.imwrite(str(data / "train" / "7" / f"c{i}.png"), cv2.resize(photo[:, i * 50:], (64, 64)))
    got = runs.initial_weights("number", init, data, logging.getLogger("test"))
    assert got == str(tmp_path / "runs" / "recovered" / "number.pt")
    ckpt = torch.load(got, weights_only=False)
    assert ckpt["train_args"] == {"task": "classify", "imgsz": 64} and len(ckpt["model"].names) == 14
    assert runs.initial_weights("number", None, data, logging.getLogger("test")) is None


def test_the_command_line_runs_as_a_module() -> None:
    """python -m okey_vision.training --help; the retrain plan's commands parse."""
    out = subprocess.run([sys.executable, "-m", "okey_vision.training", "--help"], cwd=ROOT,
                         capture_output=True, text=True, timeout=120, check=False)
    assert out.returncode == 0, out.stderr
    assert ("{color,detector,detector_axis,detector_strip,detector_view,number,export,mix}" in out.stdout
            and "--init INIT" in out.stdout)
    plan = subprocess.run([sys.executable, "-m", "okey_vision.training.retrain", "--dry-run"], cwd=ROOT,
                          capture_output=True, text=True, timeout=120, check=False)
    assert plan.returncode == 0, plan.stderr
    commands = [line.split()[3:] for line in plan.stdout.splitlines()
                if line.startswith("python -m okey_vision.training ")]
    assert len(commands) == 9  # 6 models' recipes, 2 exports, the detected-crop number run
    for argv in commands:
        cli.build_parser().parse_args(argv)
