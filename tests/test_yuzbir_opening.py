"""The 101 opening solver: a table of hands and answers, and agreement with
an independent brute force on random small hands."""

from __future__ import annotations

import random

import pytest

from okey_vision.errors import HandSizeError
from okey_vision.eval.brute101 import brute_opening
from okey_vision.tiles import FULL_SET, okey_of, parse_hand, parse_tile
from okey_vision.yuzbir import Hand101, Opened, Options101, best_opening
from okey_vision.yuzbir.opening import best_melds

CASES = [
    # hand, indicator, points, opens with
    ("r10 r11 r12 r13 k10 y10 b10 b11 b12 y7 y8 y9 k1", "k5", 123, Opened.MELDS),
    ("r11 r12 r13 k11 y11 b11 b12 b13 r10", "k1", 82, Opened.NO),
    # an okey (k6) stands for b13 and counts 13
    ("r11 r12 r13 k11 y11 b11 b12 k6 r10 k13 y13 b13", "k5", 33 + 39 + 33 + 36, Opened.MELDS),
    # 12-13-1 is a run worth 12 + 13 + 1; 13-1-2 is none
    ("r12 r13 r1", "k5", 26, Opened.NO),
    ("r13 r1 r2", "k5", 0, Opened.NO),
    # a false joker plays as the okey face (k6 here), not as a wild
    ("k4 k5 fj", "k5", 15, Opened.NO),
    ("k4 k5 fj k7 k8", "k5", 30, Opened.NO),
    # five pairs open when the runs and sets do not reach
    ("r1 r1 y5 y5 b9 b9 k2 k2 r7 r7 y12", "k5", 0, Opened.PAIRS),
    ("r1 r1 y5 y5 b9 b9 k2 k2 r7 k6 y12", "k5", 0, Opened.PAIRS),
]


@pytest.mark.parametrize(("hand", "indicator", "points", "kind"), CASES)
def test_opening_table(hand: str, indicator: str, points: int, kind: Opened) -> None:
    opening = best_opening(hand, indicator)
    assert opening.points == points
    assert opening.kind is kind
    laid = [t for m in opening.melds for t in m.tiles]
    assert sorted(laid + list(opening.leftover)) == sorted(parse_hand(hand))
    assert sum(f.number for m in opening.melds for f in m.faces) == points


def test_beat_highest_option() -> None:
    hand = "r10 r11 r12 r13 k10 y10 b10 b11 b12 y7 y8 y9 k1"
    assert best_opening(hand, "k5", highest=123).reaches
    assert not best_opening(hand, "k5", Options101(beat_highest=True), highest=123).reaches
    assert best_opening(hand, "k5", Options101(beat_highest=True), highest=122).reaches


def test_ace_after_13_option() -> None:
    assert best_opening("r12 r13 r1", "k5", Options101(ace_after_13=False)).points == 0


def test_progress_words() -> None:
    o = best_opening("r11 r12 r13 k11 y11 b11 b12 b13 r10", "k1")
    assert o.progress() == "82 of 101" and o.missing == 19 and not o.reaches


def test_hand_size_checked_once() -> None:
    with pytest.raises(HandSizeError, match="22 tiles"):
        Hand101.of("r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13 y1 y2 y3 y4 y5 y6 y7 y8 y9 y10", "k5")
    assert len(Hand101.of("r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13 y1 y2 y3 y4 y5 y6 y7 y8 y9", "k5")) == 22


def _random_hand(rng: random.Random, size: int) -> tuple[list, object]:
    tiles = list(FULL_SET)
    rng.shuffle(tiles)
    indicator = next(t for t in tiles if not t.is_false_joker)
    tiles.remove(indicator)
    # Bias toward melds: draw from two colours and a band of numbers half the time.
    if rng.random() < 0.5:
        colors = rng.sample("rybk", 2)
        low = rng.randint(1, 8)
        near = [t for t in tiles if (t.color in colors and low <= t.number <= low + 5)
                or t.is_false_joker or t == okey_of(indicator)]
        hand = rng.sample(near, min(size, len(near)))
    else:
        hand = tiles[:size]
    return hand, indicator


@pytest.mark.parametrize("seed", range(60))
def test_agrees_with_brute_force(seed: int) -> None:
    rng = random.Random(1000 + seed)
    hand, indicator = _random_hand(rng, rng.randint(6, 10))
    okey = okey_of(indicator)
    ace = seed % 5 != 0
    melds, points, left = best_melds(hand, okey, Options101(ace_after_13=ace))
    assert points == brute_opening(hand, okey, ace)
    assert sorted([t for m in melds for t in m.tiles] + left) == sorted(hand)


def test_tile_parse_roundtrip() -> None:
    assert parse_tile("k6") == okey_of(parse_tile("k5"))


@pytest.mark.parametrize(("hand", "en", "tr"), [
    ("r10 r11 r12 r13 k10 y10 b10 b11 b12 y7 y8 y9 k1", "Open: 123 of 101.", "El aç: 101 puandan 123."),
    ("r1 r1 y5 y5 b9 b9 k2 k2 r7 r7 y12", "Open with 5 pairs.", "5 çiftle çift aç."),
    ("r10 r11 r12", "Not yet: 33 of 101.", "Henüz değil: 101 puandan 33."),
])
def test_headline_in_both_languages(hand: str, en: str, tr: str) -> None:
    o = best_opening(hand, "k5")
    assert o.headline() == en and o.headline("tr") == tr and o.to_dict()["headline"] == en


def test_the_classic_solver_and_the_opening_take_their_sets_from_one_table(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    from okey_vision import solver
    from okey_vision.tiles import NUM_FACES

    hand, okey = parse_hand("r7 y7 b7 k7 y2"), parse_tile("b1")
    assert solver.tiles_in_melds(hand, okey) == 4 and best_melds(hand, okey)[1] == 28
    no_sets = [[[()] * 4 for _ in range(8)] for _ in range(NUM_FACES)]
    monkeypatch.setattr(solver, "_SETS", no_sets)  # the one enumeration of sets, emptied: neither search finds one
    assert solver.tiles_in_melds(hand, okey) == 0 and best_melds(hand, okey)[1] == 0
