"""What every section shares: the session's state, its words, the reader."""

from __future__ import annotations

import importlib
import logging
import os
import time
from collections.abc import Callable

import streamlit as st

from okey_vision.app.state import KEY, AppState
from okey_vision.report.labels import Lang, t
from okey_vision.tiles import TILES, Game

log = logging.getLogger("okey_vision.app")

#: Every tile name, for the pickers; the indicator's (never a false joker).
TILE_NAMES = [tile.name for tile in TILES]
FACE_NAMES = TILE_NAMES[:-1]
#: The name the embedded sample photo is taken under.
SAMPLE = "sample"
#: 'module:factory' of a stand-in reader (tests); unset: the shipped reader.
READER_ENV = "OKEY_VISION_APP_READER"

Reader = Callable[..., list]


def state() -> AppState:
    """This session's state, made on its first run (the language from ?lang= or the browser)."""
    ss = st.session_state
    if KEY not in ss:
        ss[KEY] = AppState(lang=Lang.pick(st.query_params.get("lang"), st.context.headers.get("Accept-Language")),
                           game=game_of_query(st.query_params.get("game")))
    return ss[KEY]


def game_of_query(value: str | None) -> Game:
    """The game ``?game=`` names (``101``, ``yuzbir``), else classic Okey.

    >>> game_of_query("101"), game_of_query(None), game_of_query("chess")
    (<Game.ONE_OH_ONE: '101'>, <Game.OKEY: 'okey'>, <Game.OKEY: 'okey'>)
    """
    from okey_vision.errors import OkeyError

    try:
        return Game.parse(value) if value else Game.OKEY
    except OkeyError:
        return Game.OKEY


def tx(key: str, **fields: object) -> str:
    """The text ``key`` in this session's language."""
    return t(key, state().lang, **fields)


@st.cache_resource(show_spinner="Loading the tile reader (once)...")
def load_reader(spec: str) -> tuple[Reader | None, str]:
    """The reader ``reader(image) -> list[TileRead]`` and a message ('' when
    it loaded). ``spec`` 'module:factory' replaces the trained reader (tests);
    '' is the shipped one."""
    t0 = time.perf_counter()
    try:
        if spec:
            module, _, name = spec.partition(":")
            return getattr(importlib.import_module(module), name)(), ""
        from okey_vision.vision.reader import RackReader
        from okey_vision.vision.service import open_reader

        reader = open_reader(local=RackReader).load()  # the reader service when $OKEY_VISION_SERVER names one
        log.info("reader loaded (%s) in %.2f s", reader.backend, time.perf_counter() - t0)
        return reader.read, ""
    except Exception as exc:  # noqa: BLE001 - any failure: the app works without a reader
        log.warning("reader not available: %s", exc)
        return None, str(exc)


def reader() -> tuple[Reader | None, str]:
    """The reader this server uses (:func:`load_reader` of ``$OKEY_VISION_APP_READER``)."""
    return load_reader(os.environ.get(READER_ENV, ""))


def sync_widget(key: str, value: object) -> None:
    """Show ``value`` in the widget ``key`` (before the widget is drawn): the
    state is the truth, the widget follows it."""
    if st.session_state.get(key) != value:
        st.session_state[key] = value


def html(markup: str) -> None:
    """Draw HTML made by :mod:`okey_vision.report.render`."""
    st.markdown(markup, unsafe_allow_html=True)


__all__ = ["FACE_NAMES", "SAMPLE", "TILE_NAMES", "html", "load_reader", "reader", "state", "sync_widget", "tx"]
