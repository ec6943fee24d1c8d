"""The ``okey-vision`` command line: thin glue over the library calls.

Subcommands: ``solve`` (arrange and declare a hand), ``synth`` (render
synthetic rack photos) and the commands registered in :data:`PLUGINS`.
Every domain error prints one line naming the bad input and exits with 2.
``--lang`` is taken before the command word or after it (each subcommand's
own ``--lang`` defaults to :data:`argparse.SUPPRESS`, so the one given
anywhere stands; English when none is).
"""

from __future__ import annotations

import argparse
import importlib
import json
import os
import sys
from collections.abc import Callable, Sequence
from contextlib import suppress

from okey_vision.errors import OkeyError, clip
from okey_vision.lang import Lang
from okey_vision.scoring import COUNTDOWN, SCHEMES
from okey_vision.solver import Arrangement, Declaration, arrange, declare
from okey_vision.tiles import Hand, okey_of

#: Subcommands living beside their subsystem: name -> (module, help). Each
#: module has ``add_arguments(parser)`` and ``run(args) -> int`` and keeps its
#: heavy imports inside ``run``.
PLUGINS: dict[str, tuple[str, str]] = {
    "synth": ("okey_vision.synth.command", "render synthetic rack photos with labels"),
    "advise": ("okey_vision.coach_command", "rank discards by distance to winning and outs"),
    "read": ("okey_vision.vision.command", "read the tiles in a rack photo"),
    "check": ("okey_vision.check_command", "check declared hands: photos or folders in, a verdict each (and a report)"),
    "calibrate": ("okey_vision.calibrate_command", "learn your own tile set from your corrections"),
}
#: The optional extra each subcommand's packages come from.
EXTRAS: dict[str, str] = {"synth": "synth", "read": "vision", "check": "vision", "calibrate": "vision"}
#: An error line is cut to this many characters (a bad input is quoted in it).
MAX_ERROR = 400


class CliError(OkeyError):
    """A command-line usage error that is reported in one line."""


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


def _run_solve(args: argparse.Namespace) -> int:
    if args.json:
        print(json.dumps(solve_result(args.tiles, args.indicator, args.scheme)))
        return 0
    hand = Hand.of(args.tiles, args.indicator)
    print(format_solve(arrange(hand), declare(hand, scheme=args.scheme), Lang.of(args.lang)))
    return 0


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, Callable[[argparse.Namespace], int]]]:
    """The argument parser and each subcommand's runner."""
    parser = argparse.ArgumentParser(
        prog="okey-vision",
        description="Read Okey racks, arrange hands, and coach the discard.",
    )
    parser.add_argument("--lang", choices=[lang.value for lang in Lang], default=Lang.EN.value,
                        help="the language of what is printed (en or tr); also taken after the command word")
    sub = parser.add_subparsers(dest="command", required=True)
    runners: dict[str, Callable[[argparse.Namespace], int]] = {}

    solve = sub.add_parser("solve", help="arrange a hand and say whether it can be declared")
    solve.add_argument("--indicator", "-i", required=True, help="the indicator tile, e.g. r3")
    solve.add_argument("--scheme", choices=SCHEMES, default=COUNTDOWN, help="scoring scheme")
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    solve.add_argument("--lang", choices=[lang.value for lang in Lang], default=argparse.SUPPRESS,
                       help="the language of the report (en or tr)")
    solve.add_argument("tiles", nargs="+", help="1 to 15 tiles, e.g. r1 r2 r3 fj k7")
    runners["solve"] = _run_solve

    for name, (module_name, help_text) in PLUGINS.items():
        # the plugin modules import only the standard library at the top, so
        # every subcommand is listed; a missing extra is reported when it runs
        module = importlib.import_module(module_name)
        plugin = sub.add_parser(name, help=help_text)
        module.add_arguments(plugin)
        runners[name] = module.run
    return parser, runners


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``okey-vision`` console script."""
    parser, runners = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    args = parser.parse_args(argv)
    args.argv = argv
    lang = Lang.of(getattr(args, "lang", Lang.EN))
    try:
        code = runners[args.command](args)
        sys.stdout.flush()  # a full disk under a redirection fails here at the latest: said below
        return code
    except BrokenPipeError:  # the reader went away (| head): nothing more to say
        sys.stderr.close()
        return 0
    except OkeyError as exc:
        from okey_vision.lang import error_message  # a domain error in the language asked for

        return _fail(args.command, error_message(exc, lang), lang)
    except OSError as exc:  # a write that failed past the command's own checks: one line, never a traceback
        return _fail(args.command, str(_write_failure(exc)), lang)
    except ImportError as exc:  # an optional extra that is not installed
        extra = EXTRAS.get(args.command, "vision")
        return _fail(args.command, f"needs the '{exc.name or exc}' package: "
                                   f"pip install 'okey-vision[{extra}]'")


def _write_failure(exc: OSError) -> OkeyError:
    """An OS error no command caught, as one sentence: the file it names; a
    write error naming none is the standard output's (the commands' own
    files are written through :mod:`okey_vision.files`, which names them),
    whose rest then goes nowhere."""
    import errno

    from okey_vision.errors import FileError, os_reason

    if exc.filename:
        return FileError.of(exc.filename, exc, doing="use")
    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG, errno.EIO):
        with open(os.devnull, "w") as sink, suppress(OSError, ValueError):  # no file behind it: nothing to do
            os.dup2(sink.fileno(), sys.stdout.fileno())  # what is left in the buffer is not written at exit
        return FileError.of("the standard output", exc, outcome="what was printed is cut short")
    return OkeyError(f"the command failed: {os_reason(exc)}")


def _fail(command: str, message: str, lang: Lang = Lang.EN) -> int:
    """Print one error line, a sentence with its full stop (the message cut
    to ``MAX_ERROR`` characters); exit status 2."""
    line = clip(" ".join(message.split()), MAX_ERROR)
    end = "" if line.endswith((".", "!", "?")) else "."  # one sentence, with its full stop
    error = "hata" if Lang.of(lang) is Lang.TR else "error"
    print(f"okey-vision {command}: {error}: {line}{end}", file=sys.stderr)
    return 2


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
