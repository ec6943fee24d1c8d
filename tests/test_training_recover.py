"""A trainable checkpoint rebuilt from a shipped ONNX model (okey_vision.training.recover)
computes what the ONNX model does, in evaluation and (calibrated) training mode."""

from __future__ import annotations

import numpy as np
import pytest

from okey_vision.training import paths, recover

cv2 = pytest.importorskip("cv2")

SAMPLE = paths.ROOT / "okey_vision" / "data" / "sample_rack.jpg"


@pytest.mark.parametrize("stem, size", [("detector", 320), ("number", 64), ("color", 32), ("detector_strip", 320)])
def test_recovered_checkpoint_computes_what_the_shipped_onnx_does(tmp_path, stem, size) -> None:
    """train --init models/<stem>.onnx: the checkpoint rebuilt from the shipped
    (BatchNorm-fused, fp16-stored or computing in int8) ONNX model gives its
    outputs, and trains."""
    torch = pytest.importorskip("torch")
    ort = pytest.importorskip("onnxruntime")
    onnx = pytest.importorskip("onnx")
    onnx_path = paths.MODELS / f"{stem}.onnx"
    pt = recover.recover_pt(onnx_path, tmp_path / f"{stem}.pt")
    ckpt = torch.load(pt, map_location="cpu", weights_only=False)
    net = ckpt["model"].float().eval()
    # the embedded sample rack photo (random noise would leave every anchor unsure)
    photo = cv2.imread(str(SAMPLE))
    x = cv2.resize(photo, (size, size))[:, :, ::-1].transpose(2, 0, 1)[None].astype(np.float32) / 255
    x = np.ascontiguousarray(x)
    with torch.no_grad():
        y = net(torch.from_numpy(x))
    y = (y[0] if isinstance(y, (tuple, list)) else y).numpy()
    model = onnx.load(str(onnx_path))
    if any(n.op_type == "QuantizeLinear" for n in model.graph.node):
        # a network computing in int8: the torch one computes in float with its
        # int8 weights, as the ONNX one does with its activations' rounding taken out
        from okey_vision.training.quantize import float_compute

        model = float_compute(model)
    sess = ort.InferenceSession(model.SerializeToString(), providers=["CPUExecutionProvider"])
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
    model = onnx.load(str(paths.MODELS / "color.onnx"))
    victim = next(i for i in model.graph.initializer if i.name.startswith("model.10.linear.weight"))
    model.graph.initializer.remove(victim)
    bad = tmp_path / "color.onnx"
    onnx.save(model, str(bad))
    with pytest.raises(ValueError, match=r"color\.onnx"):
        recover.recover_pt(bad, tmp_path / "color.pt")


@pytest.mark.parametrize("stem", ["detector", "number"])
def test_calibrated_recovery_trains_from_the_network_it_rebuilt(tmp_path, stem) -> None:
    """With calibration images the rebuilt network computes what the identity
    rebuild (and so the ONNX model) does in evaluation mode, and the same in
    *training* mode on those images; the identity rebuild does not."""
    torch = pytest.importorskip("torch")
    pytest.importorskip("onnx")
    photo = cv2.imread(str(SAMPLE))
    h, w = photo.shape[:2]
    images = []
    for i in range(6):  # six different views of the sample photo
        crop = photo[i * h // 20: h - (5 - i) * h // 20, (5 - i) * w // 20: w - i * w // 20]
        images.append(tmp_path / f"c{i}.png")
        cv2.imwrite(str(images[-1]), crop if i % 2 else crop[:, ::-1])
    plain = torch.load(recover.recover_pt(paths.MODELS / f"{stem}.onnx", tmp_path / "plain.pt"),
                       weights_only=False)["model"].float()
    tuned = torch.load(recover.recover_pt(paths.MODELS / f"{stem}.onnx", tmp_path / "tuned.pt", calibrate=images),
                       weights_only=False)["model"].float()
    x = recover.image_batch(images, tuned.args["imgsz"])  # calibrated at the model's own size

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
    assert recover.calibration_images(tmp_path, 3) == []  # none under a train/ folder


def test_a_quantized_models_weights_come_back_within_their_steps(tmp_path) -> None:
    """train --init from a model computing in int8: onnx_weights gives each
    quantized weight and bias back as (q - zero point) * scale, within half a
    step of the float weight (one scale per output channel), under its name."""
    onnx = pytest.importorskip("onnx")
    pytest.importorskip("onnxruntime.quantization")
    torch = pytest.importorskip("torch")
    from test_training_quantize import conv_model

    from okey_vision.training import quantize

    rng = np.random.default_rng(3)
    model = conv_model(rng)
    onnx.save(model, str(tmp_path / "float.onnx"))
    batches = [rng.random((1, 3, 24, 24), dtype=np.float32) for _ in range(3)]
    q = onnx.load(str(quantize.quantize(tmp_path / "float.onnx", tmp_path / "int8.onnx", batches,
                                        float_modules=())))  # the first convolution quantized too
    want = recover.onnx_weights(model)
    got = recover.onnx_weights(q)
    assert set(got) == set(want) == {"w1", "b1", "w2", "b2"}
    for name in ("w1", "w2"):
        w = want[name]
        step = w.abs().amax((1, 2, 3), keepdim=True) / 127  # symmetric int8, one scale a channel
        assert got[name].dtype == torch.float32 and got[name].shape == w.shape
        assert ((got[name] - w).abs() <= step / 2 + 1e-7).all()
        assert not torch.equal(got[name], w)  # read back from int8, not a float copy
    for name in ("b1", "b2"):  # int32 biases: far finer steps
        assert torch.allclose(got[name], want[name], atol=1e-4)
