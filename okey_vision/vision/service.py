"""The reader an app or a command uses: the reader service when one is named, else its own.

:func:`open_reader` gives a :class:`RemoteReader` when ``$OKEY_VISION_SERVER``
names a reader service (``okey-vision serve``: many tables' apps share one
service, its replicas spread over a Ray cluster's cores and machines), else
the process's own :func:`~okey_vision.vision.reader.default_reader` (the
embedded default). Both read alike: ``read(image, indicator=...)`` and
``read_photo(photo)`` give the same :class:`~okey_vision.vision.reads.TileRead`
list (the pixels travel losslessly, :mod:`okey_vision.vision.wire`).

Nothing is lost when the service goes: a request that gets no answer (the
connection refused or cut, a replica that died while reading: the service
answers 5xx) is sent once more; when that fails too, the reader says so in
one line and reads in this process from then on. A photo the service refuses
(over its size limit, malformed) is an error naming it, never a fallback;
so is a read whose answer does not come within ``timeout`` (the service has
the photo and is busy: sending it again, or reading it here in every app,
would only add to the load that made it late).
"""

from __future__ import annotations

import http.client
import json
import logging
import os
import socket
import sys
import threading
import urllib.error
import urllib.request
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Protocol

from okey_vision.lang import Lang
from okey_vision.tiles import Tile, parse_tile
from okey_vision.vision import wire
from okey_vision.vision.reads import TileRead

if TYPE_CHECKING:  # numpy and the reader load only where a photo is read
    import numpy as np

    from okey_vision.vision.io import Photo

#: The environment variable naming the reader service (``http://HOST:PORT``; unset or empty: read in-process).
SERVER_ENV = "OKEY_VISION_SERVER"
#: Seconds a read may wait for the service's answer (a queue of many tables' reads included).
TIMEOUT = 60.0
#: Tries of one request before falling back in-process: the first, and one retry.
TRIES = 2

log = logging.getLogger(__name__)


class TileReader(Protocol):
    """What the app and the commands read with: the in-process reader or :class:`RemoteReader`."""

    def read(self, image: np.ndarray, *, bgr: bool = True, indicator: Tile | str | None = None,
             consistent: bool = True) -> list[TileRead]:
        """Every tile in a photo's pixels, in rack order."""

    def read_photo(self, photo: Photo, *, indicator: Tile | str | None = None,
                   consistent: bool = True) -> list[TileRead]:
        """Every tile in a decoded photo, boxes in the input's pixels."""


class _NoAnswer(Exception):
    """A try that got no answer (transport failure or a 5xx): worth one retry."""


def service_url(given: str) -> str:
    """A service's address as a URL (``HOST:PORT`` gets ``http://``; no trailing slash).

    >>> service_url("10.0.0.5:8000"), service_url("http://club:8000/")
    ('http://10.0.0.5:8000', 'http://club:8000')
    """
    url = given.strip().rstrip("/")
    return url if "://" in url else f"http://{url}"


def _stderr(line: str) -> None:
    print(line, file=sys.stderr, flush=True)


class RemoteReader:
    """Reads through the reader service at ``url``; retries a lost request
    once, then falls back to the in-process reader (saying so once, through
    ``say``). ``local`` makes the in-process reader (default: the shipped
    one), loaded only on a fallback."""

    def __init__(self, url: str, *, timeout: float = TIMEOUT, limit: int = wire.MAX_REQUEST_BYTES,
                 local: Callable[[], Any] | None = None, say: Callable[[str], None] = _stderr,
                 lang: Lang | str = Lang.EN) -> None:
        """See the class."""
        self.url = service_url(url)
        self.timeout = timeout
        self.limit = limit
        self.lang = Lang.of(lang)
        self._local_factory = local
        self._say = say
        self._lock = threading.Lock()
        self._local: Any = None
        #: Requests sent again after a try without an answer (a replica that died, a cut connection).
        self.retries = 0
        #: Why the service was given up ('' while it is used).
        self.gone = ""
        self._asked = False  # whether the service was asked what it takes (load)

    @property
    def backend(self) -> str:
        """Where the reads are made: the service's URL, or 'in-process' after a fallback."""
        return "in-process (the service is gone)" if self.gone else f"service {self.url}"

    def load(self) -> RemoteReader:
        """Ask the service whether it is there and what it takes (its size
        limit becomes this reader's when smaller: a photo over it is refused
        here, before it is sent); fall back now when it is not there."""
        if not self.gone:
            try:
                with urllib.request.urlopen(self.url + "/", timeout=min(self.timeout, 10.0)) as answer:
                    about = json.loads(answer.read())
                self.limit = min(self.limit, int(about.get("limit", self.limit)))
            except (urllib.error.HTTPError, ValueError, AttributeError, TypeError):
                pass  # it answered, saying nothing of a limit: the service refuses what it cannot take
            except (OSError, http.client.HTTPException) as exc:
                if not _timed_out(exc):  # a service too busy to answer is still there
                    self._fall_back(exc)
        self._asked = True
        return self

    def read(self, image: np.ndarray, *, bgr: bool = True, indicator: Tile | str | None = None,
             consistent: bool = True) -> list[TileRead]:
        """Every tile in a photo's pixels (BGR, or RGB with ``bgr=False``), read by the service."""
        from okey_vision.vision.io import as_bgr

        ind = parse_tile(indicator) if indicator is not None else None
        if not self.gone:
            wire.check_size(wire.request_size(image), self.limit)  # over this reader's limit: refused, unsent
        if not self._asked:
            self.load()
        if self.gone:
            return list(self._local_reader().read(image, bgr=bgr, indicator=ind, consistent=consistent))
        body = wire.encode_request(wire.ReadRequest(as_bgr(image, bgr), ind, consistent), self.limit)
        for attempt in range(TRIES):
            try:
                return self._post(body)
            except _NoAnswer as exc:
                if attempt + 1 < TRIES:
                    with self._lock:
                        self.retries += 1
                    log.info("no answer from %s (%s): sending the photo again", self.url, exc)
                    continue
                self._fall_back(exc.__cause__ or exc)
        return list(self._local_reader().read(image, bgr=bgr, indicator=ind, consistent=consistent))

    def read_photo(self, photo: Photo, *, indicator: Tile | str | None = None,
                   consistent: bool = True) -> list[TileRead]:
        """Every tile in a decoded photo, boxes in the input's pixels."""
        reads = self.read(photo.image, indicator=indicator, consistent=consistent)
        return [r.scaled(1 / photo.scale) for r in reads]

    def _post(self, body: bytes) -> list[TileRead]:
        request = urllib.request.Request(self.url + "/", data=body, method="POST",
                                         headers={"Content-Type": "application/octet-stream"})
        try:
            with urllib.request.urlopen(request, timeout=self.timeout) as answer:
                return wire.reads_from_json(answer.read())
        except urllib.error.HTTPError as exc:
            said = exc.read()
            if exc.code >= 500:  # the service's own failure (a replica gone mid-read): worth a retry
                raise _NoAnswer(f"HTTP {exc.code}") from exc
            raise wire.error_from_json(said, self.url) from None
        except (OSError, http.client.HTTPException) as exc:  # refused, cut, timed out
            if _timed_out(exc):  # it took the photo and is busy: sending it again (or here) only adds to the queue
                raise wire.ServiceError.of("busy", url=self.url, seconds=f"{self.timeout:g}") from None
            raise _NoAnswer(_reason(exc)) from exc

    def _fall_back(self, exc: BaseException) -> None:
        """Give the service up: say so once; the next reads are made in this process."""
        with self._lock:
            if self.gone:
                return
            self.gone = _reason(exc)
        line = wire.say("gone", self.lang, url=self.url, why=self.gone)
        log.info("%s", line)  # said once, by say (a warning here would print it twice where no logging is set)
        self._say(line)

    def _local_reader(self) -> Any:
        with self._lock:
            if self._local is None:
                if self._local_factory is not None:
                    self._local = self._local_factory()
                else:
                    from okey_vision.vision.reader import default_reader

                    self._local = default_reader()
            return self._local


def _timed_out(exc: BaseException) -> bool:
    """Whether a transport failure is a wait for the answer that ran out (the service took the request)."""
    if isinstance(exc, urllib.error.URLError) and isinstance(exc.reason, BaseException):
        return _timed_out(exc.reason)
    return isinstance(exc, (socket.timeout, TimeoutError))


def _reason(exc: BaseException) -> str:
    """A transport failure in a few words ('connection refused', 'timed out', 'HTTP 503')."""
    if isinstance(exc, urllib.error.URLError) and not isinstance(exc, urllib.error.HTTPError):
        return _reason(exc.reason) if isinstance(exc.reason, BaseException) else str(exc.reason)
    if isinstance(exc, (socket.timeout, TimeoutError)):
        return "timed out"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror.lower()
    return str(exc) or type(exc).__name__


def open_reader(server: str | None = None, lang: Lang | str = Lang.EN,
                local: Callable[[], Any] | None = None) -> Any:
    """The reader to use: a :class:`RemoteReader` of ``server`` (default
    ``$OKEY_VISION_SERVER``) when one is named, else the in-process reader
    ``local()`` (default :func:`~okey_vision.vision.reader.default_reader`),
    which is also the remote one's fallback."""
    url = (server if server is not None else os.environ.get(SERVER_ENV, "")).strip()
    if url:
        return RemoteReader(url, lang=lang, local=local)
    if local is not None:
        return local()
    from okey_vision.vision.reader import default_reader

    return default_reader()


__all__ = ["SERVER_ENV", "TIMEOUT", "TRIES", "RemoteReader", "TileReader", "open_reader", "service_url"]
