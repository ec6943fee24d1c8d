"""``okey-vision check --ray``: the organiser's photos spread over a Ray cluster's workers.

Each worker (:class:`PhotoWorker`, a Ray actor of one core) loads the
shipped reader once and checks the photos it is sent exactly as the local
check does (:func:`~okey_vision.check.photos.check_photo`: decode, read,
judge, draw), so its rows are the local check's, byte for byte. This
process reads each file (bounded, :func:`~okey_vision.vision.io.read_photo_file`:
a missing file, a pipe or a huge file is its row here, as locally) and sends
its bytes, so the workers may be on other machines; at most ``window``
photos wait at a worker, so memory stays bounded on a large folder.

Rows come in the photos' order, each as soon as it and those before it are
done. A worker that dies (its machine gone, killed) is started again and the
photos it held are sent once more; a photo whose worker dies twice is one
row with its error (``worker_failed``), and every other photo is still
checked.
"""

from __future__ import annotations

import itertools
import uuid
from collections import deque
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any

import ray

from okey_vision.check.photos import Checked, Figure, Job, check_photo
from okey_vision.check.verdict import CheckError, Verdict
from okey_vision.errors import OkeyError, clip
from okey_vision.scoring import COUNTDOWN, Scheme, check_scheme
from okey_vision.tiles import Game
from okey_vision.yuzbir.rules import Options101

#: Photos sent to one worker ahead of its answers (one read, one decoding or in transit meanwhile).
WINDOW = 2
#: Tries of one photo: its first worker's, and one more after that worker died.
TRIES = 2


@ray.remote(num_cpus=1)
class PhotoWorker:
    """One worker of the check: the shipped reader, loaded once."""

    def __init__(self) -> None:
        """Load the reader (as the local check's ``default_reader().load()``)."""
        import os

        from okey_vision.vision.reader import default_reader

        self.read = default_reader().load().read
        self.pid = os.getpid()

    def check(self, job: Job, data: bytes, header: Any, scheme: Scheme, figure: Figure | None,
              app: bool, game: Game = Game.OKEY, options101: Options101 | None = None) -> Checked:
        """One photo's bytes: decoded under its own name, then checked as locally."""
        import time

        from okey_vision.vision.io import decode_image

        t0 = time.perf_counter()
        assert job.path is not None  # only files are sent (uploads are checked in the app)
        try:
            photo = decode_image(data, str(job.path), header=header)
        except OkeyError as exc:
            return Checked(Verdict(job.name, scheme=scheme, failure=exc))
        return check_photo(job, photo, self.read, scheme, figure, app, t0, game, options101)

    def process(self) -> int:
        """The worker's process id (the tests stop one by it)."""
        return int(self.pid)


@dataclass
class _Sent:
    """A photo at a worker: its index, the worker's slot and the worker, and the tries so far."""

    index: int
    slot: int
    worker: Any
    tries: int


def _load(job: Job, scheme: Scheme) -> tuple[bytes, Any] | Checked:
    """A job's bytes and header read here, or its row when it cannot be (as the local check says it)."""
    from okey_vision.vision.io import read_photo_file

    if job.failure is not None:
        return Checked(Verdict(job.name, scheme=scheme, failure=job.failure))
    assert job.path is not None
    try:
        return read_photo_file(job.path)
    except OkeyError as exc:
        return Checked(Verdict(job.name, scheme=scheme, failure=exc))


def check_on_ray(jobs: Sequence[Job], workers: int, scheme: Scheme | str = COUNTDOWN, figure: Figure | None = None,
                 app: bool = False, window: int = WINDOW, game: Game = Game.OKEY,
                 options101: Options101 | None = None) -> Iterator[Checked]:
    """Every job checked on ``workers`` workers of the Ray this process is
    connected to, yielded in the order given; the workers stop at the end."""
    scheme = check_scheme(scheme)
    if not jobs:
        return
    count = max(1, min(workers, len(jobs)))
    names = (f"okey-check-{uuid.uuid4().hex[:8]}-{n}" for n in itertools.count())  # named: to be watched
    pool = [_start(next(names)) for _ in range(count)]
    done: dict[int, Checked] = {}
    waiting: deque[tuple[int, int]] = deque((i, 0) for i in range(len(jobs)))  # (index, tries so far)
    sent: dict[Any, _Sent] = {}
    load: list[int] = [0] * count
    following = 0
    try:
        while following < len(jobs):
            _send(jobs, pool, waiting, sent, load, done, scheme, figure, app, window, game, options101)
            while following in done:
                yield done.pop(following)
                following += 1
            if following >= len(jobs) or not sent:
                continue
            ready, _ = ray.wait(list(sent), num_returns=1)
            ref = ready[0]
            at = sent.pop(ref)
            load[at.slot] -= 1
            try:
                done[at.index] = ray.get(ref)
            except ray.exceptions.RayActorError as exc:  # the worker died: a new one, this photo once more
                if pool[at.slot] is at.worker:  # its first lost photo: the slot gets a new worker
                    pool[at.slot] = _start(next(names))
                if at.tries + 1 < TRIES:
                    waiting.appendleft((at.index, at.tries + 1))
                else:
                    done[at.index] = _failed(jobs[at.index], scheme, "worker_failed", exc)
            except ray.exceptions.RayError as exc:  # the task itself failed (never the check's own errors)
                done[at.index] = _failed(jobs[at.index], scheme, "reader_failed", exc)
    finally:
        for actor in pool:
            ray.kill(actor)


def _start(name: str) -> Any:
    """A new worker, named ``name`` (its reader loads while the first photos travel to it)."""
    return PhotoWorker.options(name=name).remote()  # type: ignore[attr-defined]


def _send(jobs: Sequence[Job], pool: list[Any], waiting: deque[tuple[int, int]], sent: dict[Any, _Sent],
          load: list[int], done: dict[int, Checked], scheme: Scheme, figure: Figure | None, app: bool,
          window: int, game: Game = Game.OKEY, options101: Options101 | None = None) -> None:
    """Send waiting photos to the workers with room (at most ``window`` each); rows found here go to ``done``."""
    while waiting:
        slot = min(range(len(pool)), key=load.__getitem__)
        if load[slot] >= window:
            return
        index, tries = waiting.popleft()
        loaded = _load(jobs[index], scheme)
        if isinstance(loaded, Checked):
            done[index] = loaded
            continue
        data, header = loaded
        ref = pool[slot].check.remote(jobs[index], data, header, scheme, figure, app, game, options101)
        sent[ref] = _Sent(index, slot, pool[slot], tries)
        load[slot] += 1


def _failed(job: Job, scheme: Scheme, key: str, exc: BaseException) -> Checked:
    """The row of a photo its workers could not check: the error, in one line."""
    why = f"{type(exc).__name__}: {clip(' '.join(str(exc).split()), 60)}"
    return Checked(Verdict(job.name, scheme=scheme, failure=CheckError.of(key, name=clip(job.name), why=why)))


__all__ = ["TRIES", "WINDOW", "PhotoWorker", "check_on_ray"]
