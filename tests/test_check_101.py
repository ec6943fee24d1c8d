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


@pytest.mark.parametrize(("lang", "said"), [
    (Lang.EN, "c.jpg: 15 tiles read on the rack, and a 101 rack holds 21 tiles, or 22 before its discard; take the "
              "photo again with the whole rack in the frame"),
    (Lang.TR, "c.jpg: ıstakada 15 taş okundu, ama 101'de ıstakada 21 taş, atmadan önce 22 taş olur; fotoğrafı "
              "bütün ıstaka görünecek şekilde yeniden çek"),
])
def test_a_rack_of_other_than_21_or_22_tiles_is_not_judged_in_101(lang: Lang, said: str) -> None:
    classic = "r1 r2 r3 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 k5 y1"  # a classic rack: a partial 101 read
    v = judge(reads_of(classic, apart="b3"), "c.jpg", game=Game.ONE_OH_ONE)
    assert v.kind == "error" and v.opening is None and v.why(lang) == said


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


def test_the_summary_and_the_report_say_101_words() -> None:
    from okey_vision.check.photos import Checked
    from okey_vision.cli.check import summary_line
    from okey_vision.report.html import report_html

    verdicts = [judge(reads_of(OPENS, apart="k5"), "a.jpg", game=Game.ONE_OH_ONE),
                judge(reads_of(SHORT, apart="k5"), "b.jpg", game=Game.ONE_OH_ONE)]
    assert summary_line(verdicts, Lang.EN, Game.ONE_OH_ONE) == "2 photos: 1 open, 1 not yet, 0 not checked."
    assert summary_line(verdicts, Lang.TR, Game.ONE_OH_ONE) == ("2 fotoğraf: 1 el açar, 1 el henüz açmaz, "
                                                                "0 kontrol edilemedi.")
    page = report_html([Checked(v) for v in verdicts], Lang.EN, game=Game.ONE_OH_ONE)
    assert "1 open, 1 not yet" in page and "Opens: 1" in page and "Not yet: 1" in page
    assert "can be declared" not in page and "scoring" not in page


# ------------------------------------------------------------------ the app's page ---

def page_words(at) -> str:  # type: ignore[no-untyped-def]
    """What the page says: its texts and widgets' labels, without style sheets and HTML tags."""
    import re

    raw = " ".join([str(m.value) for m in at.markdown] + [str(c.value) for c in at.caption]
                   + [str(e.value) for e in at.warning] + [str(e.value) for e in at.info])
    raw += " ".join(str(getattr(w, a, "") or "") for kind in ("selectbox", "toggle", "radio", "button")
                    for w in getattr(at, kind) for a in ("label", "placeholder", "help"))
    raw += " ".join(str(getattr(u, "label", "")) for u in at.file_uploader)
    return re.sub(r"<[^>]+>", " ", re.sub(r"<style>.*?</style>", " ", raw, flags=re.S))


def test_the_app_check_page_follows_the_game_switch(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    pytest.importorskip("streamlit")
    from pathlib import Path

    import app_fakes as fake
    from browser.turkish import english_words, latin_tiles
    from streamlit.testing.v1 import AppTest

    from okey_vision.app.state import KEY
    from okey_vision.eval import racks

    monkeypatch.setenv("OKEY_VISION_APP_READER", "app_fakes:reader")
    fake.set_reads(reads_of(OPENS, apart="k5"))
    at = AppTest.from_file(str(Path(__file__).resolve().parents[1] / "app.py"), default_timeout=120)
    at.query_params["page"] = "check"
    at.query_params["game"] = "101"
    at.run()
    assert not at.exception
    assert "judged by its best opening" in page_words(at)
    data = racks.jpeg(racks.render(racks.RACKS[0], 3).image)
    uploader = next(u for u in at.file_uploader if u.key == "check_uploads")
    uploader.set_value([("rack.jpg", data, "image/jpeg"), ("broken.jpg", b"\xff\xd8junk", "image/jpeg")]).run()
    assert not at.exception
    checked = at.session_state[KEY].checks.checked
    assert [c.verdict.kind for c in checked] == ["yes", "error"]
    assert checked[0].verdict.opening is not None and checked[0].verdict.opening.points == 162
    body = page_words(at)
    assert "2 photos: 1 open, 0 not yet, 1 not checked." in body and "Opens" in body
    assert "Open: 162 of 101." in body
    at.radio(key="lang_pick").set_value("tr").run()  # the Turkish page: the 101 words, no English, no Latin tile
    assert not at.exception
    body = page_words(at)
    assert "2 fotoğraf: 1 el açar, 0 el henüz açmaz, 1 kontrol edilemedi." in body and "Açar" in body
    assert "El aç: 101 puandan 162." in body and "101 ıstakalarının fotoğrafları" in body
    assert not english_words(body) and not latin_tiles(body), (english_words(body), latin_tiles(body))
    at.radio(key="game_pick").set_value("okey").run()  # back to classic Okey: judged again as a classic hand
    assert not at.exception
    checked = at.session_state[KEY].checks.checked
    assert checked[0].verdict.opening is None and checked[0].verdict.kind == "error"  # 22 tiles is no Okey hand
    assert "el biter" in page_words(at)
