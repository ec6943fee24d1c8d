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
    stamps = {"crops-face-5-1": "ok", "crops-face-detected-3-7": f"detectors {train.detectors_fingerprint()}"}
    for folder, name in (("crops-face-5-1", "synth_0.png"), ("crops-face-detected-3-7", "det_7_0.png")):
        (tmp_path / folder / "train" / "b12").mkdir(parents=True)
        (tmp_path / folder / "val").mkdir(parents=True)
        cv2.imwrite(str(tmp_path / folder / "train" / "b12" / name), np.zeros((64, 64, 3), np.uint8))
        (tmp_path / folder / ".done").write_text(stamps[folder])
    out = train.make_crop_data("number", 5, 1, logging.getLogger("t"), detected=3, detected_seed=7)
    assert out.name.endswith("-det3-7")
    assert sorted(p.name for p in (out / "train" / "12").iterdir()) == ["det_7_0.png", "synth_0.png"]


def test_crops_of_other_detectors_are_cut_again(tmp_path, monkeypatch) -> None:
    """Detected crops are reused only while the same detectors are in models/."""
    from okey_vision.vision import train

    monkeypatch.setattr(train, "DATA", tmp_path)
    monkeypatch.setattr(train, "detectors_fingerprint", lambda: "new")
    log = logging.getLogger("t")
    det = tmp_path / "crops-face-detected-0-7"
    (det / "train" / "b12").mkdir(parents=True)
    cv2.imwrite(str(det / "train" / "b12" / "det_7_0.png"), np.zeros((64, 64, 3), np.uint8))
    (det / ".done").write_text("detectors new")
    assert train.make_detected_crops(0, 7, log) == det  # same detectors: reused
    assert list(det.glob("*/*/*.png"))
    (det / ".done").write_text("detectors old")
    assert train.make_detected_crops(0, 7, log) == det  # other detectors: cut again (0 scenes)
    assert (det / ".done").read_text() == "detectors new"
    assert not list(det.glob("*/*/*.png"))


def test_a_classifier_folder_is_rebuilt_when_a_source_was(tmp_path, monkeypatch) -> None:
    """The number/colour folder is reused only while its sources are the ones it was built from."""
    from okey_vision.vision import train

    monkeypatch.setattr(train, "DATA", tmp_path)
    monkeypatch.setattr(train, "detectors_fingerprint", lambda: "a")
    log = logging.getLogger("t")
    faces, det = tmp_path / "crops-face-5-1", tmp_path / "crops-face-detected-3-7"
    for folder, name, stamp in ((faces, "synth_0.png", "ok"), (det, "det_7_0.png", "detectors a")):
        (folder / "train" / "b12").mkdir(parents=True)
        (folder / "val").mkdir(parents=True)
        cv2.imwrite(str(folder / "train" / "b12" / name), np.zeros((64, 64, 3), np.uint8))
        (folder / ".done").write_text(stamp)
    out = train.make_crop_data("number", 5, 1, log, detected=3, detected_seed=7)
    assert sorted(p.name for p in (out / "train" / "12").iterdir()) == ["det_7_0.png", "synth_0.png"]
    # the detected crops were cut again by other detectors (simulated): a new crop, a new stamp
    (det / "train" / "b12" / "det_7_0.png").rename(det / "train" / "b12" / "det_7_1.png")
    (det / ".done").write_text("detectors b")
    monkeypatch.setattr(train, "detectors_fingerprint", lambda: "b")
    out = train.make_crop_data("number", 5, 1, log, detected=3, detected_seed=7)
    assert sorted(p.name for p in (out / "train" / "12").iterdir()) == ["det_7_1.png", "synth_0.png"]


def test_mix_weights_interpolates(tmp_path) -> None:
    """train mix: (1 - w) * old + w * new, integer buffers from the new checkpoint."""
    torch = pytest.importorskip("torch")
    from okey_vision.vision import train

    def ckpt(value: float, path, in_progress: bool = False):
        net = torch.nn.BatchNorm1d(2)
        with torch.no_grad():
            net.weight.fill_(value)
        net.num_batches_tracked.fill_(int(value))
        # an epoch checkpoint of a run in progress holds its weights only as "ema"
        torch.save({"model": None if in_progress else net, "ema": net, "optimizer": {}}, path)
        return path

    out = train.mix_weights(ckpt(1.0, tmp_path / "a.pt"), ckpt(3.0, tmp_path / "b.pt", True), 0.75, tmp_path / "m.pt")
    got = torch.load(str(out), weights_only=False)
    assert torch.allclose(got["model"].float().weight, torch.full((2,), 2.5))
    assert int(got["model"].num_batches_tracked) == 3 and got["ema"] is None


@pytest.mark.parametrize("stem, size", [("detector", 320), ("number", 64), ("color", 32), ("detector_strip", 320)])
def test_recovered_checkpoint_computes_what_the_shipped_onnx_does(tmp_path, stem, size) -> None:
    """train --init models/<stem>.onnx: the checkpoint rebuilt from the shipped
    (BatchNorm-fused, fp16-stored) ONNX model gives its outputs, and trains."""
    torch = pytest.importorskip("torch")
    ort = pytest.importorskip("onnxruntime")
    from okey_vision.vision import train

    onnx_path = train.MODELS / f"{stem}.onnx"
    pt = train.recover_pt(onnx_path, tmp_path / f"{stem}.pt")
    ckpt = torch.load(pt, map_location="cpu", weights_only=False)
    net = ckpt["model"].float().eval()
    from pathlib import Path

    # the embedded sample rack photo (random noise would leave every anchor unsure)
    photo = cv2.imread(str(Path(train.__file__).parents[1] / "data" / "sample_rack.jpg"))
    x = cv2.resize(photo, (size, size))[:, :, ::-1].transpose(2, 0, 1)[None].astype(np.float32) / 255
    x = np.ascontiguousarray(x)
    with torch.no_grad():
        y = net(torch.from_numpy(x))
    y = (y[0] if isinstance(y, (tuple, list)) else y).numpy()
    sess = ort.InferenceSession(str(onnx_path), providers=["CPUExecutionProvider"])
    z = sess.run(None, {sess.get_inputs()[0].name: x})[0]
    assert y.shape == z.shape
    if stem.startswith("detector"):  # (cx, cy, w, h, score[, angle]) per anchor, on the tiles found
        found = z[0, 4] > 0.3
        assert found.sum() >= 5
        assert np.abs(y[0, 4] - z[0, 4]).max() < 0.02
        assert np.abs(y[0, :4][:, found] - z[0, :4][:, found]).max() < 1.0
        if z.shape[1] == 6:  # oriented
            assert np.abs(y[0, 5][found] - z[0, 5][found]).max() < 0.02
    else:  # class probabilities
        assert np.abs(y - z).max() < 1e-3
        assert y.argmax() == z.argmax()
    # trainable: BatchNorm layers are back (training mode updates them)
    assert any(isinstance(m, torch.nn.BatchNorm2d) for m in net.modules())
    assert len(ckpt["model"].names) == {"detector": 1, "number": 14, "color": 5, "detector_strip": 1}[stem]


def test_recover_refuses_a_model_it_cannot_map(tmp_path) -> None:
    """An ONNX file whose weights do not fit the network yaml is refused, naming the file."""
    onnx = pytest.importorskip("onnx")
    pytest.importorskip("torch")
    from okey_vision.vision import train

    model = onnx.load(str(train.MODELS / "color.onnx"))
    victim = next(i for i in model.graph.initializer if i.name.startswith("model.10.linear.weight"))
    model.graph.initializer.remove(victim)
    bad = tmp_path / "color.onnx"
    onnx.save(model, str(bad))
    with pytest.raises(ValueError, match="color.onnx"):
        train.recover_pt(bad, tmp_path / "color.pt")


def test_crop_recipe_and_jitter_render_into_their_own_folders(tmp_path, monkeypatch) -> None:
    """Upright crops of another recipe or corner jitter never reuse the default crops."""
    from okey_vision.vision import train

    monkeypatch.setattr(train, "DATA", tmp_path)
    seen = []
    monkeypatch.setattr("okey_vision.synth.datasets.write_crop_dataset",
                        lambda out, count, seed, config, **kw: (out.mkdir(parents=True),
                                                                 seen.append((out.name, config, kw["jitter"]))))
    monkeypatch.setattr("okey_vision.synth.real.write_real_crops", lambda *a, **kw: None)
    log = logging.getLogger("t")
    default = train.make_face_crops(2, 5, log, "upright")
    player = train.make_face_crops(2, 5, log, "upright", "synth-upright-player.yaml", 0.08)
    assert default.name == "crops-face-2-5-upright"
    assert player.name == "crops-face-2-5-upright-synth-upright-player-jit0.08"
    assert seen[0][2] == 0.04 and seen[1][2] == 0.08
    assert seen[1][1].p_side_view > seen[0][1].p_side_view  # the player recipe's config was used


def test_strip_canvases_are_labelled_with_the_true_faces(tmp_path, monkeypatch) -> None:
    """Every labelled box on a rectified-strip canvas is where the renderer
    put a tile: mapped back to the photo it overlaps a true rack face."""
    import yaml

    from okey_vision.synth import load_config
    from okey_vision.synth.datasets import image_seed
    from okey_vision.synth.render import render_scene
    from okey_vision.vision import rectify, train

    monkeypatch.setattr(train, "DATA", tmp_path)
    out = train.make_strip_data(4, 5, logging.getLogger("t"))
    labels = sorted((out / "labels").rglob("*.txt"))
    assert labels and len(labels) == len(list((out / "images").rglob("*.jpg")))
    config = load_config(train.ROOT / "datasets" / train.STRIP_RECIPE)
    boxes = 0
    for lab in labels:
        i, k = int(lab.stem.split("_")[2]), int(lab.stem.split("_")[3])
        scene = render_scene(image_seed(5, i), config)
        places = train.strip_canvases(scene, 5, i)[k][1]
        rack = [np.asarray(t.quad, float) for t in scene.tiles if t.on_rack]
        for line in lab.read_text().split("\n"):
            if not line:
                continue
            _, x, y, w, h = map(float, line.split())
            s = rectify.CANVAS
            assert 0 <= (x - w / 2) * s and (x + w / 2) * s <= s + 1e-6
            boxes += 1
            # the label's centre lies inside a true rack face mapped onto this canvas
            cx, cy = x * s, y * s
            assert any(cv2.pointPolygonTest(np.float32(rectify.to_canvas(q, p, rs)), (cx, cy), False) >= 0
                       for q in rack for rs, p in places)
    assert boxes >= 10
    # the detector's data.yaml gains the strips beside its own images
    base = tmp_path / "detect" / "data.yaml"
    base.parent.mkdir()
    base.write_text(yaml.safe_dump({"path": str(base.parent), "train": "images/train", "val": "images/val",
                                    "names": {0: "tile"}}))
    both = yaml.safe_load(train.with_strips(base, out).read_text())
    assert both["train"] == [str(base.parent / "images" / "train"), str(out / "images" / "train")]


def test_int8_weights_compute_what_the_float_ones_do(tmp_path) -> None:
    """store_int8: a convolution's weights in int8 (one scale per output
    channel) give the float model's outputs to within the rounding, in a
    smaller file than float16; recover_pt reads them back."""
    onnx = pytest.importorskip("onnx")
    ort = pytest.importorskip("onnxruntime")
    from onnx import TensorProto, helper, numpy_helper

    from okey_vision.vision import train

    rng = np.random.default_rng(0)
    w = rng.normal(0, 0.1, (32, 16, 3, 3)).astype(np.float32)
    b = rng.normal(0, 0.1, (32,)).astype(np.float32)
    graph = helper.make_graph(
        [helper.make_node("Conv", ["x", "w", "b"], ["y"], pads=[1, 1, 1, 1])], "g",
        [helper.make_tensor_value_info("x", TensorProto.FLOAT, [1, 16, 8, 8])],
        [helper.make_tensor_value_info("y", TensorProto.FLOAT, [1, 32, 8, 8])],
        [numpy_helper.from_array(w, "w"), numpy_helper.from_array(b, "b")])
    model = helper.make_model(graph, opset_imports=[helper.make_opsetid("", 17)])
    paths = {k: tmp_path / f"{k}.onnx" for k in ("fp32", "fp16", "int8")}
    for p in paths.values():
        onnx.save(model, str(p))
    train.store_half(paths["fp16"])
    train.store_int8(paths["int8"])
    x = rng.random((1, 16, 8, 8), dtype=np.float32)
    out = {k: ort.InferenceSession(str(p), providers=["CPUExecutionProvider"]).run(None, {"x": x})[0]
           for k, p in paths.items()}
    scale = np.abs(w).max() / 127
    assert np.abs(out["int8"] - out["fp32"]).max() < 16 * 9 * scale  # half a step on each of 144 taps, at most
    assert np.abs(out["int8"] - out["fp32"]).mean() < 0.01 * np.abs(out["fp32"]).mean() + 1e-3
    assert paths["int8"].stat().st_size < 0.7 * paths["fp16"].stat().st_size
    q = onnx.load(str(paths["int8"]))
    assert [n.op_type for n in q.graph.node][:1] == ["DequantizeLinear"]


def test_shipped_weights_fit_the_budget() -> None:
    """Every shipped model file together stays under 20 MB (the brief's budget)."""
    from okey_vision.vision import train

    sizes = {p.name: p.stat().st_size for p in train.MODELS.glob("*.onnx")}
    assert {"detector.onnx", "detector_axis.onnx", "detector_strip.onnx", "number.onnx",
            "color.onnx"} <= set(sizes)
    assert sum(sizes.values()) < 20_000_000, sizes


@pytest.mark.parametrize("stem", ["detector", "number"])
def test_calibrated_recovery_trains_from_the_network_it_rebuilt(tmp_path, stem) -> None:
    """With calibration images the rebuilt network computes what the identity
    rebuild (and so the ONNX model) does in evaluation mode, and the same in
    *training* mode on those images; the identity rebuild does not."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    from pathlib import Path

    from okey_vision.vision import train

    photo = cv2.imread(str(Path(train.__file__).parents[1] / "data" / "sample_rack.jpg"))
    h, w = photo.shape[:2]
    images = []
    for i in range(6):  # six different views of the sample photo
        crop = photo[i * h // 20: h - (5 - i) * h // 20, (5 - i) * w // 20: w - i * w // 20]
        images.append(tmp_path / f"c{i}.png")
        cv2.imwrite(str(images[-1]), crop if i % 2 else crop[:, ::-1])
    plain = torch.load(train.recover_pt(train.MODELS / f"{stem}.onnx", tmp_path / "plain.pt"),
                       weights_only=False)["model"].float()
    tuned = torch.load(train.recover_pt(train.MODELS / f"{stem}.onnx", tmp_path / "tuned.pt", calibrate=images),
                       weights_only=False)["model"].float()
    x = train._image_batch(images, tuned.args["imgsz"])  # calibrated at the model's own size

    def last_norm(net, training: bool):
        out = []
        norm = [m for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)][-1]
        hook = norm.register_forward_hook(lambda m, i, o: out.append(o.detach()))
        net.train(training)
        with torch.no_grad():
            net(x)
        hook.remove()
        return out[0]

    def off(a, b) -> float:
        return float((a - b).norm() / b.norm())

    assert off(last_norm(tuned, False), last_norm(plain, False)) < 2e-3  # fp16 storage
    assert off(last_norm(tuned, True), last_norm(tuned, False)) < 2e-2
    assert off(last_norm(plain, True), last_norm(plain, False)) > 0.2
    assert train.calibration_images(tmp_path, 3) == []  # none under a train/ folder


def test_ship_takes_the_last_epoch_not_the_val_best(tmp_path, monkeypatch) -> None:
    """A run's val split holds the held-out real photos, so the weights it
    ships are the last epoch's, never the ones that scored best there."""
    pytest.importorskip("ultralytics")
    import ultralytics.utils.torch_utils as tu

    from okey_vision.vision import train

    wdir = tmp_path / "runs" / "obb" / "weights"
    wdir.mkdir(parents=True)
    (wdir / "best.pt").write_bytes(b"best")
    (wdir / "last.pt").write_bytes(b"last")
    monkeypatch.setattr(train, "RUNS", tmp_path / "runs")
    monkeypatch.setattr(train, "MODELS", tmp_path / "models")
    monkeypatch.setattr(tu, "strip_optimizer", lambda path: None)
    shipped = train.ship("obb", train.logging.getLogger("test"))
    assert shipped == tmp_path / "models" / "obb.pt" and shipped.read_bytes() == b"last"
    (wdir / "last.pt").unlink()
    assert train.ship("obb", train.logging.getLogger("test")).read_bytes() == b"best"
