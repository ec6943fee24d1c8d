"""``check --game 101``: a photo's 21-22 tiles judged by their best opening."""

from __future__ import annotations

import json

import pytest

from okey_vision.check import judge
from okey_vision.lang import Lang
from okey_vision.tiles import Game, parse_hand, parse_tile
from okey_vision.vision.reads import APART, TileRead
from okey_vision.yuzbir import Options101

OPENS = "r10 r11 r12 r13 k10 y10 b10 b11 b12 y7 y8 y9 k1 k6 r3 r4 b2 b2 y1 k13 k12 r8"
SHORT = "r1 r2 r3 y1 y5 b9 k2 k4 r6 y8 b11 k13 r9 y3 b5 k7 r12 y10 b2 k9 y12"


def reads_of(names: str, apart: str = "") -> list[TileRead]:
    """Stand-in reads: the rack's tiles left to right in two rows, then the indicator apart."""
    out = []
    for i, t in enumerate(parse_hand(names)):
        row, col = divmod(i, 11)
        out.append(TileRead((col * 40.0, row * 60.0, col * 40.0 + 30, row * 60.0 + 45.0), t, 0.99,
                            ((t, 0.99), (parse_tile("k13"), 0.01)), row=row))
    for j, t in enumerate(parse_hand(apart)):
        out.append(TileRead((j * 40.0, 300.0, j * 40.0 + 30, 345.0), t, 0.98, ((t, 0.98),), row=APART))
    return out


def test_a_101_rack_is_judged_by_its_opening() -> None:
    v = judge(reads_of(OPENS, apart="k5"), "a.jpg", game=Game.ONE_OH_ONE)
    assert v.kind == "yes" and v.can_declare and v.opening is not None and v.opening.points == 162
    assert v.label() == "Opens" and v.label(Lang.TR) == "Açar" and v.why() == "Open: 162 of 101."
    data = v.to_dict()
    assert data["game"] == "101" and data["opening"]["points"] == 162 and data["tiles"] == OPENS.split()


def test_a_101_rack_that_does_not_open_says_how_far() -> None:
    v = judge(reads_of(SHORT, apart="k5"), "b.jpg", game=Game.ONE_OH_ONE)
    assert v.kind == "no" and v.label() == "Not yet"
    assert v.why().startswith("Not yet: ") and "of 101" in v.why()
    assert "101 puandan" in v.why(Lang.TR)


def test_the_house_options_reach_the_verdict() -> None:
    v = judge(reads_of(OPENS, apart="k5"), "a.jpg", game=Game.ONE_OH_ONE, options101=Options101(ace_after_13=False))
    assert v.opening is not None and v.opening.points < 162


def test_the_classic_check_of_a_101_rack_is_one_error() -> None:
    v = judge(reads_of(OPENS, apart="k5"), "a.jpg")
    assert v.kind == "error" and "15" in v.error


def test_the_row_says_the_opening_and_its_melds() -> None:
    from okey_vision.cli.check import row_json, row_lines

    v = judge(reads_of(OPENS, apart="k5"), "a.jpg", game=Game.ONE_OH_ONE)
    rows = row_lines(v)
    assert rows.startswith("a.jpg: OPENS. Open: 162 of 101.") and "r10 y10 k10" in rows
    assert json.loads(row_json(v))["opening"]["kind"] == "melds"
    assert "r10" not in row_lines(v, Lang.TR)


def test_check_command_takes_the_game(tmp_path, capsys) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("cv2")
    from okey_vision.cli import main

    code = main(["check", "--game", "101", "--json", str(tmp_path / "none.jpg")])
    out, err = capsys.readouterr()
    assert code != 0 and "none.jpg" in (out + err)


def test_the_report_shows_101_verdicts() -> None:
    from okey_vision.check.photos import Checked
    from okey_vision.report.html import report_html

    page = report_html([Checked(judge(reads_of(OPENS, apart="k5"), "a.jpg", game=Game.ONE_OH_ONE)),
                        Checked(judge(reads_of(SHORT, apart="k5"), "b.jpg", game=Game.ONE_OH_ONE))], Lang.EN)
    assert "Open: 162 of 101." in page and "Not yet: 33 of 101." in page
