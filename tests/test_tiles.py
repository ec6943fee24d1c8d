"""Tiles, notation, okey, copies."""

import pytest

from okey_vision.errors import HandSizeError, TileCountError, UnknownTileError
from okey_vision.tiles import (
    FALSE_JOKER,
    TILES,
    Hand,
    Tile,
    check_counts,
    format_hand,
    format_tile,
    okey_of,
    parse_hand,
    parse_tile,
)


def test_there_are_53_distinct_tiles_with_stable_indices():
    assert len(TILES) == 53 and len(set(TILES)) == 53
    assert [t.index for t in TILES] == list(range(53))
    assert TILES[52] is FALSE_JOKER and FALSE_JOKER.is_false_joker


@pytest.mark.parametrize("text,name", [
    ("r7", "r7"), ("R7", "r7"), ("red7", "r7"), ("Red 7", "r7"), ("black_1", "k1"),
    ("yellow-13", "y13"), ("orange5", "y5"), ("o5", "y5"), ("blue10", "b10"), ("B10", "b10"),
    ("k13", "k13"), ("fj", "fj"), ("FJ", "fj"), ("false_joker", "fj"), ("false okey", "fj"),
])
def test_parse_accepts_short_and_long_forms(text, name):
    assert parse_tile(text).name == name


@pytest.mark.parametrize("text", ["x7", "r0", "r14", "", "red", "7", "g5", "rr5", "joker", "r13a"])
def test_parse_rejects_unknown_names_quoting_them(text):
    with pytest.raises(UnknownTileError) as err:
        parse_tile(text)
    assert repr(text) in str(err.value)
    assert isinstance(err.value, ValueError)


def test_parse_and_format_round_trip_every_tile():
    for t in TILES:
        assert parse_tile(format_tile(t)) is t
    hand = parse_hand("r1 y2, b3 k13 fj")
    assert format_hand(hand) == "r1 y2 b3 k13 fj"
    assert parse_hand(["r1", Tile("y", 2)]) == [Tile("r", 1), Tile("y", 2)]


@pytest.mark.parametrize("indicator,okey", [
    ("r3", "r4"), ("b13", "b1"), ("y12", "y13"), ("k1", "k2"),
])
def test_okey_is_next_number_of_indicator_colour_wrapping(indicator, okey):
    assert okey_of(parse_tile(indicator)) == parse_tile(okey)


def test_false_joker_cannot_be_indicator():
    with pytest.raises(TileCountError, match="fj"):
        okey_of(FALSE_JOKER)
    with pytest.raises(TileCountError, match="fj"):
        Hand.parse("r1", indicator="fj")


def test_copies_are_counted_with_indicator_and_seen():
    check_counts(parse_hand("r5 r5 fj fj"), parse_tile("r6"))
    with pytest.raises(TileCountError, match="'r5'"):
        check_counts(parse_hand("r5 r5"), parse_tile("r5"))
    with pytest.raises(TileCountError, match="seen 2"):
        check_counts(parse_hand("r5"), parse_tile("k1"), parse_hand("r5 r5"))
    with pytest.raises(TileCountError, match="'fj'"):
        check_counts(parse_hand("fj fj fj"))


def test_hand_rejects_more_than_15_tiles():
    with pytest.raises(HandSizeError, match="16"):
        Hand.parse("r1 r1 r2 r2 r3 r3 r4 r4 r5 r5 r6 r6 r7 r7 r8 r8", indicator="k1")


def test_tiles_sort_in_index_order_and_are_hashable():
    assert sorted(parse_hand("k1 fj r2 y1 r1")) == parse_hand("r1 r2 y1 k1 fj")
    assert len({parse_tile("r1"), parse_tile("red1")}) == 1


@pytest.mark.parametrize("text,name", [
    ("kırmızı5", "r5"), ("KIRMIZI5", "r5"), ("kirmizi 5", "r5"), ("sarı13", "y13"), ("SARI1", "y1"),
    ("turuncu7", "y7"), ("mavi10", "b10"), ("siyah2", "k2"), ("Siyah_12", "k12"), ("sahte", "fj"),
    ("sahte okey", "fj"), ("SAHTE", "fj"),
])
def test_turkish_tile_names(text: str, name: str) -> None:
    assert parse_tile(text).name == name


def test_turkish_words_in_a_hand_keep_the_short_notation() -> None:
    hand = parse_hand("kırmızı 1 kırmızı2 r3 mavi 7 sahte okey siyah 13")
    assert format_hand(hand) == "r1 r2 r3 b7 fj k13"
    with pytest.raises(UnknownTileError, match="mor5"):
        parse_tile("mor5")  # purple is no Okey colour
