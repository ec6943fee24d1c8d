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
