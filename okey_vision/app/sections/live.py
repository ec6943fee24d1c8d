"""Live coaching: the camera streams to the server (WebRTC, no STUN/TURN:
loopback and the local network need none); a worker reads a frame only when
the view has changed (:class:`~okey_vision.vision.live.LiveReader`), works out
the advice for a new hand at once, and the video comes back with the move
drawn on it (the tile to throw ringed, the melds outlined)."""

from __future__ import annotations

from typing import TYPE_CHECKING

import streamlit as st

from okey_vision.app.sections.advice import show_action
from okey_vision.app.sections.common import html, log, reader, state, tx
from okey_vision.app.state import AppState, IndicatorSource
from okey_vision.lang import count
from okey_vision.report import render
from okey_vision.report.analysis import Analysis, move_on_rack
from okey_vision.report.labels import Lang, in_words, sentence
from okey_vision.report.photo import draw_move
from okey_vision.tiles import okey_of, parse_tile
from okey_vision.vision.live import LiveReader

if TYPE_CHECKING:  # the live camera's package loads only with the live view
    from streamlit_webrtc.config import Translations


def translations() -> Translations:
    """The camera widget's own words in the page's language."""
    return {"start": tx("live_start_button"), "stop": tx("live_stop_button"),
            "select_device": tx("live_select_device"), "device_ask_permission": tx("live_ask_permission"),
            "device_not_available": tx("live_no_device"), "device_access_denied": tx("live_denied"),
            "media_api_not_available": tx("live_no_media")}


def live_advice(app: AppState, live: LiveReader) -> None:
    """Tell the worker how to advise a live hand: with the round's indicator
    (or the one seen beside the rack), the tiles seen and the scheme; the
    move it gives is drawn on the video."""
    r = app.round
    indicator, seen, scheme, coach = r.indicator, tuple(r.seen_tiles()), app.scheme, app.coach

    def advise(hand: tuple[str, ...], seen_indicator: str | None):
        result = coach.analyse(list(hand), indicator or seen_indicator, seen, scheme)
        return result, (move_on_rack(result, hand) if isinstance(result, Analysis) else None)

    live.set_advice(advise, key=(indicator, seen, scheme))


def live_section(app: AppState) -> None:
    """The camera's widget, the video with the move on it and, refreshed
    every second, the hand read live and its advice."""
    from streamlit_webrtc import WebRtcMode, webrtc_streamer

    read, msg = reader()
    if read is None:
        st.warning(tx("reader_missing", why=msg))
        return
    if app.live is None:
        app.live = LiveReader(read, draw=draw_move)
    live = app.live
    live_advice(app, live)

    def on_frame(frame):
        import av

        image = frame.to_ndarray(format="bgr24")
        live.offer(image)  # cheap: the worker looks at it later
        drawn = live.annotate(image)
        if drawn is image:
            return frame
        out = av.VideoFrame.from_ndarray(drawn, format="bgr24")
        out.pts, out.time_base = frame.pts, frame.time_base
        return out

    st.caption(tx("live_start"))
    try:
        ctx = webrtc_streamer(key="live_camera", mode=WebRtcMode.SENDRECV, video_frame_callback=on_frame,
                              rtc_configuration={"iceServers": []},
                              media_stream_constraints={"video": {"facingMode": "environment"}, "audio": False},
                              async_processing=True, translations=translations())
    except Exception as exc:  # noqa: BLE001 - no WebRTC runtime here (e.g. a test harness): say so
        log.warning("live camera unavailable: %s", exc)
        st.warning(tx("live_unavailable", why=type(exc).__name__))
        return
    conn = (getattr(ctx.state, "signalling", None), getattr(ctx.state, "playing", None))
    if app.live_conn != conn:  # the connection's steps go to the log: a camera that never plays shows there
        app.live_conn = conn
        log.info("live: camera connection: signalling %s, playing %s", *conn)
    live_panel()


@st.fragment(run_every=1.0)
def live_panel() -> None:
    """The hand read live, how fresh it is, and the advice for it (refreshed every second)."""
    app = state()
    live = app.live
    if live is None:
        return
    live_advice(app, live)  # the indicator or the scheme may have changed since
    now = live.state()
    indicator = app.round.indicator or (parse_tile(now.indicator) if now.indicator else None)
    if now.hand and app.lang is Lang.TR:  # the tiles as chips: never in the Latin notation
        okey = okey_of(indicator) if indicator is not None else None
        html(render.css(app.lang) + f"<p><b>{tx('live_hand', hand='').strip()}</b></p>"
             + render.tiles_row_html([parse_tile(n) for n in now.hand], okey, lang=app.lang))
    elif now.hand:
        st.markdown(f"**{tx('live_hand', hand='').strip()}** `{' '.join(now.hand)}`")
    else:
        st.info(tx("live_none"))
    ago = now.freshness()
    if ago is not None:
        st.caption(tx("live_fresh", ago=ago, reads=count(now.reads, "frame", app.lang), ms=now.read_seconds * 1000))
    if now.indicator and app.indicator_source is not IndicatorSource.PLAYER and app.round.indicator is None:
        st.caption(tx("live_indicator", ind=now.indicator))
    if now.hand:
        result = now.advice
        if result is None:  # not worked out on the worker yet
            result = app.coach.analyse(list(now.hand), indicator, app.round.seen_tiles(), app.scheme)
        if isinstance(result, Analysis):
            show_action(app, result)
            if now.move is not None and now.move.discard is not None:
                st.caption(tx("live_on_video"))
        else:
            st.warning(sentence(in_words(result.said(app.lang), app.lang)))
