"""The reader service: a Ray Serve deployment holding the ONNX reader.

Each replica loads the shipped reader once and answers HTTP: ``POST /`` a
request of :mod:`okey_vision.vision.wire` (a photo's pixels), the reads as
JSON back; ``GET /`` says what it is. Requests from many tables' apps are
gathered by ``@serve.batch`` (up to ``max_batch`` waiting a few ms) and read
one after another on one thread of the replica, so a replica keeps one core
busy and never more (two reads side by side on a small CPU only share it),
and its event loop stays free to take the next requests meanwhile. A photo
that fails is that request's answer alone: the others of its batch are read.
Replicas are spread over the cluster's cores and machines by Serve; one that
dies is started again by Serve's controller, and the apps send the requests
it held once more (:class:`~okey_vision.vision.service.RemoteReader`).

Answers: 200 the reads; 413 a request over the size limit (one sentence,
its body not read); 400 a malformed request or a photo the reader refuses
(its sentence); 422 a reader failure on this photo (its sentence).
"""

from __future__ import annotations

import asyncio
import json
import os
from typing import Any

from ray import serve
from starlette.requests import Request
from starlette.responses import Response

from okey_vision.errors import OkeyError, clip
from okey_vision.vision import wire
from okey_vision.vision.reads import TileRead

#: The service's name in Serve (its application), and the deployment's.
APP_NAME = "okey-vision"
DEPLOYMENT = "OkeyReader"
#: Requests read as one batch at most, and how long the first waits for others (s): a batch is read
#: one photo after another, so waiting longer only adds latency; it saves the per-call overhead.
MAX_BATCH = 8
BATCH_WAIT = 0.005
#: Requests one replica holds at once (its batch and those queued behind it); Serve sends the rest to others.
MAX_ONGOING = 32

JSON = "application/json"


@serve.deployment(name=DEPLOYMENT, ray_actor_options={"num_cpus": 1}, max_ongoing_requests=MAX_ONGOING)
class ReaderDeployment:
    """One replica of the reader service: the shipped reader, loaded once."""

    def __init__(self, limit: int = wire.MAX_REQUEST_BYTES, max_batch: int = MAX_BATCH,
                 models: str | None = None) -> None:
        """``limit``: the largest request in bytes; ``max_batch``: requests read as one batch at most."""
        from okey_vision.vision.reader import RackReader

        self.reader = RackReader(models).load()
        self.limit = limit
        self.read_batch.set_max_batch_size(max_batch)  # type: ignore[attr-defined]  # serve.batch's own method
        self.pid = os.getpid()

    async def __call__(self, request: Request) -> Response:
        """``GET``: what this is; ``POST``: read the photo in the body."""
        if request.method != "POST":
            about = {"service": "okey-vision reader", "backend": self.reader.backend,
                     "models": self.reader.models_key, "limit": self.limit, "pid": self.pid}
            return Response(json.dumps(about), media_type=JSON)
        body = await self._body(request)
        if isinstance(body, Response):
            return body
        try:
            read = wire.decode_request(body, self.limit)
        except wire.RequestTooLarge as exc:
            return _error(413, exc)
        except OkeyError as exc:
            return _error(400, exc)
        answer = await self.read_batch(read)
        if isinstance(answer, wire.ServiceError) and answer.key == "service.failed":
            return _error(422, answer)
        if isinstance(answer, OkeyError):
            return _error(400, answer)
        return Response(wire.reads_to_json(answer), media_type=JSON)

    async def _body(self, request: Request) -> bytes | Response:
        """The request's body, or the refusal of one over the limit (read no further than the limit)."""
        said = request.headers.get("content-length", "")
        if said.isdigit() and int(said) > self.limit:
            return _error(413, wire.RequestTooLarge.sized(int(said), self.limit))
        chunks, size = [], 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > self.limit:
                return _error(413, wire.RequestTooLarge.sized(size, self.limit))
            chunks.append(chunk)
        return b"".join(chunks)

    @serve.batch(max_batch_size=MAX_BATCH, batch_wait_timeout_s=BATCH_WAIT)
    async def read_batch(self, requests: list[wire.ReadRequest]) -> list[list[TileRead] | OkeyError]:
        """The reads of a batch of requests (each its own answer), read on a thread off the event loop."""
        return await asyncio.to_thread(self._read_all, requests)

    def _read_all(self, requests: list[wire.ReadRequest]) -> list[list[TileRead] | OkeyError]:
        out: list[list[TileRead] | OkeyError] = []
        for r in requests:
            try:
                out.append(self.reader.read(r.image, indicator=r.indicator, consistent=r.consistent))
            except OkeyError as exc:
                out.append(exc)
            except Exception as exc:  # noqa: BLE001 - a reader crash on one photo is that request's answer
                out.append(wire.ServiceError.of("failed", why=f"{type(exc).__name__}: {clip(exc, 60)}"))
        return out


def _error(status: int, exc: OkeyError) -> Response:
    return Response(wire.error_to_json(exc), status_code=status, media_type=JSON)


def reader_app(replicas: int, limit: int = wire.MAX_REQUEST_BYTES, max_batch: int = MAX_BATCH,
               models: str | None = None) -> Any:
    """The service's Serve application: ``replicas`` replicas of the reader."""
    return ReaderDeployment.options(num_replicas=replicas).bind(limit, max_batch, models)  # type: ignore[attr-defined]


def start_service(replicas: int, host: str = "127.0.0.1", port: int = 8000, limit: int = wire.MAX_REQUEST_BYTES,
                  max_batch: int = MAX_BATCH, models: str | None = None) -> str:
    """Run the reader service on the Ray this process is connected to, at
    ``http://host:port``; its URL once every replica has loaded the reader."""
    serve.start(http_options={"host": host, "port": port})
    serve.run(reader_app(replicas, limit, max_batch, models), name=APP_NAME, route_prefix="/")
    shown = "127.0.0.1" if host in ("0.0.0.0", "::") else host
    return f"http://{shown}:{port}"


def stop_service() -> None:
    """Stop the reader service (the Ray it ran on keeps running)."""
    serve.delete(APP_NAME)


def replica_actors() -> list[str]:
    """The names of the service's replica actors (to watch them, or to stop one in a test)."""
    import ray

    names = ray.util.list_named_actors(all_namespaces=True)
    return sorted(a["name"] for a in names if a["name"].startswith("SERVE_REPLICA::") and DEPLOYMENT in a["name"])


__all__ = ["APP_NAME", "BATCH_WAIT", "DEPLOYMENT", "MAX_BATCH", "MAX_ONGOING", "ReaderDeployment", "reader_app",
           "replica_actors", "start_service", "stop_service"]
