"""The sampling lookahead: close discards compared by playing a few draws forward.

Distance-then-outs counts the tiles that take a hand one step closer; it
does not see what the hand waits for after that step. The lookahead does:
for each candidate 14 it samples the hidden tiles (every tile the player has
not seen: not in the hand, not on a pile, not the indicator, not a copy an
opponent is known to hold), takes the first of each shuffle as the player's
next draws from the stock, and plays them forward with a fast policy: a
drawn out is kept (the 15's best discard by distance then outs, the coach's
own ranking, memoised per hand), any other drawn tile is thrown straight
back. A candidate scores the share of samples that finish within the draws,
a win ``i`` draws ahead weighted ``DISCOUNT ** i`` (an opponent may finish
first). Every candidate plays the same samples (paired), so the difference
between two candidates is far less noisy than either score.

Deterministic: the samples come from a :class:`random.Random` seeded by a
stable hash of the position (hand, indicator, seen tiles), never the global
generator; the work is bounded by a count of searches, not by a clock, so
the same position gives the same answer on any machine under any load.

>>> from okey_vision.tiles import parse_hand, parse_tile
>>> position_seed(parse_hand("r1 r2"), parse_tile("k5"), ()) == position_seed(parse_hand("r2 r1"), parse_tile("k5"), ())
True
"""

from __future__ import annotations

import hashlib
import random
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from okey_vision.coach.pool import Pool
from okey_vision.coach.ranking import DiscardOption, discard_options, rank_key
from okey_vision.coach.reading import Reading, read, without
from okey_vision.coach.templates import TemplateSearch
from okey_vision.memo import Memo
from okey_vision.tiles import FALSE_JOKER, FULL_SET, HAND_SIZE, TILES, Tile, okey_of

#: Weight of a win one more draw away: about the chance that no opponent
#: finishes in the round of turns between two of the player's draws (three
#: opponent turns at ``advice.OPPONENT_FINISH_RATE``, 0.08 each: 0.76; the
#: measured lookahead used 0.78).
DISCOUNT = 0.78


@dataclass(frozen=True)
class LookScore:
    """A candidate's lookahead score: the discounted share of samples that reached the goal within the draws."""

    tile: Tile
    score: float
    wins: int       # samples that reached the goal within the draws
    samples: int
    draws: int      # the draws each sample played
    goal: int = 0   # the distance a sample must reach (0: finished)


def _faces(mask: int) -> list[int]:
    """The faces of a gap mask (the low bits of 2-bit fields)."""
    out = []
    while mask:
        low = mask & -mask
        out.append((low.bit_length() - 1) >> 1)
        mask ^= low
    return out


def position_seed(tiles: Sequence[Tile], indicator: Tile, seen: Sequence[Tile], salt: int = 0) -> int:
    """A stable seed for a position (the same in every process: no ``hash()``, which is salted per run)."""
    key = ",".join(sorted(t.name for t in tiles)) + "|" + indicator.name + "|" + \
        ",".join(sorted(t.name for t in seen)) + "|" + str(salt)
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "big")


def hidden_tiles(tiles: Sequence[Tile], indicator: Tile, known: Sequence[Tile]) -> list[Tile]:
    """The tiles the player has not seen (drawable, or in an opponent's rack), in a fixed order."""
    rest = Counter(FULL_SET)
    rest.subtract(tiles)
    rest.subtract(known)
    rest[indicator] -= 1
    return sorted((t for t, n in rest.items() for _ in range(max(0, n))), key=lambda t: t.index)


class Rollouts:
    """The fast policy of one position, memoised per hand: a 14's distance and
    outs, and the 14 it keeps after drawing an out (the 15's best discard)."""

    def __init__(self, indicator: Tile, known: Sequence[Tile], memo: Memo, budget: int) -> None:
        self.indicator = indicator
        self.okey = okey_of(indicator)
        self.known = list(known)
        self.memo = memo
        self.search = TemplateSearch(memo)
        self.budget = budget            # searches left; none is started past it
        self.readings: dict[tuple[int, ...], tuple[int, frozenset[Tile]]] = {}
        self.kept: dict[tuple[tuple[int, ...], Tile], tuple[Tile, ...]] = {}

    @staticmethod
    def key(hand: Sequence[Tile]) -> tuple[int, ...]:
        """A hand's key: its tile indices, sorted."""
        return tuple(sorted(t.index for t in hand))

    def seed(self, hand: Sequence[Tile], distance: int, out_tiles: Sequence[Tile]) -> None:
        """Record a candidate 14's reading, already known from the advice (no search)."""
        self.readings[self.key(hand)] = (distance, frozenset(out_tiles))

    def reading(self, hand: Sequence[Tile]) -> tuple[int, frozenset[Tile]] | None:
        """(distance, out tiles) of a 14, or None past the budget."""
        k = self.key(hand)
        if k not in self.readings:
            if self.budget <= 0:
                return None
            self.budget -= 1
            r = read(Pool.of(hand, self.indicator, self.known), self.search)
            self.readings[k] = (r.distance, frozenset(r.out_tiles))
        return self.readings[k]

    def keep(self, hand: tuple[Tile, ...], drawn: Tile) -> tuple[Tile, ...] | None:
        """The 14 kept after drawing ``drawn`` (an out): the 15's discard that
        leaves the most outs at the distance one lower (its reading recorded
        too), or None past the budget."""
        k = (self.key(hand), drawn)
        if k not in self.kept:
            if self.budget <= 0:
                return None
            self.budget -= 1
            fifteen = list(hand) + [drawn]
            rest = self._melds_keep(fifteen, self.readings[self.key(hand)][0] - 1)
            if rest is None:
                best = min(discard_options(fifteen, self.indicator, self.known, self.memo, True, only_best=True),
                           key=lambda o: rank_key(o, self.okey))
                rest = tuple(without(fifteen, best.tile))
                self.readings.setdefault(self.key(rest), (best.distance, frozenset(best.out_tiles)))
            self.kept[k] = rest
        return self.kept[k]

    def _melds_keep(self, fifteen: list[Tile], want: int) -> tuple[Tile, ...] | None:
        """The fast policy's discard on the melds route: one pass of the template
        search over the 15 gives every discard's gap faces (the ranking's
        tie-breaks, each a solver call, are what make a full ranking ten times
        dearer); None when no discard reaches ``want`` that way (seven pairs)."""
        whole = Pool.of(fifteen, self.indicator, self.known)
        if want < 0:
            return None
        _, left = self.search.gap_faces_left(whole.x, whole.y, whole.w, HAND_SIZE, want + whole.wh, whole.total)
        best: tuple[int, int] | None = None
        pick: tuple[int, frozenset[Tile]] | None = None
        for face, mask in sorted(left.items()):
            outs = {self._tile(j) for j in _faces(mask) if whole.avail[j]}
            if whole.wa:
                outs.add(self.okey)
            count = sum(whole.available(t) for t in outs)
            if best is None or count > best[0]:
                best, pick = (count, face), (face, frozenset(outs))
        if pick is None:
            return None
        rest = tuple(without(fifteen, self._tile(pick[0])))
        self.readings.setdefault(self.key(rest), (want, pick[1]))
        return rest

    def _tile(self, face: int) -> Tile:
        """The tile a face is played by (the okey's face: the false joker)."""
        return FALSE_JOKER if face == self.okey.index else TILES[face]

    def play(self, hand: tuple[Tile, ...], draws: Sequence[Tile], steps: int = 2) -> int | None:
        """The draw (1-based) at which the hand has come ``steps`` exchanges
        closer (or finished), 0 if it does not within ``draws``, None when
        the budget ran out on the way."""
        made = 0
        for i, t in enumerate(draws, 1):
            now = self.reading(hand)
            if now is None:
                return None
            distance, outs = now
            if t not in outs:
                continue  # thrown straight back: the hand is unchanged
            made += 1
            if distance == 1 or made == steps:
                return i  # finished, or as close as the goal
            nxt = self.keep(hand, t)
            if nxt is None:
                return None
            hand = nxt
        return 0


def look(candidates: Sequence[DiscardOption], tiles: Sequence[Tile], indicator: Tile, known: Sequence[Tile],
         memo: Memo, draws: int, samples: int, budget: int, seed: int, steps: int = 2) -> tuple[LookScore, ...]:
    """Each candidate discard of the 15 ``tiles`` scored by the lookahead
    (same order): ``samples`` shuffles of the hidden tiles, ``draws`` draws
    each, at most ``budget`` searches (samples past it are not played); a
    sample succeeds when the hand comes ``steps`` exchanges closer (finished
    from two away: two exchanges are what one out cannot show)."""
    roll = Rollouts(indicator, known, memo, budget)
    hands = []
    for o in candidates:
        hand = tuple(without(tiles, o.tile))
        roll.seed(hand, o.distance, o.out_tiles)
        hands.append((o.tile, hand, o.distance, 0))
    return _play(roll, hands, hidden_tiles(tiles, indicator, known), draws, samples, seed, steps)


def look_take(tiles: Sequence[Tile], now: Reading, offered: Tile, after: DiscardOption, indicator: Tile,
              known: Sequence[Tile], memo: Memo, draws: int, samples: int, budget: int, seed: int,
              steps: int = 2) -> tuple[LookScore, LookScore]:
    """Take-or-draw by the lookahead: (taking ``offered`` and throwing
    ``after.tile``, drawing: its tile is ``offered``, left), on the same
    samples; ``now``: the 14's reading. Taking spends this
    turn's draw: its hand plays one draw fewer, each a turn later."""
    roll = Rollouts(indicator, known, memo, budget)
    taken = tuple(without(list(tiles) + [offered], after.tile))
    roll.seed(taken, after.distance, after.out_tiles)
    roll.seed(tuple(tiles), now.distance, now.out_tiles)
    hands = [(after.tile, taken, after.distance, 1), (offered, tuple(tiles), now.distance, 0)]
    take, draw = _play(roll, hands, hidden_tiles(list(tiles) + [offered], indicator, known), draws, samples, seed,
                       steps)
    return take, draw


def _play(roll: Rollouts, hands: Sequence[tuple[Tile, tuple[Tile, ...], int, int]], hidden: list[Tile],
          draws: int, samples: int, seed: int, steps: int) -> tuple[LookScore, ...]:
    """Play every (tile, hand, distance, turns late) on the same samples; the scores in that order."""
    rng = random.Random(seed)
    scores = [0.0] * len(hands)
    wins = [0] * len(hands)
    played = 0
    draws = max(0, min(draws, len(hidden)))
    for _ in range(samples):
        sample = rng.sample(hidden, draws)
        ends = [roll.play(hand, sample[:draws - late], steps) for _, hand, _, late in hands]
        if any(e is None for e in ends):
            break  # out of budget: this sample is dropped for every candidate alike (paired)
        played += 1
        for c, e in enumerate(ends):
            if e:
                wins[c] += 1
                scores[c] += DISCOUNT ** (e - 1 + hands[c][3])
    return tuple(LookScore(tile, scores[c] / played if played else 0.0, wins[c], played, draws - late,
                      max(0, distance - steps))
                 for c, (tile, _, distance, late) in enumerate(hands))
