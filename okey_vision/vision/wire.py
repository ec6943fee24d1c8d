"""What travels between an app and the reader service: a photo's pixels out, its tile reads back.

A request is the bytes ``OKV1``, the length of a JSON header (4 bytes, big
end first), the header (the pixels' shape, the indicator, whether the reads
are made to obey the tile set) and the photo's BGR pixels, raw: lossless (the
service reads exactly the pixels the app would have read) and nothing to
encode on a busy app. A request over :data:`MAX_REQUEST_BYTES` is refused
before it is sent, and by the service before its body is read, with one
sentence (:class:`RequestTooLarge`). The answer is JSON: the reads with every
field of :class:`~okey_vision.vision.reads.TileRead` (floats as Python
writes them, so they come back equal), or the one sentence of what went
wrong.

>>> from okey_vision.tiles import parse_tile
>>> r = TileRead(box=(1.0, 2.0, 30.5, 40.0), tile=parse_tile("r7"), confidence=0.987654321,
...              alternatives=((parse_tile("r7"), 0.987654321), (parse_tile("r1"), 0.01)), turn=2.5)
>>> reads_from_json(reads_to_json([r])) == [r], reads_from_json(reads_to_json([r]))[0].turn
(True, 2.5)
"""

from __future__ import annotations

import json
import struct
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

from okey_vision.errors import OkeyError
from okey_vision.lang import Lang, fill, mid_sentence
from okey_vision.tiles import Tile, parse_tile
from okey_vision.vision.reads import TileRead

if TYPE_CHECKING:  # numpy loads only where pixels are packed or unpacked
    import numpy as np

#: The first bytes of a request (the format's version: a client and a service of other versions refuse each other).
MAGIC = b"OKV1"
#: The largest request, in bytes: the largest photo the decode path keeps (6000 x 6000 BGR, 103 MiB,
#: :data:`~okey_vision.vision.io.MAX_SIDE`) with room for its header; a bigger body is refused unread.
MAX_REQUEST_BYTES = 128 * 2**20
#: The largest JSON header of a request (a shape, a tile's name, two flags).
MAX_HEADER_BYTES = 4096

#: key -> (English, Turkish): the service's sentences, said by :func:`say`.
SENTENCES: dict[str, tuple[str, str]] = {
    "too_large": ("The photo's request is {mb} MB, over the reader service's limit of {limit} MB: send a smaller "
                  "photo.",
                  "Fotoğrafın isteği {mb} MB, okuyucu servisinin {limit} MB sınırını aşıyor: daha küçük bir "
                  "fotoğraf gönder."),
    "malformed": ("The request is not a photo for the reader service ({why}).",
                  "İstek okuyucu servisi için bir fotoğraf değil ({why})."),
    "gone": ("The reader service at {url} cannot be reached ({why}); reading in this process from now on.",
             "{url} adresindeki okuyucu servisine ulaşılamıyor ({why}); bundan sonra okuma bu işlemde yapılıyor."),
    "refused": ("The reader service at {url} refused the photo: {why}.",
                "{url} adresindeki okuyucu servisi fotoğrafı reddetti: {why}."),
    "busy": ("The reader service at {url} did not answer within {seconds} s: it is busy; try again.",
             "{url} adresindeki okuyucu servisi {seconds} saniyede yanıt vermedi: meşgul; yeniden dene."),
    "failed": ("The reader service failed on this photo ({why}).",
               "Okuyucu servisi bu fotoğrafta hata verdi ({why})."),
    "no_cluster": ("No Ray cluster can be joined at {address} ({why}).",
                   "{address} adresinde katılınacak bir Ray kümesi yok ({why})."),
    "serving": ("The reader is served at {url} by {replicas}; point the apps at it with OKEY_VISION_SERVER={url}. "
                "Ctrl-C stops it.",
                "Okuyucu {url} adresinde {replicas} ile sunuluyor; uygulamaları OKEY_VISION_SERVER={url} ile ona "
                "yönlendir. Ctrl-C durdurur."),
    "stopped": ("The reader service stopped.", "Okuyucu servisi durdu."),
}


def say(key: str, lang: Lang | str = Lang.EN, **fields: object) -> str:
    """The service's sentence ``key`` in ``lang``; its ``why`` (a reason, or
    the service's own sentence for a refusal) stands inside the sentence, so
    it starts with a small letter.

    >>> say("too_large", Lang.TR, mb=200, limit=128)
    'Fotoğrafın isteği 200 MB, okuyucu servisinin 128 MB sınırını aşıyor: daha küçük bir fotoğraf gönder.'
    >>> say("refused", url="http://club:8000", why="The photo is damaged")
    'The reader service at http://club:8000 refused the photo: the photo is damaged.'
    """
    why = fields.get("why")
    if isinstance(why, str):
        fields["why"] = mid_sentence(why, lang)
    return fill(SENTENCES, key, lang, **fields)


class ServiceError(OkeyError):
    """A request the reader service cannot take (malformed), or refused or
    failed; one sentence of :data:`SENTENCES`, by its key ('service.*').
    A refusal's ``cause`` is the service's own error, said in the
    language asked for too.

    >>> from okey_vision.lang import error_message
    >>> busy = ServiceError.of("busy", url="http://club:8000", seconds=60)
    >>> print(error_message(busy, Lang.TR))
    http://club:8000 adresindeki okuyucu servisi 60 saniyede yanıt vermedi: meşgul; yeniden dene
    """

    @classmethod
    def of(cls, key: str, **fields: object) -> ServiceError:
        """The error ``key`` with its English sentence."""
        return cls(say(key, Lang.EN, **fields).rstrip("."), f"service.{key}", **fields)

    def said(self, lang: str = "en") -> str | None:
        """The sentence in ``lang`` (a refusal's reason in it too)."""
        from okey_vision.lang import error_message

        name = self.key.removeprefix("service.")
        if name not in SENTENCES:
            return None
        fields = dict(self.fields)
        cause = fields.get("cause")
        if isinstance(cause, Exception):
            fields["why"] = error_message(cause, Lang.of(lang)).rstrip(".")
        return say(name, lang, **fields).rstrip(".")


class RequestTooLarge(ServiceError):
    """A request over the service's size limit, refused before it is sent or read."""

    @classmethod
    def sized(cls, size: int, limit: int) -> RequestTooLarge:
        """The refusal of a ``size``-byte request over ``limit`` bytes."""
        mb, cap = round(size / 2**20, 1), round(limit / 2**20, 1)
        return cls(say("too_large", mb=mb, limit=cap).rstrip("."), "service.too_large", mb=mb, limit=cap)


@dataclass(frozen=True, eq=False)
class ReadRequest:
    """One photo to read: BGR pixels, the indicator given, and whether the reads obey the tile set."""

    image: np.ndarray
    indicator: Tile | None = None
    consistent: bool = True


def check_size(size: int, limit: int = MAX_REQUEST_BYTES) -> None:
    """:class:`RequestTooLarge` for a ``size``-byte request over ``limit``.

    >>> check_size(10, 100)
    >>> try:
    ...     check_size(3 * 2**20, 2**20)
    ... except RequestTooLarge as exc:
    ...     print(exc)
    The photo's request is 3.0 MB, over the reader service's limit of 1.0 MB: send a smaller photo
    """
    if size > limit:
        raise RequestTooLarge.sized(size, limit)


def request_size(image: np.ndarray) -> int:
    """The bytes a request for ``image`` takes (its pixels and a header at most)."""
    return len(MAGIC) + 4 + MAX_HEADER_BYTES + int(image.nbytes)


def encode_request(request: ReadRequest, limit: int = MAX_REQUEST_BYTES) -> bytes:
    """The request's bytes; :class:`RequestTooLarge` (nothing packed) over ``limit``."""
    import numpy as np

    image = request.image
    if image.dtype != np.uint8 or image.ndim != 3 or image.shape[2] != 3:
        raise ServiceError.of("malformed", why=f"pixels {image.dtype} {tuple(image.shape)}, BGR uint8 expected")
    check_size(request_size(image), limit)
    head = json.dumps({"shape": list(image.shape),
                       "indicator": request.indicator.name if request.indicator is not None else None,
                       "consistent": request.consistent}).encode()
    return b"".join((MAGIC, struct.pack(">I", len(head)), head, np.ascontiguousarray(image).tobytes()))


def decode_request(body: bytes, limit: int = MAX_REQUEST_BYTES) -> ReadRequest:
    """The request in ``body``: :class:`RequestTooLarge` over ``limit``, :class:`ServiceError` when malformed."""
    import numpy as np

    check_size(len(body), limit)
    start = len(MAGIC) + 4
    if len(body) < start or body[:len(MAGIC)] != MAGIC:
        raise ServiceError.of("malformed", why="it does not start with " + MAGIC.decode())
    (size,) = struct.unpack(">I", body[len(MAGIC):start])
    if size > MAX_HEADER_BYTES or start + size > len(body):
        raise ServiceError.of("malformed", why=f"a header of {size} bytes")
    try:
        head = json.loads(body[start:start + size])
        shape = tuple(int(v) for v in head["shape"])
        indicator = parse_tile(head["indicator"]) if head.get("indicator") is not None else None
        consistent = bool(head.get("consistent", True))
    except (ValueError, KeyError, TypeError) as exc:
        raise ServiceError.of("malformed", why=f"its header: {type(exc).__name__}") from None
    pixels = body[start + size:]
    if len(shape) != 3 or shape[2] != 3 or min(shape) < 1 or shape[0] * shape[1] * 3 != len(pixels):
        raise ServiceError.of("malformed", why=f"{len(pixels)} bytes of pixels for a shape {shape}")
    image = np.frombuffer(pixels, np.uint8).reshape(shape)
    return ReadRequest(image, indicator, consistent)


def read_to_dict(r: TileRead) -> dict[str, Any]:
    """Every field of a read, JSON-ready (floats as they are: they come back equal)."""
    return {
        "tile": r.tile.name,
        "box": [float(v) for v in r.box],
        "confidence": float(r.confidence),
        "alternatives": [[t.name, float(p)] for t, p in r.alternatives],
        "row": int(r.row),
        "order": int(r.order),
        "quad": [[float(x), float(y)] for x, y in r.quad] if r.quad is not None else None,
        "crop_quad": [[float(x), float(y)] for x, y in r.crop_quad] if r.crop_quad is not None else None,
        "along": float(r.along) if r.along is not None else None,
        "reason": r.reason,
        "turn": float(r.turn) if r.turn is not None else None,
        "detection": float(r.detection) if r.detection is not None else None,
        "flagged": bool(r.flagged) if r.flagged is not None else None,
    }


def read_from_dict(d: dict[str, Any]) -> TileRead:
    """The read :func:`read_to_dict` wrote."""
    x1, y1, x2, y2 = (float(v) for v in d["box"])
    quad = tuple((float(x), float(y)) for x, y in d["quad"]) if d.get("quad") is not None else None
    cut = tuple((float(x), float(y)) for x, y in d["crop_quad"]) if d.get("crop_quad") is not None else None
    return TileRead(box=(x1, y1, x2, y2), tile=parse_tile(d["tile"]), confidence=float(d["confidence"]),
                    alternatives=tuple((parse_tile(t), float(p)) for t, p in d["alternatives"]),
                    row=int(d["row"]), order=int(d["order"]), quad=quad, crop_quad=cut,
                    along=float(d["along"]) if d.get("along") is not None else None, reason=str(d.get("reason", "")),
                    turn=float(d["turn"]) if d.get("turn") is not None else None,
                    detection=float(d["detection"]) if d.get("detection") is not None else None,
                    flagged=bool(d["flagged"]) if d.get("flagged") is not None else None)


def reads_to_json(reads: Sequence[TileRead]) -> bytes:
    """The answer to a read: ``{"reads": [...]}``."""
    return json.dumps({"reads": [read_to_dict(r) for r in reads]}).encode()


def reads_from_json(body: bytes) -> list[TileRead]:
    """The reads of an answer; :class:`ServiceError` for an answer that holds none."""
    try:
        return [read_from_dict(d) for d in json.loads(body)["reads"]]
    except (ValueError, KeyError, TypeError) as exc:
        raise ServiceError.of("malformed", why=f"an answer without reads: {type(exc).__name__}") from None


def error_to_json(exc: OkeyError) -> bytes:
    """The answer to a request that failed: its one sentence, its key and fields (the Turkish sentence's)."""
    fields = {k: v if isinstance(v, (int, float)) else str(v) for k, v in exc.fields.items()}
    return json.dumps({"error": " ".join(str(exc).split()), "key": exc.key, "fields": fields}).encode()


def error_from_json(body: bytes, url: str) -> ServiceError:
    """The sentence of a refused request, as :class:`ServiceError` (``refused``: it names the service);
    its ``cause``, the service's error rebuilt from its key and fields, is said in the language asked for.

    >>> from okey_vision.lang import error_message
    >>> refused = error_from_json(error_to_json(RequestTooLarge.sized(200 * 2**20, 128 * 2**20)), "http://club:8000")
    >>> print(error_message(refused, Lang.TR))
    http://club:8000 adresindeki okuyucu servisi fotoğrafı reddetti: fotoğrafın isteği 200.0 MB, okuyucu servisinin \
128.0 MB sınırını aşıyor: daha küçük bir fotoğraf gönder
    """
    try:
        said = json.loads(body)
        why = str(said["error"])
    except (ValueError, KeyError, TypeError):
        why = body[:200].decode("utf-8", "replace").strip() or "no reason given"
        return ServiceError.of("refused", url=url, why=why.rstrip("."))
    key = said.get("key") if isinstance(said.get("key"), str) else ""
    fields = said.get("fields") if isinstance(said.get("fields"), dict) else {}
    kind = ServiceError if key.startswith("service.") else OkeyError
    cause = kind(why.rstrip("."), key, **{str(k): v for k, v in fields.items()})
    return ServiceError.of("refused", url=url, why=why.rstrip("."), cause=cause)


__all__ = ["MAGIC", "MAX_HEADER_BYTES", "MAX_REQUEST_BYTES", "ReadRequest", "RequestTooLarge", "SENTENCES",
           "ServiceError", "check_size", "decode_request", "encode_request", "error_from_json", "error_to_json",
           "read_from_dict", "read_to_dict", "reads_from_json", "reads_to_json", "request_size", "say"]
