"""The reader's torch backend lives in training (okey_vision.training.torchnet):
a ``.pt`` checkpoint handed to the reader computes what its ONNX copy does."""

from __future__ import annotations

from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("onnxruntime")
pytest.importorskip("torch")
pytest.importorskip("ultralytics")

from okey_vision.errors import ModelError  # noqa: E402
from okey_vision.training import paths, recover  # noqa: E402
from okey_vision.training.torchnet import TorchNet, use_torch  # noqa: E402
from okey_vision.vision import nets  # noqa: E402
from okey_vision.vision.nets import Net  # noqa: E402


@pytest.fixture
def torch_backend():
    """The torch backend handed to the reader for one test."""
    use_torch()
    try:
        yield
    finally:
        nets.run_checkpoints_with(None)


def test_a_checkpoint_reads_as_its_onnx_copy(tmp_path: Path, torch_backend) -> None:
    """number.pt rebuilt from number.onnx, run by torch through the reader's Net: same classes."""
    recover.recover_pt(paths.MODELS / "number.onnx", tmp_path / "number.pt")
    by_torch = Net("number", tmp_path, prefer_onnx=False)
    assert isinstance(by_torch, Net) and by_torch.kind == "torch" and by_torch.size == 64
    by_onnx = Net("number", paths.MODELS)
    assert by_torch.names == by_onnx.names
    x = np.random.default_rng(0).random((2, 3, 64, 64), dtype=np.float32)
    assert np.abs(by_torch(x) - by_onnx(x)).max() < 1e-3


def test_a_truncated_checkpoint_is_one_line(tmp_path: Path, torch_backend) -> None:
    """A bad ``.pt`` names the file, never a traceback from pickle."""
    (tmp_path / "number.pt").write_bytes(b"PK\x03\x04 truncated")
    with pytest.raises(ModelError, match=r"number\.pt: not a usable model file"):
        Net("number", tmp_path, prefer_onnx=False)
    with pytest.raises(Exception):  # noqa: B017 - the runner alone raises torch's own error
        TorchNet(tmp_path / "number.pt")
