"""Training data assembly: repeats and turns of the real crops."""

from __future__ import annotations

import logging

import numpy as np
import pytest

cv2 = pytest.importorskip("cv2")


def test_real_crops_are_repeated_and_turned(tmp_path, monkeypatch) -> None:
    from okey_vision.vision import train

    monkeypatch.setattr(train, "DATA", tmp_path)
    faces = tmp_path / "crops-face-5-1"
    rng = np.random.default_rng(0)
    crops = {}
    for sp, name in (("train", "real_a_0.png"), ("train", "synth_0.png"), ("val", "real_b_0.png")):
        (faces / sp / "r7").mkdir(parents=True, exist_ok=True)
        img = rng.integers(0, 255, (64, 64, 3), dtype=np.uint8)
        cv2.imwrite(str(faces / sp / "r7" / name), img)
        crops[(sp, name)] = img
    (faces / ".done").write_text("ok")

    out = train.make_crop_data("number", 5, 1, logging.getLogger("t"), real_repeat=4, real_turns=True)
    got = sorted(p.name for p in (out / "train" / "7").iterdir())
    assert got == ["real_a_0.png", "real_a_0_dup1.png", "real_a_0_dup2.png", "real_a_0_dup3.png", "synth_0.png"]
    real = crops[("train", "real_a_0.png")]
    for k in range(4):
        name = "real_a_0.png" if k == 0 else f"real_a_0_dup{k}.png"
        assert np.array_equal(cv2.imread(str(out / "train" / "7" / name)), np.rot90(real, k))
    # Held-out crops are never repeated or turned.
    assert sorted(p.name for p in (out / "val" / "7").iterdir()) == ["real_b_0.png"]
