"""Known hands with their solutions (tests/regression_hands.json).

The expected figures were computed once by the brute force in okey_vision/eval/brute.py
and checked by hand against the rules page; the solver must keep matching.
"""

import json
from pathlib import Path

import pytest

from okey_vision.solver import arrange, declare
from okey_vision.tiles import parse_hand, parse_tile

CASES = json.loads((Path(__file__).parent / "regression_hands.json").read_text())


@pytest.mark.parametrize("case", CASES, ids=[c["why"] for c in CASES])
def test_known_hand(case):
    hand, ind = parse_hand(case["hand"]), parse_tile(case["indicator"])
    a = arrange(hand, ind)
    assert a.tiles_in_melds == case["tiles_in_melds"]
    assert len(a.pairs) == case["pairs"]
    d = declare(hand, ind)
    if "finishing_discards" in case:
        melds = sorted({f.discard.name for f in d.finishes if f.kind == "melds"})
        pairs = sorted({f.discard.name for f in d.finishes if f.kind == "pairs"})
        assert melds == case["finishing_discards"]
        assert pairs == case["pairs_discards"]
    elif "finished" in case:
        assert any(f.kind == "melds" for f in d.finishes) == case["finished"]
        assert any(f.kind == "pairs" for f in d.finishes) == case["seven_pairs"]
    else:
        assert not d.can_declare
