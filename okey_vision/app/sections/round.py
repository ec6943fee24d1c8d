"""The round: the indicator picker and the tiles seen on the discard piles, turn by turn."""

from __future__ import annotations

import streamlit as st

from okey_vision.app.sections.common import FACE_NAMES, html, sync_widget, tx
from okey_vision.app.state import AppState, IndicatorSource
from okey_vision.errors import OkeyError
from okey_vision.report import render
from okey_vision.report.labels import error_message, sentence, tile_word
from okey_vision.tiles import okey_of


def round_section(app: AppState, expanded: bool) -> None:
    """The round's panel."""
    with st.expander(tx("round"), expanded=expanded):
        c1, c2 = st.columns([1, 2])
        with c1:
            indicator_picker(app)
        with c2:
            seen_input(app)
        if app.seen_error:
            st.warning(app.seen_error)
        r = app.round
        if r.seen:
            okey = okey_of(r.indicator) if r.indicator else None
            html(render.css(app.lang) + render.tiles_row_html(r.seen_tiles(), okey, lang=app.lang))
            st.caption(tx("seen_by_turn", turns="; ".join(tx("turn", t=k, tiles=v) for k, v in r.by_turn())))


def indicator_picker(app: AppState) -> None:
    """The indicator, shown as the state has it (from the photo or the player); the player's pick wins."""

    def changed() -> None:
        app.choose_indicator(st.session_state.ind_pick or None)

    r = app.round
    sync_widget("ind_pick", r.indicator.name if r.indicator else "")
    not_set, lang = tx("not_set"), app.lang
    st.selectbox(tx("indicator_pick"), ["", *FACE_NAMES], key="ind_pick", on_change=changed,
                 format_func=lambda v: tile_word(v, lang) if v else not_set, help=tx("indicator_help"),
                 placeholder=tx("add_placeholder"))
    if r.indicator:
        flagged = app.indicator_flagged
        src = {IndicatorSource.PHOTO: tx("source_photo_check" if flagged else "source_photo"),
               IndicatorSource.PLAYER: tx("source_player")}.get(app.indicator_source, "")
        st.caption(sentence(tx("okey_is", okey=okey_of(r.indicator).name) + (f" ({src})" if src else "")))
        if flagged:  # confirmed as a rack tile is: the picker above corrects it, this says it is right
            st.button(tx("indicator_right"), key="confirm_indicator", on_click=app.confirm_indicator)


def seen_input(app: AppState) -> None:
    """Tiles seen this turn (typed), next turn, undo, a new round."""

    def add_seen() -> None:
        text = st.session_state.seen_text
        if not text.strip():
            return
        try:
            app.round = app.round.add_seen(text)
            st.session_state.seen_text = ""  # ready for the next tiles
            app.seen_error = ""
        except OkeyError as exc:
            app.seen_error = sentence(error_message(exc, app.lang))

    def next_turn() -> None:
        app.round = app.round.next_turn()

    def undo() -> None:
        app.round = app.round.undo_seen()

    st.text_input(tx("seen_input", turn=app.round.turn), key="seen_text", on_change=add_seen,
                  placeholder=tx("seen_placeholder"))
    b1, b2, b3, b4 = st.columns(4)
    b1.button(tx("add_seen"), key="seen_add", on_click=add_seen)
    b2.button(tx("next_turn"), key="next_turn", on_click=next_turn)
    b3.button(tx("undo_seen"), key="seen_undo", disabled=not app.round.seen, on_click=undo)
    b4.button(tx("new_round"), key="new_round", on_click=app.new_round)
