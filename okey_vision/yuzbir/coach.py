"""The 101 coach: open now or wait, what to lay and add, which tile to
discard, and whether to take the tile just discarded or draw.

One entry, :func:`advise101`, serves the command line, the app and the
coach bot of :mod:`okey_vision.yuzbir.sim`. With the tile the previous
player just discarded (``offered``) it answers take or draw; without, the
player holds the tiles after drawing and it answers the turn: the opening
(or not yet), the melds and additions to lay, and the discard. It never
discards the okey or a tile the table takes (each costs 101) while another
tile can go. Before opening, a hand's points matter not (a player who never
opens takes 202 whatever they hold), so it keeps high tiles that build
toward 101 and lets go of low, lonely ones; after opening, every point left
counts, so it lets go of the highest tile that helps no meld.

>>> a = advise101("r10 r11 r12 k10 y10 b10 b11 b12 b13 k7 k8 k9 y1 r3 k2 y4 b6 r8 y13 k13 r13 b2", "y5")
>>> a.action.value, a.opening.points, a.discard
('open', 162, Tile('r8'))
>>> advise101("r1 r2 y5 b9 k2", "y5", offered="r3").action.value
'draw'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from enum import Enum

from okey_vision.errors import clip
from okey_vision.lang import Lang, in_words, tiles_words
from okey_vision.melds import PAIR, Meld
from okey_vision.tiles import COPIES, Game, Hand, Tile, TileLike, check_counts, format_hand, okey_of, parse_tile
from okey_vision.yuzbir.opening import Opening, OpeningMemo, best_melds, most_pairs, opening_of
from okey_vision.yuzbir.rules import DEFAULT_OPTIONS, Hand101SizeError, Opened, Options101, as_hand101, tile_value
from okey_vision.yuzbir.table import Addition, Place, add_all, takes
from okey_vision.yuzbir.text import say


class Action101(str, Enum):
    """The headline of a 101 advice."""

    OPEN = "open"
    LAY = "lay"
    DISCARD = "discard"
    FINISH = "finish"
    TAKE = "take"
    DRAW = "draw"


@dataclass(frozen=True)
class Why101:
    """One reason, as data: a sentence key of :mod:`okey_vision.yuzbir.text` and its values."""

    key: str
    values: tuple[tuple[str, object], ...] = ()

    def text(self, lang: Lang | str = Lang.EN) -> str:
        """The reason in ``lang`` (a reason inside it said in the same language)."""
        said = say(self.key, lang, **{k: v.text(lang) if isinstance(v, Why101) else v for k, v in self.values})
        return in_words(said, lang)


def _why(key: str, **values: object) -> Why101:
    return Why101(key, tuple(values.items()))


@dataclass(frozen=True)
class CoachTuning:
    """The coach's weights, each chosen on seeds the strength benchmark never scores."""

    #: Before opening: worth of one partner tile (same number, or same colour within two) still in reach.
    partner: float = 6.0
    #: Before opening: worth of a tile's own number (high tiles build toward 101).
    number_before: float = 1.0
    #: After opening: worth of a partner, against the tile's points left in hand.
    partner_after: float = 3.0
    #: Wait with a pairs opening while the runs and sets lack at most this many points.
    pairs_wait: int = 15
    #: ... and while the stock holds at least this many tiles.
    pairs_wait_stock: int = 30
    #: Before opening, worth of holding a tile's twin (a pair) once the hand holds ``pairs_from`` pairs.
    pair_keep: float = 15.0
    pairs_from: int = 4
    #: Before opening, count a tile's partners among all the tiles held (True) or only those outside the best melds.
    mates_all: bool = False
    #: After opening, a spare okey (one no meld of the hand uses) stays in hand for the player's own melds
    #: while the stock holds more than this many tiles; then it goes to the table (held at the end it costs 101).
    spare_okey_stock: int = 999


#: The coach's tuning.
COACH = CoachTuning()


@dataclass(frozen=True)
class Advice101:
    """A 101 advice: the action, the opening found, what to lay, add and
    discard (or take/draw), and the reasons as data."""

    action: Action101
    opening: Opening
    opened: Opened
    lay: tuple[Meld, ...] = ()
    additions: tuple[Addition, ...] = ()
    discard: Tile | None = None
    take: bool | None = None
    offered: Tile | None = None
    never: tuple[Tile, ...] = ()
    reasons: tuple[Why101, ...] = field(default=())

    @property
    def open_now(self) -> bool:
        """This advice opens the hand this turn."""
        return self.opened is Opened.NO and bool(self.lay)

    @property
    def finish(self) -> bool:
        """The discard is the last tile: the round ends."""
        return self.action is Action101.FINISH

    def lines(self, lang: Lang | str = Lang.EN) -> list[str]:
        """The advice in sentences, headline first."""
        return [w.text(lang) for w in self.reasons]

    def to_dict(self, lang: Lang | str = Lang.EN) -> dict[str, object]:
        """A JSON-ready summary (sentences in ``lang``)."""
        return {
            "game": "101",
            "action": self.action.value,
            "opened": self.opened.value,
            "opening": self.opening.to_dict(),
            "open_now": self.open_now,
            "lay": [m.describe() for m in self.lay],
            "additions": [{"tile": a.tile.name, "meld": a.meld, "place": a.place.value,
                           "result": a.result.describe()} for a in self.additions],
            "discard": self.discard.name if self.discard else None,
            "take": self.take,
            "offered": self.offered.name if self.offered else None,
            "never_discard": [t.name for t in self.never],
            "reasons": self.lines(lang),
        }


def available(tiles: Iterable[Tile], indicator: Tile, seen: Iterable[Tile]) -> Counter[Tile]:
    """Copies of each tile out of reach: held (``tiles``), seen (discards, the
    table) or the indicator; 2 minus it is what may still come."""
    gone: Counter[Tile] = Counter(tiles)
    gone.update(seen)
    gone[indicator] += 1
    return gone


def _partners(t: Tile, others: Sequence[Tile], okey: Tile) -> int:
    """How many of ``others`` could share a run or set with ``t``."""
    face = okey if t.is_false_joker else t
    n = 0
    for u in others:
        if u == okey:
            n += 1
            continue
        g = okey if u.is_false_joker else u
        if g.number == face.number and g.color != face.color:
            n += 1
        elif g.color == face.color and g != face:
            d = abs(g.number - face.number)
            if d <= 2 or d >= 11:  # 12-13-1 and 13-1 neighbours
                n += 1
    return n


def _alive(t: Tile, okey: Tile, gone: Counter[Tile]) -> int:
    """Copies of tiles that would join ``t`` still in reach (a rough count of its chances)."""
    face = okey if t.is_false_joker else t
    total = 0
    for c in "rybk":
        if c != face.color:
            total += COPIES - gone[parse_tile(f"{c}{face.number}")]
    for d in (-2, -1, 1, 2):
        m = face.number + d
        if 1 <= m <= 13:
            total += COPIES - gone[parse_tile(f"{face.color}{m}")]
    return total


def choose_discard(rest: Sequence[Tile], okey: Tile, opened: Opened, table: Sequence[Meld],
                   gone: Counter[Tile], options: Options101 = DEFAULT_OPTIONS, tuning: CoachTuning = COACH,
                   memo: OpeningMemo | None = None) -> tuple[Tile, tuple[Tile, ...], Why101]:
    """The tile to discard from ``rest`` (what is left after laying), the
    tiles never to discard (the okey, the table's), and why."""
    never = tuple(sorted({t for t in rest if t == okey or takes(table, t, okey, options)}, key=lambda t: t.index))
    if len(rest) == 1:
        return rest[0], never, _why("finish_okey" if rest[0] == okey else "finish", tile=rest[0])
    pool = [t for t in rest if t not in never] or [t for t in rest if t != okey] or list(rest)
    if opened is Opened.PAIRS:
        counts = Counter(rest)
        singles = [t for t in pool if counts[t] < 2] or pool
        tile = max(singles, key=lambda t: (tile_value(t, okey) - 4 * (COPIES - gone[t] > 0), t.index))
        return tile, never, _why("why_discard_pairs", tile=tile)
    if opened is Opened.MELDS:
        _, _, left = best_melds(rest, okey, options, memo)
        loose = [t for t in pool if t in left] or pool
        others = list(rest)

        def cost(t: Tile) -> tuple[float, int]:
            mates = others.copy()
            mates.remove(t)
            chance = min(_partners(t, mates, okey), 2) * min(_alive(t, okey, gone), 4) / 4
            return tile_value(t, okey) - tuning.partner_after * chance, t.index

        tile = max(loose, key=cost)
        return tile, never, _why("why_discard_open", tile=tile, points=tile_value(tile, okey))
    _melds, _, left = best_melds(rest, okey, options, memo)
    loose = [t for t in pool if t in left]
    if not loose:  # every tile is in a meld: give up the one that costs the opening least
        def loss(t: Tile) -> int:
            others = list(rest)
            others.remove(t)
            return -best_melds(others, okey, options, memo)[1]

        tile = min(pool, key=lambda t: (loss(t), t.index))
        return tile, never, _why("why_discard_least", tile=tile)

    held = Counter(rest)
    pairs_held = sum(1 for c in held.values() if c >= 2)

    def keep(t: Tile) -> tuple[float, int]:
        mates = list(rest if tuning.mates_all else left)
        mates.remove(t)
        chance = min(_partners(t, mates, okey), 2) * min(_alive(t, okey, gone), 4) / 4
        twin = tuning.pair_keep if held[t] >= 2 and pairs_held >= tuning.pairs_from else 0.0
        return tuning.partner * chance + tuning.number_before * t.number + twin, -t.index

    tile = min(loose, key=keep)
    return tile, never, _why("why_discard_wait", tile=tile)


def _keep_one(melds: list[Meld], okey: Tile) -> tuple[list[Meld], list[Tile]]:
    """Melds that use every tile, less one tile to discard: an okey that a
    long run's end or a set of four can spare (finishing with the okey counts
    double), else an end of a long run or a set's fourth tile, else the
    smallest meld stays in hand."""
    for k, m in enumerate(melds):
        if len(m) >= 4 and okey in m.tiles:
            ends = [0, len(m) - 1] if m.kind == "run" else range(len(m))
            for i in ends:
                if m.tiles[i] == okey:
                    return melds[:k] + [Meld(m.kind, m.tiles[:i] + m.tiles[i + 1:],
                                             m.faces[:i] + m.faces[i + 1:], okey)] + melds[k + 1:], [okey]
    for k, m in sorted(enumerate(melds), key=lambda km: -len(km[1])):
        if len(m) >= 4:
            if m.kind == "set":
                i = min(range(len(m.tiles)), key=lambda j: (m.tiles[j] == okey, m.faces[j].number))
                return melds[:k] + [Meld(m.kind, m.tiles[:i] + m.tiles[i + 1:], m.faces[:i] + m.faces[i + 1:],
                                         okey)] + melds[k + 1:], [m.tiles[i]]
            i = 0 if m.tiles[0] != okey else len(m) - 1  # an end of the run, never the okey if it can be helped
            return melds[:k] + [Meld(m.kind, m.tiles[:i] + m.tiles[i + 1:], m.faces[:i] + m.faces[i + 1:],
                                     okey)] + melds[k + 1:], [m.tiles[i]]
    small = min(range(len(melds)), key=lambda j: (len(melds[j]), sum(f.number for f in melds[j].faces)))
    return melds[:small] + melds[small + 1:], list(melds[small].tiles)


def _points(melds: Sequence[Meld]) -> int:
    return sum(f.number for m in melds if m.kind != PAIR for f in m.faces)


def plan_turn(tiles: Sequence[Tile], okey: Tile, opened: Opened, table: Sequence[Meld], needed: int,
              pairs_needed: int, stock_left: int = 99, options: Options101 = DEFAULT_OPTIONS,
              tuning: CoachTuning = COACH, memo: OpeningMemo | None = None,
              pairs_wait: bool = True) -> tuple[Opened, list[Meld], list[Addition], list[Tile], list[Meld], Opening]:
    """What a player does with ``tiles`` this turn before discarding: open
    (or not), lay further melds, add to the table. Returns the state after,
    the melds laid, the additions, the tiles left and the table after, and
    the hand's opening."""
    hand = list(tiles)
    opening = opening_of(hand, okey, options, memo=memo)
    opening = Opening(opening.melds, opening.points, opening.leftover, opening.pairs, opening.pairs_leftover, okey,
                      needed, pairs_needed, options)
    laid: list[Meld] = []
    state = opened
    if state is Opened.NO:
        if opening.reaches:
            melds, left = list(opening.melds), list(opening.leftover)
            if not left:
                melds, left = _keep_one(melds, okey)
            if _points(melds) >= needed:
                laid, hand, state = melds, left, Opened.MELDS
        elif opening.reaches_pairs and not (pairs_wait and opening.missing <= tuning.pairs_wait
                                            and stock_left >= tuning.pairs_wait_stock):
            pairs, left = list(opening.pairs), list(opening.pairs_leftover)
            if not left:
                left = list(pairs.pop().tiles)
            if len(pairs) >= pairs_needed:
                laid, hand, state = pairs, left, Opened.PAIRS
    elif state is Opened.MELDS:
        melds, _, left = best_melds(hand, okey, options, memo)
        if melds and not left:
            melds, left = _keep_one(melds, okey)
        laid, hand = melds, left
    else:
        pairs, left = most_pairs(hand, okey, options)
        if pairs and not left:
            left = list(pairs.pop().tiles)
        laid, hand = pairs, left
    new_table = list(table) + [m for m in laid if m.kind != PAIR]
    adds: list[Addition] = []
    if state is not Opened.NO:
        spare = len(hand) > 2 and stock_left > tuning.spare_okey_stock
        adds, hand, new_table = add_all(hand, okey, new_table, options, keep=1, spare_okey=spare)
    return state, laid, adds, hand, new_table, opening


def advise101(hand: Hand | str | Sequence[TileLike], indicator: Tile | str | None = None, *,
              table: Sequence[Meld] = (), opened: Opened | str = Opened.NO, offered: Tile | str | None = None,
              seen: str | Iterable[TileLike] = (), highest: int = 0, most_pairs_laid: int = 0,
              stock_left: int = 99, options: Options101 = DEFAULT_OPTIONS, tuning: CoachTuning = COACH,
              memo: OpeningMemo | None = None) -> Advice101:
    """The advice for a 101 turn. With ``offered`` (the tile just discarded,
    the hand before drawing, so 21 tiles at most): take it or draw. Without: the hand after
    drawing: open or not yet, what to lay and add, and the discard. ``table``
    holds the melds laid so far, ``opened`` how this player opened, ``seen``
    the discards in sight, ``highest`` the highest opening so far and
    ``most_pairs_laid`` the most pairs opened with (for the beat-the-highest
    option), ``stock_left`` the tiles left to draw.

    >>> a = advise101("r10 r11 r12 k12 k13 y2", "b5", opened="melds", table=[])
    >>> a.action.value, [m.describe() for m in a.lay], a.discard
    ('lay', ['r10 r11 r12'], Tile('k13'))
    """
    h = as_hand101(hand, indicator, seen)
    okey = okey_of(h.indicator)
    state = Opened.parse(opened)
    table = tuple(table)
    needed = options.needed(highest)
    pairs_needed = options.pairs_needed(most_pairs_laid)
    seen_all = list(h.seen) + [t for m in table for t in m.tiles]
    tile = parse_tile(offered) if offered is not None and offered != "" else None
    # The tile set's copies, as the classic coach checks them: the offered tile and the table's melds with the
    # hand, the indicator and the discards (a third copy of a face is refused in one sentence naming it).
    check_counts(h.tiles, h.indicator, seen_all, offered=tile)
    gone = available(h.tiles, h.indicator, seen_all)
    if tile is not None:
        if len(h.tiles) > Game.ONE_OH_ONE.hand_size:  # one offered a tile has not drawn: 22 is a drawn hand
            raise Hand101SizeError.of("offered_size", tile=tile, hand=Game.ONE_OH_ONE.hand_size, n=len(h.tiles),
                                      tiles=repr(clip(format_hand(h.tiles))))
        return _advise_take(list(h.tiles), okey, tile, state, table, needed, pairs_needed, options, memo)
    state_after, laid, adds, rest, new_table, opening = plan_turn(
        h.tiles, okey, state, table, needed, pairs_needed, stock_left, options, tuning, memo)
    reasons: list[Why101] = []
    if state is Opened.NO and state_after is Opened.MELDS:
        action = Action101.OPEN
        reasons.append(_why("open", points=_points(laid), melds=_melds_words(laid)))
        reasons.append(_why("why_open"))
    elif state is Opened.NO and state_after is Opened.PAIRS:
        action = Action101.OPEN
        reasons.append(_why("open_pairs", n=len(laid), melds=_melds_words(laid)))
        reasons.append(_why("why_pairs"))
    elif state is Opened.NO:
        action = Action101.DISCARD
        reasons.append(_why("not_yet", progress=_why("progress", points=opening.points, needed=opening.needed)))
        if opening.reaches_pairs:
            reasons.append(_why("wait_pairs", missing=opening.missing))
        elif len(opening.pairs) >= 3:
            reasons.append(_why("pairs_progress", n=len(opening.pairs), needed=pairs_needed))
    else:
        action = Action101.LAY if laid or adds else Action101.DISCARD
        if laid:
            reasons.append(_why("lay", melds=_melds_words(laid)))
    for a in adds:
        reasons.append(_why("take_back" if a.place is Place.OKEY else "add", tile=a.tile,
                            meld=format_hand(table[a.meld].tiles) if a.meld < len(table) else a.result.describe()))
    tile, never, why = choose_discard(rest, okey, state_after, new_table, gone, options, tuning, memo)
    if len(rest) == 1:
        action = Action101.FINISH
        reasons.insert(0, why)
    else:
        reasons.append(_why("discard", tile=tile))
        reasons.append(why)
        islek = [t for t in never if t != okey]
        if islek:
            reasons.append(_why("never_islek", tiles=tiles_words(islek)))
        if okey in rest:
            reasons.append(_why("never_okey"))
    return Advice101(action, opening, state, tuple(laid), tuple(adds), tile, None, None, never, tuple(reasons))


def _melds_words(melds: Sequence[Meld]) -> str:
    return "; ".join(format_hand(m.tiles) for m in melds)


def take_use(tiles: Sequence[Tile], okey: Tile, offered: Tile, opened: Opened, table: Sequence[Meld],
             needed: int, pairs_needed: int, options: Options101 = DEFAULT_OPTIONS,
             memo: OpeningMemo | None = None) -> str | None:
    """Whether the rules let this player take ``offered``, and how they would
    use it at once: 'opens', 'adds' or 'melds' (a sentence key's tail), or
    None when it cannot be used this turn (so it may not be taken)."""
    with_it = list(tiles) + [offered]
    if opened is Opened.NO:
        _, now, _ = best_melds(tiles, okey, options, memo)
        _, after, _ = best_melds(with_it, okey, options, memo)
        if after >= needed and after > now:
            return "opens"
        pairs_now, _ = most_pairs(tiles, okey, options)
        pairs_after, _ = most_pairs(with_it, okey, options)
        if len(pairs_after) >= pairs_needed and len(pairs_after) > len(pairs_now) and after < needed:
            return "opens"
        return None
    if offered != okey and takes(table, offered, okey, options):
        return "adds"
    if opened is Opened.MELDS:
        _, now, _ = best_melds(tiles, okey, options, memo)
        _, after, left = best_melds(with_it, okey, options, memo)
        return "melds" if after > now and left else None
    counts = Counter(tiles)
    return "melds" if counts[offered] == 1 and offered != okey else None


def _advise_take(tiles: list[Tile], okey: Tile, offered: Tile, state: Opened, table: Sequence[Meld], needed: int,
                 pairs_needed: int, options: Options101, memo: OpeningMemo | None) -> Advice101:
    use = take_use(tiles, okey, offered, state, table, needed, pairs_needed, options, memo)
    opening = opening_of(tiles, okey, options, memo=memo)
    opening = Opening(opening.melds, opening.points, opening.leftover, opening.pairs, opening.pairs_leftover, okey,
                      needed, pairs_needed, options)
    if use is None:
        key = "draw_no_open" if state is Opened.NO else "draw_no_use"
        why = _why("draw", why=_why(key, tile=offered))
        return Advice101(Action101.DRAW, opening, state, take=False, offered=offered,
                         reasons=(why,))
    detail = opening_of(tiles + [offered], okey, options, memo=memo)
    why = _why("take", tile=offered,
               why=_why("take_" + use, progress=_why("progress", points=detail.points, needed=needed)))
    return Advice101(Action101.TAKE, opening, state, take=True, offered=offered, reasons=(why,))
