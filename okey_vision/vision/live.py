"""Live coaching from a camera: frames in, a steady hand and its move out.

The camera sends 15-30 frames a second; reading one takes 100-300 ms on a
small CPU, and one reader serves every player at the table. So the live view
reads a frame only when the view has changed: :class:`LiveReader`'s worker
looks at the newest frame every ``check`` seconds through a cheap test
(:class:`ViewChange`: a small grey thumbnail of the rack's region, compared
with the one taken at the last read, a pixel's worth of camera shake and the
camera's noise forgiven), and starts full reads only once a change has
settled (the view still for ``settle`` seconds: a hand moving a tile is
never read). It reads until two reads agree (:class:`FrameVoter`), then
waits for the next change: an idle rack costs a thumbnail a check.

Between reads the worker follows the rack as the camera moves (the shift of
a small copy of the whole frame, by phase correlation), so the move drawn on
the video (:meth:`LiveReader.annotate`: the tile to throw ringed, the melds
outlined) stays on the tiles. The advice for a new hand is worked out on the
worker too, as soon as the hand changes (``set_advice``).

>>> v = FrameVoter(window=5, quorum=3)
>>> for names in (["r1", "r2"], ["r1", "r2"], ["r1", "k2"], ["r1", "r2"]):
...     _ = v.add(names)
>>> v.hand
('r1', 'r2')
"""

from __future__ import annotations

import logging
import threading
import time
from collections import Counter, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    import numpy as np

    from okey_vision.vision.reads import TileRead


@dataclass(frozen=True)
class LiveConfig:
    """The live view's tuned values, each with its reason (the reader's own are :mod:`okey_vision.vision.config`)."""

    #: Seconds between two reads at most while reading after a change: a read
    #: takes about this long on a phone-sized frame, so reads never queue.
    read_interval: float = 0.1
    #: Seconds between two looks at the newest frame (the cheap change test):
    #: a look costs a few ms, so ten a second follow a hand without load.
    check_interval: float = 0.1
    #: How long the view must stay still after a change before it is read (s):
    #: a tile being placed is in motion for about this long.
    settle: float = 0.2
    #: Reads after a change before giving up on a steady hand for a while (a
    #: hand half hidden by a finger never steadies: stop spending the CPU).
    max_reads: int = 6
    #: After that many reads without a steady hand, wait this long (s) before trying again.
    retry: float = 2.0
    #: No frame for this long (s): the player closed the camera, the worker stops.
    idle: float = 30.0
    #: The hand shown changes when ``quorum`` of the last ``window`` reads agree
    #: (tile by tile): 2 of 3 drops a single misread and still follows a new hand in two reads.
    window: int = 3
    quorum: int = 2
    #: Width (px) of the grey copy the change test compares: noise averages
    #: out, and a tile still covers several of its pixels.
    thumb_width: int = 192
    #: Grey levels a pixel must change by (after the frames' common brightness
    #: change) to count: above a phone camera's noise at that size.
    level: float = 16.0
    #: Changed pixels (more than this many) that make a change: a tile moved
    #: changes dozens, noise a few.
    pixels: int = 4
    #: Phase-correlation response under which the camera's shift is not
    #: trusted (the view itself changed, not the camera).
    min_response: float = 0.15
    #: Share of the tiles' extent added each side of the watched region (a tile added at an end).
    region_margin: float = 0.25


#: The live view's values in use.
LIVE = LiveConfig()

# The live view runs on threads the page cannot show: what happens there
# (frames arriving, a read failing, the hand changing) goes to the app's log.
log = logging.getLogger(__name__)


class FrameVoter:
    """Votes per tile position across the last ``window`` reads.

    The hand shown changes only when ``quorum`` of the last reads agree on
    the number of tiles and, position by position, on each tile."""

    def __init__(self, window: int = LIVE.window, quorum: int = LIVE.quorum) -> None:
        self.window = window
        self.quorum = quorum
        self._reads: deque[tuple[str, ...]] = deque(maxlen=window)
        self.hand: tuple[str, ...] = ()

    def add(self, names: Sequence[str], sure: bool = False) -> bool:
        """Add one read (tile names in rack order); True when the hand shown
        changed. ``sure``: every tile read surely, the first read since the
        view changed and settled (:meth:`restart`): shown at once, the next
        reads confirm it (or, two agreeing, replace it)."""
        self._reads.append(tuple(names))
        if sure and len(self._reads) == 1:
            changed = self._reads[0] != self.hand
            self.hand = self._reads[0]
            return changed
        sizes = Counter(len(r) for r in self._reads)
        size, votes = sizes.most_common(1)[0]
        if votes < self.quorum:
            return False
        same = [r for r in self._reads if len(r) == size]
        hand = []
        for i in range(size):
            name, n = Counter(r[i] for r in same).most_common(1)[0]
            if n < self.quorum:
                return False  # this position is still unsure: keep the hand shown
            hand.append(name)
        new = tuple(hand)
        changed = new != self.hand
        self.hand = new
        return changed

    @property
    def steady(self) -> bool:
        """True when the last ``quorum`` reads are all the hand shown (nothing more to read)."""
        last = list(self._reads)[-self.quorum:]
        return len(last) == self.quorum and all(r == self.hand for r in last)

    def restart(self) -> None:
        """Forget the reads, keep the hand shown (the view changed: the next reads decide)."""
        self._reads.clear()

    def clear(self) -> None:
        """Forget every read (a new round)."""
        self._reads.clear()
        self.hand = ()


class ViewChange:
    """The cheap test between frames, and the camera's shift.

    :meth:`small` shrinks a frame once per look to a grey copy ``width`` px
    wide (noise averages out); :meth:`thumb` cuts the rack's ``region`` out of
    it (the whole frame before a read), moved by the camera's ``shift``
    since that read, blurred. :meth:`differs` says whether two thumbnails
    show a different rack: more than ``pixels`` pixels changed by more than
    ``level`` grey levels, after the frames' common brightness change, from
    every value within one pixel of it in the other (camera shake of a few
    frame pixels is no change). :meth:`shift` measures how far the camera
    moved (phase correlation of two small copies), so a larger move of the
    camera is no change either and the move drawn on the video follows it.
    A frame that is not an image (a test's stand-in) is its own thumbnail,
    compared by value.
    """

    def __init__(self, width: int = LIVE.thumb_width, level: float = LIVE.level, pixels: int = LIVE.pixels,
                 min_response: float = LIVE.min_response) -> None:
        self.width = width
        self.level = level
        self.pixels = pixels
        self.min_response = min_response
        self._window: Any = None

    def small(self, frame: Any) -> Any:
        """The frame's small grey copy (the frame itself when it is not an image)."""
        if not hasattr(frame, "shape"):
            return frame
        import cv2
        import numpy as np

        h, w = frame.shape[:2]
        th = max(8, round(self.width * h / w))
        if w > 4 * self.width:  # sampled to twice the size, then averaged down: cheap, and the noise averages out
            frame = cv2.resize(frame, (2 * self.width, 2 * th), interpolation=cv2.INTER_LINEAR)
        small = cv2.resize(frame, (self.width, th), interpolation=cv2.INTER_AREA)
        grey = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY) if small.ndim == 3 else small
        return grey.astype(np.float32)

    def thumb(self, small: Any, region: tuple[int, int, int, int] | None, shift: tuple[float, float],
              frame_width: int) -> Any:
        """The rack's ``region`` (frame px) of a :meth:`small` copy, moved by ``shift`` (frame px), blurred."""
        if not hasattr(small, "shape"):
            return small
        import cv2

        h, w = small.shape
        k = w / frame_width  # small px per frame px
        x1, y1, x2, y2 = (round(v * k) for v in region) if region else (0, 0, w, h)
        rw, rh = max(4, min(w, x2 - x1)), max(4, min(h, y2 - y1))  # the region keeps its size
        x1 = max(0, min(w - rw, x1 + round(shift[0] * k)))
        y1 = max(0, min(h - rh, y1 + round(shift[1] * k)))
        return cv2.GaussianBlur(small[y1:y1 + rh, x1:x1 + rw], (3, 3), 0)

    def look(self, frame: Any, region: tuple[int, int, int, int] | None = None,
             shift: tuple[float, float] = (0.0, 0.0)) -> Any:
        """The thumbnail of ``frame``'s ``region`` moved by ``shift`` (:meth:`small`, then :meth:`thumb`)."""
        width = frame.shape[1] if hasattr(frame, "shape") else 0
        return self.thumb(self.small(frame), region, shift, width)

    def differs(self, a: Any, b: Any) -> bool:
        """Whether two thumbnails show a different view."""
        if a is None or b is None:
            return a is not b
        if not hasattr(a, "shape") or not hasattr(b, "shape"):
            return bool(a != b)
        if a.shape != b.shape:
            return True
        import cv2
        import numpy as np

        a = a - float(np.mean(a - b))  # the camera's exposure, not the rack
        near = np.ones((3, 3), np.uint8)  # a pixel's worth of shake: any value around it in the other
        lo, hi = cv2.erode(b, near), cv2.dilate(b, near)
        changed = (a > hi + self.level) | (a < lo - self.level)
        return int(np.count_nonzero(changed[1:-1, 1:-1])) > self.pixels

    def shift(self, ref: Any, now: Any, frame_width: int) -> tuple[float, float]:
        """How far the camera moved from ``ref`` to ``now`` (both :meth:`small`), in frame px;
        none when the two do not match well (the view itself changed)."""
        if not hasattr(ref, "shape") or not hasattr(now, "shape") or ref.shape != now.shape:
            return 0.0, 0.0
        import cv2

        if self._window is None or self._window.shape != ref.shape:
            self._window = cv2.createHanningWindow((ref.shape[1], ref.shape[0]), cv2.CV_32F)
        # copies: OpenCV's phaseCorrelate windows its inputs in place
        (dx, dy), response = cv2.phaseCorrelate(ref.copy(), now.copy(), self._window)
        if response < self.min_response:
            return 0.0, 0.0
        s = frame_width / ref.shape[1]
        return dx * s, dy * s


@dataclass(frozen=True)
class LiveState:
    """What the live view shows: the steady hand, the indicator seen apart,
    when the last frame was read and when the hand last changed; the advice
    for the hand (what ``set_advice``'s function gave, None before) and the
    move drawn on the video."""

    hand: tuple[str, ...]
    indicator: str | None
    reads: int
    last_read: float | None
    changed_at: float | None
    read_seconds: float
    advice: Any = None
    move: Any = None
    checks: int = 0

    def freshness(self, now: float | None = None) -> float | None:
        """Seconds since the last read (None before the first)."""
        if self.last_read is None:
            return None
        return (time.monotonic() if now is None else now) - self.last_read


#: ``advise(hand, indicator seen) -> (advice, move)``: the page's analysis of a live hand.
Advise = Callable[[tuple[str, ...], "str | None"], tuple[Any, Any]]
#: ``draw(frame, corners by rack place, move, thick=..., part=...)``: the move drawn on a frame, in place.
DrawMove = Callable[..., None]
#: ``read(frame) -> reads``: the shared reader's read of one BGR frame.
Read = Callable[["np.ndarray"], "Sequence[TileRead]"]


class LiveReader:
    """Reads camera frames on a worker thread when the view has changed.

    ``read(image) -> list[TileRead]`` is the shared reader; frames come from
    the camera thread through :meth:`offer`. The worker looks at the newest
    frame every ``check`` seconds (:class:`ViewChange`), reads it once a
    change has been still for ``settle`` seconds (at most one read every
    ``interval`` seconds) until the hand is steady, and stops by itself when
    no frame has come for ``idle`` seconds (the player closed the camera).
    ``draw`` draws the move on a frame (:meth:`annotate`; the app's drawing,
    :func:`okey_vision.report.photo.draw_move`); without it no move is drawn."""

    def __init__(self, read: Read, interval: float = LIVE.read_interval, idle: float = LIVE.idle,
                 voter: FrameVoter | None = None, check: float = LIVE.check_interval, settle: float = LIVE.settle,
                 change: ViewChange | None = None, draw: DrawMove | None = None, config: LiveConfig = LIVE) -> None:
        self._read = read
        self._draw = draw
        self.config = config
        self.interval = interval
        self.check = min(check, interval)
        self.settle = settle
        self.idle = idle
        self.voter = voter or FrameVoter(config.window, config.quorum)
        self.change = change or ViewChange(config.thumb_width, config.level, config.pixels, config.min_response)
        self._frame: np.ndarray | None = None
        self._frame_at = 0.0
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._reads = 0
        self._checks = 0
        self._last_read: float | None = None
        self._changed_at: float | None = None
        self._read_seconds = 0.0
        self._indicators: deque[str] = deque(maxlen=5)
        self._frames = 0
        self._failures = 0
        # the change test's state (worker thread only)
        self._region: tuple[int, int, int, int] | None = None
        self._ref = self._last_thumb = None
        self._looked: np.ndarray | None = None
        self._pending = False
        self._reading = True  # the first frame is read
        self._settled = False
        self._moved_at = 0.0
        self._read_at = -1e9
        self._reads_now = 0
        self._retry_at = 0.0
        # the overlay: the rack's corners at the last agreeing read, the camera's shift since
        self._quads: list[tuple[tuple[float, float], ...]] = []
        self._rows: list[int] = []
        self._track_ref = None
        self._shift = (0.0, 0.0)
        # the advice
        self._advise: Advise | None = None
        self._advise_key: Any = None
        self._advised: tuple[Any, ...] | None = None
        self._advice: Any = None
        self._move: Any = None

    # -- the camera's thread ---------------------------------------------------------
    def offer(self, frame: np.ndarray) -> None:
        """The camera thread hands over its newest frame (BGR array); cheap."""
        if self._frames == 0:
            log.info("live: first camera frame (%s)", "x".join(map(str, getattr(frame, "shape", ())[:2][::-1])))
        self._frames += 1
        with self._lock:
            self._frame = frame
            self._frame_at = time.monotonic()
        if self._thread is None or not self._thread.is_alive():
            self._stop.clear()
            self._thread = threading.Thread(target=self._run, name="okey-live-reader", daemon=True)
            self._thread.start()

    def annotate(self, frame: np.ndarray) -> np.ndarray:
        """``frame`` (BGR array) with the move drawn on it where the rack is
        now: a copy, the tile to throw ringed, the melds outlined; the frame
        itself while there is no move to draw or the rack is changing."""
        with self._lock:
            move, quads, rows, (dx, dy) = self._move, self._quads, self._rows, self._shift
        draw_move = self._draw
        if move is None or not quads or not hasattr(frame, "shape") or self._pending or self._reading:
            return frame  # nothing to draw, or the rack is changing: no move drawn on tiles that moved
        if draw_move is None:
            return frame
        out: np.ndarray = frame.copy()
        moved = {i: tuple((x + dx, y + dy) for x, y in q) for i, q in enumerate(quads)}
        draw_move(out, moved, move, thick=max(2, round(max(frame.shape[:2]) / 400)), part=dict(enumerate(rows)))
        return out

    # -- the page's thread ------------------------------------------------------------
    def set_advice(self, advise: Advise | None, key: Any = None) -> None:
        """How to advise a live hand; ``key`` says what it depends on beyond the
        hand (the indicator chosen, the tiles seen, the scheme): a new key
        advises the hand shown again."""
        with self._lock:
            if advise is None or key != self._advise_key or self._advise is None:
                self._advise, self._advise_key = advise, key
                self._advised = None

    def state(self) -> LiveState:
        """A snapshot for the page."""
        with self._lock:
            ind = Counter(self._indicators).most_common(1)[0][0] if self._indicators else None
            fresh = self._advised is not None and self._advised[0] == self.voter.hand
            return LiveState(self.voter.hand, ind, self._reads, self._last_read, self._changed_at,
                             self._read_seconds, self._advice if fresh else None,
                             self._move if fresh else None, self._checks)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the worker and wait for its read in progress (it also stops by
        itself when frames stop coming)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)

    # -- the worker -------------------------------------------------------------------
    def _run(self) -> None:
        while not self._stop.is_set():
            t0 = time.monotonic()
            with self._lock:
                frame, frame_at = self._frame, self._frame_at
            if frame is None:
                if t0 - frame_at > self.idle:
                    return
                self._stop.wait(0.05)
                continue
            if t0 - frame_at > self.idle:
                return
            if self._wants_read(frame, t0):
                self._read_frame(frame)
            self._advise_hand()
            self._stop.wait(max(0.0, self.check - (time.monotonic() - t0)))

    def _wants_read(self, frame: np.ndarray, now: float) -> bool:
        """The change test on the newest frame: whether to read it now."""
        if frame is not self._looked:  # a new frame: its thumbnail (the same frame is not looked at twice)
            self._looked = frame
            self._checks += 1
            change, width = self.change, getattr(frame, "shape", (0, 0))[1]
            small = change.small(frame)
            thumb = change.thumb(small, self._region, self._shift, width)
            differs = change.differs(thumb, self._ref)
            if differs and self._track_ref is not None:  # or did the camera move? the rack's new place
                shift = change.shift(self._track_ref, small, width)
                moved = change.thumb(small, self._region, shift, width) if shift != self._shift else None
                if moved is not None and not change.differs(moved, self._ref):  # it did: the same rack, moved
                    with self._lock:
                        self._shift = shift
                    thumb, differs = moved, False
            # still or moving: only asked while a change is under way (an idle rack: one comparison a look)
            moving = (differs or self._reading) and change.differs(thumb, self._last_thumb)
            self._last_thumb = thumb
            if moving:
                self._moved_at = now
            if self._reading and moving and self._ref is not None:
                self._reading, self._pending = False, True  # still moving: wait until it settles
            elif not self._reading and not self._pending and differs:
                self._pending, self._moved_at = True, now
        if not self._reading and self._pending and now - self._moved_at >= self.settle and now >= self._retry_at:
            self._reading, self._pending, self._reads_now = True, False, 0
            self.voter.restart()  # the view changed: the reads from now on decide
            self._settled = True  # of a still view: a sure first read is shown at once
        return self._reading and now - self._read_at >= self.interval

    def _read_frame(self, frame: np.ndarray) -> None:
        from okey_vision.vision.reads import APART, corners

        t0 = time.monotonic()
        self._read_at = t0
        try:
            reads = self._read(frame)
        except Exception:
            reads = None
            self._failures += 1
            if self._failures == 1 or self._failures % 50 == 0:  # the cause once, then a count
                log.warning("live: a camera frame could not be read (%d so far)", self._failures,
                            exc_info=self._failures == 1)
        done = time.monotonic()
        self._reads_now += 1
        if reads is None:
            if self._reads_now >= self.config.max_reads:
                self._reading, self._retry_at, self._pending = False, done + self.config.retry, True
            return
        rack = [r for r in reads if r.row != APART]
        apart = [r for r in reads if r.row == APART and not r.tile.is_false_joker]
        names = [r.tile.name for r in rack]
        sure = bool(rack) and not any(r.low_confidence for r in rack)
        self._region = rack_region(reads, frame)
        small = self.change.small(frame)
        self._ref = self._last_thumb = self.change.thumb(small, self._region, (0.0, 0.0),
                                                         getattr(frame, "shape", (0, 0))[1])
        with self._lock:
            if self.voter.add(names, sure=sure and self._settled):
                self._changed_at = done
                log.info("live: hand after %d reads: %s", self._reads + 1, " ".join(self.voter.hand))
            if tuple(names) == self.voter.hand:  # the overlay follows the reads that agree with the hand
                self._quads = [corners(r) for r in rack]
                self._rows = [r.row for r in rack]
            self._track_ref = small if hasattr(small, "shape") else None
            self._shift = (0.0, 0.0)  # the thumbnails and the corners are of this frame now
            if apart:
                self._indicators.append(max(apart, key=lambda r: r.confidence).tile.name)
            self._reads += 1
            self._last_read = done
            self._read_seconds = done - t0
        if self.voter.steady:
            self._reading = False  # nothing more to read until the view changes
        elif self._reads_now >= self.config.max_reads:
            self._reading, self._retry_at, self._pending = False, done + self.config.retry, True

    def _advise_hand(self) -> None:
        """Advise the hand shown when it, or what its advice depends on, changed."""
        with self._lock:
            advise, key, hand = self._advise, self._advise_key, self.voter.hand
            ind = Counter(self._indicators).most_common(1)[0][0] if self._indicators else None
            done = self._advised
        if advise is None or not hand or done == (hand, key, ind):
            return
        try:
            advice, move = advise(hand, ind)
        except Exception:
            log.warning("live: advice failed for %s", " ".join(hand), exc_info=True)
            advice, move = None, None
        with self._lock:
            self._advice, self._move, self._advised = advice, move, (hand, key, ind)


def rack_region(reads: Sequence[Any], frame: Any,
                margin: float = LIVE.region_margin) -> tuple[int, int, int, int] | None:
    """The region the change test watches: around every tile read (a quarter
    of the tiles' extent more each side, for a tile added at an end); the
    whole frame when nothing was read or the frame is not an image."""
    if not reads or not hasattr(frame, "shape"):
        return None
    h, w = frame.shape[:2]
    x1 = min(r.box[0] for r in reads)
    y1 = min(r.box[1] for r in reads)
    x2 = max(r.box[2] for r in reads)
    y2 = max(r.box[3] for r in reads)
    mx, my = (x2 - x1) * margin, (y2 - y1) * margin + (y2 - y1) / max(1, len(reads))
    return (max(0, int(x1 - mx)), max(0, int(y1 - my)), min(w, int(x2 + mx) + 1), min(h, int(y2 + my) + 1))


__all__ = ["LIVE", "FrameVoter", "LiveConfig", "LiveReader", "LiveState", "ViewChange", "rack_region"]
