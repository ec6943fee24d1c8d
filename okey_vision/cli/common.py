"""What every subcommand shares: the one-line error, the ``--lang`` option and
the optional extra each subcommand's packages come from."""

from __future__ import annotations

import argparse
import sys

from okey_vision.errors import OkeyError, clip
from okey_vision.lang import Lang

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


__all__ = ["EXTRAS", "MAX_ERROR", "CliError", "add_lang", "fail", "missing_extra"]
