"""The organiser's page, "Check hands": many photos of declared
hands uploaded at once, each read and checked (:mod:`okey_vision.check`),
shown as the report's cards (:mod:`okey_vision.report.html`), and the report
offered for download. Opened by its switch in the sidebar (the players'
phone page keeps its room), or ``?page=check``. It follows the game switch:
in 101 each rack is judged by its best opening, as ``okey-vision check
--game 101`` does (the default house options: a photo's opening is judged
on its own, not against a table's highest so far)."""

from __future__ import annotations

import hashlib
from functools import partial
from html import escape

import streamlit as st

from okey_vision.app.sections.common import FACE_NAMES, html, log, reader
from okey_vision.app.sections.photo import IMAGE_TYPES, widget_css
from okey_vision.app.state import AppState
from okey_vision.check import text as words
from okey_vision.check.photos import Checked, Job, check_all
from okey_vision.lang import tile_word
from okey_vision.report import html as report
from okey_vision.report import render
from okey_vision.tiles import Game, parse_tile

#: The CSS of the verdict in large type, as the report draws it.
PAGE_CSS = ("<style>.okc-verdict{font:800 30px/1.15 system-ui,sans-serif;margin:2px 0}"
            ".okc-yes{color:#2e7d32}.okc-no{color:#c62828}.okc-error{color:#616161}</style>")


def check_switch(app: AppState) -> bool:
    """The page's switch (on with ``?page=check``): whether the check page is shown."""
    if "check_on" not in st.session_state:
        st.session_state.check_on = st.query_params.get("page") == "check"
    return st.toggle(words.say("label.page", app.lang), key="check_on")


def check_page(app: AppState) -> None:
    """Uploads in; the summary, the report to download, a card a photo."""
    lang = app.lang
    tail = "_101" if app.game is Game.ONE_OH_ONE else ""  # the page's words in the game played
    st.markdown(f"#### {words.say('label.page', lang)}")
    st.caption(words.say("page_help" + tail, lang))
    html(widget_css(lang))  # the uploader's own words in the page's language
    files = st.file_uploader(words.say("label.uploads" + tail, lang), type=IMAGE_TYPES, accept_multiple_files=True,
                             key="check_uploads") or []
    fallback = st.selectbox(words.say("label.fallback", lang), FACE_NAMES, index=None,
                            placeholder=words.say("label.fallback_none", lang), key="check_indicator",
                            format_func=lambda v: tile_word(v, lang))
    if not files:
        return
    uploads = [(f.name, f.getvalue()) for f in files]
    key = signature(uploads, fallback, app.scheme, app.lang, app.game.value)
    if app.checks is None or app.checks.key != key:
        read, msg = reader()
        if read is None:
            st.warning(words.say("reader_missing", lang, why=msg))
            return
        app.set_checks(key, run_checks(uploads, fallback, app, read))
    assert app.checks is not None
    show_checks(app, list(app.checks.checked))


def signature(uploads: list[tuple[str, bytes]], fallback: str | None, scheme: str, lang: str = "en",
              game: str = "okey") -> str:
    """What a check depends on: the photos' names and bytes, the indicator chosen, the scheme, the
    language (the photos' labels are drawn in it), the game."""
    h = hashlib.sha1(f"{fallback}|{scheme}|{lang}|{game}".encode())
    for name, data in uploads:
        h.update(name.encode() + b"\0" + hashlib.sha1(data).digest())
    return h.hexdigest()


def run_checks(uploads: list[tuple[str, bytes]], fallback: str | None, app: AppState, read) -> list[Checked]:
    """Every upload checked (in parallel), with a progress bar."""
    indicator = parse_tile(fallback) if fallback else None
    jobs = [Job.of_upload(name, data, indicator) for name, data in uploads]
    bar = st.progress(0.0, text=words.checking(len(jobs), app.lang))
    done: list[Checked] = []
    game = app.game
    for c in check_all(jobs, read, app.scheme, partial(report.figure, lang=app.lang), app=True, game=game):
        done.append(c)
        bar.progress(len(done) / len(jobs), text=words.checking(len(jobs), app.lang))
    bar.empty()
    n = report.counts([c.verdict for c in done])
    log.info("checked %d photos (%s): %d yes, %d no, %d not checked", len(done), game.value, n["yes"], n["no"],
             n["error"])
    return done


def show_checks(app: AppState, checked: list[Checked]) -> None:
    """The counts, the report to download, then a card a photo."""
    lang = app.lang
    n = report.counts([c.verdict for c in checked])
    st.markdown("**" + words.summary(len(checked), n["yes"], n["no"], n["error"], lang, app.game) + "**")
    st.download_button(words.say("label.download", lang), report.report_html(checked, lang, app.scheme, app.game),
                       file_name="okey-check-report.html", mime="text/html", key="check_download")
    html(PAGE_CSS + render.css(lang))
    for i, c in enumerate(checked, start=1):
        show_card(app, i, c)


def show_card(app: AppState, i: int, c: Checked) -> None:
    """One photo: the verdict in large type and why, the photo boxed, the hand grouped, the reads to check."""
    lang, v = app.lang, c.verdict
    with st.container(border=True, key=f"check_card_{i}"):
        html(f"<b>{i}. {escape(v.photo)}</b>"
             f'<div class="okc-verdict okc-{v.kind}">{escape(v.label(lang))}</div>')
        st.write(report.why(v, lang))
        if v.indicator is not None:  # which indicator the verdict used, and where it came from
            html(f'<div class="ind">{render.tile_html(v.indicator, small=True, lang=lang)} '
                 f"<span>{escape(words.indicator_line(v.indicator, v.source.said(lang), lang))}</span></div>")
        if v.note(lang):
            st.caption(v.note(lang))
        photo, hand = st.columns([3, 2])
        with photo:
            if c.figure:
                st.image(c.figure, width="stretch")
        with hand:
            groups = report.hand_groups(v, lang)
            if groups:
                html(groups)
            if v.flagged:
                html(f"<b>{escape(words.say('label.check_by_eye', lang))}</b>" + report.to_check(v, lang))


__all__ = ["check_page", "check_switch"]
