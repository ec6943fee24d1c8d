"""``okey-vision solve``: arrange a hand and say whether it can be declared."""

from __future__ import annotations

import argparse
import json
from collections.abc import Sequence

from okey_vision.cli.common import add_game, add_lang, only_101, options101
from okey_vision.lang import Lang
from okey_vision.scoring import COUNTDOWN, SCHEMES
from okey_vision.solver import Arrangement, Declaration, arrange, declare
from okey_vision.tiles import Hand, okey_of


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``solve`` subcommand's options."""
    parser.add_argument("--indicator", "-i", required=True, help="the indicator tile, e.g. r3")
    parser.add_argument("--scheme", choices=SCHEMES, default=COUNTDOWN, help="scoring scheme")
    add_game(parser)
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_lang(parser, "the report")
    parser.add_argument("tiles", nargs="+", help="1 to 15 tiles (22 with --game 101), e.g. r1 r2 r3 fj k7")


def solve_result(tiles: Hand | Sequence[str], indicator: str | None = None, scheme: str = COUNTDOWN) -> dict:
    """The ``solve`` JSON object for a :class:`Hand`, or tile names and an indicator name."""
    hand = Hand.of(tiles, indicator)
    ind = hand.indicator
    arrangement = arrange(hand)
    declaration = declare(hand, scheme=scheme)
    best = declaration.best
    return {
        "indicator": ind.name,
        "okey": okey_of(ind).name,
        "hand": [t.name for t in hand.tiles],
        "can_declare": declaration.can_declare,
        "declare": best.to_dict() if best else None,
        "declare_points": best.points(scheme) if best else 0,
        "scheme": scheme,
        "finishes": [f.to_dict() for f in declaration.finishes],
        "note": declaration.note,
        "arrangement": arrangement.to_dict(),
    }


def format_solve(arrangement: Arrangement, declaration: Declaration, lang: Lang = Lang.EN) -> str:
    """The readable report of ``solve`` (its sentences: :func:`okey_vision.coach.text.solve_lines`)."""
    from okey_vision.coach.text import solve_lines

    return "\n".join(solve_lines(arrangement, declaration, lang))


def solve101_result(tiles: Sequence[str], indicator: str, args: argparse.Namespace) -> dict:
    """The ``solve --game 101`` JSON object: the hand's best opening."""
    from okey_vision.yuzbir import Hand101, best_opening

    hand = Hand101.of(tiles, indicator)
    opening = best_opening(hand, options=options101(args), highest=args.highest)
    return {"game": "101", "indicator": hand.indicator.name, "okey": opening.okey.name,
            "hand": [t.name for t in hand.tiles], "opening": opening.to_dict()}


def run(args: argparse.Namespace) -> int:
    """Print the arrangement and the declaration (or one JSON object)."""
    if args.game != "101" and (args.beat_highest or args.highest or args.no_ace_after_13):
        raise only_101(["--highest", "--beat-highest", "--no-ace-after-13"])
    if args.game == "101":
        from okey_vision.yuzbir import Hand101, best_opening
        from okey_vision.yuzbir.lines import solve_lines101

        if args.json:
            print(json.dumps(solve101_result(args.tiles, args.indicator, args)))
            return 0
        hand = Hand101.of(args.tiles, args.indicator)
        opening = best_opening(hand, options=options101(args), highest=args.highest)
        print("\n".join(solve_lines101(opening, hand.indicator, Lang.of(getattr(args, "lang", Lang.EN)))))
        return 0
    if args.json:
        print(json.dumps(solve_result(args.tiles, args.indicator, args.scheme)))
        return 0
    hand = Hand.of(args.tiles, args.indicator)
    print(format_solve(arrange(hand), declare(hand, scheme=args.scheme), Lang.of(args.lang)))
    return 0
