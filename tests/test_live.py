"""Live mode: votes per tile position, a worker that reads the newest frame."""

from __future__ import annotations

import logging
import time

import pytest

from okey_vision.tiles import parse_tile
from okey_vision.vision.live import FrameVoter, LiveReader
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

    caplog.set_level(logging.INFO, logger="okey_vision.vision.live")
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


# ------------------------------------- reads only when the view changes ---

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")


@pytest.fixture(scope="module")
def rack_frame():
    """A camera frame (960 x 720) of a rendered rack (the live benchmark's
    kind) in the middle of a table, and its rack tiles in rack order (boxes
    and corners in the frame)."""
    from dataclasses import replace

    from okey_vision.synth import SynthConfig, render_scene

    scene = render_scene(41, SynthConfig(long_side=(640, 640), aspects=(4 / 3,), p_flat=0.0, p_typical_hand=1.0,
                                         effects=False, p_hand=0.0, p_objects=0.0, p_other_rack=0.0,
                                         p_discards=0.0, p_indicator=1.0, max_tilt=8.0, max_roll=2.0,
                                         tile_height=(50.0, 60.0)))
    frame = np.zeros((720, 960, 3), np.uint8)
    frame[:] = cv2.resize(scene.image, (960, 720))[::-1, ::-1]  # a table around it: not the same picture
    ox, oy = 160, 120
    frame[oy:oy + 480, ox:ox + 640] = scene.image
    rack = sorted((t for t in scene.tiles if t.on_rack), key=lambda t: (t.row, (t.box[0] + t.box[2]) / 2))
    rack = [replace(t, box=(t.box[0] + ox, t.box[1] + oy, t.box[2] + ox, t.box[3] + oy),
                    quad=tuple((x + ox, y + oy) for x, y in t.quad)) for t in rack]
    return frame, rack


def noisy(img, rng, sigma=4.0):
    return np.clip(img + rng.normal(0, sigma, img.shape), 0, 255).astype(np.uint8)


def moved_tile(img, tile):
    """The frame with ``tile`` slid half a tile along its row (its old place shows what was beside it)."""
    out = img.copy()
    x1, y1, x2, y2 = map(int, tile.box)
    w = x2 - x1
    patch = img[y1:y2, x1:x2].copy()
    out[y1:y2, x1:x2] = img[y1:y2, x1 - w:x1] if x1 >= w else 90
    end = min(out.shape[1], x2 + w // 2)
    out[y1:y2, x1 + w // 2:end] = patch[:, :end - x1 - w // 2]
    return out


def shifted(img, dx, dy):
    m = np.float32([[1, 0, dx], [0, 1, dy]])
    return cv2.warpAffine(img, m, (img.shape[1], img.shape[0]), borderMode=cv2.BORDER_REFLECT)


def test_the_change_test_ignores_noise_shake_and_light_but_sees_a_moved_tile(rack_frame):
    from okey_vision.vision.live import ViewChange, rack_region

    img, rack = rack_frame
    rng = np.random.default_rng(1)
    reads = [TileRead(t.box, t.tile, 0.9, row=t.row) for t in rack]
    region = rack_region(reads, img)
    vc = ViewChange()
    ref = vc.look(noisy(img, rng), region)
    for _ in range(10):  # a still camera: its noise is no change
        assert not vc.differs(vc.look(noisy(img, rng), region), ref)
    assert not vc.differs(vc.look(noisy(shifted(img, 2, 1), rng), region), ref)  # a hand-held camera's shake
    lighter = np.clip(img.astype(int) + 15, 0, 255).astype(np.uint8)
    assert not vc.differs(vc.look(lighter, region), ref)  # the camera's exposure
    for tile in (rack[1], rack[len(rack) // 2], rack[-2]):
        assert vc.differs(vc.look(noisy(moved_tile(img, tile), rng), region), ref), tile.tile.name
    # a larger move of the camera: measured, and no change once taken out
    far = noisy(shifted(img, 24, -9), rng)
    dx, dy = vc.shift(vc.small(img), vc.small(far), img.shape[1])
    assert abs(dx - 24) < 4 and abs(dy + 9) < 4
    assert not vc.differs(vc.look(far, region, (dx, dy)), ref)


def counting_reader(rack, moved_frames=()):
    """A reader that counts its calls and reads the rack (with its corners), one
    tile fewer on a frame in ``moved_frames`` (by identity)."""
    calls = []
    reads = [TileRead(t.box, t.tile, 0.99, row=t.row, quad=tuple(map(tuple, t.quad))) for t in rack]

    def read(frame):
        calls.append(frame)
        return reads[:-1] if any(frame is f for f in moved_frames) else reads

    return read, calls


def wait_for(cond, timeout=10.0):
    end = time.monotonic() + timeout
    while not cond() and time.monotonic() < end:
        time.sleep(0.02)
    return cond()


def test_a_still_noisy_view_is_not_read_again_but_a_moved_tile_is(rack_frame):
    img, rack = rack_frame
    rng = np.random.default_rng(2)
    still = [noisy(img, rng) for _ in range(6)]
    moved = [noisy(moved_tile(img, rack[3]), rng) for _ in range(6)]
    read, calls = counting_reader(rack, moved)
    live = LiveReader(read, check=0.03, settle=0.1, interval=0.02)
    hand = tuple(t.tile.name for t in rack)
    try:
        k = 0

        def offer(frames, seconds):
            nonlocal k
            end = time.monotonic() + seconds
            while time.monotonic() < end:
                live.offer(frames[k % len(frames)])
                k += 1
                time.sleep(0.01)

        offer(still, 0.5)
        assert wait_for(lambda: live.state().hand == hand)
        first = len(calls)
        assert first <= 3  # read until two reads agree
        offer(still, 1.5)  # a noisy still camera: checked many times, never read again
        assert len(calls) == first and live.state().checks > 20
        offer(moved, 1.0)  # a tile moved: read again, the new hand shown
        assert len(calls) > first and live.state().hand == hand[:-1]
    finally:
        live.stop()


def test_the_move_is_drawn_on_the_video_and_follows_the_rack(rack_frame):
    from okey_vision.report.analysis import RackMove
    from okey_vision.report.photo import RING, draw_move

    img, rack = rack_frame
    read, _calls = counting_reader(rack)
    live = LiveReader(read, check=0.03, settle=0.1, interval=0.02, draw=draw_move)
    live.set_advice(lambda hand, ind: ("advice", RackMove(2, ((0, 1),))))
    try:
        assert live.annotate(img) is img  # nothing read yet: the frame as it is
        end = time.monotonic() + 10
        while live.state().move is None and time.monotonic() < end:
            live.offer(img)
            time.sleep(0.01)
        assert live.state().advice == "advice"
        assert wait_for(lambda: live.annotate(img) is not img)

        def ring_centre(frame):
            out = live.annotate(frame)
            ys, xs = np.nonzero((np.abs(out.astype(int) - RING).sum(2) < 40) & (out != frame).any(2))
            return xs.mean(), ys.mean()

        x1, y1, x2, y2 = rack[2].box
        cx, cy = ring_centre(img)
        assert abs(cx - (x1 + x2) / 2) < (x2 - x1) / 3 and abs(cy - (y1 + y2) / 2) < (y2 - y1) / 3
        moved = shifted(img, 30, 12)  # the camera moved: the ring follows the tile
        for _ in range(30):
            live.offer(moved)
            time.sleep(0.02)
        mx, my = ring_centre(moved)
        assert abs(mx - cx - 30) < 6 and abs(my - cy - 12) < 6
    finally:
        live.stop()
