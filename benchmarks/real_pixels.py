"""The reader on real pixels only: the held-out real photos and the shared
Okey photo, as they are and turned, framed farther and closer (and from 0.3x
to 1.6x the distance), seen from the side (``okey_vision/eval/views.py``),
with the labels carried through.

    python benchmarks/real_pixels.py                      # both parts, every view
    python benchmarks/real_pixels.py --part choose --turns 45,90 --json out.json
    python benchmarks/real_pixels.py --set detect.look_border=0.2   # a reader setting changed
    python benchmarks/real_pixels.py --part trained --kinds as-is,framed   # the photos trained on

Per part (``choose`` picks reader changes and calibrates flags; ``report``
only reports; ``trained``, the real photos the networks were trained on,
only with ``--part trained`` or ``every``) and per kind of view: rack tiles read right, reads right,
exact photos, the median IoU of each read's quad with its labelled polygon,
false reads, misses, and the views where a neighbour in a row covers over
10 % of a read's quad (``overlapped``); the turned views' worst angle; the Okey photo's
reads per view; and the flags (share of wrong and of right reads flagged).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from collections import defaultdict
from pathlib import Path

os.environ.setdefault("YOLO_OFFLINE", "1")

from okey_vision.eval.views import PARTS, TURNS, Scored, flag_rates, real_photos, score_view, summarise, views

KINDS = ("as-is", "turned", "farther", "closer", "side", "closer-turned", "framed", "warm-dim")


def make_reader(settings: list[str]):
    """The shipped reader, with ``section.name=value`` settings changed."""
    from okey_vision.vision.reader import RackReader

    try:
        from okey_vision.vision.config import ReaderConfig
    except ImportError:  # before the reader carried its configuration
        if settings:
            raise SystemExit("this reader has no settings to change") from None
        return RackReader()
    return RackReader(config=ReaderConfig().with_settings(settings))


def run(part: str, turns: tuple[int, ...], settings: list[str], limit: int | None,
        kinds: tuple[str, ...], hard: list | None = None) -> list[Scored]:
    """Every view of every photo of ``part``, read and scored (and, into
    ``hard``, the flag cases of each read's hard crops)."""
    from okey_vision.eval.flags import hard_crop_cases

    reader = make_reader(settings)
    out = []
    photos = real_photos(part)[:limit]
    t0 = time.perf_counter()
    for k, photo in enumerate(photos):
        for view in views(photo, turns, kinds):
            reads = reader.read(view.image)
            out.append(score_view(view, reads))
            if hard is not None:
                hard += hard_crop_cases(reader.classifier, view, reads, flag_part(out[-1]))
        print(f"  {k + 1}/{len(photos)} photos, {time.perf_counter() - t0:.0f} s", file=sys.stderr, end="\r")
    print(file=sys.stderr)
    return out


def table(scored: list[Scored]) -> list[str]:
    """The per-kind rows of one part."""
    lines = ["| views | n | tiles read right | reads right | exact | IoU median | false | missed | overlapped |",
             "|---|---|---|---|---|---|---|---|---|"]
    by_kind: dict[str, list[Scored]] = defaultdict(list)
    for s in scored:
        by_kind[s.kind].append(s)
    for kind in KINDS + ("all",):
        group = scored if kind == "all" else by_kind.get(kind, [])
        if not group:
            continue
        m = summarise(group)
        lines.append(f"| {kind} | {m.views} | {m.accuracy:.1%} ({m.right}/{m.tiles}) | {m.precision:.1%} | "
                     f"{m.exact}/{m.views} | {m.iou_median:.3f} | {m.false} | {m.misses} | {m.overlapped} |")
    turned = defaultdict(list)
    for s in by_kind.get("turned", []):
        turned[s.view].append(s)
    if turned:
        acc = {v: summarise(g).accuracy for v, g in turned.items()}
        worst = min(acc, key=acc.get)
        lines.append(f"turned: mean over angles {sum(acc.values()) / len(acc):.1%}, "
                     f"worst {worst} {acc[worst]:.1%}")
    wf, rf, nw, nr = flag_rates(scored)
    lines.append(f"flags: {wf:.1%} of {nw} wrong reads flagged, {rf:.1%} of {nr} right reads flagged")
    return lines


def flag_part(s: Scored) -> str:
    """The flag rule's part of a scored view: the Okey rack apart from the Rummikub tables."""
    return "okey" if s.photo.startswith("okey-") else s.part


def flag_report(scored: list[Scored], hard: list) -> list[str]:
    """The flag rule fitted on the choose part's Rummikub tables, and the shipped rule, on every part."""
    from okey_vision.eval.flags import fit_flags, flag_table, read_cases
    from okey_vision.vision.config import FlagConfig

    reads_by: dict[str, list] = defaultdict(list)
    hard_by: dict[str, list] = defaultdict(list)
    for s in scored:
        reads_by[flag_part(s)] += read_cases([s], flag_part(s))
    for c in hard:
        hard_by[c.part].append(c)
    out = flag_table("the shipped rule", FlagConfig(), reads_by, hard_by)
    if reads_by.get("choose"):
        fitted = fit_flags(reads_by["choose"] + hard_by["choose"], reads_by["choose"])
        out += flag_table("the rule fitted on the choose part alone", fitted, reads_by, hard_by)
    return out


def main(argv: list[str] | None = None) -> int:
    """Read every view, print the tables, optionally save the scores as JSON."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--part", choices=PARTS + ("all", "every"), default="all",
                    help="all: choose and report; every: the photos the networks were trained on too")
    ap.add_argument("--turns", default=",".join(map(str, TURNS)), help="angles of the turned views")
    ap.add_argument("--kinds", default=",".join(KINDS), help="kinds of views to read")
    ap.add_argument("--limit", type=int, help="at most this many photos a part")
    ap.add_argument("--set", dest="settings", action="append", default=[],
                    help="a reader setting, section.name=value (repeatable)")
    ap.add_argument("--json", help="write every view's score here")
    ap.add_argument("--flags", action="store_true",
                    help="also read each tile's hard crops and fit the flag rule on the choose part "
                         "(okey_vision/eval/flags.py), reported on every part")
    args = ap.parse_args(argv)
    turns = tuple(int(a) for a in args.turns.split(",") if a.strip())
    kinds = tuple(k for k in args.kinds.split(",") if k)
    parts = {"all": ("choose", "report"), "every": PARTS}.get(args.part, (args.part,))
    everything = []
    hard: list | None = [] if args.flags else None
    for part in parts:
        scored = run(part, turns, args.settings, args.limit, kinds, hard)
        everything += scored
        print(f"\n## {part} part: {len({s.photo for s in scored})} photos\n")
        print("\n".join(table(scored)))
        okey = [s for s in scored if s.photo.startswith("okey-")]
        if okey:
            bad = [s for s in okey if not s.exact]
            print(f"Okey photo: exact in {len(okey) - len(bad)} of {len(okey)} views"
                  + "".join(f"\n  {s.view}: {s.got}" for s in bad))
    if hard is not None:
        print("\n## flags: fitted on one part, reported on the others")
        print("\n".join(flag_report(everything, hard)))
    if args.json:
        Path(args.json).write_text(json.dumps([s.__dict__ for s in everything], indent=1), encoding="utf-8")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
