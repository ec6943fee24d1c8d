"""The ``advise`` subcommand: coach a hand from the command line.

``okey-vision advise --indicator r3 [--seen "k5 y1"] [--offered b7] [--lang tr] TILE... [--json]``

``--seen`` takes ONE argument (tiles separated by spaces in quotes, or by
commas; it may be repeated), so it can never swallow the hand. The old form
``--seen k5 y1 TILE...`` is refused: with a single tile after ``--seen``
directly followed by the hand, nobody can tell where the seen tiles end.
"""

from __future__ import annotations

import argparse
import json

from okey_vision.cli.common import CliError, add_game, add_lang, only_101, options101
from okey_vision.errors import clip
from okey_vision.lang import Lang
from okey_vision.scoring import COUNTDOWN, SCHEMES


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """Register the ``advise`` options."""
    parser.add_argument("--indicator", "-i", required=True, help="the indicator tile, e.g. r3")
    parser.add_argument("--seen", action="append", default=[], metavar='"TILE TILE..."',
                        help='tiles seen on the discard piles (not the offered one), as one '
                             'argument: --seen "k5 y1" or --seen k5,y1 (may be repeated)')
    parser.add_argument("--offered", default=None, metavar="TILE",
                        help="with 14 tiles (101: 21 at most): the tile the previous player just discarded")
    parser.add_argument("--scheme", choices=SCHEMES, default=COUNTDOWN, help="scoring scheme")
    add_game(parser)
    parser.add_argument("--table", action="append", default=[], metavar='"TILE TILE TILE"',
                        help="101: one meld on the table, as one argument (may be repeated)")
    parser.add_argument("--opened", choices=["no", "melds", "pairs"], default="no",
                        help="101: how you opened this round")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    add_lang(parser, "the advice")
    parser.add_argument("tiles", nargs="*", help="15 tiles (discard advice) or 14 (draw advice); "
                                                 "with --game 101, the tiles you hold")


def run(args: argparse.Namespace) -> int:
    """Print the advice; domain errors propagate as OkeyError (exit 2)."""
    from okey_vision.coach import advise
    from okey_vision.coach.text import advice_dict, advice_lines
    from okey_vision.tiles import Hand

    _refuse_ambiguous_seen(getattr(args, "argv", None) or [])
    if args.game == "101":
        return _run101(args)
    if args.table or args.opened != "no" or args.beat_highest or args.highest or args.no_ace_after_13:
        raise only_101(["--table", "--opened", "--highest", "--beat-highest", "--no-ace-after-13"])
    if not " ".join(args.tiles).strip():
        raise CliError.of("no_hand")
    hand = Hand.of(" ".join(args.tiles), args.indicator, " ".join(args.seen))  # as the app builds it
    a = advise(hand, offered=args.offered, scheme=args.scheme)
    lang = Lang.of(getattr(args, "lang", Lang.EN))
    if args.json:
        print(json.dumps(advice_dict(a, lang)))
        return 0
    print("\n".join(advice_lines(a, lang)))
    return 0


def _run101(args: argparse.Namespace) -> int:
    """The 101 advice: open or not yet, lay, add, discard; or take or draw with ``--offered``."""
    from okey_vision.yuzbir import Hand101, advise101
    from okey_vision.yuzbir.table import table_melds

    if not " ".join(args.tiles).strip():
        raise CliError.of("no_hand_101")
    hand = Hand101.of(" ".join(args.tiles), args.indicator, " ".join(args.seen))
    table = table_melds(args.table, hand.indicator)
    a = advise101(hand, table=table, opened=args.opened, offered=args.offered, highest=args.highest,
                  options=options101(args))
    lang = Lang.of(getattr(args, "lang", Lang.EN))
    if args.json:
        print(json.dumps(a.to_dict(lang)))
        return 0
    print("\n".join(a.lines(lang)))
    return 0


def _refuse_ambiguous_seen(argv: list[str]) -> None:
    """Refuse ``--seen k7 y1 TILE...``: a lone tile after ``--seen`` with the
    hand right behind it reads as the README's old form, where ``y1`` was
    meant as seen but would silently join the hand."""
    for i, word in enumerate(argv[:-2]):
        if word != "--seen":
            continue
        value, after = argv[i + 1], argv[i + 2]
        if "," in value or " " in value.strip() or after.startswith("-"):
            continue
        raise CliError.of("seen_one", value=clip(value, 20), after=clip(after, 20))
