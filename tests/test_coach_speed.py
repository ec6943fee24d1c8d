"""The advice's speed: every known slow hand within the bound in a fresh
process, and the searches' bounds and shortcuts changing no answer."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys

import pytest

from okey_vision.coach import advise, ranking
from okey_vision.coach.templates import TemplateSearch
from okey_vision.eval.hands import SLOW_HANDS, far_hand, pairs_hand, random_hand, scarce_hand
from okey_vision.memo import Memo
from okey_vision.tiles import HAND_SIZE

#: Every advice within this much CPU time.
BOUND_S = 0.300

_CHILD = """
import json, sys, time
from okey_vision.coach import advise
hand, ind, offered = json.loads(sys.argv[1])
t0 = time.process_time()
advise(hand, ind, offered=offered)
print(json.dumps(time.process_time() - t0))
"""


@pytest.mark.parametrize("hand,ind,offered", SLOW_HANDS)
def test_a_slow_hand_is_advised_within_the_bound_in_a_fresh_process(hand, ind, offered):
    # A new process for each hand: its first advice, nothing cached (the
    # imports are done before the clock starts); CPU time, as the issue measures.
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    env = dict(os.environ, PYTHONPATH=os.pathsep.join([root] + [p for p in [os.environ.get("PYTHONPATH")] if p]))
    out = subprocess.run([sys.executable, "-c", _CHILD, json.dumps([hand, ind, offered])], capture_output=True,
                         text=True, env=env, check=True, timeout=120)
    seconds = json.loads(out.stdout)
    assert seconds < BOUND_S, f"{hand} / {ind}: {seconds * 1000:.0f} ms"


def _answers(hand, ind, seen=(), offered=None):
    a = advise(hand, ind, seen, offered=offered, memo=Memo())
    return ([(o.tile, o.distance, o.outs, o.out_tiles, o.route, o.keeps, o.potential) for o in a.discards],
            a.action, a.take, a.distance, a.outs, a.out_tiles)


def _cases():
    rng = random.Random(26)
    for hand, ind, offered in SLOW_HANDS:
        if offered is None:
            yield hand, ind, (), None
    for _ in range(6):
        yield (*far_hand(rng), (), None)
    for _ in range(4):
        yield (*random_hand(rng, 15, okeys=rng.choice([None, 1, 2])), (), None)
    for _ in range(2):
        yield (*pairs_hand(rng, 15), (), None)
    for _ in range(3):
        hand, ind, seen = scarce_hand(rng, rng.choice([1, 2, 3]), (0.3, 0.6, 0.8))
        yield hand, ind, seen, None


def test_the_pruning_bound_and_the_one_pass_choice_change_no_answer(monkeypatch):
    # The same advice (every discard's distance, outs and tie-breaks) with
    # the bound on hand tiles switched off, and with the discards that need
    # a gap more served by one pass over the 15 always, or never.
    cases = list(_cases())
    want = [_answers(*c) for c in cases]
    with monkeypatch.context() as m:
        m.setattr(TemplateSearch, "most", lambda self, x, g: 2 * HAND_SIZE)  # never prunes
        m.setattr(ranking, "ONE_PASS_FROM", 1)
        assert [_answers(*c) for c in cases] == want
    with monkeypatch.context() as m:
        m.setattr(ranking, "ONE_PASS_FROM", 3)  # the choice before the far hands' search was bounded
        assert [_answers(*c) for c in cases] == want
    with monkeypatch.context() as m:
        m.setattr(ranking, "ONE_PASS_FROM", 99)
        assert [_answers(*c) for c in cases] == want

