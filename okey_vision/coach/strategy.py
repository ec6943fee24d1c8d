"""What a player knows of the table beyond the discards, and the rules that
use it: the switches of the coach's decisions past distance-then-outs.

A :class:`Table` holds what a player at the table has seen besides the
discard piles' tiles: how many tiles the stock has left, which tiles each
opponent took from a pile and still holds (a take is public), and what the
next player threw. :class:`Rules` says which of the decision rules the
advice applies; :data:`RULES` is the set measured stronger on the tuning
seeds, :data:`BASIC` is distance-then-outs alone (the advice before the
decision rules, kept for the equivalence check: no notes either, ``explain=False``).

>>> from okey_vision.tiles import parse_tile
>>> t = Table(players=4, stock_left=30, next_pile=(parse_tile("r5"),), next_held=(parse_tile("k9"),))
>>> danger(parse_tile("k10"), t, ()) > danger(parse_tile("r5"), t, ())
True
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from okey_vision.melds import PARTNERS, Partner
from okey_vision.tiles import SET_SIZE, TILES, Tile


@dataclass(frozen=True)
class Table:
    """What a player has seen of the table beyond the discard piles' tiles."""

    players: int = 4
    stock_left: int | None = None          # tiles left in the stock (None: not known)
    held: tuple[Tile, ...] = ()            # tiles opponents took from a pile and have not thrown since
    next_pile: tuple[Tile, ...] = ()       # the next player's discards, oldest first
    next_held: tuple[Tile, ...] = ()       # the tiles of ``held`` that the next player holds


@dataclass(frozen=True)
class Rules:
    """The coach's decision rules past distance-then-outs (all off: :data:`BASIC`)."""

    held_gone: bool = False      # outs: a copy an opponent is known to hold is not drawable
    take_outs: bool = False      # take a tile that keeps the distance when it adds enough outs
    take_margin: float = 1.0     # ... enough: 1/outs after < 1/outs now - margin/unseen
    safety: bool = False         # keep back a tile the next player likely collects
    safety_slack: int = 0        # ... giving up at most this many outs (same distance)
    safety_ratio: float = 0.5    # ... and only when the safer tile's danger is at most this share
    safety_generic: float = 0.25  # weight of a partner copy merely unseen (1 for one known held)
    wait: bool = True            # a finished hand waits for an okey-discard finish when waiting pays
    explain: bool = False        # add the notes in player words (the tiles waited for, ...)
    loose_first: bool = False    # equal discards: a loose tile first, then the one the next player least wants
    lookahead: bool = False      # close discards compared by sampled draws played forward (coach.lookahead)
    look_draws: int = 6          # ... the player's draws played forward
    look_samples: int = 200      # ... shuffles of the hidden tiles (each candidate plays the same ones)
    look_budget: int = 40        # ... searches at most (a count, not a clock: the answer is deterministic)
    look_candidates: int = 3     # ... the discards compared: the first ranked ones at the best's distance
    look_ratio: float = 0.75     # ... with at least this share of the best's outs
    look_distance: int = 2       # ... when the distance is 2 to this (at 1 the outs alone decide a draw)
    look_margin: float = 0.0     # ... the lookahead's pick must score this much above the first ranked
    look_take: bool = False      # ... and take-or-draw when both leave the same distance


#: Distance, then outs: the advice before the decision rules (it advised waiting for an
#: okey-discard finish; the old bot never waited: ``BASIC`` with ``wait=False``).
BASIC = Rules()
#: The rules kept: measured stronger on the tuning seeds (docs/results.md, "Coach
#: strength"). Waiting measured no gain for the bot (fewer wins, the same
#: net points), so the advice declares at once, as the bot does; the
#: lookahead measured no gain either and stays off. Equal discards go as a
#: player chooses them (a loose tile first; measured no weaker).
RULES = Rules(take_outs=True, wait=False, explain=True, loose_first=True)


#: How much each meld partner of a tile makes the next player want it.
_PARTNER_WEIGHT = {Partner.SET: 0.7, Partner.NEXT: 1.0, Partner.GAP: 0.5}


def danger_weights() -> list[list[tuple[int, float]]]:
    """Per face: (face, weight) of the tiles that would make a partial meld
    with it in another player's hand (:data:`okey_vision.melds.PARTNERS`):
    its colour one step away (1.0) or two (0.5), its number in other colours (0.7)."""
    return [[(j, _PARTNER_WEIGHT[kind]) for j, kind in partners] for partners in PARTNERS]


_WEIGHTS = danger_weights()


def danger(tile: Tile, table: Table, mine: Sequence[Tile], generic: float = 0.25) -> float:
    """How likely the next player wants ``tile`` (relative, higher is worse):
    the copies of its meld partners that could be in their hand (not in
    ``mine``, the tiles I hold and every tile seen; ``generic`` each), far
    more for the partners they are known to hold (took from a pile, 1 each),
    less when they threw the same face or a close one (a collector of a run
    or set keeps those)."""
    if tile.is_false_joker:
        return 0.0
    gone = Counter(mine)
    held = Counter(table.next_held)
    thrown = Counter(table.next_pile)
    score = 0.0
    for j, weight in _WEIGHTS[tile.index]:
        face = TILES[j]
        free = max(0, 2 - gone[face])
        score += weight * (free * generic + held[face])
    if thrown[tile]:
        score *= 0.3
    elif any(thrown[TILES[j]] for j, kind in PARTNERS[tile.index] if kind is Partner.NEXT):
        score *= 0.7
    return score


def unseen(hand_size: int, seen: int) -> int:
    """Tiles a player has not seen: the set less their hand, the seen tiles and the indicator."""
    return max(1, SET_SIZE - hand_size - seen - 1)


def outs_worth_taking(now_outs: int, after_outs: int, hidden: int, margin: float) -> bool:
    """Whether taking a tile that keeps the distance pays by its outs: the
    expected draws to the next step, ``hidden / outs``, must fall by more
    than the ``margin`` draws (one: the draw given up) that drawing would spend."""
    if after_outs <= 0:
        return False
    if now_outs <= 0:
        return True
    return hidden / after_outs < hidden / now_outs - margin
