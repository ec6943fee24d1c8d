"""From a run to models/ (okey_vision.training.export): the last epoch shipped, mixed
checkpoints, int8 weights, the weight budget."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from okey_vision.training import export, paths


def test_mix_weights_interpolates(tmp_path) -> None:
    """train mix: (1 - w) * old + w * new, integer buffers from the new checkpoint."""
    torch = pytest.importorskip("torch")
    def ckpt(value: float, path, in_progress: bool = False):
        net = torch.nn.BatchNorm1d(2)
        with torch.no_grad():
            net.weight.fill_(value)
        net.num_batches_tracked.fill_(int(value))
        # an epoch checkpoint of a run in progress holds its weights only as "ema"
        torch.save({"model": None if in_progress else net, "ema": net, "optimizer": {}}, path)
        return path

    out = export.mix_weights(ckpt(1.0, tmp_path / "a.pt"), ckpt(3.0, tmp_path / "b.pt", True), 0.75, tmp_path / "m.pt")
    got = torch.load(str(out), weights_only=False)
    assert torch.allclose(got["model"].float().weight, torch.full((2,), 2.5))
    assert int(got["model"].num_batches_tracked) == 3 and got["ema"] is None


def test_int8_weights_compute_what_the_float_ones_do(tmp_path) -> None:
    """store_int8: a convolution's weights in int8 (one scale per output
    channel) give the float model's outputs to within the rounding, in a
    smaller file than float16; recover_pt reads them back."""
    onnx = pytest.importorskip("onnx")
    ort = pytest.importorskip("onnxruntime")
    from onnx import TensorProto, helper, numpy_helper

    rng = np.random.default_rng(0)
    w = rng.normal(0, 0.1, (32, 16, 3, 3)).astype(np.float32)
    b = rng.normal(0, 0.1, (32,)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=[1, 1, 1, 1])], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 32, 8, 8])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    files = {k: tmp_path / f"{k}.onnx" for k in ("fp32", "fp16", "int8")}
    for p in files.values():
        onnx.save(model, str(p))
    export.store_half(files["fp16"])
    export.store_int8(files["int8"])
    x = rng.random((1, 16, 8, 8), dtype=np.float32)
    out = {k: ort.InferenceSession(str(p), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
           for k, p in files.items()}
    scale = np.abs(w).max() / 127
    assert np.abs(out["int8"] - out["fp32"]).max() < 16 * 9 * scale  # half a step on each of 144 taps, at most
    assert np.abs(out["int8"] - out["fp32"]).mean() < 0.01 * np.abs(out["fp32"]).mean() + 1e-3
    assert files["int8"].stat().st_size < 0.7 * files["fp16"].stat().st_size
    q = onnx.load(str(files["int8"]))
    assert [n.op_type for n in q.graph.node][:1] == ["DequantizeLinear"]


def test_shipped_weights_fit_the_budget() -> None:
    """Every shipped model file together stays under 20 MB (the brief's budget)."""
    sizes = {p.name: p.stat().st_size for p in paths.MODELS.glob("*.onnx")}
    assert {"detector.onnx", "detector_strip.onnx", "number.onnx", "color.onnx"} <= set(sizes)
    assert sum(sizes.values()) < 20_000_000, sizes


def test_ship_takes_the_last_epoch_not_the_val_best(tmp_path, monkeypatch) -> None:
    """A run's val split holds the held-out real photos, so the weights it
    ships are the last epoch's, never the ones that scored best there."""
    pytest.importorskip("ultralytics")
    import ultralytics.utils.torch_utils as tu

    wdir = tmp_path / "runs" / "detector" / "weights"
    wdir.mkdir(parents=True)
    (wdir / "best.pt").write_bytes(b"best")
    (wdir / "last.pt").write_bytes(b"last")
    monkeypatch.setattr(paths, "RUNS", tmp_path / "runs")
    monkeypatch.setattr(paths, "MODELS", tmp_path / "models")
    monkeypatch.setattr(tu, "strip_optimizer", lambda path: None)
    shipped = export.ship("detector", logging.getLogger("test"))
    assert shipped == tmp_path / "models" / "detector.pt" and shipped.read_bytes() == b"last"
    (wdir / "last.pt").unlink()
    assert export.ship("detector", logging.getLogger("test")).read_bytes() == b"best"


def test_export_quantizes_the_networks_that_compute_in_int8(tmp_path, monkeypatch) -> None:
    """export --onnx: a network of quantize.QUANTIZED leaves the fp32 export
    as a QDQ model calibrated on the reader's inputs; another keeps float16
    weights behind Casts."""
    onnx = pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime.quantization")
    ultralytics = pytest.importorskip("ultralytics")
    from test_training_quantize import conv_model

    from okey_vision.training import quantize

    rng = np.random.default_rng(5)

    class FakeYolo:
        """Ultralytics' YOLO as export_onnx uses it: a checkpoint that exports an fp32 ONNX beside itself."""

        def __init__(self, pt: str):
            self.pt, self.ckpt = pt, {"train_args": {"imgsz": 32}}

        def export(self, **kwargs) -> str:
            out = self.pt.removesuffix(".pt") + ".onnx"
            onnx.save(conv_model(rng), out)
            return out

    recorded = {"number": [rng.random((4, 3, 32, 32), dtype=np.float32)]}
    monkeypatch.setattr(ultralytics, "YOLO", FakeYolo)
    monkeypatch.setattr(quantize, "reader_inputs", lambda folder: recorded)
    monkeypatch.setattr(quantize, "QUANTIZED", ("number",))
    for stem in ("number", "detector_axis"):
        (tmp_path / f"{stem}.pt").write_bytes(b"")
    out = export.export_onnx(logging.getLogger("test"), ("number", "detector_axis"), folder=tmp_path)
    kinds = {p.stem: {n.op_type for n in onnx.load(str(p)).graph.node} for p in out}
    assert "QuantizeLinear" in kinds["number"]
    assert "QuantizeLinear" not in kinds["detector_axis"] and "Cast" in kinds["detector_axis"]
