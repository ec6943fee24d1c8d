"""``okey-vision check PATH...``: check declared hands, one photo after another.

PATH is a photo or a folder of photos. Each photo's indicator comes from its
sidecar (``NAME.txt`` beside it holding ``r3`` or a line ``indicator r3``),
else the photo itself (the tile lying beside the rack), else
``--indicator``, which fills only the photos that show none. For each
photo: the reads (flagged ones marked ``?``), the hand, whether it can be
declared (14 tiles finished as they are, or 15 with the discard that
finishes), the best finish with its melds or pairs and points,
or how far the hand is and why; a photo that cannot be checked is one row
with its error. ``--json`` prints one object a photo (JSON Lines, in the
order given); ``--html`` writes the report. Exit status: 0 when every hand
can be declared, 1 when any cannot (or was not checked), 2 on bad usage.
"""

from __future__ import annotations

import argparse
import json
import sys
from contextlib import ExitStack, contextmanager

from okey_vision.cli.common import add_game, add_lang
from okey_vision.lang import Lang
from okey_vision.scoring import COUNTDOWN, SCHEMES
from okey_vision.tiles import Game

DESCRIPTION = """\
Check declared hands: for each photo, the reads (flagged ones marked '?'), the
hand, whether it can be declared (14 tiles finished as they are, or 15 with
the discard that finishes), the best finish with its melds or pairs and its
points, or how far the hand is (the coach's distance) and why. A photo that
cannot be checked (empty, damaged, no tiles) is one row with its error.

The indicator of a photo: its sidecar NAME.txt beside it (holding 'r3', or a
line 'indicator r3'), else the tile lying beside the rack, else --indicator
(which never replaces the indicator a photo shows).

Exit status: 0 when every hand can be declared, 1 when any cannot (or a photo
was not checked), 2 on bad usage.

  okey-vision check hands/                      # a folder, a progress bar
  okey-vision check a.jpg b.jpg -i r3 --json    # one JSON object a photo
  okey-vision check hands/ --html report.html   # the report, for any browser
  okey-vision check hands/ --ray --json         # the same rows, the photos spread over a one-machine Ray
  okey-vision check hands/ --ray auto           # ... over the Ray cluster this machine belongs to
"""

#: Exit statuses: every hand can be declared; some cannot (or a photo was not checked).
ALL_DECLARE, NOT_ALL = 0, 1


def add_arguments(parser: argparse.ArgumentParser) -> None:
    """The ``check`` subcommand's options."""
    parser.formatter_class = argparse.RawDescriptionHelpFormatter
    parser.description = DESCRIPTION
    parser.add_argument("paths", nargs="+", metavar="PATH", help="a photo, or a folder of photos")
    parser.add_argument("--indicator", "-i", metavar="TILE",
                        help="the indicator, e.g. r3, for the photos that show none and have no sidecar")
    parser.add_argument("--scheme", choices=SCHEMES, default=COUNTDOWN, help="scoring scheme")
    parser.add_argument("--html", metavar="REPORT.html", help="also write the report (one HTML file, no server)")
    parser.add_argument("--json", action="store_true", help="print one JSON object a photo (JSON Lines)")
    add_game(parser)
    parser.add_argument("--ray", nargs="?", const="", default=None, metavar="ADDRESS",
                        help="spread the photos over a Ray cluster's workers (the serve extra): ADDRESS joins a "
                             "running cluster ('auto', ray://HOST:10001); none starts a one-machine Ray here")
    parser.add_argument("--workers", type=int, metavar="N",
                        help="with --ray: the workers, one core each (default: the cluster's cores)")
    add_lang(parser, "the verdicts and the report")


def run(args: argparse.Namespace) -> int:
    """Check every photo; print the rows (and write the report)."""
    from pathlib import Path

    from okey_vision.cli.common import CliError
    from okey_vision.errors import require
    from okey_vision.tiles import okey_of, parse_tile

    for module in ("numpy", "cv2"):
        require(module, "vision", "checking photos")
    if args.ray is not None:
        require("ray", "serve", "checking on Ray (--ray)")
        if args.workers is not None and args.workers < 1:
            raise CliError.of("workers", value=args.workers)
    from okey_vision.check.photos import Job, photos_in
    from okey_vision.errors import printable
    from okey_vision.files import Pending

    indicator = parse_tile(args.indicator) if args.indicator else None
    if indicator is not None:
        okey_of(indicator)  # a false joker is no indicator: the tile set's one sentence for it
    html = Path(args.html) if args.html else None
    if html is not None and not html.parent.is_dir():
        raise CliError.of("html_folder", path=args.html, folder=html.parent)
    photos = photos_in(args.paths)  # a path naming no photo: its sentence, in the language asked for
    jobs = [Job.of_path(p, indicator) for p in photos]
    # The report's file is made (as a temporary file beside it) before any photo is read: a place that
    # cannot be written fails now; the earlier report is replaced whole at the end, never emptied first.
    with ExitStack() as done:
        report = done.enter_context(Pending(html, "no photo was read")) if html is not None else None
        checked = check_rows(jobs, args, report is not None)
        if report is not None:
            from okey_vision.report.html import report_html

            report.outcome = "the photos were checked, the earlier report is as it was"
            lang = Lang.of(getattr(args, "lang", Lang.EN))
            game = Game.parse(getattr(args, "game", "okey"))
            report.write(report_html(checked, lang, args.scheme, game).encode("utf-8", "replace"))
            report.commit()
            from okey_vision.check import text as words

            print(words.say("report_written", lang, path=printable(str(html))), file=sys.stderr)
    return ALL_DECLARE if all(c.verdict.can_declare for c in checked) else NOT_ALL


def check_rows(jobs: list, args: argparse.Namespace, drawn: bool) -> list:
    """Check every photo, printing its row (and the summary) as it comes; the checked photos."""
    from functools import partial
    from pathlib import Path

    from okey_vision.check.photos import check_all
    from okey_vision.report.html import figure as draw

    lang = Lang.of(getattr(args, "lang", Lang.EN))
    bar = progress(len(jobs), any(Path(p).is_dir() for p in args.paths))
    checked = []
    figure = partial(draw, lang=lang) if drawn else None  # drawn only for the report, its labels in the language
    from okey_vision.cli.common import options101

    game = Game.parse(getattr(args, "game", "okey"))
    rules101 = options101(args) if game is Game.ONE_OH_ONE else None
    with ExitStack() as done:
        if getattr(args, "ray", None) is not None:  # the same checks, on a Ray cluster's workers
            rows = done.enter_context(on_ray(jobs, args, figure, game, rules101))
        else:
            rows = check_all(jobs, scheme=args.scheme, figure=figure, game=game, options101=rules101)
        for c in rows:
            checked.append(c)
            say(row_json(c.verdict, lang) if args.json else row_lines(c.verdict, lang), bar)
    if bar is not None:
        bar.close()
    if not args.json:
        say(summary_line([c.verdict for c in checked], lang, game), None)
    return checked


@contextmanager
def on_ray(jobs: list, args: argparse.Namespace, figure, game, rules101):
    """The checked photos from a Ray cluster's workers (``--ray``): a one-machine Ray started here for
    the check when no address is given, stopped after it."""
    from okey_vision.serve import cluster, spread

    started = cluster.connect(args.ray or None)
    try:
        workers = args.workers or cluster.cluster_cpus()
        yield spread.check_on_ray(jobs, workers, scheme=args.scheme, figure=figure, game=game, options101=rules101)
    finally:
        if started:
            cluster.shutdown()


def progress(total: int, folders: bool):
    """A tqdm bar on stderr for folders, on a terminal only (None otherwise, or without tqdm)."""
    if not folders or not sys.stderr.isatty():
        return None
    try:
        from tqdm import tqdm
    except ImportError:  # the bar is a comfort: without tqdm, none
        return None
    return tqdm(total=total, unit="photo", file=sys.stderr, dynamic_ncols=True)


def say(text: str, bar) -> None:
    """Print a row (above the bar, when there is one) and advance the bar;
    :class:`~okey_vision.errors.FileError` when the output cannot be written
    (a redirection to a full disk)."""
    try:
        if bar is None:
            print(text, flush=True)
            return
        bar.write(text, file=sys.stdout)
        bar.update(1)
    except BrokenPipeError:
        raise
    except OSError as exc:
        from okey_vision.errors import FileError

        raise FileError.of("the standard output", exc, outcome="the rows after it were not printed") from None


def row_json(v, lang: Lang = Lang.EN) -> str:
    """One photo's JSON object, on one line (its ``why`` in ``lang``)."""
    return json.dumps(v.to_dict(lang), ensure_ascii=False)


def shout(label: str, lang: Lang = Lang.EN) -> str:
    """A verdict in capitals (Turkish ones with their dotted capital: BİTER).

    >>> shout("Biter", Lang.TR), shout("Can be declared")
    ('BİTER', 'CAN BE DECLARED')
    """
    if Lang.of(lang) is Lang.TR:
        label = label.replace("i", "İ").replace("ı", "I")
    return label.upper()


def row_lines(v, lang: Lang = Lang.EN) -> str:
    """One photo's rows: the verdict and why; the reads (flagged with '?'),
    the indicator; the finish's melds or pairs."""
    from okey_vision.check import text as words
    from okey_vision.coach.text import meld_label, meld_text
    from okey_vision.lang import tile_word
    from okey_vision.report.html import why

    said = why(v, lang)
    if said.startswith(f"{v.photo}: "):  # an error naming the photo: named once, at the start
        said = said[len(v.photo) + 2:]
    lines = [f"{v.photo}: {shout(v.label(lang), lang)}. {said}"]
    sep = ", " if Lang.of(lang) is Lang.TR else " "  # tiles in words need commas
    if v.reads:
        marked = {id(r) for _, r in v.flagged}
        tiles = sep.join(tile_word(r.tile, lang) + ("?" if id(r) in marked else "") for r in v.rack)
        apart = sep.join(tile_word(r.tile, lang) + ("?" if id(r) in marked else "") for r in v.apart)
        lines.append(f"  {words.say('label.hand', lang)} ({len(v.rack)}): {tiles}" + (f"  | {apart}" if apart else ""))
    if v.indicator is not None:
        lines.append("  " + words.indicator_line(v.indicator, v.source.said(lang), lang))
    if v.note(lang):
        lines.append("  " + v.note(lang))
    best = v.best
    laid = v.opening.laid if v.opening is not None else best.melds if best is not None else ()
    for meld in laid:
        lines.append(f"    {meld_label(meld.kind, lang):<5} {meld_text(meld, lang)}")
    if v.flagged:
        shown = ", ".join(words.check_by_eye(pos, r.tile, lang) + "?" for pos, r in v.flagged)
        lines.append("  " + words.say("to_check_line", lang, tiles=shown))
    return "\n".join(lines)


def summary_line(verdicts, lang: Lang = Lang.EN, game: Game = Game.OKEY) -> str:
    """The counts, as the report's summary says them (in 101: open, not yet)."""
    from okey_vision.check import text as words
    from okey_vision.report.html import counts

    n = counts(verdicts)
    return words.summary(len(verdicts), n["yes"], n["no"], n["error"], lang, game)
