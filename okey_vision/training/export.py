"""From a run to ``models/``: shipping a run's weights, mixing two
checkpoints, and the ONNX copies the reader runs: weights stored as float16,
or int8 for :data:`INT8_STEMS`, behind nodes that give them back in fp32
(a network of ``quantize.QUANTIZED``, none so far, computing in int8).
"""

from __future__ import annotations

import logging
import os
import shutil
from pathlib import Path
from typing import Any

from okey_vision.training import paths

#: Models stored with int8 convolution weights (``store_int8``) when they do
#: not compute in int8 (``quantize.QUANTIZED``): the strip detector, added
#: within the 20 MB weight budget; the others keep float16.
INT8_STEMS = ("detector_strip",)
#: Float weights smaller than this stay as they are (biases of a few values).
MIN_STORED = 64
#: A convolution weight (4-D) of at least this many values is stored in int8.
MIN_INT8 = 1024


def ship(model: str, log: logging.Logger) -> Path | None:
    """Copy the run's last (else best) weights, optimizer stripped, to models/."""
    from ultralytics.utils.torch_utils import strip_optimizer

    wdir = paths.RUNS / model / "weights"
    # The last epoch, not the "best": the best is picked on the run's val
    # split, and a detector's holds the held-out real photos, which must not
    # choose anything; the epoch count is fixed before the run instead.
    src = next((p for p in (wdir / "last.pt", wdir / "best.pt") if p.exists()), None)
    if src is None:
        log.info(f"no weights to ship in {wdir}")
        return None
    paths.MODELS.mkdir(exist_ok=True)
    tmp = paths.MODELS / f".{model}.tmp.pt"
    shutil.copyfile(src, tmp)
    strip_optimizer(str(tmp))
    dst = paths.MODELS / f"{model}.pt"
    os.replace(tmp, dst)
    log.info(f"shipped {src} -> {dst} ({dst.stat().st_size / 1e6:.1f} MB)")
    return dst


def mix_weights(old: str | Path, new: str | Path, weight: float, out: str | Path) -> Path:
    """Interpolate two checkpoints of one network, ``(1 - weight) * old +
    weight * new`` (WiSE-FT: a fine-tuned model mixed with the one it started
    from keeps more of what the old one read right). Writes ``out``."""
    import torch

    co = torch.load(str(old), map_location="cpu", weights_only=False)
    cn = torch.load(str(new), map_location="cpu", weights_only=False)
    # an epoch checkpoint of a run in progress keeps its weights in "ema" only
    so = (co.get("ema") or co["model"]).float().state_dict()
    net = (cn.get("ema") or cn["model"]).float()
    mixed = {k: (1 - weight) * so[k] + weight * v if v.is_floating_point() else v
             for k, v in net.state_dict().items()}
    net.load_state_dict(mixed)
    cn["model"], cn["ema"], cn["optimizer"] = net.half(), None, None
    Path(out).parent.mkdir(parents=True, exist_ok=True)
    torch.save(cn, str(out))
    return Path(out)


def export_onnx(log: logging.Logger | None = None, stems: tuple[str, ...] = ("detector", "number", "color"),
                half_weights: bool = True, folder: str | Path | None = None) -> list[Path]:
    """Export ``models/*.pt`` (or ``folder``'s: a candidate's) to ONNX beside
    them (the reader runs ONNX); with ``half_weights`` the networks of
    ``quantize.QUANTIZED`` are quantized to compute in int8, calibrated on
    the inputs the shipped reader gives them on renders."""
    from ultralytics import YOLO

    from okey_vision.training import quantize

    log = log or paths.log_to(paths.RUNS / "export.log")
    out = []
    inputs: dict[str, list[Any]] | None = None
    for stem in stems:
        pt = Path(folder or paths.MODELS) / f"{stem}.pt"
        if not pt.exists():
            log.info(f"no {pt}; skipped")
            continue
        net = YOLO(str(pt))
        imgsz = net.ckpt["train_args"]["imgsz"] if getattr(net, "ckpt", None) else None
        path = net.export(format="onnx", imgsz=imgsz, dynamic=True, simplify=True,
                          opset=17, device="cpu")
        if half_weights and stem in quantize.QUANTIZED:
            if inputs is None:  # the reader's own inputs, recorded once for every network
                inputs = quantize.reader_inputs(paths.MODELS)
            quantize.quantize(Path(path), Path(path), inputs.get(stem, []))
        elif half_weights:
            (store_int8 if stem in INT8_STEMS else store_half)(Path(path))
        out.append(Path(path))
        log.info(f"exported {path} ({Path(path).stat().st_size / 1e6:.1f} MB)")
    return out


def drop_shape_info(path: Path) -> None:
    """Drop an ONNX model's shape annotations (``value_info``; onnxruntime
    infers them): 0.1-0.7 MB a model, the outputs unchanged."""
    import onnx

    model = onnx.load(str(path))
    del model.graph.value_info[:]
    onnx.save(model, str(path))


def store_half(path: Path) -> None:
    """Store an ONNX model's float weights as float16 behind Cast nodes: half
    the file; onnxruntime folds the casts when it loads, so it runs in fp32.
    The graph's shape annotations (``value_info``) are dropped too."""
    store_weights(path, int8=False)


def store_int8(path: Path) -> None:
    """Store an ONNX model's convolution weights as int8, one scale per output
    channel, behind DequantizeLinear nodes (the other float weights as
    float16 behind Cast nodes, as :func:`store_half`): about a quarter of
    the fp32 file; it still computes in fp32."""
    store_weights(path, int8=True)


def store_weights(path: Path, int8: bool) -> None:
    """:func:`store_half` and :func:`store_int8`: every float weight of 64+
    values goes behind a node that gives it back in fp32 -- a Cast from
    float16, or with ``int8`` for a convolution's weight (4-D, 1024+ values) a
    per-output-channel DequantizeLinear."""
    import onnx
    from onnx import numpy_helper

    model = onnx.load(str(path))
    g = model.graph
    nodes = []
    for init in list(g.initializer):
        if init.data_type != onnx.TensorProto.FLOAT:
            continue
        arr = numpy_helper.to_array(init)
        if arr.size < MIN_STORED:
            continue
        g.initializer.remove(init)
        stored, node = (int8_weight if int8 and arr.ndim == 4 and arr.size >= MIN_INT8 else half_weight)(
            arr, init.name)
        g.initializer.extend(stored)
        nodes.append(node)
    for node in reversed(nodes):
        g.node.insert(0, node)
    del g.value_info[:]  # shape annotations: onnxruntime infers them (0.1-0.7 MB a model)
    onnx.checker.check_model(model)
    onnx.save(model, str(path))


def half_weight(arr: Any, name: str) -> tuple[list[Any], Any]:
    """A float weight as a float16 initializer and the Cast node that gives ``name`` back in fp32."""
    import numpy as np
    import onnx
    from onnx import helper, numpy_helper

    return ([numpy_helper.from_array(arr.astype(np.float16), name + "_fp16")],
            helper.make_node("Cast", [name + "_fp16"], [name], to=onnx.TensorProto.FLOAT, name=name + "_cast"))


def int8_weight(arr: Any, name: str) -> tuple[list[Any], Any]:
    """A convolution weight as int8 with one scale per output channel (zero
    point 0), and the DequantizeLinear node that gives ``name`` back in fp32."""
    import numpy as np
    from onnx import helper, numpy_helper

    scale = np.abs(arr.reshape(arr.shape[0], -1)).max(1) / 127.0
    scale = np.where(scale > 0, scale, 1.0).astype(np.float32)
    q = np.clip(np.round(arr / scale[:, None, None, None]), -127, 127).astype(np.int8)
    stored = [numpy_helper.from_array(q, name + "_int8"),
              numpy_helper.from_array(scale, name + "_scale"),
              numpy_helper.from_array(np.zeros(len(scale), np.int8), name + "_zp")]
    return stored, helper.make_node("DequantizeLinear", [name + "_int8", name + "_scale", name + "_zp"],
                                    [name], axis=0, name=name + "_dq")
