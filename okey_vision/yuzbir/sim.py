"""A simulator of 101 rounds for four seats, with bots to play them.

The deal follows the rules page: 21 tiles each and 22 to the starter, who
only discards on the first turn; the indicator is turned up and stays out
of play. A turn takes the tile the previous player just discarded (only to
use it at once: to open with it or lay it) or the stock's top; then the
player may open (runs and sets reaching 101, or 5 pairs), lay more melds and
add tiles to the table once opened, and discards one tile. Discarding the
last tile finishes the round; a round also ends when the stock is empty at
the start of a turn. Every lay, addition and opening is checked here: a bot
cannot lay what the rules refuse. A discard the table takes, or the okey
before the last tile, is fined 101, as is a taken tile not laid at once.

>>> import random
>>> r = play_round101([GreedyBot101()] * 4, random.Random(3))
>>> len(r.scores), r.finisher is None or r.scores[r.finisher] < 0
(4, True)
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field

from okey_vision.errors import OkeyError
from okey_vision.melds import PAIR, RUN, SET, Meld, pair_with_okey, run_with_okey, set_with_okey
from okey_vision.tiles import FULL_SET, Tile, okey_of
from okey_vision.yuzbir.coach import COACH, Advice101, CoachTuning, advise101, plan_turn, take_use
from okey_vision.yuzbir.opening import OpeningMemo, best_melds
from okey_vision.yuzbir.penalty import RoundEnd, scores_of
from okey_vision.yuzbir.rules import DEFAULT_OPTIONS, Opened, Options101, tile_value
from okey_vision.yuzbir.table import Addition, Place, fits, run_span, takes

#: Seats at a 101 table.
SEATS = 4


class PlayError101(OkeyError):
    """An illegal 101 move by a bot (a meld the rules refuse, a tile not held)."""


@dataclass(frozen=True)
class View101:
    """What a player sees on their turn."""

    me: int
    hand: tuple[Tile, ...]
    indicator: Tile
    table: tuple[Meld, ...]
    opened: tuple[Opened, ...]
    piles: tuple[tuple[Tile, ...], ...]
    stock_left: int
    highest: int = 0
    most_pairs: int = 0
    options: Options101 = DEFAULT_OPTIONS

    @property
    def okey(self) -> Tile:
        """The okey face."""
        return okey_of(self.indicator)

    @property
    def seen(self) -> tuple[Tile, ...]:
        """Every discard in sight."""
        return tuple(t for pile in self.piles for t in pile)


@dataclass(frozen=True)
class Turn101:
    """What a player does after drawing: melds to lay, tiles to add (in order), the discard."""

    lay: tuple[Meld, ...]
    adds: tuple[Addition, ...]
    discard: Tile


class Bot101:
    """A 101 policy: whether to take the offered tile, and the turn."""

    name = "bot"

    def take(self, view: View101, offered: Tile) -> bool:
        """Take ``offered`` (it must then be laid this turn)."""
        raise NotImplementedError

    def play(self, view: View101) -> Turn101:
        """The turn, holding ``view.hand`` after drawing."""
        raise NotImplementedError


class GreedyBot101(Bot101):
    """Greedy: opens as soon as it can (pairs too), lays and adds all it can,
    takes the offered tile whenever the rules let it use it, and discards its
    highest tile outside its best melds (never the okey or a tile the table takes)."""

    name = "greedy"

    def __init__(self) -> None:
        self.memo = OpeningMemo()

    def take(self, view: View101, offered: Tile) -> bool:
        """Take whenever the tile can be used at once."""
        me = view.opened[view.me]
        return take_use(view.hand, view.okey, offered, me, view.table, view.options.needed(view.highest),
                        view.options.pairs_needed(view.most_pairs), view.options, self.memo) is not None

    def play(self, view: View101) -> Turn101:
        """Open, lay, add; discard the highest loose tile."""
        okey = view.okey
        opts = view.options
        state, laid, adds, rest, table, _ = plan_turn(
            view.hand, okey, view.opened[view.me], view.table, opts.needed(view.highest),
            opts.pairs_needed(view.most_pairs), view.stock_left, opts, memo=self.memo, pairs_wait=False)
        if len(rest) == 1:
            return Turn101(tuple(laid), tuple(adds), rest[0])
        pool = [t for t in rest if t != okey and not takes(table, t, okey, opts)] or \
            [t for t in rest if t != okey] or list(rest)
        if state is Opened.PAIRS:
            counts = Counter(rest)
            loose = [t for t in pool if counts[t] < 2] or pool
        else:
            _, _, left = best_melds(rest, okey, opts, self.memo)
            loose = [t for t in pool if t in left] or pool
        return Turn101(tuple(laid), tuple(adds), max(loose, key=lambda t: (tile_value(t, okey), t.index)))


class CoachBot101(Bot101):
    """The coach (:func:`~okey_vision.yuzbir.coach.advise101`) as a player."""

    name = "coach"

    def __init__(self, tuning: CoachTuning = COACH) -> None:
        self.tuning = tuning
        self.memo = OpeningMemo()

    def _advice(self, view: View101, offered: Tile | None = None) -> Advice101:
        """The coach's advice for this view (the hand checked against the tiles seen; the offered tile, on top
        of a pile, is the offer, not one of the discards seen, as the classic game's view says it)."""
        seen = list(view.seen)
        if offered is not None and offered in seen:
            seen.remove(offered)
        return advise101(view.hand, view.indicator, seen=seen, table=view.table, opened=view.opened[view.me],
                         offered=offered, highest=view.highest, most_pairs_laid=view.most_pairs,
                         stock_left=view.stock_left, options=view.options, tuning=self.tuning, memo=self.memo)

    def take(self, view: View101, offered: Tile) -> bool:
        """The coach's take-or-draw."""
        return bool(self._advice(view, offered).take)

    def play(self, view: View101) -> Turn101:
        """The coach's turn."""
        a = self._advice(view)
        assert a.discard is not None
        return Turn101(a.lay, a.additions, a.discard)


@dataclass(frozen=True)
class Round101:
    """A played round: each seat's score, the finisher (None: the stock ran
    out), how each opened, the misplays, and the turns played."""

    scores: tuple[int, ...]
    finisher: int | None
    opened: tuple[Opened, ...]
    misplays: tuple[int, ...]
    turns: int
    end: RoundEnd = field(default_factory=RoundEnd)


def deal101(rng: random.Random, starter: int = 0) -> tuple[Tile, list[list[Tile]], list[Tile]]:
    """Shuffle and deal: the indicator (never a false joker), four hands
    (22 tiles to ``starter``, 21 to the others) and the stock (drawn from the end)."""
    tiles = list(FULL_SET)
    rng.shuffle(tiles)
    k = next(i for i, t in enumerate(tiles) if not t.is_false_joker)
    indicator = tiles.pop(k)
    hands = []
    for seat in range(SEATS):
        n = 22 if seat == starter else 21
        hands.append(tiles[:n])
        tiles = tiles[n:]
    return indicator, hands, tiles


def _faces_ok(meld: Meld, okey: Tile, options: Options101) -> bool:
    """The meld's tiles play as its faces, and the faces form its kind."""
    if len(meld.tiles) != len(meld.faces):
        return False
    for t, f in zip(meld.tiles, meld.faces, strict=True):
        if t != okey and (okey if t.is_false_joker else t) != f:
            return False
    faces = meld.faces
    if meld.kind == SET:
        return (3 <= len(faces) <= 4 and len({f.number for f in faces}) == 1
                and len({f.color for f in faces}) == len(faces)) and set_with_okey(meld.tiles, okey) is not None
    if meld.kind == RUN:
        if run_with_okey(meld.tiles, okey) is None or len({f.color for f in faces}) != 1 or not 3 <= len(faces) <= 13:
            return False
        start, end = run_span(meld)
        if end == 14 and not options.ace_after_13:
            return False
        return [f.number for f in faces] == [(p - 1) % 13 + 1 for p in range(start, end + 1)]
    if meld.kind == PAIR:
        return pair_with_okey(meld.tiles, okey, options.okey_pair) is not None and faces[0] == faces[1]
    return False


def _take_out(hand: list[Tile], tiles: Sequence[Tile]) -> None:
    for t in tiles:
        if t not in hand:
            raise PlayError101(f"tile {t.name} is not in the hand")
        hand.remove(t)


def play_round101(bots: Sequence[Bot101], rng: random.Random, starter: int = 0,
                  options: Options101 = DEFAULT_OPTIONS, check: bool = True) -> Round101:
    """Play one round; every move checked against the rules, and (``check``)
    every tile accounted for after every turn."""
    indicator, hands, stock = deal101(rng, starter)
    okey = okey_of(indicator)
    table: list[Meld] = []
    pairs_laid: list[Meld] = []  # pairs lie apart: nothing is added to them
    piles: list[list[Tile]] = [[] for _ in range(SEATS)]
    opened = [Opened.NO] * SEATS
    fines = [0] * SEATS
    highest = most_pairs = 0
    seat = starter
    turns = 0
    end = RoundEnd()
    while True:
        bot = bots[seat]
        hand = hands[seat]
        taken: Tile | None = None
        if turns > 0:
            prev = (seat - 1) % SEATS
            offered = piles[prev][-1] if piles[prev] else None
            view = _view(seat, hand, indicator, table, opened, piles, stock, highest, most_pairs, options)
            if offered is not None and bot.take(view, offered):
                if take_use(hand, okey, offered, opened[seat], table, options.needed(highest),
                            options.pairs_needed(most_pairs), options) is None:
                    raise PlayError101(f"{bot.name} took {offered.name}, which it cannot use this turn")
                taken = piles[prev].pop()
                hand.append(taken)
            else:
                if not stock:
                    break
                hand.append(stock.pop())
        view = _view(seat, hand, indicator, table, opened, piles, stock, highest, most_pairs, options)
        start_state = opened[seat]
        turn = bot.play(view)
        before = Counter(hand)
        opened[seat], laid = _lay(bot.name, turn, hand, okey, opened[seat], table, pairs_laid,
                                  options.needed(highest), options.pairs_needed(most_pairs), options)
        if start_state is Opened.NO and opened[seat] is Opened.MELDS:
            highest = max(highest, laid)
        elif start_state is Opened.NO and opened[seat] is Opened.PAIRS:
            most_pairs = max(most_pairs, laid)
        if taken is not None and Counter(hand)[taken] >= before[taken]:
            fines[seat] += 1  # a taken tile must be laid at once
        _take_out(hand, [turn.discard])
        piles[seat].append(turn.discard)
        turns += 1
        if check:
            _check_tiles(indicator, hands, table + pairs_laid, piles, stock)
        if not hand:
            end = RoundEnd(seat, turn.discard == okey, opened[seat] is Opened.PAIRS, start_state is Opened.NO)
            break
        if turn.discard == okey or takes(table, turn.discard, okey, options):
            fines[seat] += 1
        seat = (seat + 1) % SEATS
    scores = scores_of(hands, indicator, opened, end, fines, options)
    return Round101(scores, end.finisher, tuple(opened), tuple(fines), turns, end)


def _lay(name: str, turn: Turn101, hand: list[Tile], okey: Tile, state: Opened, table: list[Meld],
         pairs_laid: list[Meld], needed: int, pairs_needed: int, options: Options101) -> tuple[Opened, int]:
    """Check and apply a turn's melds and additions: the player's state after,
    and the opening's points (or pairs) when it opens."""
    laid = 0
    if turn.lay:
        kinds = {m.kind for m in turn.lay}
        if not all(_faces_ok(m, okey, options) for m in turn.lay):
            raise PlayError101(f"{name} laid an invalid meld")
        if state is Opened.NO:
            if kinds == {PAIR}:
                laid = len(turn.lay)
                if laid < pairs_needed:
                    raise PlayError101(f"{name} opened with too few pairs")
                state = Opened.PAIRS
            elif PAIR not in kinds:
                laid = sum(f.number for m in turn.lay for f in m.faces)
                if laid < needed:
                    raise PlayError101(f"{name} opened with {laid} points")
                state = Opened.MELDS
            else:
                raise PlayError101(f"{name} mixed pairs and melds")
        elif (state is Opened.PAIRS) != (kinds == {PAIR}):
            raise PlayError101(f"{name} laid melds of the other kind than its opening")
        for m in turn.lay:
            _take_out(hand, m.tiles)
            (pairs_laid if m.kind == PAIR else table).append(m)
    for a in turn.adds:
        if state is Opened.NO:
            raise PlayError101(f"{name} added to the table before opening")
        if a.meld >= len(table) or a.result not in [r for _, r in fits(table[a.meld], a.tile, okey, options)]:
            raise PlayError101(f"{name} added {a.tile.name} where it does not fit")
        _take_out(hand, [a.tile])
        if a.place is Place.OKEY:
            hand.append(okey)
        table[a.meld] = a.result
    return state, laid


def _view(seat: int, hand: list[Tile], indicator: Tile, table: list[Meld], opened: list[Opened],
          piles: list[list[Tile]], stock: list[Tile], highest: int, most_pairs: int,
          options: Options101) -> View101:
    return View101(seat, tuple(hand), indicator, tuple(table), tuple(opened), tuple(tuple(p) for p in piles),
                   len(stock), highest, most_pairs, options)


def _check_tiles(indicator: Tile, hands: list[list[Tile]], table: list[Meld], piles: list[list[Tile]],
                 stock: list[Tile]) -> None:
    """Every tile of the set is in exactly one place."""
    held: Counter[Tile] = Counter([indicator])
    for h in hands:
        held.update(h)
    for m in table:
        held.update(m.tiles)
    for p in piles:
        held.update(p)
    held.update(stock)
    if held != Counter(FULL_SET):
        extra, lost = held - Counter(FULL_SET), Counter(FULL_SET) - held
        raise PlayError101(f"tiles not conserved: extra {sorted(t.name for t in extra.elements())}, "
                           f"missing {sorted(t.name for t in lost.elements())}")
