"""The flag rule: the classifiers' and the detector's doubts, on constructed and real reads; fitting its
thresholds on one part (split conformal) and reading hard crops."""

from __future__ import annotations

import math
from dataclasses import replace

import pytest

np = pytest.importorskip("numpy")

from okey_vision.eval.flags import FlagCase, fit_flags, flag_rates, moved  # noqa: E402
from okey_vision.vision.config import FlagConfig  # noqa: E402


def cases(confs: list[float], right: bool, turn: float = 0.0) -> list[FlagCase]:
    return [FlagCase("p", right, c, turn) for c in confs]


def test_the_fit_flags_the_conformal_share_of_wrong_reads_and_fewest_right() -> None:
    wrong = cases([0.1 * k / 20 + 0.5 for k in range(20)], False)        # 0.5 .. 0.595
    wrong += cases([0.97, 0.985], False)                                  # two sure misreads
    right = cases([0.5 + 0.5 * k / 200 for k in range(200)], True)        # 0.5 .. 0.9975
    rule = fit_flags(wrong, right)
    got = flag_rates(wrong, rule)
    need = math.ceil((len(wrong) + 1) * 0.9)
    assert round(got.wrong_flagged * got.wrong) >= need
    # no rule of the grid flagging that many wrong reads flags fewer right ones
    lower = FlagConfig(low_confidence=0.6, doubt_confidence=0.6, turn_doubt=2.0)
    assert round(flag_rates(wrong, lower).wrong_flagged * len(wrong)) < need
    assert flag_rates(right, rule).right_flagged <= flag_rates(right, FlagConfig(0.99, 0.99, 2.0)).right_flagged
    with pytest.raises(ValueError, match="no wrong reads"):
        fit_flags(right, right)


def test_the_doubt_band_is_fitted_when_misreads_disagree_both_ways_up() -> None:
    wrong = cases([0.99] * 10, False, turn=1.0)
    right = cases([0.99] * 100, True, turn=0.0) + cases([0.999] * 100, True, turn=1.0)
    rule = fit_flags(wrong, right)
    assert flag_rates(wrong, rule).wrong_flagged == 1.0
    assert flag_rates(right, rule).right_flagged == 0.0
    assert rule.low_confidence <= 0.99 < rule.doubt_confidence and rule.turn_doubt < 1.0


def test_moved_corners_slide_along_the_tile_and_scale_about_its_centre() -> None:
    q = np.array([[0, 0], [10, 0], [10, 20], [0, 20]], float)
    assert moved(q, 0.5, 0, 1).tolist() == (q + [5, 0]).tolist()
    assert moved(q, 0, -0.25, 1).tolist() == (q - [0, 5]).tolist()
    assert moved(q, 0, 0, 2).tolist() == [[-5, -10], [15, -10], [15, 30], [-5, 30]]


def test_a_sure_read_in_a_box_the_detector_doubts_is_flagged_and_says_why() -> None:
    from okey_vision.tiles import parse_tile
    from okey_vision.vision.config import WEAK_BOX_REASON
    from okey_vision.vision.reads import TileRead

    rule = FlagConfig()
    read = TileRead((0, 0, 10, 15), parse_tile("k11"), 0.97, detection=1.0)
    assert not read.low_confidence                      # unsure of its face a little, sure of its box
    assert replace(read, detection=rule.weak_box - 0.05).low_confidence
    assert not replace(read, detection=None).low_confidence  # no box score: the classifiers alone
    assert replace(read, confidence=rule.low_confidence - 0.01).low_confidence
    assert rule.why(0.999, 0.0, 0.7) == WEAK_BOX_REASON.format(share="70 %")
    assert rule.why(0.999, 0.0, 1.0) == "" and rule.why(0.5, 0.0, 1.0) == ""  # its confidence says it all


def test_a_real_misread_the_classifiers_are_sure_of_is_flagged_by_its_box(reader) -> None:
    """A real table framed 0.75x as far (the choose part): its k11 reads as a
    false joker at 0.98, in a box the detector scored under nine tenths of
    the photo's median. Every wrong read is flagged, the sure one for its
    box, and the reads sure of their face and box are not."""
    from okey_vision.eval.views import real_photos, score_view, views
    from okey_vision.vision.config import WEAK_BOX_REASON

    photo = next((p for p in real_photos("choose") if p.name.startswith("rummy-7_")), None)
    if photo is None:
        pytest.skip("the real photos are not here")
    view = next(v for v in views(photo, (), ("framed",)) if v.name == "framed 0.75x as far")
    reads = reader.read(view.image)
    scored = score_view(view, reads)
    wrong = [row for row in scored.flags if not row[1]]
    assert wrong and all(row[0] for row in wrong)
    rule = FlagConfig()
    sure_wrong = [row for row in wrong if row[2] >= rule.low_confidence]
    assert sure_wrong and all(row[5] is not None and row[5] < rule.weak_box for row in sure_wrong)
    box_reason = WEAK_BOX_REASON.split("{")[0]
    assert any(box_reason in r.reason for r in reads if r.confidence >= rule.low_confidence)


@pytest.mark.parametrize("angle", [180, 270])
def test_the_okey_rack_read_right_is_not_flagged(reader, angle: int) -> None:
    """The real Okey rack turned: its r7 reads at 0.92-0.95 (the classifiers
    alone flagged it below 0.98) in a box as sure as its neighbours', in a
    set with the b7 beside it; read exactly, no tile asks to be confirmed."""
    from okey_vision.eval.views import okey_photo, okey_photo_path, score_view, views

    if not okey_photo_path().exists():
        pytest.skip(f"{okey_photo_path()} not here")
    view = next(v for v in views(okey_photo(), (angle,), ("turned",)))
    reads = reader.read(view.image)
    assert score_view(view, reads).exact
    r7 = next(r for r in reads if r.name == "r7")
    assert r7.detection is not None and r7.detection >= FlagConfig().weak_box
    assert not any(r.low_confidence for r in reads), [(r.name, r.confidence, r.detection, r.reason) for r in reads]
