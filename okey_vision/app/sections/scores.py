"""The scoring scheme (in the sidebar) and the score table across rounds."""

from __future__ import annotations

import streamlit as st

from okey_vision.app.scores import Round, ScoreTable
from okey_vision.app.sections.common import sync_widget, tx
from okey_vision.app.state import AppState
from okey_vision.coach import text as words
from okey_vision.errors import OkeyError
from okey_vision.report.labels import error_message, sentence
from okey_vision.scoring import COUNTDOWN, SCHEMES, FinishKind


def scheme_label(scheme: str) -> str:
    """The scoring scheme in the session's words."""
    return tx("scheme_countdown" if scheme == COUNTDOWN else "scheme_penalty")


def scheme_picker(app: AppState) -> None:
    """The scoring scheme; switching it under a running table asks first."""

    def changed() -> None:
        new = st.session_state.scheme_pick
        if app.scores is not None and app.scores.scheme != new:
            app.scheme_pending = new  # ask before the table changes its rules
        else:
            app.scheme = new

    def new_table() -> None:
        if app.scores is not None and app.scheme_pending is not None:
            app.scores = ScoreTable(list(app.scores.players), app.scheme_pending)
            app.scheme, app.scheme_pending = app.scheme_pending, None

    def keep() -> None:
        app.scheme_pending = None

    sync_widget("scheme_pick", app.scheme_pending or app.scheme)
    # labels fixed at render time: a format function reading the session later would mix languages
    labels = {scheme: scheme_label(scheme) for scheme in SCHEMES}
    st.radio(tx("scoring"), SCHEMES, key="scheme_pick", on_change=changed, format_func=labels.__getitem__)
    pending, table = app.scheme_pending, app.scores
    if pending and table is not None:
        st.warning(tx("scheme_switch", old=scheme_label(table.scheme), new=scheme_label(pending)))
        c1, c2 = st.columns(2)
        c1.button(tx("scheme_new_table", new=scheme_label(pending)), key="scheme_new_table", on_click=new_table)
        c2.button(tx("scheme_keep", old=scheme_label(table.scheme)), key="scheme_keep", on_click=keep)


def scores_section(app: AppState) -> None:
    """The score table's panel: players to start one, then the table and the rounds."""
    with st.expander(tx("scores"), expanded=False):
        if app.scores is None:
            table = start_table(app)
        else:
            st.caption(tx("countdown_rule" if app.scores.scheme == COUNTDOWN else "penalty_rule",
                          scheme=scheme_label(app.scores.scheme)))
            st.table(app.scores.table(app.lang))
            table = record_round(app, app.scores)
    if table is not app.scores:
        app.scores = table
        st.rerun()


def start_table(app: AppState) -> ScoreTable | None:
    """How many players and their names; the new table once started."""
    c1, c2 = st.columns([1, 3])
    n = c1.number_input(tx("players"), min_value=2, max_value=4, value=4, step=1, key="n_players")
    names = c2.text_input(tx("names"), key="player_names",
                          value=", ".join(tx("player_n", k=k + 1) for k in range(int(n))))
    if st.button(tx("start_table"), key="start_scores"):
        try:
            return ScoreTable(list(names.split(","))[: int(n)], app.scheme)
        except OkeyError as exc:
            st.warning(sentence(error_message(exc, app.lang)))
    return None


def record_round(app: AppState, table: ScoreTable) -> ScoreTable | None:
    """Who won each round and how, undo, a new game: the table after the
    player's action (the same one when nothing was pressed; None for a new game)."""
    if table.game_over():
        st.success(tx("game_over", who=table.leader()))
    else:
        c1, c2, c3, c4 = st.columns([2, 2, 1, 2])
        # (declared: streamlit's overloads type these widgets' values as None under mypy)
        winner: str | None = c1.selectbox(tx("won_by"), [*table.players, tx("nobody")], key="r_winner",
                                          placeholder=tx("pick_placeholder"))
        kinds = list(FinishKind)
        labels = [words.kind_label(k, app.lang) for k in kinds]
        label: str | None = c2.radio(tx("finish"), labels, key="r_kind", horizontal=True)
        kind = kinds[labels.index(label)] if label in labels else kinds[0]
        okey = c3.checkbox(tx("okey_discard"), key="r_okey")
        shown = c4.multiselect(tx("twin_shown"), table.players, key="r_shown", placeholder=tx("pick_placeholder"))
        if st.button(tx("record_round"), key="r_add"):
            w = None if winner not in table.players else table.players.index(winner)
            try:
                return table.add(Round(w, kind, okey, tuple(table.players.index(p) for p in shown)))
            except OkeyError as exc:
                st.warning(sentence(error_message(exc, app.lang)))
    c1, c2 = st.columns(2)
    if c1.button(tx("undo_round"), key="r_undo", disabled=not table.rounds):
        return table.undo()
    if c2.button(tx("new_game"), key="r_new"):
        return None
    return table
