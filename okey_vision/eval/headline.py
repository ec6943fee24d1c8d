"""The move a player can trust: the app's action line, the
command line's headline and the JSON's action agree, on random 14-tile
hands with a tile on offer (take or draw) and random 15-tile hands.

    python benchmarks/headline_agreement.py [--hands 1000] [--seed 36] [--lang en tr]

For each hand: the command line run in this process (the caller hands in
the runner, :func:`okey_vision.cli.capture`: nothing under ``eval/`` imports
the command line) (``okey-vision advise
... --offered TILE``, plain and ``--json``), and the app's own path (its
session's analysis with the offered tile, then the line its action box
shows, :func:`okey_vision.report.analysis.action_line`). They agree when the
JSON's ``headline`` is the plain output's second line and the app's action
line, and that line says the JSON's ``action`` (its verb in that
language). Prints the counts by action and every disagreement; exit status
1 on any (``benchmarks/headline_agreement.py``). ``tests/test_text.py`` runs it on a smaller count.
"""

from __future__ import annotations

import json
import random
import re
from collections import Counter
from collections.abc import Callable

from okey_vision.lang import Lang
from okey_vision.report.analysis import Analysis, Session, action_line
from okey_vision.tiles import FULL_SET, HAND_SIZE, MAX_HAND, Hand, check_counts

#: Each action's verb as a headline says it first, by language.
VERBS: dict[str, dict[str, re.Pattern[str]]] = {
    "en": {"take": re.compile(r"^Take (?:[rybk]\d{1,2}|fj): "), "draw": re.compile(r"^Draw from the stock: "),
           "discard": re.compile(r"^Discard (?:[rybk]\d{1,2}|fj)[ :]"), "declare": re.compile(r"^Declare: ")},
    "tr": {"take": re.compile(r"^(?:Kırmızı|Sarı|Mavi|Siyah) \d{1,2} al: |^Sahte okey al: "),
           "draw": re.compile(r"^Ortadan çek: "),
           "discard": re.compile(r"^(?:(?:Kırmızı|Sarı|Mavi|Siyah) \d{1,2}|Sahte okey) at[ :]"),
           "declare": re.compile(r"^Bitir: ")},
}


def deal(rng: random.Random, size: int, offered: bool) -> tuple[list[str], str, str | None]:
    """A random hand of ``size`` tiles, an indicator and (``offered``) a tile on offer, all from one set."""
    while True:
        tiles = rng.sample(FULL_SET, size + 2)  # the hand, then the indicator and the tile on offer
        hand, ind, off = tiles[:size], tiles[size], tiles[size + 1] if offered else None
        if ind.is_false_joker:
            continue
        try:
            check_counts(hand, ind, [], offered=off)
        except ValueError:
            continue
        return [t.name for t in hand], ind.name, off.name if off else None


#: Runs the command line on its arguments in this process: its standard output.
Runner = Callable[[list[str]], str]


def agree(hand: list[str], ind: str, offered: str | None, lang: str, session: Session,
          run_cli: Runner) -> tuple[str, list[str]]:
    """(the JSON's action, what disagrees: empty when the app, the plain output and the JSON agree)."""
    args = ["advise", "-i", ind, "--lang", lang, *hand] + (["--offered", offered] if offered else [])
    data = json.loads(run_cli(args + ["--json"]))
    plain = run_cli(args).splitlines()
    a = session.analyse(Hand.of(hand, ind), scheme="countdown", offered=offered)
    assert isinstance(a, Analysis)
    app = action_line(a, Lang.of(lang))
    wrong = []
    if data["headline"] != plain[1]:
        wrong.append(f"JSON headline {data['headline']!r} != CLI {plain[1]!r}")
    if app != plain[1]:
        wrong.append(f"app {app!r} != CLI {plain[1]!r}")
    if a.advice is None or a.advice.action.value != data["action"]:
        wrong.append(f"app action {a.advice.action.value if a.advice else None} != JSON {data['action']}")
    if not VERBS[lang][data["action"]].match(app):
        wrong.append(f"the action line {app!r} does not say {data['action']}")
    return data["action"], wrong


def check(hands: int, seed: int, langs: list[str], run_cli: Runner, fifteen: int = 0) -> tuple[Counter, list[str]]:
    """``hands`` random 14-tile hands with an offered tile and ``fifteen``
    random 15-tile hands, each in every language: (counts by action, disagreements)."""
    rng = random.Random(seed)
    session = Session()
    seen: Counter = Counter()
    bad: list[str] = []
    cases = [deal(rng, HAND_SIZE, True) for _ in range(hands)] + [deal(rng, MAX_HAND, False) for _ in range(fifteen)]
    for hand, ind, off in cases:
        for lang in langs:
            action, wrong = agree(hand, ind, off, lang, session, run_cli)
            seen[action, lang] += 1
            bad += [f"{' '.join(hand)} / {ind} / offered {off} ({lang}): {w}" for w in wrong]
    return seen, bad
