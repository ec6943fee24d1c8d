"""The ``advise`` subcommand: coach a hand from the command line.

``okey-vision advise --indicator r3 [--seen k5 y1 ...] [--offered b7] TILE... [--json]``
"""

from __future__ import annotations

import argparse
import json

from okey_vision.scoring import COUNTDOWN, SCHEMES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``advise`` options."""
    parser.add_argument("--indicator", "-i", required=True, help="the indicator tile, e.g. r3")
    parser.add_argument("--seen", nargs="*", default=[], metavar="TILE",
                        help="tiles seen on the discard piles (not the offered one)")
    parser.add_argument("--offered", default=None, metavar="TILE",
                        help="with 14 tiles: the tile the previous player just discarded")
    parser.add_argument("--scheme", choices=SCHEMES, default=COUNTDOWN, help="scoring scheme")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("tiles", nargs="*", help="15 tiles (discard advice) or 14 (draw advice)")


def run(args: argparse.Namespace) -> int:
    """Print the advice; domain errors propagate as OkeyError (exit 2)."""
    from okey_vision.coach import advise
    from okey_vision.coach.text import advice_lines
    from okey_vision.errors import HandSizeError
    from okey_vision.tiles import parse_hand

    seen = parse_hand(" ".join(args.seen))
    tiles = parse_hand(" ".join(args.tiles))
    if not tiles:
        # ``--seen a b c TILE...`` reads every name into --seen: the hand is
        # its last 15 names (14 with --offered).
        size = 14 if args.offered else 15
        if len(seen) < size:
            raise HandSizeError(f"no hand given: expected {size} tiles after the options")
        seen, tiles = seen[:-size], seen[-size:]
    a = advise(tiles, args.indicator, seen=seen, offered=args.offered, scheme=args.scheme)
    if args.json:
        print(json.dumps(a.to_dict()))
        return 0
    print("\n".join(advice_lines(a)))
    return 0
