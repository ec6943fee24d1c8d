"""The ``solve --game 101`` report in sentences (the words: :mod:`okey_vision.yuzbir.text`).

>>> from okey_vision.yuzbir.opening import best_opening
>>> solve_lines101(best_opening("r10 r11 r12 y7", "k5"), "k5")[1]
'Opening: not yet: 33 of 101.'
"""

from __future__ import annotations

from okey_vision.lang import Lang, count, in_words, tiles_words
from okey_vision.yuzbir.opening import Opening
from okey_vision.yuzbir.rules import hand_points
from okey_vision.yuzbir.text import say


def solve_lines101(opening: Opening, indicator: object, lang: Lang | str = Lang.EN) -> list[str]:
    """The ``solve --game 101`` report: the okey, the opening (or not yet),
    the best runs and sets, the pairs and what stays in hand."""
    melds = "; ".join(" ".join(t.name for t in m.tiles) for m in opening.melds)
    lines = [say("okey_line", lang, indicator=indicator, okey=opening.okey)]
    if opening.reaches:
        lines.append(say("opening_yes", lang, progress=opening.progress(lang), melds=melds))
    else:
        lines.append(say("opening_no", lang, progress=opening.progress(lang)))
        lines.append(say("best_melds", lang, melds=melds) if melds else say("no_melds", lang))
    tail = say("pairs_open", lang) if opening.reaches_pairs else ""
    lines.append(say("pairs_line", lang, pairs=len(opening.pairs), needed=opening.pairs_needed, tail=tail))
    left = opening.left_in_hand
    if opening.kind.value == "no":
        pass  # nothing is laid: the whole hand stays
    elif left:
        lines.append(say("left_line", lang, tiles=tiles_words(left, lang),
                         points=count(hand_points(left, opening.okey), "point", lang)))
    else:
        lines.append(say("left_none", lang))
    return [in_words(line, lang) for line in lines]
