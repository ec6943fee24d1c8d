"""Loading and running the reader's networks with onnxruntime.

The runtime needs only onnxruntime and numpy (``pip install okey-vision[vision]``)
and never imports torch or ultralytics. A ``.pt`` checkpoint (training's
output, not shipped) runs only when the training side has said how
(:func:`run_checkpoints_with`; ``okey_vision.training.torchnet.use_torch``),
and then only when no ``.onnx`` is there or ``prefer_onnx`` is off.

A weight file that is missing, truncated or not a model of ours raises
:class:`ModelError` with one line naming the file and how to get a good one.
"""

from __future__ import annotations

import ast
import os
from collections.abc import Callable
from pathlib import Path
from typing import Any, Protocol

import numpy as np

from okey_vision.errors import ModelError, clip

#: The shipped weights: ``okey_vision/models`` (a link to the repository's
#: ``models/`` in a checkout, real files in an installed wheel).
DEFAULT_MODELS = Path(__file__).resolve().parents[1] / "models"
#: The reader's networks, in the order they run.
STEMS = ("detector", "number", "color")
#: What to do about a bad weight file.
_FIX = ("reinstall okey-vision (pip install --force-reinstall okey-vision), or retrain it: "
        "python -m okey_vision.training {stem}")


class ModelMissingError(ModelError):
    """The reader's weights are not where they should be."""


def models_dir() -> Path:
    """The model folder (``$OKEY_VISION_MODELS`` or the shipped ``models/``)."""
    env = os.environ.get("OKEY_VISION_MODELS")
    return Path(env) if env else DEFAULT_MODELS


def env_int(name: str, default: int) -> int:
    """An integer setting from the environment (``default`` when unset or not a number)."""
    try:
        return int(os.environ.get(name, default))
    except ValueError:
        return default


def threads() -> int:
    """Inference threads: ``$OKEY_VISION_THREADS``, default 1. On a small, busy
    CPU one thread is steadier than several (onnxruntime's intra-op threads,
    as torch's, spin-wait and collapse when the cores are shared)."""
    return max(1, env_int("OKEY_VISION_THREADS", 1))


def onnx_available() -> bool:
    """Whether onnxruntime imports."""
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        return False
    return True


class Runner(Protocol):
    """A loaded network as the reader uses it (a :class:`Net`, or a checkpoint runner)."""

    names: dict[int, str]
    imgsz: Any
    dynamic: bool
    kind: str
    path: Path

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """The network's first output for an N x 3 x H x W float batch."""
        ...


#: Loads a ``.pt`` checkpoint into a runner: None in the runtime, which runs
#: ONNX only; the training side sets it (torch, ultralytics).
CheckpointLoader = Callable[[Path], Runner]
_checkpoint_loader: CheckpointLoader | None = None


def run_checkpoints_with(loader: CheckpointLoader | None) -> None:
    """Run ``.pt`` checkpoints with ``loader`` from now on (None: ONNX only)."""
    global _checkpoint_loader
    _checkpoint_loader = loader


def runs_checkpoints() -> bool:
    """Whether a ``.pt`` checkpoint can be run (:func:`run_checkpoints_with` was given a loader)."""
    return _checkpoint_loader is not None


class Net:
    """One network of the model folder, run by onnxruntime (thread-safe), or
    a ``.pt`` checkpoint run by the loader the training side gave
    (:func:`run_checkpoints_with`)."""

    def __init__(self, stem: str, folder: Path, prefer_onnx: bool = True):
        onnx_path, pt_path = folder / f"{stem}.onnx", folder / f"{stem}.pt"
        self.stem = stem
        self.names: dict[int, str] = {}
        self.imgsz: Any = None
        self._run: Callable[[np.ndarray], np.ndarray] = self._run_onnx
        use_onnx = onnx_path.exists() and (prefer_onnx or not pt_path.exists())
        if use_onnx and not onnx_available():
            if not pt_path.exists():
                raise ModelError(f"{clip(onnx_path)} needs onnxruntime: pip install 'okey-vision[vision]'")
            use_onnx = False
        if use_onnx:
            self._load_onnx(onnx_path)
        elif pt_path.exists():
            self._load_checkpoint(pt_path)
        else:
            raise ModelMissingError(
                f"no {stem}.onnx or {stem}.pt in {clip(folder)}: " + _FIX.format(stem=stem)
                + ", or set OKEY_VISION_MODELS to a folder that has it")

    def _load_onnx(self, path: Path) -> None:
        import onnxruntime as ort

        so = ort.SessionOptions()
        so.intra_op_num_threads = threads()
        so.inter_op_num_threads = 1
        so.log_severity_level = 3
        # no arena: memory goes back when the players leave instead of staying
        # at the peak of the busiest moment (measured: same speed on this CPU)
        so.enable_cpu_mem_arena = False
        try:
            self.sess = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
            meta = self.sess.get_modelmeta().custom_metadata_map
            self.names = {int(k): v for k, v in ast.literal_eval(meta.get("names", "{}")).items()}
            self.imgsz = ast.literal_eval(meta.get("imgsz", "None"))
        except Exception as exc:  # noqa: BLE001 - onnxruntime raises its own types
            raise ModelError(_bad(path, exc)) from None
        if not self.names:
            raise ModelError(f"{clip(path)}: an ONNX model, but not one of okey-vision's "
                             f"(no class names); " + _FIX.format(stem=self.stem))
        inp = self.sess.get_inputs()[0]
        self.input = inp.name
        self.dynamic = not all(isinstance(d, int) for d in inp.shape[2:])
        self.kind = "onnx"
        self.path = path

    def _load_checkpoint(self, path: Path) -> None:
        if _checkpoint_loader is None:
            raise ModelError(f"{clip(path)} is a training checkpoint and the reader runs ONNX: export it "
                             f"(python -m okey_vision.training export --onnx {self.stem}), or run it "
                             "with training's torch backend (okey_vision.training.torchnet.use_torch)")
        try:
            runner = _checkpoint_loader(path)
        except ModelError:
            raise
        except Exception as exc:  # noqa: BLE001 - torch/pickle raise many types
            raise ModelError(_bad(path, exc)) from None
        self.names, self.imgsz, self.dynamic = runner.names, runner.imgsz, runner.dynamic
        self.kind, self.path, self._run = runner.kind, path, runner

    @property
    def size(self) -> int:
        """The square input size the network was trained at."""
        return self.imgsz if isinstance(self.imgsz, int) else (self.imgsz or [0])[0]

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """The network's first output for an N x 3 x H x W float batch."""
        return self._run(x)

    def _run_onnx(self, x: np.ndarray) -> np.ndarray:
        result: np.ndarray = self.sess.run(None, {self.input: x})[0]
        return result


def _bad(path: Path, exc: Exception) -> str:
    reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return (f"{clip(path)}: not a usable model file (truncated or not a model: {clip(reason, 60)}); "
            + _FIX.format(stem=path.stem))


__all__ = ["DEFAULT_MODELS", "STEMS", "CheckpointLoader", "ModelError", "ModelMissingError", "Net", "Runner",
           "env_int", "models_dir", "onnx_available", "run_checkpoints_with", "runs_checkpoints", "threads"]
