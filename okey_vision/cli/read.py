"""``okey-vision read PHOTO``: read the tiles of a rack photo.

Plain output lists the rows as on the rack; ``--json`` prints one object with
``tiles`` (``tile``, ``box`` [x1, y1, x2, y2] in input pixels, ``confidence``,
``row``, ``alternatives``, ``low_confidence``); with ``--solve``/``--advise``
the rack rows go to the solver or the coach, with ``--indicator`` or else
the indicator the photo shows beside the rack (as the check takes it),
said so; a photo that shows none is refused in one sentence. With ``--game
101`` the rack (21 or 22 tiles, else one sentence) gets the 101 opening
(``--solve``) or the 101 advice (``--advise``), as ``solve``/``advise --game
101`` print them.
"""

from __future__ import annotations

import argparse
import json
from typing import TYPE_CHECKING

from okey_vision.cli.common import add_game, add_lang, only_101

if TYPE_CHECKING:
    from okey_vision.lang import Lang
    from okey_vision.tiles import Hand


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``read`` subcommand's options."""
    parser.add_argument("photo", help="a rack photo (JPEG, PNG, ...)")
    parser.add_argument("--json", action="store_true", help="print one JSON object")
    parser.add_argument("--indicator", "-i",
                        help="the indicator tile, e.g. r3 (uses one copy; default: the tile beside the rack)")
    what = parser.add_mutually_exclusive_group()
    what.add_argument("--solve", action="store_true",
                      help="arrange/declare the hand read (the indicator: --indicator, else the photo's)")
    what.add_argument("--advise", action="store_true",
                      help="rank discards for the hand read (the indicator: --indicator, else the photo's)")
    parser.add_argument("--include-apart", action="store_true",
                        help="count tiles lying apart from the rack rows as hand tiles")
    parser.add_argument("--models", help="folder holding detector/number/color weights")
    add_lang(parser, "the report and the advice")
    add_game(parser)
    parser.add_argument("--backend", choices=("onnx", "torch"),
                        help="inference backend (default: onnx if present; torch runs models/*.pt only "
                             "where the training side is loaded: okey_vision.training.torchnet)")


def run(args: argparse.Namespace) -> int:
    """Read the photo and print the reads (and the solve/advice)."""
    from okey_vision.cli.common import CliError
    from okey_vision.errors import printable, require
    from okey_vision.lang import Lang
    from okey_vision.tiles import Game, parse_tile

    for module in ("numpy", "cv2"):
        require(module, "vision", "reading a photo")
    from okey_vision.vision.io import load_photo
    from okey_vision.vision.reader import RackReader
    from okey_vision.vision.reads import APART, hand_from_reads, pick_indicator
    from okey_vision.vision.service import open_reader

    lang = Lang.of(getattr(args, "lang", "en"))
    game = Game.parse(args.game)
    if game is not Game.ONE_OH_ONE and (args.beat_highest or args.highest or args.no_ace_after_13):
        raise only_101(["--highest", "--beat-highest", "--no-ace-after-13"])
    indicator = parse_tile(args.indicator) if args.indicator else None
    photo = load_photo(args.photo)
    if args.models or args.backend:
        reader = RackReader(args.models, prefer_onnx=None if args.backend is None else args.backend == "onnx")
    else:  # the reader service when $OKEY_VISION_SERVER names one, else this process's
        reader = open_reader(lang=lang)
    reads = reader.read_photo(photo, indicator=indicator)
    hand = [r.tile.name for r in reads if args.include_apart or r.row != APART]
    out: dict = {"photo": printable(str(args.photo)), "width": photo.width, "height": photo.height,
                 "tiles": [dict(r.to_dict(), low_confidence=r.low_confidence) for r in reads],
                 "hand": hand}
    told = None  # the sentence saying the indicator was taken from the photo
    if (args.solve or args.advise) and not [r for r in reads if args.include_apart or r.row != APART]:
        from okey_vision.coach.text import say

        raise CliError(say("read_no_tiles", lang, photo=out["photo"]).rstrip("."))
    if indicator is None and (args.solve or args.advise) and not args.include_apart:
        from okey_vision.coach.text import say

        indicator = pick_indicator([r for r in reads if r.row == APART])  # as the check takes it
        if indicator is None:
            raise CliError(say("read_no_indicator", lang, photo=out["photo"]).rstrip("."))
        told = say("read_indicator", lang, ind=indicator)
        out["indicator_from"] = "photo"
    if indicator is not None:
        out["indicator"] = indicator.name
    if (args.solve or args.advise) and indicator is None:  # --include-apart: the tiles apart are the hand's
        from okey_vision.coach.text import say

        raise CliError(say("read_include_apart", lang).rstrip("."))
    extra_text = None
    # The hand as the app and the advise command build it, once: Hand.of, through the reads.
    # Only for --solve/--advise: a photo with more tiles than a hand can hold still prints its reads.
    held = None
    if (args.solve or args.advise) and indicator is not None:
        held = hand_from_reads(reads, indicator, include_apart=args.include_apart, game=game)
    if game is Game.ONE_OH_ONE and held is not None:
        out["game"] = game.value
        extra_text = read101(held, out, args, lang)
    elif held is not None:
        extra_text = read_classic(held, out, args, lang)
    if args.json:
        print(json.dumps(out, default=str))
        return 0
    print(format_reads(reads, out["width"], out["height"], lang))
    if told:
        print(told)
    if extra_text:
        print(extra_text)
    return 0


def read_classic(held: Hand, out: dict, args: argparse.Namespace, lang: Lang) -> str | None:
    """The classic solve (``--solve``) or advice (``--advise``) of the rack
    read, added to ``out`` as ``solve --json`` and ``advise --json`` print
    them; their lines (None for ``--solve --json``: nothing more to print)."""
    if args.solve:
        from okey_vision.cli.solve import solve_result

        out["solve"] = solve_result(held)
        if args.json:
            return None
        from okey_vision.cli.solve import format_solve
        from okey_vision.solver import arrange, declare

        return format_solve(arrange(held), declare(held), lang)
    from okey_vision.coach import advise, text

    advice = advise(held)
    out["advice"] = text.advice_dict(advice, lang)
    return "\n".join(text.advice_lines(advice, lang))  # as the advise command prints it


def read101(held: Hand, out: dict, args: argparse.Namespace, lang: Lang) -> str:
    """The 101 opening (``--solve``) or advice (``--advise``) of the rack
    read, added to ``out`` as ``solve --game 101 --json`` and ``advise --game
    101 --json`` print them; their lines. A rack of other than 21-22 tiles is
    refused in one sentence (:func:`~okey_vision.yuzbir.rules.rack101`)."""
    from okey_vision.cli.common import options101
    from okey_vision.yuzbir import advise101, best_opening
    from okey_vision.yuzbir.lines import solve_lines101
    from okey_vision.yuzbir.rules import rack101

    held = rack101(held, out["photo"])  # 21 or 22 tiles, as the check takes a 101 rack
    if args.solve:
        from okey_vision.cli.solve import solve101_result

        out["solve"] = solve101_result([t.name for t in held.tiles], held.indicator.name, args)
        opening = best_opening(held, options=options101(args), highest=args.highest)
        return "\n".join(solve_lines101(opening, held.indicator, lang))
    advice = advise101(held, options=options101(args), highest=args.highest)
    out["advice"] = advice.to_dict(lang)
    return "\n".join(advice.lines(lang))


def format_reads(reads, width: int, height: int, lang: str = "en") -> str:
    """Readable rows: tile names, low-confidence ones marked with '?'
    (the words: :func:`okey_vision.coach.text.read_lines`)."""
    from okey_vision.coach.text import read_lines
    from okey_vision.lang import Lang
    from okey_vision.vision.reads import APART

    rows: dict[int, list] = {}
    for r in reads:
        rows.setdefault(r.row, []).append(r)
    named = [(None if row == APART else row, [(r.tile, r.low_confidence) for r in rows[row]])
             for row in sorted(rows, key=lambda k: (k == APART, k))]
    return "\n".join(read_lines(named, len(reads), width, height, Lang.of(lang)))
