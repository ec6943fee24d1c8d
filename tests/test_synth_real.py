"""The rummikub-real converter: class mapping, boxes, held-out split, writers."""

from __future__ import annotations

from pathlib import Path

import pytest

np = pytest.importorskip("numpy")
pytest.importorskip("cv2")
yaml = pytest.importorskip("yaml")

ROOT = Path(__file__).resolve().parents[2] / "shared" / "datasets" / "rummikub-real"
if not (ROOT / "classes.yaml").exists():
    pytest.skip("../shared/datasets/rummikub-real is absent", allow_module_level=True)

from okey_vision.synth.real import (  # noqa: E402
    is_real_val,
    load_real,
    real_class_map,
    split_real,
    write_real_crops,
    write_real_detect,
)
from okey_vision.tiles import Tile, parse_tile  # noqa: E402


@pytest.fixture(scope="module")
def images():
    return load_real(ROOT)


def test_class_map() -> None:
    cmap = real_class_map(ROOT)
    assert cmap[32] == Tile("y", 2)          # orange_2
    assert cmap[0] == parse_tile("k1")       # black_1
    assert cmap[17] == parse_tile("b13")     # blue_13
    assert cmap[52] == parse_tile("r9")      # red_9
    assert cmap[26] is None                  # joker: kept apart, not a false joker
    assert not any(t is not None and t.is_false_joker for t in cmap.values())
    assert len(cmap) == 53


def test_boxes_are_polygon_extents(images) -> None:
    assert len(images) == 179
    im = images[0]
    line = (ROOT / "labels" / (im.stem + ".txt")).read_text().splitlines()[0].split()
    xy = np.array([float(v) for v in line[1:]]).reshape(-1, 2) * [im.width, im.height]
    lab = im.labels[0]
    assert lab.tile == real_class_map(ROOT)[int(line[0])]
    assert lab.box == pytest.approx((xy[:, 0].min(), xy[:, 1].min(), xy[:, 0].max(), xy[:, 1].max()))
    assert (im.width, im.height) == (1000, 750)
    for im in images:
        for lab in im.labels:
            x1, y1, x2, y2 = lab.box
            assert 0 <= x1 < x2 <= im.width + 1 and 0 <= y1 < y2 <= im.height + 1


def test_split_stable_and_disjoint(images) -> None:
    train, val = split_real(images, 0.2, seed=0)
    _, again_val = split_real(list(reversed(images)), 0.2, seed=0)
    assert {i.stem for i in val} == {i.stem for i in again_val}
    assert not {i.stem for i in train} & {i.stem for i in val}
    assert len(train) + len(val) == len(images)
    assert 0.1 < len(val) / len(images) < 0.3
    assert is_real_val(val[0].stem, 0.2, 0)


def test_writers(tmp_path, images) -> None:
    data = write_real_detect(tmp_path / "det", ROOT)
    assert yaml.safe_load(data.read_text())["names"] == {0: "tile"}
    labs = list((tmp_path / "det").glob("labels/*/*.txt"))
    assert len(labs) == len(images)
    n_lines = sum(len(p.read_text().splitlines()) for p in labs)
    assert n_lines == sum(len(i.labels) for i in images)
    assert all(line.split()[0] == "0" for p in labs[:20] for line in p.read_text().splitlines())
    out = write_real_crops(tmp_path / "crops", ROOT, label="color", size=32)
    assert sorted(p.name for p in (out / "train").iterdir()) == ["b", "fj", "k", "r", "y"]
    assert not list((out / "train" / "fj").iterdir())   # jokers never become fj
    assert list((out / "train" / "y").iterdir())


def test_real_detection_photos_repeat_in_training_only(tmp_path, images) -> None:
    """``repeat`` writes each training photo that many times, with its labels,
    and each validation photo once."""
    write_real_detect(tmp_path / "det", ROOT, classes="obb", repeat=3)
    train, val = split_real(images, 0.2, seed=0)
    assert len(list((tmp_path / "det").glob("images/train/*.jpg"))) == 3 * len(train)
    assert len(list((tmp_path / "det").glob("images/val/*.jpg"))) == len(val)
    stem = f"real_{train[0].stem}"
    first = (tmp_path / "det" / "labels" / "train" / f"{stem}.txt").read_text()
    assert first == (tmp_path / "det" / "labels" / "train" / f"{stem}_r2.txt").read_text()
    assert len(first.splitlines()) == len(train[0].labels)
    with pytest.raises(ValueError, match="repeat"):
        write_real_detect(tmp_path / "bad", ROOT, repeat=0)
