"""Tiles read on pictures with no rack (target: none).

    python benchmarks/no_rack.py
    python benchmarks/no_rack.py --set rack.row_confidence=0.0   # a reader setting changed

The twenty pictures are drawn in code (:mod:`okey_vision.eval.norack`): blank
frames, test patterns (colour bars, checkerboards, a browser's fake camera
with its frame counter's digits), face-like blobs, tables with cups, coins,
cards and a phone. For each the script prints the tiles read and whether
the reader saw a rack, then the total (the goal: none); then two tables with
one tile lying on them and no rack, and how many reads lie apart there (the
goal: none; with no rack, no tile is an indicator beside it).
"""

from __future__ import annotations

import argparse
import os
import sys

os.environ.setdefault("YOLO_OFFLINE", "1")


def main(argv: list[str] | None = None) -> int:
    """Read every no-rack picture and print what was read."""
    from okey_vision.eval.norack import lone_tile_pictures, no_rack_pictures
    from okey_vision.vision.config import ReaderConfig
    from okey_vision.vision.reader import RackReader
    from okey_vision.vision.reads import APART

    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--set", dest="settings", action="append", default=[],
                    help="a reader setting, section.name=value (repeatable)")
    args = ap.parse_args(argv)
    reader = RackReader(config=ReaderConfig().with_settings(args.settings), calibration=False)
    total = 0
    pictures = no_rack_pictures()
    for pic in pictures:
        reads, trace = reader.read_traced(pic.image)
        total += len(reads)
        said = "a rack seen" if trace.rack else "no rack"
        print(f"{pic.kind:13} {pic.name:22} {len(reads):2} tiles read ({said}) {' '.join(r.name for r in reads)}")
    print(f"{total} tiles read on {len(pictures)} pictures with no rack")
    apart = 0
    for pic in lone_tile_pictures():
        reads, trace = reader.read_traced(pic.image)
        apart += sum(r.row == APART for r in reads)
        print(f"{pic.kind:13} {pic.name:22} {len(reads):2} tiles read, {sum(r.row == APART for r in reads)} apart "
              f"(as an indicator) {' '.join(r.name for r in reads)}")
    print(f"{apart} tiles taken as an indicator apart from a rack on {len(lone_tile_pictures())} tables with one tile")
    return 0


if __name__ == "__main__":
    sys.exit(main())
