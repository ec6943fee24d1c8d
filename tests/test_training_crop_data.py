"""The classifiers' crop data (okey_vision.training.crop_data): repeats and turns of the
real crops, detected crops, folders rebuilt when a source was, recipes in their own folders."""

from __future__ import annotations

import logging

import numpy as np
import pytest

from okey_vision.training import crop_data, paths

cv2 = pytest.importorskip("cv2")


def test_real_crops_are_repeated_and_turned(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr(paths, "DATA", tmp_path)
    faces = tmp_path / "crops-face-5-1"
    rng = np.random.default_rng(0)
    crops = {}
    for sp, name in (("train", "real_a_0.png"), ("train", "synth_0.png"), ("val", "real_b_0.png")):
        (faces / sp / "r7").mkdir(parents=True, exist_ok=True)
        img = rng.integers(0, 255, (64, 64, 3), dtype=np.uint8)
        cv2.imwrite(str(faces / sp / "r7" / name), img)
        crops[(sp, name)] = img
    (faces / ".done").write_text("ok")

    out = crop_data.make_crop_data("number", 5, 1, logging.getLogger("t"), real_repeat=4, real_turns=True)
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
    monkeypatch.setattr(paths, "DATA", tmp_path)
    stamps = {"crops-face-5-1": "ok", "crops-face-detected-3-7": f"detectors {crop_data.detectors_fingerprint()}"}
    for folder, name in (("crops-face-5-1", "synth_0.png"), ("crops-face-detected-3-7", "det_7_0.png")):
        (tmp_path / folder / "train" / "b12").mkdir(parents=True)
        (tmp_path / folder / "val").mkdir(parents=True)
        cv2.imwrite(str(tmp_path / folder / "train" / "b12" / name), np.zeros((64, 64, 3), np.uint8))
        (tmp_path / folder / ".done").write_text(stamps[folder])
    out = crop_data.make_crop_data("number", 5, 1, logging.getLogger("t"), detected=3, detected_seed=7)
    assert out.name.endswith("-det3-7")
    assert sorted(p.name for p in (out / "train" / "12").iterdir()) == ["det_7_0.png", "synth_0.png"]


def test_crops_of_other_detectors_are_cut_again(tmp_path, monkeypatch) -> None:
    """Detected crops are reused only while the same detectors are in models/."""
    monkeypatch.setattr(paths, "DATA", tmp_path)
    monkeypatch.setattr(crop_data, "detectors_fingerprint", lambda: "new")
    log = logging.getLogger("t")
    det = tmp_path / "crops-face-detected-0-7"
    (det / "train" / "b12").mkdir(parents=True)
    cv2.imwrite(str(det / "train" / "b12" / "det_7_0.png"), np.zeros((64, 64, 3), np.uint8))
    (det / ".done").write_text("detectors new")
    assert crop_data.make_detected_crops(0, 7, log) == det  # same detectors: reused
    assert list(det.glob("*/*/*.png"))
    (det / ".done").write_text("detectors old")
    assert crop_data.make_detected_crops(0, 7, log) == det  # other detectors: cut again (0 scenes)
    assert (det / ".done").read_text() == "detectors new"
    assert not list(det.glob("*/*/*.png"))


def test_a_classifier_folder_is_rebuilt_when_a_source_was(tmp_path, monkeypatch) -> None:
    """The number/colour folder is reused only while its sources are the ones it was built from."""
    monkeypatch.setattr(paths, "DATA", tmp_path)
    monkeypatch.setattr(crop_data, "detectors_fingerprint", lambda: "a")
    log = logging.getLogger("t")
    faces, det = tmp_path / "crops-face-5-1", tmp_path / "crops-face-detected-3-7"
    for folder, name, stamp in ((faces, "synth_0.png", "ok"), (det, "det_7_0.png", "detectors a")):
        (folder / "train" / "b12").mkdir(parents=True)
        (folder / "val").mkdir(parents=True)
        cv2.imwrite(str(folder / "train" / "b12" / name), np.zeros((64, 64, 3), np.uint8))
        (folder / ".done").write_text(stamp)
    out = crop_data.make_crop_data("number", 5, 1, log, detected=3, detected_seed=7)
    assert sorted(p.name for p in (out / "train" / "12").iterdir()) == ["det_7_0.png", "synth_0.png"]
    # the detected crops were cut again by other detectors (simulated): a new crop, a new stamp
    (det / "train" / "b12" / "det_7_0.png").rename(det / "train" / "b12" / "det_7_1.png")
    (det / ".done").write_text("detectors b")
    monkeypatch.setattr(crop_data, "detectors_fingerprint", lambda: "b")
    out = crop_data.make_crop_data("number", 5, 1, log, detected=3, detected_seed=7)
    assert sorted(p.name for p in (out / "train" / "12").iterdir()) == ["det_7_1.png", "synth_0.png"]


def test_crop_recipe_and_jitter_render_into_their_own_folders(tmp_path, monkeypatch) -> None:
    """Upright crops of another recipe or corner jitter never reuse the default crops."""
    monkeypatch.setattr(paths, "DATA", tmp_path)
    seen = []
    monkeypatch.setattr("okey_vision.synth.datasets.write_crop_dataset",
                        lambda out, count, seed, config, **kw: (out.mkdir(parents=True),
                                                                 seen.append((out.name, config, kw["jitter"]))))
    monkeypatch.setattr("okey_vision.synth.real.write_real_crops", lambda *a, **kw: None)
    log = logging.getLogger("t")
    default = crop_data.make_face_crops(2, 5, log, "upright")
    player = crop_data.make_face_crops(2, 5, log, "upright", "synth-upright-player.yaml", 0.08)
    assert default.name == "crops-face-2-5-upright"
    assert player.name == "crops-face-2-5-upright-synth-upright-player-jit0.08"
    assert seen[0][2] == 0.04 and seen[1][2] == 0.08
    assert seen[1][1].p_side_view > seen[0][1].p_side_view  # the player recipe's config was used
