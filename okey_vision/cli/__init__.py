"""The ``okey-vision`` command line: thin glue over the library calls.

One module a subcommand (:data:`COMMANDS`): ``solve`` (arrange and declare a
hand), ``advise``, ``read``, ``check``, ``calibrate``, ``synth``,
``train`` and ``serve``; what they share (the error line, ``--lang``, the extras) is in
:mod:`okey_vision.cli.common`. Nothing else in the package imports this one.
Every domain error prints one line naming the bad input and exits with 2.
``--lang`` is taken before the command word or after it (each subcommand's
own ``--lang`` defaults to :data:`argparse.SUPPRESS`, so the one given
anywhere stands; English when none is).
"""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Callable, Sequence
from contextlib import suppress

from okey_vision.cli import advise, calibrate, check, read, serve, solve, synth, train
from okey_vision.cli.common import CliError, UsageParser, add_lang, fail, lang_in, missing_extra
from okey_vision.errors import OkeyError
from okey_vision.lang import Lang

#: Subcommand -> (its module, help). Each module has ``add_arguments(parser)``
#: and ``run(args) -> int`` and keeps its heavy imports inside ``run``, so
#: every subcommand is listed; a missing extra is reported when it runs.
COMMANDS = {
    "solve": (solve, "arrange a hand and say whether it can be declared"),
    "synth": (synth, "render synthetic rack photos with labels"),
    "advise": (advise, "rank discards by distance to winning and outs"),
    "read": (read, "read the tiles in a rack photo"),
    "check": (check, "check declared hands: photos or folders in, a verdict each (and a report)"),
    "calibrate": (calibrate, "learn your own tile set from your corrections"),
    "train": (train, "train, export or mix the reader's models (the train extra)"),
    "serve": (serve, "serve the reader to many tables on Ray Serve (the serve extra)"),
}


def build_parser() -> tuple[argparse.ArgumentParser, dict[str, Callable[[argparse.Namespace], int]]]:
    """The argument parser and each subcommand's runner."""
    parser = UsageParser(
        prog="okey-vision",
        description="Read Okey racks, arrange hands, and coach the discard.",
    )
    add_lang(parser, "what is printed (also taken after the command word)", top=True)
    sub = parser.add_subparsers(dest="command", required=True)
    runners: dict[str, Callable[[argparse.Namespace], int]] = {}
    for name, (module, help_text) in COMMANDS.items():
        command = sub.add_parser(name, help=help_text)
        module.add_arguments(command)
        runners[name] = module.run
    return parser, runners


def main(argv: Sequence[str] | None = None) -> int:
    """Entry point of the ``okey-vision`` console script."""
    parser, runners = build_parser()
    argv = list(sys.argv[1:] if argv is None else argv)
    try:
        args = parser.parse_args(argv)
    except CliError as exc:  # argparse's usage error, as one sentence in the language asked for
        from okey_vision.lang import error_message

        said = lang_in(argv)
        return fail(str(exc.fields.get("command", "")), error_message(exc, said), said)
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

        return fail(args.command, error_message(exc, lang), lang)
    except OSError as exc:  # a write that failed past the command's own checks: one line, never a traceback
        return fail(args.command, str(_write_failure(exc)), lang)
    except ImportError as exc:  # an optional extra that is not installed
        return missing_extra(args.command, exc, lang)


def capture(argv: Sequence[str]) -> str:
    """The command line's standard output for ``argv``, run in this process
    (a failing command raises :class:`RuntimeError` with its exit status)."""
    import contextlib
    import io

    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        code = main(argv)
    if code != 0:
        raise RuntimeError(f"okey-vision {' '.join(argv)}: exit {code}")
    return out.getvalue()


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


__all__ = ["COMMANDS", "build_parser", "capture", "main"]
