"""A simulator of Okey rounds and games, with bot policies to play them.

The deal, turns and scoring follow the rules page: 2 to 4 players, 14 tiles
each and 15 for the starter, who only discards on the first turn; a turn
takes the stock's top or the tile the previous player has just discarded,
then discards onto the player's own pile; a round ends when a player
declares a finished hand or, at the start of a turn, the stock is empty (a
stall). Every declaration is checked by the solver: a bot cannot finish a
hand that is not finished.

>>> import random
>>> r = play_round([GreedyPolicy(), GreedyPolicy()], random.Random(3), check=True)
>>> r.stall or r.winner in (0, 1)
True
"""

from __future__ import annotations

import random
from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass

from okey_vision.coach import RULES, Action, Rules, Table, advise
from okey_vision.errors import OkeyError
from okey_vision.memo import Memo
from okey_vision.scoring import (
    COUNTDOWN,
    PENALTY,
    START,
    FinishKind,
    Scheme,
    check_scheme,
    game_over,
    leader,
    round_deltas,
)
from okey_vision.solver import Finish, declare, tiles_in_melds
from okey_vision.tiles import FALSE_JOKER, FULL_SET, HAND_SIZE, MAX_HAND, Tile, okey_of


class GameError(OkeyError):
    """An illegal move by a policy (e.g. declaring a hand that is not finished)."""


@dataclass(frozen=True)
class TurnView:
    """What a player sees on their turn."""

    me: int
    hand: tuple[Tile, ...]
    indicator: Tile
    piles: tuple[tuple[Tile, ...], ...]  # each player's discards, oldest first
    offered: Tile | None            # the tile the previous player just discarded
    stock_left: int
    players: int
    scheme: Scheme = COUNTDOWN
    held: tuple[tuple[Tile, ...], ...] = ()    # per player: tiles taken from a pile and not thrown since

    @property
    def seen(self) -> tuple[Tile, ...]:
        """Every tile on the discard piles."""
        return tuple(t for pile in self.piles for t in pile)

    @property
    def okey(self) -> Tile:
        """The okey face."""
        return okey_of(self.indicator)

    def seen_without(self, tile: Tile | None) -> list[Tile]:
        """The seen tiles less one copy of ``tile`` (the offered one)."""
        rest = list(self.seen)
        if tile is not None and tile in rest:
            rest.remove(tile)
        return rest

    def table(self) -> Table:
        """What this player knows beyond the discards, as the coach takes it."""
        others = [q for q in range(len(self.held)) if q != self.me]
        nxt = (self.me + 1) % self.players
        return Table(players=self.players, stock_left=self.stock_left,
                     held=tuple(t for q in others for t in self.held[q]),
                     next_pile=self.piles[nxt],
                     next_held=self.held[nxt] if self.held else ())


@dataclass(frozen=True)
class Move:
    """A discard, declaring the hand finished or not."""

    discard: Tile
    declare: bool = False


class Policy:
    """A bot: whether to take the offered tile, then what to discard; it owns
    the search caches (a bounded :class:`~okey_vision.memo.Memo`) of the
    games it plays."""

    name = "policy"

    def __init__(self, memo: Memo | None = None) -> None:
        self.memo = memo if memo is not None else Memo()

    def take(self, view: TurnView, rng: random.Random) -> bool:
        """True to take the offered tile, False to draw from the stock."""
        return False

    def move(self, view: TurnView, rng: random.Random) -> Move:
        """The discard (and whether to declare) for a 15-tile hand."""
        raise NotImplementedError


def finishing_move(view: TurnView, memo: Memo | None = None) -> Move | None:
    """The highest-scoring finish as a move, if the hand is finished (bots
    declare whenever they can)."""
    decl = declare(view.hand, view.indicator, view.scheme, memo=memo)
    if decl.can_declare and decl.best is not None and decl.best.discard is not None:
        return Move(decl.best.discard, True)
    return None


class RandomPolicy(Policy):
    """Draws or takes at random, discards at random, declares when finished."""

    name = "random"

    def take(self, view: TurnView, rng: random.Random) -> bool:
        """A coin flip."""
        return rng.random() < 0.5

    def move(self, view: TurnView, rng: random.Random) -> Move:
        """Declare if finished, else a random tile."""
        return finishing_move(view, self.memo) or Move(rng.choice(view.hand))


class GreedyPolicy(Policy):
    """Keeps the most tiles in melds: discards the tile whose loss keeps the
    most in runs and sets (okeys last), takes the offered tile when it adds
    to that count."""

    name = "greedy"

    def _best_discard(self, hand: Sequence[Tile], okey: Tile) -> tuple[int, Tile]:
        best: tuple[int, int, int] | None = None
        pick = hand[0]
        for t in sorted(set(hand)):
            rest = list(hand)
            rest.remove(t)
            key = (tiles_in_melds(rest, okey, self.memo), t != okey, -t.index)
            if best is None or key > best:
                best, pick = key, t
        assert best is not None
        return best[0], pick

    def take(self, view: TurnView, rng: random.Random) -> bool:
        """Take when the best 14 after taking hold more tiles in melds."""
        if view.offered is None:
            return False
        if declare(list(view.hand) + [view.offered], view.indicator, memo=self.memo).can_declare:
            return True
        after, _ = self._best_discard(list(view.hand) + [view.offered], view.okey)
        return after > tiles_in_melds(view.hand, view.okey, self.memo)

    def move(self, view: TurnView, rng: random.Random) -> Move:
        """Declare if finished, else the discard keeping most tiles in melds."""
        return finishing_move(view, self.memo) or Move(self._best_discard(view.hand, view.okey)[1])


class CoachPolicy(Policy):
    """Plays the coach's advice (:func:`okey_vision.coach.advise`), the very
    advice the app and the command line give, with what a player at the
    table knows (:meth:`TurnView.table`): takes the offered tile when the advice
    does, declares when the advice does (it waits for an okey-discard finish
    only under ``rules.wait``), else discards the tile ranked first.
    ``with_outs=False`` skips the outs for speed (and plays weaker);
    ``rules`` picks the decision rules (the bot without them: ``BASIC``
    with ``wait=False``)."""

    name = "coach"

    def __init__(self, with_outs: bool = True, memo: Memo | None = None, rules: Rules = RULES) -> None:
        super().__init__(memo)
        self.with_outs = with_outs
        self.rules = rules

    def take(self, view: TurnView, rng: random.Random) -> bool:
        """Take the offered tile when the advice says so."""
        if view.offered is None:
            return False
        advice = advise(view.hand, view.indicator, view.seen_without(view.offered), offered=view.offered,
                        scheme=view.scheme, with_outs=self.with_outs and self.rules.take_outs, memo=self.memo,
                        table=view.table(), rules=self.rules)
        return bool(advice.take)

    def move(self, view: TurnView, rng: random.Random) -> Move:
        """Declare when the advice does, else its first-ranked discard (a waiting hand keeps its finished 14)."""
        advice = advise(view.hand, view.indicator, view.seen, scheme=view.scheme, with_outs=self.with_outs,
                        memo=self.memo, only_best=True, table=view.table(), rules=self.rules)
        if advice.action is Action.DECLARE and advice.declare is not None and advice.declare.discard is not None:
            return Move(advice.declare.discard, True)
        assert advice.best is not None
        return Move(advice.best.tile)


@dataclass(frozen=True)
class RoundResult:
    """How a round ended and what each player gains or loses."""

    winner: int | None
    kind: FinishKind | None     # None for a stall
    okey_discard: bool
    points: int                 # what each opponent loses (countdown) or takes (penalty)
    turns: int                  # the winner's own turns (all turns for a stall)
    twins: tuple[int, ...]      # players who held the indicator's twin
    delta: tuple[int, ...]      # score change per player under the scheme

    @property
    def stall(self) -> bool:
        """True when the stock ran out."""
        return self.winner is None


def deal(rng: random.Random, players: int, starter: int = 0
         ) -> tuple[list[list[Tile]], Tile, list[Tile]]:
    """Shuffle and deal: (hands, indicator, stock); the stock's top is its end."""
    if not 2 <= players <= 4:
        raise GameError(f"Okey is played by 2 to 4 players, got {players}")
    deck = list(FULL_SET)
    rng.shuffle(deck)
    hands: list[list[Tile]] = []
    for p in range(players):
        size = MAX_HAND if p == starter else HAND_SIZE
        hands.append(deck[:size])
        del deck[:size]
    # The indicator is turned up from the rest; a false joker is passed over.
    k = next(i for i, t in enumerate(deck) if t != FALSE_JOKER)
    indicator = deck.pop(k)
    return hands, indicator, deck


def play_round(policies: Sequence[Policy], rng: random.Random, starter: int = 0,
               scheme: Scheme | str = COUNTDOWN, check: bool = False,
               on_turn: Callable[[dict], None] | None = None) -> RoundResult:
    """Play one round; ``check`` asserts after every turn that all the set's tiles
    are accounted for; ``on_turn`` receives the table state after each turn."""
    scheme = check_scheme(scheme)
    n = len(policies)
    hands, indicator, stock = deal(rng, n, starter)
    piles: list[list[Tile]] = [[] for _ in range(n)]
    held: list[list[Tile]] = [[] for _ in range(n)]  # taken from a pile, not thrown since: public knowledge
    twins = tuple(p for p in range(n) if indicator in hands[p])
    turns = [0] * n
    p = starter
    offered: Tile | None = None
    first = True
    full = Counter(FULL_SET)
    while True:
        if not first:
            if not stock:
                delta = round_deltas(n, None, 0, twins, scheme)
                return RoundResult(None, None, False, 0, sum(turns), twins, delta)
            view = TurnView(p, tuple(hands[p]), indicator, _public(piles), offered, len(stock), n, scheme,
                        _public(held))
            if offered is not None and policies[p].take(view, rng):
                hands[p].append(piles[(p - 1) % n].pop())
                held[p].append(hands[p][-1])
            else:
                hands[p].append(stock.pop())
        first = False
        view = TurnView(p, tuple(hands[p]), indicator, _public(piles), None, len(stock), n, scheme, _public(held))
        move = policies[p].move(view, rng)
        turns[p] += 1
        finish: Finish | None = None
        if move.discard not in hands[p]:
            raise GameError(f"player {p} ({policies[p].name}) discards {move.discard.name}, "
                            f"which is not in the hand")
        if move.declare:
            finish = _legal_finish(hands[p], indicator, move.discard, scheme)
            if finish is None:
                raise GameError(f"player {p} ({policies[p].name}) declares an unfinished hand: "
                                f"{' '.join(t.name for t in hands[p])} throwing {move.discard.name}")
        hands[p].remove(move.discard)
        piles[p].append(move.discard)
        if move.discard in held[p]:
            held[p].remove(move.discard)  # to a watcher, the copy taken may be the one thrown
        if check:
            table = Counter(t for h in hands for t in h) + Counter(stock) + \
                Counter(t for pile in piles for t in pile) + Counter([indicator])
            assert table == full, "tiles are not conserved"
            assert all(len(h) == HAND_SIZE for h in hands), "a hand does not hold 14 tiles"
            assert all(not Counter(k) - Counter(h) for k, h in zip(held, hands, strict=True)), \
                "a known-held tile is not held"
        if on_turn is not None:
            on_turn({"player": p, "hands": [list(h) for h in hands], "stock": list(stock),
                     "piles": [list(x) for x in piles], "indicator": indicator, "move": move})
        if finish is not None:  # declared, and a legal finish (checked above)
            points = finish.points(scheme)
            delta = round_deltas(n, p, points, twins, scheme)
            return RoundResult(p, finish.kind, finish.okey_discard, points, turns[p], twins, delta)
        offered = move.discard
        p = (p + 1) % n


def _public(rows: list[list[Tile]]) -> tuple[tuple[Tile, ...], ...]:
    return tuple(tuple(r) for r in rows)


def _legal_finish(hand: Sequence[Tile], indicator: Tile, discard: Tile, scheme: Scheme) -> Finish | None:
    """The best finish that throws ``discard``, or None when there is none."""
    found = [f for f in declare(hand, indicator, scheme).finishes if f.discard == discard]
    return max(found, key=lambda f: f.points(scheme)) if found else None


@dataclass(frozen=True)
class GameResult:
    """Final scores and the rounds of a game."""

    scores: tuple[int, ...]
    rounds: tuple[RoundResult, ...]
    scheme: Scheme

    @property
    def winner(self) -> int:
        """Highest score (countdown) or lowest penalty; ties to the lower seat."""
        return leader(self.scores, self.scheme)


def play_game(policies: Sequence[Policy], rng: random.Random, scheme: Scheme | str = COUNTDOWN,
              rounds: int = 10, max_rounds: int = 200) -> GameResult:
    """A game: countdown plays until a score reaches 0; penalty plays
    ``rounds`` rounds. The starter moves one seat each round."""
    scheme = check_scheme(scheme)
    n = len(policies)
    scores = [START[scheme]] * n
    played: list[RoundResult] = []
    while len(played) < (rounds if scheme is PENALTY else max_rounds):
        r = play_round(policies, rng, starter=len(played) % n, scheme=scheme)
        played.append(r)
        scores = [s + d for s, d in zip(scores, r.delta, strict=True)]
        if game_over(scores, scheme):
            break
    return GameResult(tuple(scores), tuple(played), scheme)
