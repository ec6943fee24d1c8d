"""The organiser's check: ``okey-vision check PATH...``, its
verdicts, sidecars, exit codes, the HTML report and the app's page.

The end-to-end tests read rendered racks with known hands (``okey_vision/eval/racks.py``:
winning and losing, 14 and 15 tiles, an okey finish, seven pairs, the
indicator beside the rack or in a sidecar) with the shipped reader, and
compare every verdict with the solver's on the true hand.
"""

from __future__ import annotations

import json
import re
import shutil
import threading
import time
from pathlib import Path

import pytest

from okey_vision.check import CheckError, Source, judge
from okey_vision.check import text as words
from okey_vision.check.photos import Job, UsageError, check, check_all, photos_in, sidecar_indicator
from okey_vision.cli import main
from okey_vision.cli.solve import solve_result
from okey_vision.lang import Lang
from okey_vision.tiles import parse_hand, parse_tile
from okey_vision.vision.reads import APART, TileRead

ROOT = Path(__file__).resolve().parents[1]
MODELS = ROOT / "models"
HAVE_MODELS = all((MODELS / f"{m}.onnx").exists() for m in ("detector", "number", "color"))
needs_reader = pytest.mark.skipif(not HAVE_MODELS, reason="reader weights not in models/")

WIN15 = "r1 r2 r3 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 k5 y1"
LOSE14 = "r1 r2 r3 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 y13"


def reads_of(names: str, apart: str = "", low: tuple[int, ...] = ()) -> list[TileRead]:
    """Stand-in reads: the rack's tiles left to right, then tiles apart; those at ``low`` unsure."""
    out = []
    for i, t in enumerate(parse_hand(names)):
        conf = 0.5 if i in low else 0.99
        out.append(TileRead((i * 40.0, 0.0, i * 40.0 + 30, 45.0), t, conf, ((t, conf), (parse_tile("k13"), 0.01))))
    for j, t in enumerate(parse_hand(apart)):
        out.append(TileRead((j * 40.0, 200.0, j * 40.0 + 30, 245.0), t, 0.98, ((t, 0.98),), row=APART))
    return out


# ------------------------------------------------------------------ verdicts ---

def test_a_winning_hand_is_judged_by_the_solver():
    v = judge(reads_of(WIN15, apart="r3"), "a.jpg")
    assert v.kind == "yes" and v.source is Source.PHOTO and v.indicator == parse_tile("r3")
    want = solve_result(WIN15.split(), "r3")
    d = v.to_dict()
    assert d["can_declare"] is True and d["declare"] == want["declare"] and d["distance"] == 0
    assert list(d)[:8] == ["photo", "tiles", "indicator", "flagged", "can_declare", "declare", "distance", "error"]
    assert d["error"] is None and d["tiles"] == WIN15.split() and d["apart"] == ["r3"]


def test_a_losing_hand_says_how_far_and_why():
    v = judge(reads_of(LOSE14), "b.jpg", fallback="r9")  # the organiser's choice: the photo shows none
    assert v.kind == "no" and v.distance == 1 and v.source is Source.OPTION
    assert v.why() == "Not finished: y13 left over after the runs and sets; 1 tile from winning (distance 1)."
    assert v.why(Lang.TR).startswith("Bitmemiş: perler dışında kalan taşlar sarı 13;")


def test_a_hand_of_the_wrong_size_cannot_be_declared():
    v = judge(reads_of("r1 r2 r3 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4"), "c.jpg", indicator="r9")
    assert v.kind == "no" and v.distance is None
    assert v.why() == "13 tiles: a hand is declared with 14 tiles, or 15 with its discard."


def test_seven_pairs_and_the_okey_finish():
    pairs = judge(reads_of("r5 r5 b8 b8 k12 k12 y9 y9 k1 k1 b13 b13 fj fj"), "p.jpg", indicator="y2")
    assert pairs.kind == "yes" and pairs.best.kind.value == "pairs"
    okey = judge(reads_of("b2 b3 b4 b5 y8 y9 y10 y11 k5 k6 k7 r11 r12 r13 r7"), "o.jpg", indicator="r6")
    assert okey.best.okey_discard and okey.points == 4 and "doubles" in okey.why()


@pytest.mark.parametrize("reads,indicator,key", [
    ([], "r3", "check.no_tiles"),
    (reads_of("", apart="r3"), None, "check.no_tiles"),                 # only the indicator: no rack
    (reads_of(WIN15), None, "check.no_indicator"),                      # nothing apart, nothing given
    (reads_of("r5 r5 r1 r2 r3 y5 y6 y7 b9 b10 b11 k1 k2 k3", apart="r5"), None, "copies"),  # three r5
])
def test_a_photo_that_cannot_be_checked_is_an_error_row(reads, indicator, key):
    v = judge(reads, "bad.jpg", indicator=indicator)
    assert v.kind == "error" and not v.can_declare and v.failure is not None
    assert v.failure.key == key if key.startswith("check.") else "r5" in v.error, (v.failure.key, v.error)
    d = v.to_dict()
    assert d["error"] and "\n" not in d["error"] and d["declare"] is None and d["distance"] is None


def test_flagged_reads_are_listed_with_their_place_and_alternatives():
    v = judge(reads_of(WIN15, apart="r3", low=(2, 9)), "f.jpg")
    d = v.to_dict()
    assert [(f["position"], f["tile"]) for f in d["flagged"]] == [(3, "r3"), (10, "k1")]
    assert d["flagged"][0]["alternatives"] == [["k13", 0.01]]


def test_a_sidecar_indicator_that_the_photo_contradicts_is_noted():
    v = judge(reads_of(WIN15, apart="k7"), "n.jpg", indicator="r3", source=Source.SIDECAR)
    assert v.indicator == parse_tile("r3") and v.shown == parse_tile("k7")
    assert v.note() == "The photo shows k7 beside the rack; checked with r3 (from its sidecar file)."
    assert v.note(Lang.TR) == ("Fotoğrafta ıstakanın yanında siyah 7 var; kırmızı 3 ile kontrol edildi "
                               "(yanındaki dosyadan).")


def test_the_organisers_choice_never_replaces_the_indicator_a_photo_shows():
    # The box "for the photos that show none" re-judged a photo showing y5 with k2.
    shows = judge(reads_of(WIN15, apart="r3"), "shows.jpg", fallback="k2")
    assert shows.indicator == parse_tile("r3") and shows.source is Source.PHOTO and shows.kind == "yes"
    assert shows.to_dict()["indicator_from"] == "photo" and shows.note() == ""
    blank = judge(reads_of(WIN15), "none.jpg", fallback="r3")
    assert blank.indicator == parse_tile("r3") and blank.source is Source.OPTION and blank.kind == "yes"
    assert "(chosen for the photos that show none)" in words.indicator_line(blank.indicator,
                                                                             blank.source.said())


def test_check_by_eye_names_the_indicator_the_verdict_used():
    # A discard lying on the table (k3, unsure) was listed as "Indicator k3" while y5 was used.
    reads = reads_of(WIN15, low=(2,))
    reads += [TileRead((300.0, 200.0, 330.0, 245.0), parse_tile("r3"), 0.999, ((parse_tile("r3"), 0.999),),
                       row=APART),
              TileRead((400.0, 200.0, 430.0, 245.0), parse_tile("k3"), 0.6, ((parse_tile("k3"), 0.6),
                                                                            (parse_tile("k8"), 0.3)), row=APART)]
    v = judge(reads, "table.jpg")
    assert v.indicator == parse_tile("r3") and v.source is Source.PHOTO
    assert [(pos, r.name) for pos, r in v.flagged] == [(3, "r3")]  # the rack's third tile; no k3
    unsure = [r if r.row != APART or r.name != "r3" else TileRead(r.box, r.tile, 0.8, ((r.tile, 0.8),), row=APART)
              for r in reads]
    v = judge(unsure, "table.jpg")
    assert [(pos, r.name) for pos, r in v.flagged] == [(3, "r3"), (None, "r3")]
    from okey_vision.report.html import to_check

    page = to_check(v)
    assert "Indicator r3" in page and "k3" not in page and "Gösterge kırmızı 3" in to_check(v, Lang.TR)
    side = judge(unsure, "table.jpg", indicator="y1", source=Source.SIDECAR)  # the sidecar's: the photo's unused
    assert [pos for pos, _ in side.flagged] == [3]


# ------------------------------------------------------------------ words ---

@pytest.mark.parametrize("key", sorted(words.SENTENCES))
def test_every_check_text_in_both_languages_with_its_full_stop(key):
    en, tr = words.SENTENCES[key]
    assert en.strip() and tr.strip()
    fields = sorted(re.findall(r"{(\w+)", en))
    assert fields == sorted(re.findall(r"{(\w+)", tr)), key
    if not key.startswith("label."):  # a sentence ends with its full stop; a label has none
        assert en.endswith(".") and tr.endswith("."), key
    else:
        assert not en.endswith(".") and not tr.endswith("."), key


def test_check_errors_are_said_in_turkish():
    exc = CheckError.of("no_tiles", name="x.jpg")
    assert str(exc) == "x.jpg: no tiles found in the photo"
    assert words.error_text(exc, Lang.TR) == "x.jpg: fotoğrafta taş bulunamadı."


# ------------------------------------------------------------------ photos, sidecars ---

@pytest.mark.parametrize("content,want", [
    ("r3\n", "r3"), ("indicator b12\n", "b12"), ("# round 4\nindicator: k1\n", "k1"),
    ("Gösterge kırmızı 7", "r7"), ("  y13  ", "y13"),
])
def test_a_sidecar_names_the_indicator(tmp_path, content, want):
    photo = tmp_path / "hand.jpg"
    photo.write_bytes(b"x")
    (tmp_path / "hand.txt").write_text(content, encoding="utf-8")
    assert sidecar_indicator(photo) == parse_tile(want)


def test_a_sidecar_beside_the_full_name_and_a_bad_one(tmp_path):
    photo = tmp_path / "hand.png"
    photo.write_bytes(b"x")
    assert sidecar_indicator(photo) is None
    (tmp_path / "hand.png.txt").write_text("indicator y4")
    assert sidecar_indicator(photo) == parse_tile("y4")
    (tmp_path / "hand.png.txt").write_text("the indicator was red")
    with pytest.raises(CheckError, match="names no indicator"):
        sidecar_indicator(photo)
    job = Job.of_path(photo, parse_tile("r3"))  # a bad sidecar: that photo's error row, not the option
    assert job.failure is not None and check(job, lambda image, **kw: []).verdict.kind == "error"


def test_photos_in_keeps_the_order_given_and_refuses_what_is_not_there(tmp_path):
    for name in ("b.jpg", "a.PNG", "notes.txt", "c.webp"):
        (tmp_path / name).write_bytes(b"x")
    (tmp_path / "sub").mkdir()
    (tmp_path / "sub" / "d.jpg").write_bytes(b"x")
    lone = tmp_path / "sub" / "d.jpg"
    assert [p.name for p in photos_in([lone, tmp_path])] == ["d.jpg", "a.PNG", "b.jpg", "c.webp"]
    with pytest.raises(UsageError, match="no such file"):
        photos_in([tmp_path / "missing.jpg"])
    (tmp_path / "empty").mkdir()
    with pytest.raises(UsageError, match="no photos"):
        photos_in([tmp_path / "empty"])


def rack_jpeg(seed: int = 3) -> bytes:
    """A small rendered rack (its reads come from the stand-in reader)."""
    from okey_vision.eval import racks

    return racks.jpeg(racks.render(racks.RACKS[0], seed).image)


def test_check_all_reads_in_parallel_and_keeps_the_order_given():
    pytest.importorskip("cv2")
    data = rack_jpeg()
    at_once, most = [0], [0]
    lock = threading.Lock()

    def slow_read(image, indicator=None):
        with lock:
            at_once[0] += 1
            most[0] = max(most[0], at_once[0])
        time.sleep(0.05)
        with lock:
            at_once[0] -= 1
        return reads_of(WIN15, apart="r3")

    jobs = [Job.of_upload(f"{i}.jpg", data) for i in range(6)] + [Job.of_upload("bad.jpg", b"\xff\xd8junk")]
    got = list(check_all(jobs, slow_read, workers=3))
    assert [c.verdict.photo for c in got] == [j.name for j in jobs]
    assert [c.verdict.kind for c in got] == ["yes"] * 6 + ["error"]
    assert most[0] > 1  # the photos were read side by side


def test_a_crashing_reader_is_one_error_row():
    pytest.importorskip("cv2")

    def broken(image, indicator=None):
        raise RuntimeError("model exploded")

    v = check(Job.of_upload("x.jpg", rack_jpeg()), broken).verdict
    assert v.kind == "error" and "RuntimeError: model exploded" in v.error


# ------------------------------------------------------------------ the report ---

def test_the_report_is_one_page_with_a_card_a_photo_and_nothing_fetched():
    pytest.importorskip("cv2")
    from okey_vision.check.photos import Checked
    from okey_vision.report.html import counts, report_html

    checked = [Checked(judge(reads_of(WIN15, apart="r3"), "w.jpg"), b"\xff\xd8fake"),
               Checked(judge(reads_of(LOSE14), "l.jpg", indicator="r9")),
               Checked(judge([], "e<vil>.jpg", indicator="r3"))]
    page = report_html(checked)
    assert page.count('<section class="card') == 3 and 'id="photo-3"' in page and 'href="#photo-2"' in page
    assert "e&lt;vil&gt;.jpg" in page and "<script" not in page
    assert not re.search(r'(src|href)="(?!data:|#)', page)  # every source embedded, every link inside
    assert counts([c.verdict for c in checked]) == {"yes": 1, "no": 1, "error": 1}
    assert 'id="count-yes" data-count="1"' in page
    tr = report_html(checked, Lang.TR)
    assert "Bitmez" in tr and "Biter" in tr and 'lang="tr"' in tr


# ------------------------------------------------------------------ end to end ---

@pytest.fixture(scope="module")
def folder(tmp_path_factory) -> Path:
    """The rendered racks with known hands, as photos (and a sidecar)."""
    pytest.importorskip("cv2")
    from okey_vision.eval import racks

    out = tmp_path_factory.mktemp("hands")
    racks.write(out)
    return out


def run_check(capsys, *args: str) -> tuple[int, list[dict], str]:
    code = main(["check", *args, "--json"])
    out, err = capsys.readouterr()
    return code, [json.loads(line) for line in out.splitlines() if line.strip()], err


@pytest.fixture(scope="module")
def rows(folder, tmp_path_factory) -> tuple[int, list[dict], Path]:
    """The folder checked once (JSON rows and the report), for several tests."""
    report = tmp_path_factory.mktemp("report") / "report.html"
    import io
    from contextlib import redirect_stdout

    buf = io.StringIO()
    with redirect_stdout(buf):
        code = main(["check", str(folder), "--json", "--html", str(report)])
    return code, [json.loads(line) for line in buf.getvalue().splitlines()], report


@needs_reader
def test_every_verdict_is_the_solvers_on_the_true_hand(folder, rows):
    from okey_vision.eval import racks

    code, got, _ = rows
    by_name = {Path(r["photo"]).stem: r for r in got}
    assert sorted(by_name) == sorted(r.name for r in racks.RACKS)
    for rack in racks.RACKS:
        row = by_name[rack.name]
        want = solve_result([t.name for t in rack.hand], rack.indicator)
        assert row["error"] is None, row
        assert row["tiles"] == want["hand"] and row["indicator"] == rack.indicator, row
        assert row["can_declare"] is want["can_declare"] is rack.can_declare, row
        assert row["declare"] == want["declare"], row
        assert row["indicator_from"] == ("photo" if rack.shown else "sidecar")
        assert (row["distance"] == 0) is rack.can_declare
        # a read to check by eye is listed with its place on the rack, from 1 (here all of them are right)
        # (position None: a tile apart, here the indicator lying beside the rack)
        assert all(row["tiles"][f["position"] - 1] == f["tile"] if f["position"] is not None
                   else f["tile"] == rack.indicator for f in row["flagged"]), row["flagged"]
    kinds = {r["declare"]["kind"] for r in got if r["declare"]}
    assert kinds == {"melds", "pairs"} and any(r["declare"]["okey_discard"] for r in got if r["declare"])
    assert code == 1  # two hands cannot be declared


@needs_reader
def test_the_report_has_a_card_a_photo_and_the_jsons_counts(rows):
    _, got, report = rows
    page = report.read_text(encoding="utf-8")
    assert page.count('<section class="card') == len(got) == 6
    yes = sum(r["can_declare"] for r in got)
    assert f'id="count-yes" data-count="{yes}"' in page and f'id="count-no" data-count="{6 - yes}"' in page
    assert page.count("data:image/jpeg;base64,") == 6


@needs_reader
def test_a_damaged_photo_is_one_error_row_and_the_others_are_unchanged(folder, rows, tmp_path, capsys):
    shutil.copytree(folder, tmp_path / "hands")
    (tmp_path / "hands" / "damaged.jpg").write_bytes(rack_jpeg()[:600])
    (tmp_path / "hands" / "empty.png").write_bytes(b"")
    code, got, _ = run_check(capsys, str(tmp_path / "hands"))
    assert code == 1
    errors = [r for r in got if r["error"]]
    assert [Path(r["photo"]).name for r in errors] == ["damaged.jpg", "empty.png"]
    assert "damaged" in errors[0]["error"] and "empty" in errors[1]["error"]
    assert all(r["can_declare"] is False and r["tiles"] == [] for r in errors)
    others = [dict(r, photo=Path(r["photo"]).name) for r in got if not r["error"]]
    assert others == [dict(r, photo=Path(r["photo"]).name) for r in rows[1]]


@needs_reader
def test_indicator_option_and_sidecar_are_honoured(folder, tmp_path, capsys):
    lone = tmp_path / "lose14.jpg"
    shutil.copy(folder / "lose14.jpg", lone)  # without its sidecar: the photo shows no indicator
    code, (row,), _ = run_check(capsys, str(lone))
    assert code == 1 and row["error"].endswith("(--indicator, or a sidecar lose14.txt)")
    code, (row,), _ = run_check(capsys, str(lone), "--indicator", "r9")
    assert row["indicator"] == "r9" and row["indicator_from"] == "option" and row["distance"] == 1
    (tmp_path / "lose14.txt").write_text("r9\n")
    code, (row,), _ = run_check(capsys, str(lone), "--indicator", "k1")  # the sidecar beats the option
    assert row["indicator"] == "r9" and row["indicator_from"] == "sidecar" and row["distance"] == 1


@needs_reader
def test_exit_0_when_every_hand_can_be_declared(folder, capsys):
    code = main(["check", str(folder / "win14.jpg"), str(folder / "okey15.jpg")])
    out = capsys.readouterr().out
    assert code == 0
    assert "win14.jpg: CAN BE DECLARED. Declare: your 14 tiles are finished as runs and sets" in out
    assert out.rstrip().endswith("2 photos: 2 can be declared, 0 cannot, 0 not checked.")


@pytest.mark.parametrize("args,needle", [
    (["/no/such/folder"], "no such file or folder"),
    (["{tmp}"], "no photos in this folder"),
    (["{tmp}", "--indicator", "x9"], "'x9'"),
    (["{tmp}", "--indicator", "fj"], "false joker"),
    (["{tmp}", "--html", "/no/such/dir/r.html"], "no such folder"),
])
def test_bad_usage_is_one_line_and_exit_2(tmp_path, capsys, args, needle):
    code = main(["check", *[a.format(tmp=tmp_path) for a in args]])
    err = capsys.readouterr().err
    assert code == 2 and needle in err and len(err.strip().splitlines()) == 1


def test_no_path_is_bad_usage(capsys):
    # argparse's own usage error, said as the command line's one sentence (exit 2), in either language
    assert main(["check"]) == 2
    assert capsys.readouterr().err == "okey-vision check: error: PATH must be given (see --help).\n"
    assert main(["check", "--lang", "tr"]) == 2
    assert capsys.readouterr().err == "okey-vision check: hata: PATH verilmeli (--help'e bak).\n"


# ------------------------------------------------------------------ the app's page ---

def test_the_app_page_checks_many_uploads(monkeypatch):
    pytest.importorskip("streamlit")
    import app_fakes as fake
    from streamlit.testing.v1 import AppTest

    from okey_vision.app.state import KEY

    monkeypatch.setenv("OKEY_VISION_APP_READER", "app_fakes:reader")
    fake.set_reads(reads_of(WIN15, apart="r3"))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["page"] = "check"
    at.run()
    assert not at.exception
    data = rack_jpeg()
    uploader = next(u for u in at.file_uploader if u.key == "check_uploads")
    uploader.set_value([("one.jpg", data, "image/jpeg"), ("two.jpg", data + b"2", "image/jpeg"),
                        ("broken.jpg", b"\xff\xd8junk", "image/jpeg")]).run()
    assert not at.exception
    checks = at.session_state[KEY].checks
    assert [c.verdict.kind for c in checks.checked] == ["yes", "yes", "error"]
    body = " ".join(m.value for m in at.markdown)
    assert "3 photos: 2 can be declared, 0 cannot, 1 not checked." in body
    assert body.count('class="okc-verdict') == 3
    at.radio(key="lang_pick").set_value("tr").run()
    body = " ".join(m.value for m in at.markdown)
    assert "3 fotoğraf: 2 el biter, 0 el bitmez, 1 kontrol edilemedi." in body and ">Biter<" in body


def page_text(at, options: bool = True) -> str:
    """What the page says: its texts without style sheets and HTML tags (a data URI is no word), and
    (``options``) the pickers' options."""
    raw = " ".join([str(m.value) for m in at.markdown] + [str(c.value) for c in at.caption]
                   + [str(e.value) for e in at.warning] + [str(e.value) for e in at.info])
    raw += " ".join(str(getattr(w, a, "") or "") for kind in ("selectbox", "toggle", "radio", "button")
                    for w in getattr(at, kind) for a in ("label", "placeholder", "help"))
    raw += " ".join(str(getattr(u, "label", "")) for u in at.file_uploader)
    raw += " ".join(str(o) for s in at.selectbox for o in (s.options or [])) if options else ""
    return re.sub(r"<[^>]+>", " ", re.sub(r"<style>.*?</style>", " ", raw, flags=re.S))


def test_the_page_box_fills_only_the_photos_that_show_none_and_the_card_says_so(monkeypatch):
    # Choosing k2 in "Indicator for the photos that show none" re-judged a photo showing its own.
    pytest.importorskip("streamlit")
    import app_fakes as fake
    from browser.turkish import english_words, latin_tiles
    from streamlit.testing.v1 import AppTest

    from okey_vision.app.state import KEY
    from okey_vision.report import html as report

    drawn_in = []  # the language each photo's labels are drawn in (Turkish: chips, never "r3 ind")
    draw = report.figure
    monkeypatch.setattr(report, "figure", lambda photo, v, lang=Lang.EN: drawn_in.append(lang) or draw(photo, v, lang))
    monkeypatch.setenv("OKEY_VISION_APP_READER", "app_fakes:reader")
    fake.set_reads(reads_of(WIN15, apart="r3", low=(4,)))
    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=120)
    at.query_params["page"] = "check"
    at.run()
    at.selectbox(key="check_indicator").set_value("k2").run()
    uploader = next(u for u in at.file_uploader if u.key == "check_uploads")
    uploader.set_value([("shows.jpg", rack_jpeg(), "image/jpeg")]).run()
    assert not at.exception
    (shows,) = at.session_state[KEY].checks.checked
    assert shows.verdict.indicator == parse_tile("r3") and shows.verdict.source is Source.PHOTO
    body = page_text(at, options=False)
    assert "Indicator r3 (beside the rack in the photo), okey r4." in body and "k2" not in body
    fake.set_reads(reads_of(WIN15, low=(4,)))  # a photo that shows none: the box's k2 fills it
    uploader = next(u for u in at.file_uploader if u.key == "check_uploads")
    uploader.set_value([("none.jpg", rack_jpeg() + b"x", "image/jpeg")]).run()
    (blank,) = at.session_state[KEY].checks.checked
    assert blank.verdict.indicator == parse_tile("k2") and blank.verdict.source is Source.OPTION
    assert "Indicator k2 (chosen for the photos that show none), okey k3." in page_text(at)
    at.radio(key="lang_pick").set_value("tr").run()  # the Turkish page: no English word, no Latin tile
    assert not at.exception
    body = page_text(at)
    assert "Gösterge siyah 2 (gösterge göstermeyen fotoğraflar için seçilen), okey siyah 3." in body
    assert "#5 sarı 6" in body  # the read to check by eye, in words
    assert not english_words(body) and not latin_tiles(body), (english_words(body), latin_tiles(body))
    assert drawn_in == [Lang.EN, Lang.EN, Lang.TR]  # the photo drawn again with Turkish labels


@needs_reader
def test_the_check_in_turkish_says_no_english_word_and_no_latin_tile(folder, tmp_path, capsys):
    from browser.turkish import english_words, latin_tiles

    report = tmp_path / "rapor.html"
    main(["check", str(folder), "--lang", "tr", "--html", str(report)])
    out, err = capsys.readouterr()
    said = re.sub(re.escape(str(folder)) + r"/\S+", " ", out + err).replace(str(report), " ")
    assert "BİTER" in said and "Gösterge " in said
    assert not english_words(said) and not latin_tiles(said), (english_words(said), latin_tiles(said))
    page = report.read_text(encoding="utf-8")
    page = re.sub(r"<[^>]+>", " ", re.sub(r"<style>.*?</style>", " ", page, flags=re.S))
    page = re.sub(re.escape(str(folder)) + r"/\S+", " ", page)
    assert not english_words(page) and not latin_tiles(page), (english_words(page), latin_tiles(page))


# ------------------------------------------------ the report and the folder under faults ---

def test_every_entry_of_the_folder_gets_a_row_loops_included(tmp_path, capsys):
    from okey_vision.eval.faults import hostile_folder

    names = hostile_folder(tmp_path / "hands")
    code, got, err = run_check(capsys, str(tmp_path / "hands"))
    assert code == 1 and "Traceback" not in err
    assert [Path(r["photo"]).name for r in got] == names
    said = {Path(r["photo"]).name: r["error"] for r in got}
    assert all(said.values()) and "symbolic links" in said["loop-a.jpg"] and "symbolic links" in said["self.jpg"]
    assert "named pipe" in said["pipe.jpg"] and "folder" in said["shots.jpg"] and "no such file" in said["dangling.jpg"]


def test_a_name_that_is_not_utf8_is_shown_with_replacement_characters(tmp_path, capsys):
    import os

    folder = tmp_path / "hands"
    folder.mkdir()
    name = os.fsdecode(b"rack-\xff\xfe.jpg")
    (folder / name).write_bytes(b"\xff\xd8junk")
    report = tmp_path / "report.html"
    code, (row,), err = run_check(capsys, str(folder), "--html", str(report))
    assert code == 1 and "Traceback" not in err
    assert Path(row["photo"]).name == "rack-\ufffd\ufffd.jpg" and row["error"].startswith(row["photo"])
    page = report.read_text(encoding="utf-8")
    assert "rack-\ufffd\ufffd.jpg" in page
    code = main(["check", str(folder)])
    out = capsys.readouterr().out
    assert code == 1 and out.startswith(f"{folder}/rack-\ufffd\ufffd.jpg: NOT CHECKED. the photo is damaged")


@pytest.mark.parametrize("where", ["folder", "read-only"])
def test_the_report_place_is_checked_before_any_photo_is_read(tmp_path, capsys, monkeypatch, where):
    from okey_vision.check import photos
    from okey_vision.eval.faults import hostile_folder, read_only

    hostile_folder(tmp_path / "hands")
    monkeypatch.setattr(photos, "check_all", lambda *a, **k: pytest.fail("a photo was read"))
    out = tmp_path / "out"
    out.mkdir()
    with read_only(out) if where == "read-only" else _as_is(out) as folder:
        if folder is None:
            pytest.skip("no read-only folder can be made here")
        target = folder / "report.html"
        if where == "folder":
            target.mkdir()
        code = main(["check", str(tmp_path / "hands"), "--html", str(target)])
        err = capsys.readouterr().err
        assert code == 2 and len(err.strip().splitlines()) == 1 and "Traceback" not in err
        assert f"cannot write {target}" in err and "no photo was read" in err


class _as_is:
    def __init__(self, folder: Path):
        self.folder = folder

    def __enter__(self) -> Path:
        return self.folder

    def __exit__(self, *exc: object) -> None:
        return None


def test_a_report_that_cannot_be_written_leaves_the_earlier_one_whole(tmp_path, capsys):
    from okey_vision.eval.faults import full_disk, hostile_folder

    hostile_folder(tmp_path / "hands")
    out = tmp_path / "out"
    out.mkdir()
    (out / "report.html").write_text("<p>the earlier report</p>", encoding="utf-8")
    with full_disk(out, free=0) as folder:
        if folder is None:
            pytest.skip("no small disk can be mounted here")
        code = main(["check", str(tmp_path / "hands"), "--html", str(folder / "report.html"), "--json"])
        captured = capsys.readouterr()
        assert code == 2 and len(captured.out.splitlines()) == 7  # every row printed, then the report failed
        assert len(captured.err.strip().splitlines()) == 1
        assert f"cannot write {folder / 'report.html'}: the disk is full" in captured.err
        assert (folder / "report.html").read_text(encoding="utf-8") == "<p>the earlier report</p>"
        assert sorted(p.name for p in folder.iterdir()) == [".filler", "report.html"]  # no temporary file left


def test_rows_that_cannot_be_printed_are_one_sentence(tmp_path):
    import subprocess
    import sys

    from okey_vision.eval.faults import hostile_folder

    hostile_folder(tmp_path / "hands")
    with open("/dev/full", "w") as full:  # every write: no space left on device
        done = subprocess.run([sys.executable, "-m", "okey_vision.cli", "check", str(tmp_path / "hands"), "--json"],
                              stdout=full, stderr=subprocess.PIPE, text=True, timeout=300, cwd=ROOT)
    assert done.returncode == 2 and "Traceback" not in done.stderr
    assert done.stderr.strip() == ("okey-vision check: error: cannot write the standard output: the disk is full; "
                                   "the rows after it were not printed.")
