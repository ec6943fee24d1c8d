"""What the melds on the table take from a hand."""

from __future__ import annotations

import pytest

from okey_vision.errors import InvalidMeldError
from okey_vision.tiles import okey_of, parse_tile
from okey_vision.yuzbir import Options101, table_additions, takes
from okey_vision.yuzbir.table import Place, add_all, table_melds

IND = "k1"  # okey k2
OKEY = okey_of(parse_tile(IND))

ADDS = [
    # table meld, tile, places it goes
    ("r5 r6 r7", "r4", {Place.LOW}),
    ("r5 r6 r7", "r8", {Place.HIGH}),
    ("r5 r6 r7", "r9", set()),
    ("r5 r6 r7", "y8", set()),
    ("r11 r12 r13", "r1", {Place.HIGH}),          # 12-13-1
    ("r12 r13 r1", "r2", set()),                  # never 13-1-2
    ("r12 r13 r1", "r11", {Place.LOW}),
    ("r1 r2 r3", "r13", set()),                   # 13-1-2 again
    ("y9 b9 k9", "r9", {Place.SET}),
    ("y9 b9 k9", "y9", set()),                    # a colour twice
    ("y9 b9 k9 r9", "r9", set()),                 # a set holds four
    ("r5 r6 k2", "r7", {Place.OKEY}),             # the okey stands for r7: take it back
    ("r5 r6 k2", "r4", {Place.LOW}),
    ("r5 r6 r7", "k2", {Place.LOW, Place.HIGH}),  # an okey goes anywhere a face would
    ("r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13", "k2", set()),
]


@pytest.mark.parametrize(("meld", "tile", "places"), ADDS)
def test_additions_table(meld: str, tile: str, places: set[Place]) -> None:
    table = table_melds([meld], IND)
    found = {a.place for a in table_additions(tile, IND, table)}
    assert found == places
    assert takes(table, parse_tile(tile), OKEY) == bool(places)


def test_options_change_what_the_table_takes() -> None:
    table = table_melds(["r11 r12 r13", "r5 r6 k2"], IND)
    off = Options101(ace_after_13=False, take_back_okey=False)
    assert not takes(table, parse_tile("r1"), OKEY, off)
    assert {a.place for a in table_additions("r7", IND, table, off)} == set()  # r7 is the okey's; no take-back
    assert {a.place for a in table_additions("r8", IND, table, off)} == {Place.HIGH}


def test_add_all_chains_and_keeps_one_tile() -> None:
    table = table_melds(["r5 r6 r7"], IND)
    made, left, after = add_all([parse_tile(t) for t in "r8 r9 r10 y1".split()], OKEY, table)
    assert [a.tile.name for a in made] == ["r8", "r9", "r10"] and [t.name for t in left] == ["y1"]
    assert after[0].describe() == "r5 r6 r7 r8 r9 r10"
    made, left, _ = add_all([parse_tile(t) for t in "r8 r9".split()], OKEY, table)
    assert len(left) == 1  # one tile stays to discard


def test_a_bad_table_meld_names_it() -> None:
    with pytest.raises(InvalidMeldError, match="r5 r7 r9"):
        table_melds(["r5 r7 r9"], IND)


# One meld rule behind both parsers: a list of strings (the 101 table's) and
# one typed text (the app's table box) give the same melds, errors alike.
SAME_MELDS = [
    ["r5 r6 k2", "y9 b9 k9"],
    ["kırmızı 11 kırmızı 12 kırmızı 13 kırmızı 1", "mavi 4 siyah 4 sarı 4 kırmızı 4"],
    ["r1 r2 r3", "k2 k2 y7"],
]


@pytest.mark.parametrize("texts", SAME_MELDS)
def test_table_melds_and_parse_melds_agree(texts: list[str]) -> None:
    from okey_vision.melds import parse_melds

    listed = table_melds(texts, IND)
    typed = parse_melds(", ".join(texts), IND)
    assert listed == typed and [m.describe() for m in listed] == [m.describe() for m in typed]
    assert all(m.kind in ("run", "set") for m in listed)


def test_a_pair_is_a_meld_of_a_typed_table_not_of_a_meld_list() -> None:
    from okey_vision.melds import parse_melds

    assert [m.kind for m in parse_melds("b9 b9", IND)] == ["pair"]
    with pytest.raises(InvalidMeldError, match="'b9 b9' is no valid run or set"):
        table_melds(["r5 r6 r7", "b9 b9"], IND)
    assert table_melds(["", "  ", "r5 r6 r7"], IND) == table_melds(["r5 r6 r7"], IND)


@pytest.mark.parametrize(("call", "english", "turkish"), [
    (lambda: table_melds(["r5 r7 r9"], IND), "'r5 r7 r9' is no valid run or set",
     "Kırmızı 5 kırmızı 7 kırmızı 9: ne seri, ne de grup"),
    (lambda: table_melds(["y3 b8"], IND), "'y3 b8' is no valid run or set", "Sarı 3 mavi 8: ne seri, ne de grup"),
])
def test_a_bad_table_meld_is_one_sentence_in_each_language(call, english, turkish) -> None:  # type: ignore[no-untyped-def]
    from okey_vision.lang import Lang, error_message

    with pytest.raises(InvalidMeldError) as caught:
        call()
    assert english in error_message(caught.value, Lang.EN)
    assert error_message(caught.value, Lang.TR) == turkish
