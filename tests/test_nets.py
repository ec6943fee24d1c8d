"""Weight files (issue 11): missing, truncated or foreign ones give one line
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
    onnx = pytest.importorskip("onnx")
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


def test_truncated_torch_weights(tmp_path: Path) -> None:
    (tmp_path / "number.pt").write_bytes(b"PK\x03\x04 truncated")
    with pytest.raises(ModelError, match=r"number\.pt"):
        Net("number", tmp_path, prefer_onnx=False)


@pytest.mark.parametrize("bad,content", [("detector", b"\x08\x07garbage"), ("number", None)])
def test_cli_read_with_bad_models_is_one_line(tmp_path: Path, bad: str, content: bytes | None) -> None:
    folder = model_folder(tmp_path, bad, content)
    out = subprocess.run([sys.executable, "-m", "okey_vision.cli", "read", str(SAMPLE), "--models", str(folder)],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 2, out.stderr
    assert out.stderr.count("\n") == 1 and "Traceback" not in out.stderr
    assert f"{bad}." in out.stderr and "okey-vision read: error:" in out.stderr
