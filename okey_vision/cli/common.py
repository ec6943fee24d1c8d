"""What every subcommand shares: the one-line error, the ``--lang`` option and
the optional extra each subcommand's packages come from."""

from __future__ import annotations

import argparse
import sys
from typing import TYPE_CHECKING

from okey_vision.errors import OkeyError, clip
from okey_vision.lang import Lang

if TYPE_CHECKING:
    from okey_vision.yuzbir.rules import Options101

#: The optional extra each subcommand's packages come from.
EXTRAS: dict[str, str] = {"synth": "synth", "read": "vision", "check": "vision", "calibrate": "vision",
                          "train": "train", "serve": "serve"}
#: An error line is cut to this many characters (a bad input is quoted in it).
MAX_ERROR = 400


class CliError(OkeyError):
    """A command-line usage error that is reported in one line."""


def add_lang(parser: argparse.ArgumentParser, what: str, top: bool = False) -> None:
    """The ``--lang`` option: the language of ``what`` (en or tr). A
    subcommand's own option defaults to :data:`argparse.SUPPRESS`, so the one
    given before the command word (``top``, English by default) stands unless
    it is given after it too."""
    parser.add_argument("--lang", choices=[lang.value for lang in Lang],
                        default=Lang.EN.value if top else argparse.SUPPRESS,
                        help=f"the language of {what} (en or tr)")


def add_game(parser: argparse.ArgumentParser) -> None:
    """The ``--game`` option (classic Okey by default, or 101) and the 101 house options."""
    from okey_vision.tiles import Game

    parser.add_argument("--game", choices=[g.value for g in Game], default=Game.OKEY.value,
                        help="the game: okey (classic, the default) or 101")
    parser.add_argument("--highest", type=int, default=0, metavar="POINTS",
                        help="101: the highest opening so far (with --beat-highest)")
    parser.add_argument("--beat-highest", action="store_true",
                        help="101 house rule: an opening must beat the highest so far")
    parser.add_argument("--no-ace-after-13", action="store_true", help="101 house rule: no 12-13-1 runs")


def options101(args: argparse.Namespace) -> Options101:
    """The 101 house options the command line was given."""
    from okey_vision.yuzbir.rules import Options101

    return Options101(beat_highest=args.beat_highest, ace_after_13=not args.no_ace_after_13)


def fail(command: str, message: str, lang: Lang | str = Lang.EN) -> int:
    """Print one error line, a sentence with its full stop (the message cut
    to ``MAX_ERROR`` characters), in ``lang``; exit status 2."""
    line = clip(" ".join(message.split()), MAX_ERROR)
    end = "" if line.endswith((".", "!", "?")) else "."  # one sentence, with its full stop
    error = "hata" if Lang.of(lang) is Lang.TR else "error"
    print(f"okey-vision {command}: {error}: {line}{end}", file=sys.stderr)
    return 2


def missing_extra(command: str, exc: ImportError) -> int:
    """The error line of a subcommand whose optional extra is not installed."""
    extra = EXTRAS.get(command, "vision")
    return fail(command, f"needs the '{exc.name or exc}' package: pip install 'okey-vision[{extra}]'")


__all__ = ["EXTRAS", "MAX_ERROR", "CliError", "add_game", "add_lang", "fail", "missing_extra", "options101"]
