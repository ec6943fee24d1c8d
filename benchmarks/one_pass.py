"""The one-pass rule on real pixels: every view read with both detector
passes and with the first alone, the rule's inputs kept, so a rule
(``DetectConfig.one_pass_*``) is chosen on one part and reported on another.

    python benchmarks/one_pass.py --part choose
    python benchmarks/one_pass.py --part report --gate 8,100,0.8

Per part: tiles read right, exact views and false reads with both passes,
with the rule ``--gate ANGLE,PX,SCORE`` (the mirrored pass left out where
the view's rack is aligned, turned at most ANGLE degrees, its tiles PX px
tall or more in the photo and every first-pass box scoring SCORE or more),
and with one pass everywhere; then the views the rule left to one pass
that read differently.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Sequence

os.environ.setdefault("YOLO_OFFLINE", "1")

KINDS = "as-is,turned,framed,side,warm-dim,farther,closer"


def main(argv: list[str] | None = None) -> int:
    """Read every view of a part both ways and print the rule's effect."""
    from okey_vision.eval.views import PARTS, real_photos, score_view, views
    from okey_vision.vision.detect import Detection
    from okey_vision.vision.normalise import View
    from okey_vision.vision.reader import RackReader

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--part", choices=PARTS, default="choose")
    ap.add_argument("--turns", default="90,180,270")
    ap.add_argument("--kinds", default=KINDS)
    ap.add_argument("--limit", type=int, help="at most this many photos")
    ap.add_argument("--gate", default="8,100,0.8", help="ANGLE,PX,SCORE of the rule")
    args = ap.parse_args(argv)
    angle, px, score = (float(v) for v in args.gate.split(","))
    seen: dict[str, float] = {}

    class Probe(RackReader):
        """The shipped reader, both passes or one as asked, noting what the rule looks at."""

        both = True

        def _needs_mirror(self, view: View, first: Sequence[Detection]) -> bool:
            seen.clear()
            p = view.pose
            if p is not None and p.aligned and first:
                seen.update(angle=abs((p.angle + 90.0) % 180.0 - 90.0), px=p.tile_height,
                            score=min(d.score for d in first))
            return self.both

    reader = Probe(calibration=False)
    rows = []
    t0 = time.perf_counter()
    photos = real_photos(args.part)[:args.limit]
    for k, photo in enumerate(photos):
        for view in views(photo, tuple(int(t) for t in args.turns.split(",")), tuple(args.kinds.split(","))):
            row = {}
            for mode in ("both", "one"):
                reader.both = mode == "both"
                row[mode] = score_view(view, reader.read(view.image))
            gated = bool(seen) and seen["angle"] <= angle and seen["px"] >= px and seen["score"] >= score
            rows.append((view, row, gated, dict(seen)))
        print(f"  {k + 1}/{len(photos)} photos, {time.perf_counter() - t0:.0f} s", file=sys.stderr, end="\r")
    print(file=sys.stderr)

    def total(pick: str) -> str:
        got = [row["one" if (pick == "one" or (pick == "rule" and gated)) else "both"] for _, row, gated, _ in rows]
        right, tiles = sum(s.right for s in got), sum(s.tiles for s in got)
        return (f"{right / max(tiles, 1):.2%} of tiles ({right}/{tiles}), {sum(s.exact for s in got)}/{len(got)} "
                f"exact, {sum(s.false for s in got)} false")

    print(f"{args.part} part, {len(rows)} views; the rule --gate {args.gate} leaves "
          f"{sum(g for _, _, g, _ in rows)} to one pass")
    print(f"  both passes:          {total('both')}")
    print(f"  the rule:             {total('rule')}")
    print(f"  one pass everywhere:  {total('one')}")
    for view, row, gated, inputs in rows:
        b, o = row["both"], row["one"]
        if gated and (b.right, b.exact, b.false) != (o.right, o.exact, o.false):
            print(f"  one pass read {view.photo.name} {view.name} differently: {o.right}/{o.tiles} against "
                  f"{b.right}/{b.tiles} ({', '.join(f'{k} {v:.2f}' for k, v in inputs.items())})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
