"""The 101 rules shared by every 101 module: the game switch, the hand, the options, tile values."""

from __future__ import annotations

import pytest

from okey_vision.errors import HandError, HandSizeError, TileCountError
from okey_vision.tiles import Game, Hand, parse_tile
from okey_vision.yuzbir import Hand101, Opened, Options101, tile_value

TWENTY_TWO = "r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13 y1 y2 y3 y4 y5 y6 y7 y8 y9"


@pytest.mark.parametrize(("text", "game"), [("okey", Game.OKEY), ("101", Game.ONE_OH_ONE), ("Yüzbir", Game.ONE_OH_ONE),
                                            (Game.OKEY, Game.OKEY)])
def test_game_parse(text: str, game: Game) -> None:
    assert Game.parse(text) is game


def test_game_sizes_and_unknown_name() -> None:
    assert (Game.OKEY.hand_size, Game.OKEY.max_hand) == (14, 15)
    assert (Game.ONE_OH_ONE.hand_size, Game.ONE_OH_ONE.max_hand) == (21, 22)
    with pytest.raises(HandError, match="'chess'"):
        Game.parse("chess")


def test_hand101_holds_22_and_the_classic_hand_15() -> None:
    h = Hand101.of(TWENTY_TWO, "k5")
    assert len(h) == 22 and h.game is Game.ONE_OH_ONE
    with pytest.raises(HandSizeError, match="at most 15"):
        Hand.of(TWENTY_TWO, "k5")
    with pytest.raises(HandSizeError, match="at most 15"):
        Hand.of(h)  # a 101 hand is checked again as a classic one
    classic = Hand.of("r1 r2 r3", "k5")
    assert isinstance(Hand101.of(classic), Hand101)
    with pytest.raises(HandSizeError, match="at most 22"):
        h.plus(parse_tile("k1"))
    with pytest.raises(TileCountError, match="'r1'"):
        Hand101.of("r1 r1 r1", "k5")


def test_options_needed() -> None:
    assert Options101().needed(150) == 101
    assert Options101(beat_highest=True).needed(0) == 101
    assert Options101(beat_highest=True).needed(116) == 117
    assert Options101(beat_highest=True).pairs_needed(6) == 7
    assert Options101().pairs_needed(6) == 5


@pytest.mark.parametrize(("tile", "value"), [("r7", 7), ("k6", 101), ("fj", 6), ("b13", 13)])
def test_tile_values_with_okey_k6(tile: str, value: int) -> None:
    assert tile_value(parse_tile(tile), parse_tile("k6")) == value


def test_opened_parse() -> None:
    assert Opened.parse(None) is Opened.NO and Opened.parse("pairs") is Opened.PAIRS
    with pytest.raises(ValueError, match="'twice'"):
        Opened.parse("twice")
