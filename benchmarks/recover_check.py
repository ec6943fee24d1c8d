"""How far a checkpoint rebuilt from a shipped ONNX model is, in training
mode, from the network it computes in evaluation mode.

    python benchmarks/recover_check.py                  # the oriented detector
    python benchmarks/recover_check.py --stem detector_axis --batches 3

A fine-tune from ``--init models/<stem>.onnx`` starts from
``okey_vision.training.recover.recover_pt``. Its BatchNorms are either the
identity (the fused ONNX weights as they are) or calibrated on training
images (``recover.calibrate_batchnorm``). This prints, for batches of real photos
that were *not* used to calibrate, the relative difference between the
output of each BatchNorm in training and in evaluation mode, for both
(the first layer, the median layer and the last).
Real photos come from ``../shared/datasets/rummikub-real`` (read in place):
even ones calibrate, odd ones are measured.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
from pathlib import Path

os.environ.setdefault("YOLO_OFFLINE", "1")

ROOT = Path(__file__).resolve().parents[1]


def main() -> None:
    """Print the training-vs-evaluation gap of identity and calibrated rebuilds."""
    import torch

    from okey_vision.training import paths, recover

    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--stem", default="detector",
                    help="a detector in models/ (detector, detector_axis, detector_strip)")
    ap.add_argument("--photos", type=Path, default=ROOT.parent / "shared" / "datasets" / "rummikub-real" / "images")
    ap.add_argument("--batch", type=int, default=8)
    ap.add_argument("--batches", type=int, default=3)
    args = ap.parse_args()

    photos = sorted(args.photos.glob("*.jpg"))
    if len(photos) < 2 * args.batch:
        sys.exit(f"{args.photos}: need at least {2 * args.batch} .jpg photos, found {len(photos)}")
    calibrate, held = photos[0::2][:48], photos[1::2]
    onnx = paths.MODELS / f"{args.stem}.onnx"
    with tempfile.TemporaryDirectory() as tmp:
        plain = torch.load(recover.recover_pt(onnx, Path(tmp) / "plain.pt"), weights_only=False)["model"].float()
        tuned = torch.load(recover.recover_pt(onnx, Path(tmp) / "tuned.pt", calibrate=calibrate),
                           weights_only=False)["model"].float()
    size = int(tuned.args["imgsz"])

    def norm_outputs(net, training: bool, x) -> list:
        out: list = []
        norms = [m for m in net.modules() if isinstance(m, torch.nn.BatchNorm2d)]
        hooks = [m.register_forward_hook(lambda m, i, o: out.append(o.detach())) for m in norms]
        net.train(training)
        with torch.no_grad():
            net(x)
        for h in hooks:
            h.remove()
        return out

    def gaps(net, x) -> str:
        """The gap at the first BatchNorm, the median over all, and the last."""
        pairs = zip(norm_outputs(net, True, x), norm_outputs(net, False, x), strict=True)
        g = [float((a - b).norm() / b.norm()) for a, b in pairs]
        return f"{g[0]:.1%} / {statistics.median(g):.1%} / {g[-1]:.1%}"

    print(f"{onnx.name} at {size} px; calibrated on {len(calibrate)} photos; "
          f"training-vs-evaluation gap of BatchNorm outputs (relative norm), first / median / last layer")
    for i in range(args.batches):
        chunk = held[i * args.batch:(i + 1) * args.batch]
        if len(chunk) < args.batch:
            break
        x = recover.image_batch(chunk, size)
        print(f"  held-out batch {i} ({len(chunk)} photos): identity BatchNorms {gaps(plain, x)}, "
              f"calibrated {gaps(tuned, x)}")
    x = recover.image_batch(calibrate[:args.batch], size)
    print(f"  a calibration batch ({args.batch} photos): identity {gaps(plain, x)}, calibrated {gaps(tuned, x)}")


if __name__ == "__main__":
    main()
