"""The reader on real pixels: the shared real Okey photo read
exactly at every 15 degrees and at each framing, a rendered rack turned
reading the same hand, real photos turned reading as they read upright."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")

from okey_vision.eval.views import okey_photo, okey_photo_path, real_photos, score_view, views  # noqa: E402
from okey_vision.synth import render_scene  # noqa: E402
from okey_vision.vision.normalise import turn_matrix  # noqa: E402
from okey_vision.vision.reads import APART, rack_order  # noqa: E402

needs_okey = pytest.mark.skipif(not okey_photo_path().exists(), reason=f"{okey_photo_path()} not here")
OKEY_HAND = ["r7", "b7", "b9", "b10", "k10", "k5", "y5"]


def rack(reads) -> list[str]:
    """The rack tiles' names in rack order."""
    return [r.name for r in rack_order(reads) if r.row != APART]


@pytest.fixture(scope="module")
def okey_views():
    return {v.name: v for v in views(okey_photo())} if okey_photo_path().exists() else {}


@needs_okey
@pytest.mark.parametrize("angle", range(0, 360, 15))
def test_the_shared_okey_photo_reads_exactly_at_every_angle(reader, okey_views, angle: int) -> None:
    view = okey_views["as is" if angle == 0 else f"turned {angle}"]
    assert view.labels[0].tile.name == "r7"
    reads = reader.read(view.image)
    assert rack(reads) == OKEY_HAND
    assert score_view(view, reads).exact


@needs_okey
@pytest.mark.parametrize("framing", ["farther (30 % border)", "closer (cropped to the tiles)",
                                     "closer, turned 45"])
def test_the_shared_okey_photo_reads_exactly_at_each_framing(reader, okey_views, framing: str) -> None:
    assert rack(reader.read(okey_views[framing].image)) == OKEY_HAND


@needs_okey
def test_the_okey_photo_reads_the_cloth_and_cut_tiles_as_nothing(reader, okey_views) -> None:
    """The checked cloth and the tiles cut by the photo's edges add no read."""
    reads = reader.read(okey_views["as is"].image)
    assert len(reads) == len(OKEY_HAND)


def turned(img: np.ndarray, degrees: float) -> np.ndarray:
    """The image turned about its centre, the canvas grown to hold it."""
    m, size = turn_matrix(img.shape[1], img.shape[0], degrees)
    return cv2.warpAffine(img, m, size, borderValue=(60, 60, 60))


def test_a_rendered_rack_reads_the_same_hand_turned(reader) -> None:
    """A clean rendered rack at 0, 45, 90, 135 and 180 degrees: one hand, in rack order."""
    from test_reader import CLEAN_RACK

    img = render_scene(2, CLEAN_RACK).image
    hands = {a: rack(reader.read(turned(img, a))) for a in (0, 45, 90, 135, 180)}
    assert len(hands[0]) >= 10
    assert all(h == hands[0] for h in hands.values()), hands


@pytest.mark.parametrize("angle", [40, 90, 200, 305])
def test_real_photos_turned_read_as_they_read_upright(reader, angle: int) -> None:
    """Held-out real photos (not the Okey one): turned, each reads the same
    tiles at the same places as upright (the turn's own labels carried through)."""
    photos = [p for p in real_photos("report") if not p.rack][:3]
    if not photos:
        pytest.skip("the real photos are not here")
    for photo in photos:
        upright, turn = views(photo, turns=(angle,), kinds=("as-is", "turned"))
        a, b = score_view(upright, reader.read(upright.image)), score_view(turn, reader.read(turn.image))
        assert b.right >= a.right - 1 and b.false <= a.false + 1, (photo.name, a, b)


@needs_okey
def test_framed_views_carry_the_labels_and_leave_cut_tiles_unscored() -> None:
    """Framed from 1.6x as far every tile is scored, scaled about the tiles'
    centre; framed nearer, a tile the canvas cuts below 60 % is not scored
    (it lies in a region not scored), and no view frames a tile past 40 %
    of the short side."""
    from okey_vision.eval.views import MAX_TILE_SHARE, visible

    photo = okey_photo()
    framed = {v.name: v for v in views(photo, (), ("framed",))}
    far, near = framed["framed 1.6x as far"], framed["framed 0.75x as far"]
    assert [lab.tile for lab in far.labels] == [lab.tile for lab in photo.labels]
    ratio = np.ptp(far.labels[0].polygon, axis=0) / np.ptp(photo.labels[0].polygon, axis=0)
    assert ratio == pytest.approx([1 / 1.6, 1 / 1.6])
    h, w = near.image.shape[:2]
    assert all(visible(lab.polygon, w, h) >= 0.6 for lab in near.labels)
    assert len(near.labels) < len(photo.labels) and len(near.ignore) > len(photo.ignore)
    assert "framed 0.3x as far" not in framed  # the Okey photo's tiles are large already
    tile = max(np.ptp(lab.polygon, axis=0).max() for lab in photo.labels)
    assert tile / 0.5 > MAX_TILE_SHARE * min(h, w)


def test_every_shared_photo_is_in_one_part() -> None:
    from okey_vision.eval.views import PARTS

    every = real_photos("every")
    if len(every) < 2:
        pytest.skip("the shared photos are not here")
    by_part = {part: {p.name for p in real_photos(part)} for part in PARTS}
    assert sum(map(len, by_part.values())) == len(every) == len({p.name for p in every})
    assert {p.name for p in real_photos("all")} == by_part["choose"] | by_part["report"]
    with pytest.raises(ValueError, match="'held'"):
        real_photos("held")
