"""Networks that compute in int8: static quantization of the reader's ONNX
models, calibrated on the inputs the reader itself gives them on renders.

onnxruntime runs a QDQ model's convolutions as int8 kernels: 0.54-0.66x the
time of the fp32 ones on this project's CPU (AVX2, one thread). The
calibration images are what each network sees in a read -- the look canvas,
the normalised view and its mirror, the strip canvases, the tile crops --
recorded while the float reader reads rendered racks (renders may train;
real pixels judge, ``benchmarks/real_pixels.py``). Kept in float: a
detector's head (the final convolutions, the box decode and the
concatenation of boxes and scores: in uint8 the boxes lose their
precision), a classifier's head, and every network's first convolution.

    python -m okey_vision.training.quantize --source FLOAT_MODELS --out /tmp/cand            # every network
    python -m okey_vision.training.quantize detector_view --source FLOAT_MODELS --out /tmp/cand

``FLOAT_MODELS``: a folder of the fp32 (or fp16-stored) exports, such as
the shipped models (which compute in fp32); a model that already computes in
int8 is refused. The other files of the folder are copied to the candidate
folder as they are. The shipped reader does not run int8 networks: on the
real pixels they read faster and worse (:data:`QUANTIZED`).
"""

from __future__ import annotations

import argparse
import shutil
import tempfile
from collections import defaultdict
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import numpy as np

from okey_vision.training import paths

#: The networks the export quantizes: those that pass the real-pixel choose
#: part quantized. None so far: on every view kind of the choose part, the
#: detectors in int8 left a wrong read unflagged (their boxes' scores move,
#: and with them the weak-box flag), and every network in int8 lost exact
#: views on the report part (the training log in docs/results.md).
QUANTIZED: tuple[str, ...] = ()
#: The networks this module quantizes when none are named: every one the reader runs.
CANDIDATES = ("detector", "detector_view", "detector_strip", "number", "color")
#: Render seeds of the calibration scenes: apart from the test (9001, 9101)
#: and validation (9201) seeds.
CALIBRATION_SEED = 7000
#: Calibration batches kept a network (the first ones recorded).
MAX_BATCHES = 64
#: Head nodes of a YOLO detector kept in float: the last convolution of each
#: branch (raw box distances, scores, angles), and everything after them
#: (Concat, Sigmoid, the DFL softmax and box decode).
HEAD = "/model.23/"
#: Modules kept in float at the network's other end: the first convolution,
#: on the image's pixels. Quantized, its output moved the detectors' scores
#: by about 0.12 on the reader's own inputs (0.05 kept in float), and lost
#: tiles on side-view and cluttered renders; it costs a few per cent of the time.
FLOAT_MODULES = ("/model.0/",)
#: A YOLO classifier's head (``Classify``), kept in float.
CLASSIFY_HEAD = "/model.10/"


def reader_inputs(folder: Path, scenes: int = 24, seed: int = CALIBRATION_SEED
                  ) -> dict[str, list[np.ndarray]]:
    """Every batch each network of ``folder`` gets while the reader reads
    ``scenes`` renders (half rack photos as the defaults draw them, half
    player-style racks, turned and seen from the side), by network stem."""
    from okey_vision.synth import SynthConfig, load_config, render_scene
    from okey_vision.vision.reader import RackReader

    player = load_config(paths.ROOT / "datasets" / "synth-player.yaml")
    reader = RackReader(folder, calibration=False).load()
    got: dict[str, list[np.ndarray]] = defaultdict(list)
    for stem in reader.stems:
        net = reader.net(stem)
        run = net._run

        def record(x: np.ndarray, stem: str = stem, run: Any = run) -> np.ndarray:
            if len(got[stem]) < MAX_BATCHES:
                got[stem].append(np.ascontiguousarray(x, np.float32))
            y: np.ndarray = run(x)
            return y

        net._run = record
    for i in range(scenes):
        cfg = player if i % 2 else SynthConfig()
        reader.read(render_scene(seed + i, cfg).image)
    return dict(got)


class _Batches:
    """onnxruntime's CalibrationDataReader over recorded input batches."""

    def __init__(self, name: str, batches: Sequence[np.ndarray]):
        self._it: Iterator[np.ndarray] = iter(batches)
        self.name = name

    def get_next(self) -> dict[str, np.ndarray] | None:
        """The next batch as the model's input feed, None at the end."""
        x = next(self._it, None)
        return None if x is None else {self.name: x}


def head_nodes(model: Any, whole: bool = False) -> list[str]:
    """The nodes of a network's head kept in float: a YOLO detector's (see
    :data:`HEAD`) every node of the last module but the convolutions that
    feed its final convolution of each branch (``whole``: all of it); a
    classifier's (:data:`CLASSIFY_HEAD`) all of it, the convolution, pooling,
    linear layer and softmax whose probabilities the reader weighs."""
    names = [n.name for n in model.graph.node]
    if not any(n.startswith(HEAD) for n in names):
        return [n for n in names if n.startswith(CLASSIFY_HEAD)]
    keep = []
    for n in model.graph.node:
        if not n.name.startswith(HEAD):
            continue
        # cv2.k.0/1, cv3.k.x.y, cv4.k.0/1: a BatchNorm-fused Conv and its SiLU
        is_inner_conv = n.op_type == "Conv" and n.name.endswith("/conv/Conv")
        is_inner_act = n.op_type in ("Sigmoid", "Mul") and "/act/" in n.name
        if whole or not (is_inner_conv or is_inner_act):
            keep.append(n.name)
    return keep


def quantize(src: Path, dst: Path, batches: Sequence[np.ndarray], per_channel: bool = True,
             float_head: bool = True, whole_head: bool = False,
             float_modules: tuple[str, ...] = FLOAT_MODULES) -> Path:
    """``src`` (a shipped or float ONNX model) as a QDQ model computing in
    int8 at ``dst``: activations uint8, weights int8 (one scale per output
    channel with ``per_channel``), ranges from ``batches`` (the network's
    inputs, :func:`reader_inputs`); a detector's head in float with
    ``float_head`` (all of it with ``whole_head``), and the nodes named
    under ``float_modules``. The metadata (class names, input size) is kept."""
    import onnx
    from onnxruntime.quantization import CalibrationMethod, QuantFormat, QuantType, quantize_static
    from onnxruntime.quantization.shape_inference import quant_pre_process

    if not batches:
        raise ValueError(f"{src}: no calibration batches to quantize it with")
    model = onnx.load(str(src))
    if any(n.op_type == "QuantizeLinear" for n in model.graph.node):
        raise ValueError(f"{src} already computes in int8: quantize its float export "
                         "(python -m okey_vision.training export --onnx)")
    meta = {p.key: p.value for p in model.metadata_props}
    with tempfile.TemporaryDirectory(prefix="quantize-") as tmp:
        pre = Path(tmp) / "pre.onnx"
        # fp32 weights first: the DequantizeLinear/Cast nodes of stored weights folded away
        onnx.save(float_weights(model), str(pre))
        prep = Path(tmp) / "prep.onnx"
        quant_pre_process(str(pre), str(prep), skip_symbolic_shape=True)
        pm = onnx.load(str(prep))
        exclude = head_nodes(pm, whole_head) if float_head else []
        exclude += [n.name for n in pm.graph.node if n.name.startswith(float_modules) and n.name not in exclude]
        out = Path(tmp) / "q.onnx"
        quantize_static(str(prep), str(out), _Batches(model.graph.input[0].name, batches),
                        quant_format=QuantFormat.QDQ, activation_type=QuantType.QUInt8,
                        weight_type=QuantType.QInt8, per_channel=per_channel,
                        # the plain minimum and maximum: a moving average of them moved the
                        # view detector's scores twice as far; histogram methods need one input size
                        calibrate_method=CalibrationMethod.MinMax, nodes_to_exclude=exclude)
        q = onnx.load(str(out))
        del q.metadata_props[:]
        for k, v in meta.items():
            q.metadata_props.add(key=k, value=v)
        del q.graph.value_info[:]
        dst.parent.mkdir(parents=True, exist_ok=True)
        onnx.save(q, str(dst))
    return dst


def float_weights(model: Any) -> Any:
    """A copy of ``model`` with every stored weight (``export.store_half`` or
    ``store_int8``'s, or a quantized model's weights and biases) given back
    as an fp32 initializer, the Cast/DequantizeLinear nodes that restored it
    at run time removed."""
    import onnx
    from onnx import numpy_helper

    from okey_vision.training.recover import onnx_weights

    m = onnx.ModelProto()
    m.CopyFrom(model)
    g = m.graph
    weights = onnx_weights(m)
    inits = {i.name for i in g.initializer}
    restore = [n for n in g.node if n.op_type in ("Cast", "DequantizeLinear") and set(n.input) <= inits]
    restored = {}
    for n in restore:
        g.node.remove(n)
        restored[n.output[0]] = weights[n.input[0].removesuffix("_fp16").removesuffix("_int8")
                                        .removesuffix("_quantized")]
    used = {i for n in g.node for i in n.input}
    keep = [i for i in g.initializer if i.name in used]
    del g.initializer[:]
    g.initializer.extend(keep)
    g.initializer.extend(numpy_helper.from_array(w.numpy(), name) for name, w in sorted(restored.items()))
    return m


def float_compute(model: Any) -> Any:
    """``model`` computing in float with the weights it holds: a quantized
    model's weights dequantized (:func:`float_weights`) and each activation's
    QuantizeLinear/DequantizeLinear pair taken out -- what the network
    rebuilt from it in torch (``recover.recover_pt``) computes."""
    m = float_weights(model)
    g = m.graph
    made = {o: n for n in g.node for o in n.output}
    outputs = {o.name for o in g.output}
    pairs = [(made[d.input[0]], d) for d in g.node if d.op_type == "DequantizeLinear"
             and d.input[0] in made and made[d.input[0]].op_type == "QuantizeLinear"]
    # a pair's output read by nodes: they read its input; a graph output: its input takes the name
    rename = {d.output[0]: q.input[0] for q, d in pairs if d.output[0] not in outputs}
    rename.update({q.input[0]: d.output[0] for q, d in pairs if d.output[0] in outputs})
    for n in g.node:
        for names in (n.input, n.output):
            for k, name in enumerate(names):
                names[k] = rename.get(name, name)
    for node in {id(n): n for pair in pairs for n in pair}.values():
        g.node.remove(node)
    used = {i for n in g.node for i in n.input}
    keep = [i for i in g.initializer if i.name in used]
    del g.initializer[:]
    g.initializer.extend(keep)
    return m


def main(argv: list[str] | None = None) -> int:
    """Quantize shipped networks into a candidate folder (the others copied as they are)."""
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("stems", nargs="*", default=list(CANDIDATES))
    ap.add_argument("--source", default=str(paths.MODELS), help="the float models' folder")
    ap.add_argument("--out", required=True, help="the candidate folder (written)")
    ap.add_argument("--scenes", type=int, default=24)
    ap.add_argument("--per-tensor", action="store_true", help="one weight scale a tensor, not a channel")
    args = ap.parse_args(argv)
    src, out = Path(args.source), Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    for f in src.glob("*.onnx"):
        if Path(out / f.name).resolve() != f.resolve():
            shutil.copyfile(f, out / f.name)
    inputs = reader_inputs(src, args.scenes)
    for stem in args.stems:
        dst = quantize(src / f"{stem}.onnx", out / f"{stem}.onnx", inputs.get(stem, []),
                       per_channel=not args.per_tensor)
        print(f"{stem}: {len(inputs.get(stem, []))} batches, {dst.stat().st_size / 1e6:.2f} MB -> {dst}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
