"""From a hand to everything the app shows, or a plain message.

:func:`analyse` builds the hand once (:meth:`~okey_vision.tiles.Hand.of`:
tile names, copies, size), arranges it, declares it (once) and asks the
coach (:func:`okey_vision.coach.advise`, given that declaration) for its
advice on 14 or 15 tiles, with the tile the previous player just discarded
when the player names one (take it or draw): the :class:`Analysis` holds
that :class:`~okey_vision.coach.Advice` itself, and its headline is the
advice's own (:func:`okey_vision.coach.text.headline`, as the command line
and the JSON say it).
Domain errors come back as :class:`Problem` with the error's message, never
raised. Sentences come from :mod:`okey_vision.coach.text`.

>>> a = analyse("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 r9", "b2")
>>> a.can_declare, a.finish.discard.name, a.points
(True, 'r9', 2)
>>> analyse("r1 r2 x9", "b2").message
"unknown tile name 'x9': expected a colour (r, y, b, k) and a number 1-13 such as 'r7', or 'fj' for a false joker"
"""

from __future__ import annotations

import threading
import time
from collections import OrderedDict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from okey_vision.coach import Advice, DiscardOption, advise, text
from okey_vision.coach.text import distance_text
from okey_vision.errors import OkeyError
from okey_vision.lang import Lang
from okey_vision.melds import Meld
from okey_vision.memo import Memo
from okey_vision.report.labels import error_message, in_words
from okey_vision.scoring import COUNTDOWN, Scheme, check_scheme
from okey_vision.solver import Arrangement, Declaration, Finish, arrange, declare
from okey_vision.tiles import (
    HAND_SIZE,
    MAX_HAND,
    Hand,
    Tile,
    TileLike,
    okey_of,
    parse_hand,  # noqa: F401 - the doctests
    parse_tile,
)

#: What the app analyses: a built hand, or its tiles (names, tiles, reads or
#: the app's entries, :class:`~okey_vision.app.state.Entry`) with the indicator beside.
Tiles = Hand | str | Iterable[TileLike]


@dataclass(frozen=True)
class Problem:
    """A hand that cannot be analysed, with a message for the player;
    ``key`` names the coach text's sentence when it is one (so a page in
    another language can show its own)."""

    message: str
    key: str = ""
    error: OkeyError | None = None

    def said(self, lang: Lang = Lang.EN) -> str:
        """The message in ``lang``: a coach sentence, or the domain error's."""
        if self.key:
            return text.say(self.key, lang)
        if self.error is not None:
            return error_message(self.error, Lang.of(lang))
        return self.message

    @property
    def ok(self) -> bool:
        """False: there is nothing to show but the message."""
        return False


@dataclass(frozen=True)
class Analysis:
    """Everything shown for one hand: its arrangement, whether it can be
    declared, and the coach's advice (None below 14 tiles)."""

    hand: Hand
    scheme: Scheme
    arrangement: Arrangement
    declaration: Declaration
    advice: Advice | None
    seconds: float = 0.0
    #: The offered tile the advice could not weigh, and why (too many copies, ...): the advice is then without it.
    refused: tuple[Tile, OkeyError] | None = None

    @property
    def ok(self) -> bool:
        """True: the hand was analysed."""
        return True

    @property
    def okey(self) -> Tile:
        """The okey face."""
        return okey_of(self.hand.indicator)

    @property
    def can_declare(self) -> bool:
        """True when the hand can be declared now."""
        return self.declaration.can_declare

    @property
    def finish(self) -> Finish | None:
        """The highest-scoring finish, if any."""
        return self.declaration.best

    @property
    def points(self) -> int:
        """What the best finish is worth under the scheme (0 without one)."""
        best = self.declaration.best
        return best.points(self.scheme) if best else 0

    @property
    def discards(self) -> tuple[DiscardOption, ...]:
        """The ranked discards (15 tiles), the finish's discard first."""
        return self.advice.discards if self.advice is not None else ()

    @property
    def recommended(self) -> DiscardOption | None:
        """The discard to make (15 tiles)."""
        return self.advice.best if self.advice is not None else None

    @property
    def offered(self) -> Tile | None:
        """The offered tile the advice weighed (None: none, or not 14 tiles)."""
        return self.advice.offered if self.advice is not None else None

    def headline(self, lang: Lang = Lang.EN) -> str:
        """One sentence in ``lang``: what to do now, the advice's own action
        (:func:`okey_vision.coach.text.headline`), or what a hand of the
        wrong size needs."""
        if self.advice is not None:
            return text.headline(self.advice, lang)
        if self.finish is not None:
            return text.finish_headline(self.finish, self.scheme, lang)
        return text.size_headline(len(self.hand.tiles), lang)


def analyse(tiles: Tiles, indicator: str | Tile | None = None,
            seen: str | Iterable[TileLike] = (), scheme: Scheme | str = COUNTDOWN,
            memo: Memo | None = None, offered: Tile | str | None = None) -> Analysis | Problem:
    """Analyse a hand; a :class:`Problem` with a plain message if it cannot
    be. ``memo``: the app session's search caches. ``offered``: the tile the
    previous player just discarded; with 14 tiles the advice is to take it
    or draw (an offered tile that cannot be taken, e.g. a third copy, is
    said beside the advice without it)."""
    t0 = time.perf_counter()
    try:
        scheme = check_scheme(scheme)
        if not isinstance(tiles, Hand) and (indicator is None or indicator == ""):
            return Problem(text.say("no_indicator"), "no_indicator")
        hand = Hand.of(tiles, indicator, seen)  # the one check of the hand
        if not hand.tiles:
            return Problem(text.say("no_tiles"), "no_tiles")
        arrangement = arrange(hand, memo=memo)
        declaration = declare(hand, scheme=scheme, memo=memo)
        advice, refused = None, None
        if len(hand.tiles) == HAND_SIZE and offered is not None:
            tile = parse_tile(offered)
            try:
                advice = advise(hand, offered=tile, scheme=scheme, memo=memo)
            except OkeyError as exc:  # e.g. a third copy of a face: the advice without it, and why
                refused = (tile, exc)
        if advice is None and len(hand.tiles) in (HAND_SIZE, MAX_HAND):
            advice = advise(hand, scheme=scheme, memo=memo, declaration=declaration)
        return Analysis(hand, scheme, arrangement, declaration, advice, time.perf_counter() - t0, refused)
    except OkeyError as exc:
        return Problem(str(exc), error=exc)


#: Analyses a session remembers (the app reruns on every tap; the same hand
#: is not solved twice).
REMEMBERED = 512


class Session:
    """One player's app session: its search caches and its last analyses,
    both bounded, dropped with the session."""

    def __init__(self, memo: Memo | None = None) -> None:
        self.memo = memo if memo is not None else Memo()
        self._analyses: OrderedDict[tuple[Hand, str, Tile | None], Analysis | Problem] = OrderedDict()
        # the page and the live view's worker may both ask (the memo is not thread-safe)
        self._lock = threading.RLock()

    def analyse(self, tiles: Tiles, indicator: str | Tile | None = None,
                seen: str | Iterable[TileLike] = (), scheme: Scheme | str = COUNTDOWN,
                offered: Tile | str | None = None) -> Analysis | Problem:
        """:func:`analyse` with this session's memo, remembered for the last
        ``REMEMBERED`` distinct hands (the built hand, the scheme and the
        offered tile are the key); one caller at a time."""
        with self._lock:
            return self._analyse(tiles, indicator, seen, scheme, offered)

    def _analyse(self, tiles: Tiles, indicator: str | Tile | None, seen: str | Iterable[TileLike],
                 scheme: Scheme | str, offered: Tile | str | None) -> Analysis | Problem:
        try:
            hand = Hand.of(tiles, indicator, seen)
            tile = parse_tile(offered) if offered is not None and len(hand.tiles) == HAND_SIZE else None
        except OkeyError:
            return analyse(tiles, indicator, seen, scheme)  # the problem, said; nothing to remember
        key = (hand, scheme, tile)
        hit = self._analyses.get(key)
        if hit is None:
            hit = analyse(hand, scheme=scheme, memo=self.memo, offered=tile)
            self._analyses[key] = hit
            if len(self._analyses) > REMEMBERED:
                self._analyses.popitem(last=False)
        else:
            self._analyses.move_to_end(key)
        return hit

    def clear(self) -> None:
        """Drop the caches and the remembered analyses."""
        with self._lock:
            self.memo.clear()
            self._analyses.clear()


def action_line(a: Analysis, lang: Lang = Lang.EN) -> str:
    """The move as the page shows it first and large (the action box): the
    analysis' headline (the advice's own action), its tiles in the page's words.

    >>> action_line(analyse("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 y13", "b2", offered="k4"), Lang.TR)
    'Siyah 4 al: eli bitirir.'
    """
    return in_words(a.headline(lang), lang)


def groups_for_display(a: Analysis, lang: Lang = Lang.EN) -> tuple[list[Meld], list[Tile], str]:
    """The groups to draw: the finishing melds when the hand can be declared,
    else the best runs/sets arrangement, or seven pairs when that route holds
    more tiles; with the leftovers and a caption in ``lang``."""
    best = a.finish
    if best is not None:
        left = [best.discard] if best.discard is not None else []
        return list(best.melds), left, text.groups_caption(best, lang=lang)
    arr = a.arrangement
    groups, loose = arr.shown  # the coach calls a tile loose by the same groups
    if arr.shows_pairs:
        return list(groups), list(loose), text.groups_caption(None, pairs=len(arr.pairs), lang=lang)
    return list(groups), list(loose), text.groups_caption(None, in_melds=arr.tiles_in_melds, tiles=len(arr.hand),
                                                          lang=lang)


def _closest(tiles: Sequence[Tile], free: dict[Tile, list[int]]) -> list[int]:
    """Places for a meld's ``tiles`` among the ``free`` ones, close together on
    the rack (players keep a meld's tiles side by side): from each free copy of
    its first tile, every other tile's nearest free copy; the tightest wins."""
    best: list[int] = []
    for start in free.get(tiles[0], []) if tiles else []:
        got, used = [start], {start}
        for tile in tiles[1:]:
            places = [i for i in free.get(tile, []) if i not in used]
            if places:
                near = min(places, key=lambda i: min(abs(i - j) for j in got))
                got.append(near)
                used.add(near)
        if len(got) > len(best) or (len(got) == len(best) and max(got) - min(got) < max(best) - min(best)):
            best = got
    return best


@dataclass(frozen=True)
class RackMove:
    """The advised move on the rack as drawn on its image: the tile to throw
    and the tiles of each meld (or pair), by their place in rack order, and
    whether throwing it is the okey-discard finish."""

    discard: int | None = None
    melds: tuple[tuple[int, ...], ...] = ()
    okey_discard: bool = False
    declare: bool = False


def move_on_rack(a: Analysis, tiles: Sequence[Tile | str]) -> RackMove:
    """Where the analysis' move lies on a rack whose tiles are ``tiles`` (rack
    order): each meld's tiles matched to places holding them (a copy next to
    the meld's other tiles first), the discard to a copy no meld uses if
    there is one (else, as the hand drawn on the page, a meld's copy).

    >>> rack = "r1 r2 r3 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 r9 r4".split()
    >>> m = move_on_rack(analyse(rack, "b2"), rack)
    >>> m.discard, m.declare, sorted(m.melds)[0]
    (13, True, (0, 1, 2, 14))
    """
    groups, _left, _caption = groups_for_display(a)
    finish, rec = a.finish, a.recommended
    throw = finish.discard if finish is not None else (rec.tile if rec is not None and len(tiles) == MAX_HAND
                                                       else None)
    return move_of([m.tiles for m in groups], throw, tiles, bool(finish is not None and finish.okey_discard),
                   finish is not None)


def move_of(groups: Sequence[Sequence[Tile]], throw: Tile | None, tiles: Sequence[Tile | str],
            okey_discard: bool = False, declare: bool = False) -> RackMove:
    """Melds (their tiles) and the tile to throw placed on a rack whose tiles
    are ``tiles`` (rack order), as :func:`move_on_rack` places an analysis'
    move; the 101 page places its advice the same way.

    >>> move_of([parse_hand("r1 r2 r3")], parse_tile("y9"), "y9 r2 r1 r3 k4".split())
    RackMove(discard=0, melds=((1, 2, 3),), okey_discard=False, declare=False)
    """
    names = [parse_tile(t) for t in tiles]
    free: dict[Tile, list[int]] = {}
    for i, tile in enumerate(names):
        free.setdefault(tile, []).append(i)
    melds = []
    for g in sorted(groups, key=lambda g: -len(g)):  # the longest first: it has the fewest ways to lie
        got = _closest(tuple(g), free)
        for i in got:
            free[names[i]].remove(i)
        if got:
            melds.append(tuple(sorted(got)))
    discard = None
    if throw is not None:
        spare = free.get(throw) or [i for i, tile in enumerate(names) if tile == throw]
        discard = spare[0] if spare else None
    return RackMove(discard, tuple(melds), okey_discard, declare)


__all__ = ["Analysis", "Problem", "RackMove", "Session", "action_line", "analyse", "distance_text",
           "groups_for_display", "move_of", "move_on_rack"]
