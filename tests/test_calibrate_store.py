"""The player's store and calibration under faults. Nothing the
player stored is lost (the corrections are counted before and after, apart
from the store's code: ``faults.corrections``), nothing is left
half-written, and every failure is one sentence naming the path, exit 2 (or
a read with the shipped models and one sentence about the file set aside)."""

from __future__ import annotations

import errno
import json
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path

import pytest

pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

import numpy as np

from okey_vision.calibrate.guard import CACHE, kept_scores
from okey_vision.calibrate.learn import learn
from okey_vision.calibrate.store import ASIDE, CROPS, INDEX, Kept, Store, crop_of
from okey_vision.cli import main
from okey_vision.errors import FileError
from okey_vision.eval.faults import corrections, full_disk, read_only, truncated_npz
from okey_vision.vision.calibration import (
    DATA_ENV,
    FILE,
    Calibration,
    CalibrationError,
    DamagedCalibration,
    calibration_path,
)
from okey_vision.vision.reader import RackReader

ROOT = Path(__file__).resolve().parents[1]
SAMPLE = ROOT / "okey_vision" / "data" / "sample_rack.jpg"
SAMPLE_HAND = json.loads(SAMPLE.with_suffix(".json").read_text())["hand"]


@pytest.fixture(scope="module")
def shipped():
    return RackReader(calibration=False).load()


@pytest.fixture(scope="module")
def sample_crops(shipped):
    """(place, tile, crop) of the sample's 15 rack tiles."""
    import cv2

    image = cv2.imread(str(SAMPLE))
    rack = [r for r in shipped.read(image) if r.row >= 0]
    assert [r.name for r in rack] == SAMPLE_HAND
    return [(i, r.name, crop_of(image, r.cut)) for i, r in enumerate(rack)]


@pytest.fixture()
def data(tmp_path, monkeypatch):
    folder = tmp_path / "data"
    monkeypatch.setenv(DATA_ENV, str(folder))
    return folder


@pytest.fixture()
def stored(data, sample_crops):
    """A data folder holding the sample's 15 corrections."""
    assert Store(data).add("aaaa", sample_crops, "test") == 15
    return data


def cli(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def one_error(err: str, *needles: str) -> None:
    """One line on stderr, a sentence naming what it says."""
    lines = err.strip().splitlines()
    assert len(lines) == 1 and lines[0].endswith("."), err
    assert "Traceback" not in err
    for needle in needles:
        assert needle in lines[0], (needle, err)


def crop_files(folder: Path) -> list[str]:
    return sorted(p.name for p in (folder / CROPS).iterdir()) if (folder / CROPS).is_dir() else []


# -- the index: torn, damaged, huge ---------------------------------------------------------

def test_a_torn_last_line_is_set_aside_and_never_glued_to_the_next(stored, sample_crops):
    index = stored / INDEX
    whole = index.read_bytes()
    index.write_bytes(whole[:-40])  # a crash in the middle of the last line
    assert corrections(stored) == 14
    assert Store(stored).add("bbbb", sample_crops, "test") == 15
    assert corrections(stored) == 29  # 14 kept + 15 new: the new first line was not glued to the torn one
    assert all(Kept.parse(line) for line in index.read_bytes().splitlines())
    assert (stored / ASIDE).read_bytes() == whole.splitlines()[-1][:-39] + b"\n"  # the torn line, as it was


def test_a_whole_last_line_without_its_end_is_kept(stored, sample_crops):
    index = stored / INDEX
    index.write_bytes(index.read_bytes()[:-1])  # only the newline lost (an editor)
    Store(stored).add("bbbb", sample_crops, "test")
    assert corrections(stored) == 30 and not (stored / ASIDE).exists()


def test_one_bad_byte_does_not_lock_the_store(stored, capsys, monkeypatch):
    index = stored / INDEX
    lines = index.read_bytes().splitlines(keepends=True)
    lines[3] = lines[3].replace(b'"cli"', b'"c\xffli"').replace(b'"test"', b'"te\xffst"')
    index.write_bytes(b"".join(lines))
    assert corrections(stored) == 14
    monkeypatch.setenv("OKEY_VISION_REAL_PIXELS", str(stored / "none"))  # the guard, if asked, judges on the sample
    code, out, err = cli(capsys, "calibrate", "fit")
    assert code == 0 and err == "" and out.startswith(f"{index}: damaged lines")
    assert corrections(stored) == 14
    index.write_bytes(index.read_bytes() + lines[3])  # the bad line again
    code, out, err = cli(capsys, "calibrate", "show")
    assert code == 0 and err == ""
    assert f"{index}: damaged lines (cut short or not readable) set aside in {ASIDE}: 1; stored tiles kept: 14." \
           in out and "14 tiles of 1 photo stored" in out  # "1 photo", never "1 photos"
    assert corrections(stored) == 14 and (stored / ASIDE).read_bytes().count(b"\xff") == 2
    assert b"\xff" not in index.read_bytes()
    index.write_bytes(index.read_bytes() + b"\xfe\xfe\n")
    code, out, err = cli(capsys, "calibrate", "reset", "--forget")
    assert code == 0 and "Stored tiles deleted: 14." in out and err == ""
    assert not index.exists() and not (stored / CROPS).exists() and not (stored / ASIDE).exists()


def test_damaged_lines_are_skipped_where_they_cannot_be_set_aside(stored):
    index = stored / INDEX
    index.write_bytes(index.read_bytes() + b"{not json\n")
    with read_only(stored) as folder:
        if folder is None:
            pytest.skip("no read-only folder can be made here")
        notes = Store(folder).tidy()
        assert [k for k, _ in notes] == ["lines_skipped"] and notes[0][1]["n"] == 1
        assert len(Store(folder).kept()) == 15


def test_a_huge_index_is_read_a_line_at_a_time_and_tidied(stored):
    index = stored / INDEX
    lines = index.read_bytes()
    with open(index, "ab") as fh:
        for _ in range(12_000_000 // len(lines)):  # 12 MB: the same 15 tiles corrected again and again
            fh.write(lines)
    assert index.stat().st_size > 12_000_000
    tracemalloc.start()
    try:
        found = Store(stored).scan()
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(found.kept) == 15 and found.replaced > 90_000 and found.untidy and not found.cut
    assert peak < 4_000_000  # the memory is the tiles kept, not the file
    assert Store(stored).tidy() == []  # nothing damaged to say
    assert index.read_bytes().count(b"\n") == 15 and corrections(stored) == 15


def test_an_index_past_its_bounds_is_read_in_part_and_left_as_it_is(stored, monkeypatch, capsys):
    from okey_vision.calibrate import store as store_module

    index = stored / INDEX
    first = index.read_bytes()
    more = b"".join(Kept(f"r{1 + i % 13}", f"{i:016x}", i % 15, f"crops/{i:016x}.png").line() for i in range(2000))
    index.write_bytes(first + more)
    size = index.stat().st_size
    monkeypatch.setattr(store_module, "MAX_INDEX_BYTES", 100_000)
    found = Store(stored).scan()
    assert found.cut == size and 0 < len(found.kept) < 1000  # the newest 100 kB only
    code, out, err = cli(capsys, "calibrate", "show")
    assert code == 0 and err == "" and f"{index} is longer than a store of corrections is read for" in out
    assert index.read_bytes() == first + more  # not rewritten: nothing lost
    monkeypatch.setattr(store_module, "MAX_INDEX_BYTES", 10_000_000)
    monkeypatch.setattr(store_module, "MAX_TILES", 100)
    found = Store(stored).scan()
    assert len(found.kept) == 100 and found.over == 1915
    assert Store(stored).tidy() == [("too_many_tiles", {"index": index, "tiles": 100})]
    assert index.read_bytes() == first + more


def test_an_edited_line_that_names_a_file_outside_the_store_is_not_a_correction():
    good = Kept("r4", "aaaa", 0, "crops/aaaa-00-r4.png").line()
    assert Kept.parse(good.rstrip(b"\n")) is not None
    for bad in (good.replace(b"crops/aaaa", b"../../etc/passwd"), good.replace(b'"r4"', b'"x9"'),
                good.replace(b'"place": 0', b'"place": true'), b"[1, 2]", b'{"tile": "r4"}'):
        assert Kept.parse(bad.rstrip(b"\n")) is None, bad


# -- the calibration: damaged, set aside, the shipped reads ----------------------------------

def nan_shift(path: Path) -> None:
    cal = Calibration(None, None, (0.0,) * 6, 15, 1, "now", "key", colour_shift=np.array([np.nan, 1, 0, 0, 0]))
    with np.errstate(all="ignore"):
        cal.save(path)


def edited_meta(path: Path) -> None:
    import io
    import zipfile

    Calibration(None, None, (0.0,) * 6, 15, 1, "now", "key", colour_shift=np.ones(5)).save(path)
    buf = io.BytesIO()
    np.save(buf, np.array('{"format": 1, "light": "bright", "crops": "x"}'))
    with zipfile.ZipFile(path, "a") as z:
        z.writestr("meta.npy", buf.getvalue())  # a second meta.npy: numpy reads the last one written


def wrong_classes(path: Path) -> None:
    from okey_vision.vision.calibration import INK, Expert

    expert = Expert(INK, ("r", "y"), np.zeros((2, 3)), np.ones(2, np.int64), np.ones(3), 1.0, -4.5, 4.0)
    Calibration(expert, None, (0.0,) * 6, 15, 1, "now", "key").save(path)


def bad_report(path: Path) -> None:
    Calibration(None, None, (0.0,) * 6, 15, 1, "now", "key", colour_shift=np.ones(5),
                report={"guard": {"judge": "J", "tiles": "many"}, "strength": float("nan")}).save(path)


@pytest.mark.filterwarnings("ignore:Duplicate name")  # edited_meta writes a second meta.npy on purpose
@pytest.mark.parametrize("damage", [truncated_npz, nan_shift, edited_meta, wrong_classes, bad_report])
def test_a_damaged_calibration_is_set_aside_and_the_shipped_reader_reads(damage, shipped, data):
    import cv2

    data.mkdir()
    path = calibration_path(data)
    damage(path)
    with pytest.raises(DamagedCalibration):
        Calibration.load(path)
    watching = shipped.with_calibration(path)
    image = cv2.imread(str(SAMPLE))
    assert [r.to_dict() for r in watching.read(image)] == [r.to_dict() for r in shipped.read(image)]
    assert watching.calibration is None and "it was set aside as calibration.npz.damaged-" in \
        watching.calibration_problem
    assert not path.exists() and len(list(data.glob(f"{FILE}.damaged-*"))) == 1  # kept, never deleted


def test_the_issues_damaged_calibration_read_on_the_command_line(tmp_path):
    truncated_npz(tmp_path / FILE)
    out = subprocess.run([sys.executable, "-m", "okey_vision.cli", "read", str(SAMPLE), "--json"],
                         capture_output=True, text=True, timeout=300, cwd=ROOT,
                         env={**os.environ, DATA_ENV: str(tmp_path)})
    assert out.returncode == 0 and json.loads(out.stdout)["hand"] == SAMPLE_HAND
    one_error(out.stderr, f"{tmp_path / FILE}: not a calibration file", "set aside as calibration.npz.damaged-")


def test_show_sets_a_damaged_calibration_aside_and_says_so(stored, capsys):
    truncated_npz(stored / FILE)
    code, out, err = cli(capsys, "calibrate", "show")
    assert code == 0 and "Traceback" not in err
    assert "A calibration is there but not used:" in out and "set aside as calibration.npz.damaged-" in out
    assert corrections(stored) == 15


def test_another_format_is_not_set_aside(tmp_path):
    path = tmp_path / FILE
    np.savez(path, meta=np.array(json.dumps({"format": 99})))
    with pytest.raises(CalibrationError, match="another format") as got:
        Calibration.load(path)
    assert not isinstance(got.value, DamagedCalibration) and path.exists()


# -- the guard's kept scores --------------------------------------------------------------------

@pytest.mark.parametrize("content", [b"[]", b'{"k": ["a", "b"]}', b'{"k": [9, 3]}', b"\xff\xfe", b"{"])
def test_a_broken_guard_cache_is_set_aside_and_measured_again(tmp_path, content):
    cache = tmp_path / CACHE
    cache.write_bytes(content)
    notes: list = []
    assert kept_scores(cache, notes) == {}
    assert [k for k, _ in notes] == ["cache_set_aside"] and not cache.exists()
    assert len(list(tmp_path.glob(f"{CACHE}.damaged-*"))) == 1


def test_fit_goes_on_past_a_broken_guard_cache(shipped, stored, monkeypatch):
    from okey_vision.calibrate import guard
    from okey_vision.calibrate import learn as learn_module

    (stored / CACHE).write_text("[1, 2, 3]")
    cal = Calibration(None, None, (-9.0,) * 3 + (9.0,) * 3, 15, 1, "now", shipped.models_key,
                      colour_shift=np.zeros(5) + np.array([0.0, 0.01, 0.0, 0.0, 0.0]))
    monkeypatch.setattr(learn_module, "fit", lambda *a, **k: cal)
    monkeypatch.setattr(learn_module, "guard", lambda r, c, f: guard.guard(r, c, f, guard.sample_cases()))
    learned = learn(shipped, stored)
    text = " ".join(learned.lines())
    assert "The guard's kept scores" in text and "were damaged" in text
    assert learned.verdict is not None and isinstance(json.loads((stored / CACHE).read_text()), dict)


# -- write failures: one sentence naming the path, exit 2, nothing half-written ----------------

def test_a_read_only_store_is_one_sentence_and_keeps_everything(stored, sample_crops, capsys):
    Calibration(None, None, (0.0,) * 6, 15, 1, "now", "key", colour_shift=np.ones(5)).save(stored / FILE)
    before = crop_files(stored)
    with read_only(stored) as folder:
        if folder is None:
            pytest.skip("no read-only folder can be made here")
        for args in (["calibrate", "add", str(SAMPLE), "--tiles", " ".join(SAMPLE_HAND)],
                     ["calibrate", "reset"], ["calibrate", "reset", "--forget"]):
            code, out, err = cli(capsys, *args)
            assert code == 2 and out == "", args
            one_error(err, f"{folder}", "cannot ")
            assert corrections(folder) == 15 and crop_files(folder) == before and (folder / FILE).exists()
        with pytest.raises(FileError, match="the calibration was not saved"):
            Calibration(None, None, (0.0,) * 6).save(folder / FILE)


def test_a_full_disk_leaves_no_orphan_crop_and_the_index_as_it_was(stored, sample_crops):
    before = (stored / INDEX).read_bytes()
    with full_disk(stored, free=0) as folder:
        if folder is None:
            pytest.skip("no small disk can be mounted here")
        with pytest.raises(FileError, match="the disk is full; nothing was stored") as got:
            Store(folder).add("bbbb", sample_crops, "test")
        assert str(folder) in str(got.value)
        assert (folder / INDEX).read_bytes() == before and corrections(folder) == 15
        assert not any(n.startswith("bbbb") or n.endswith(".tmp") for n in crop_files(folder))


def test_an_index_write_cut_short_is_taken_back(stored, sample_crops, monkeypatch):
    before = (stored / INDEX).read_bytes()
    real_write = os.write

    def short_then_full(fd, data):  # the index's block: half of it written, then the disk is full
        if len(data) > 1000:
            real_write(fd, bytes(data[: len(data) // 2]))
            raise OSError(errno.ENOSPC, "No space left on device")
        return real_write(fd, data)

    monkeypatch.setattr(os, "write", short_then_full)
    with pytest.raises(FileError, match=f"cannot write {stored / INDEX}: the disk is full; nothing was stored"):
        Store(stored).add("bbbb", sample_crops, "test")
    monkeypatch.undo()
    assert (stored / INDEX).read_bytes() == before
    assert not any(n.startswith("bbbb") or n.endswith(".tmp") for n in crop_files(stored))


@pytest.mark.parametrize("action", [["add", str(SAMPLE), "--tiles", " ".join(SAMPLE_HAND)], ["fit"], ["show"],
                                    ["reset"], ["reset", "--forget"]])
def test_a_data_folder_that_is_a_file_is_one_sentence(tmp_path, monkeypatch, capsys, action):
    afile = tmp_path / "notes.txt"
    afile.write_text("mine")
    monkeypatch.setenv(DATA_ENV, str(afile))
    code, out, err = cli(capsys, "calibrate", *action)
    assert code == 2 and out == ""
    one_error(err, str(afile), "it is a file, not a folder")
    assert afile.read_text() == "mine"


def test_an_index_that_is_a_folder_is_one_sentence(data, capsys):
    (data / INDEX).mkdir(parents=True)
    code, out, err = cli(capsys, "calibrate", "add", str(SAMPLE), "--tiles", " ".join(SAMPLE_HAND))
    assert code == 2 and out == ""
    one_error(err, f"cannot write {data / INDEX}: it is a folder, not a file; nothing was stored")
    assert crop_files(data) == []
    code, out, err = cli(capsys, "calibrate", "reset", "--forget")
    assert code == 2
    one_error(err, str(data / INDEX), "it is a folder")


def _add_many(folder: str, worker: int) -> None:
    crops = [(place, "r5", np.full((64, 64, 3), 10 * worker + place, np.uint8)) for place in range(15)]
    for n in range(3):
        Store(folder).add(f"w{worker}-{n}", crops, "test")


def test_writers_at_once_keep_every_line_whole(tmp_path):
    import multiprocessing

    folder = tmp_path / "data"
    with multiprocessing.get_context("fork").Pool(4) as pool:
        pool.starmap(_add_many, [(str(folder), w) for w in range(4)])
    lines = (folder / INDEX).read_bytes().splitlines()
    assert len(lines) == 4 * 3 * 15 and all(Kept.parse(line) for line in lines)
    assert corrections(folder) == 180 and len(crop_files(folder)) == 4 * 3 * 15
    assert not (folder / ASIDE).exists()
