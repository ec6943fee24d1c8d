"""The solver against an independent brute force, on thousands of hands."""

import random
from collections import Counter

import pytest

from okey_vision.errors import HandSizeError, TileCountError
from okey_vision.eval import brute, hands
from okey_vision.melds import as_pair, is_meld
from okey_vision.solver import arrange, declare, encode, is_complete
from okey_vision.tiles import okey_of, parse_hand, parse_tile


def check_arrangement(hand, ind):
    """The arrangement is valid, uses exactly the hand, and is optimal."""
    a = arrange(hand, ind)
    used = [t for m in a.melds for t in m.tiles] + list(a.leftover)
    assert Counter(used) == Counter(hand)
    for m in a.melds:
        assert is_meld(list(m.tiles), ind), m
    assert a.tiles_in_melds == brute.max_placed(hand, ind), (hand, ind)
    pair_tiles = [t for p in a.pairs for t in p.tiles] + list(a.pairs_leftover)
    assert Counter(pair_tiles) == Counter(hand)
    assert all(as_pair(list(p.tiles), ind) for p in a.pairs)
    assert len(a.pairs) == brute.max_pairs(hand, ind)
    return a


def expected_finishes(hand, ind):
    """(discard, kind) of every finish, by brute force."""
    out = set()
    if len(hand) == 14:
        options = [(None, hand)]
    elif len(hand) == 15:
        out = {(d, "melds") for d in brute.finishing_discards(hand, ind)}
        for d in set(hand):
            rest = list(hand)
            rest.remove(d)
            if brute.is_seven_pairs(rest, ind):
                out.add((d, "pairs"))
        return out
    else:
        return out
    for d, rest in options:
        if brute.is_finished(rest, ind):
            out.add((d, "melds"))
        if brute.is_seven_pairs(rest, ind):
            out.add((d, "pairs"))
    return out


def check_declare(hand, ind):
    d = declare(hand, ind)
    got = {(f.discard, f.kind) for f in d.finishes}
    assert got == expected_finishes(hand, ind), (hand, ind)
    okey = okey_of(ind)
    for f in d.finishes:
        rest = list(hand)
        if f.discard is not None:
            rest.remove(f.discard)
        assert f.okey_discard == (f.discard == okey)
        assert Counter(t for m in f.melds for t in m.tiles) == Counter(rest)
        if f.kind == "melds":
            assert all(is_meld(list(m.tiles), ind) for m in f.melds)
        else:
            assert len(f.melds) == 7 and all(as_pair(list(m.tiles), ind) for m in f.melds)
    assert d.can_declare == bool(got)
    return d


@pytest.mark.parametrize("seed", range(4))
def test_random_deals_match_brute_force(seed):
    rng = random.Random(seed)
    for _ in range(500):
        hand, ind = hands.random_hand(rng, rng.randint(1, 15), okeys=rng.choice([None, 0, 1, 2]))
        check_arrangement(hand, ind)
        if len(hand) >= 14:
            check_declare(hand, ind)


@pytest.mark.parametrize("seed", range(4))
def test_dense_hands_match_brute_force(seed):
    """Few colours and a short window of numbers: melds compete for tiles."""
    rng = random.Random(100 + seed)
    for _ in range(150):
        hand, ind = hands.dense_hand(rng, rng.randint(6, 15))
        check_arrangement(hand, ind)
        if len(hand) >= 14:
            check_declare(hand, ind)


@pytest.mark.parametrize("seed", range(4))
def test_built_winning_hands_are_found(seed):
    """Built from runs (12-13-1 included) and sets, with okeys and false jokers."""
    rng = random.Random(200 + seed)
    for _ in range(60):
        hand, ind = hands.winning_hand(rng)
        d = check_declare(hand, ind)
        assert (None, "melds") in {(f.discard, f.kind) for f in d.finishes}
        assert check_arrangement(hand, ind).tiles_in_melds == 14
        fifteen = hands.add_random_tile(rng, hand, ind)
        d15 = check_declare(fifteen, ind)
        assert d15.can_declare  # discarding the added tile always finishes


@pytest.mark.parametrize("seed", range(4))
def test_hands_one_tile_away(seed):
    rng = random.Random(300 + seed)
    for _ in range(60):
        hand, ind = hands.winning_hand(rng)
        near = hands.replace_random_tile(rng, hand, ind)
        check_declare(near, ind)
        check_arrangement(near, ind)
        check_declare(hands.add_random_tile(rng, near, ind), ind)


def test_okey_discard_finish_is_preferred_and_doubles():
    ind = parse_tile("r3")  # okey r4
    hand = parse_hand("r1 r2 r3 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 k5 r4")
    d = declare(hand, ind)
    assert d.best.discard == parse_tile("r4") and d.best.okey_discard
    assert d.best.points() == 4 and d.best.points("penalty") == 40
    assert {f.discard.name for f in d.finishes} >= {"r4", "k5", "k1"}


def test_seven_pairs_with_okey_discard_scores_eight():
    ind = parse_tile("b7")  # okey b8
    hand = parse_hand("r1 r1 y2 y2 b3 b3 k4 k4 r9 r9 y11 y11 k13 k13 b8")
    d = declare(hand, ind)
    assert d.best.kind == "pairs" and d.best.okey_discard and d.best.points() == 8
    assert d.best.points("penalty") == 80


def test_false_joker_is_not_wild():
    ind = parse_tile("y9")  # okey y10; fj plays y10
    assert not is_complete(*encode(parse_hand("r1 r2 fj"), okey_of(ind)))
    assert is_complete(*encode(parse_hand("y8 y9 fj"), okey_of(ind)))
    # ... but a false joker pairs with the okey face's other copy only via an okey
    assert declare(parse_hand("r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 y8 y9 fj"), ind).can_declare
    assert not declare(parse_hand("r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 y8 y9 fj"), parse_tile("k1")).can_declare


def test_13_1_2_is_not_a_run_but_12_13_1_is():
    ind = parse_tile("k9")
    assert arrange(parse_hand("r13 r1 r2"), ind).tiles_in_melds == 0
    assert arrange(parse_hand("r12 r13 r1"), ind).tiles_in_melds == 3


def test_three_sets_of_one_number_with_two_okeys():
    # Seven fives and two okeys: only three sets of three place all nine.
    ind = parse_tile("k1")  # okey k2
    hand = parse_hand("r5 r5 y5 y5 b5 b5 k5 k2 k2")
    assert arrange(hand, ind).tiles_in_melds == 9 == brute.max_placed(hand, ind)


def test_fewer_than_14_tiles_cannot_declare_and_say_why():
    d = declare(parse_hand("r1 r2 r3"), parse_tile("k1"))
    assert not d.can_declare and "14" in d.note


def test_bad_hands_raise_value_errors():
    with pytest.raises(HandSizeError, match="16"):
        arrange(["r1"] * 8 + ["r2"] * 8, "k1")
    with pytest.raises(HandSizeError):
        arrange([], "k1")
    with pytest.raises(TileCountError, match="'r5'"):
        declare(parse_hand("r5 r5"), parse_tile("r5"))
