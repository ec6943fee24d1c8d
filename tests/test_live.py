"""Live mode (issue 13): votes per tile position, a worker that reads the newest frame."""

from __future__ import annotations

import logging
import time

import pytest

from okey_vision.tiles import parse_tile
from okey_vision.ui.live import FrameVoter, LiveReader
from okey_vision.vision.reads import APART, TileRead

A = "r1 r2 r3 k7 k8 k9".split()
B = "r1 r2 r3 k7 k8 y9".split()


def test_one_bad_frame_never_changes_the_hand() -> None:
    v = FrameVoter(window=5, quorum=3)
    for _ in range(3):
        v.add(A)
    assert v.hand == tuple(A)
    assert not v.add(B) and v.hand == tuple(A)          # one frame with a misread
    assert not v.add(A[:-1]) and v.hand == tuple(A)     # one frame missing a tile (a hand passing)
    assert not v.add([]) and v.hand == tuple(A)         # one empty frame


def test_a_real_change_follows_within_a_quorum() -> None:
    v = FrameVoter(window=5, quorum=3)
    for _ in range(5):
        v.add(A)
    changes = [v.add(B) for _ in range(3)]
    assert changes == [False, False, True] and v.hand == tuple(B)


def test_an_unsure_position_keeps_the_hand_shown() -> None:
    v = FrameVoter(window=4, quorum=3)
    for names in (A, B, A, B):  # the last tile flickers: nothing steady to show yet
        v.add(names)
    assert v.hand == ()
    for names in (A, A):
        v.add(names)
    assert v.hand == tuple(A)
    v.add(B)
    assert v.hand == tuple(A)  # window A B A A B... only two B: the hand shown stays


def reads_of(names: list[str], indicator: str | None = None) -> list[TileRead]:
    out = [TileRead((10.0 * i, 0, 10.0 * i + 8, 12), parse_tile(n), 0.9, row=0) for i, n in enumerate(names)]
    if indicator:
        out.append(TileRead((0, 50, 8, 62), parse_tile(indicator), 0.8, row=APART))
    return out


def test_worker_reads_the_newest_frame_off_the_camera_thread() -> None:
    calls = []

    def read(frame):
        calls.append(frame)
        time.sleep(0.02)
        return reads_of(A if frame < 100 else B, indicator="y5")

    live = LiveReader(read, interval=0.05)
    try:
        for k in range(60):  # the camera offers far more frames than are read
            live.offer(k)
            time.sleep(0.005)
        deadline = time.monotonic() + 5
        while live.state().hand != tuple(A) and time.monotonic() < deadline:
            live.offer(60)
            time.sleep(0.01)
        state = live.state()
        assert state.hand == tuple(A) and state.indicator == "y5"
        assert len(calls) < 60 and calls == sorted(calls)  # only the newest frames, in order
        deadline = time.monotonic() + 5
        while live.state().hand != tuple(B) and time.monotonic() < deadline:
            live.offer(100)
            time.sleep(0.01)
        assert live.state().hand == tuple(B) and live.state().changed_at is not None
        assert live.state().freshness() < 1.0
    finally:
        live.stop()


def test_a_failing_read_is_skipped_and_logged(caplog: pytest.LogCaptureFixture) -> None:
    def read(frame):
        if frame == "bad":
            raise RuntimeError("camera glitch")
        return reads_of(A)

    caplog.set_level(logging.INFO, logger="okey_vision.ui.live")
    live = LiveReader(read, interval=0.01)
    try:
        live.offer("bad")
        deadline = time.monotonic() + 5
        while live.state().hand != tuple(A) and time.monotonic() < deadline:
            live.offer("ok")
            time.sleep(0.01)
        assert live.state().hand == tuple(A)
    finally:
        live.stop()
    # the page cannot show the worker thread: the log says what happened there
    text = caplog.text
    assert "first camera frame" in text
    assert "could not be read (1 so far)" in text and "camera glitch" in text
    assert "live: hand after" in text and " ".join(A) in text
