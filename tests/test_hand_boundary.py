"""One typed hand boundary: a hand is built (and checked) once, by
``Hand.of``, from names, tiles, reads or the app's entries; the solver and
the coach take it as it is; an analysis declares once."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

import okey_vision.coach.advice as coach_advice
import okey_vision.report.analysis as ui_advice
import okey_vision.tiles as tiles_module
from okey_vision.app.state import Entry
from okey_vision.coach import advise
from okey_vision.errors import HandError, TileCountError
from okey_vision.report.analysis import Session, analyse
from okey_vision.solver import arrange, declare
from okey_vision.tiles import Hand, parse_hand, parse_tile
from okey_vision.vision.reads import TileRead, hand_from_reads

HAND15 = "r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 r9"
HAND14 = "r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 y1"


def _read(name: str, confidence: float = 0.99, row: int = 0, x: float = 0.0, reason: str = "") -> TileRead:
    return TileRead(box=(x, 0, x + 10, 20), tile=parse_tile(name), confidence=confidence, row=row, reason=reason)


def test_entries_with_three_copies_are_refused_naming_the_tile() -> None:
    entries = [Entry.typed("r5"), Entry.typed("r5"), Entry.typed("k1")]
    with pytest.raises(TileCountError, match="3 copies of 'r5'") as got:
        Hand.of(entries, "r5")
    assert isinstance(got.value, ValueError)
    with pytest.raises(TileCountError, match="'b2'"):
        Hand.of([_read("b2"), _read("b2"), _read("b2")], "k1")


def test_every_input_builds_the_same_hand() -> None:
    names = HAND14.split()
    reads = [_read(n, x=20.0 * i) for i, n in enumerate(names)]
    by_names = Hand.of(HAND14, "b9", "k5")
    assert Hand.of(names, "b9", ["k5"]) == by_names
    assert Hand.of(parse_hand(HAND14), parse_tile("b9"), "k5") == by_names
    assert hand_from_reads(reads, "b9", ["k5"]) == by_names
    assert Hand.of([Entry.read(r, i) for i, r in enumerate(reads)], "b9", "k5") == by_names
    assert Hand.parse(HAND14, "b9", "k5") == by_names


def test_a_built_hand_is_taken_as_it_is_and_never_with_another_indicator() -> None:
    h = Hand.of(HAND14, "b9")
    assert Hand.of(h) is h and Hand.of(h, "b9") is h
    with pytest.raises(HandError, match="'b9', not 'r3'"):
        Hand.of(h, "r3")
    with pytest.raises(HandError, match="no indicator"):
        Hand.of(HAND14)
    # The solver and the coach take the hand itself, with its own indicator.
    assert declare(h).hand == h.tiles and arrange(h).indicator == h.indicator
    assert advise(h) == advise(HAND14, "b9")


def test_plus_and_without_check_only_what_changes() -> None:
    h = Hand.of("r5 k1", "r5")
    with pytest.raises(TileCountError, match="3 copies of 'r5'"):
        h.plus(parse_tile("r5"))
    assert h.plus(parse_tile("k1")).tiles == parse_tile_tuple("r5 k1 k1")
    assert h.without(parse_tile("r5")).tiles == parse_tile_tuple("k1")


def parse_tile_tuple(text: str) -> tuple:
    return tuple(parse_hand(text))


def test_a_confirmed_entry_is_never_flagged_and_keeps_its_tile_in_the_hand() -> None:
    unsure = Entry.read(_read("r7", confidence=0.4), 0)
    grey = Entry.read(_read("k3", confidence=0.999, reason="greyscale photo"), 1)
    assert unsure.flagged and grey.flagged
    for e in (unsure, grey):
        confirmed = replace(e, confirmed=True)
        assert not confirmed.flagged and confirmed.confidence == e.confidence  # nothing faked
        assert not e.corrected("y1").flagged
    assert Hand.of([replace(unsure, confirmed=True), grey], "b2").tiles == parse_tile_tuple("r7 k3")


def _count_declare(monkeypatch) -> list[tuple]:
    calls: list[tuple] = []
    real = coach_advice.declare

    def counted(hand, *args, **kwargs):
        calls.append(tuple(Hand.of(hand, *args[:1]).tiles) if not isinstance(hand, Hand) else hand.tiles)
        return real(hand, *args, **kwargs)

    monkeypatch.setattr(coach_advice, "declare", counted)
    monkeypatch.setattr(ui_advice, "declare", counted)
    return calls


@pytest.mark.parametrize("hand", [HAND15, "r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k13 y1 r9 k5"])
def test_an_analysis_declares_its_hand_once(monkeypatch, hand) -> None:
    calls = _count_declare(monkeypatch)
    a = analyse(hand, "b2")
    assert a.ok and a.advice is not None
    assert calls.count(tuple(parse_hand(hand))) == 1
    assert a.advice.declare == a.declaration.best or not a.can_declare


def test_advise_refuses_a_declaration_of_another_hand() -> None:
    other = declare(Hand.of(HAND15, "b2"))
    with pytest.raises(HandError, match="not this hand"):
        advise(Hand.of(HAND15, "k2"), declaration=other)


def test_the_app_session_checks_the_hand_once(monkeypatch) -> None:
    checked: list[tuple] = []
    real = tiles_module.check_counts

    def counted(hand, indicator=None, seen=()):
        checked.append(tuple(hand))
        return real(hand, indicator, seen)

    monkeypatch.setattr(tiles_module, "check_counts", counted)
    session = Session()
    a = session.analyse(HAND15.split(), "b2", ["k5"])
    assert a.ok and checked.count(tuple(parse_hand(HAND15))) == 1
    assert session.analyse([Entry.typed(n) for n in HAND15.split()], "b2", "k5") is a  # the same hand, remembered


def test_the_cli_and_the_app_build_the_same_hand(capsys) -> None:
    from okey_vision.cli import main
    from okey_vision.coach.text import advice_dict

    assert main(["advise", "-i", "b2", *HAND15.split(), "--seen", "k5", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    a = Session().analyse(HAND15.split(), "b2", "k5")
    assert out == json.loads(json.dumps(advice_dict(a.advice)))
