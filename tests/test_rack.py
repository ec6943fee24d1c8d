"""The rack stage: no tiles without a rack; a lone tile only beside one."""

from __future__ import annotations

from pathlib import Path

import pytest

from okey_vision.tiles import parse_tile
from okey_vision.vision.config import RackConfig
from okey_vision.vision.rack import on_racks, rack_rows
from okey_vision.vision.reads import APART, TileRead

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")

SAMPLE = Path(__file__).resolve().parents[1] / "okey_vision" / "data" / "sample_rack.jpg"


def row(xs, conf=0.99, r=0, y=0.0):
    return [TileRead((x, y, x + 10, y + 14), parse_tile("b3"), conf, row=r) for x in xs]


@pytest.mark.parametrize("reads, colour, racks", [
    (row((0, 11, 22)), True, [0]),
    (row((0, 11, 22)), False, [0]),                       # a greyscale photo of a rack read surely
    (row((0, 11)), True, []),                             # two tiles: no rack
    (row((0, 11), conf=0.6), True, []),                   # two unsure tiles: no rack either
    (row((0, 11, 22), conf=0.6), False, []),              # a grey frame's row of unsure reads: a test pattern
    (row((0, 11, 22), conf=0.6), True, [0]),              # a row of unsure reads in colour: a rack seen badly
    (row((0, 11, 22), conf=0.6) + row((0, 11, 22), r=1, y=20), False, [1]),
    ([TileRead((0, 0, 10, 14), parse_tile("r1"), 1.0, row=APART)], True, []),
])
def test_rack_rows(reads, colour, racks) -> None:
    assert rack_rows(reads, colour=colour) == racks
    found = on_racks(reads, colour=colour)
    assert found.rack == bool(racks)
    if racks:
        assert found.reads == tuple(reads)
    else:  # no rack: tiles only if one is sure, none apart
        sure = any(r.confidence >= 0.995 for r in reads)
        assert [r.box for r in found.reads] == [r.box for r in reads if sure and r.confidence >= 0.8]
        assert all(r.row != APART for r in found.reads)


def test_unsure_rows_count_only_when_asked() -> None:
    unsure = row((0, 11, 22, 33), conf=0.6)
    assert rack_rows(unsure, RackConfig(unsure_row_tiles=0)) == []
    assert rack_rows(unsure, RackConfig(unsure_row_tiles=5)) == []
    assert rack_rows(unsure, RackConfig(unsure_row_tiles=4)) == [0]


def test_a_lone_tile_is_kept_only_beside_a_rack() -> None:
    rack = row((0, 11, 22, 33))
    lone = [TileRead((x, 30, x + 10, 44), parse_tile("k2"), 0.99, row=APART) for x in (10, 120)]
    kept = on_racks(rack + lone)
    assert [r.box[0] for r in kept.reads if r.row == APART] == [10]   # 2 heights off the rack; 6 is too far
    assert len(on_racks(rack + lone, RackConfig(beside=10.0)).reads) == 6


@pytest.fixture(scope="module")
def reader():
    pytest.importorskip("onnxruntime")
    from okey_vision.vision.reader import RackReader

    return RackReader(calibration=False)


@pytest.mark.parametrize("name", ["fake camera 7", "face 2", "table felt 2", "table wood 3"])
def test_a_picture_with_no_rack_reads_no_tile(reader, name) -> None:
    from okey_vision.eval.norack import no_rack_pictures

    pic = next(p for p in no_rack_pictures() if p.name == name)
    off = reader.with_calibration(False)
    off.config = off.config.with_settings(["rack.min_row_tiles=0", "rack.row_confidence=0.0", "rack.beside=1e9"])
    assert off.read(pic.image), "the gate is not what kept this picture empty"
    reads, trace = reader.read_traced(pic.image)
    assert reads == [] and not trace.rack


def test_a_lone_tile_with_no_rack_is_no_indicator(reader) -> None:
    from okey_vision.eval.norack import lone_tile_pictures

    for pic in lone_tile_pictures():
        reads, trace = reader.read_traced(pic.image)
        assert not trace.rack and "r7" in [r.name for r in reads] and not [r for r in reads if r.row == APART]
        assert max(r.confidence for r in reads) >= RackConfig().alone_confidence


def test_the_indicator_beside_the_rack_is_kept_a_tile_far_from_it_is_not(reader) -> None:
    img = cv2.imread(str(SAMPLE))
    reads = reader.read(img)
    (ind,) = [r for r in reads if r.row == APART]
    x1, y1, x2, y2 = (round(v) for v in ind.box)
    patch = img[y1 - 4:y2 + 4, x1 - 4:x2 + 4]
    far = img.copy()
    h, w = patch.shape[:2]
    far[-h - 10:-10, -w - 10:-10] = patch       # the same tile again, in the photo's far corner
    seen, trace = reader.read_traced(far)
    assert trace.rack and [r.name for r in seen if r.row == APART] == [ind.name]
    (kept,) = [r for r in seen if r.row == APART]
    assert np.hypot(*np.subtract(kept.center, ind.center)) < 0.5 * (y2 - y1)   # the one beside the rack
    off = reader.with_calibration(False)
    off.config = off.config.with_settings(["rack.beside=1e9"])
    assert [r.name for r in off.read(far) if r.row == APART] == [ind.name] * 2   # the far one is read, then dropped


def test_a_rack_read_unsurely_gives_its_reads_flagged(reader) -> None:
    from okey_vision.synth import load_config
    from okey_vision.synth.render import render_scene
    from okey_vision.vision.rack import number_confidence

    cfg = load_config(Path(__file__).resolve().parents[1] / "datasets" / "synth-player.yaml").replace(
        long_side=(1024, 1024), aspects=(4 / 3,))
    scene = render_scene(5, cfg)                # a player's rack turned about 54 degrees, its tiles leaning
    reads, trace = reader.read_traced(scene.image)
    assert trace.rack and len(reads) >= 0.75 * len(scene.tiles)
    assert float(np.median([number_confidence(r) for r in reads])) < RackConfig().row_confidence  # unsure
    assert all(r.flagged for r in reads if r.confidence < 0.9)
    truth = sorted(t.tile.name for t in scene.tiles)
    right = sum(min(truth.count(n), [r.name for r in reads].count(n)) for n in set(truth))
    assert right >= len(truth) // 3              # reads of the tiles there (7 of 16 right), not noise
    grey = cv2.cvtColor(cv2.cvtColor(scene.image, cv2.COLOR_BGR2GRAY), cv2.COLOR_GRAY2BGR)
    reads, trace = reader.read_traced(grey)      # the same rows in a grey frame: as a test pattern's digits
    assert reads == [] and not trace.rack
