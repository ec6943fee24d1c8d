"""The coach: distance cross-checked by brute force, outs, advice, the CLI."""

from __future__ import annotations

import itertools
import json
import random
from collections import Counter

import pytest

from okey_vision.cli import main
from okey_vision.coach import advise, best_discard, distance, holds_indicator_twin, rank_discards, reading
from okey_vision.errors import HandSizeError, TileCountError
from okey_vision.eval.hands import DECK, random_hand, replace_random_tile, winning_hand
from okey_vision.solver import best_pairs, encode, is_complete
from okey_vision.tiles import okey_of, parse_hand, parse_tile


def _finished(tiles, indicator) -> bool:
    okey = okey_of(indicator)
    x, w = encode(tiles, okey)
    if is_complete(x, w):
        return True
    pairs, rest = best_pairs(tiles, indicator)
    return len(pairs) == 7 and not rest


def _available(hand, indicator, seen) -> Counter:
    left = Counter(DECK)
    left.subtract(Counter(hand) + Counter(seen) + Counter([indicator]))
    return +left


def brute_distance(hand, indicator, seen, most: int = 2) -> int:
    """Fewest exchanges by trying every set of d discards and every d draws
    from the available tiles (d <= most); most + 1 when none is found."""
    avail = _available(hand, indicator, seen)
    kinds = sorted(avail)
    for d in range(most + 1):
        for drop in set(itertools.combinations(sorted(hand), d)):
            rest = list(hand)
            for t in drop:
                rest.remove(t)
            for draw in itertools.combinations_with_replacement(kinds, d):
                if any(draw.count(t) > avail[t] for t in set(draw)):
                    continue
                if _finished(rest + list(draw), indicator):
                    return d
    return most + 1


def _scarce_case(rng: random.Random, changes: int):
    """A nearly finished hand with most other tiles seen, so availability binds."""
    hand, indicator = winning_hand(rng)
    for _ in range(changes):
        hand = replace_random_tile(rng, hand, indicator)
    rest = list((Counter(DECK) - Counter(hand) - Counter([indicator])).elements())
    rng.shuffle(rest)
    seen = rest[: int(len(rest) * rng.choice([0.8, 0.88, 0.93]))]
    return hand, indicator, seen


def test_distance_matches_brute_force_on_scarce_pools():
    rng = random.Random(11)
    checked = Counter()
    for _ in range(36):
        hand, indicator, seen = _scarce_case(rng, rng.choice([1, 1, 2, 2, 3]))
        want = brute_distance(hand, indicator, seen)
        got = distance(hand, indicator, seen)
        assert min(got, 3) == want, (hand, indicator, seen)
        checked[want] += 1
    assert checked[1] and checked[2] and checked[3]  # every depth was exercised


def test_outs_are_the_draws_that_lower_the_distance():
    rng = random.Random(5)
    for _ in range(6):
        hand, indicator, seen = _scarce_case(rng, 2)
        r = reading(hand, indicator, seen)
        avail = _available(hand, indicator, seen)
        lower = {t for t in avail if distance(hand + [t], indicator, seen) < r.distance}
        assert set(r.out_tiles) == lower
        assert r.outs == sum(avail[t] for t in lower)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_ranked_discards_match_a_reading_of_each_fourteen(seed):
    # rank_discards shares one search over the 15 tiles between the discards;
    # each discard's distance and outs must equal a reading of the 14 left.
    rng = random.Random(seed)
    for k in range(8):
        if k % 2:
            hand, indicator = random_hand(rng, 15)
            seen = []
        else:
            hand, indicator, seen = _scarce_case(rng, rng.choice([1, 2, 3]))
            seen = seen[: len(seen) * rng.choice([0, 1, 2]) // 2]
            hand = hand + [next(t for t in DECK if Counter(hand + seen + [indicator])[t] < 2)]
        for option in rank_discards(hand, indicator, seen):
            rest = list(hand)
            rest.remove(option.tile)
            r = reading(rest, indicator, seen + [option.tile])
            assert (option.distance, option.outs, option.out_tiles) == (r.distance, r.outs, r.out_tiles), \
                (hand, indicator, seen, option.tile)


def test_best_discard_and_distance_of_fifteen_agree_with_the_full_ranking():
    rng = random.Random(21)
    for k in range(24):
        if k % 3 == 0:
            hand, indicator, seen = _scarce_case(rng, rng.choice([1, 2]))
            seen = seen[: len(seen) // 2]
            hand = hand + [next(t for t in DECK if Counter(hand + seen + [indicator])[t] < 2)]
        else:
            hand, indicator = random_hand(rng, 15, okeys=rng.choice([0, 0, 1, 2]))
            seen = []
        ranked = rank_discards(hand, indicator, seen)
        assert best_discard(hand, indicator, seen) == ranked[0], (hand, indicator, seen)
        assert distance(hand, indicator, seen) == ranked[0].distance


def test_finished_and_one_away_hands():
    rng = random.Random(2)
    for _ in range(20):
        hand, indicator = winning_hand(rng)
        assert distance(hand, indicator) == 0
        # A 15th tile: the finish is found again, so the distance stays 0.
        extra = next(t for t in DECK if Counter(hand + [t, indicator])[t] <= 2)
        assert distance(hand + [extra], indicator) == 0


def test_seven_pairs_route_and_okeys():
    ind = parse_tile("k1")  # okey k2
    pairs = parse_hand("r1 r1 r5 r5 y7 y7 b9 b9 b13 b13 k4 k4 y2 y2")
    assert distance(pairs, ind) == 0
    one = parse_hand("r1 r1 r5 r5 y7 y7 b9 b9 b13 b13 k4 k4 y2 r12")
    r = reading(one, ind)
    assert (r.distance, r.route) == (1, "pairs")
    assert {"y2", "r12", "k2"} <= {t.name for t in r.out_tiles}
    # The singles' twins and both okeys seen: both singles must go, and a
    # fresh pair be drawn whole.
    r = reading(one, ind, seen=parse_hand("y2 r12 k2 k2"))
    assert r.pairs_distance == 2 and not {"y2", "r12", "k2"} & {t.name for t in r.out_tiles}


def test_unavailable_tiles_raise_the_distance():
    ind = parse_tile("b2")  # okey b3
    hand = parse_hand("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 y13")
    assert distance(hand, ind) == 1
    r = reading(hand, ind)
    assert parse_tile("k4") in r.out_tiles and parse_tile("b3") in r.out_tiles
    # Every tile that extends a meld seen, okeys too: one exchange is not enough.
    blocked = parse_hand("r5 r5 y4 y4 y8 y8 b8 b8 b12 b12 k4 k4 b3 b3 fj fj y13 r7 r7 k7 k7 y1 y1"
                         " b1 b1 k5 k5 r6 r6 y9 y9 b13 b13 k13 k13 r13 r13 k12 k12")
    blocked = [t for t in blocked if Counter(hand + [ind])[t] + 1 <= 2 or t not in hand][:]
    got = distance(hand, ind, seen=_fit_seen(hand, ind, blocked))
    assert got >= 1


def _fit_seen(hand, indicator, tiles):
    used = Counter(hand) + Counter([indicator])
    out = []
    for t in tiles:
        if used[t] < 2:
            used[t] += 1
            out.append(t)
    return out


def test_advise_ranks_declares_and_prefers_the_okey_discard():
    a = advise("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 y13", "b2")
    assert a.can_declare and a.action == "declare" and a.declare.discard == parse_tile("y13")
    assert a.discards[0].tile == parse_tile("y13") and a.discards[0].distance == 0
    assert [d.distance for d in a.discards] == sorted(d.distance for d in a.discards)
    # Holding an okey (b3) beside a finished 14: throwing it doubles the score.
    a = advise("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 b3", "b2")
    assert a.declare.okey_discard and a.declare.points() == 4
    d = a.to_dict()
    assert d["can_declare"] is True and {"tile", "distance", "outs"} <= set(d["discards"][0])


def test_advise_take_or_draw_and_errors():
    hand = "r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 y1"
    assert advise(hand, "b9", offered="k9").take is True
    assert advise(hand, "b9", offered="r11").take is False
    assert advise(hand, "b9").action == "draw"
    with pytest.raises(HandSizeError, match="r1 r2 r3"):
        advise("r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13", "b9")
    with pytest.raises(TileCountError):
        advise(hand, "b9", seen=["y1", "y1"])
    assert holds_indicator_twin(hand, "y1") and advise(hand, "k10").indicator_twin
    assert not holds_indicator_twin(hand, "r5")


def test_cli_json_and_errors(capsys):
    tiles = "r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 y1 r9".split()
    assert main(["advise", "--indicator", "r3", "--seen", "k5 y2", *tiles, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["can_declare"] is False and out["discards"][0]["tile"] in ("r9", "y1")
    assert all({"tile", "distance", "outs"} <= set(d) for d in out["discards"])
    assert main(["advise", "--indicator", "r3", *tiles]) == 0
    assert "Discards" in capsys.readouterr().out
    assert main(["advise", "--indicator", "r3", "r1", "r2", "x9"]) == 2
    assert "x9" in capsys.readouterr().err


def _sample_rack():
    from importlib import resources

    data = json.loads(resources.files("okey_vision").joinpath("data/sample_rack.json").read_text())
    return data["hand"], data["indicator"]


def test_the_sample_advises_a_loose_tile_among_equally_good_discards():
    # r5 (inside a drawn run) and b1 (loose) are equally good on
    # the sample; a player throws the loose tile, and the reason says why.
    from okey_vision.coach import Choice, Reason
    from okey_vision.coach.text import choice_text, explain
    from okey_vision.lang import Lang
    from okey_vision.solver import arrange

    hand, ind = _sample_rack()
    a = advise(hand, ind)
    loose = arrange(hand, ind).shown[1]
    assert [t.name for t in loose] == ["b1", "k6"]
    best, second = a.discards[:2]
    assert best.tile.name in ("b1", "k6") and best.tile in loose
    assert (second.tile.name, second.distance, second.outs) == ("r5", best.distance, best.outs)
    note = next(n for n in a.notes if n.reason is Reason.CHOICE)
    assert note.basis is Choice.LOOSE
    assert choice_text(a) == ("b1 and r5 are equally good: both leave you 1 tile from winning with 17 tiles that "
                              "finish; b1 is a loose tile (in no meld), so throw it.")
    assert "mavi 1 artan bir taş (hiçbir perde değil), onu at." in explain(a, Lang.TR)  # In words
    assert choice_text(a, Lang.TR) in explain(a, Lang.TR) and choice_text(a) in explain(a)


def test_among_equal_loose_tiles_the_one_the_next_player_least_wants_goes():
    from okey_vision.coach import BASIC, RULES, Choice, Reason, Table
    from okey_vision.coach.strategy import danger
    from okey_vision.solver import arrange

    rng = random.Random(26)
    seen_safer = seen_loose = 0
    for _ in range(60):
        hand, ind = random_hand(rng, 15)
        a = advise(hand, ind)
        if a.can_declare:
            continue
        best = a.best
        ties = [o for o in a.discards[1:] if (o.distance, o.outs) == (best.distance, best.outs)]
        loose = set(arrange(hand, ind).shown[1])
        # The same discards, distances and outs as the basic ranking: only the order within a tie differs.
        basic = advise(hand, ind, rules=BASIC)
        assert sorted((o.tile, o.distance, o.outs) for o in basic.discards) == \
            sorted((o.tile, o.distance, o.outs) for o in a.discards)
        assert (basic.best.distance, basic.best.outs) == (best.distance, best.outs)
        if not ties:
            continue
        okey = okey_of(parse_tile(ind) if isinstance(ind, str) else ind)
        if best.tile == okey:
            continue
        if any(o.tile in loose for o in ties):
            assert best.tile in loose  # a loose tile before one inside a drawn meld
            seen_loose += 1
        note = next(n for n in a.notes if n.reason is Reason.CHOICE)
        if note.basis in (Choice.SAFER, Choice.LOOSE_SAFER):
            seen_safer += 1
            mine = list(hand)
            same = [o for o in ties if (o.tile in loose) == (best.tile in loose) and o.keeps == best.keeps]
            assert all(danger(best.tile, Table(), mine, RULES.safety_generic)
                       <= danger(o.tile, Table(), mine, RULES.safety_generic) for o in same)
    assert seen_loose and seen_safer


def test_a_finished_fourteen_says_declare():
    from okey_vision.coach import Action, Reason
    from okey_vision.coach.text import explain

    a = advise("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4", "b2")
    assert a.action is Action.DECLARE and a.why.reason is Reason.DECLARE and a.can_declare
    assert a.declare is not None and a.declare.discard is None and a.distance == 0
    assert explain(a) == "Declare: your tiles are finished; show runs and sets for 2 points."
