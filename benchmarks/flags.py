"""Flags that carry over: the flag rule fitted on one part of the real pixels,
reported on the parts it never saw (``okey_vision/eval/flags.py``).

    python benchmarks/flags.py                          # fit on choose; report okey, choose, report
    python benchmarks/flags.py --turns 90,180 --kinds as-is,turned,side,warm-dim --limit 6

Parts: ``okey`` (the shared real Okey rack), ``choose`` and ``report`` (the
held-out real Rummikub tables, split by a hash of their names). For each
part, the reads of its views and their hard crops (corners moved as a
detector's are when it errs): share of wrong reads flagged and share of
right reads flagged, by the shipped rule and by the rule fitted on the
``--fit`` part alone.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections import defaultdict

os.environ.setdefault("YOLO_OFFLINE", "1")

from okey_vision.eval.flags import FlagCase, fit_flags, flag_table, hard_crop_cases, read_cases
from okey_vision.eval.views import real_photos, score_view, views
from okey_vision.vision.config import FlagConfig


def gather(turns: tuple[int, ...], kinds: tuple[str, ...], limit: int | None
           ) -> tuple[dict[str, list[FlagCase]], dict[str, list[FlagCase]]]:
    """Every part's read cases and hard-crop cases."""
    from okey_vision.vision.reader import RackReader

    reader = RackReader()
    classify = reader.classifier
    reads_by: dict[str, list[FlagCase]] = defaultdict(list)
    hard_by: dict[str, list[FlagCase]] = defaultdict(list)
    counts: dict[str, int] = defaultdict(int)
    t0 = time.perf_counter()
    for photo in real_photos("all"):
        part = "okey" if photo.rack else photo.part
        if limit is not None and counts[part] >= limit:
            continue
        counts[part] += 1
        for view in views(photo, turns, kinds):
            reads = reader.read(view.image)
            reads_by[part] += read_cases([score_view(view, reads)], part)
            hard_by[part] += hard_crop_cases(classify, view, reads, part)
        print(f"  {sum(counts.values())} photos, {time.perf_counter() - t0:.0f} s", file=sys.stderr, end="\r")
    print(file=sys.stderr)
    return reads_by, hard_by


def main(argv: list[str] | None = None) -> int:
    """Gather the cases, fit on one part, print every part's rates."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--fit", default="choose", choices=("okey", "choose", "report"),
                    help="the part the rule is fitted on")
    ap.add_argument("--turns", default="90,180", help="angles of the turned views")
    ap.add_argument("--kinds", default="as-is,turned,side,warm-dim", help="kinds of views to read")
    ap.add_argument("--limit", type=int, help="at most this many photos a part")
    args = ap.parse_args(argv)
    turns = tuple(int(a) for a in args.turns.split(",") if a.strip())
    kinds = tuple(k for k in args.kinds.split(",") if k)
    reads_by, hard_by = gather(turns, kinds, args.limit)
    fitted = fit_flags(reads_by[args.fit] + hard_by[args.fit], reads_by[args.fit])
    print("\n".join(flag_table("shipped rule", FlagConfig(), reads_by, hard_by)))
    print("\n".join(flag_table(f"rule fitted on the {args.fit} part alone", fitted, reads_by, hard_by)))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
