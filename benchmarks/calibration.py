"""The reader before and after learning a player's own tile set.

    python benchmarks/calibration.py                 # every part (about 5 minutes on 2 busy cores)
    python benchmarks/calibration.py --parts set --test 20

Parts:

- ``set``: renders of one fixed set (``datasets/calib-set.yaml``: the pinned
  ``navy-orange`` set, unlike the training palettes), the tiles of 1, 3 and 5
  photos (seeds ``image_seed(2800, 1000 + i)``) given as a player gives them
  (``calibrate add``: aligned with the reads), learned as the app and
  ``calibrate fit`` learn them (fit, then the guard), and 50 other photos of
  the set (``image_seed(2800, 300 + i)`` by default, ``--test-from``: photos
  no choice of the method was made on; 100-149 judged its choices while it
  was built) read before and after: per-tile accuracy on the
  labelled rack tiles, misreads (a read on the tile, wrong) and misses (no
  read); the remaining misreads removed.
- ``speed``: the read time of those 50 photos with and without the
  5-photo calibration (median over reads, each photo read by both in turn).
- ``real``: the real photos of ``../shared``: calibrated on the real-pixel
  benchmark's ``choose`` part (the real Okey photo and half of the held-out
  Rummikub photos; each labelled tile matched to a read, as a player would
  correct it) and read on the ``report`` part, as is and under a warm, dim
  light, before and after; and the real Okey photo alone, calibrated on it
  as is and read in its 30 other views (turned, framed, from the side,
  dim: the same tiles, so an upper bound).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

os.environ.setdefault("YOLO_OFFLINE", "1")

from okey_vision.calibrate.learn import learn, store_pairs
from okey_vision.calibrate.store import Store, crop_of
from okey_vision.eval.match import match
from okey_vision.eval.racks import rack_truth
from okey_vision.vision.reader import RackReader

ROOT = Path(__file__).resolve().parents[1]

SEED = 2800


def scenes(start: int, count: int):
    from okey_vision.synth import load_config
    from okey_vision.synth.datasets import image_seed
    from okey_vision.synth.render import render_scene

    cfg = load_config(ROOT / "datasets" / "calib-set.yaml")
    return [render_scene(image_seed(SEED, start + i), cfg) for i in range(count)]


def score_set(reader, test) -> tuple[int, int, int]:
    """(right, misread, missed) over the labelled rack tiles of the test photos."""
    right = wrong = missed = 0
    for sc in test:
        truth = [(t.tile, t.box) for t in sc.tiles if t.on_rack]
        reads = reader.read(sc.image)
        pairs = match(truth, reads)
        ok = sum(1 for a, b in pairs if truth[a][0] == reads[b].tile)
        right += ok
        wrong += len(pairs) - ok
        missed += len(truth) - len(pairs)
    return right, wrong, missed


def fitted(shipped: RackReader, calib, k: int, folder: Path):
    """The reader after learning from the first ``k`` calibration photos (and what learn said)."""
    store = Store(folder)
    for i, sc in enumerate(calib[:k]):
        added = store_pairs(store, sc.image, f"p{i}", shipped.read(sc.image), rack_truth(sc), "benchmark")
        print(f"    photo {i + 1}: {added.stored} of {added.reads} rack reads stored", file=sys.stderr)
    learned = learn(shipped, folder)
    for line in learned.lines():
        print(f"    {line}", file=sys.stderr)
    cal = learned.calibration if learned.saved is not None else None
    return shipped.with_calibration(cal if cal is not None else False), learned


def part_set(shipped: RackReader, n_test: int, counts: tuple[int, ...], first: int) -> RackReader | None:
    calib, test = scenes(1000, max(counts)), scenes(first, n_test)
    tiles = sum(1 for sc in test for t in sc.tiles if t.on_rack)
    print(f"\n## One fixed set (navy-orange), {n_test} photos of it, {tiles} rack tiles\n")
    print("| calibrated on | tiles read right | misread | missed | misreads removed | crops | fit + guard |")
    print("|---|---|---|---|---|---|---|")
    right, wrong, missed = score_set(shipped, test)
    print(f"| nothing (shipped) | {right / tiles:.1%} ({right}/{tiles}) | {wrong} | {missed} | - | - | - |",
          flush=True)
    last = None
    with tempfile.TemporaryDirectory() as tmp:
        for k in counts:
            folder = Path(tmp) / f"k{k}"
            reader, learned = fitted(shipped, calib, k, folder)
            r, w, m = score_set(reader, test)
            cal = learned.calibration
            used = "" if learned.saved is not None else " (not used: the guard)"
            print(f"| {k} photo{'s' if k > 1 else ''}{used} | {r / tiles:.1%} ({r}/{tiles}) | {w} | {m} | "
                  f"{(wrong - w) / max(wrong, 1):.0%} | {cal.crops if cal else 0} | {learned.seconds:.0f} s |",
                  flush=True)
            last = reader
    return last


def part_speed(shipped: RackReader, calibrated: RackReader, n_test: int, first: int, repeats: int = 3) -> None:
    test = scenes(first, n_test)
    plain: dict[str, list[float]] = {"wall": [], "cpu": []}
    cal: dict[str, list[float]] = {"wall": [], "cpu": []}
    for _ in range(repeats):
        for sc in test:
            for reader, out in ((shipped, plain), (calibrated, cal)):
                t0, c0 = time.perf_counter(), time.process_time()
                reader.read(sc.image)
                out["wall"].append(time.perf_counter() - t0)
                out["cpu"].append(time.process_time() - c0)
    print(f"\n## Read time, {n_test} photos of the set x {repeats}, each read by both in turn\n")
    for kind in ("cpu", "wall"):
        a, b = statistics.median(plain[kind]), statistics.median(cal[kind])
        print(f"{kind}: without calibration median {a * 1000:.0f} ms; with the 5-photo calibration "
              f"{b * 1000:.0f} ms ({(b / a - 1):+.1%})")


def real_pairs(photo, reads):
    """(read, label tile) of each labelled tile matched to a read, as a player would correct it."""
    from okey_vision.eval.match import greedy_match
    from okey_vision.eval.views import MATCH_IOU, polygon_iou, read_polygon

    polys = [read_polygon(r) for r in reads]
    matched = greedy_match(photo.labels, polys, lambda lab, p: polygon_iou(lab.polygon, p), MATCH_IOU)
    return [(reads[j], photo.labels[i].tile.name) for i, j, _ in matched
            if photo.labels[i].tile is not None and reads[j].quad is not None]


def real_score(reader, views) -> tuple[int, int]:
    from okey_vision.eval.views import score_view

    right = tiles = 0
    for view in views:
        s = score_view(view, reader.read(view.image))
        right += s.right
        tiles += s.tiles
    return right, tiles


def calibrate_on(shipped: RackReader, photos, folder: Path):
    store = Store(folder)
    for k, photo in enumerate(photos):
        img = photo.image()
        store.add(f"r{k}", [(i, t, crop_of(img, r.quad)) for i, (r, t) in enumerate(real_pairs(photo,
                                                                                              shipped.read(img)))],
                  "benchmark")
    learned = learn(shipped, folder)
    for line in learned.lines():
        print(f"    {line}", file=sys.stderr)
    cal = learned.calibration if learned.saved is not None else None
    return shipped.with_calibration(cal if cal is not None else False), learned


def part_real(shipped: RackReader) -> None:
    from okey_vision.eval.views import real_photos, views

    choose, report = real_photos("choose"), real_photos("report")
    if not choose or not report:
        print("\n## Real photos: ../shared not found, skipped")
        return
    print("\n## Real photos (../shared)\n")
    print("| calibrated on | read | tiles read right before | after | calibration |")
    print("|---|---|---|---|---|")
    with tempfile.TemporaryDirectory() as tmp:
        reader, learned = calibrate_on(shipped, choose, Path(tmp) / "choose")
        note = _note(learned)
        for kinds, name in ((("as-is",), "as is"), (("warm-dim",), "under a warm, dim light")):
            vs = [v for p in report for v in views(p, (), kinds)]
            b, n = real_score(shipped, vs)
            a, _ = real_score(reader, vs)
            print(f"| choose part: {len(choose)} photos, {learned.calibration.crops if learned.calibration else 0} "
                  f"tiles | report part ({len(report)} photos) {name} | {b / n:.1%} ({b}/{n}) | "
                  f"{a / n:.1%} ({a}/{n}) | {note} |", flush=True)
        okey = [p for p in choose if p.rack]
        if okey:
            reader, learned = calibrate_on(shipped, okey, Path(tmp) / "okey")
            vs = [v for v in views(okey[0]) if v.kind != "as-is"]
            b, n = real_score(shipped, vs)
            a, _ = real_score(reader, vs)
            print(f"| the real Okey photo as is (7 tiles) | its {len(vs)} other views | {b / n:.1%} ({b}/{n}) | "
                  f"{a / n:.1%} ({a}/{n}) | {_note(learned)} |", flush=True)


def _note(learned) -> str:
    cal = learned.calibration
    if cal is None:
        return "nothing stored"
    if not cal.active:
        return "nothing to learn (the shipped reader read every stored tile right)"
    if learned.saved is None:
        return "not used (the guard)"
    parts = [p for p in ("colour", "number") if (cal.report.get(p) or {}).get("used")]
    return "used: " + ", ".join(parts)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--parts", default="set,speed,real", help="set, speed, real (comma separated)")
    ap.add_argument("--test", type=int, default=50, help="photos of the set read before and after")
    ap.add_argument("--counts", default="1,3,5", help="calibration photos")
    ap.add_argument("--test-from", type=int, default=300,
                    help="the test photos' first index (300: photos no choice was made on; 100-149 judged the "
                         "method's choices while it was built)")
    args = ap.parse_args(argv)
    parts = set(args.parts.split(","))
    counts = tuple(int(c) for c in args.counts.split(","))
    os.environ.setdefault("OKEY_VISION_DATA", tempfile.mkdtemp(prefix="okey-calib-bench-"))
    shipped = RackReader(calibration=False).load()
    t0 = time.perf_counter()
    calibrated = part_set(shipped, args.test, counts, args.test_from) if parts & {"set", "speed"} else None
    if "speed" in parts and calibrated is not None:
        part_speed(shipped, calibrated, args.test, args.test_from)
    if "real" in parts:
        part_real(shipped)
    print(f"\n({time.perf_counter() - t0:.0f} s)")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
