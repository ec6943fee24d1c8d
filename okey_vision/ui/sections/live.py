"""Live coaching: the camera streams to the server (WebRTC, no STUN/TURN:
loopback and the local network need none), a worker reads the newest frame
every few hundred ms, the hand shown is voted across recent reads."""

from __future__ import annotations

import streamlit as st

from okey_vision.ui.advice import Analysis
from okey_vision.ui.live import LiveReader
from okey_vision.ui.sections.advice import show_action
from okey_vision.ui.sections.common import log, reader, state, tx
from okey_vision.ui.state import AppState, IndicatorSource


def live_section(app: AppState) -> None:
    """The camera's widget and, refreshed every second, the hand read live and its advice."""
    from streamlit_webrtc import WebRtcMode, webrtc_streamer

    read, msg = reader()
    if read is None:
        st.warning(tx("reader_missing", why=msg))
        return
    if app.live is None:
        app.live = LiveReader(read)
    live = app.live

    def on_frame(frame):
        live.offer(frame.to_ndarray(format="bgr24"))  # cheap: the worker reads it later
        return frame

    st.caption(tx("live_start"))
    try:
        ctx = webrtc_streamer(key="live_camera", mode=WebRtcMode.SENDRECV, video_frame_callback=on_frame,
                              rtc_configuration={"iceServers": []},
                              media_stream_constraints={"video": {"facingMode": "environment"}, "audio": False},
                              async_processing=True)
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
    now = live.state()
    if now.hand:
        st.markdown(f"**{tx('live_hand', hand='').strip()}** `{' '.join(now.hand)}`")
    else:
        st.info(tx("live_none"))
    ago = now.freshness()
    if ago is not None:
        st.caption(tx("live_fresh", ago=ago, reads=now.reads, per=1 / max(live.interval, now.read_seconds),
                      ms=now.read_seconds * 1000))
    if now.indicator and app.indicator_source is not IndicatorSource.PLAYER and app.round.indicator is None:
        st.caption(tx("live_indicator", ind=now.indicator))
    indicator = app.round.indicator or now.indicator
    if now.hand:
        result = app.coach.analyse(list(now.hand), indicator, app.round.seen_tiles(), app.scheme)
        if isinstance(result, Analysis):
            show_action(app, result)
        else:
            st.warning(result.said(app.lang))
