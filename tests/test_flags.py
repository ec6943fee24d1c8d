"""Fitting the flag rule on one part (split conformal) and reading hard crops."""

from __future__ import annotations

import math

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
