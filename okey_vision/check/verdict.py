"""One photo's verdict: its reads -> a :class:`Verdict` (pure Python).

The hand is built as the app and the command line build it
(:func:`~okey_vision.vision.reads.hand_from_reads`, i.e. :meth:`Hand.of`
over the rack's reads), the indicator taken from the photo by the app's rule
(:func:`~okey_vision.vision.reads.pick_indicator`) unless one is given, and
judged by the solver itself (:func:`~okey_vision.solver.declare`, the same
call as ``solve``); a hand that cannot be declared gets the coach's
distance and the tiles left over. No rule is written here.

>>> from okey_vision.tiles import parse_hand
>>> from okey_vision.vision.reads import TileRead
>>> reads = [TileRead((i * 10, 0, i * 10 + 8, 12), t, 0.99) for i, t in
...          enumerate(parse_hand("r1 r2 r3 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 k5 y1"))]
>>> v = judge(reads, "win.jpg", indicator="r3")
>>> v.kind, v.best.discard.name, v.points, v.distance
('yes', 'y1', 2, 0)
>>> v = judge(reads[:13], "short.jpg", indicator="r3")
>>> v.kind, v.distance, v.why()
('no', None, '13 tiles: a hand is declared with 14 tiles, or 15 with its discard.')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from enum import Enum
from pathlib import PurePath

from okey_vision.check import text
from okey_vision.coach import distance as coach_distance
from okey_vision.coach.text import distance_text, finish_headline
from okey_vision.errors import OkeyError, clip
from okey_vision.lang import Lang, count, error_message, tiles_words
from okey_vision.scoring import COUNTDOWN, Scheme, check_scheme
from okey_vision.solver import Arrangement, Declaration, Finish, arrange, declare
from okey_vision.tiles import HAND_SIZE, MAX_HAND, Game, Hand, Tile, okey_of, parse_tile
from okey_vision.vision.reads import APART, TileRead, hand_from_reads, indicator_read, rack_order
from okey_vision.yuzbir.opening import Opening, best_opening
from okey_vision.yuzbir.rules import Opened, Options101, rack101


class Source(str, Enum):
    """Where a photo's indicator came from: a sidecar file beside the photo
    (it names that photo's indicator), the photo itself (the tile beside its
    rack), or the organiser's choice for the photos that show none (the
    ``--indicator`` option, the page's box). A photo's own indicator, from
    its sidecar or the photo, is never replaced by the organiser's choice."""

    NONE = "none"
    SIDECAR = "sidecar"
    OPTION = "option"
    PHOTO = "photo"

    def said(self, lang: Lang = Lang.EN) -> str:
        """Where the indicator came from, in words."""
        return text.say(f"label.source_{self.value}", lang) if self is not Source.NONE else ""


class CheckError(OkeyError):
    """A photo that cannot be checked (no tiles, no indicator, a sidecar
    that names none); its ``key`` ('check.*') is a sentence of
    :mod:`okey_vision.check.text`."""

    @classmethod
    def of(cls, key: str, **fields: object) -> CheckError:
        """The error ``key`` with its English sentence."""
        return cls(text.say(key, Lang.EN, **fields).rstrip("."), f"check.{key}", **fields)

    def said(self, lang: str = "en") -> str | None:
        """The sentence in ``lang``."""
        return text.error_text(self, Lang.of(lang))


# Frozen: one photo's whole verdict, made once in the worker that read it.
@dataclass(frozen=True, eq=False)
class Verdict:
    """What one photo gave: its reads (rack order), the hand, the indicator
    and where it came from, the solver's declaration and arrangement, the
    coach's distance (None where it has none: not 14 or 15 tiles), or the
    error that stopped the check (one line)."""

    photo: str
    reads: tuple[TileRead, ...] = ()
    hand: Hand | None = None
    indicator: Tile | None = None
    source: Source = Source.NONE
    #: The tile apart from the rack the photo shows as its indicator (None: none).
    shown: Tile | None = None
    #: That tile's read (its box and confidence), when the photo shows one.
    shown_read: TileRead | None = None
    scheme: Scheme = COUNTDOWN
    declaration: Declaration | None = None
    arrangement: Arrangement | None = None
    distance: int | None = None
    failure: OkeyError | None = None
    #: The photo's size (input pixels) and the seconds from its bytes to this verdict.
    size: tuple[int, int] = (0, 0)
    seconds: float = field(default=0.0, compare=False)
    #: A 101 hand's best opening (None in classic Okey): the verdict is then whether the hand opens.
    opening: Opening | None = None

    @property
    def error(self) -> str:
        """The error in one line ('' when the photo was checked)."""
        return " ".join(str(self.failure).split()) if self.failure is not None else ""

    @property
    def rack(self) -> list[TileRead]:
        """The reads on the rack, in rack order."""
        return [r for r in self.reads if r.row != APART]

    @property
    def apart(self) -> list[TileRead]:
        """The reads lying apart from the rack."""
        return [r for r in self.reads if r.row == APART]

    @property
    def flagged(self) -> list[tuple[int | None, TileRead]]:
        """The reads the verdict rests on that are to check by eye: (position
        on the rack from 1, the read), then (None, the indicator's read) when
        the verdict used the indicator the photo shows and its read is
        unsure. Other tiles lying apart (discards on the table) are not
        used, so not listed."""
        rack: list[tuple[int | None, TileRead]] = [(i + 1, r) for i, r in enumerate(self.rack) if r.low_confidence]
        used = self.shown_read if self.source is Source.PHOTO else None
        return rack + ([(None, used)] if used is not None and used.low_confidence else [])

    @property
    def can_declare(self) -> bool:
        """True when the hand read can be declared (in 101: when it opens)."""
        if self.opening is not None:
            return self.opening.kind is not Opened.NO
        return self.declaration is not None and self.declaration.can_declare

    @property
    def kind(self) -> str:
        """'yes' (can be declared), 'no' (cannot) or 'error' (not checked)."""
        if self.failure is not None:
            return "error"
        return "yes" if self.can_declare else "no"

    @property
    def best(self) -> Finish | None:
        """The best finish (the solver's choice by points), if any."""
        return self.declaration.best if self.declaration is not None else None

    @property
    def points(self) -> int:
        """The best finish's points under the scheme (0 without one)."""
        best = self.best
        return best.points(self.scheme) if best is not None else 0

    @property
    def okey(self) -> Tile | None:
        """The okey face (None without an indicator)."""
        return okey_of(self.indicator) if self.indicator is not None else None

    def label(self, lang: Lang = Lang.EN) -> str:
        """The verdict in large type: 'Can be declared', ... (101: 'Opens', 'Not yet')."""
        game = Game.ONE_OH_ONE if self.opening is not None else Game.OKEY
        return text.verdict_label(self.kind, lang, game)

    def why(self, lang: Lang = Lang.EN) -> str:
        """One sentence: the finish (discard, melds or pairs, points), why the
        hand cannot be declared and how far it is, or the error."""
        if self.failure is not None:
            return text.error_text(self.failure, lang) or " ".join(error_message(self.failure, lang).split())
        if self.opening is not None:
            return self.opening.headline(lang)
        assert self.hand is not None and self.declaration is not None
        n = len(self.hand.tiles)
        best = self.best
        if best is not None:
            return finish_headline(best, self.scheme, lang)
        if n not in (HAND_SIZE, MAX_HAND) or self.arrangement is None or self.distance is None:
            return text.say("why_size", lang, n=count(n, "tile", lang), hand=HAND_SIZE, most=MAX_HAND)
        route, left = leftover(self.arrangement)
        return text.say("why_left" if n == HAND_SIZE else "why_left_15", lang,
                        tiles=tiles_words(left, lang), route=text.say(f"label.route_{route}", lang),
                        distance=distance_text(self.distance, lang))

    def note(self, lang: Lang = Lang.EN) -> str:
        """A sentence when the photo shows another indicator than the one checked with ('' otherwise)."""
        if self.shown is None or self.indicator is None or self.shown == self.indicator:
            return ""
        return text.say("shown_other", lang, shown=self.shown, ind=self.indicator, source=self.source.said(lang))

    def to_dict(self, lang: Lang = Lang.EN) -> dict:
        """The JSON object of ``okey-vision check --json``: ``photo``, ``tiles``
        (the rack in rack order), ``indicator``, ``flagged``, ``can_declare``,
        ``declare`` (as ``solve --json`` prints it), ``distance``, ``error``
        (None, or one line); then ``indicator_from``, ``apart``, ``scheme``,
        ``points`` and ``why`` (in ``lang``)."""
        best = self.best
        return {
            "photo": self.photo,
            "tiles": [r.name for r in self.rack],
            "indicator": self.indicator.name if self.indicator is not None else None,
            "flagged": [{"position": pos, "tile": r.name, "confidence": round(float(r.confidence), 4),
                         "alternatives": [[t.name, round(float(p), 4)] for t, p in r.alternatives[1:3]]}
                        for pos, r in self.flagged],
            "can_declare": self.can_declare,
            "declare": best.to_dict() if best is not None else None,
            "distance": self.distance,
            "error": self.error or None,
            "indicator_from": self.source.value,
            "apart": [r.name for r in self.apart],
            "scheme": self.scheme,
            "points": self.points,
            "why": self.why(lang),
        } | ({"game": "101", "opening": self.opening.to_dict()} if self.opening is not None else {})


def leftover(arrangement: Arrangement) -> tuple[str, list[Tile]]:
    """The route the hand is drawn in ('melds' or 'pairs': the solver's
    :attr:`~okey_vision.solver.Arrangement.shown`, as the app draws the
    groups) and the tiles it leaves loose."""
    return "pairs" if arrangement.shows_pairs else "melds", list(arrangement.shown[1])


def judge(reads: Sequence[TileRead], photo: str, indicator: Tile | str | None = None,
          source: Source = Source.SIDECAR, scheme: Scheme | str = COUNTDOWN, size: tuple[int, int] = (0, 0),
          app: bool = False, fallback: Tile | str | None = None, game: Game = Game.OKEY,
          options101: Options101 | None = None) -> Verdict:
    """The verdict of a photo's reads. Its indicator: ``indicator``, the
    photo's own given beside it (``source``: its sidecar file); else the
    one the photo shows (the tile apart from the rack, by the app's rule);
    else ``fallback``, the organiser's choice for the photos that show none
    (never one that shows its own). Errors (no tiles, no indicator, a hand
    that breaks the tile set) make a verdict with its ``failure``, never an
    exception. ``app``: the no-indicator error says so as the page would.
    ``game``: in 101 the rack (21 or 22 tiles, else the error of
    :func:`~okey_vision.yuzbir.rules.rack101`) is judged by its best opening."""
    scheme = check_scheme(scheme)
    reads = tuple(rack_order(reads))
    seen = indicator_read([r for r in reads if r.row == APART])
    shown = seen.tile if seen is not None else None
    base = Verdict(photo, reads, indicator=None, source=Source.NONE, shown=shown, shown_read=seen, scheme=scheme,
                   size=size)
    name = clip(photo)
    if not any(r.row != APART for r in reads):
        return _failed(base, CheckError.of("no_tiles", name=name))
    if indicator is None:
        indicator, source = shown, Source.PHOTO
    if indicator is None and fallback is not None:
        indicator, source = fallback, Source.OPTION
    if indicator is None:
        key = "no_indicator_app" if app else "no_indicator"
        return _failed(base, CheckError.of(key, name=name, stem=clip(PurePath(photo).stem)))
    try:
        ind = parse_tile(indicator)
        hand: Hand
        if game is Game.ONE_OH_ONE:
            hand = rack101(hand_from_reads(reads, ind, game=game), name)  # 21-22 tiles, as read --game 101
        else:
            hand = hand_from_reads(reads, ind)  # the one way a hand is built (Hand.of)
    except OkeyError as exc:
        return _failed(base, exc)
    if game is Game.ONE_OH_ONE:
        opening = best_opening(hand, options=options101 or Options101())
        return Verdict(photo, reads, hand, ind, source, shown, seen, scheme, None, None, None, None, size,
                       opening=opening)
    declaration = declare(hand, scheme=scheme)
    n = len(hand.tiles)
    arrangement = arrange(hand)
    far = None
    if declaration.can_declare:
        far = 0
    elif n in (HAND_SIZE, MAX_HAND):
        far = coach_distance(hand)
    return Verdict(photo, reads, hand, ind, source, shown, seen, scheme, declaration, arrangement, far, None, size)


def _failed(base: Verdict, exc: OkeyError) -> Verdict:
    return replace(base, failure=exc)


__all__ = ["CheckError", "Source", "Verdict", "judge", "leftover"]
