"""The player's own tile set, learned from their corrections.

The store keeps only labelled crops, and only what aligns; a fit on a set
whose blue is drawn dark reads its blues blue; ``reset`` gives back the
shipped reads exactly; with the app's switch off nothing is kept.
"""

from __future__ import annotations

import json
import os
from dataclasses import replace
from pathlib import Path

import pytest

pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

import numpy as np

from okey_vision.calibrate.align import align, rack_pairs
from okey_vision.calibrate.fit import fit
from okey_vision.calibrate.learn import learn, reset, show, store_pairs
from okey_vision.calibrate.store import Store, crop_of
from okey_vision.calibrate.text import SENTENCES
from okey_vision.cli import main
from okey_vision.lang import Lang
from okey_vision.vision.calibration import DATA_ENV, Calibration, calibration_path
from okey_vision.vision.reader import RackReader

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "okey_vision" / "data" / "sample_rack.jpg"
SAMPLE_HAND = json.loads(SAMPLE.with_suffix(".json").read_text())["hand"]


@pytest.fixture()
def data(tmp_path, monkeypatch):
    """A data folder of the test's own (``$OKEY_VISION_DATA``)."""
    folder = tmp_path / "data"
    monkeypatch.setenv(DATA_ENV, str(folder))
    return folder


@pytest.fixture(scope="module")
def shipped():
    """The shipped reader (no calibration), models loaded once."""
    return RackReader(calibration=False).load()


@pytest.fixture(scope="module")
def sample_image():
    import cv2

    return cv2.imread(str(SAMPLE))


def run_cli(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


# -- calibrate add: alignment ---------------------------------------------------------------

def test_alignment_is_a_diff_of_tile_names():
    given = "r1 r2 r3 b7 b8 b9 k1".split()
    # one read missed (r3), one misread (b8 read k8), one extra read (y5) on the rack
    reads = "r1 r2 b7 k8 b9 y5 k1".split()
    pairs = align(given, reads)
    assert [(given[i], reads[j]) for i, j in pairs] == [
        ("r1", "r1"), ("r2", "r2"), ("b7", "b7"), ("b8", "k8"), ("b9", "b9"), ("k1", "k1")]


def test_add_refuses_a_list_that_cannot_be_aligned(capsys, data):
    code, out, err = run_cli(capsys, "calibrate", "add", str(SAMPLE), "--tiles", "y1 y2 y3 k9")
    assert code == 2 and out == ""
    assert "cannot be aligned" in err and "nothing was stored" in err and err.strip().endswith(".")
    assert not (data / "corrections.jsonl").exists() and not (data / "crops").exists()


def test_add_stores_every_aligned_pair(capsys, data):
    code, out, _ = run_cli(capsys, "calibrate", "add", str(SAMPLE), "--tiles", " ".join(SAMPLE_HAND))
    assert code == 0 and "15 of 15 rack reads stored" in out
    kept = Store(data).kept()
    assert sorted(k.place for k in kept) == list(range(15))
    assert [k.tile for k in sorted(kept, key=lambda k: k.place)] == SAMPLE_HAND
    assert all((data / k.file).exists() for k in kept)  # crops only: no photo is kept
    assert not list(data.rglob("*.jpg"))


def test_one_missed_read_still_stores_the_others_with_their_right_labels(shipped, sample_image, tmp_path):
    reads = shipped.read(sample_image)
    rack = [r for r in reads if r.row >= 0]
    assert [r.name for r in rack] == SAMPLE_HAND
    missed = rack[5]  # the reader misses the sixth tile (r10)
    store = Store(tmp_path)
    added = store_pairs(store, sample_image, "p", [r for r in reads if r is not missed], SAMPLE_HAND, "test")
    assert not added.refused and added.stored == 14
    kept = sorted(store.kept(), key=lambda k: k.place)
    assert [k.tile for k in kept] == SAMPLE_HAND[:5] + SAMPLE_HAND[6:]
    # each crop is the tile it is labelled: its crop is the crop of that tile's read
    others = [r for r in rack if r is not missed]
    for k in kept:
        import cv2

        stored = cv2.imread(str(tmp_path / k.file))
        assert np.array_equal(stored, crop_of(sample_image, others[k.place].cut))


# -- calibrate fit: a set whose blue is drawn dark -------------------------------------------

NAVY = dict(pinned_set="navy-orange", p_flat=0.0, p_typical_hand=1.0, effects=False, long_side=(800, 800),
            max_tilt=15.0, p_other_rack=0.0, p_hand=0.0, p_objects=0.0)


def blue_as_black(reader, scene) -> tuple[int, int]:
    """(blue tiles read black, blue tiles read blue) on a rendered rack."""
    from okey_vision.eval.match import match

    truth = [(t.tile, t.box) for t in scene.tiles if t.on_rack]
    reads = reader.read(scene.image)
    pairs = [(truth[a][0], reads[b].tile) for a, b in match(truth, reads) if truth[a][0].color == "b"]
    return sum(1 for t, r in pairs if r.color == "k"), sum(1 for t, r in pairs if r == t)


def test_fit_on_a_dark_blue_set_reads_its_blues_blue(shipped):
    from okey_vision.eval.racks import rack_truth
    from okey_vision.synth import SynthConfig
    from okey_vision.synth.render import render_scene

    cfg = SynthConfig(**NAVY)
    crops, tiles = [], []
    for seed in (0, 1):  # two photos of the set, their tiles given
        scene = render_scene(seed, cfg)
        pairs, _ = rack_pairs(shipped.read(scene.image), rack_truth(scene))
        crops += [crop_of(scene.image, r.cut) for _, r, _ in pairs]
        tiles += [t for _, _, t in pairs]
    cal = fit(shipped, crops, tiles)
    assert cal.active and cal.report["colour"]["shown"]["b"] >= 3
    calibrated = shipped.with_calibration(cal)
    for seed in (11, 13):  # other photos of the same set
        scene = render_scene(seed, cfg)
        before, after = blue_as_black(shipped, scene), blue_as_black(calibrated, scene)
        assert before[0] >= 2, before  # the shipped reader reads this set's navy as black ...
        assert after[0] == 0 and after[1] >= before[1] + before[0], (before, after)  # ... the calibration blue


def test_a_calibration_is_saved_and_loaded_whole(tmp_path):
    from okey_vision.vision.calibration import INK, Expert

    means = np.full((5, 3), np.nan)
    means[2] = [-0.9, 0.1, -0.3]
    expert = Expert(INK, ("r", "y", "b", "k", "fj"), means, np.array([0, 0, 3, 0, 0]), np.full(3, 0.05), 1.0,
                    -4.5, 4.0)
    cal = Calibration(expert, None, (0.0, 0.1, 0.2, 0.5, 0.6, 0.7), 3, 1, "now", "key",
                      colour_shift=np.array([0.0, 1.0, 1.5, -1.5, -1.0]), report={"colour": {"crops": 3}})
    back = Calibration.load(cal.save(tmp_path / "c.npz"))
    assert back.light == cal.light and back.models == "key" and back.report == cal.report
    assert np.array_equal(back.colour_shift, cal.colour_shift) and back.number_shift is None
    assert np.allclose(back.colour.means, means, equal_nan=True) and back.colour.weight == 1.0
    (tmp_path / "bad.npz").write_bytes(b"not a calibration")
    from okey_vision.vision.calibration import CalibrationError

    with pytest.raises(CalibrationError, match="not a calibration file"):
        Calibration.load(tmp_path / "bad.npz")


# -- the guard, reset, show -----------------------------------------------------------------

def shifted_calibration(reader: RackReader, shift) -> Calibration:
    """A calibration that only shifts the colour network's classes (as learned in any light)."""
    return Calibration(None, None, (-9.0,) * 3 + (9.0,) * 3, 15, 1, "now", reader.models_key,
                       colour_shift=np.asarray(shift, np.float64),
                       report={"colour": {"crops": 15, "errors_before": 1, "errors_after": 0, "used": True}})


def test_the_guard_refuses_a_calibration_that_reads_worse(shipped, sample_image, data, monkeypatch):
    from okey_vision.calibrate import guard
    from okey_vision.calibrate import learn as learn_module

    Store(data).add("p", [(0, "r4", crop_of(sample_image, shipped.read(sample_image)[0].cut))], "test")
    bad = shifted_calibration(shipped, [-40.0, 40.0, 0.0, 0.0, 0.0])  # every red read yellow, at any pull tried
    monkeypatch.setattr(learn_module, "fit", lambda *a, **k: bad)
    monkeypatch.setattr(learn_module, "guard", lambda r, c, f: guard.guard(r, c, f, guard.sample_cases()))
    learned = learn(shipped, data)
    assert learned.verdict is not None and not learned.verdict.passed
    assert learned.saved is None and not calibration_path(data).exists()
    text = " ".join(learned.lines())
    assert "Not used: on the sample rack photo" in text and "the reader stays as it was." in text


def test_the_guard_falls_back_to_a_weaker_pull_that_reads_as_well(shipped, sample_image, data, monkeypatch):
    from okey_vision.calibrate import guard
    from okey_vision.calibrate import learn as learn_module

    Store(data).add("p", [(0, "r4", crop_of(sample_image, shipped.read(sample_image)[0].cut))], "test")
    judge = guard.sample_cases()
    strong = shifted_calibration(shipped, [-4.0, 4.0, 0.0, 0.0, 0.0])
    full = guard.guard(shipped, strong, data, judge)
    weakest = guard.guard(shipped, strong.weakened(learn_module.STRENGTHS[-1]), data, judge)
    assert not full.passed and weakest.passed  # the case the fallback is for
    monkeypatch.setattr(learn_module, "fit", lambda *a, **k: strong)
    monkeypatch.setattr(learn_module, "guard", lambda r, c, f: guard.guard(r, c, f, judge))
    learned = learn(shipped, data)
    assert learned.saved is not None and learned.verdict is not None and learned.verdict.passed
    kept = Calibration.load(learned.saved)
    strength = kept.report["strength"]
    assert strength in learn_module.STRENGTHS[1:]
    np.testing.assert_allclose(kept.colour_shift, strong.colour_shift * strength)
    assert kept.report["full_guard"]["calibrated"] == full.calibrated
    text = " ".join(learned.lines())
    assert f"it is used at {round(100 * strength)} % of its pull." in text
    assert f"it is used at {round(100 * strength)} % of its pull." in " ".join(show(data))


def test_reset_gives_back_the_shipped_reads_exactly(shipped, sample_image, data):
    def reads(reader):
        return [r.to_dict() for r in reader.read(sample_image)]

    before = reads(shipped)
    watching = shipped.with_calibration(True)  # the player's file, looked at before each read
    assert watching.calibration is None and reads(watching) == before
    shifted_calibration(shipped, [0.0, 2.0, 0.0, 0.0, 0.0]).save(calibration_path())
    assert watching.calibration is not None and reads(watching) != before  # reds lean yellow now
    assert reset() == ["The calibration was removed: the reader reads as shipped."]
    assert watching.calibration is None and reads(watching) == before
    assert reset() == ["No calibration is there: the reader reads as shipped."]


def test_show_says_what_was_learned_from_how_many_tiles(shipped, data):
    assert show(data) == [f"0 tiles of 0 photos stored in {data}.",
                          "No calibration is there: the reader reads as shipped."]
    cal = replace(shifted_calibration(shipped, [0.0, 1.0, 0.0, 0.0, 0.0]),
                  report={"colour": {"crops": 15, "errors_before": 2, "errors_after": 0, "used": True,
                                     "shown": {"r": 10, "b": 5}},
                          "guard": {"judge": "J", "calibrated": 9, "shipped": 9, "tiles": 10}})
    cal.save(calibration_path(data))
    lines = show(data)
    assert "Calibration of now: learned from 15 tiles of 1 photo." in lines  # "1 photo"
    assert "Colour: the shipped reader misread 2 of your 15 tiles, the calibration 0." in lines
    assert "Checked on J: 9 of 10 tiles read right with it, 9 without it." in lines


def inactive(report: dict, crops: int = 1, photos: int = 1) -> Calibration:
    """A fit that learned nothing (no expert, no shift), with ``report``."""
    return Calibration(None, None, (0.0,) * 6, crops, photos, "now", "key", report=report)


def test_a_fit_on_one_misread_tile_says_why_nothing_was_learned_and_what_would_help(shipped):
    # "Learned from 1 tiles ... misread 1 ... Nothing was learned: the shipped reader already reads
    # your stored tiles as you gave them" contradicted itself. One dark-blue tile read black, given as blue:
    from okey_vision.calibrate.learn import Learned
    from okey_vision.eval.racks import rack_truth
    from okey_vision.synth import SynthConfig
    from okey_vision.synth.render import render_scene

    scene = render_scene(1, SynthConfig(**NAVY))  # its b5 and b4 are read black
    pairs, _ = rack_pairs(shipped.read(scene.image), rack_truth(scene))
    misread = [(r, t) for _, r, t in pairs if t.startswith("b") and r.tile.color == "k"]
    assert misread, "the shipped reader reads this set's navy as black"
    # the tile whose stored crop (cut from its reported quad) the shipped reader still reads black
    fits = (fit(shipped, [crop_of(scene.image, read.cut)], [tile], ["p"]) for read, tile in misread)
    cal = next((c for c in fits if c.report["colour"]["misread"] == {"b": 1}), None)
    assert cal is not None and not cal.active
    lines = Learned(cal, seconds=0.2).lines()
    assert lines[0] == "Looked at 1 tile of 1 photo in 0 s."
    assert "Colour: the shipped reader misread 1 of your 1 tile; nothing could be learned from them yet." in lines
    assert lines[-1] == ("Nothing was learned yet: a colour or a number is learned from 2 tiles of it at least, "
                         "and the misread ones had fewer; 1 more blue tile would help. The reader stays as it was.")
    assert not any("Learned from" in line or "already reads" in line for line in lines)
    tr = Learned(cal, seconds=0.2).lines(Lang.TR)
    assert tr[0] == "1 fotoğraftaki 1 taş 0 saniyede incelendi." and "1 mavi taş daha işe yarar" in tr[-1]


@pytest.mark.parametrize("report,says", [
    ({"colour": {"crops": 3, "errors_before": 0, "shown": {"r": 3}, "misread": {}}},
     "Nothing to learn: the shipped reader made no misread on the 3 tiles you gave; it stays as it was."),
    ({"colour": {"crops": 4, "errors_before": 1, "shown": {"r": 3, "y": 1}, "misread": {"y": 1}},
      "number": {"crops": 4, "errors_before": 1, "shown": {"7": 1, "3": 3}, "misread": {"7": 1}}},
     "2 more tiles numbered 7 and 1 more yellow tile would help"),
    ({"colour": {"crops": 6, "errors_before": 2, "shown": {"r": 4, "y": 2}, "misread": {"y": 2}}},
     "learning from the misread tiles read no more of them right; a photo or two more of your set (about 15 "
     "tiles) would help."),
])
def test_why_nothing_was_learned(report, says):
    from okey_vision.calibrate.learn import why_nothing

    assert says in why_nothing(inactive(report, crops=max(r["crops"] for r in report.values())))


def test_a_calibration_for_other_models_is_not_used(shipped, data):
    cal = replace(shifted_calibration(shipped, [0.0, 1.0, 0.0, 0.0, 0.0]), models="0123456789abcdef")
    cal.save(calibration_path(data))
    watching = shipped.with_calibration(calibration_path(data))
    assert watching.calibration is None and "fitted for other models" in watching.calibration_problem


def test_every_calibration_sentence_in_both_languages_with_its_full_stop():
    import re

    for key, (en, tr) in SENTENCES.items():
        assert en.strip() and tr.strip(), key
        assert sorted(re.findall(r"{(\w+)}", en)) == sorted(re.findall(r"{(\w+)}", tr)), key
        if not key.startswith("label."):
            assert en.endswith(".") and tr.endswith("."), key


# -- the app: nothing kept with the switch off ----------------------------------------------

def app_with_photo(sample_image, shipped):
    from okey_vision.app.state import AppState, Entry
    from okey_vision.report.photo import read_photo

    app = AppState()
    app.start_photo("k", "sample")
    got = read_photo(sample_image, shipped.read)
    app.photo = replace(app.photo, image=sample_image, reads=got)
    app.set_entries(Entry.read(r, i) for i, r in enumerate(got.rack))
    return app


def test_nothing_is_kept_with_the_switch_off(shipped, sample_image, tmp_path):
    from okey_vision.app.learning import keep
    from okey_vision.app.state import Entry

    app = app_with_photo(sample_image, shipped)
    app.correct(3, "y1")  # the player corrects a tile ...
    app.confirm_all()
    app.type_hand([Entry.typed(t) for t in SAMPLE_HAND])  # ... and types the hand
    store = Store(tmp_path)
    assert not app.learning and keep(app, store) == 0
    assert not (tmp_path / "corrections.jsonl").exists() and not (tmp_path / "crops").exists()
    assert not os.listdir(tmp_path)


def test_confirmed_corrected_and_typed_tiles_are_kept_with_the_switch_on(shipped, sample_image, tmp_path):
    from okey_vision.app.learning import keep
    from okey_vision.app.state import Entry

    app = app_with_photo(sample_image, shipped)
    app.learning = True
    store = Store(tmp_path)
    assert keep(app, store) == 0  # nothing confirmed yet: reads are not labels
    app.correct(3, "y1")
    assert keep(app, store) == 1 and keep(app, store) == 0  # kept once
    assert [(k.place, k.tile, k.source) for k in store.kept()] == [(3, "y1", "app")]
    typed = SAMPLE_HAND[:3] + SAMPLE_HAND[4:]  # the player leaves out the fourth tile: the rest still align
    app.type_hand([Entry.typed(t) for t in typed])
    assert keep(app, store) == 14
    kept = {k.place: k.tile for k in store.kept()}
    assert kept == {**{i: t for i, t in enumerate(SAMPLE_HAND) if i != 3}, 3: "y1"}
