"""The first look finds the rack however far it was framed; the view reads it at its own scale."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")
pytest.importorskip("onnxruntime")

from okey_vision.eval.views import OKEY_LABELS, okey_photo, okey_photo_path  # noqa: E402
from okey_vision.vision.look import bordered  # noqa: E402
from okey_vision.vision.normalise import turn_matrix  # noqa: E402
from okey_vision.vision.reader import RackReader  # noqa: E402
from okey_vision.vision.reads import APART, rack_order  # noqa: E402

#: The table around the rack where the photo ends: a dark cloth.
TABLE = (60, 70, 80)


def framed_farther(img: np.ndarray, tile_share: float, tile_height: float) -> np.ndarray:
    """The photo as taken from farther: set in a table-coloured canvas so a
    tile is ``tile_share`` of the long side, shrunk back to the photo's size."""
    h, w = img.shape[:2]
    long = round(tile_height / tile_share)
    canvas = np.full((round(long * h / w), long, 3), TABLE, np.uint8)
    y0, x0 = (canvas.shape[0] - h) // 2, (long - w) // 2
    canvas[y0:y0 + h, x0:x0 + w] = img
    return cv2.resize(canvas, (w, round(w * canvas.shape[0] / long)), interpolation=cv2.INTER_AREA)


@pytest.fixture(scope="module")
def reader() -> RackReader:
    return RackReader(calibration=False)


def names(reads) -> list[str]:
    return [r.name for r in rack_order(reads) if r.row != APART]


@pytest.mark.parametrize("share, turn", [(0.08, 0), (0.05, 0), (0.05, 30), (0.065, -40)])
def test_a_far_framed_real_photo_reads_as_its_close_up(reader: RackReader, share: float, turn: float) -> None:
    if not okey_photo_path().exists():
        pytest.skip(f"{okey_photo_path()} not here")
    img = okey_photo().image()
    close = names(reader.read(img))
    assert close == [name for name, _ in OKEY_LABELS]
    heights = [np.ptp(np.array(q)[:, 1]) for _, q in OKEY_LABELS]
    far = framed_farther(img, share, float(np.median(heights)))
    if turn:
        m, size = turn_matrix(far.shape[1], far.shape[0], turn)
        far = cv2.warpAffine(far, m, size, borderValue=TABLE)
    reads, trace = reader.read_traced(far)
    if share >= 0.065:
        assert names(reads) == close
    else:  # every tile read right; the way up of tiles this small is weak evidence (rack order may reverse)
        assert names(reads) in (close, close[::-1])
    assert trace.look.pose is not None and trace.look.pose.tile_height < 0.1 * max(far.shape[:2])


def test_bordered_keeps_the_photo_small() -> None:
    canvas, m = bordered(np.zeros((3000, 4000, 3), np.uint8), 0.3, 416)
    assert max(canvas.shape[:2]) == 416 and m[0, 0] < 0.1
