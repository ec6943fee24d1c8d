"""A trainable Ultralytics checkpoint rebuilt from a shipped ONNX model.

The ``.pt`` files are not shipped (they would pass the 20 MB budget), so a
fresh machine continues training (``train --init models/detector.onnx``)
from the ONNX copy: the network is built from its yaml, every exported
(BatchNorm-fused) convolution's weight goes back into its conv, and its bias
into a BatchNorm set to the identity (mean 0, variance 1, scale
sqrt(1 + eps)), so the rebuilt network computes what the ONNX one does.
With calibration images the BatchNorms are then given the statistics those
images produce (:func:`calibrate_batchnorm`), so that it also computes that
in *training* mode; with identity BatchNorms a training step normalises
every layer by batch statistics the network never had and starts from a
different network.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import torch

#: Which network yaml an exported ONNX task was built from.
TASK_YAML = {"obb": "yolo11n-obb.yaml", "detect": "yolo11n.yaml", "classify": "yolo11n-cls.yaml"}


def recover_pt(onnx_path: str | Path, out: str | Path, calibrate: Sequence[Path] = ()) -> Path:
    """Rebuild a trainable checkpoint from ``onnx_path`` into ``out`` (see the
    module's text); ``calibrate``: images whose statistics the BatchNorms take."""
    import onnx
    import torch
    from ultralytics.nn.tasks import ClassificationModel, DetectionModel, OBBModel

    model = onnx.load(str(onnx_path))
    meta = {p.key: p.value for p in model.metadata_props}
    task, names = meta["task"], ast.literal_eval(meta["names"])
    imgsz = ast.literal_eval(meta["imgsz"])
    weights = onnx_weights(model)
    cls = {"obb": OBBModel, "detect": DetectionModel, "classify": ClassificationModel}[task]
    net: Any = cls(TASK_YAML[task], nc=len(names), verbose=False)
    net.load_state_dict(unfused_state(net, weights, str(onnx_path)))
    size = imgsz[0] if isinstance(imgsz, list) else imgsz
    if calibrate:
        calibrate_batchnorm(net, image_batch(calibrate, int(size)))
    net.names = names
    net.args = {"task": task, "imgsz": size}
    ckpt = {"model": net, "ema": None, "optimizer": None, "epoch": -1,
            "train_args": {"task": task, "imgsz": net.args["imgsz"]},
            "date": meta.get("date"), "version": meta.get("version")}
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    torch.save(ckpt, str(out))
    return Path(out)


def onnx_weights(model: Any) -> dict[str, torch.Tensor]:
    """The float weights of an ONNX model by initializer name, as fp32
    tensors: the float16 (``store_half``) ones, and the int8 ones behind a
    DequantizeLinear node (``store_int8``'s, and a quantized model's weights
    and int32 biases, ``okey_vision.training.quantize``) given back as
    ``(q - zero point) * scale``, under the name of the weight they stand for."""
    import numpy as np
    import torch
    from onnx import numpy_helper

    inits = {init.name: numpy_helper.to_array(init) for init in model.graph.initializer}
    # the scales and zero points of (de)quantized activations are no weights either
    behind = {i for n in model.graph.node if n.op_type in ("QuantizeLinear", "DequantizeLinear")
              for i in n.input[1:]}
    weights = {}
    for node in model.graph.node:
        if node.op_type != "DequantizeLinear" or not all(i in inits for i in node.input):
            continue
        q, scale = inits[node.input[0]].astype(np.float64), inits[node.input[1]].astype(np.float64)
        zero = inits[node.input[2]].astype(np.float64) if len(node.input) > 2 else np.zeros_like(scale)
        axis = next((a.i for a in node.attribute if a.name == "axis"), 1)
        if scale.ndim == 1 and q.ndim > 1:  # one scale per slice along ``axis``
            shape = [1] * q.ndim
            shape[axis] = -1
            scale, zero = scale.reshape(shape), zero.reshape(shape)
        name = node.input[0].removesuffix("_int8").removesuffix("_quantized")
        weights[name] = torch.from_numpy(np.asarray((q - zero) * scale, np.float32))
        behind.update(node.input)
    for name, arr in inits.items():
        if arr.dtype.kind == "f" and name not in behind:
            weights.setdefault(name.removesuffix("_fp16"), torch.from_numpy(arr.astype("float32")))
    return weights


def unfused_state(net: torch.nn.Module, weights: dict[str, torch.Tensor], source: str
                  ) -> dict[str, torch.Tensor]:
    """``net``'s state dict with the fused ONNX ``weights`` put back: each
    conv's weight as it is, its bias into an identity BatchNorm. Raises
    ValueError naming ``source`` when the weights do not fit the network."""
    import torch

    state = net.state_dict()
    modules = dict(net.named_modules())
    done = set()
    new = {}
    for key, val in state.items():
        if key.endswith(".bn.weight"):
            stem = key.removesuffix(".bn.weight")
            bn = modules[stem + ".bn"]
            assert isinstance(bn, torch.nn.BatchNorm2d)  # every ".bn" of these yamls is one
            eps = bn.eps
            new[key] = torch.full_like(val, (1 + eps) ** 0.5)
            new[stem + ".bn.bias"] = weights[stem + ".conv.bias"]
            new[stem + ".bn.running_mean"] = torch.zeros_like(val)
            new[stem + ".bn.running_var"] = torch.ones_like(val)
            done.add(stem + ".conv.bias")
        elif key in weights:
            new[key] = weights[key].reshape(val.shape)
            done.add(key)
    missing = [k for k, v in state.items() if k not in new and v.is_floating_point()]
    unused = [k for k in weights if k not in done and k.startswith("model.")]
    if missing or unused:
        raise ValueError(f"{source}: cannot map weights (missing {missing[:5]}, unused {unused[:5]})")
    return {**state, **new}


def calibrate_batchnorm(net: torch.nn.Module, images: torch.Tensor) -> None:
    """Give the identity BatchNorms of a rebuilt network (:func:`recover_pt`)
    the per-channel mean ``m`` and variance ``v`` of their inputs on
    ``images`` (an N x 3 x H x W float tensor), with scale ``sqrt(v + eps)`` and
    bias ``b + m``: the network computes exactly what it did in evaluation
    mode, and about the same in training mode, where the BatchNorms use the
    statistics of each batch instead."""
    import torch

    stats: dict[str, tuple[torch.Tensor, torch.Tensor]] = {}

    def keep(name: str) -> Callable[..., None]:
        def hook(module: torch.nn.Module, inputs: tuple[torch.Tensor, ...], output: torch.Tensor) -> None:
            x = inputs[0].detach().double()
            stats[name] = (x.mean((0, 2, 3)), x.var((0, 2, 3), unbiased=False))
        return hook

    norms = {n: m for n, m in net.named_modules() if isinstance(m, torch.nn.BatchNorm2d)}
    hooks = [m.register_forward_hook(keep(n)) for n, m in norms.items()]
    net.eval()
    try:
        with torch.no_grad():
            net(images)
    finally:
        for h in hooks:
            h.remove()
    with torch.no_grad():
        for name, bn in norms.items():
            if name not in stats:  # a branch the forward pass does not take
                continue
            mean, var = stats[name]
            # identity BatchNorm: y = x * sqrt(1 + eps) / sqrt(1 + eps) + b
            bias = bn.bias.double()
            assert bn.running_mean is not None and bn.running_var is not None  # tracked: BatchNorm2d's default
            bn.running_mean.copy_(mean)
            bn.running_var.copy_(var)
            bn.weight.copy_((var + bn.eps).sqrt())
            bn.bias.copy_(bias + mean)


def image_batch(paths: Sequence[Path], size: int) -> torch.Tensor:
    """The images at ``paths`` as one float batch of ``size`` x ``size`` RGB tensors in [0, 1]."""
    import cv2
    import numpy as np
    import torch

    arrays = []
    for p in paths:
        img = cv2.imread(str(p))
        if img is not None:
            arrays.append(cv2.resize(img, (size, size))[:, :, ::-1].transpose(2, 0, 1))
    if not arrays:
        raise ValueError(f"no readable calibration image among {len(paths)} paths, e.g. {paths[0]}")
    return torch.from_numpy(np.ascontiguousarray(np.stack(arrays))).float() / 255


def calibration_images(data: Path, count: int = 48) -> list[Path]:
    """``count`` training images spread over a data set (a YOLO ``data.yaml``
    or a folder of them, or a classifier folder)."""
    root = data.parent if data.is_file() else data
    found = sorted(p for p in root.rglob("*") if p.suffix.lower() in (".jpg", ".jpeg", ".png")
                   and "train" in p.relative_to(root).parts)
    step = max(1, len(found) // count)
    return found[::step][:count]
