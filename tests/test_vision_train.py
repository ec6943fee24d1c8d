"""Training data assembly: repeats and turns of the real crops, detected crops, mixed weights."""

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


def test_detected_crops_join_the_face_crops(tmp_path, monkeypatch) -> None:
    """--detected: the crops cut where the detectors found the tiles are linked in beside the others."""
    from okey_vision.vision import train

    monkeypatch.setattr(train, "DATA", tmp_path)
    for folder, name in (("crops-face-5-1", "synth_0.png"), ("crops-face-detected-3-7", "det_7_0.png")):
        (tmp_path / folder / "train" / "b12").mkdir(parents=True)
        (tmp_path / folder / "val").mkdir(parents=True)
        cv2.imwrite(str(tmp_path / folder / "train" / "b12" / name), np.zeros((64, 64, 3), np.uint8))
        (tmp_path / folder / ".done").write_text("ok")
    out = train.make_crop_data("number", 5, 1, logging.getLogger("t"), detected=3, detected_seed=7)
    assert out.name.endswith("-det3-7")
    assert sorted(p.name for p in (out / "train" / "12").iterdir()) == ["det_7_0.png", "synth_0.png"]


def test_mix_weights_interpolates(tmp_path) -> None:
    """train mix: (1 - w) * old + w * new, integer buffers from the new checkpoint."""
    torch = pytest.importorskip("torch")
    from okey_vision.vision import train

    def ckpt(value: float, path):
        net = torch.nn.BatchNorm1d(2)
        with torch.no_grad():
            net.weight.fill_(value)
        net.num_batches_tracked.fill_(int(value))
        torch.save({"model": net, "ema": net, "optimizer": {}}, path)
        return path

    out = train.mix_weights(ckpt(1.0, tmp_path / "a.pt"), ckpt(3.0, tmp_path / "b.pt"), 0.75, tmp_path / "m.pt")
    got = torch.load(str(out), weights_only=False)
    assert torch.allclose(got["model"].float().weight, torch.full((2,), 2.5))
    assert int(got["model"].num_batches_tracked) == 3 and got["ema"] is None
