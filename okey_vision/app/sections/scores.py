"""The scoring scheme (in the sidebar) and the score table across rounds;
in 101, the penalty scores (each round from how it ended)."""

from __future__ import annotations

import streamlit as st

from okey_vision.app.scores import Round, Round101Score, ScoreTable, ScoreTable101
from okey_vision.app.sections.common import FACE_NAMES, sync_widget, tx
from okey_vision.app.sections.game101 import OPENED_KEYS
from okey_vision.app.state import AppState
from okey_vision.coach import text as words
from okey_vision.errors import OkeyError
from okey_vision.report.labels import error_message, sentence, tile_word
from okey_vision.scoring import COUNTDOWN, SCHEMES, FinishKind
from okey_vision.tiles import Game
from okey_vision.yuzbir import Opened


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
    if app.game is Game.ONE_OH_ONE:
        scores101_section(app)
        return
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


def player_names_input() -> tuple[list[str], bool]:
    """How many players and their names, and whether 'start' was pressed."""
    c1, c2 = st.columns([1, 3])
    n = c1.number_input(tx("players"), min_value=2, max_value=4, value=4, step=1, key="n_players")
    names = c2.text_input(tx("names"), key="player_names",
                          value=", ".join(tx("player_n", k=k + 1) for k in range(int(n))))
    return list(names.split(","))[: int(n)], st.button(tx("start_table"), key="start_scores")


def start_table(app: AppState) -> ScoreTable | None:
    """How many players and their names; the new table once started."""
    names, start = player_names_input()
    if start:
        try:
            return ScoreTable(names, app.scheme)
        except OkeyError as exc:
            st.warning(sentence(error_message(exc, app.lang)))
    return None


def scores101_section(app: AppState) -> None:
    """The 101 penalty scores' panel: players to start, then the table and each round's end."""
    with st.expander(tx("scores"), expanded=False):
        st.caption(tx("scores101_rule"))
        if app.scores101 is None:
            names, start = player_names_input()
            table: ScoreTable101 | None = None
            if start:
                try:
                    table = ScoreTable101(names)
                except OkeyError as exc:
                    st.warning(sentence(error_message(exc, app.lang)))
        else:
            st.table(app.scores101.table(app.lang))
            table = record_round101(app, app.scores101)
    if table is not app.scores101:
        app.scores101 = table
        st.rerun()


def record_round101(app: AppState, table: ScoreTable101) -> ScoreTable101 | None:
    """How the round ended: the indicator, each player's opening, tiles left
    and misplays, who finished and how; undo, a new game. The table after the
    player's action (the same one when nothing was pressed; None for a new game)."""
    lang = app.lang
    ind = app.round.indicator
    indicator: str | None = st.selectbox(tx("scores101_indicator"), FACE_NAMES, key="s101_ind",
                                         index=FACE_NAMES.index(ind.name) if ind is not None else None,
                                         format_func=lambda v: tile_word(v, lang), placeholder=tx("pick_placeholder"))
    labels = {o.value: tx(OPENED_KEYS[o]) for o in Opened}
    opened: list[str] = []
    left: list[str] = []
    misplays: list[int] = []
    for i, name in enumerate(table.players):
        c1, c2, c3 = st.columns([2, 3, 1])
        how: str | None = c1.selectbox(name, list(labels), key=f"s101_open_{i}", format_func=labels.__getitem__,
                                       placeholder=tx("pick_placeholder"))
        opened.append(how or Opened.NO.value)
        left.append(c2.text_input(tx("scores101_left"), key=f"s101_left_{i}",
                                  placeholder=tx("scores101_left_placeholder")))
        misplays.append(int(c3.number_input(tx("scores101_misplays"), min_value=0, max_value=9, value=0, step=1,
                                            key=f"s101_mis_{i}")))
    c1, c2, c3 = st.columns([2, 1, 1])
    nobody = tx("scores101_nobody")
    finisher: str | None = c1.selectbox(tx("scores101_finished"), [*table.players, nobody], key="s101_fin",
                                        placeholder=tx("pick_placeholder"))
    okey = c2.checkbox(tx("scores101_okey"), key="s101_okey")
    whole = c3.checkbox(tx("scores101_whole"), key="s101_whole")
    if st.button(tx("record_round"), key="s101_add"):
        if indicator is None:
            st.warning(tx("scores101_need_indicator"))
        else:
            try:
                who = table.players.index(finisher) if finisher in table.players else None
                return table.add(Round101Score.of(indicator, opened, left, who, okey, whole, tuple(misplays)))
            except OkeyError as exc:
                st.warning(sentence(error_message(exc, lang)))
    c1, c2 = st.columns(2)
    if c1.button(tx("undo_round"), key="s101_undo", disabled=not table.rounds):
        return table.undo()
    if c2.button(tx("new_game"), key="s101_new"):
        return None
    return table


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
