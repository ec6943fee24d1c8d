"""From a hand to everything the app shows, or a plain message.

:func:`analyse` checks the hand (tile names, copies, size), arranges it,
says whether and how it can be declared, and ranks the discards with the
coach (distance to winning and outs) when :mod:`okey_vision.coach` is
available, else by the solver alone (tiles left outside melds). Domain
errors come back as :class:`Problem` with the error's message, never raised.

>>> a = analyse("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 r9", "b2")
>>> a.can_declare, a.finish.discard.name, a.points
(True, 'r9', 2)
>>> analyse("r1 r2 x9", "b2").message
"unknown tile name 'x9': expected a colour (r, y, b, k) and a number 1-13 such as 'r7', or 'fj' for a false joker"
"""

from __future__ import annotations

import time
from dataclasses import dataclass
from functools import lru_cache
from typing import Iterable

from okey_vision.errors import OkeyError
from okey_vision.melds import Meld
from okey_vision.scoring import COUNTDOWN, check_scheme
from okey_vision.solver import Arrangement, Declaration, Finish, arrange, declare
from okey_vision.tiles import Hand, Tile, okey_of, parse_hand, parse_tile


@dataclass(frozen=True)
class Option:
    """One discard (or, for 14 tiles, the hand as it is): its distance to a
    finished hand, the outs (available copies that lower it) and their faces."""

    tile: Tile | None
    distance: int
    outs: int | None = None
    out_tiles: tuple[Tile, ...] = ()
    finishes: bool = False


@dataclass(frozen=True)
class Problem:
    """A hand that cannot be analysed, with a message for the player."""

    message: str

    @property
    def ok(self) -> bool:
        return False


@dataclass(frozen=True)
class Analysis:
    """Everything shown for one hand."""

    hand: Hand
    scheme: str
    arrangement: Arrangement
    declaration: Declaration
    options: tuple[Option, ...]
    coached: bool
    notes: tuple[str, ...] = ()
    seconds: float = 0.0
    #: The coach's action ('declare', 'discard', 'draw'), its reason in words,
    #: whether a finished hand should wait for a richer finish, and whether
    #: the hand holds the indicator's twin ('' / False without the coach).
    action: str = ""
    reason: str = ""
    wait: bool = False
    indicator_twin: bool = False

    @property
    def ok(self) -> bool:
        return True

    @property
    def okey(self) -> Tile:
        return okey_of(self.hand.indicator)

    @property
    def can_declare(self) -> bool:
        return self.declaration.can_declare

    @property
    def finish(self) -> Finish | None:
        return self.declaration.best

    @property
    def points(self) -> int:
        best = self.declaration.best
        return best.points(self.scheme) if best else 0

    @property
    def recommended(self) -> Option | None:
        return self.options[0] if self.options else None

    def headline(self) -> str:
        """One sentence: what to do now."""
        n = len(self.hand.tiles)
        best = self.finish
        rec = self.recommended
        if best is not None and self.wait and rec is not None and rec.tile is not None:
            return (f"Wait: discard {rec.tile.name} and keep your finished hand - "
                    f"finishing by throwing the okey later doubles the points.")
        if best is not None:
            how = "seven pairs" if best.kind == "pairs" else "runs and sets"
            if best.discard is None:
                return f"Declare: your 14 tiles are finished as {how} ({self.points} points, {self.scheme})."
            okey = " - discarding the okey doubles it" if best.okey_discard else ""
            return (f"Declare: discard {best.discard.name} and show {how} "
                    f"({self.points} points, {self.scheme}{okey}).")
        if n == 15 and rec is not None and rec.tile is not None:
            return f"Discard {rec.tile.name}: {distance_text(rec.distance)}" + (
                f", {rec.outs} outs." if rec.outs is not None else ".")
        if n == 14 and rec is not None:
            return f"Draw: {distance_text(rec.distance)}" + (
                f", {rec.outs} outs." if rec.outs is not None else ".")
        return f"{n} tiles: a hand has 14 tiles (15 after taking one); add or remove tiles below."


def distance_text(d: int) -> str:
    """'ready (distance 0)', '1 tile from winning', ..."""
    if d >= 99:
        return "no finish is possible with the tiles left"
    if d == 0:
        return "finished (distance 0)"
    return f"{d} tile{'s' if d != 1 else ''} from winning (distance {d})"


def _coach():
    try:
        from okey_vision import coach
    except Exception:  # noqa: BLE001 - the coach is optional; any import failure falls back
        return None
    return coach if hasattr(coach, "advise") else None


def _coach_advice(coach, hand: Hand, scheme: str):
    """(options, action, reason, wait, indicator_twin) from the coach."""
    advice = coach.advise(list(hand.tiles), hand.indicator, seen=list(hand.seen), scheme=scheme)
    opts = [Option(d.tile, int(d.distance), int(d.outs), tuple(d.out_tiles), int(d.distance) == 0)
            for d in getattr(advice, "discards", ()) or ()]
    if not opts and len(hand.tiles) == 14:
        opts = [Option(None, int(advice.distance), int(advice.outs), tuple(advice.out_tiles),
                       int(advice.distance) == 0)]
    return (tuple(opts), str(getattr(advice, "action", "")), str(getattr(advice, "reason", "")),
            bool(getattr(advice, "wait", False)), bool(getattr(advice, "indicator_twin", False)))


def _solver_options(hand: Hand) -> tuple[Option, ...]:
    """Without the coach: each discard ranked by the tiles left outside melds
    (or pairs) of the other 14 -- an upper bound on the distance."""
    tiles = list(hand.tiles)
    ind = hand.indicator

    def left(ts: list[Tile]) -> int:
        a = arrange(ts, ind)
        return min(len(ts) - a.tiles_in_melds, len(ts) - a.tiles_in_pairs)

    if len(tiles) != 15:
        return (Option(None, left(tiles)),) if len(tiles) == 14 else ()
    out = []
    for t in sorted(set(tiles)):
        rest = list(tiles)
        rest.remove(t)
        out.append(Option(t, left(rest)))
    out.sort(key=lambda o: (o.distance, o.tile))
    return tuple(out)


def analyse(tiles: str | Iterable[str | Tile], indicator: str | Tile | None,
            seen: str | Iterable[str | Tile] = (), scheme: str = COUNTDOWN) -> Analysis | Problem:
    """Analyse a hand; a :class:`Problem` with a plain message if it cannot be."""
    t0 = time.perf_counter()
    try:
        check_scheme(scheme)
        if indicator is None or indicator == "":
            return Problem("Set the indicator (the tile turned face up) to get advice.")
        names = parse_hand(tiles)
        if not names:
            return Problem("No tiles in the hand: take a photo of your rack, or add tiles below.")
        hand = Hand(tuple(names), parse_tile(indicator), tuple(parse_hand(seen)))
        arrangement = arrange(list(hand.tiles), hand.indicator)
        declaration = declare(list(hand.tiles), hand.indicator, scheme=scheme)
        notes = []
        coach = _coach() if len(hand.tiles) in (14, 15) else None
        options: tuple[Option, ...] = ()
        coached = False
        action = reason = ""
        wait = twin = False
        if coach is not None:
            try:
                options, action, reason, wait, twin = _coach_advice(coach, hand, scheme)
                coached = bool(options)
            except OkeyError as exc:
                notes.append(f"coach: {exc}")
        if not coached and len(hand.tiles) in (14, 15):
            options = _solver_options(hand)
            notes.append("Discards ranked by tiles left outside melds (the coach is not available).")
        if declaration.can_declare and options and not wait:
            # the declaring discard leads the list
            best = declaration.best.discard
            options = tuple(sorted(options, key=lambda o: (o.tile != best,)))
        if len(hand.tiles) < 14:
            notes.append(declaration.note)
        return Analysis(hand, scheme, arrangement, declaration, options, coached, tuple(notes),
                        time.perf_counter() - t0, action, reason, wait, twin)
    except OkeyError as exc:
        return Problem(str(exc))


@lru_cache(maxsize=512)
def _analyse_cached(tiles: tuple[str, ...], indicator: str | None, seen: tuple[str, ...],
                    scheme: str) -> Analysis | Problem:
    return analyse(tiles, indicator, seen, scheme)


def analyse_cached(tiles: Iterable[str | Tile], indicator: str | Tile | None,
                   seen: Iterable[str | Tile] = (), scheme: str = COUNTDOWN) -> Analysis | Problem:
    """:func:`analyse`, remembered for the last 512 distinct inputs (the app
    reruns on every tap; the same hand is not solved twice)."""
    name = indicator.name if isinstance(indicator, Tile) else indicator
    return _analyse_cached(tuple(str(t) for t in tiles), name, tuple(str(t) for t in seen), scheme)


def take_or_draw(a: Analysis, offered: str | Tile) -> str:
    """For a 14-tile hand: take the tile the previous player just discarded,
    or draw from the stock? Taking is advised when the best discard after
    taking leaves the hand closer to winning than it is now."""
    tile = parse_tile(offered)
    coach = _coach() if a.coached else None
    if coach is not None:
        try:
            adv = coach.advise(list(a.hand.tiles), a.hand.indicator, seen=list(a.hand.seen),
                               offered=tile, scheme=a.scheme)
        except OkeyError as exc:
            return f"Cannot take {tile.name}: {exc}"
        reason = str(adv.reason) or ("take " + tile.name if adv.take else "draw from the stock")
        return reason[0].upper() + reason[1:] + "."
    now = a.options[0].distance if a.options else 99
    took = analyse(list(a.hand.tiles) + [tile], a.hand.indicator, a.hand.seen, a.scheme)
    if not took.ok:
        return f"Cannot take {tile.name}: {took.message}"
    if took.finish is not None:
        return f"Take {tile.name}: then {took.headline()[0].lower()}{took.headline()[1:]}"
    rec = took.recommended
    if rec is None or rec.tile is None:
        return f"Draw from the stock ({tile.name} does not help)."
    if rec.distance < now:
        return (f"Take {tile.name}, then discard {rec.tile.name}: {distance_text(rec.distance)} "
                f"(now {now}).")
    return f"Draw from the stock: taking {tile.name} does not bring you closer (distance stays {now})."


def groups_for_display(a: Analysis) -> tuple[list[Meld], list[Tile], str]:
    """The groups to draw: the finishing melds when the hand can be declared,
    else the best runs/sets arrangement, or seven pairs when that route holds
    more tiles; with the leftovers and a caption."""
    best = a.finish
    if best is not None:
        left = [best.discard] if best.discard is not None else []
        cap = "Declare with these" + (" seven pairs" if best.kind == "pairs" else " runs and sets")
        return list(best.melds), left, cap
    arr = a.arrangement
    if arr.tiles_in_pairs > arr.tiles_in_melds and len(arr.pairs) >= 5:
        return list(arr.pairs), list(arr.pairs_leftover), f"Seven pairs route: {len(arr.pairs)} pairs"
    return list(arr.melds), list(arr.leftover), f"Runs and sets: {arr.tiles_in_melds} of {len(arr.hand)} tiles in melds"


__all__ = ["Analysis", "Option", "Problem", "analyse", "analyse_cached", "groups_for_display", "distance_text", "take_or_draw"]
