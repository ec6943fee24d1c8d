"""The reader's torch backend: a ``.pt`` checkpoint run by torch and ultralytics.

The runtime reader runs ONNX only and imports neither; :func:`use_torch`
hands it this runner for ``.pt`` files (``OKEY_VISION_BACKEND=torch``,
``prefer_onnx=False``, or a model folder without the ``.onnx``), e.g. to
measure a run's weights before they are exported::

    from okey_vision.training.torchnet import use_torch
    use_torch()
    RackReader("runs/okey/candidate", prefer_onnx=False).load()
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Any

import numpy as np

from okey_vision.errors import ModelError, clip
from okey_vision.vision import nets


class TorchNet:
    """One ``.pt`` checkpoint run by torch, serialised: ultralytics heads
    cache shape-dependent anchors, so two threads with photos of different
    shapes would corrupt each other's boxes."""

    kind = "torch"
    dynamic = True

    def __init__(self, path: Path):
        try:
            import torch
            from ultralytics.nn.tasks import load_checkpoint
        except ImportError:
            raise ModelError(f"{clip(path)} needs torch and ultralytics: pip install 'okey-vision[train]', "
                             "or export it to ONNX") from None
        if torch.get_num_threads() != nets.threads():
            torch.set_num_threads(nets.threads())
        model, ckpt = load_checkpoint(str(path), device="cpu", fuse=False)
        model = model.fuse(verbose=False).float().eval()
        for p in model.parameters():
            p.requires_grad_(False)
        self.model = model
        self.torch = torch
        self.path = path
        self.names: dict[int, str] = {int(k): v for k, v in model.names.items()}
        args = ckpt.get("train_args", {}) if isinstance(ckpt, dict) else {}
        self.imgsz: Any = args.get("imgsz")
        self._lock = threading.Lock()

    def __call__(self, x: np.ndarray) -> np.ndarray:
        """The network's first output for an N x 3 x H x W float batch."""
        with self._lock, self.torch.inference_mode():
            y = self.model(self.torch.from_numpy(x))
            if isinstance(y, (tuple, list)):
                y = y[0]
            return y.numpy().copy()


def use_torch() -> None:
    """Have the reader run ``.pt`` checkpoints with torch (:class:`TorchNet`)."""
    nets.run_checkpoints_with(TorchNet)
