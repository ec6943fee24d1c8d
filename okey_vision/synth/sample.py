"""The embedded sample rack photo the app opens on, and how it was made.

``python -m okey_vision.synth.sample`` renders it again with the synthetic
renderer (deterministic: seed and settings below) into
``okey_vision/data/sample_rack.jpg`` and records its true hand, indicator
and boxes in ``okey_vision/data/sample_rack.json``.

The hand: ``r4 r5 r6 b1 r9 r10 r11 y10 y11 y12 y13 r4 r5 r6 k6`` with the
indicator ``r3`` lying apart, so both ``r4`` are okeys (wild): 13 tiles fit
in runs, one exchange from declaring.

The app's 101 page opens on a second one, ``sample_rack_101.jpg`` (and its
``.json``): :data:`HAND_101`, a 101 starter's 22 tiles on two full rows.
"""

from __future__ import annotations

import json
from importlib import resources
from pathlib import Path

#: The renderer seed and settings of the sample photo.
SEED = 304
SETTINGS = dict(long_side=(1024, 1024), aspects=(4 / 3,), tile_height=(80.0, 100.0), p_flat=0.0,
                p_typical_hand=1.0, p_indicator=1.0, p_discards=0.5, p_other_rack=0.3, p_hand=0.0,
                max_tilt=16.0, max_roll=4.0, p_blur=0.0, p_motion_blur=0.0, p_low_light=0.0,
                noise_sigma=(0.0, 2.0), jpeg_quality=(88, 92), p_glare=0.3)
JPEG_QUALITY = 85
NAME = "sample_rack"
#: The 101 page's sample (:func:`render_101_rack`).
NAME_101 = "sample_rack_101"


def sample_name(game: str = "okey") -> str:
    """The sample's file name (no extension) for a game ('okey' or '101')."""
    return NAME_101 if str(getattr(game, "value", game)) == "101" else NAME


def sample_bytes(game: str = "okey") -> bytes:
    """The sample photo (JPEG bytes) shipped with the package, for a game ('okey' or '101')."""
    return resources.files("okey_vision").joinpath("data").joinpath(f"{sample_name(game)}.jpg").read_bytes()


def sample_truth(game: str = "okey") -> dict:
    """The sample's recorded truth: ``hand``, ``indicator``, ``tiles`` (name, box, row)."""
    data = resources.files("okey_vision").joinpath("data").joinpath(f"{sample_name(game)}.json")
    return json.loads(data.read_text("utf-8"))


def render_sample():
    """The sample scene, rendered again (needs numpy and OpenCV)."""
    from okey_vision.synth import SynthConfig, render_scene

    return render_scene(SEED, SynthConfig(**SETTINGS))


#: A second clean render used by the app's tests (15 rack tiles, two false
#: jokers, the indicator y6 apart): ``y10 y11 y12 y13 fj fj b7 .. b11 k6 .. k9``.
TEST_SEED = 54


def render_test_rack(seed: int = TEST_SEED, quality: int = 92):
    """(JPEG bytes, scene) of a clean rendered rack in the sample's settings."""
    import cv2

    from okey_vision.synth import SynthConfig, render_scene

    scene = render_scene(seed, SynthConfig(**SETTINGS).replace(effects=False))
    ok, buf = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return buf.tobytes(), scene


#: A 101 Okey starter's rack for the tests and the browser check: 22 tiles
#: on two full rows (11 and 11), the indicator k1 apart (so k2 is the okey);
#: it opens with 167 points and throws y4.
HAND_101 = "r3 r4 r5 r6 | k7 b7 y7 | y10 y11 y12 y13 | b1 b1 | k9 k10 k11 | r13 y13 b13 | fj | k2 y4"
INDICATOR_101 = "k1"
#: Its seed: a clean render the shipped reader reads exactly (the rack in
#: rack order, the indicator the one tile apart; r6, b7 and k10 flagged).
SEED_101 = 5


def render_101_rack(seed: int = SEED_101, quality: int = 92):
    """(JPEG bytes, scene) of :data:`HAND_101` on a clean rendered rack in the
    sample's settings, its tiles a little smaller so both long rows fit."""
    import cv2

    from okey_vision.synth import SynthConfig, render_scene
    from okey_vision.synth.render import Deal
    from okey_vision.tiles import parse_hand, parse_tile

    deal = Deal.of([parse_hand(g) for g in HAND_101.split("|")], parse_tile(INDICATOR_101))
    cfg = SynthConfig(**SETTINGS).replace(effects=False, tile_height=(60.0, 70.0), p_discards=0.0)
    scene = render_scene(seed, cfg, deal)
    ok, buf = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    if not ok:
        raise RuntimeError("JPEG encoding failed")
    return buf.tobytes(), scene


def write_sample(folder: str | Path, game: str = "okey") -> tuple[Path, Path]:
    """Render the sample (of ``game``: 'okey' or '101') into ``folder``: the JPEG and its JSON truth."""
    import cv2

    name = sample_name(game)
    if name == NAME_101:
        data, scene = render_101_rack(quality=JPEG_QUALITY)
    else:
        scene = render_sample()
        ok, buf = cv2.imencode(".jpg", scene.image, [cv2.IMWRITE_JPEG_QUALITY, JPEG_QUALITY])
        if not ok:
            raise RuntimeError("JPEG encoding failed")
        data = buf.tobytes()
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    jpg, js = folder / f"{name}.jpg", folder / f"{name}.json"
    jpg.write_bytes(data)
    truth = {
        "seed": SEED_101 if name == NAME_101 else SEED,
        "hand": [t.name for t in scene.hand],
        "indicator": scene.indicator.name if scene.indicator else None,
        "size": [int(scene.image.shape[1]), int(scene.image.shape[0])],
        "tiles": [{"tile": t.tile.name, "box": [round(v, 1) for v in t.box], "row": t.row,
                   "on_rack": t.on_rack, "is_indicator": t.is_indicator} for t in scene.tiles],
    }
    js.write_text(json.dumps(truth, indent=1) + "\n", encoding="utf-8")
    return jpg, js


if __name__ == "__main__":  # pragma: no cover
    out = Path(__file__).resolve().parents[1] / "data"
    for game in ("okey", "101"):
        for p in write_sample(out, game):
            print(p, p.stat().st_size, "bytes")
