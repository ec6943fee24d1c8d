"""Networks computing in int8 (okey_vision.training.quantize): a quantized
model gives the float one's outputs to within its steps, keeps its metadata,
and a detector's head stays in float."""

from __future__ import annotations

import numpy as np
import pytest

from okey_vision.training import paths, quantize

onnx = pytest.importorskip("onnx")
ort = pytest.importorskip("onnxruntime")
pytest.importorskip("onnxruntime.quantization")


def conv_model(rng: np.random.Generator):
    """Conv - SiLU - Conv (the shipped networks' activation: x * sigmoid(x);
    a Relu quantization would drop into the uint8 range), with names and
    metadata like the shipped models'."""
    from onnx import TensorProto, helper, numpy_helper

    w1 = rng.normal(0, 0.3, (16, 3, 3, 3)).astype(np.float32)
    w2 = rng.normal(0, 0.2, (8, 16, 3, 3)).astype(np.float32)
    b1, b2 = rng.normal(0, 0.1, 16).astype(np.float32), rng.normal(0, 0.1, 8).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("Conv", ["images", "w1", "b1"], ["h"], pads=[1, 1, 1, 1], name="/model.0/conv/Conv"),
         helper.make_node("Sigmoid", ["h"], ["s"], name="/model.0/act/Sigmoid"),
         helper.make_node("Mul", ["h", "s"], ["r"], name="/model.0/act/Mul"),
         helper.make_node("Conv", ["r", "w2", "b2"], ["output0"], pads=[1, 1, 1, 1], name="/model.1/conv/Conv")],
        "g", [helper.make_tensor_value_info("images", TensorProto.FLOAT, [None, 3, None, None])],
        [helper.make_tensor_value_info("output0", TensorProto.FLOAT, [None, 8, None, None])],
        [numpy_helper.from_array(a, n) for a, n in ((w1, "w1"), (b1, "b1"), (w2, "w2"), (b2, "b2"))])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    model.metadata_props.add(key="names", value="{0: 'tile'}")
    return model


def run(path, x: np.ndarray) -> np.ndarray:
    """The model at ``path``'s first output on ``x``."""
    sess = ort.InferenceSession(str(path), providers=["CPUExecutionProvider"])
    return sess.run(None, {"images": x})[0]


def test_a_quantized_model_computes_in_int8_what_the_float_one_does(tmp_path) -> None:
    """Calibrated on batches of differing sizes (as the reader's views are),
    the QDQ model holds int8 weights, keeps the metadata, and its outputs on
    other inputs stay within a few activation steps of the float model's."""
    rng = np.random.default_rng(1)
    src = tmp_path / "float.onnx"
    onnx.save(conv_model(rng), str(src))
    batches = [rng.random((1, 3, h, w), dtype=np.float32) for h, w in ((24, 32), (32, 24), (40, 40))]
    dst = quantize.quantize(src, tmp_path / "int8.onnx", batches)
    q = onnx.load(str(dst))
    kinds = {n.op_type for n in q.graph.node}
    assert {"QuantizeLinear", "DequantizeLinear", "Conv"} <= kinds
    stored = {i.name: i.data_type for i in q.graph.initializer}
    assert stored["w2_quantized"] == onnx.TensorProto.INT8
    assert stored["w1"] == onnx.TensorProto.FLOAT  # the first convolution (on the pixels) stays float
    assert {p.key: p.value for p in q.metadata_props} == {"names": "{0: 'tile'}"}
    x = rng.random((2, 3, 32, 32), dtype=np.float32)
    want, got = run(src, x), run(dst, x)
    step = (want.max() - want.min()) / 255  # the output's uint8 step
    assert np.abs(got - want).mean() < 2 * step
    assert np.abs(got - want).max() < 20 * step  # the worst value: rounding through three layers
    assert not np.array_equal(got, want)  # it did compute in int8
    with pytest.raises(ValueError, match=r"float\.onnx"):
        quantize.quantize(src, tmp_path / "none.onnx", [])


def test_float_weights_undo_stored_weights(tmp_path) -> None:
    """A shipped model's float16/int8-stored weights come back as fp32
    initializers, the Cast/DequantizeLinear nodes gone, computing the same."""
    from okey_vision.training import export

    rng = np.random.default_rng(2)
    path = tmp_path / "m.onnx"
    onnx.save(conv_model(rng), str(path))
    export.store_int8(path)
    stored = onnx.load(str(path))
    back = quantize.float_weights(stored)
    assert {n.op_type for n in back.graph.node} == {"Conv", "Sigmoid", "Mul"}
    onnx.save(back, str(tmp_path / "back.onnx"))
    x = rng.random((1, 3, 16, 16), dtype=np.float32)
    assert np.allclose(run(tmp_path / "back.onnx", x), run(path, x), atol=1e-5)


def test_a_detectors_head_stays_float() -> None:
    """The shipped detector's head: its final convolutions, the box decode
    and the output concatenation are excluded; the inner head convolutions,
    and everything before the head, are quantized."""
    model = onnx.load(str(paths.MODELS / "detector.onnx"))
    kept = set(quantize.head_nodes(model))
    producer = {o: n for n in model.graph.node for o in n.output}
    last = producer[model.graph.output[0].name]
    assert last.name in kept and last.op_type == "Concat"
    assert "/model.23/cv2.0/cv2.0.2/Conv" in kept  # raw box distances
    assert "/model.23/cv2.0/cv2.0.0/conv/Conv" not in kept
    assert not any(n.startswith("/model.22/") for n in kept)
    assert set(quantize.head_nodes(model, whole=True)) >= kept | {"/model.23/cv2.0/cv2.0.0/conv/Conv"}


def test_float_compute_takes_the_activations_rounding_out(tmp_path) -> None:
    """float_compute: the quantized model with no Quantize/DequantizeLinear
    left computes with its int8 weights in float: nearer the float model
    than the int8 one is, and not equal to it (the weights stay rounded)."""
    rng = np.random.default_rng(4)
    src = tmp_path / "float.onnx"
    onnx.save(conv_model(rng), str(src))
    dst = quantize.quantize(src, tmp_path / "int8.onnx", [rng.random((1, 3, 24, 24), dtype=np.float32)],
                            float_modules=())
    back = quantize.float_compute(onnx.load(str(dst)))
    assert not {n.op_type for n in back.graph.node} & {"QuantizeLinear", "DequantizeLinear"}
    onnx.save(back, str(tmp_path / "back.onnx"))
    x = rng.random((1, 3, 24, 24), dtype=np.float32)
    want = run(src, x)
    off_back, off_int8 = np.abs(run(tmp_path / "back.onnx", x) - want), np.abs(run(dst, x) - want)
    assert off_back.max() > 0 and off_back.mean() < off_int8.mean() / 2
    with pytest.raises(ValueError, match="already computes in int8"):
        quantize.quantize(dst, tmp_path / "again.onnx", [x])
