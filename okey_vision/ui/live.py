"""Live coaching from a camera: frames in, a steady hand out.

The camera sends 15-30 frames a second; reading one takes a few hundred
milliseconds on a small CPU. :class:`LiveReader` keeps only the newest frame
and reads it on its own worker thread every ``interval`` seconds, never on
the camera's thread. :class:`FrameVoter` votes across the last reads, tile
position by tile position, so one bad frame (a hand passing, motion blur)
never changes the hand, and the advice follows a real change of the rack
within a few reads.

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

#: Seconds between two reads of the newest frame.
READ_INTERVAL = 0.4

# The live view runs on threads the page cannot show: what happens there
# (frames arriving, a read failing, the hand changing) goes to the app's log.
log = logging.getLogger(__name__)


class FrameVoter:
    """Votes per tile position across the last ``window`` reads.

    The hand shown changes only when ``quorum`` of the last reads agree on
    the number of tiles and, position by position, on each tile."""

    def __init__(self, window: int = 5, quorum: int = 3) -> None:
        self.window = window
        self.quorum = quorum
        self._reads: deque[tuple[str, ...]] = deque(maxlen=window)
        self.hand: tuple[str, ...] = ()

    def add(self, names: Sequence[str]) -> bool:
        """Add one read (tile names in rack order); True when the hand shown changed."""
        self._reads.append(tuple(names))
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

    def clear(self) -> None:
        """Forget every read (a new round)."""
        self._reads.clear()
        self.hand = ()


@dataclass(frozen=True)
class LiveState:
    """What the live view shows: the steady hand, the indicator seen apart,
    when the last frame was read and when the hand last changed."""

    hand: tuple[str, ...]
    indicator: str | None
    reads: int
    last_read: float | None
    changed_at: float | None
    read_seconds: float

    def freshness(self, now: float | None = None) -> float | None:
        """Seconds since the last read (None before the first)."""
        if self.last_read is None:
            return None
        return (time.monotonic() if now is None else now) - self.last_read


class LiveReader:
    """Reads the newest camera frame every ``interval`` seconds on a worker thread.

    ``read(image) -> list[TileRead]`` is the shared reader; frames come from
    the camera thread through :meth:`offer`. The worker stops by itself when
    no frame has come for ``idle`` seconds (the player closed the camera)."""

    def __init__(self, read: Callable, interval: float = READ_INTERVAL, idle: float = 30.0,
                 voter: FrameVoter | None = None) -> None:
        self._read = read
        self.interval = interval
        self.idle = idle
        self.voter = voter or FrameVoter()
        self._frame = None
        self._frame_at = 0.0
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._reads = 0
        self._last_read: float | None = None
        self._changed_at: float | None = None
        self._read_seconds = 0.0
        self._indicators: deque[str] = deque(maxlen=5)
        self._frames = 0
        self._failures = 0

    def offer(self, frame) -> None:
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

    def _run(self) -> None:
        from okey_vision.vision.reads import APART

        while not self._stop.is_set():
            t0 = time.monotonic()
            with self._lock:
                frame, self._frame = self._frame, None
                frame_at = self._frame_at
            if frame is None:
                if t0 - frame_at > self.idle:
                    return
                self._stop.wait(0.05)
                continue
            try:
                reads = self._read(frame)
            except Exception:  # a bad frame is skipped, the live view goes on
                reads = None
                self._failures += 1
                if self._failures == 1 or self._failures % 50 == 0:  # the cause once, then a count
                    log.warning("live: a camera frame could not be read (%d so far)", self._failures,
                                exc_info=self._failures == 1)
            done = time.monotonic()
            if reads is not None:
                rack = [r.tile.name for r in reads if r.row != APART]
                apart = [r for r in reads if r.row == APART and not r.tile.is_false_joker]
                with self._lock:
                    if self.voter.add(rack):
                        self._changed_at = done
                        log.info("live: hand after %d reads: %s", self._reads + 1, " ".join(self.voter.hand))
                    if apart:
                        self._indicators.append(max(apart, key=lambda r: r.confidence).tile.name)
                    self._reads += 1
                    self._last_read = done
                    self._read_seconds = done - t0
            self._stop.wait(max(0.0, self.interval - (done - t0)))

    def state(self) -> LiveState:
        """A snapshot for the page."""
        with self._lock:
            ind = Counter(self._indicators).most_common(1)[0][0] if self._indicators else None
            return LiveState(self.voter.hand, ind, self._reads, self._last_read, self._changed_at,
                             self._read_seconds)

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the worker and wait for its read in progress (it also stops by
        itself when frames stop coming)."""
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout)


__all__ = ["FrameVoter", "LiveReader", "LiveState", "READ_INTERVAL"]
