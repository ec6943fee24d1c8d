"""The organiser's report: checked photos -> one HTML file that opens in any
browser with no server and nothing fetched (photos embedded as JPEG data
URIs, inline CSS, no script).

A summary at the top (the counts, and a row a photo linking to its card),
then one card a photo: the photo with its reads boxed (the app's drawing,
:func:`okey_vision.report.photo.draw_reads`), the verdict in large type and why,
the hand drawn grouped as the app draws it (:mod:`okey_vision.report.render`,
the groups of :func:`okey_vision.report.analysis.groups_for_display`), and the
reads to check by eye.
"""

from __future__ import annotations

import base64
from collections import Counter
from collections.abc import Sequence
from html import escape
from typing import TYPE_CHECKING

from okey_vision.check import text as words
from okey_vision.check.photos import Checked
from okey_vision.check.verdict import Verdict
from okey_vision.coach.text import scheme_label
from okey_vision.errors import OkeyError
from okey_vision.lang import Lang
from okey_vision.report import render
from okey_vision.report.analysis import Analysis, groups_for_display
from okey_vision.report.labels import error_message, tile_word
from okey_vision.scoring import COUNTDOWN, Scheme
from okey_vision.tiles import Game

if TYPE_CHECKING:  # numpy loads only when a photo is drawn
    from okey_vision.vision.io import Photo

#: The photo's long side in the report (px) and its JPEG quality: readable
#: labels, about 100-200 KB a photo.
FIGURE_SIDE = 1024
FIGURE_QUALITY = 80
#: The verdict kinds in the summary's order.
KINDS = ("yes", "no", "error")

CSS = """<style>
body{font:15px/1.4 system-ui,sans-serif;margin:0 auto;max-width:1100px;padding:16px;color:#212121;background:#fafafa}
h1{font-size:26px;margin:4px 0 8px 0}
.summary{background:#fff;border:1px solid #ddd;border-radius:10px;padding:12px 16px;margin-bottom:18px}
.counts{font-size:18px;font-weight:600;margin:4px 0 10px 0}
.counts span{display:inline-block;margin-right:18px}
table.rows{border-collapse:collapse;width:100%}
table.rows th,table.rows td{text-align:left;padding:4px 8px;border-bottom:1px solid #eee}
.card{background:#fff;border:1px solid #ddd;border-left:10px solid #9e9e9e;border-radius:10px;padding:12px 16px;
 margin:0 0 18px 0}
.card.yes{border-left-color:#2e7d32}.card.no{border-left-color:#c62828}.card.error{border-left-color:#757575}
.card h2{font-size:17px;margin:0 0 4px 0;word-break:break-all}
.verdict{font:800 34px/1.15 system-ui,sans-serif;margin:4px 0}
.yes .verdict,.v-yes{color:#2e7d32}.no .verdict,.v-no{color:#c62828}.error .verdict,.v-error{color:#616161}
.why{font-size:17px;margin:2px 0 10px 0}
.note{color:#8d6e00}
.card img{max-width:100%;max-height:520px;width:auto;height:auto;border-radius:6px;display:block;margin:6px 0}
.ind{display:flex;align-items:center;gap:10px}
.card h3{font-size:14px;text-transform:uppercase;letter-spacing:.04em;color:#666;margin:12px 0 2px 0}
.eye li{margin:2px 0}
.foot{color:#777;font-size:12px;margin-top:24px}
</style>"""


def figure(photo: Photo, verdict: Verdict, lang: Lang = Lang.EN) -> bytes:
    """The photo with every read boxed and labelled as the app draws it
    (long side :data:`FIGURE_SIDE`; in Turkish the labels are coloured
    chips, never the Latin notation), JPEG bytes."""
    import cv2
    import numpy as np

    from okey_vision.report.photo import draw_reads

    reads = [r.scaled(photo.scale) for r in verdict.reads]  # input pixels -> the decoded image's
    rgb = draw_reads(photo.image, reads, verdict.indicator, max_side=FIGURE_SIDE, lang=lang)
    ok, buf = cv2.imencode(".jpg", np.ascontiguousarray(rgb[:, :, ::-1]), [cv2.IMWRITE_JPEG_QUALITY, FIGURE_QUALITY])
    return buf.tobytes() if ok else b""


def counts(verdicts: Sequence[Verdict]) -> dict[str, int]:
    """How many photos can be declared ('yes'), cannot ('no'), were not checked ('error')."""
    seen = Counter(v.kind for v in verdicts)
    return {k: seen.get(k, 0) for k in KINDS}


def error_words(exc: OkeyError | None, lang: Lang = Lang.EN) -> str:
    """A photo's error in ``lang``: the check's own sentence, or the app's translation of a photo error."""
    if exc is None:
        return ""
    return words.error_text(exc, lang) or error_message(exc, lang)


def why(v: Verdict, lang: Lang = Lang.EN) -> str:
    """The verdict's sentence in ``lang`` (a photo error translated as the app does)."""
    return error_words(v.failure, lang) if v.failure is not None else v.why(lang)


def hand_groups(v: Verdict, lang: Lang = Lang.EN) -> str:
    """The hand drawn as the app draws it: the finishing melds or pairs and
    the discard, else the best runs and sets (or pairs) and the leftovers."""
    if v.hand is None or v.declaration is None or v.arrangement is None:
        return ""
    a = Analysis(v.hand, v.scheme, v.arrangement, v.declaration, None)
    melds, left, caption = groups_for_display(a, lang)
    discard = v.best.discard if v.best is not None else None
    return (f'<p class="cap">{escape(caption)}</p>'
            + render.hand_html(melds, left, v.okey, discard=discard, lang=lang))


def to_check(v: Verdict, lang: Lang = Lang.EN) -> str:
    """The reads the verdict rests on to check by eye: the place on the rack
    (or the indicator the verdict used), the tile drawn and said, how sure,
    what else it may be."""
    if v.failure is not None and not v.reads:
        return ""
    if not v.flagged:
        return f"<p>{escape(words.say('nothing_to_check', lang))}</p>"
    items = []
    for pos, r in v.flagged:
        others = ", ".join(f"{tile_word(t, lang)} {p:.0%}" for t, p in r.alternatives[1:3])
        tail = f" ({words.say('label.or', lang)} {escape(others)})" if others else ""
        items.append(f"<li>{render.chips_html([r.tile], lang=lang)} "
                     f"<b>{escape(words.check_by_eye(pos, r.tile, lang))}</b> {r.confidence:.0%}{tail}</li>")
    return f'<ul class="eye">{"".join(items)}</ul>'


def card(i: int, c: Checked, lang: Lang = Lang.EN) -> str:
    """One photo's card (anchor ``photo-I``)."""
    v = c.verdict
    parts = [f'<section class="card {v.kind}" id="photo-{i}" data-verdict="{v.kind}">',
             f'<h2><a href="#photo-{i}">{i}. {escape(v.photo)}</a></h2>',
             f'<div class="verdict">{escape(v.label(lang))}</div>',
             f'<p class="why">{escape(why(v, lang))}</p>']
    if v.note(lang):
        parts.append(f'<p class="note">{escape(v.note(lang))}</p>')
    if c.figure:
        data = base64.b64encode(c.figure).decode("ascii")
        parts.append(f'<img alt="{escape(v.photo)}" src="data:image/jpeg;base64,{data}">')
    if v.indicator is not None and v.okey is not None:
        line = words.indicator_line(v.indicator, v.source.said(lang), lang)
        parts.append(f"<h3>{escape(words.say('label.indicator', lang))}</h3><div class=\"ind\">"
                     f"{render.tile_html(v.indicator, small=True)}<span>{escape(line)}</span></div>")
    groups = hand_groups(v, lang)
    if groups:
        parts.append(f"<h3>{escape(words.say('label.hand', lang))}</h3>"
                     f"<p>{escape(words.tiles_line(len(v.rack), lang))}</p>{groups}")
    eye = to_check(v, lang)
    if eye:
        parts.append(f"<h3>{escape(words.say('label.check_by_eye', lang))}</h3>{eye}")
    parts.append("</section>")
    return "\n".join(parts)


def summary(checked: Sequence[Checked], lang: Lang = Lang.EN, game: Game = Game.OKEY) -> str:
    """The counts (in 101: open, not yet), and a row a photo linking to its card."""
    verdicts = [c.verdict for c in checked]
    n = counts(verdicts)
    line = words.summary(len(verdicts), n["yes"], n["no"], n["error"], lang, game)
    head = "".join(f"<th>{escape(words.say(k, lang))}</th>" for k in
                   ("label.photo", "label.verdict", "label.points", "label.distance", "label.to_check"))
    rows = []
    for i, v in enumerate(verdicts, start=1):
        dist = "" if v.distance is None else str(v.distance)
        rows.append(f'<tr class="row" data-verdict="{v.kind}"><td>{i}</td>'
                    f'<td><a href="#photo-{i}">{escape(v.photo)}</a></td>'
                    f'<td class="v-{v.kind}"><b>{escape(v.label(lang))}</b></td><td>{v.points or ""}</td>'
                    f"<td>{dist}</td><td>{len(v.flagged) or ''}</td></tr>")
    spans = "".join(f'<span id="count-{k}" data-count="{n[k]}" class="v-{k}">'
                    f"{escape(words.verdict_label(k, lang, game))}: {n[k]}</span>" for k in KINDS)
    return (f'<div class="summary" id="summary" data-photos="{len(verdicts)}"><p>{escape(line)}</p>'
            f'<div class="counts">{spans}</div>'
            f'<table class="rows"><tr><th>#</th>{head}</tr>{"".join(rows)}</table></div>')


def report_html(checked: Sequence[Checked], lang: Lang = Lang.EN, scheme: Scheme | str = COUNTDOWN,
                game: Game = Game.OKEY) -> str:
    """The whole report: one self-contained HTML page (``game``: 101's words, no scoring scheme)."""
    title = escape(words.say("label.title", lang))
    cards = "\n".join(card(i, c, lang) for i, c in enumerate(checked, start=1))
    foot = escape(words.say("made_by_101", lang) if game is Game.ONE_OH_ONE
                  else words.say("made_by", lang, scheme=scheme_label(scheme, lang)))
    return (f'<!DOCTYPE html>\n<html lang="{Lang.of(lang).value}"><head><meta charset="utf-8">'
            f'<meta name="viewport" content="width=device-width, initial-scale=1">'
            f"<title>{title}</title>{CSS}{render.css(lang)}</head>\n<body>\n<h1>{title}</h1>\n"
            f"{summary(checked, lang, game)}\n{cards}\n<p class=\"foot\">{foot}</p>\n</body></html>\n")


__all__ = ["FIGURE_SIDE", "counts", "error_words", "figure", "report_html", "summary", "why"]
