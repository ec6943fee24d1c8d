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


@pytest.mark.parametrize("reads, racks", [
    (row((0, 11, 22)), [0]),
    (row((0, 11)), []),                                   # two tiles: no rack
    (row((0, 11, 22), conf=0.6), []),                     # a row of unsure reads: digits on a test pattern
    (row((0, 11, 22), conf=0.6) + row((0, 11, 22), r=1, y=20), [1]),
    ([TileRead((0, 0, 10, 14), parse_tile("r1"), 1.0, row=APART)], []),
])
def test_rack_rows(reads, racks) -> None:
    assert rack_rows(reads) == racks
    found = on_racks(reads)
    assert found.rack == bool(racks)
    if racks:
        assert found.reads == tuple(reads)
    else:  # no rack: tiles only if one is sure, none apart
        sure = any(r.confidence >= 0.995 for r in reads)
        assert [r.box for r in found.reads] == [r.box for r in reads if sure and r.confidence >= 0.8]
        assert all(r.row != APART for r in found.reads)


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
