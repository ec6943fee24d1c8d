"""The command line's 101 game: solve and advise with --game 101."""

from __future__ import annotations

import json

import pytest

from okey_vision.cli import main

HAND22 = "r10 r11 r12 r13 k10 y10 b10 b11 b12 y7 y8 y9 k1 k6 r3 r4 b2 b2 y1 k13 k12 r8".split()


def run_cli(capsys, *args):  # type: ignore[no-untyped-def]
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_101_json(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run_cli(capsys, "solve", "--game", "101", "-i", "k5", "--json", *HAND22)
    data = json.loads(out)
    assert code == 0 and data["game"] == "101" and data["okey"] == "k6"
    opening = data["opening"]
    assert opening["reaches"] is True and opening["points"] >= 101 and opening["kind"] == "melds"
    assert opening["progress"] == f"{opening['points']} of 101"


def test_solve_101_not_yet_in_both_languages(capsys) -> None:  # type: ignore[no-untyped-def]
    hand = "r10 r11 r12 r13 k10 y10 b10 y7".split()
    _, out, _ = run_cli(capsys, "solve", "--game", "101", "-i", "k5", *hand)
    assert "Opening: not yet: 76 of 101." in out
    _, out, _ = run_cli(capsys, "solve", "--game", "101", "-i", "k5", "--lang", "tr", *hand)
    assert "Açış: henüz değil: 101 puandan 76." in out and "r10" not in out
    assert all(line.endswith(".") for line in out.splitlines())


def test_solve_101_house_options(capsys) -> None:  # type: ignore[no-untyped-def]
    base = ["solve", "--game", "101", "-i", "k5", "--json", *HAND22]
    _, out, _ = run_cli(capsys, *base, "--beat-highest", "--highest", "170")
    assert json.loads(out)["opening"]["needed"] == 171 and not json.loads(out)["opening"]["reaches"]
    _, out, _ = run_cli(capsys, *base, "--no-ace-after-13")
    assert json.loads(out)["opening"]["points"] < 162


def test_classic_stays_the_default(capsys) -> None:  # type: ignore[no-untyped-def]
    _, out, _ = run_cli(capsys, "solve", "-i", "b2", "--json", "r5", "r5", "y7")
    assert "game" not in json.loads(out)
    code, _, err = run_cli(capsys, "solve", "-i", "b2", *HAND22)
    assert code == 2 and "15" in err


def test_advise_101_turn_and_take(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, _ = run_cli(capsys, "advise", "--game", "101", "-i", "k5", "--table", "r5 r6 r7", *HAND22)
    assert code == 0 and out.startswith("Open now with 162 points") and "Add r8 to r5 r6 r7." in out
    code, out, _ = run_cli(capsys, "advise", "--game", "101", "-i", "k5", "--offered", "r9", "--json",
                           "r10", "r11", "y3")
    data = json.loads(out)
    assert data["action"] == "draw" and data["take"] is False
    code, out, _ = run_cli(capsys, "advise", "--game", "101", "-i", "k5", "--lang", "tr", "--opened", "melds",
                           "--table", "r5 r6 r7", "y2", "r8", "k13")
    assert "Kırmızı 8 taşını" in out and "r8" not in out


@pytest.mark.parametrize(("args", "needle"), [
    (["solve", "--game", "101", "-i", "k5", *(["r1", "r2"] * 12)], "22"),
    (["advise", "--game", "101", "-i", "k5", "--table", "r5 r7 r9", "r1"], "r5 r7 r9"),
    (["advise", "--game", "101", "-i", "k5"], "no hand"),
])
def test_bad_101_input_is_one_line(capsys, args, needle) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli(capsys, *args)
    assert code == 2 and out == "" and needle in err and err.count("\n") == 1


@pytest.mark.parametrize("args", [["advise", "-i", "k5", "--table", "r5 r6 r7", "r1"],
                                  ["advise", "-i", "k5", "--opened", "melds", "r1"],
                                  ["solve", "-i", "k5", "--beat-highest", "r1"]])
def test_101_options_without_the_game_say_so(capsys, args) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli(capsys, *args)
    assert code == 2 and out == "" and "--game 101" in err


def test_a_bad_table_meld_is_said_in_turkish(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli(capsys, "advise", "--game", "101", "-i", "k5", "--lang", "tr",
                             "--table", "r5 r7 r9", "r1")
    assert code == 2 and out == "" and "hata: Kırmızı 5 kırmızı 7 kırmızı 9: ne seri, ne de grup." in err
