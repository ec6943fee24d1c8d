"""What every subcommand shares: the one-line error, the ``--lang`` option and
the optional extra each subcommand's packages come from."""

from __future__ import annotations

import argparse
import re
import sys
from typing import TYPE_CHECKING, NoReturn

from okey_vision.errors import MissingExtraError, OkeyError, clip
from okey_vision.lang import Lang, error_message, fill

if TYPE_CHECKING:
    from okey_vision.yuzbir.rules import Options101

#: The optional extra each subcommand's packages come from.
EXTRAS: dict[str, str] = {"synth": "synth", "read": "vision", "check": "vision", "calibrate": "vision",
                          "train": "train", "serve": "serve"}
#: An error line is cut to this many characters (a bad input is quoted in it).
MAX_ERROR = 400


#: key -> (English, Turkish): the command line's own sentences (its usage
#: errors), said by :class:`CliError` in the language asked for.
SENTENCES: dict[str, tuple[str, str]] = {
    "at_least_1": ("{option} {value}: at least 1.", "{option} {value}: en az 1 olmalı."),
    "limit_mb": ("--limit-mb {value}: between 0 and 4096.", "--limit-mb {value}: 0 ile 4096 arasında olmalı."),
    "port": ("--port {value}: a port is 1-65535.", "--port {value}: port 1 ile 65535 arasında olur."),
    "only_101": ("{options} are 101's: add --game 101.", "{options} yalnız 101'de geçerli: --game 101 ekle."),
    "no_hand": ("no hand given: write the 15 tiles (14 with --offered) after the options.",
                "el verilmedi: seçeneklerden sonra 15 taşı yaz (--offered ile 14)."),
    "no_hand_101": ("no hand given: write the tiles you hold (at most 22) after the options.",
                    "el verilmedi: seçeneklerden sonra elindeki taşları yaz (en çok 22)."),
    "seen_one": ('--seen takes one argument: write --seen "{value} {after} ..." (quoted) or --seen a,b, or put '
                 "the hand before --seen.",
                 '--seen tek bir değer alır: --seen "{value} {after} ..." yaz (tırnak içinde) ya da --seen a,b, '
                 "ya da eli --seen'den önce yaz."),
    "workers": ("--workers {value}: at least one worker.", "--workers {value}: en az bir işçi olmalı."),
    "html_folder": ("--html {path}: no such folder {folder}.", "--html {path}: {folder} diye bir klasör yok."),
    # argparse's own usage errors (ARGPARSE below reads its English messages into these)
    "no_command": ("give a command (see --help).", "bir komut yaz (--help'e bak)."),
    "unknown_command": ("{value} is not a command: {choices}.", "{value} diye bir komut yok: {choices}."),
    "required": ("{options} must be given (see --help).", "{options} verilmeli (--help'e bak)."),
    "unrecognized": ("unknown arguments {options} (see --help).", "bilinmeyen argümanlar {options} (--help'e bak)."),
    "choice": ("{option} {value}: choose one of {choices}.", "{option} {value}: şunlardan biri olmalı: {choices}."),
    "one_value": ("{option} takes one value.", "{option} bir değer alır."),
    "some_values": ("{option} takes at least one value.", "{option} en az bir değer alır."),
    "no_value": ("{option} takes no value: {value}.", "{option} değer almaz: {value}."),
    "number": ("{option} {value}: not a number.", "{option} {value}: sayı değil."),
    "bad_value": ("{option} {value}: not a value it takes.", "{option} {value}: bu seçenek bunu almaz."),
    "ambiguous": ("{option} could be {options}: write it in full.",
                  "{option} şunlardan biri olabilir: {options}; tam yaz."),
    "not_with": ("{option} cannot be given with {other}.", "{option}, {other} ile birlikte verilemez."),
    "usage": ("{message} (see --help).", "{message} (--help'e bak)."),
}

#: argparse's English usage errors (Python 3.11-3.13 wording) -> the key of
#: :data:`SENTENCES` that says them, its fields from the message's groups:
#: argparse says them in English only, whatever ``--lang`` asks for.
ARGPARSE: tuple[tuple[re.Pattern[str], str], ...] = tuple((re.compile(pattern, re.S), key) for pattern, key in (
    (r"the following arguments are required: command$", "no_command"),
    (r"argument command: invalid choice: (?P<value>.+?) \(choose from (?P<choices>.*)\)$", "unknown_command"),
    (r"the following arguments are required: (?P<options>.+)$", "required"),
    (r"unrecognized arguments: (?P<options>.+)$", "unrecognized"),
    (r"argument (?P<option>\S+): invalid choice: (?P<value>.+?) \(choose from (?P<choices>.*)\)$", "choice"),
    (r"argument (?P<option>\S+): expected (?:one|at most one) argument$", "one_value"),
    (r"argument (?P<option>\S+): expected at least one argument$", "some_values"),
    (r"argument (?P<option>\S+): ignored explicit argument (?P<value>.+)$", "no_value"),
    (r"argument (?P<option>\S+): invalid (?:int|float) value: (?P<value>.+)$", "number"),
    (r"argument (?P<option>\S+): invalid \S+ value: (?P<value>.+)$", "bad_value"),
    (r"ambiguous option: (?P<option>\S+?)(?:=\S*)? could match (?P<options>.+)$", "ambiguous"),
    (r"argument (?P<option>\S+): not allowed with argument (?P<other>.+)$", "not_with"),
))


def say(key: str, lang: Lang | str = Lang.EN, **fields: object) -> str:
    """The command line's sentence ``key`` in ``lang``.

    >>> say("port", Lang.TR, value=0)
    '--port 0: port 1 ile 65535 arasında olur.'
    """
    return fill(SENTENCES, key, lang, **fields)


def options_said(options: list[str], lang: Lang | str = Lang.EN) -> str:
    """Options in a row as a sentence lists them: "a, b and c" ("a, b ve c").

    >>> options_said(["--a", "--b", "--c"]), options_said(["--a", "--b"], Lang.TR)
    ('--a, --b and --c', '--a ve --b')
    """
    last = " ve " if Lang.of(lang) is Lang.TR else " and "
    return ", ".join(options[:-1]) + last + options[-1] if len(options) > 1 else "".join(options)


class CliError(OkeyError):
    """A command-line usage error that is reported in one line: a sentence of
    :data:`SENTENCES` by its key ('cli.*'), said in the language asked for.

    >>> from okey_vision.lang import error_message
    >>> error_message(CliError.of("at_least_1", option="--replicas", value=0), Lang.TR)
    '--replicas 0: en az 1 olmalı'
    """

    @classmethod
    def of(cls, key: str, **fields: object) -> CliError:
        """The error ``key`` with its English sentence."""
        return cls(cls._said(key, Lang.EN, fields), f"cli.{key}", **fields)

    def said(self, lang: str = "en") -> str | None:
        """The sentence in ``lang``."""
        name = self.key.removeprefix("cli.")
        return self._said(name, lang, self.fields) if name in SENTENCES else None

    @staticmethod
    def _said(key: str, lang: Lang | str, fields: dict[str, object]) -> str:
        """Sentence ``key``; a list of ``options`` is joined in the language's words."""
        options = fields.get("options")
        said = dict(fields, options=options_said(options, lang)) if isinstance(options, list) else fields
        return say(key, lang, **said).rstrip(".")


class UsageParser(argparse.ArgumentParser):
    """An argument parser whose usage errors are :class:`CliError` (one
    sentence in the language asked for), not argparse's English usage block.

    >>> from okey_vision.lang import error_message
    >>> p = UsageParser(prog="okey-vision solve")
    >>> _ = p.add_argument("--game", choices=["okey", "101"])
    >>> try:
    ...     p.parse_args(["--game", "7"])
    ... except CliError as exc:
    ...     print(error_message(exc, Lang.TR))
    --game '7': şunlardan biri olmalı: 'okey', '101'
    """

    def error(self, message: str) -> NoReturn:
        """Raise the usage error ``message`` (argparse's English) as a :class:`CliError`."""
        raise usage_error(message, self.prog)


def usage_error(message: str, prog: str = "okey-vision") -> CliError:
    """argparse's English usage error ``message`` as the :class:`CliError` that
    says it in either language (an unknown wording: said as it is, in English);
    ``prog`` (the command it came from) rides along as the field ``command``.

    >>> usage_error("argument --highest: invalid int value: 'x'").said("tr")
    "--highest 'x': sayı değil"
    """
    command = prog.removeprefix("okey-vision").strip()
    for pattern, key in ARGPARSE:
        match = pattern.match(message)
        if match:
            return CliError.of(key, command=command, **match.groupdict())
    return CliError.of("usage", command=command, message=message)


def lang_in(argv: list[str]) -> Lang:
    """The ``--lang`` a command line asks for, read before argparse has read it (English when none or unknown).

    >>> lang_in(["solve", "--lang", "tr"]), lang_in(["--lang=tr"]), lang_in(["--lang"])
    (<Lang.TR: 'tr'>, <Lang.TR: 'tr'>, <Lang.EN: 'en'>)
    """
    said = Lang.EN.value
    for i, arg in enumerate(argv):
        if arg == "--lang" and i + 1 < len(argv):
            said = argv[i + 1]
        elif arg.startswith("--lang="):
            said = arg.partition("=")[2]
    return Lang.TR if said == Lang.TR.value else Lang.EN


def only_101(options: list[str]) -> CliError:
    """The refusal of 101's ``options`` given to classic Okey (solve, advise, read alike)."""
    return CliError.of("only_101", options=options)


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
    where = f"okey-vision {command}" if command else "okey-vision"
    print(f"{where}: {error}: {line}{end}", file=sys.stderr)
    return 2


def missing_extra(command: str, exc: ImportError, lang: Lang | str = Lang.EN) -> int:
    """The error line of a subcommand whose optional extra is not installed."""
    error = MissingExtraError.of(str(exc.name or exc), EXTRAS.get(command, "vision"))
    return fail(command, error_message(error, Lang.of(lang)), lang)


__all__ = ["ARGPARSE", "EXTRAS", "MAX_ERROR", "SENTENCES", "CliError", "UsageParser", "add_game", "add_lang", "fail",
           "lang_in", "missing_extra", "only_101", "options101", "options_said", "say", "usage_error"]
