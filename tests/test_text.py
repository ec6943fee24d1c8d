"""The coach's sentences in English and Turkish stay in step; the app's texts exist in both."""

from __future__ import annotations

import inspect

import pytest

from okey_vision.coach import text, text_tr
from okey_vision.ui.text import TEXT, Lang, coach_text, t


def public_functions(module) -> dict[str, inspect.Signature]:
    return {n: inspect.signature(f) for n, f in vars(module).items()
            if inspect.isfunction(f) and not n.startswith("_") and f.__module__ == module.__name__}


def test_turkish_coach_text_has_every_english_sentence() -> None:
    constants = [n for n, v in vars(text).items() if n.isupper() and isinstance(v, str)]
    assert constants and all(getattr(text_tr, n) != getattr(text, n) for n in constants)
    en, tr = public_functions(text), public_functions(text_tr)
    missing = set(en) - set(tr)
    assert not missing, f"text_tr lacks {sorted(missing)}"
    for name, sig in en.items():
        assert list(tr[name].parameters) == list(sig.parameters), name


@pytest.mark.parametrize("key", sorted(TEXT))
def test_every_app_text_in_both_languages(key: str) -> None:
    en, tr = TEXT[key]
    assert en.strip() and tr.strip()
    # the same fields in both, so a translation never drops a number or a tile
    fields = lambda s: sorted(f.split(":")[0] for f in __import__("re").findall(r"{(\w[^}]*)}", s))  # noqa: E731
    assert fields(en) == fields(tr), key


def test_language_choice() -> None:
    assert Lang.pick("TR") is Lang.TR and Lang.pick("en", "tr-TR") is Lang.EN
    assert Lang.pick(None, "en-US,tr;q=0.5") is Lang.EN and Lang.pick(None, "tr,en;q=0.5") is Lang.TR
    assert Lang.pick("xx", None) is Lang.EN
    assert coach_text(Lang.TR) is text_tr and coach_text(Lang.EN) is text
    assert t("okey_is", Lang.TR, okey="r4") == "okey r4"


def test_every_image_problem_has_a_turkish_sentence_with_the_same_fields() -> None:
    import re

    from okey_vision.errors import ImageProblem
    from okey_vision.ui.text import IMAGE_TR

    for problem in ImageProblem:
        en, tr = problem.template, IMAGE_TR[problem.value]
        assert sorted(re.findall(r"{(\w+)}", en)) == sorted(re.findall(r"{(\w+)}", tr)), problem


def test_image_errors_in_turkish() -> None:
    from okey_vision.errors import ImageError, ImageProblem
    from okey_vision.ui.text import image_message

    exc = ImageError.of(ImageProblem.TOO_LARGE, "big.png", width=9000, height=9000, limit=64)
    assert image_message(exc, Lang.EN) == str(exc) == "big.png: the image is too large (9000x9000 pixels; at most 64 million)"
    assert image_message(exc, Lang.TR) == "big.png: görüntü çok büyük (9000x9000 piksel; en çok 64 milyon)"
    assert image_message(ValueError("plain"), Lang.TR) == "plain"


@pytest.mark.parametrize("hand,ind,offered,en,tr", [
    ("r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 y1 r9", "r3", None, "throw ", " at: bitmeye "),
    ("r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 y1", "b9", None, "draw from the stock", "yerden çek"),
    ("r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 y1", "b9", "k9", "take k9", "k9 al"),
])
def test_the_advice_explains_itself_in_both_languages(hand, ind, offered, en, tr) -> None:
    from okey_vision.coach import advise

    a = advise(hand, ind, offered=offered)
    assert en in a.reason and a.reason == a.explain(text)
    assert tr in a.explain(text_tr)
