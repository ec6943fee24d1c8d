"""The coach's sentences in English and Turkish stay in step; the app's texts exist in both;
the headline is the advice's action in the app, the command line and the JSON."""

from __future__ import annotations

import pytest

from okey_vision.coach import text
from okey_vision.report.labels import TEXT, Lang, t


def fields(template: str) -> list[str]:
    """The named fields of a template (format specs dropped)."""
    import re

    return sorted(f.split(":")[0] for f in re.findall(r"{(\w[^}]*)}", template))


@pytest.mark.parametrize("key", sorted(text.SENTENCES))
def test_every_coach_sentence_in_both_languages(key: str) -> None:
    en, tr = text.SENTENCES[key]
    assert tr.strip() and (en.strip() or key.startswith("kind."))  # English kinds: FinishKind.label
    assert en == "" or fields(en) == fields(tr), key


@pytest.mark.parametrize("key", sorted(TEXT))
def test_every_app_text_in_both_languages(key: str) -> None:
    en, tr = TEXT[key]
    assert en.strip() and tr.strip()
    # the same fields in both, so a translation never drops a number or a tile
    assert fields(en) == fields(tr), key


def test_language_choice() -> None:
    assert Lang.pick("TR") is Lang.TR and Lang.pick("en", "tr-TR") is Lang.EN
    assert Lang.pick(None, "en-US,tr;q=0.5") is Lang.EN and Lang.pick(None, "tr,en;q=0.5") is Lang.TR
    assert Lang.pick("xx", None) is Lang.EN
    assert t("okey_is", Lang.TR, okey="r4") == "okey kırmızı 4"  # Tiles in words in Turkish
    assert t("okey_is", Lang.EN, okey="r4") == "okey r4"


def test_every_image_problem_has_a_turkish_sentence_with_the_same_fields() -> None:
    import re

    from okey_vision.errors import ImageProblem
    from okey_vision.report.labels import ERRORS_TR

    for problem in ImageProblem:
        en, tr = "{name}: " + problem.template, ERRORS_TR[problem.value]
        assert sorted(re.findall(r"{(\w+)}", en)) == sorted(re.findall(r"{(\w+)}", tr)), problem


def test_errors_in_turkish() -> None:
    from okey_vision.errors import ImageError, ImageProblem, OkeyError
    from okey_vision.report.labels import error_message
    from okey_vision.tiles import Hand, parse_hand, parse_tile

    exc = ImageError.of(ImageProblem.TOO_LARGE, "big.png", width=9000, height=9000, limit=64)
    assert error_message(exc, Lang.EN) == str(exc) == \
        "big.png: the image is too large (9000x9000 pixels; at most 64 million)"
    assert error_message(exc, Lang.TR) == "big.png: görüntü çok büyük (9000x9000 piksel; en çok 64 milyon)"
    assert error_message(ValueError("plain"), Lang.TR) == "plain"
    cases = [(lambda: parse_tile("zz"), "bilinmeyen taş adı 'zz'"),
             (lambda: Hand(tuple(parse_hand("r5 r5 r5")), parse_tile("k1")), "Kırmızı 5 taşından 3 tane var"),
             (lambda: Hand((), parse_tile("fj")), "sahte okey gösterge olamaz"),
             (lambda: Hand(tuple(parse_hand("r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13 k1 k2 k3")),
                           parse_tile("b1")), "en çok 15 taş olur, burada 16 taş var")]
    for make, tr in cases:
        with pytest.raises(OkeyError) as got:
            make()
        assert tr in error_message(got.value, Lang.TR), got.value
        assert error_message(got.value, Lang.EN) == str(got.value)


@pytest.mark.parametrize("hand,ind,offered,en,tr", [
    ("r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 y1 r9", "r3", None, " leaves you 1 tile from winning",
     " atınca bitmeye 1 taş kalır"),
    ("r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 y1", "b9", None, "Draw from the stock", "Ortadan çek"),
    ("r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 y1", "b9", "k9", "Take k9", "Siyah 9 al"),
])
def test_the_advice_explains_itself_in_both_languages(hand, ind, offered, en, tr) -> None:
    from okey_vision.coach import advise

    a = advise(hand, ind, offered=offered)
    assert en in text.explain(a) and text.explain(a) == text.explain(a, Lang.EN) == text.explain(a, "en")
    assert tr in text.explain(a, Lang.TR) and text.explain(a, "tr") == text.explain(a, Lang.TR)


def test_every_reason_has_its_sentence() -> None:
    import dataclasses

    from okey_vision.coach import Reason, rank_discards, reading
    from okey_vision.coach import why as w
    from okey_vision.coach.lookahead import LookScore
    from okey_vision.scoring import COUNTDOWN
    from okey_vision.solver import declare
    from okey_vision.tiles import parse_tile

    # The coach returns one typed reason a kind; each is said in both languages
    # (a reason without its sentence would fail here, not on a player's screen).
    assert set(w.KINDS) == set(Reason) and all(kind.reason is r for r, kind in w.KINDS.items())
    hand = "r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 y13"
    option, tile = rank_discards(hand, "b2")[0], parse_tile("k9")
    look = LookScore(tile, 0.5, 20, 40, 3, 1)
    sample = {"Finish": declare(hand, "b2").best, "Scheme": COUNTDOWN, "int": 3, "bool": False, "Tile": tile,
              "DiscardOption": option, "tuple[DiscardOption, ...]": (option,), "tuple[Tile, ...]": (tile,),
              "Reading": reading(hand[:-4], "b2"), "LookScore": look, "Choice": w.Choice.LOOSE}
    seen = set()
    for kind in w.KINDS.values():
        why = kind(*(sample[f.type] for f in dataclasses.fields(kind)))
        en, tr = text.said(why), text.said(why, Lang.TR)
        assert en.endswith(".") and tr.endswith(".") and en != tr
        seen.add(en)
    assert len(seen) == len(w.KINDS)  # each kind its own sentence


def test_one_language_type_serves_the_app_the_coach_and_the_command_line(capsys) -> None:
    import okey_vision.lang
    from okey_vision.cli import main

    assert Lang is okey_vision.lang.Lang
    assert text.distance_text(2, Lang.TR) == "bitmeye 2 taş var (mesafe 2)"
    hand = ["r1", "r2", "r3", "y7", "y8", "y9", "b4", "b5", "b6", "k10", "k11", "k12", "k13", "y1"]
    assert main(["advise", "-i", "b9", "--lang", "tr", *hand]) == 0
    out = capsys.readouterr().out
    assert "Ortadan çek: bitmeye 1 taş var (mesafe 1), 16 taş işine yarar." in out
    assert "Neden: Ortadan çek:" in out and "Yerden çek" not in out


# ------------------------------------------------ one headline ---

#: A hand for every action and reason a headline says: (hand, indicator, offered, action).
EVERY_ACTION = [
    # the hand: r7 on offer finishes it (the app and the CLI said "Draw")
    ("r4 r5 r6 r9 r10 r11 y10 y11 y12 y13 r4 r5 r6 k6", "r3", "r7", "take"),
    ("b5 y3 y12 b9 r7 b11 r1 k8 y1 b1 y5 r12 k11 y12", "r11", "k10", "take"),   # it brings the hand closer
    ("k1 y4 k9 y10 k12 k6 k3 b8 r2 b4 k11 y3 r4 r11", "r8", "y11", "take"),     # as close, more outs
    ("b13 b12 r1 b13 k5 k7 y9 r5 y7 y10 fj b5 k6 y8", "r12", "b5", "draw"),     # it does not help: draw
    ("r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 y1", "b9", None, "draw"),      # nothing on offer
    ("r4 r5 r6 b1 r9 r10 r11 y10 y11 y12 y13 r4 r5 r6 k6", "r3", None, "discard"),
    ("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 y13", "b2", None, "declare"),
    ("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4", "b2", None, "declare"),     # 14 finished as they are
]


@pytest.mark.parametrize("lang", ["en", "tr"])
@pytest.mark.parametrize("hand,ind,offered,action", EVERY_ACTION)
def test_the_headline_is_the_advices_action_in_the_app_the_cli_and_the_json(capsys, hand, ind, offered, action,
                                                                             lang):
    import json

    from okey_vision.cli import main
    from okey_vision.coach import advise
    from okey_vision.eval.headline import VERBS
    from okey_vision.report.analysis import action_line, analyse

    a = advise(hand, ind, offered=offered)
    assert a.action.value == action
    head = text.headline(a, Lang.of(lang))
    assert VERBS[lang][action].match(head), head
    args = ["advise", "-i", ind, "--lang", lang, *hand.split()] + (["--offered", offered] if offered else [])
    assert main(args + ["--json"]) == 0
    data = json.loads(capsys.readouterr().out)
    assert main(args) == 0
    plain = capsys.readouterr().out.splitlines()
    app = analyse(hand, ind, offered=offered)
    assert data["action"] == action and data["headline"] == plain[1] == head == action_line(app, Lang.of(lang))
    if action == "take" and len(plain) > 2:  # the why below says the same move, never the other one
        assert plain[2].startswith(("Why: Take ", "Neden: ")) and "Draw" not in plain[2] and "çek:" not in plain[2]
    if action == "take" and offered == "r7":  # the headline says it whole: no "Why" repeating it
        assert plain[1:] == [head]


def test_the_app_the_cli_and_the_json_agree_on_random_offered_tiles():
    # The benchmark's check on 60 hands with a tile on offer (and 20 of 15) in both languages;
    # `python benchmarks/headline_agreement.py` runs it on 1000.
    from okey_vision.cli import capture
    from okey_vision.eval.headline import check

    seen, bad = check(60, seed=2036, langs=["en", "tr"], run_cli=capture, fifteen=20)
    assert not bad, bad[:5]
    assert {action for action, _ in seen} >= {"take", "draw", "discard"}
