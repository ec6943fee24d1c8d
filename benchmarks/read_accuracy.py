"""Tile reader accuracy on the held-out real photos, the shared real Okey
photo, a fixed synthetic test set and a rendered test set of Okey racks as
players photograph them; and the flag curve on the held-out real photos.

    python benchmarks/read_accuracy.py                 # every set, default models
    python benchmarks/read_accuracy.py --synth 100 --player 60 --backend torch --out benchmarks/out
    python benchmarks/read_accuracy.py --no-real --synth 0 --player 30 --tiles 22   # 101 Okey's racks

Player-style set (``datasets/synth-player.yaml``, seed 9101, never trained or
tuned on): racks turned 30-60 degrees, 40 % seen from the side, Okey
palettes, tinted/dim light, clutter; its "exact hands" also require the rack
tiles in rack order (rows, then along the rack) with nothing extra on the rack.
``--tiles N`` deals every rendered rack N tiles (two rows split at half +-3
tiles): 22 is a 101 Okey starter's rack, 15 the same seeds' classic one.
Flag curve: for each confidence threshold, the share of wrong reads (wrong
face or false read) and of right reads that a flag at that threshold marks.

A true tile counts as read right when a read's box overlaps it (IoU >= 0.4,
one-to-one greedy matching by IoU) and its colour and number are right.
Misses: true tiles no read overlaps. False reads: reads overlapping no true
tile (on synthetic images, reads on unlabelled, partly hidden tiles are not
counted). Rummikub jokers in the real photos have no Okey class: they are
neither counted nor held against a read. Exact hand: every tile of the image
read right with no miss and no false read. Colour and number confusion
matrices are saved as PNG (``docs/`` with ``--docs``) and the figures as JSON.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

os.environ.setdefault("YOLO_OFFLINE", "1")

import numpy as np

from okey_vision.eval.match import box_iou, match
from okey_vision.eval.racks import rack_truth
from okey_vision.eval.shared import real_pixels
from okey_vision.tiles import Tile

ROOT = Path(__file__).resolve().parents[1]

#: Fixed synthetic test set: seed (distinct from the training seeds 100 and 200).
SYNTH_SEED = 9001
#: Player-style test set (``datasets/synth-player.yaml``): seed, never trained on.
PLAYER_SEED = 9101
#: The shared real Okey photo and our reading of its rack (SOURCE.md), rows top to bottom.
OKEY_REAL = ("okey-real/images/okey-solver-py-rack-1.jpg", ["r7", "b7", "b9", "b10", "k10", "k5", "y5"])
#: Thresholds printed in the flag curve.
FLAG_THRESHOLDS = (0.3, 0.4, 0.5, 0.6, 0.7, 0.8, 0.85, 0.9, 0.93, 0.95, 0.97, 0.98, 0.99)
COLOR_LABELS = ["r", "y", "b", "k", "fj"]
NUMBER_LABELS = [str(n) for n in range(1, 14)] + ["fj"]


def color_of(t: Tile) -> str:
    return "fj" if t.is_false_joker else t.color


def number_of(t: Tile) -> str:
    return "fj" if t.is_false_joker else str(t.number)


class Score:
    """Running totals for one test set."""

    def __init__(self, name: str):
        self.name = name
        self.tiles = self.right = self.misses = self.false = self.images = self.exact = 0
        self.within1 = 0
        self.flagged = self.flagged_wrong = self.wrong = 0
        self.cc = np.zeros((5, 5), int)
        self.nc = np.zeros((14, 14), int)
        self.worst: list[tuple[int, str]] = []
        self.seconds: list[float] = []
        self.confs: list[tuple[float, bool]] = []   # (confidence, read right) for every read
        self.flags: list[tuple[bool, bool]] = []    # (flagged by the shipped rule, read right)
        self.rack_exact = self.rack_images = self.loose_on_rack = 0

    def add(self, name: str, truth: list, reads: list, ignore_read=lambda r: False) -> None:
        """truth: list of (Tile | None, box); None = a tile that is not scored."""
        pairs = match(truth, reads)
        matched_t = {i for i, _ in pairs}
        matched_r = {j for _, j in pairs}
        errors = 0
        for i, j in pairs:
            t, r = truth[i][0], reads[j]
            if t is None:
                continue
            self.tiles += 1
            ok = r.tile == t
            self.right += ok
            errors += not ok
            self.wrong += not ok
            self.flagged += r.low_confidence
            self.flagged_wrong += (not ok) and r.low_confidence
            self.confs.append((r.confidence, bool(ok)))
            self.flags.append((r.low_confidence, bool(ok)))
            self.cc[COLOR_LABELS.index(color_of(t)), COLOR_LABELS.index(color_of(r.tile))] += 1
            self.nc[NUMBER_LABELS.index(number_of(t)), NUMBER_LABELS.index(number_of(r.tile))] += 1
        for i, (t, _) in enumerate(truth):
            if i not in matched_t and t is not None:
                self.tiles += 1
                self.misses += 1
                errors += 1
        for j, r in enumerate(reads):
            if j not in matched_r and not ignore_read(r):
                self.false += 1
                errors += 1
                self.confs.append((r.confidence, False))
                self.flags.append((r.low_confidence, False))
        self.images += 1
        self.exact += errors == 0
        self.within1 += errors <= 1
        self.worst.append((errors, name))

    def add_rack(self, hand: list[str], reads: list, loose_truth: list) -> None:
        """Rack order: the reads on rack rows, in rack order, are exactly the hand;
        ``loose_truth``: boxes of labelled tiles lying apart (never rack tiles)."""
        from okey_vision.vision.reads import APART, rack_order

        rack = [r for r in rack_order(reads) if r.row != APART]
        self.rack_images += 1
        self.rack_exact += [r.name for r in rack] == hand
        for box in loose_truth:
            self.loose_on_rack += any(box_iou(box, r.box) >= 0.4 for r in rack)

    def flag_curve(self) -> list[dict]:
        """Share of wrong and of right reads flagged, per threshold."""
        conf = np.array([c for c, _ in self.confs])
        ok = np.array([o for _, o in self.confs], bool)
        rows = []
        for t in FLAG_THRESHOLDS:
            f = conf < t
            rows.append({"threshold": t,
                         "wrong_flagged": round(float(f[~ok].mean()) if (~ok).any() else 0.0, 4),
                         "right_flagged": round(float(f[ok].mean()) if ok.any() else 0.0, 4),
                         "wrong": int((~ok).sum()), "right": int(ok.sum())})
        return rows

    def flag_rule(self) -> dict:
        """Share of wrong (or false) and of right reads flagged by the shipped
        rule (``TileRead.low_confidence``: confidence and the both-ways-up doubt)."""
        f = np.array([a for a, _ in self.flags], bool)
        ok = np.array([o for _, o in self.flags], bool)
        return {"wrong_flagged": round(float(f[~ok].mean()) if (~ok).any() else 0.0, 4),
                "right_flagged": round(float(f[ok].mean()) if ok.any() else 0.0, 4),
                "wrong": int((~ok).sum()), "right": int(ok.sum())}

    def summary(self) -> dict:
        n = max(self.tiles, 1)
        extra = {}
        if self.rack_images:
            extra = {"exact_rack_in_order": f"{self.rack_exact}/{self.rack_images}",
                     "loose_tiles_read_as_rack": self.loose_on_rack}
        return {**extra,
            "set": self.name, "images": self.images, "tiles": self.tiles,
            "per_tile_accuracy": round(self.right / n, 4),
            "wrong_reads": self.wrong, "misses": self.misses, "false_reads": self.false,
            "exact_hand_rate": round(self.exact / max(self.images, 1), 4),
            "images_within_1_tile": f"{self.within1}/{self.images}",
            "low_confidence_flagged": self.flagged,
            "wrong_reads_flagged": f"{self.flagged_wrong}/{self.wrong}",
            "colour_accuracy_matched": round(np.trace(self.cc) / max(self.cc.sum(), 1), 4),
            "number_accuracy_matched": round(np.trace(self.nc) / max(self.nc.sum(), 1), 4),
            "median_read_s": round(float(np.median(self.seconds)), 3) if self.seconds else None,
            "worst_images": [f"{n} ({e} errors)" for e, n in sorted(self.worst, reverse=True)[:5] if e],
        }

    def save_confusions(self, out: Path, prefix: str) -> list[Path]:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        paths = []
        for m, labels, what in ((self.cc, COLOR_LABELS, "colour"), (self.nc, NUMBER_LABELS, "number")):
            fig, ax = plt.subplots(figsize=(4.2, 3.6) if what == "colour" else (6.4, 5.6), dpi=80)
            ax.imshow(np.log1p(m), cmap="Blues")
            ax.set_xticks(range(len(labels)), labels, fontsize=8)
            ax.set_yticks(range(len(labels)), labels, fontsize=8)
            ax.set_xlabel("read")
            ax.set_ylabel("true")
            ax.set_title(f"{self.name}: {what} ({m.sum()} matched tiles)", fontsize=9)
            for (i, j), v in np.ndenumerate(m):
                if v:
                    ax.text(j, i, str(v), ha="center", va="center", fontsize=6,
                            color="white" if i == j and v > m.max() / 3 else "black")
            fig.tight_layout()
            p = out / f"{prefix}_{what}_confusion.png"
            fig.savefig(p)
            plt.close(fig)
            paths.append(p)
        return paths


def bench_real(reader, score: Score, limit: int | None = None, split: str = "held", min_tiles: int = 0) -> None:
    import cv2

    from okey_vision.synth.real import load_real, split_real

    train, held = split_real(load_real(real_pixels() / "rummikub-real"))
    photos = [im for im in (held if split == "held" else train)
              if sum(label.tile is not None for label in im.labels) >= min_tiles]
    for im in photos[:limit]:
        img = cv2.imread(str(im.path))
        t = time.perf_counter()
        reads = reader.read(img)
        score.seconds.append(time.perf_counter() - t)
        score.add(im.stem, [(label.tile, label.box) for label in im.labels], reads)


def bench_okey_real(reader) -> dict:
    """The shared real Okey photo: the rack reads in rack order against our reading."""
    import difflib

    import cv2

    from okey_vision.vision.reads import APART

    path = real_pixels() / OKEY_REAL[0]
    if not path.exists():
        return {"skipped": f"{path} not found"}
    reads = reader.read(cv2.imread(str(path)))
    rack = [r.name for r in reads if r.row != APART]
    truth = OKEY_REAL[1]
    same = sum(b.size for b in difflib.SequenceMatcher(a=truth, b=rack).get_matching_blocks())
    return {"photo": OKEY_REAL[0], "truth": " ".join(truth), "read": " ".join(rack),
            "apart": " ".join(r.name for r in reads if r.row == APART),
            "tiles_right_in_order": f"{same}/{len(truth)}", "extra_rack_reads": len(rack) - same,
            "exact": rack == truth,
            "flagged": [r.name for r in reads if r.low_confidence]}


def bench_synth(reader, score: Score, count: int, recipe: str = "synth-detect.yaml",
                seed: int = SYNTH_SEED, rack: bool = False, tiles: int | None = None) -> None:
    from okey_vision.synth import load_config
    from okey_vision.synth.datasets import image_seed
    from okey_vision.synth.render import render_scene

    cfg = load_config(ROOT / "datasets" / recipe)
    if tiles is not None:  # every rack scene holds a hand of this size
        cfg = cfg.replace(p_typical_hand=1.0, hand_sizes=(tiles,))
    for i in range(count):
        scene = render_scene(image_seed(seed, i), cfg)
        t = time.perf_counter()
        reads = reader.read(scene.image)
        score.seconds.append(time.perf_counter() - t)
        mask = scene.mask

        def on_unlabelled(r, mask=mask):
            x1, y1, x2, y2 = (int(v) for v in r.box)
            cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
            patch = mask[max(0, cy - 3):cy + 4, max(0, cx - 3):cx + 4]
            return patch.size > 0 and (patch == 255).mean() > 0.3

        score.add(f"synth#{i}", [(t.tile, t.box) for t in scene.tiles], reads, on_unlabelled)
        if rack:
            score.add_rack(rack_truth(scene), reads, [t.box for t in scene.tiles if not t.on_rack])


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--synth", type=int, default=100, help="synthetic test images (0: skip)")
    p.add_argument("--player", type=int, default=60, help="player-style test images (0: skip)")
    p.add_argument("--player-seed", type=int, default=PLAYER_SEED,
                   help="another seed makes a validation set for choices (never choose on 9101)")
    p.add_argument("--tiles", type=int, help="every rendered rack holds this many tiles (22: a 101 starter's rack)")
    p.add_argument("--real", type=int, default=None, help="limit held-out real photos")
    p.add_argument("--real-min-tiles", type=int, default=0,
                   help="only the real photos holding at least this many labelled tiles (21: a 101 hand's worth)")
    p.add_argument("--no-real", action="store_true")
    p.add_argument("--real-split", choices=("held", "train"), default="held",
                   help="'train': the real *training* photos instead of the held-out ones (for choices)")
    p.add_argument("--backend", choices=("onnx", "torch"))
    p.add_argument("--models", help="model folder")
    p.add_argument("--out", default=str(ROOT / "benchmarks" / "out"))
    p.add_argument("--docs", action="store_true", help="also save the confusion PNGs in docs/")
    p.add_argument("--set", dest="settings", action="append", default=[],
                   help="a reader setting, section.name=value (repeatable; see okey_vision/vision/config.py)")
    args = p.parse_args(argv)

    from okey_vision.vision.config import DEFAULT
    from okey_vision.vision.reader import RackReader

    if (args.backend or os.environ.get("OKEY_VISION_BACKEND")) == "torch":
        from okey_vision.training.torchnet import use_torch

        use_torch()  # the runtime runs ONNX only: training hands it the torch runner for .pt files
    reader = RackReader(args.models, prefer_onnx=None if args.backend is None else args.backend == "onnx",
                        config=DEFAULT.with_settings(args.settings)).load()
    out = Path(args.out)
    out.mkdir(parents=True, exist_ok=True)
    results = {"backend": reader.backend, "models": reader.backends}
    scores = []
    if not args.no_real:
        s = Score(("real held-out" if args.real_split == "held" else "real training photos")
                  + (f" of {args.real_min_tiles}+ tiles" if args.real_min_tiles else ""))
        bench_real(reader, s, args.real, args.real_split, args.real_min_tiles)
        scores.append(("real", s))
    if not args.no_real:
        results["okey_real"] = bench_okey_real(reader)
    if args.synth:
        s = Score(f"synthetic seed {SYNTH_SEED} x{args.synth}" + (f", {args.tiles}-tile racks" if args.tiles else ""))
        bench_synth(reader, s, args.synth, tiles=args.tiles)
        scores.append(("synth", s))
    if args.player:
        s = Score(f"player-style seed {args.player_seed} x{args.player}"
                  + (f", {args.tiles}-tile racks" if args.tiles else ""))
        bench_synth(reader, s, args.player, "synth-player.yaml", args.player_seed, rack=True, tiles=args.tiles)
        scores.append(("player", s))
    for key, s in scores:
        results[key] = s.summary()
        results[key]["flag_curve"] = s.flag_curve()
        results[key]["flag_rule"] = s.flag_rule()
        s.save_confusions(out, key)
        if args.docs:
            s.save_confusions(ROOT / "docs", f"read_{key}")
    (out / "read_accuracy.json").write_text(json.dumps(results, indent=2))
    print(f"backend: {reader.backend} {reader.backends}")
    for key, _ in scores:
        r = results[key]
        print(f"[{r['set']}] images {r['images']}, tiles {r['tiles']}: per-tile accuracy "
              f"{100 * r['per_tile_accuracy']:.2f} %, wrong {r['wrong_reads']}, misses {r['misses']}, "
              f"false reads {r['false_reads']}, exact hands {100 * r['exact_hand_rate']:.1f} %, "
              f"within 1 tile {r['images_within_1_tile']}, colour {100 * r['colour_accuracy_matched']:.2f} %, "
              f"number {100 * r['number_accuracy_matched']:.2f} %, flagged wrong {r['wrong_reads_flagged']}")
        if "exact_rack_in_order" in r:
            print(f"   rack read exactly in rack order: {r['exact_rack_in_order']}, "
                  f"loose tiles read as rack tiles: {r['loose_tiles_read_as_rack']}")
        if r["worst_images"]:
            print("   worst:", "; ".join(r["worst_images"]))
        fr = r["flag_rule"]
        print(f"   flags as shipped (reads.low_confidence): {100 * fr['wrong_flagged']:.0f} % of {fr['wrong']} "
              f"wrong/false reads, {100 * fr['right_flagged']:.1f} % of {fr['right']} right reads")
        print("   flag curve on confidence alone (threshold: wrong/false reads flagged, right reads flagged):")
        print("   " + "; ".join(f"{c['threshold']}: {100 * c['wrong_flagged']:.0f} % / "
                                f"{100 * c['right_flagged']:.0f} %" for c in r["flag_curve"]))
    if "okey_real" in results:
        o = results["okey_real"]
        print("[okey-real photo] " + (o["skipped"] if "skipped" in o else
              f"read {o['read']!r} vs ours {o['truth']!r}: {o['tiles_right_in_order']} in order, "
              f"{o['extra_rack_reads']} extra, exact {o['exact']}, apart {o['apart']!r}, flagged {o['flagged']}"))
    print(f"figures and confusion matrices in {out}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
