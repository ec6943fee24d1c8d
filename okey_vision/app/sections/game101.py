"""101 Okey's page: the game switch (Okey or 101), the advice for a 101 rack
first (open now, or how far the opening is: 'Not yet: 87 of 101'), the
melds on the table (typed, or read from a photo of the table), the
player's own opening, and the words of 101."""

from __future__ import annotations

import streamlit as st

from okey_vision.app.sections.advice import offered_picker
from okey_vision.app.sections.common import TILE_NAMES, html, log, reader, state, sync_widget, tx
from okey_vision.app.sections.photo import IMAGE_TYPES, photo_key
from okey_vision.app.state import AppState
from okey_vision.app.table import laid_melds, meld_groups, split_melds, table_text
from okey_vision.coach import text as coach_words
from okey_vision.errors import OkeyError
from okey_vision.lang import WORDS_101, count, fill
from okey_vision.melds import Meld
from okey_vision.report import render
from okey_vision.report.analysis import RackMove, move_of
from okey_vision.report.labels import error_message, in_words, sentence, tile_word
from okey_vision.report.photo import decode_photo
from okey_vision.tiles import Game, Tile, okey_of
from okey_vision.yuzbir import Action101, Advice101, Opened, Options101, advise101

#: How each opening state is said (its text key).
OPENED_KEYS = {Opened.NO: "opened_no", Opened.MELDS: "opened_melds", Opened.PAIRS: "opened_pairs"}


def game_switch(app: AppState) -> Game:
    """Okey or 101: from ?game= at first, then the switch (kept in the URL); the game chosen."""

    def changed() -> None:
        app.set_game(Game(st.session_state.game_pick))
        st.query_params["game"] = app.game.value

    sync_widget("game_pick", app.game.value)
    st.radio(tx("game_pick"), [g.value for g in Game], key="game_pick", horizontal=True, on_change=changed,
             format_func=lambda v: Game(v).label, help=tx("game_help"), label_visibility="collapsed")
    return app.game


def table_melds(app: AppState) -> tuple[tuple[Meld, ...], str]:
    """The melds on the table and why their text was refused ('' when it was not)."""
    if not app.table_text.strip():
        return (), ""
    if app.round.indicator is None:
        return (), tx("table101_no_indicator")
    try:
        return laid_melds(app.table_text, app.round.indicator), ""
    except OkeyError as exc:
        return (), sentence(error_message(exc, app.lang))


def advice101(app: AppState, melds: tuple[Meld, ...]) -> Advice101 | str:
    """The 101 advice for the hand, or the one sentence that says what is missing."""
    lang = app.lang
    if not app.entries:
        return coach_words.say("no_tiles", lang)
    if app.round.indicator is None:
        return tx("ask_indicator") if app.photo is not None and app.photo.reads is not None else \
            coach_words.say("no_indicator", lang)
    try:
        return advise101(app.tiles, app.round.indicator, table=melds, opened=app.opened, offered=app.offered,
                         seen=app.round.seen_tiles(), highest=app.highest,
                         options=Options101(beat_highest=app.beat_highest))
    except OkeyError as exc:
        return sentence(error_message(exc, lang))


def show_advice101(app: AppState, advice: Advice101) -> None:
    """The move first and large (open now, or 'Not yet: 87 of 101'), then
    why, and the hand drawn as the advice groups it."""
    lang = app.lang
    lines = [in_words(line, lang) for line in advice.lines(lang)]
    okey = advice.opening.okey
    with st.container(key="action"):
        if advice.action in (Action101.OPEN, Action101.FINISH, Action101.LAY):
            st.success(lines[0])
        else:
            st.info(lines[0])
        if advice.discard is not None and advice.action is not Action101.TAKE:
            html(render.css(lang) + render.action_html(tx("throw_this"), advice.discard, okey, lang))
    for line in lines[1:]:
        st.caption(line)
    shown = shown_melds(advice)
    rest = list(app.tiles)
    for t in (t for m in shown for t in m.tiles):
        rest.remove(t)
    html(render.hand_html(shown, rest, okey, discard=advice.discard, lang=lang))
    if len(app.entries) == Game.ONE_OH_ONE.hand_size:  # before drawing: take the tile just thrown, or draw?
        offered_picker(app)


def shown_melds(advice: Advice101) -> tuple[Meld, ...]:
    """The melds the page draws: those to lay now, or, before opening, the best opening so far."""
    return advice.lay or (advice.opening.melds if advice.opened is Opened.NO else ())


def advice_move(advice: Advice101, tiles: list[Tile]) -> RackMove:
    """The advice on the rack (for the photo): the melds shown and the tile to throw, by rack place."""
    return move_of([m.tiles for m in shown_melds(advice)], advice.discard, tiles, declare=advice.finish)


def opened_picker(app: AppState) -> None:
    """How the player has opened this round: not yet, with runs and sets, with pairs."""

    def changed() -> None:
        app.opened = Opened(st.session_state.opened_pick)

    sync_widget("opened_pick", app.opened.value)
    labels = {o.value: tx(OPENED_KEYS[o]) for o in Opened}  # fixed now: a later language switch redraws them
    st.radio(tx("opened_pick"), [o.value for o in Opened], key="opened_pick", horizontal=True,
             format_func=labels.__getitem__, on_change=changed, help=tx("opened_help"))


def highest_rule(app: AppState) -> None:
    """The house rule that a later opener must beat the highest opening so far, and that opening's points."""

    def switched() -> None:
        app.beat_highest = bool(st.session_state.beat_highest)

    def changed() -> None:
        app.highest = int(st.session_state.highest_opening)

    sync_widget("beat_highest", app.beat_highest)
    c1, c2 = st.columns([3, 2])
    c1.toggle(tx("beat_highest"), key="beat_highest", on_change=switched, help=tx("beat_highest_help"))
    if app.beat_highest:
        sync_widget("highest_opening", app.highest)
        c2.number_input(tx("highest_opening"), min_value=0, max_value=500, step=1, key="highest_opening",
                        on_change=changed)


def table_section(app: AppState, melds: tuple[Meld, ...], problem: str) -> None:
    """The melds on the table: typed (or corrected) in one box, or read from
    a photo of the table into that box; drawn as tiles; and the player's opening."""
    with st.expander(tx("table101", n=len(melds)), expanded=True):
        opened_picker(app)
        highest_rule(app)

        def typed() -> None:
            app.table_text = st.session_state.table_text

        sync_widget("table_text", app.table_text)
        st.text_input(tx("table101_input"), key="table_text", on_change=typed,
                      placeholder=tx("table101_placeholder"), help=tx("table101_help"))
        meld_picker(app)
        table_photo(app)
        if app.table_note:
            st.caption(app.table_note)
        if problem:
            st.warning(problem)
        elif melds:
            okey = okey_of(app.round.indicator) if app.round.indicator is not None else None
            html(render.css(app.lang) + render.hand_html(melds, [], okey, lang=app.lang))
        else:
            st.caption(tx("table101_empty"))


def meld_picker(app: AppState) -> None:
    """A meld built from tile chips: its tiles picked (each face twice, as
    the set holds it), then laid on the table, i.e. added to the text box."""
    lang = app.lang
    options = [f"{name}#{copy}" for name in TILE_NAMES for copy in (1, 2)]
    c1, c2 = st.columns([4, 1])
    picked: list[str] = c1.multiselect(tx("table101_pick"), options, key=f"meld_pick_{len(app.table_text)}",
                                       format_func=lambda v: tile_word(v.split("#")[0], lang),
                                       placeholder=tx("pick_placeholder"))
    with c2:
        st.write("")
        if st.button(tx("table101_lay"), key="meld_lay", disabled=not picked):
            meld = " ".join(v.split("#")[0] for v in picked)
            app.table_text = ", ".join(x for x in (app.table_text.strip().rstrip(","), meld) if x)
            st.rerun()


def table_photo(app: AppState) -> None:
    """A photo of the table's melds, read once into the table's text box."""
    shot = st.file_uploader(tx("table101_photo"), type=IMAGE_TYPES, key="table_upload")
    if shot is None:
        return
    data = shot.getvalue()
    key = photo_key(shot.name, data)
    if key == app.table_photo:
        return
    app.table_photo = key
    read, why = reader()
    try:
        if read is None:
            raise OkeyError(tx("reader_missing", why=why))
        img = decode_photo(data, shot.name)
        reads = list(read(img))
    except OkeyError as exc:
        app.table_note = sentence(error_message(exc, app.lang))
        return
    except Exception as exc:  # noqa: BLE001 - a reader failure is a message, not a traceback
        log.error("reader failed on the table photo %r: %s", shot.name, exc)
        app.table_note = tx("reader_failed", why=type(exc).__name__)
        return
    groups = meld_groups(reads)
    if app.round.indicator is not None:  # melds laid too close read as one group: split by the rules
        groups = [m for g in groups for m in split_melds(g, app.round.indicator)]
    if not groups:
        app.table_note = tx("table101_none", photo=shot.name)
        return
    app.table_text = table_text(groups)
    app.table_note = tx("table101_read", photo=shot.name, n=count(len(reads), "tile", app.lang))
    st.rerun()


def words_section(app: AppState) -> None:
    """The words of 101 with what each means, in the page's language."""
    with st.expander(tx("words101"), expanded=False):
        for term in WORDS_101:
            st.markdown("- " + fill(WORDS_101, term, state().lang))


__all__ = ["advice101", "advice_move", "game_switch", "shown_melds", "show_advice101", "table_melds", "table_section",
           "words_section"]
