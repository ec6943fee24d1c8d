"""Loading and running the reader's networks: onnxruntime first, torch as a fallback.

The runtime needs only onnxruntime and numpy (``pip install okey-vision[vision]``);
ultralytics and torch are the training and export stack (the ``train`` extra)
and run a ``.pt`` only when no ``.onnx`` is there or ``prefer_onnx`` is off.

A weight file that is missing, truncated or not a model of ours raises
:class:`ModelError` with one line naming the file and how to get a good one.
"""

from __future__ import annotations

import ast
import os
import threading
from pathlib import Path

import numpy as np

from okey_vision.errors import ModelError, clip

#: The shipped weights: ``okey_vision/models`` (a link to the repository's
#: ``models/`` in a checkout, real files in an installed wheel).
DEFAULT_MODELS = Path(__file__).resolve().parents[1] / "models"
#: The reader's networks, in the order they run.
STEMS = ("detector", "number", "color")
#: What to do about a bad weight file.
_FIX = ("reinstall okey-vision (pip install --force-reinstall okey-vision), or retrain it: "
        "python -m okey_vision.vision.train {stem}")


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
    CPU one thread is steadier than several (the intra-op threads of torch and
    onnxruntime spin-wait and collapse when the cores are shared)."""
    return max(1, env_int("OKEY_VISION_THREADS", 1))


def onnx_available() -> bool:
    """Whether onnxruntime imports."""
    try:
        import onnxruntime  # noqa: F401
    except ImportError:
        return False
    return True


class Net:
    """One network run by onnxruntime (thread-safe) or by torch (serialised:
    ultralytics heads cache shape-dependent anchors, so two threads with
    photos of different shapes would corrupt each other's boxes)."""

    def __init__(self, stem: str, folder: Path, prefer_onnx: bool = True):
        onnx_path, pt_path = folder / f"{stem}.onnx", folder / f"{stem}.pt"
        self.stem = stem
        self.names: dict[int, str] = {}
        self.imgsz = None
        self._lock = threading.Lock()
        use_onnx = onnx_path.exists() and (prefer_onnx or not pt_path.exists())
        if use_onnx and not onnx_available():
            if not pt_path.exists():
                raise ModelError(f"{clip(onnx_path)} needs onnxruntime: pip install 'okey-vision[vision]'")
            use_onnx = False
        if use_onnx:
            self._load_onnx(onnx_path)
        elif pt_path.exists():
            self._load_torch(pt_path)
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

    def _load_torch(self, path: Path) -> None:
        try:
            import torch

            os.environ.setdefault("YOLO_OFFLINE", "1")
            from ultralytics.nn.tasks import load_checkpoint
        except ImportError:
            raise ModelError(f"{clip(path)} needs torch and ultralytics: pip install 'okey-vision[train]', "
                             "or export it to ONNX") from None
        if torch.get_num_threads() != threads():
            torch.set_num_threads(threads())
        try:
            model, ckpt = load_checkpoint(str(path), device="cpu", fuse=False)
            model = model.fuse(verbose=False).float().eval()
        except Exception as exc:  # noqa: BLE001 - torch/pickle raise many types
            raise ModelError(_bad(path, exc)) from None
        for p in model.parameters():
            p.requires_grad_(False)
        self.model = model
        self.names = {int(k): v for k, v in model.names.items()}
        args = ckpt.get("train_args", {}) if isinstance(ckpt, dict) else {}
        self.imgsz = args.get("imgsz")
        self.torch = torch
        self.dynamic = True
        self.kind = "torch"
        self.path = path

    @property
    def size(self) -> int:
        """The square input size the network was trained at."""
        return self.imgsz if isinstance(self.imgsz, int) else (self.imgsz or [0])[0]

    def __call__(self, x: np.ndarray) -> np.ndarray:
        if self.kind == "onnx":
            return self.sess.run(None, {self.input: x})[0]
        with self._lock, self.torch.inference_mode():
            y = self.model(self.torch.from_numpy(x))
            if isinstance(y, (tuple, list)):
                y = y[0]
            return y.numpy().copy()


def _bad(path: Path, exc: Exception) -> str:
    reason = str(exc).strip().splitlines()[0] if str(exc).strip() else type(exc).__name__
    return (f"{clip(path)}: not a usable model file (truncated or not a model: {clip(reason, 60)}); "
            + _FIX.format(stem=path.stem))


__all__ = ["Net", "ModelError", "ModelMissingError", "DEFAULT_MODELS", "STEMS", "models_dir",
           "threads", "env_int", "onnx_available"]
