"""The Streamlit app through Streamlit's ``AppTest`` (no browser).

Most tests run the app with a stand-in reader
(``OKEY_VISION_APP_READER=app_fakes:reader``) that returns the
true reads of a rendered rack, so the UI flow is checked without model
weights; the tests marked ``reader`` use the trained reader in ``models/``
and are skipped when its weights are missing.
"""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("streamlit")
cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")

import app_fakes as fake  # noqa: E402
from streamlit.testing.v1 import AppTest  # noqa: E402

from okey_vision.app.state import KEY, AppState  # noqa: E402
from okey_vision.report.analysis import analyse  # noqa: E402
from okey_vision.synth.sample import sample_bytes, sample_truth  # noqa: E402
from okey_vision.tiles import parse_tile  # noqa: E402
from okey_vision.vision.reads import APART, TileRead  # noqa: E402

ROOT = Path(__file__).resolve().parents[1]
APP = str(ROOT / "app.py")
FAKE = "app_fakes:reader"
MODELS = ROOT / "models"
HAVE_MODELS = all(any((MODELS / f"{m}{ext}").exists() for ext in (".pt", ".onnx"))
                  for m in ("detector", "number", "color"))
needs_reader = pytest.mark.skipif(not HAVE_MODELS, reason="reader weights not in models/")


def start(monkeypatch, reader: str | None = FAKE, reads=None, **query: str) -> AppTest:
    """The app after its first run (the default sample photo), opened with
    ``query`` in its URL (``lang="tr"``, ``live="1"``)."""
    if reader is None:
        monkeypatch.delenv("OKEY_VISION_APP_READER", raising=False)
    else:
        monkeypatch.setenv("OKEY_VISION_APP_READER", reader)
        fake.set_reads(fake.reads_from_truth(sample_truth()) if reads is None else reads)
    at = AppTest.from_file(APP, default_timeout=120)
    for k, v in query.items():
        at.query_params[k] = v
    at.run()
    assert_clean(at)
    return at


def assert_clean(at: AppTest) -> None:
    """No exception element and no error box on the page."""
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def app_state(at: AppTest) -> AppState:
    """The session's one typed state."""
    return at.session_state[KEY]


def headline(at: AppTest) -> str:
    """The advice's first line (a success box when declaring, else info)."""
    boxes = [e.value for e in at.success] + [e.value for e in at.info]
    found = [b for b in boxes if b.startswith(("Discard", "Declare", "Draw", "Take", "Set the"))]
    return found[0] if found else ""


def hand_in_pickers(at: AppTest) -> list[str]:
    """The tile pickers' values, in order."""
    pickers = sorted((int(s.key.rsplit("_", 1)[1]), str(s.value)) for s in at.selectbox
                     if s.key and s.key.startswith("tile_"))
    return [value for _, value in pickers]


def picker(at: AppTest, i: int):
    return next(s for s in at.selectbox if s.key and s.key.startswith("tile_") and s.key.endswith(f"_{i}"))


def all_text(at: AppTest) -> str:
    parts = []
    for kind in ("markdown", "caption", "info", "success", "warning", "subheader"):
        parts += [str(e.value) for e in getattr(at, kind)]
    return "\n".join(parts)


def render_rack():
    """A clean rendered rack photo (JPEG bytes) and its scene: 15 rack tiles
    with two false jokers, the indicator y6 apart."""
    from okey_vision.synth.sample import render_test_rack

    return render_test_rack()


def scene_reads(scene) -> list[TileRead]:
    return [TileRead(t.box, t.tile, 0.99, ((t.tile, 0.99),), row=APART if not t.on_rack else t.row)
            for t in scene.tiles if t.on_rack or t.is_indicator]


# ------------------------------------------------------------ the sample ---

def test_sample_photo_is_shipped_and_recorded():
    data = sample_bytes()
    assert data[:2] == b"\xff\xd8" and len(data) < 300_000
    truth = sample_truth()
    assert len(truth["hand"]) == 15 and truth["indicator"] == "r3"
    img = cv2.imdecode(np.frombuffer(data, np.uint8), cv2.IMREAD_COLOR)
    assert [img.shape[1], img.shape[0]] == truth["size"]


def test_default_flow_shows_reads_and_advice(monkeypatch):
    at = start(monkeypatch)
    truth = sample_truth()
    assert hand_in_pickers(at) == truth["hand"]
    assert at.selectbox(key="ind_pick").value == "r3"
    expected = analyse(truth["hand"], "r3")
    assert headline(at) == expected.headline()
    # the photo with boxes, shown tappable or as a plain image
    overlay = app_state(at).overlay.image
    assert overlay.ndim == 3 and max(overlay.shape[:2]) <= 1024
    assert len(at.image) >= 1 or "Tap a tile on the photo to correct it." in all_text(at)
    assert "okey r4" in all_text(at)
    assert "| # | discard | distance | outs |" in all_text(at)


def test_default_flow_without_reader_still_advises(monkeypatch):
    monkeypatch.setenv("OKEY_VISION_APP_READER", "okey_vision.app.no_such_module:reader")
    at = AppTest.from_file(APP, default_timeout=120)
    at.run()
    assert_clean(at)
    assert any("not available" in w.value for w in at.warning)
    assert hand_in_pickers(at) == sample_truth()["hand"]
    assert headline(at).startswith("Discard")
    # the sample's equal discards: the loose b1 is thrown, and the page says why
    assert "b1 is a loose tile (in no meld), so throw it." in all_text(at)


@needs_reader
def test_default_flow_with_the_trained_reader(monkeypatch):
    at = start(monkeypatch, reader=None)
    truth = sample_truth()
    got = hand_in_pickers(at)
    right = sum(a == b for a, b in zip(got, truth["hand"], strict=False))  # the lengths are checked next
    assert len(got) == 15 and right >= 14, (got, truth["hand"])
    assert headline(at)


# ------------------------------------------------------------ uploads ---

def test_upload_rendered_rack_gives_its_reads_and_advice(monkeypatch):
    at = start(monkeypatch)
    data, scene = render_rack()
    fake.set_reads(scene_reads(scene))
    at.file_uploader[0].set_value(("rack.jpg", data, "image/jpeg")).run()
    assert_clean(at)
    hand = [t.name for t in scene.hand]
    assert hand_in_pickers(at) == hand
    assert at.selectbox(key="ind_pick").value == scene.indicator.name
    assert headline(at) == analyse(hand, scene.indicator.name).headline()


@needs_reader
def test_upload_rendered_rack_with_the_trained_reader(monkeypatch):
    """A clean render of a finished hand (seed 26: no false jokers, the
    indicator r13 apart): the reads and the advice to declare."""
    from okey_vision.synth.sample import render_test_rack

    at = start(monkeypatch, reader=None)
    data, scene = render_test_rack(26)
    at.file_uploader[0].set_value(("rack.jpg", data, "image/jpeg")).run()
    assert_clean(at)
    hand = [t.name for t in scene.hand]
    got = hand_in_pickers(at)
    right = sum(a == b for a, b in zip(got, hand, strict=False))  # the lengths are checked next
    assert len(got) == len(hand) and right >= len(hand) - 1, (got, hand)
    assert at.selectbox(key="ind_pick").value == scene.indicator.name
    if got == hand:
        assert headline(at) == analyse(hand, scene.indicator.name).headline()
        assert headline(at).startswith("Declare")
    else:
        assert headline(at)


@pytest.mark.parametrize("name,data,mime,says", [
    ("empty.jpg", b"", "image/jpeg", "empty"),
    ("notes.png", b"these are my notes, not a photo\n", "image/png", "not an image file"),
    ("broken.jpg", b"\xff\xd8\xff\xe0" + b"\x00\x10JFIF" + bytes(range(256)) * 4, "image/jpeg", "damaged"),
])
def test_bad_uploads_show_a_plain_message(monkeypatch, name, data, mime, says):
    at = start(monkeypatch)
    before = hand_in_pickers(at)
    at.file_uploader[0].set_value((name, data, mime)).run()
    assert_clean(at)
    warnings = " ".join(w.value for w in at.warning)
    assert says in warnings and "Traceback" not in warnings
    # A failed photo clears the previous hand's advice (no stale advice beside the error)
    assert before and hand_in_pickers(at) == [] and not headline(at).startswith(("Discard", "Declare", "Draw"))
    assert "previous hand and its advice were cleared" in warnings


def test_photo_without_tiles_shows_a_plain_message(monkeypatch):
    at = start(monkeypatch)
    fake.set_reads([])
    img = np.full((480, 640, 3), (40, 110, 30), np.uint8)
    _ok, buf = cv2.imencode(".jpg", img)
    at.file_uploader[0].set_value(("table.jpg", buf.tobytes(), "image/jpeg")).run()
    assert_clean(at)
    assert any("No tiles found" in w.value for w in at.warning)


@needs_reader
def test_photo_without_tiles_with_the_trained_reader(monkeypatch):
    at = start(monkeypatch, reader=None)
    rng = np.random.default_rng(0)
    img = (rng.normal(0, 3, (480, 640, 3)) + (40, 110, 30)).clip(0, 255).astype(np.uint8)
    _ok, buf = cv2.imencode(".jpg", img)
    at.file_uploader[0].set_value(("table.jpg", buf.tobytes(), "image/jpeg")).run()
    assert_clean(at)
    assert any("No tiles found" in w.value for w in at.warning)


# ------------------------------------------------------------ corrections ---

def test_correct_a_tile_changes_the_advice(monkeypatch):
    at = start(monkeypatch)
    assert headline(at).startswith("Discard")
    picker(at, 14).set_value("r12").run()   # k6 was really r12
    assert_clean(at)
    assert hand_in_pickers(at)[14] == "r12"
    assert headline(at).startswith("Declare: discard b1")
    assert at.success, "a declarable hand is shown as a success"


def test_remove_and_add_tiles(monkeypatch):
    at = start(monkeypatch)
    picker(at, 3).set_value("(remove)").run()
    assert_clean(at)
    assert len(hand_in_pickers(at)) == 14 and "b1" not in hand_in_pickers(at)
    assert headline(at).startswith("Draw")
    at.selectbox(key=f"add_{app_state(at).version}").set_value("r7").run()
    at.button(key="add_btn").click().run()
    assert_clean(at)
    assert hand_in_pickers(at)[-1] == "r7" and len(hand_in_pickers(at)) == 15


def test_fourteen_tiles_take_or_draw(monkeypatch):
    # The move first and large is the advice's action, as the CLI and the JSON say it:
    # a winning take was headlined "Draw" while the line below said "Take".
    import contextlib
    import io
    import json

    from okey_vision.cli import main

    at = start(monkeypatch)
    picker(at, 14).set_value("(remove)").run()       # drop k6: 14 tiles
    assert headline(at).startswith("Draw from the stock: ")
    hand = hand_in_pickers(at)
    for offered, action in (("r12", "take"), ("k13", "draw")):
        at.selectbox(key="offered").set_value(offered).run()
        assert_clean(at)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            assert main(["advise", "-i", "r3", "--offered", offered, "--json", *hand]) == 0
        data = json.loads(out.getvalue())
        assert data["action"] == action and headline(at) == data["headline"], (headline(at), data)
        assert app_state(at).offered.name == offered
    assert headline(at).startswith("Draw from the stock: ") and "k13 does not bring you closer" in all_text(at)
    at.selectbox(key="offered").set_value("r4").run()   # a third r4: cannot be taken, said; the advice without it
    assert_clean(at)
    assert headline(at).startswith("Draw from the stock: ") and any("Cannot take r4" in w.value for w in at.warning)
    data, scene = render_rack()  # a new photo: the tile offered last turn is gone
    fake.set_reads(scene_reads(scene))
    at.file_uploader[0].set_value(("rack.jpg", data, "image/jpeg")).run()
    assert_clean(at)
    assert app_state(at).offered is None


def test_impossible_hand_is_a_plain_message(monkeypatch):
    at = start(monkeypatch)
    picker(at, 6).set_value("r5").run()     # a third r5
    assert_clean(at)
    assert any("3 copies of 'r5'" in w.value for w in at.warning)


def test_type_the_hand(monkeypatch):
    at = start(monkeypatch)
    at.text_input(key=f"hand_text_{app_state(at).version}").input(
        "r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 r9").run()
    assert_clean(at)
    assert len(hand_in_pickers(at)) == 15
    at.selectbox(key="ind_pick").set_value("b2").run()
    assert headline(at).startswith("Declare: discard r9")
    at.text_input(key=f"hand_text_{app_state(at).version}").input("r1 zz").run()
    assert_clean(at)
    assert any("unknown tile name 'zz'" in w.value for w in at.warning)


# ------------------------------------------------------------ the round ---

def test_indicator_and_seen_tiles_are_kept_across_photos(monkeypatch):
    at = start(monkeypatch)
    at.selectbox(key="ind_pick").set_value("k9").run()
    assert "okey k10" in all_text(at)
    at.text_input(key="seen_text").input("y9 k1").run()
    assert_clean(at)
    assert app_state(at).round.seen_names() == ["y9", "k1"]
    assert "Seen tiles counted: 2." in all_text(at)
    at.button(key="next_turn").click().run()
    at.text_input(key="seen_text").input("b4").run()
    assert "turn 2: b4" in all_text(at)
    # a new photo: the reads change, the indicator set by the player and the seen tiles stay
    data, scene = render_rack()
    fake.set_reads(scene_reads(scene))
    at.file_uploader[0].set_value(("turn2.jpg", data, "image/jpeg")).run()
    assert_clean(at)
    assert hand_in_pickers(at) == [t.name for t in scene.hand]
    assert at.selectbox(key="ind_pick").value == "k9"
    assert app_state(at).round.seen_names() == ["y9", "k1", "b4"]
    at.button(key="new_round").click().run()
    assert app_state(at).round.seen_names() == []


def test_bad_seen_entry_is_a_plain_message(monkeypatch):
    at = start(monkeypatch)
    at.text_input(key="seen_text").input("r5 q7").run()
    assert_clean(at)
    assert any("unknown tile name 'q7'" in w.value for w in at.warning)


def test_score_table_across_rounds(monkeypatch):
    at = start(monkeypatch)
    at.number_input(key="n_players").set_value(3).run()
    at.text_input(key="player_names").input("Ayse, Can, Deniz").run()
    at.button(key="start_scores").click().run()
    assert_clean(at)
    at.selectbox(key="r_winner").set_value("Can").run()
    at.radio(key="r_kind").set_value("seven pairs").run()
    at.button(key="r_add").click().run()
    assert_clean(at)
    assert app_state(at).scores.totals() == [16, 20, 16]
    assert len(at.table) >= 1
    at.button(key="r_undo").click().run()
    assert app_state(at).scores.totals() == [20, 20, 20]


def test_penalty_scheme(monkeypatch):
    at = start(monkeypatch)
    at.radio(key="scheme_pick").set_value("penalty").run()
    at.button(key="start_scores").click().run()
    at.selectbox(key="r_winner").set_value("Player 2").run()
    at.checkbox(key="r_okey").check().run()
    at.button(key="r_add").click().run()
    assert_clean(at)
    assert app_state(at).scores.totals() == [40, 0, 40, 40]


def test_sample_falls_back_to_its_recorded_tiles_when_unread(monkeypatch):
    at = start(monkeypatch, reads=[])
    assert any("No tiles found" in w.value and "recorded tiles" in w.value for w in at.warning)
    assert hand_in_pickers(at) == sample_truth()["hand"]
    assert headline(at).startswith("Discard")


def test_a_crashing_reader_is_a_plain_message(monkeypatch):
    at = start(monkeypatch, reader="app_fakes:failing_reader")
    assert any("The reader failed on this photo (RuntimeError)" in w.value for w in at.warning)
    data, _scene = render_rack()
    at.file_uploader[0].set_value(("rack.jpg", data, "image/jpeg")).run()
    assert_clean(at)
    assert any("reader failed" in w.value for w in at.warning)
    assert not headline(at) and hand_in_pickers(at) == []  # No stale advice after a failed photo


def test_camera_photo(monkeypatch):
    at = start(monkeypatch)
    at.toggle(key="use_camera").set_value(True).run()
    data, scene = render_rack()
    fake.set_reads(scene_reads(scene))
    at.camera_input[0].set_value(("shot.jpg", data, "image/jpeg")).run()
    assert_clean(at)
    assert hand_in_pickers(at) == [t.name for t in scene.hand]
    assert headline(at)


def test_low_confidence_reads_are_marked_and_offer_alternatives(monkeypatch):
    from okey_vision.tiles import parse_tile

    reads = fake.reads_from_truth(sample_truth())
    r = reads[3]  # b1, unsure between b1 and k1
    reads[3] = TileRead(r.box, r.tile, 0.45, ((parse_tile("b1"), 0.45), (parse_tile("k1"), 0.4)), row=r.row)
    at = start(monkeypatch, reads=reads)
    assert any("Check the tiles marked '?'" in i.value and "#4 b1?" in i.value for i in at.info)
    assert picker(at, 3).label == "4 ? maybe k1"
    picker(at, 3).set_value("k1").run()
    assert_clean(at)
    assert picker(at, 3).label == "4"
    assert not any("Check the tiles marked" in i.value for i in at.info)


def test_confirm_unsure_reads(monkeypatch):
    reads = fake.reads_from_truth(sample_truth(), low=(0, 5))
    at = start(monkeypatch, reads=reads)
    assert any("#1 r4?" in i.value for i in at.info)
    at.button(key="confirm_reads").click().run()
    assert_clean(at)
    assert not any("Check the tiles marked" in i.value for i in at.info)
    assert hand_in_pickers(at) == sample_truth()["hand"]
    # A flag is cleared by confirming the tile, the reader's confidence is kept as read
    entries = app_state(at).entries
    assert [e.confirmed for e in entries].count(True) == 2 and [e.confidence for e in entries].count(0.4) == 2


# ------------------------------------------------ state rules ---

def expanded(at: AppTest, label_start: str) -> bool:
    """Whether the expander whose label starts so is open."""
    exp = next(e for e in at.expander if e.label.startswith(label_start))
    return bool(exp.proto.expanded)


def upload(at: AppTest, reads, name: str = "rack.jpg") -> None:
    data, _ = render_rack()
    fake.set_reads(reads)
    at.file_uploader[0].set_value((name, data + name.encode(), "image/jpeg")).run()
    assert_clean(at)


def rack_only(reads):
    return [r for r in reads if r.row != APART]


def test_new_photo_without_indicator_asks_for_it(monkeypatch):
    at = start(monkeypatch)
    assert at.selectbox(key="ind_pick").value == "r3"  # read from the sample photo
    upload(at, rack_only(fake.reads_from_truth(sample_truth())))
    assert app_state(at).round.indicator is None  # not the sample's r3 any more
    assert not headline(at).startswith(("Discard", "Declare", "Draw"))
    assert any("shows no indicator" in i.value for i in at.info)


def test_new_photo_keeps_the_players_indicator_and_says_so(monkeypatch):
    at = start(monkeypatch)
    at.selectbox(key="ind_pick").set_value("k9").run()
    upload(at, rack_only(fake.reads_from_truth(sample_truth())))
    assert at.selectbox(key="ind_pick").value == "k9"
    assert headline(at).startswith(("Discard", "Declare"))
    assert "the advice assumes k9 (set by you)" in all_text(at)


def test_scheme_switch_under_a_table_asks_first(monkeypatch):
    at = start(monkeypatch)
    at.button(key="start_scores").click().run()
    at.selectbox(key="r_winner").set_value("Player 2").run()
    at.button(key="r_add").click().run()
    assert app_state(at).scores.totals() == [18, 20, 18, 18]
    at.radio(key="scheme_pick").set_value("penalty").run()
    assert_clean(at)
    assert any("Start a new table in penalty points scoring?" in w.value for w in at.warning)
    assert app_state(at).scores.scheme == "countdown"  # nothing changed yet
    at.button(key="scheme_keep").click().run()
    assert at.radio(key="scheme_pick").value == "countdown"
    assert app_state(at).scores.totals() == [18, 20, 18, 18]
    at.radio(key="scheme_pick").set_value("penalty").run()
    at.button(key="scheme_new_table").click().run()
    assert_clean(at)
    table = app_state(at).scores
    assert table.scheme == "penalty" and table.totals() == [0, 0, 0, 0] and app_state(at).scheme == "penalty"


def test_correction_panel_stays_open_while_correcting(monkeypatch):
    at = start(monkeypatch, reads=fake.reads_from_truth(sample_truth(), low=(3,)))
    assert expanded(at, "Correct the tiles")
    assert [e.flagged for e in app_state(at).entries].count(True) == 1
    picker(at, 3).set_value("y2").run()  # the player fixes the one flagged tile
    assert_clean(at)
    assert not any(e.flagged for e in app_state(at).entries)
    assert expanded(at, "Correct the tiles")  # still open: the player may fix others


def test_turkish_page(monkeypatch):
    at = start(monkeypatch, lang="tr")
    boxes = [e.value for e in at.success] + [e.value for e in at.info]
    assert any(b.split(":")[0].endswith(" at") or b.startswith(("Bitir", "Çek")) for b in boxes), boxes
    text = all_text(at)
    assert "Gösterge kırmızı 3, okey kırmızı 4" in text and "Atılacak taşlar" in text
    assert "Perler: 15 taşın 13 tanesi perde" in text or "Bunlarla bitir" in text or "Çift yolu" in text
    assert "seri" in " ".join(str(m.value) for m in at.markdown)  # the groups' captions too (a run: seri)
    assert any(e.label.startswith("Taşları düzelt") for e in at.expander)
    assert at.radio(key="lang_pick").value == "tr"
    at.radio(key="lang_pick").set_value("en").run()  # the switch
    assert_clean(at)
    assert headline(at).startswith(("Discard", "Declare")) and "Indicator r3, okey r4" in all_text(at)


def test_live_view_opens_from_the_url(monkeypatch):
    pytest.importorskip("streamlit_webrtc")
    at = start(monkeypatch, live="1")
    assert at.toggle(key="live_on").value is True
    assert "press START" in all_text(at)
    at.radio(key="lang_pick").set_value("tr").run()  # the live page in Turkish
    assert_clean(at)
    assert "BAŞLAT" in assert_turkish(at)


def test_turkish_page_says_a_bad_photo_in_turkish(monkeypatch):
    at = start(monkeypatch, lang="tr")
    at.file_uploader[0].set_value(("bos.jpg", b"", "image/jpeg")).run()
    assert_clean(at)
    warnings = " ".join(w.value for w in at.warning)
    assert "bos.jpg: dosya boş" in warnings and "Önceki el ve önerisi silindi" in warnings


def test_turkish_page_says_a_bad_hand_in_turkish(monkeypatch):
    at = start(monkeypatch, lang="tr")
    at.text_input(key=f"hand_text_{app_state(at).version}").input("r1 zz").run()
    assert_clean(at)
    assert any("bilinmeyen taş adı 'zz'" in w.value for w in at.warning)


# ------------------------------------------------ at the table ---

def page_words(at: AppTest) -> str:
    """Everything a player reads on the page: texts (HTML without its style
    sheets, tooltips included), widget labels, options, placeholders and help."""
    import re

    parts = [all_text(at)] + [str(e.value) for e in at.error] + [e.label for e in at.expander]
    for kind in ("selectbox", "text_input", "button", "toggle", "radio", "number_input", "checkbox",
                 "multiselect"):
        for w in getattr(at, kind):
            parts += [str(getattr(w, a, "") or "") for a in ("label", "placeholder", "help")]
            parts += [str(o) for o in getattr(w, "options", []) or []]
    parts += [str(getattr(e, "label", "")) for e in at.get("file_uploader")]
    return re.sub(r"<style>.*?</style>", "", "\n".join(parts), flags=re.S)


def latin_tiles(text: str) -> list[str]:
    from okey_vision.report.labels import TILE_NOTATION

    return [m.group(0) for m in TILE_NOTATION.finditer(text)]


def assert_turkish(at: AppTest) -> str:
    """The page says no English word of the interface and no tile in the Latin notation;
    its words."""
    import re

    from browser.turkish import english_words

    text = page_words(at) + "\n" + " ".join(str(c) for t in at.table for c in t.value.to_numpy().ravel())
    text += " ".join(str(c) for t in at.table for c in t.value.columns)
    tips = " ".join(re.findall(r'title="([^"]*)"', text))  # the tooltips are read; tags and classes are not
    text = re.sub(r"<[^>]+>", " ", text) + " " + tips
    assert not latin_tiles(text), latin_tiles(text)
    assert not english_words(text), english_words(text)
    return text


def test_turkish_page_never_writes_a_tile_in_latin_notation(monkeypatch):
    reads = fake.reads_from_truth(sample_truth(), low=(3, 15))  # b1 and the indicator r3 to check
    at = start(monkeypatch, reads=reads, lang="tr")
    text = assert_turkish(at)
    assert "Kırmızı 5 at" in text or "Mavi 1 at" in text  # the action line says the tile in words
    assert "kırmızı 5" in text and "seri" in text and "gösterge kırmızı 3?" in text
    assert any(o == "kırmızı 3" for o in at.selectbox(key="ind_pick").options)
    # 14 tiles and an offered tile, seen tiles, a bad hand typed: still in words
    picker(at, 14).set_value("(çıkar)").run()
    at.selectbox(key="offered").set_value("r12").run()
    at.text_input(key="seen_text").input("y9 k1").run()
    assert_clean(at)
    text = assert_turkish(at)
    assert "Kırmızı 12 al" in text or "Ortadan çek" in text
    assert "Yerden çek" not in text  # Yerden is taking the discard; the stock is ortadan
    assert "1. tur: sarı 9, siyah 1" in text
    at.text_input(key=f"hand_text_{app_state(at).version}").input("r5 r5 r5").run()
    text = assert_turkish(at)
    assert "Kırmızı 5 taşından 3 tane var: sette yalnız 2 tane olur." in text
    # an uploaded rack with false jokers and its indicator
    data, scene = render_rack()
    fake.set_reads(scene_reads(scene))
    at.file_uploader[0].set_value(("rack.jpg", data, "image/jpeg")).run()
    assert_clean(at)
    text = assert_turkish(at)
    assert "sahte okey" in text.lower()
    # the scores: a table started and a round recorded, in Turkish
    at.number_input(key="n_players").set_value(3).run()
    at.text_input(key="player_names").input("Ayşe, Emre, Deniz").run()  # ("Can" is a name, and English)
    at.button(key="start_scores").click().run()
    at.selectbox(key="r_winner").set_value("Emre").run()
    at.button(key="r_add").click().run()
    assert_clean(at)
    assert app_state(at).scores.totals() == [18, 20, 18]
    assert_turkish(at)
    # the English page keeps the project's notation
    at.radio(key="lang_pick").set_value("en").run()
    assert latin_tiles(page_words(at))


def test_turkish_photo_labels_are_chips_not_latin_notation():
    from okey_vision.report.labels import Lang, tile_word
    from okey_vision.report.photo import label_forms
    from okey_vision.tiles import TILES

    for tile in TILES:
        for check in (False, True):
            forms = label_forms(tile, check, indicator=True, lang=Lang.TR)
            assert all(chip and not latin_tiles(text) for text, chip in forms), forms
            assert not latin_tiles(tile_word(tile, Lang.TR))


def test_a_failed_photo_leaves_one_message_and_nothing_stale(monkeypatch):
    at = start(monkeypatch)
    assert any("Photo to advice in" in c.value for c in at.caption)
    at.file_uploader[0].set_value(("x.jpg", b"", "image/jpeg")).run()
    assert_clean(at)
    warnings = [w.value for w in at.warning]
    assert warnings == ["x.jpg: the file is empty. The previous hand and its advice were cleared."], warnings
    assert not any("Photo to advice" in c.value for c in at.caption)  # no time left from the previous photo
    assert not any("indicator" in m for m in warnings + [i.value for i in at.info])  # not the wrong fix
    # a photo the reader finds nothing in: one sentence naming the fix
    fake.set_reads([])
    img = np.full((480, 640, 3), (40, 110, 30), np.uint8)
    _ok, buf = cv2.imencode(".jpg", img)
    at.file_uploader[0].set_value(("table.jpg", buf.tobytes(), "image/jpeg")).run()
    warnings = [w.value for w in at.warning]
    assert len(warnings) == 1 and warnings[0].startswith("No tiles found in this photo") and \
        warnings[0].count(". ") == 1 and warnings[0].endswith("were cleared."), warnings
    assert not any("Photo to advice" in c.value for c in at.caption)


def test_every_message_ends_with_its_full_stop():
    from okey_vision.report.labels import TEXT

    labels = {"title", "tagline", "language", "scoring", "scheme_countdown", "scheme_penalty", "camera",
              "camera_help", "upload", "upload_help", "camera_take", "upload_button", "upload_limit",
              "camera_button", "sample", "photo_caption", "photo_section", "they_are_right", "apart_indicator",
              "advice", "source_player", "source_photo", "source_photo_check", "indicator_right",
              "indicator_mark", "throw_this", "take_this", "points", "discards_best_first", "table_head", "table_cols",
              "outs_list", "offered", "offered_placeholder", "correct", "remove", "add_tile", "add_placeholder",
              "add", "clear", "pick_placeholder", "type_hand", "type_help", "maybe", "type_placeholder", "round",
              "indicator_pick",
              "indicator_help", "not_set", "okey_is", "seen_input", "seen_placeholder", "add_seen", "next_turn",
              "undo_seen", "new_round", "turn", "scores", "players", "names", "player_n", "start_table",
              "countdown_rule", "penalty_rule", "won_by", "nobody", "finish", "okey_discard", "twin_shown",
              "record_round", "undo_round", "new_game", "round_col", "result_col", "start_row", "stall",
              "okey_discard_note", "twin_note", "scheme_new_table", "scheme_keep", "meld_run", "meld_set",
              "meld_pair", "left_over", "discard_mark", "tapped_tile", "tapped_indicator", "whole_photo",
              "whole_photo_help", "live", "live_help", "live_start_button", "live_stop_button",
              "live_select_device", "live_hand", "photo_failed", "tile_help", "sample_recorded",
              # 101's labels, options and notes inside a line
              "game_pick", "game_help", "words101", "opened_pick", "opened_no", "opened_melds", "opened_pairs",
              "table101", "table101_input", "table101_placeholder", "table101_photo", "table101_pick", "table101_lay",
              "beat_highest", "highest_opening",
              "scores101_indicator",
              "scores101_left", "scores101_left_placeholder", "scores101_misplays", "scores101_finished",
              "scores101_nobody", "scores101_okey", "scores101_whole", "scores101_finish_note", "scores101_okey_note",
              "scores101_whole_note", "scores101_pairs_note", "scores101_stall"}
    for key, (en, tr) in TEXT.items():
        if key not in labels:
            assert en.endswith((".", "?")) and tr.endswith((".", "?")), key


def test_the_indicator_is_flagged_and_confirmed_like_a_rack_tile(monkeypatch):
    reads = fake.reads_from_truth(sample_truth(), low=(15,))  # the indicator r3, read unsure
    at = start(monkeypatch, reads=reads)
    app = app_state(at)
    assert app.indicator_flagged and not app.flagged
    assert any("indicator r3?" in i.value for i in at.info)  # listed with the tiles to check
    assert any("read from the photo, to check" in c.value for c in at.caption)
    assert expanded(at, "Photo:")
    at.button(key="confirm_indicator").click().run()  # the round panel's "It is right"
    assert_clean(at)
    assert not app_state(at).indicator_flagged and app_state(at).indicator_read.confirmed
    assert not any("indicator r3?" in i.value for i in at.info)
    assert any("okey r4 (read from the photo)." in c.value for c in at.caption)


def test_the_indicators_picker_corrects_it_in_turkish(monkeypatch):
    from okey_vision.app.state import INDICATOR

    reads = fake.reads_from_truth(sample_truth(), low=(15,))
    at = start(monkeypatch, reads=reads, lang="tr")
    assert any("gösterge kırmızı 3?" in i.value for i in at.info)
    picker_ = at.selectbox(key="ind_pick")
    assert "kırmızı 3" in picker_.options and "siyah 10" in picker_.options and "r3" not in picker_.options
    picker_.set_value("k9").run()  # the player picks siyah 9
    assert_clean(at)
    app = app_state(at)
    assert app.round.indicator.name == "k9" and app.indicator_read.tile.name == "k9" and not app.indicator_flagged
    assert "okey siyah 10" in all_text(at)
    # a tap on the indicator opens the same picker beside the photo
    app.tapped = INDICATOR
    at.run()
    tapped = next(s for s in at.selectbox if s.key and s.key.startswith("tap_pick_ind"))
    assert tapped.label == "Dokunduğun gösterge: siyah 9" and "kırmızı 3" in tapped.options
    tapped.set_value("r3").run()
    assert_clean(at)
    assert app_state(at).round.indicator.name == "r3" and app_state(at).tapped is None


# ------------------------------------------------------------ 101 Okey ---

#: A 21-tile 101 hand whose best runs and sets make 87 points (r11 r12 r13,
#: y11 b11 k11, r5 r6 r7; the four 11s as one set make only 44 + 18): no
#: other three tiles form a run or a set, no pair, no okey (indicator b4, okey b5).
HAND_87 = "r5 r6 r7 r11 r12 r13 y11 b11 k11 y2 y5 b3 b6 b9 k1 k4 k7 y8 b13 k9 y1"


def rack_reads(hand: str, indicator: str | None = None, per_row: int = 11) -> list[TileRead]:
    """Reads of a rack holding ``hand`` in rows of ``per_row`` (tiles 30 px
    wide, touching), the indicator apart below it."""
    tiles = []
    for k, name in enumerate(hand.split()):
        row, col = divmod(k, per_row)
        tiles.append({"tile": name, "box": [100 + 31 * col, 100 + 50 * row, 130 + 31 * col, 140 + 50 * row],
                      "row": row})
    if indicator:
        tiles.append({"tile": indicator, "box": [100, 300, 130, 340], "row": APART, "on_rack": False,
                      "is_indicator": True})
    return fake.reads_from_truth({"tiles": tiles})


def test_the_game_switch_turns_the_page_to_101_and_back(monkeypatch):
    at = start(monkeypatch)
    assert headline(at).startswith("Discard")  # classic Okey first
    at.radio(key="game_pick").set_value("101").run()
    assert_clean(at)
    assert app_state(at).game.value == "101" and at.query_params["game"] == "101"
    # the sample's 15 tiles open with 112 points: r4 r5 r6 (r4 the okey), r9 r10 r11, y10-y13 and a set with the okey
    assert at.success[0].value.startswith("Open now with 112 points")
    assert "scheme_pick" not in [r.key for r in at.radio]  # 101 scores its own way
    at.radio(key="game_pick").set_value("okey").run()
    assert_clean(at)
    assert headline(at).startswith("Discard")


def test_a_101_rack_photo_says_how_far_the_opening_is(monkeypatch):
    at = start(monkeypatch, reads=rack_reads(HAND_87, "b4"), game="101")
    assert len(app_state(at).entries) == 21  # a 101 rack keeps all its tiles (a classic one at most 15)
    assert at.info[0].value == "Not yet: 87 of 101."
    at.radio(key="lang_pick").set_value("tr").run()
    assert at.info[0].value == "Henüz değil: 101 puandan 87."
    assert_turkish(at)


def test_a_22_tile_rack_opens_and_says_the_discard(monkeypatch):
    hand = "r3 r4 r5 r6 k7 b7 y7 y10 y11 y12 y13 b1 b1 k9 k10 k11 r13 y13 b13 fj k2 y4"
    at = start(monkeypatch, reads=rack_reads(hand, "k1"), game="101")
    assert len(app_state(at).entries) == 22
    # r3-r6 18, k7 b7 y7 21, y10-y13 46, k9-k11 30, r13 y13 b13 with the okey k2 as k13 52: 167
    head = at.success[0].value
    assert head.startswith("Open now with 167 points") and "Discard y4." in all_text(at)


def test_the_table_melds_typed_steer_the_advice(monkeypatch):
    at = start(monkeypatch, reads=rack_reads("r6 y9 k2 b11 k12", "b4"), game="101")
    at.radio(key="opened_pick").set_value("melds").run()
    at.text_input(key="table_text").input("r3 r4 r5, k7 b7 y7").run()
    assert_clean(at)
    assert app_state(at).table_text == "r3 r4 r5, k7 b7 y7"
    assert at.success[0].value == "Add r6 to r3 r4 r5."
    assert any(e.label == "Melds on the table (2)" for e in at.expander)
    at.text_input(key="table_text").input("r3 r4 r5, k7 b8").run()  # a group that is no meld: said, not used
    assert_clean(at)
    assert any("'k7 b8' is no valid run, set or pair" in w.value for w in at.warning)
    at.text_input(key="table_text").input("r3 r4 r5").run()
    picker = next(m for m in at.multiselect if m.key.startswith("meld_pick_"))
    picker.set_value(["b9#1", "b9#2"]).run()  # a pair from the chips: both copies of one face
    at.button(key="meld_lay").click().run()
    assert_clean(at)
    assert app_state(at).table_text == "r3 r4 r5, b9 b9"
    assert any(e.label == "Melds on the table (2)" for e in at.expander)


def test_the_table_melds_read_from_a_second_photo(monkeypatch):
    at = start(monkeypatch, reads=rack_reads("r6 y9 k2 b11 k12", "b4"), game="101")
    # the table's photo: two melds on a row, half a tile apart, a pair on the next row
    laid = [("r3", 0, 0), ("r4", 31, 0), ("r5", 62, 0), ("k7", 110, 0), ("b7", 141, 0), ("y7", 172, 0),
            ("b9", 0, 60), ("b9", 31, 60)]
    fake.set_reads([TileRead((100 + x, 100 + y, 130 + x, 140 + y), parse_tile(name), 0.99, row=y // 60)
                    for name, x, y in laid])
    data, _scene = render_rack()
    at.file_uploader(key="table_upload").set_value(("table.jpg", data, "image/jpeg")).run()
    assert_clean(at)
    assert app_state(at).table_text == "r3 r4 r5, k7 b7 y7, b9 b9"
    assert "Read from table.jpg: 8 tiles." in all_text(at)
    assert any(e.label == "Melds on the table (3)" for e in at.expander)


def test_101_penalty_scores_across_rounds(monkeypatch):
    at = start(monkeypatch, game="101")
    at.number_input(key="n_players").set_value(3).run()
    at.text_input(key="player_names").input("Ayse, Can, Deniz").run()
    at.button(key="start_scores").click().run()
    assert_clean(at)
    at.selectbox(key="s101_ind").set_value("b2").run()  # okey b3
    at.selectbox(key="s101_open_0").set_value("melds").run()
    at.selectbox(key="s101_open_1").set_value("pairs").run()
    at.text_input(key="s101_left_1").input("r5 b3").run()  # 5 + the okey 101, doubled after pairs
    at.text_input(key="s101_left_2").input("k13").run()  # never opened: 202 whatever it holds
    at.number_input(key="s101_mis_2").set_value(1).run()  # + 101
    at.selectbox(key="s101_fin").set_value("Ayse").run()
    at.checkbox(key="s101_okey").check().run()  # finished with the okey: -202, the others' hands doubled
    at.button(key="s101_add").click().run()
    assert_clean(at)
    assert app_state(at).scores101.totals() == [-202, 2 * 2 * 106, 2 * 202 + 101]
    assert app_state(at).scores101.leader() == "Ayse"
    at.selectbox(key="s101_fin").set_value("Deniz").run()  # Deniz never opened: cannot have finished
    at.button(key="s101_add").click().run()
    assert any("Deniz finished, so opened" in w.value for w in at.warning)
    at.button(key="s101_undo").click().run()
    assert app_state(at).scores101.totals() == [0, 0, 0]


def test_the_turkish_101_page_says_no_english_and_no_latin_tile(monkeypatch):
    at = start(monkeypatch, reads=rack_reads("r6 y9 k2 b11 k12", "b4"), game="101", lang="tr")
    at.radio(key="opened_pick").set_value("melds").run()
    at.text_input(key="table_text").input("kırmızı 3 kırmızı 4 kırmızı 5, siyah 7 mavi 7 sarı 7").run()
    at.number_input(key="n_players").set_value(2).run()
    at.button(key="start_scores").click().run()
    assert_clean(at)
    text = assert_turkish(at)
    assert "Kırmızı 6 taşını kırmızı 3 kırmızı 4 kırmızı 5 perine işle." in text
    for word in ("el açtın", "çift açtın", "işlek taş", "çift açmak", "el açmak"):
        assert word in text


def test_a_101_rack_before_drawing_asks_take_or_draw(monkeypatch):
    at = start(monkeypatch, reads=rack_reads(HAND_87, "b4"), game="101")
    at.selectbox(key="offered").set_value("r9").run()  # r9 b9 k9 (27) lifts the 87 to 114
    assert_clean(at)
    assert at.info[0].value == "Take r9: it opens your hand (114 of 101)."
    at.selectbox(key="offered").set_value("r8").run()  # r5-r8 adds only 8: 95
    assert at.info[0].value.startswith("Draw from the stock: r8 does not open your hand")


def test_the_101_advice_is_drawn_on_the_rack():
    from okey_vision.app.sections.game101 import advice_move
    from okey_vision.synth.sample import HAND_101
    from okey_vision.tiles import parse_hand
    from okey_vision.yuzbir import advise101

    tiles = parse_hand(HAND_101.replace("|", " "))
    move = advice_move(advise101(tiles, "k1"), tiles)
    assert tiles[move.discard].name == "y4"  # the one loose tile thrown (b1 b1 and fj are kept)
    # the five melds of the 167-point opening, each on its own places, side by side where the rack holds them
    assert sorted(len(m) for m in move.melds) == [3, 3, 4, 4, 4] and len({i for m in move.melds for i in m}) == 18
    assert (0, 1, 2, 3) in move.melds and (7, 8, 9, 10) in move.melds


def test_the_101_page_opens_on_its_own_22_tile_sample(monkeypatch):
    from okey_vision.synth.sample import HAND_101, INDICATOR_101, render_101_rack

    data, truth = sample_bytes("101"), sample_truth("101")
    assert data[:2] == b"\xff\xd8" and len(data) < 100_000
    assert truth["hand"] == HAND_101.replace("|", " ").split() and truth["indicator"] == INDICATOR_101
    _again, scene = render_101_rack()  # the shipped truth is the render's own labels
    assert [t["box"] for t in truth["tiles"]] == [[round(v, 1) for v in t.box] for t in scene.tiles]
    at = start(monkeypatch, reads=[], game="101")  # no tile read: the sample's recorded tiles
    assert hand_in_pickers(at) == truth["hand"]
    assert at.success[0].value.startswith("Open now with 167 points")


def test_the_beat_the_highest_house_rule_raises_the_opening(monkeypatch):
    at = start(monkeypatch, reads=rack_reads(HAND_87, "b4"), game="101")
    assert at.info[0].value == "Not yet: 87 of 101."
    at.toggle(key="beat_highest").set_value(True).run()
    at.number_input(key="highest_opening").set_value(116).run()
    assert_clean(at)
    assert at.info[0].value == "Not yet: 87 of 117."
    at.toggle(key="beat_highest").set_value(False).run()  # off: the rule's 101 again
    assert at.info[0].value == "Not yet: 87 of 101."
