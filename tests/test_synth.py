"""Synthetic renderer: labels match pixels, determinism, tile counts, writers."""

from __future__ import annotations

import argparse
import json

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")
yaml = pytest.importorskip("yaml")

from okey_vision.cli import synth as command  # noqa: E402
from okey_vision.synth import (  # noqa: E402
    SynthConfig,
    render_scene,
)
from okey_vision.synth.datasets import CROP_CLASSES, FACE_CLASSES, write_crop_dataset, write_detect_dataset  # noqa: E402
from okey_vision.tiles import check_counts  # noqa: E402

SMALL = SynthConfig(long_side=(480, 640))
CLEAN = SMALL.replace(effects=False, p_hand=0.0)


def _cream(pixels: np.ndarray) -> np.ndarray:
    """Light, low-saturation pixels (tile body) among BGR pixels."""
    hsv = cv2.cvtColor(pixels.reshape(-1, 1, 3), cv2.COLOR_BGR2HSV).reshape(-1, 3)
    return (hsv[:, 2] > 140) & (hsv[:, 1] < 110)


@pytest.mark.parametrize("seed", range(12))
def test_label_boxes_hold_their_tiles(seed: int) -> None:
    scene = render_scene(seed, CLEAN)
    h, w = scene.image.shape[:2]
    assert scene.mask.shape == (h, w)
    for k, t in enumerate(scene.tiles, start=1):
        x1, y1, x2, y2 = t.box
        assert 0 <= x1 < x2 <= w and 0 <= y1 < y2 <= h
        ys, xs = np.nonzero(scene.mask == k)
        assert len(ys) > 0, "a label without drawn pixels"
        # every pixel of the tile lies inside its box (1 px tolerance)
        assert xs.min() + 0.5 >= x1 - 1 and xs.max() + 0.5 <= x2 + 1
        assert ys.min() + 0.5 >= y1 - 1 and ys.max() + 0.5 <= y2 + 1
        # and the box is tight: the tile's pixels reach (nearly) its sides
        if t.visible > 0.95:
            assert xs.min() - x1 < 2.5 and x2 - xs.max() - 1 < 2.5
        # the box holds tile-coloured (cream) pixels
        assert _cream(scene.image[ys, xs]).mean() > 0.4, t
        assert t.visible >= CLEAN.min_visible
    # every drawn face tile is either labelled or marked 255 (cut, covered or tiny)
    assert set(np.unique(scene.mask)) <= set(range(len(scene.tiles) + 1)) | {255}


def test_every_visible_tile_is_labelled() -> None:
    # unlabelled tile pixels (255) belong to tiles mostly hidden or cut by the border
    for seed in range(8):
        scene = render_scene(seed, CLEAN.replace(p_flat=0.5))
        labelled = (scene.mask > 0) & (scene.mask < 255)
        hidden = scene.mask == 255
        assert hidden.sum() <= max(1, labelled.sum()), seed


def test_hand_matches_rack_labels() -> None:
    cfg = CLEAN.replace(p_flat=0.0, tile_height=(30.0, 40.0), max_tilt=5.0, max_roll=2.0,
                        p_hand=0.0)
    seen = 0
    for seed in range(10):
        scene = render_scene(seed, cfg)
        rack = [t for t in scene.tiles if t.on_rack]
        if len(rack) == len(scene.hand):  # the whole rack is in the frame
            seen += 1
            order = sorted(rack, key=lambda t: (t.row, (t.box[0] + t.box[2]) / 2))
            assert [t.tile for t in order] == scene.hand
    assert seen >= 3


def test_same_seed_same_image_and_labels() -> None:
    a, b = render_scene(123, SMALL), render_scene(123, SMALL)
    assert a.image.tobytes() == b.image.tobytes()
    assert [(t.tile, t.box) for t in a.tiles] == [(t.tile, t.box) for t in b.tiles]
    assert a.hand == b.hand and a.indicator == b.indicator
    c = render_scene(124, SMALL)
    assert c.image.shape != a.image.shape or c.image.tobytes() != a.image.tobytes()


def test_counts_never_exceed_the_set() -> None:
    for seed in range(40):
        scene = render_scene(seed, SMALL.replace(p_indicator=1.0, p_discards=1.0))
        check_counts(scene.hand, scene.indicator)
        # every face-up tile in the picture (rack, discards, table) comes from one set
        check_counts([t.tile for t in scene.tiles if not t.is_indicator], scene.indicator)
        assert sum(t.is_false_joker for t in scene.hand) <= 2
        assert scene.indicator is None or not scene.indicator.is_false_joker
        assert all(len(row) <= 15 for row in
                   ([t for t in scene.tiles if t.row == 0], [t for t in scene.tiles if t.row == 1]))


def test_detect_writer(tmp_path) -> None:
    data = write_detect_dataset(tmp_path, 6, seed=3, config=SMALL, val_fraction=0.34)
    meta = yaml.safe_load(data.read_text())
    assert meta["names"] == {0: "tile"} and meta["train"] == "images/train"
    imgs = sorted(tmp_path.glob("images/*/*.jpg"))
    assert len(imgs) == 6
    for img in imgs:
        lab = tmp_path / "labels" / img.parent.name / (img.stem + ".txt")
        for line in lab.read_text().splitlines():
            parts = line.split()
            assert parts[0] == "0" and len(parts) == 5
            vals = [float(v) for v in parts[1:]]
            assert all(0.0 <= v <= 1.0 for v in vals) and vals[2] > 0 and vals[3] > 0
    recs = [json.loads(line) for line in (tmp_path / "hands.jsonl").read_text().splitlines()]
    assert len(recs) == 6 and all("hand" in r and "tiles" in r for r in recs)
    # the faces variant uses TILES indices
    data2 = write_detect_dataset(tmp_path / "f", 2, seed=3, config=SMALL, classes="faces")
    names = yaml.safe_load(data2.read_text())["names"]
    assert [names[i] for i in range(53)] == list(FACE_CLASSES)
    for lab in (tmp_path / "f").glob("labels/*/*.txt"):
        for line in lab.read_text().splitlines():
            assert 0 <= int(line.split()[0]) < 53


@pytest.mark.parametrize("label", ["face", "number", "color"])
def test_crop_writer(tmp_path, label: str) -> None:
    out = write_crop_dataset(tmp_path, 3, seed=1, config=SMALL, label=label, size=32)
    assert sorted(p.name for p in (out / "train").iterdir()) == sorted(CROP_CLASSES[label])
    crops = list(out.glob("*/*/*.png"))
    assert crops
    im = cv2.imread(str(crops[0]))
    assert im.shape == (32, 32, 3)


def test_cli_preview_and_bad_args(tmp_path, capsys) -> None:
    p = argparse.ArgumentParser()
    command.add_arguments(p)
    cfg = tmp_path / "small.yaml"
    cfg.write_text("config:\n  long_side: [320, 480]\n")
    rc = command.run(p.parse_args(["--count", "2", "--out", str(tmp_path / "o"), "--preview",
                                   "--config", str(cfg), "--kind", "scenes"]))
    assert rc == 0 and (tmp_path / "o" / "preview.png").exists()
    assert command.run(p.parse_args(["--count", "2", "--out", str(tmp_path), "--kind", "x"])) == 2
    assert "error" in capsys.readouterr().err


def test_recipes_load() -> None:
    from pathlib import Path

    from okey_vision.synth.config import load_config

    root = Path(__file__).resolve().parents[1] / "datasets"
    recipes = sorted(root.glob("synth-*.yaml"))
    assert recipes
    for r in recipes:
        assert isinstance(load_config(r), SynthConfig)


# -- Okey racks as players photograph them ---------------------------------------------

OKEY = SMALL.replace(p_flat=0.0, p_any_roll=1.0, p_okey_style=1.0, p_blank=1.0, p_heap=1.0,
                     p_tint=1.0, p_okey_table=1.0, p_side_view=0.5)


def test_new_options_leave_old_recipes_unchanged() -> None:
    # every new knob defaults off and draws nothing from the generator
    a = render_scene(7, SMALL)
    b = render_scene(7, SMALL.replace(p_any_roll=0.0, p_blank=0.0, p_heap=0.0, p_tint=0.0))
    assert np.array_equal(a.image, b.image)


@pytest.mark.parametrize("seed", range(6))
def test_okey_scenes_label_quads_and_skip_blanks(seed: int) -> None:
    scene = render_scene(seed, OKEY)
    again = render_scene(seed, OKEY)
    assert np.array_equal(scene.image, again.image)  # deterministic from the seed
    h, w = scene.image.shape[:2]
    rack = [t for t in scene.tiles if t.on_rack]
    # blank tiles are never in the hand nor labelled; every rack label is in the hand
    from collections import Counter

    assert not Counter(t.tile.name for t in rack) - Counter(t.name for t in scene.hand)
    assert all(t is not None for t in scene.hand)
    for t in scene.tiles:
        q = np.array(t.quad)
        cx, cy = q.mean(0)
        assert -1 <= cx <= w + 1 and -1 <= cy <= h + 1
        k = scene.tiles.index(t) + 1
        ys, xs = np.nonzero(scene.mask == k)
        # the labelled pixels lie around the quad's centre (the face plus its side)
        assert abs(xs.mean() - cx) < np.ptp(q[:, 0]) and abs(ys.mean() - cy) < np.ptp(q[:, 1])


def test_obb_writer(tmp_path) -> None:
    write_detect_dataset(tmp_path, 3, seed=2, config=OKEY, classes="obb")
    lines = [line for p in tmp_path.glob("labels/*/*.txt") for line in p.read_text().splitlines()]
    assert lines
    for line in lines:
        parts = line.split()
        assert parts[0] == "0" and len(parts) == 9
        assert all(0.0 <= float(v) <= 1.0 for v in parts[1:])


def test_upright_crop_writer(tmp_path) -> None:
    out = write_crop_dataset(tmp_path, 2, seed=1, config=OKEY, label="number", size=64,
                             geometry="upright")
    crops = list(out.glob("*/*/*.png"))
    assert crops and cv2.imread(str(crops[0])).shape == (64, 64, 3)


def test_upright_crop_jitter_moves_the_corners(tmp_path) -> None:
    """--jitter: the same scenes cut with more corner jitter give other crops;
    with the same jitter, the very same crops."""
    def crops(jitter: float, sub: str) -> dict[str, np.ndarray]:
        out = write_crop_dataset(tmp_path / sub, 1, seed=3, config=OKEY, label="face", size=64,
                                 geometry="upright", jitter=jitter)
        return {p.name: cv2.imread(str(p)) for p in out.glob("*/*/*.png")}

    a, b, c = crops(0.04, "a"), crops(0.04, "b"), crops(0.2, "c")
    assert a and a.keys() == b.keys() == c.keys()
    assert all(np.array_equal(a[k], b[k]) for k in a)
    assert sum(not np.array_equal(a[k], c[k]) for k in a) == len(a)


def test_cut_upright_rect_and_turn() -> None:
    """--rect cuts the tile's oriented rectangle; --turn turns the cut; neither changes the default cut."""
    from okey_vision.synth.datasets import cut_upright, label_rect

    img = np.zeros((200, 200, 3), np.uint8)
    quad = [(80, 60), (118, 62), (122, 140), (78, 138)]   # a tile seen a little from the side
    cv2.fillConvexPoly(img, np.int32(quad), (255, 255, 255))
    cv2.line(img, (100, 70), (100, 130), (0, 0, 255), 5)   # an upright stroke on its face
    rect = label_rect(quad)
    assert np.allclose(np.linalg.norm(rect[1] - rect[0]), np.linalg.norm(rect[2] - rect[3]))
    assert np.abs(rect - np.array(quad)).max() < 7           # corners matched to TL, TR, BR, BL

    def cut(seed: int, **kw) -> np.ndarray:
        return cut_upright(img, quad, np.random.default_rng(seed), 64, margin=(0.05, 0.05), jitter=0.0, **kw)

    assert np.array_equal(cut(1), cut(1, rect=False, turn=0.0))
    turned = [cut(s, turn=20.0) for s in range(6)]
    # the red stroke stands upright in the default cut and leans in the turned ones
    def lean(c: np.ndarray) -> float:
        ys, xs = np.nonzero((c[:, :, 2] > 150) & (c[:, :, 1] < 100))
        return abs(float(np.polyfit(ys, xs, 1)[0]))
    assert lean(cut(1)) < 0.05
    assert max(lean(c) for c in turned) > 0.15


def test_a_failed_render_leaves_no_records_behind(tmp_path, monkeypatch) -> None:
    # `synth` failing (a missing package) left an empty hands.jsonl behind.
    from okey_vision.synth import datasets

    def broken(*args, **kwargs):
        raise ImportError("No module named 'matplotlib'", name="matplotlib")
        yield  # a generator, as scenes is

    monkeypatch.setattr(datasets, "scenes", broken)
    for write in (datasets.write_scenes, datasets.write_detect_dataset):
        with pytest.raises(ImportError):
            write(tmp_path / write.__name__, 2, seed=1, config=SMALL)
        assert not list((tmp_path / write.__name__).glob("hands.jsonl*"))
    monkeypatch.undo()
    datasets.write_scenes(tmp_path / "ok", 1, seed=1, config=SMALL)
    assert [p.name for p in (tmp_path / "ok").glob("hands.jsonl*")] == ["hands.jsonl"]


def test_synth_without_its_extra_says_which_to_install_and_writes_nothing(tmp_path, monkeypatch, capsys) -> None:
    import sys

    from okey_vision.cli import main

    monkeypatch.setitem(sys.modules, "matplotlib", None)  # as if the package were not installed
    out = tmp_path / "never"
    assert main(["synth", "--count", "1", "--out", str(out)]) == 2
    err = capsys.readouterr().err
    assert "pip install 'okey-vision[synth]'" in err and "matplotlib" in err and err.count("\n") == 1
    assert not out.exists()


def test_the_synth_extra_holds_what_the_renderer_imports() -> None:
    # `synth` sent users to the torch extra; its own extra holds what it imports, and no torch.
    import ast
    import sys
    from pathlib import Path

    import tomllib

    root = Path(__file__).resolve().parents[1]
    extras = tomllib.loads((root / "pyproject.toml").read_text())["project"]["optional-dependencies"]
    wanted = {req.split(">")[0].split("<")[0].split("=")[0].strip().lower() for name in ("synth", "vision")
              for req in extras[name] if not req.startswith("okey-vision")}
    as_installed = {"cv2": "opencv-python", "PIL": "pillow", "yaml": "pyyaml"}
    imported = set()
    for path in (root / "okey_vision" / "synth").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            names = [a.name for a in node.names] if isinstance(node, ast.Import) else \
                [node.module] if isinstance(node, ast.ImportFrom) and node.module and not node.level else []
            imported |= {n.split(".")[0] for n in names}
    third = {n for n in imported if n not in sys.stdlib_module_names and n not in ("okey_vision", "__future__")}
    assert {as_installed.get(n, n).lower() for n in third} <= wanted, third
    assert "okey-vision[synth]" in extras["train"] and not any("torch" in r for r in extras["synth"])
    from okey_vision.cli.synth import PACKAGES

    assert set(PACKAGES) == third
