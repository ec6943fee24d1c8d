"""okey-vision: the Streamlit app. ``streamlit run app.py``

Photo of the rack in (camera or upload), every tile read and boxed; the
player corrects reads and sets the indicator; the hand is drawn grouped into
runs, sets or pairs with the leftovers apart; whether it can be declared,
the recommended discard and the ranked alternatives; discards seen and the
indicator are kept through the round; a score table across rounds. The game
switch (or ``?game=101``) turns the page to 101 Okey: a rack of 21-22 tiles,
the opening first ('Not yet: 87 of 101'), the melds on the table typed or
read from a second photo, and the 101 penalty scores.

A thin page: the sections are in :mod:`okey_vision.app.sections`, the
session's one typed state in :mod:`okey_vision.app.state`, the work in
:mod:`okey_vision.report` and the library. No error reaches the screen as a
traceback.
"""

from __future__ import annotations

import logging
import os
import time
import traceback

os.environ.setdefault("YOLO_OFFLINE", "1")

import streamlit as st

from okey_vision.app.sections.advice import show_action, show_advice
from okey_vision.app.sections.calibrate import learning_section
from okey_vision.app.sections.check import check_page, check_switch
from okey_vision.app.sections.common import log, state, sync_widget, tx
from okey_vision.app.sections.correct import correct_section
from okey_vision.app.sections.game101 import (
    advice101,
    advice_move,
    game_switch,
    show_advice101,
    table_melds,
    table_section,
    words_section,
)
from okey_vision.app.sections.live import live_section
from okey_vision.app.sections.photo import photo_input, photo_section, take_new_photo
from okey_vision.app.sections.round import round_section
from okey_vision.app.sections.scores import scheme_picker, scores_section
from okey_vision.app.state import AppState
from okey_vision.report.analysis import Analysis, move_on_rack
from okey_vision.report.labels import Lang, in_words, sentence, t
from okey_vision.tiles import Game
from okey_vision.yuzbir import Advice101

# One handler on the package's logger: the app's lines and the library's
# (the live reader's worker thread) reach the server log alike.
_pkg_log = logging.getLogger("okey_vision")
if not _pkg_log.handlers:
    _h = logging.StreamHandler()
    _h.setFormatter(logging.Formatter("%(asctime)s okey-vision app: %(message)s"))
    _pkg_log.addHandler(_h)
    _pkg_log.setLevel(logging.INFO)
    _pkg_log.propagate = False

PAGE_CSS = ("<style>.block-container{padding-top:2.6rem;padding-bottom:1rem}"
            ".st-key-action [data-testid=stAlert] p{font-size:1.45rem;font-weight:700;line-height:1.25}</style>")


def language_switch(app: AppState) -> None:
    """Turkish or English: from ?lang= or the browser at first, then the switch (kept in the URL)."""

    def changed() -> None:
        app.lang = Lang(st.session_state.lang_pick)
        st.query_params["lang"] = app.lang.value

    sync_widget("lang_pick", app.lang.value)
    st.radio(t("language", app.lang), [x.value for x in Lang], key="lang_pick", horizontal=True,
             format_func=lambda v: Lang(v).label, on_change=changed, label_visibility="collapsed")


def photo_page(app: AppState) -> None:
    """Phone first: the move, then the hand grouped; the photo folded below;
    then correcting, the round and the scores."""
    take_new_photo(app, *photo_input())
    photo = app.photo
    if photo is not None and photo.error:
        st.warning(photo.error)  # one message for the photo: why, and what to do
    r = app.round
    result = app.coach.analyse(app.tiles, r.indicator, r.seen_tiles(), app.scheme, app.offered)
    move = None
    if isinstance(result, Analysis):
        show_action(app, result)
        show_advice(app, result)
        move = move_on_rack(result, app.tiles)
    elif photo is not None and photo.error and not app.entries:
        pass  # the photo failed: its message above says why; nothing else to fix
    elif r.indicator is None and app.entries and photo is not None and not photo.has_indicator \
            and photo.reads is not None:
        st.info(tx("ask_indicator"))
    else:
        st.warning(sentence(in_words(result.said(app.lang), app.lang)))
    if app.clock is not None:
        app.photo_seconds, app.clock = time.perf_counter() - app.clock, None
        log.info("photo to advice: %.3f s (advice %.3f s)", app.photo_seconds, getattr(result, "seconds", 0.0))
    photo_section(app, expanded=not result.ok or app.to_check, move=move)
    if app.photo_seconds is not None:
        st.caption(tx("photo_to_advice", s=app.photo_seconds))
    correct_section(app)
    round_section(app, expanded=True)
    scores_section(app)


def page101(app: AppState) -> None:
    """The 101 page, phone first: the advice (the opening, or how far it
    is), then the photo folded, correcting, the table's melds and the
    player's opening, the round, the 101 penalty scores, the words of 101."""
    take_new_photo(app, *photo_input())
    photo = app.photo
    if photo is not None and photo.error:
        st.warning(photo.error)
    melds, problem = table_melds(app)
    advice = advice101(app, melds)
    move = None
    if isinstance(advice, Advice101):
        show_advice101(app, advice)
        move = advice_move(advice, app.tiles)
        if problem:
            st.warning(problem)
    elif not (photo is not None and photo.error and not app.entries):
        st.info(in_words(advice, app.lang))
    photo_section(app, expanded=not isinstance(advice, Advice101) or app.to_check, move=move)
    correct_section(app)
    table_section(app, melds, problem)
    round_section(app, expanded=True)
    scores_section(app)
    words_section(app)


def main() -> None:
    """The page: header, sidebar, then the live view or the photo's."""
    st.set_page_config(page_title="Okey", page_icon=":game_die:", layout="wide",
                       initial_sidebar_state="collapsed")
    app = state()
    st.markdown(PAGE_CSS, unsafe_allow_html=True)
    head, switch = st.columns([3, 1])
    with switch:
        language_switch(app)
        game = game_switch(app)
    with head:
        st.markdown(f"### {tx('title')}")
    with st.sidebar:
        if game is Game.OKEY:  # 101 has its own penalty scores
            scheme_picker(app)
        checking = check_switch(app)  # the organiser's page (?page=check), off the players' way
        learning_section(app)  # Keep the player's corrections (their consent) and learn their set
        st.caption(tx("tile_help"))
    if "live_on" not in st.session_state:  # ?live=1 opens the live view
        st.session_state.live_on = st.query_params.get("live") == "1"
    if checking:
        check_page(app)
    elif game is Game.ONE_OH_ONE:
        page101(app)
    elif st.toggle(tx("live"), key="live_on", help=tx("live_help")):
        live_section(app)
        round_section(app, expanded=False)
    else:
        photo_page(app)


def run() -> None:
    """The page, with any unexpected error shown as one plain line."""
    try:
        main()
    except Exception as exc:
        if type(exc).__name__ in ("RerunException", "StopException"):
            raise
        log.error("unexpected error: %s", traceback.format_exc())
        st.error(tx("unexpected", why=f"{type(exc).__name__}: {exc}"))


run()
