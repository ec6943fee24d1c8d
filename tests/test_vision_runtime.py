"""The runtime reader stands apart from training: nothing under
``okey_vision/vision/`` imports torch, ultralytics or the training package,
and reading a photo loads neither torch nor ultralytics."""

from __future__ import annotations

import ast
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
VISION = ROOT / "okey_vision" / "vision"
SAMPLE = ROOT / "okey_vision" / "data" / "sample_rack.jpg"
#: The training stack: never imported by the runtime reader.
TRAINING = ("torch", "torchvision", "ultralytics", "okey_vision.training")


def training_imports(source: str, name: str = "<probe>") -> list[str]:
    """'line module' for every import of the training stack in ``source``, at
    any depth (a function's lazy import counts as much as a top-level one)."""
    found = []
    for node in ast.walk(ast.parse(source, name)):
        if isinstance(node, ast.Import):
            modules = [alias.name for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and not node.level:
            modules = [node.module or ""]
        else:
            continue
        found += [f"{node.lineno} {m}" for m in modules
                  if any(m == t or m.startswith(t + ".") for t in TRAINING)]
    return found


def test_no_vision_module_imports_the_training_stack() -> None:
    files = sorted(VISION.rglob("*.py"))
    assert len(files) > 5
    bad = [f"{p.relative_to(ROOT)}:{hit}" for p in files for hit in training_imports(p.read_text(), str(p))]
    assert not bad, "the runtime reader imports training: " + ", ".join(bad)


def test_the_checker_sees_lazy_imports() -> None:
    probe = ("import numpy\nfrom ultralytics import YOLO\n\n\ndef f():\n    import torch.nn as nn\n"
             "    from okey_vision.training.recover import recover_pt\n    import torchaudio\n")
    assert training_imports(probe) == ["2 ultralytics", "6 torch.nn", "7 okey_vision.training.recover"]


def test_reading_a_photo_loads_no_torch() -> None:
    """The shipped sample photo read end to end in a fresh interpreter: tiles
    are read, and neither torch nor ultralytics was ever imported."""
    pytest.importorskip("onnxruntime")
    pytest.importorskip("cv2")
    code = (
        "import json, sys\n"
        "from okey_vision.vision.io import load_photo\n"
        "from okey_vision.vision.reader import RackReader\n"
        f"reads = RackReader().read_photo(load_photo({str(SAMPLE)!r}))\n"
        "print(json.dumps({'tiles': len(reads), 'loaded': sorted(m for m in sys.modules\n"
        "    if m.split('.')[0] in ('torch', 'torchvision', 'ultralytics')\n"
        "    or m.startswith('okey_vision.training'))}))\n"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("OKEY_VISION_BACKEND", "OKEY_VISION_MODELS")}
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env, capture_output=True, text=True,
                         timeout=300, check=False)
    assert out.returncode == 0, out.stderr
    got = json.loads(out.stdout.strip().splitlines()[-1])
    assert got["tiles"] >= 10
    assert got["loaded"] == []
