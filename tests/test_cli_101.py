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


# ------------------------------------------------------------------ read a 101 rack photo ---

def _models_here() -> bool:
    from pathlib import Path

    models = Path(__file__).resolve().parents[1] / "models"
    return all((models / f"{m}.onnx").exists() for m in ("detector", "number", "color"))


needs_reader = pytest.mark.skipif(not _models_here(), reason="reader weights not in models/")
SAMPLE_101 = "okey_vision/data/sample_rack_101.jpg"


@needs_reader
def test_read_advise_101_gives_the_advice_of_the_rack_read(capsys) -> None:  # type: ignore[no-untyped-def]
    from okey_vision.synth.sample import sample_truth
    from okey_vision.yuzbir import advise101

    truth = sample_truth("101")
    code, out, _ = run_cli(capsys, "read", SAMPLE_101, "--advise", "--game", "101", "--json")
    data = json.loads(out)
    assert code == 0 and data["game"] == "101" and data["indicator"] == truth["indicator"]
    assert data["indicator_from"] == "photo" and data["hand"] == truth["hand"]  # all 22 tiles read right
    # the advice is the one the true rack gets, as `advise --game 101` computes it
    assert data["advice"] == advise101(" ".join(truth["hand"]), truth["indicator"]).to_dict()
    code, out, _ = run_cli(capsys, "read", SAMPLE_101, "--advise", "--game", "101", "--lang", "tr")
    assert code == 0 and "Şimdi 167 puanla el aç" in out and "Sarı 4 at." in out


@needs_reader
def test_read_solve_101_gives_the_opening(capsys) -> None:  # type: ignore[no-untyped-def]
    from okey_vision.synth.sample import sample_truth

    truth = sample_truth("101")
    code, out, _ = run_cli(capsys, "read", SAMPLE_101, "--solve", "--game", "101", "--json")
    data = json.loads(out)
    code2, typed, _ = run_cli(capsys, "solve", "--game", "101", "-i", truth["indicator"], "--json", *truth["hand"])
    assert code == code2 == 0 and data["solve"] == json.loads(typed) and data["solve"]["opening"]["points"] == 167


@needs_reader
@pytest.mark.parametrize(("lang", "needle"), [
    ("en", "sample_rack.jpg: {n} tiles read on the rack, and a 101 rack holds 21 tiles, or 22 before its discard; "
           "take the photo again with the whole rack in the frame."),
    ("tr", "sample_rack.jpg: ıstakada {n} taş okundu, ama 101'de ıstakada 21 taş, atmadan önce 22 taş olur; "
           "fotoğrafı bütün ıstaka görünecek şekilde yeniden çek."),
])
def test_read_advise_101_of_a_classic_rack_is_one_sentence(capsys, lang, needle) -> None:  # type: ignore[no-untyped-def]
    from okey_vision.synth.sample import sample_truth

    code, out, err = run_cli(capsys, "read", "okey_vision/data/sample_rack.jpg", "--advise", "--game", "101",
                             "--lang", lang)
    n = len(sample_truth()["hand"])  # the classic sample rack, read whole
    assert code == 2 and out == "" and err.count("\n") == 1 and needle.format(n=n) in err, err
    # check --game 101 refuses the same rack with the same sentence (one check of a 101 rack)
    code, out, _ = run_cli(capsys, "check", "okey_vision/data/sample_rack.jpg", "--game", "101", "--json",
                           "--lang", lang)
    row = json.loads(out)
    assert code == 1 and row["error"] and "opening" not in row, row
    assert row["why"].endswith(needle.format(n=n).rstrip(".")), row


@pytest.mark.parametrize(("lang", "needle"), [
    ("en", "a player offered r5 holds at most 21 tiles, before drawing; got 22 tiles: 'r10 r11 r12"),
    ("tr", "yandan kırmızı 5 alabilecek oyuncunun elinde, çekmeden önce, en çok 21 taş olur; burada 22 taş var"),
])
def test_advise_101_offered_to_22_tiles_is_one_sentence(capsys, lang, needle) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli(capsys, "advise", "--game", "101", "-i", "k5", "--offered", "r5", "--lang", lang,
                             *HAND22)
    assert code == 2 and out == "" and err.count("\n") == 1 and needle in err, err
    code, out, _ = run_cli(capsys, "advise", "--game", "101", "-i", "k5", "--offered", "r5", *HAND22[:21])
    assert code == 0 and out.startswith(("Take r5", "Draw"))


def test_read_refuses_101_options_without_the_game(capsys) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli(capsys, "read", SAMPLE_101, "--advise", "--beat-highest")
    assert code == 2 and out == "" and "--game 101" in err


@pytest.mark.parametrize(("lang", "said"), [("en", "error: 3 copies of 'r5' (hand 2, offered 1): only 2 exist."),
                                            ("tr", "hata: Kırmızı 5 taşından 3 tane var: sette yalnız 2 tane olur.")])
def test_advise_101_refuses_an_offered_third_copy_in_one_sentence(capsys, lang, said) -> None:  # type: ignore[no-untyped-def]
    code, out, err = run_cli(capsys, "advise", "--game", "101", "-i", "k5", "--offered", "r5", "--lang", lang,
                             "r5", "r5", "r1", "r2", "r3")
    assert code == 2 and out == "" and err == f"okey-vision advise: {said}\n"
