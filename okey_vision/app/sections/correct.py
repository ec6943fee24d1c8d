"""Correcting the hand: a picker per tile ('(remove)' drops it), add a tile,
clear, or type the whole hand."""

from __future__ import annotations

import streamlit as st

from okey_vision.app.sections.common import TILE_NAMES, html, tx
from okey_vision.app.state import AppState, Entry
from okey_vision.errors import OkeyError
from okey_vision.report.labels import Lang, error_message, sentence, tile_word
from okey_vision.tiles import parse_hand

#: Pickers per row of the grid (three in Turkish: a tile's name is a word, "kırmızı 10").
PER_ROW = 4
PER_ROW_TR = 3
# A grid that stays a grid on a phone (Streamlit stacks columns under 640 px).
GRID_CSS = ("<style>.st-key-pickers [data-testid=stHorizontalBlock]{flex-wrap:nowrap;gap:.3rem}"
            ".st-key-pickers [data-testid=stColumn]{min-width:0;flex:1 1 0}</style>")


def correct_section(app: AppState) -> None:
    """The correction panel, open while a tile is to be checked, the player
    corrects, or the hand is empty."""
    expanded = bool(app.flagged) or app.correcting or not app.entries
    with st.expander(tx("correct", n=len(app.entries)), expanded=expanded):
        tile_pickers(app)
        hand = add_or_clear(app)
        typed = hand is None
        if typed:
            hand = typed_hand(app)
    if hand is not None:
        app.correcting = True
        if typed:  # the whole hand typed for this photo: kept aligned with its reads when learning
            app.type_hand(hand)
        else:
            app.set_entries(hand)
        st.rerun()


def picker_label(i: int, e: Entry) -> str:
    """'4', or '4 ?' for a tile to check, with the reader's other guesses: '4 ? maybe k1'."""
    if not e.flagged:
        return f"{i + 1}"
    if e.alternatives[1:]:
        return f"{i + 1}" + tx("maybe", alts="/".join(t.name for t in e.alternatives[1:3]))
    return f"{i + 1} ?"


def tile_pickers(app: AppState) -> None:
    """A picker per tile, in rows of :data:`PER_ROW`; a change shows in the
    advice above at once (a callback, run before the page)."""
    remove, lang = tx("remove"), app.lang
    per_row = PER_ROW_TR if lang is Lang.TR else PER_ROW

    def changed(i: int, key: str) -> None:
        value = st.session_state[key]
        app.correct(i, None if value == remove else value)

    html(GRID_CSS)
    with st.container(key="pickers"):
        for start in range(0, len(app.entries), per_row):
            cols = st.columns(per_row)
            for j, e in enumerate(app.entries[start:start + per_row]):
                i = start + j
                key = f"tile_{app.version}_{i}"
                with cols[j]:
                    st.selectbox(picker_label(i, e), [remove, *TILE_NAMES], index=TILE_NAMES.index(e.name) + 1,
                                 key=key, on_change=changed, args=(i, key), placeholder=tx("add_placeholder"),
                                 format_func=lambda v: v if v == remove else tile_word(v, lang))


def add_or_clear(app: AppState) -> list[Entry] | None:
    """'Add a tile' and 'clear': the hand with the tile added, or emptied; None when neither was pressed."""
    c1, c2, c3 = st.columns([2, 1, 1])
    with c1:
        add = st.selectbox(tx("add_tile"), TILE_NAMES, index=None, placeholder=tx("add_placeholder"),
                           key=f"add_{app.version}", format_func=lambda v: tile_word(v, app.lang))
    with c2:
        st.write("")
        if st.button(tx("add"), key="add_btn", disabled=add is None) and add is not None:
            return [*app.entries, Entry.typed(add)]
    with c3:
        st.write("")
        if st.button(tx("clear"), key="clear_btn"):
            return []
    return None


def typed_hand(app: AppState) -> list[Entry] | None:
    """The hand the player typed ('r1 r2 r3 ...'), or None (a typo is said here)."""
    text = st.text_input(tx("type_hand"), key=f"hand_text_{app.version}",
                         placeholder=tx("type_placeholder"), help=tx("type_help"))
    if not text:
        return None
    app.correcting = True
    try:
        return [Entry.typed(t) for t in parse_hand(text)]
    except OkeyError as exc:
        st.warning(sentence(error_message(exc, app.lang)))
        return None
