"""Where the reader's errors come from, on a rendered validation set.

    python benchmarks/read_diagnose.py                       # player-style seed 9201, 60 scenes
    python benchmarks/read_diagnose.py --seed 9201 --count 60 --models runs/eval --per-scene
    python benchmarks/read_diagnose.py --misses                  # only the miss-cause table
    python benchmarks/read_diagnose.py --misses --scenes data/eval-synth-player-9201-60.pkl

Splits the errors of :mod:`read_accuracy`'s rules by cause: misses and
false reads by scene kind (``side``: rack tile heights differ by more than
1.25 x along the rack, strong perspective; ``tilt``: a turned rack; ``small``:
median tile under 40 px), misses of rack vs loose tiles, false reads on rack
rows vs apart, wrong reads by number / colour / both, the commonest number
confusions, the detector's corner error (max corner offset over the tile's
height, angle of its long axis) and the classifiers with the *true* corners
(an oracle detector), which separates the classifiers from the geometry.

``--misses``: every missed *rack* tile by the first stage of the reader's
pipeline that loses it (its typed ``ReadTrace``): not seen by the first
look; not found on the normalised view; by the edge-cut rule; as a blank;
by ``ClassifyConfig.no_face``; or a read survives but the one-to-one
matching gave it another tile. Each miss also says whether a read covers
the tile only partly (IoU 0.1-0.4: a box shifted onto two tiles). Matched
rack tiles put ``APART`` are counted too (not misses, but off the rack).

For choices only: the default seed (9201) is the validation set; never run
it on the test seeds (9001, 9101) to choose anything.
"""

from __future__ import annotations

import argparse
import collections
import os
import sys
from pathlib import Path

os.environ.setdefault("YOLO_OFFLINE", "1")

import numpy as np
from read_accuracy import Score

from okey_vision.eval.match import match
from okey_vision.eval.racks import rack_truth

ROOT = Path(__file__).resolve().parents[1]

#: Validation seed of the player-style renders (the test seed is 9101).
VAL_SEED = 9201
#: A rack whose tile heights differ more than this is a side view.
SIDE_RATIO = 1.25
#: Median tile height (px) under which a scene counts as small.
SMALL_PX = 40.0


def scene_kind(scene) -> str:
    """'side' or 'tilt', with '-small' for tiny tiles."""
    rack = [t for t in scene.tiles if t.on_rack]
    hs = [float(np.linalg.norm(np.subtract(t.quad[3], t.quad[0]))) for t in rack] or [0.0]
    side = len(hs) > 2 and max(hs) / max(min(hs), 1e-6) > SIDE_RATIO
    return ("side" if side else "tilt") + ("-small" if np.median(hs) < SMALL_PX else "")


def axis_aligned(quad: np.ndarray) -> bool:
    """True for the corners of an upright box (an upright-box detector's read)."""
    q = np.asarray(quad, float)
    return bool(np.all(np.abs(q - np.roll(q, 1, axis=0)).min(1) < 0.5))


#: The stages of the pipeline a rack tile can be lost at, in order (``ReadTrace``'s fields).
STAGES = ("not found on the view, nor seen by the first look", "not found on the view, though the look saw it",
          "removed by the edge-cut rule", "removed as a blank (no ink)", "removed by NO_FACE",
          "read kept, matched to another tile")


def miss_causes(reader, scenes) -> int:
    """Print the miss-cause table (``--misses``) for rendered scenes: each
    missed rack tile by the first stage whose detections no longer cover it
    (``ReadTrace``: look, detected, uncut, inked, faced)."""
    from okey_vision.eval.match import box_iou as iou
    from okey_vision.vision.reads import APART

    def covers(dets, box, lo=0.4, hi=2.0) -> bool:
        return any(lo <= iou(box, d.box) < hi for d in dets)

    causes: collections.Counter = collections.Counter()
    tiles = 0
    for sc in scenes:
        reads, trace = reader.read_traced(sc.image)
        mt = dict(match([(t.tile, t.box) for t in sc.tiles], reads))
        for a, t in enumerate(sc.tiles):
            if not t.on_rack:
                continue
            tiles += 1
            if a in mt:
                causes["(matched, put APART)"] += reads[mt[a]].row == APART
                continue
            b = t.box
            looked = covers(trace.look.detections, b, 0.2)
            lost = [not covers(trace.detected, b) and not looked, not covers(trace.detected, b),
                    not covers(trace.uncut, b), not covers(trace.inked, b), not covers(trace.faced, b), True]
            causes[STAGES[lost.index(True)]] += 1
            causes["(of the misses: a read covers it partly, IoU 0.1-0.4)"] += covers(reads, b, 0.1, 0.4)
    n = sum(v for k, v in causes.items() if not k.startswith("("))
    print(f"missed rack tiles: {n} of {tiles}")
    print("| cause | tiles |")
    print("|---|---:|")
    for c in STAGES:
        print(f"| {c} | {causes[c]} |")
    for k in sorted(k for k in causes if k.startswith("(")):
        print(f"| {k} | {causes[k]} |")
    return 0


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seed", type=int, default=VAL_SEED)
    p.add_argument("--count", type=int, default=60)
    p.add_argument("--recipe", default="synth-player.yaml")
    p.add_argument("--models", help="model folder (default: the shipped models)")
    p.add_argument("--per-scene", action="store_true")
    p.add_argument("--misses", action="store_true", help="only the miss-cause table")
    p.add_argument("--scenes", help="a pickle of the rendered scenes (list of Scene) instead of rendering")
    args = p.parse_args(argv)

    from okey_vision.synth import load_config
    from okey_vision.synth.datasets import image_seed
    from okey_vision.synth.render import render_scene
    from okey_vision.tiles import TILES
    from okey_vision.vision.crops import quad_axes, turned, upright_quad
    from okey_vision.vision.reader import RackReader
    from okey_vision.vision.reads import APART
    from okey_vision.vision.refine import refine, shift

    reader = RackReader(args.models).load()
    cfg = load_config(ROOT / "datasets" / args.recipe)
    if args.scenes:
        import pickle

        scenes = pickle.loads(Path(args.scenes).read_bytes())[: args.count]
    else:
        scenes = None
    if args.misses:
        return miss_causes(reader, scenes or [render_scene(image_seed(args.seed, i), cfg)
                                              for i in range(args.count)])
    score = Score(f"{args.recipe} seed {args.seed} x{args.count}")
    causes: collections.Counter = collections.Counter()
    numbers: collections.Counter = collections.Counter()
    kinds: dict[str, list[int]] = collections.defaultdict(lambda: [0, 0, 0, 0, 0])
    corner, angle = [], []
    fitted = []   # (detected, refined) mean corner distance / tile height, oriented reads
    oracle = collections.Counter()
    for i in range(args.count):
        sc = scenes[i] if scenes else render_scene(image_seed(args.seed, i), cfg)
        reads = reader.read(sc.image)
        truth = [(t.tile, t.box) for t in sc.tiles]

        def unlabelled(r, mask=sc.mask) -> bool:
            x1, y1, x2, y2 = (int(v) for v in r.box)
            cx, cy = (x1 + x2) // 2, (y1 + y2) // 2
            patch = mask[max(0, cy - 3):cy + 4, max(0, cx - 3):cx + 4]
            return patch.size > 0 and (patch == 255).mean() > 0.3

        pairs = match(truth, reads)
        kind = scene_kind(sc)
        wrong = [(sc.tiles[a].tile.name, reads[b].name) for a, b in pairs
                 if reads[b].tile != sc.tiles[a].tile]
        missed = [t for a, t in enumerate(sc.tiles) if a not in {x for x, _ in pairs}]
        false = [r for b, r in enumerate(reads) if b not in {y for _, y in pairs} and not unlabelled(r)]
        for t_name, r_name in wrong:
            c = "colour" if t_name[1:] == r_name[1:] else ("number" if t_name[0] == r_name[0] else "both")
            causes[f"wrong {c}"] += 1
            if c != "colour":
                numbers[(t_name[1:] or "fj", r_name[1:] or "fj")] += 1
        for t in missed:
            causes[f"miss {kind} {'rack' if t.on_rack else 'loose'}"] += 1
        for r in false:
            causes[f"false {kind} {'apart' if r.row == APART else 'rack'}"] += 1
        k = kinds[kind]
        k[0] += 1
        k[1] += len(sc.tiles)
        k[2] += len(wrong)
        k[3] += len(missed)
        k[4] += len(false)
        for a, b in pairs:  # corner error of the reader's quad against the true corners
            if reads[b].quad is None:
                continue
            tq, dq = upright_quad(np.array(sc.tiles[a].quad)), np.array(reads[b].quad)
            h = quad_axes(tq)[3]
            corner.append(min(np.abs(dq - tq).max(), np.abs(turned(dq) - tq).max()) / max(h, 1e-6))
            if not axis_aligned(dq):  # an oriented detection: what the corner refinement makes of it
                rq = refine(sc.image, dq)[0]
                fitted.append((shift(dq, tq), shift(rq, tq)))
            angle.append(float(np.degrees(np.arccos(min(1.0, abs(float(quad_axes(tq)[0] @ quad_axes(dq)[0])))))))
        if sc.tiles:  # oracle: the classifiers on the true corners, rack's way up decided as usual
            probs = reader.classifier(sc.image, [np.array(t.quad, float) for t in sc.tiles]).probs
            for t, pr in zip(sc.tiles, probs, strict=True):
                f = TILES[int(pr.argmax())]
                oracle["tiles"] += 1
                oracle["face"] += f == t.tile
                oracle["number"] += f.number == t.tile.number and f.is_false_joker == t.tile.is_false_joker
                oracle["colour"] += f.color == t.tile.color and f.is_false_joker == t.tile.is_false_joker
        score.add(f"#{i}", truth, reads, unlabelled)
        score.add_rack(rack_truth(sc), reads, [t.box for t in sc.tiles if not t.on_rack])
        if args.per_scene:
            print(f"#{i} {kind}: tiles {len(sc.tiles)} wrong {wrong} missed {len(missed)} false {len(false)}")
    s = score.summary()
    print(f"[{s['set']}] per-tile {100 * s['per_tile_accuracy']:.1f} %, wrong {s['wrong_reads']}, "
          f"misses {s['misses']}, false {s['false_reads']}, exact {100 * s['exact_hand_rate']:.1f} %, "
          f"rack in order {s['exact_rack_in_order']}, colour {100 * s['colour_accuracy_matched']:.1f} %, "
          f"number {100 * s['number_accuracy_matched']:.1f} % (matched)")
    print("by scene kind (scenes, tiles, wrong, misses, false):",
          "; ".join(f"{k} {v}" for k, v in sorted(kinds.items())))
    print("causes:", "; ".join(f"{k} {v}" for k, v in sorted(causes.items())))
    print("number confusions (true -> read):", ", ".join(f"{a}->{b} {n}" for (a, b), n in numbers.most_common(12)))
    if corner:
        c, a = np.array(corner), np.array(angle)
        print(f"corner error / tile height: median {np.median(c):.2f}, 90th pct {np.percentile(c, 90):.2f}; "
              f"long-axis angle: median {np.median(a):.1f}, 90th pct {np.percentile(a, 90):.1f} degrees "
              f"({len(c)} matched tiles)")
    if fitted:
        f = np.array(fitted)
        print(f"mean corner distance / tile height on the oriented path: detected median {np.median(f[:, 0]):.3f}, "
              f"90th pct {np.percentile(f[:, 0], 90):.3f}; refined median {np.median(f[:, 1]):.3f}, 90th pct "
              f"{np.percentile(f[:, 1], 90):.3f}; refined nearer {100 * np.mean(f[:, 1] < f[:, 0] - 0.01):.0f} %, "
              f"farther {100 * np.mean(f[:, 1] > f[:, 0] + 0.01):.0f} % ({len(f)} tiles)")
    n = max(oracle["tiles"], 1)
    print(f"classifiers on the true corners: face {100 * oracle['face'] / n:.1f} %, number "
          f"{100 * oracle['number'] / n:.1f} %, colour {100 * oracle['colour'] / n:.1f} % ({n} tiles)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
