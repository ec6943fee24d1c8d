"""Weight files: missing, truncated or foreign ones give one line
naming the file and how to get a good one (exit 2), never a traceback."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("onnxruntime")

from okey_vision.errors import ModelError  # noqa: E402
from okey_vision.vision import nets  # noqa: E402
from okey_vision.vision.nets import DEFAULT_MODELS, STEMS, ModelMissingError, Net  # noqa: E402
from okey_vision.vision.reader import RackReader  # noqa: E402

SAMPLE = Path(__file__).resolve().parents[1] / "okey_vision" / "data" / "sample_rack.jpg"


def model_folder(tmp_path: Path, bad: str, content: bytes | None) -> Path:
    """A copy of the shipped ONNX models with ``bad``'s file replaced (or removed)."""
    folder = tmp_path / "models"
    folder.mkdir()
    for stem in STEMS:
        shutil.copy(DEFAULT_MODELS / f"{stem}.onnx", folder / f"{stem}.onnx")
    if content is None:
        (folder / f"{bad}.onnx").unlink()
    else:
        (folder / f"{bad}.onnx").write_bytes(content)
    return folder


def foreign_onnx() -> bytes:
    """A valid ONNX model that is not one of ours (no class names)."""
    pytest.importorskip("onnx")
    from onnx import TensorProto, helper

    x = helper.make_tensor_value_info("images", TensorProto.FLOAT, [1, 3, 32, 32])
    y = helper.make_tensor_value_info("out", TensorProto.FLOAT, [1, 3, 32, 32])
    graph = helper.make_graph([helper.make_node("Identity", ["images"], ["out"])], "g", [x], [y])
    return helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)]).SerializeToString()


def test_missing_weights_name_the_folder(tmp_path: Path) -> None:
    folder = model_folder(tmp_path, "number", None)
    with pytest.raises(ModelMissingError, match=r"no number\.onnx or number\.pt in .*models.*retrain"):
        RackReader(folder).load()


def test_truncated_weights(tmp_path: Path) -> None:
    data = (DEFAULT_MODELS / "detector.onnx").read_bytes()[:5000]
    folder = model_folder(tmp_path, "detector", data)
    with pytest.raises(ModelError, match=r"detector\.onnx: not a usable model file .*reinstall"):
        Net("detector", folder)


def test_foreign_weights(tmp_path: Path) -> None:
    folder = model_folder(tmp_path, "color", b"this is a text file, not a network\n" * 10)
    with pytest.raises(ModelError, match=r"color\.onnx: not a usable model file"):
        Net("color", folder)
    (folder / "color.onnx").write_bytes(foreign_onnx())
    with pytest.raises(ModelError, match=r"color\.onnx: an ONNX model, but not one of okey-vision's"):
        Net("color", folder)


def test_a_checkpoint_needs_the_training_side(tmp_path: Path) -> None:
    """The runtime runs ONNX only: a ``.pt`` names the export command and the torch backend."""
    (tmp_path / "number.pt").write_bytes(b"PK\x03\x04 a checkpoint")
    with pytest.raises(ModelError, match=r"number\.pt is a training checkpoint.*export --onnx number.*use_torch"):
        Net("number", tmp_path, prefer_onnx=False)


def test_a_checkpoint_runs_with_the_loader_training_gives(tmp_path: Path) -> None:
    """run_checkpoints_with: the reader's Net runs a ``.pt`` with the given loader
    (preferred only when asked, or without an ONNX copy); its errors name the file."""
    shutil.copy(DEFAULT_MODELS / "number.onnx", tmp_path / "number.onnx")
    (tmp_path / "number.pt").write_bytes(b"weights")

    class Fake:
        kind, dynamic, imgsz, names = "fake", True, 64, {0: "1"}

        def __init__(self, path: Path) -> None:
            if path.read_bytes() != b"weights":
                raise RuntimeError("unpickling stack underflow")
            self.path = path

        def __call__(self, x):
            return x * 2

    nets.run_checkpoints_with(Fake)
    try:
        assert nets.runs_checkpoints()
        assert Net("number", tmp_path).kind == "onnx"  # ONNX preferred by default
        net = Net("number", tmp_path, prefer_onnx=False)
        assert (net.kind, net.size, net.names, net.path) == ("fake", 64, {0: "1"}, tmp_path / "number.pt")
        assert net(np.ones(2)).tolist() == [2.0, 2.0]
        (tmp_path / "number.onnx").unlink()
        assert Net("number", tmp_path).kind == "fake"  # no ONNX copy: the checkpoint
        (tmp_path / "number.pt").write_bytes(b"PK\x03\x04 truncated")
        with pytest.raises(ModelError, match=r"number\.pt: not a usable model file .*underflow"):
            Net("number", tmp_path, prefer_onnx=False)
    finally:
        nets.run_checkpoints_with(None)
    assert not nets.runs_checkpoints()


@pytest.mark.parametrize("bad,content", [("detector", b"\x08\x07garbage"), ("number", None)])
def test_cli_read_with_bad_models_is_one_line(tmp_path: Path, bad: str, content: bytes | None) -> None:
    folder = model_folder(tmp_path, bad, content)
    out = subprocess.run([sys.executable, "-m", "okey_vision.cli", "read", str(SAMPLE), "--models", str(folder)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 2, out.stderr
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert f"{bad}." in out.stderr and "okey-vision read: error:" in out.stderr


def test_a_network_computing_in_int8_runs_as_a_net(tmp_path: Path) -> None:
    """A QDQ model (the shipped colour network quantized: training.quantize)
    is run by a Net on its thread setting (one by default): onnxruntime fuses
    it into integer kernels, and on the same input it gives what it gives with
    those fusions off, in float."""
    onnx = pytest.importorskip("onnx")
    import onnxruntime as ort

    from okey_vision.training.quantize import quantize

    rng = np.random.default_rng(0)
    size = Net("color", DEFAULT_MODELS).size
    path = quantize(DEFAULT_MODELS / "color.onnx", tmp_path / "color.onnx",
                    [rng.random((4, 3, size, size), dtype=np.float32) for _ in range(2)])
    kinds = {n.op_type for n in onnx.load(str(path)).graph.node}
    assert {"QuantizeLinear", "DequantizeLinear"} <= kinds
    net = Net("color", tmp_path)
    assert net.kind == "onnx" and net.sess.get_session_options().intra_op_num_threads == nets.threads()
    assert net.names == Net("color", DEFAULT_MODELS).names  # the metadata kept
    x = rng.random((2, 3, size, size), dtype=np.float32)
    got = net(x)
    so = ort.SessionOptions()
    so.graph_optimization_level = ort.GraphOptimizationLevel.ORT_DISABLE_ALL  # Q/DQ nodes run one by one
    plain = ort.InferenceSession(str(path), so, providers=["CPUExecutionProvider"])
    want = plain.run(None, {net.input: x})[0]
    assert got.shape == want.shape and np.isfinite(got).all()
    # the fused kernels round once where the plain graph rounds twice: the class
    # probabilities equal to a step or so of the activations' uint8 scale (seen: 0.013 at most)
    assert np.abs(got - want).max() < 0.03 and np.allclose(got.sum(1), 1.0, atol=1e-3)
