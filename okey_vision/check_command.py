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

from okey_vision.lang import Lang
from okey_vision.scoring import COUNTDOWN, SCHEMES

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
    parser.add_argument("--lang", choices=[lang.value for lang in Lang], default=argparse.SUPPRESS,
                        help="the language of the verdicts and the report (en or tr)")


def run(args: argparse.Namespace) -> int:
    """Check every photo; print the rows (and write the report)."""
    from pathlib import Path

    from okey_vision.cli import CliError
    from okey_vision.errors import require
    from okey_vision.tiles import parse_tile

    for module in ("numpy", "cv2"):
        require(module, "vision", "checking photos")
    from okey_vision.check.photos import Job, UsageError, check_all, photos_in

    indicator = parse_tile(args.indicator) if args.indicator else None
    if indicator is not None and indicator.is_false_joker:
        raise CliError("a false joker ('fj') cannot be the indicator")
    html = Path(args.html) if args.html else None
    if html is not None and not html.parent.is_dir():
        raise CliError(f"--html {args.html}: no such folder {html.parent}")
    try:
        photos = photos_in(args.paths)
    except UsageError as exc:
        raise CliError(str(exc)) from None
    jobs = [Job.of_path(p, indicator) for p in photos]
    from functools import partial

    from okey_vision.ui.report import figure as draw

    lang = Lang.of(getattr(args, "lang", Lang.EN))
    figure = partial(draw, lang=lang) if html is not None else None  # the photos are drawn only for the report
    bar = progress(len(jobs), any(Path(p).is_dir() for p in args.paths))
    checked = []
    for c in check_all(jobs, scheme=args.scheme, figure=figure):
        checked.append(c)
        say(row_json(c.verdict, lang) if args.json else row_lines(c.verdict, lang), bar)
    if bar is not None:
        bar.close()
    if not args.json:
        print(summary_line([c.verdict for c in checked], lang))
    if html is not None:
        from okey_vision.ui.report import report_html

        html.write_text(report_html(checked, lang, args.scheme), encoding="utf-8")
        from okey_vision.check import text as words

        print(words.say("report_written", lang, path=html), file=sys.stderr)
    return ALL_DECLARE if all(c.verdict.can_declare for c in checked) else NOT_ALL


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
    """Print a row (above the bar, when there is one) and advance the bar."""
    if bar is None:
        print(text, flush=True)
        return
    bar.write(text, file=sys.stdout)
    bar.update(1)


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
    from okey_vision.ui.report import why

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
    for meld in best.melds if best is not None else ():
        lines.append(f"    {meld_label(meld.kind, lang):<5} {meld_text(meld, lang)}")
    if v.flagged:
        shown = ", ".join(words.check_by_eye(pos, r.tile, lang) + "?" for pos, r in v.flagged)
        lines.append("  " + words.say("to_check_line", lang, tiles=shown))
    return "\n".join(lines)


def summary_line(verdicts, lang: Lang = Lang.EN) -> str:
    """The counts, as the report's summary says them."""
    from okey_vision.check import text as words
    from okey_vision.ui.report import counts

    n = counts(verdicts)
    return words.summary(len(verdicts), n["yes"], n["no"], n["error"], lang)
