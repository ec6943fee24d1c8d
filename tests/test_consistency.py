"""The consistency step: reads obey the tile set (<= 2 of a face, <= 2 fj)."""

from __future__ import annotations

import itertools

import pytest

np = pytest.importorskip("numpy")

from okey_vision.tiles import TILES, parse_tile  # noqa: E402
from okey_vision.vision.consistency import hungarian, make_consistent, violations  # noqa: E402
from okey_vision.vision.reads import APART, TileRead  # noqa: E402


def read(x: float, *alts: tuple[str, float], row: int = 0) -> TileRead:
    tiles = tuple((parse_tile(n), p) for n, p in alts)
    return TileRead((x, 0, x + 10, 15), tiles[0][0], tiles[0][1], tiles, row=row)


def names(reads) -> list[str]:
    return [r.name for r in reads]


def test_consistent_reads_are_unchanged() -> None:
    reads = [read(0, ("r5", .9)), read(20, ("r5", .8)), read(40, ("fj", .7))]
    assert make_consistent(reads) == reads


def test_planted_third_copy_is_fixed_by_its_least_costly_alternative() -> None:
    reads = [read(0, ("k7", .95), ("k1", .03)),
             read(20, ("k7", .70), ("k1", .25)),    # the planted impossible read
             read(40, ("k7", .97), ("b7", .02)),
             read(60, ("r3", .99))]
    assert violations(reads) == {"k7": 3}
    fixed = make_consistent(reads)
    assert names(fixed) == ["k7", "k1", "k7", "r3"]
    assert fixed[1].confidence == pytest.approx(.25)
    assert fixed[1].low_confidence
    assert not violations(fixed)


def test_at_most_two_false_jokers() -> None:
    reads = [read(i * 20, ("fj", p), ("y13", .1)) for i, p in enumerate((.9, .8, .6))]
    assert names(make_consistent(reads)) == ["fj", "fj", "y13"]


def test_indicator_uses_a_copy() -> None:
    reads = [read(0, ("b2", .9), ("b3", .05)), read(20, ("b2", .6), ("b7", .3))]
    assert names(make_consistent(reads)) == ["b2", "b2"]
    assert names(make_consistent(reads, indicator="b2")) == ["b2", "b7"]


def test_photographed_indicator_is_not_a_hand_tile() -> None:
    reads = [read(0, ("b2", .9)), read(20, ("b2", .8)), read(90, ("b2", .95), row=APART)]
    # with the indicator named, the lone b2 apart is that indicator: hand b2 b2 would need 3
    out = make_consistent(reads, indicator="b2")
    assert out[2].name == "b2"
    assert sum(r.name == "b2" for r in out[:2]) == 1


def test_chain_of_changes_is_globally_best() -> None:
    # three r1 reads; the cheapest fix moves the read whose 2nd guess is free
    reads = [read(0, ("r1", .5), ("r2", .45)), read(20, ("r1", .9), ("r2", .09)),
             read(40, ("r1", .8), ("r4", .01)), read(60, ("r2", .99))]
    out = make_consistent(reads)
    assert not violations(out)
    assert names(out) == ["r2", "r1", "r1", "r2"]


def test_hungarian_matches_brute_force() -> None:
    rng = np.random.default_rng(0)
    for _ in range(30):
        n, m = int(rng.integers(1, 5)), int(rng.integers(4, 7))
        n = min(n, m)
        cost = rng.random((n, m))
        got = hungarian(cost)
        assert len(set(got)) == n
        best = min(sum(cost[i, c] for i, c in enumerate(p)) for p in itertools.permutations(range(m), n))
        assert sum(cost[i, c] for i, c in enumerate(got)) == pytest.approx(best)


def test_many_reads_fast_and_valid() -> None:
    rng = np.random.default_rng(1)
    reads = []
    for i in range(40):
        p = rng.dirichlet(np.ones(53) * 0.05)
        top = np.argsort(-p)[:5]
        reads.append(TileRead((i * 12, 0, i * 12 + 10, 15), TILES[top[0]], float(p[top[0]]),
                              tuple((TILES[j], float(p[j])) for j in top)))
    reads += [read(500, ("r1", .9)), read(520, ("r1", .9)), read(540, ("r1", .9))]
    out = make_consistent(reads)
    assert not violations(out)


def test_a_read_whose_two_ways_up_disagree_is_flagged_sooner() -> None:
    from dataclasses import replace

    from okey_vision.vision.config import FlagConfig

    f = FlagConfig()
    sure = read(0, ("k7", (f.low_confidence + f.doubt_confidence) / 2))
    assert not sure.low_confidence                                    # no turn evidence known
    assert not replace(sure, turn=f.turn_doubt / 2).low_confidence      # both ways up alike
    assert replace(sure, turn=f.turn_doubt * 2).low_confidence          # they disagree
    assert not replace(sure, turn=f.turn_doubt * 2, confidence=f.doubt_confidence + 0.01).low_confidence
    assert replace(sure, confidence=f.low_confidence - 0.01).low_confidence
    # a reader's own flag decides: a sure read it flagged is flagged, an unsure one it cleared is not
    assert replace(sure, flagged=True).low_confidence
    assert not replace(sure, confidence=0.2, flagged=False).low_confidence
