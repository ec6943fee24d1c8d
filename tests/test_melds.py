"""Meld validation: runs, sets, pairs, okeys and false jokers."""

import pytest

from okey_vision.errors import InvalidMeldError
from okey_vision.melds import as_pair, is_meld, make_meld
from okey_vision.tiles import parse_hand, parse_tile

IND = parse_tile("k5")  # okey k6; a false joker plays k6


@pytest.mark.parametrize("tiles,kind,faces", [
    ("r1 r2 r3", "run", "r1 r2 r3"),
    ("r12 r13 r1", "run", "r12 r13 r1"),
    ("r11 r12 r13 r1", "run", "r11 r12 r13 r1"),
    ("r3 r1 r2", "run", "r1 r2 r3"),
    ("r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13", "run", "r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13"),
    ("r1 r2 k6", "run", "r1 r2 r3"),  # okey at the end
    ("r1 k6 r3", "run", "r1 r2 r3"),  # okey in the gap
    ("r12 k6 r1", "run", "r12 r13 r1"),  # okey inside a 12-13-1 run
    ("fj k7 k8", "run", "k6 k7 k8"),  # the false joker plays k6
    ("k4 k5 fj", "run", "k4 k5 k6"),
    ("k7 k8 k9 fj", "run", "k6 k7 k8 k9"),
    ("fj k6 k8", "run", "k6 k7 k8"),  # false joker k6 and an okey as k7
    ("r5 y5 b5", "set", "r5 y5 b5"),
    ("r5 y5 b5 k5", "set", "r5 y5 b5 k5"),
    ("r6 y6 fj", "set", "r6 y6 k6"),
    ("r7 y7 k6", "set", "r7 y7 b7"),
    ("r7 k6 k6", "run", "r7 r8 r9"),
])
def test_valid_melds_and_what_each_tile_plays(tiles, kind, faces):
    meld = make_meld(parse_hand(tiles), IND)
    assert meld.kind == kind
    assert [f.name for f in meld.faces] == faces.split()
    assert sorted(meld.tiles) == sorted(parse_hand(tiles))


@pytest.mark.parametrize("tiles", [
    "r13 r1 r2", "r12 r13 r1 r2", "r1 r2", "r1 r2 r4", "r1 y2 r3", "r5 r5 y5", "r5 y5 b5 k5 r5",
    "r1 r1 r2", "fj r7 r8",  # the false joker is k6, not wild
    "r6 b6 fj fj", "r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13 r1",
])
def test_invalid_melds_raise_naming_the_tiles(tiles):
    hand = parse_hand(tiles)
    with pytest.raises(InvalidMeldError) as err:
        make_meld(hand, IND)
    assert repr(tiles) in str(err.value)
    assert not is_meld(hand, IND)


def test_okey_reports_what_it_stands_for():
    meld = make_meld(parse_hand("b9 k6 b11"), IND)
    assert meld.wilds == ((1, parse_tile("b10")),)
    assert meld.describe() == "b9 k6(=b10) b11"


@pytest.mark.parametrize("tiles,ok", [
    ("r3 r3", True), ("r3 r4", False), ("r3 k6", True), ("k6 k6", True), ("fj fj", True),
    ("fj k6", True), ("fj r6", False), ("fj k5", False),
])
def test_pairs(tiles, ok):
    assert (as_pair(parse_hand(tiles), IND) is not None) == ok


def test_two_okeys_pair_only_when_the_option_allows():
    assert as_pair(parse_hand("k6 k6"), IND, okey_pair=False) is None


def test_a_bad_typed_meld_is_one_sentence_in_each_language() -> None:
    from okey_vision.errors import InvalidMeldError
    from okey_vision.lang import Lang, error_message
    from okey_vision.melds import parse_melds

    with pytest.raises(InvalidMeldError) as caught:
        parse_melds("r3 r4 r5 | k7 b8", "y1")
    assert "'k7 b8' is no valid run, set or pair" in error_message(caught.value, Lang.EN)
    assert error_message(caught.value, Lang.TR) == "Siyah 7 mavi 8: ne seri, ne grup, ne de çift"
