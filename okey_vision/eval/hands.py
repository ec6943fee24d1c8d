"""Seeded hand generators for the solver, coach and regression tests."""

from __future__ import annotations

import random
from collections import Counter

from okey_vision.tiles import COLORS, FALSE_JOKER, FULL_SET, TILES, Tile, okey_of

DECK: list[Tile] = list(FULL_SET)


def face(color: str, number: int) -> Tile:
    """The face of a colour and a number 1..14 (14 = the 1 after 13)."""
    return TILES[COLORS.index(color) * 13 + (number - 1) % 13]


def _fits(tiles: list[Tile], indicator: Tile) -> bool:
    counts = Counter(tiles)
    counts[indicator] += 1
    return all(v <= 2 for v in counts.values())


def random_indicator(rng: random.Random) -> Tile:
    """Any face (never a false joker)."""
    return TILES[rng.randrange(52)]


def random_hand(rng: random.Random, size: int, okeys: int | None = None) -> tuple[list[Tile], Tile]:
    """A random deal of ``size`` tiles with a random indicator, optionally
    forcing the number of physical okeys in it."""
    deck = DECK[:]
    rng.shuffle(deck)
    indicator = next(t for t in deck if not t.is_false_joker)
    deck.remove(indicator)
    okey = okey_of(indicator)
    if okeys is None:
        return deck[:size], indicator
    okeys = min(okeys, size)
    pool = [t for t in deck if t != okey]
    hand = [okey] * okeys + pool[: size - okeys]
    rng.shuffle(hand)
    return hand, indicator


def dense_hand(rng: random.Random, size: int) -> tuple[list[Tile], Tile]:
    """A hand from a few colours and a short window of numbers (often
    wrapping 12-13-1), so that many melds compete for the same tiles."""
    colors = rng.sample(COLORS, rng.choice([1, 2, 2, 3, 4]))
    start = rng.randint(1, 13)
    width = rng.randint(4, 7)
    numbers = [(start + k - 1) % 13 + 1 for k in range(width)]
    pool = [face(c, n) for c in colors for n in numbers for _ in range(2)]
    indicator = random_indicator(rng)
    okey = okey_of(indicator)
    # Often put the okey face itself in reach, and false jokers beside it.
    pool += [okey] * rng.choice([0, 1, 2]) + [FALSE_JOKER] * rng.choice([0, 0, 1, 2])
    rng.shuffle(pool)
    hand: list[Tile] = []
    for t in pool:
        if len(hand) == size:
            break
        if _fits(hand + [t], indicator):
            hand.append(t)
    return hand, indicator


def winning_hand(rng: random.Random, okeys: int | None = None) -> tuple[list[Tile], Tile]:
    """A finished 14-tile hand built from random runs (12-13-1 included) and
    sets, with okeys standing in for some tiles and false jokers for the okey face."""
    while True:
        indicator = random_indicator(rng)
        okey = okey_of(indicator)
        sizes = rng.choice([[3, 3, 4, 4], [3, 3, 3, 5], [4, 5, 5], [3, 4, 7], [3, 3, 8], [4, 10], [3, 11],
                            [3, 4, 3, 4]])
        if sum(sizes) != 14:
            continue
        hand: list[Tile] = []
        ok = True
        for size in sizes:
            if rng.random() < 0.55 or size > 4:
                color = rng.choice(COLORS)
                first = rng.randint(1, 15 - size)  # up to ...-13-1
                meld = [face(color, first + k) for k in range(size)]
            else:
                number = rng.randint(1, 13)
                meld = [face(c, number) for c in rng.sample(COLORS, size)]
            hand += meld
        if len(hand) != 14 or not _fits(hand, indicator):
            continue
        # The okey face played by a real tile must be a false joker (a
        # physical okey tile would be wild, which is fine too).
        hand = [FALSE_JOKER if t == okey and rng.random() < 0.7 else t for t in hand]
        if hand.count(FALSE_JOKER) > 2 or hand.count(okey) > 2:
            continue
        want = okeys if okeys is not None else rng.choice([0, 0, 1, 1, 2])
        spots = [i for i, t in enumerate(hand) if t not in (okey, FALSE_JOKER)]
        rng.shuffle(spots)
        while hand.count(okey) < want and spots:
            hand[spots.pop()] = okey
        if hand.count(okey) > 2 or not ok:
            continue
        rng.shuffle(hand)
        return hand, indicator


def add_random_tile(rng: random.Random, hand: list[Tile], indicator: Tile) -> list[Tile]:
    """The hand with one more tile that the set still has a copy of."""
    while True:
        t = rng.choice(DECK)
        if _fits(hand + [t], indicator):
            return hand + [t]


def replace_random_tile(rng: random.Random, hand: list[Tile], indicator: Tile) -> list[Tile]:
    """The hand with one tile swapped for another available tile."""
    while True:
        i = rng.randrange(len(hand))
        t = rng.choice(DECK)
        new = hand[:i] + [t] + hand[i + 1:]
        if t != hand[i] and _fits(new, indicator):
            return new


def pairs_hand(rng: random.Random, size: int):
    """Adversarial: a seven-pairs hand (4 to 7 pairs) with one or two okeys,
    the rest singles; the melds route is far, the search is deepest."""
    indicator = TILES[rng.randrange(52)]
    okey = okey_of(indicator)
    hand = [okey] * rng.choice([1, 2, 2])
    faces = [t for t in TILES[:52] if t not in (okey, indicator)]
    rng.shuffle(faces)
    pairs = rng.randint(4, 7)
    for t in faces[:pairs]:
        hand += [t, t]
    for t in faces[pairs:]:
        if len(hand) >= size:
            break
        hand.append(t)
    hand = hand[:size]
    rng.shuffle(hand)
    return hand, indicator


def scarce_hand(rng: random.Random, changes: int, fractions: tuple[float, ...]) -> tuple[list[Tile], Tile, list[Tile]]:
    """A nearly finished hand (a winning hand with ``changes`` tiles swapped)
    and seen tiles: a fraction (picked from ``fractions``) of all the others."""
    hand, indicator = winning_hand(rng)
    for _ in range(changes):
        hand = replace_random_tile(rng, hand, indicator)
    rest = list((Counter(DECK) - Counter(hand) - Counter([indicator])).elements())
    rng.shuffle(rest)
    return hand, indicator, rest[: int(len(rest) * rng.choice(fractions))]


def far_hand(rng: random.Random, size: int = 15, links: int | None = None) -> tuple[list[Tile], Tile]:
    """Adversarial: a hand far from finished, whose tiles seldom share a
    meld: each tile joins only when at most ``links`` (1 or 2, drawn when
    not given; with none, 13 tiles at most would fit) of its meld partners
    (:data:`okey_vision.melds.PARTNERS`, false jokers as the okey face) or
    its own face are already in the hand; okeys never. The template
    search's widest case: many gaps, few tiles to anchor them."""
    from okey_vision.melds import PARTNERS

    links = rng.choice([1, 1, 2]) if links is None else links
    while True:
        indicator = TILES[rng.randrange(52)]
        okey = okey_of(indicator)
        faces = [t for t in DECK if t != okey]
        rng.shuffle(faces)
        hand: list[Tile] = []
        played: Counter = Counter()  # faces as they play (a false joker as the okey face)
        for t in faces:
            face = okey.index if t.is_false_joker else t.index
            partners = sum(1 for j, _ in PARTNERS[face] if played[j]) + (played[face] > 0)
            if partners <= links and _fits(hand + [t], indicator):
                hand.append(t)
                played[face] += 1
                if len(hand) == size:
                    return hand, indicator


#: Hands the coach was slowest on (CPU time of one advice from a fresh memo),
#: with where they were found: each must stay within the advice bound
#: (``tests/test_coach_speed.py``, ``benchmarks/coach_speed.py``).
#: (hand, indicator, offered or None).
SLOW_HANDS: tuple[tuple[str, str, str | None], ...] = (
    # 0.66-0.94 s (distance 6; three discards need a gap more, each searched deep)
    ("r1 r5 r9 y2 y6 y11 b3 b7 b13 k4 k8 k12 fj r12 y9", "r3", None),
    # ~350 ms (docs/results.md): its best templates need 6 gaps and the okey discard is searched alone
    ("y12 b2 k10 y8 r10 k1 b2 y10 b13 y4 b3 b5 r9 r3 k5", "k4", None),
    # seven pairs with both okeys, 1.8 s before the seven-pairs bound
    ("b4 b4 b6 r7 k7 k7 r13 r13 r8 r8 b6 k12 k2 k2 y10", "b5", None),
    # the slowest of coach_speed.py's sets earlier (random 15, 14 with an offered tile, far 15)
    ("k6 r1 y5 b7 k6 b12 k11 y2 y8 fj b2 b3 b1 r5 b11", "k2", None),
    ("y10 b8 y9 r5 k5 r9 r4 b5 y2 b1 y11 b8 b3 b13 r3", "r2", None),
    ("k13 y10 y1 b4 k3 k2 b12 k12 r12 b11 r11 b2 b11 y9", "b12", "y3"),
    ("y11 r10 b1 k5 y5 k4 r12 y9 r9 r1 b3 y7 r7 r5", "b10", "k11"),
    ("r10 k11 b8 r7 r3 b11 b12 k1 r13 b2 y1 k6 y4 y9 k5", "y7", None),
)
