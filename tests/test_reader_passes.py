"""The detector passes run only where the first look says they are needed."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from okey_vision.vision import detect  # noqa: E402
from okey_vision.vision.config import DEFAULT  # noqa: E402
from okey_vision.vision.normalise import turn_matrix  # noqa: E402
from okey_vision.vision.reader import RackReader  # noqa: E402
from okey_vision.vision.reads import APART, rack_order  # noqa: E402

#: A clean, level rack, framed close: tiles 70-90 px tall.
LEVEL = dict(long_side=(960, 960), aspects=(4 / 3,), p_flat=0.0, p_typical_hand=1.0, effects=False, p_hand=0.0,
             p_objects=0.0, p_other_rack=0.0, p_discards=0.0, p_indicator=0.0, max_tilt=3.0, max_roll=1.0,
             tile_height=(70.0, 90.0))


@pytest.fixture(scope="module")
def level_rack() -> np.ndarray:
    from okey_vision.synth import SynthConfig, render_scene

    return render_scene(2, SynthConfig(**LEVEL)).image


@pytest.fixture(scope="module")
def reader() -> RackReader:
    # the one-pass rule is off by default (it did not carry over to the real report part): these tests switch it on
    return RackReader(calibration=False, config=DEFAULT.with_settings(["detect.one_pass=True"]))


def passes(reader: RackReader, img: np.ndarray, monkeypatch) -> tuple[list[str], list[dict]]:
    """The reads of ``img`` and the detector passes they took (each pass's keyword arguments)."""
    calls: list[dict] = []
    real = detect.Detector.__call__

    def counted(self, image, *args, **kwargs):
        calls.append(kwargs)
        return real(self, image, *args, **kwargs)

    monkeypatch.setattr(detect.Detector, "__call__", counted)
    names = [r.name for r in rack_order(reader.read(img)) if r.row != APART]
    monkeypatch.undo()
    return names, calls


def test_a_level_close_rack_is_read_in_one_view_pass(reader: RackReader, level_rack, monkeypatch) -> None:
    img = level_rack
    names, calls = passes(reader, img, monkeypatch)
    assert len(calls) == 2 and not any(c.get("mirror") for c in calls)   # the look and the view
    mirrored = RackReader(calibration=False, config=reader.config.with_settings(["detect.one_pass_angle=-1"]))
    again, more = passes(mirrored, img, monkeypatch)
    assert len(more) == 3 and again == names                             # the mirrored pass reads the same


def test_a_turned_rack_keeps_the_mirrored_pass(reader: RackReader, level_rack, monkeypatch) -> None:
    img = level_rack
    m, size = turn_matrix(img.shape[1], img.shape[0], 30.0)
    names, calls = passes(reader, cv2.warpAffine(img, m, size), monkeypatch)
    assert any(c.get("mirror") for c in calls)
    assert names == passes(reader, img, monkeypatch)[0]
