"""The documents a newcomer reads say what the project does.

README stays short and starts with the two commands for a fresh machine; the
commands, benchmarks, files and library calls the documents name exist; the
README's Python block runs.
"""

from __future__ import annotations

import re
import shlex
import sys
from pathlib import Path

import pytest

from okey_vision.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: Every document a newcomer is pointed to.
DOCS = [README, ROOT / "models" / "README.md", ROOT / "datasets" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: README's length bound: a newcomer reads it whole.
MAX_README_LINES = 250

#: The two commands for a fresh machine: set up and open the app; run the tests.
FRESH_MACHINE = """\
# 1. set up and open the app (light runtime: ONNX models, no torch; opens on its embedded sample rack photo at http://localhost:8501)
python3 -m venv .venv && .venv/bin/pip install ".[app]" && .venv/bin/streamlit run app.py
# 2. run the tests (installs what they need too: the training stack, pytest, playwright)
python3 -m venv .venv && .venv/bin/pip install -e ".[all]" && .venv/bin/python -m pytest
"""


def code_blocks(text: str) -> list[tuple[str, str]]:
    """Each fenced block of a Markdown text: (its language, its body)."""
    return [(m.group(1), m.group(2)) for m in re.finditer(r"^```(\w*)\n(.*?)^```", text, re.M | re.S)]


def readme() -> str:
    return README.read_text(encoding="utf-8")


def test_readme_is_short():
    lines = readme().count("\n")
    assert lines <= MAX_README_LINES, f"README.md: {lines} lines, at most {MAX_README_LINES} (history: docs/results.md)"


def test_readme_starts_with_the_two_fresh_machine_commands():
    blocks = code_blocks(readme())
    assert blocks and blocks[0] == ("sh", FRESH_MACHINE)
    # Nothing but the title comes before them.
    before = readme().split("```", 1)[0].strip()
    assert before == "# okey-vision"


def test_the_fresh_machine_commands_are_true():
    pyproject = (ROOT / "pyproject.toml").read_text(encoding="utf-8")
    assert re.search(r"^app = \[", pyproject, re.M) and re.search(r"^all = \[", pyproject, re.M)
    assert (ROOT / "app.py").is_file()
    assert (ROOT / "okey_vision" / "data" / "sample_rack.jpg").is_file()
    # CI runs the README's test command (.ci/run says so): the same install and the same pytest.
    ci = (ROOT / ".ci" / "run").read_text(encoding="utf-8")
    assert 'pip install -q -e ".[all]"' in ci and ".venv/bin/python -m pytest" in ci


def benchmark_commands(text: str) -> list[tuple[str, list[str]]]:
    """Every ``python [-u] benchmarks/X.py ARGS`` a text names: (script, its options)."""
    found = []
    for m in re.finditer(r"python (?:-u )?(benchmarks/[\w]+\.py)([^`\n]*)", text):
        found.append((m.group(1), re.findall(r"(?<![\w-])(--[a-z][\w-]*)", m.group(2))))
    return found


@pytest.mark.parametrize("doc", DOCS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_benchmark_named_exists_with_its_options(doc):
    commands = benchmark_commands(doc.read_text(encoding="utf-8"))
    for script, options in commands:
        path = ROOT / script
        assert path.is_file(), f"{doc.name} names {script}, which does not exist"
        source = path.read_text(encoding="utf-8")
        for option in options:
            assert f'"{option}"' in source, f"{doc.name}: {script} has no option {option}"


def test_readme_names_a_command_for_every_figure():
    measured = readme().split("## Measured", 1)[1]
    rows = [line for line in measured.splitlines() if line.startswith("| ")][1:]  # past the header
    assert len(rows) >= 10
    for row in rows:
        assert re.search(r"`python (-u )?benchmarks/\w+\.py", row), f"a figure without its command: {row[:80]}"


def options_of(parser) -> set[str]:
    """A parser's option strings, its own actions' (``calibrate add --tiles``) included."""
    found = set()
    for action in parser._actions:
        found |= set(action.option_strings)
        if action.__class__.__name__ == "_SubParsersAction":
            for sub in action.choices.values():
                found |= options_of(sub)
    return found


def subcommand_options() -> dict[str, set[str]]:
    """Each ``okey-vision`` subcommand and its option strings."""
    parser, _ = build_parser()
    subs = next(a for a in parser._actions if a.__class__.__name__ == "_SubParsersAction")
    return {name: options_of(sub) for name, sub in subs.choices.items()}


def test_readme_command_lines_use_real_subcommands_and_options():
    known = subcommand_options()
    lines = [line for _, body in code_blocks(readme()) for line in body.splitlines()]
    lines = [line.removeprefix("$ ") for line in lines if line.removeprefix("$ ").startswith("okey-vision ")]
    assert {shlex.split(line)[1] for line in lines} >= {"read", "solve", "advise", "check", "synth"}
    for line in lines:
        words = shlex.split(line.split("#", 1)[0].replace("[", " ").replace("]", " "))
        sub = words[1]
        assert sub in known, f"no subcommand {sub!r}: {line}"
        for word in words[2:]:
            if word.startswith("-") and not re.fullmatch(r"-\d+", word):
                assert word in known[sub], f"okey-vision {sub} has no option {word}"


def test_readme_advice_example_is_what_the_command_prints(capsys):
    from okey_vision.cli import main

    block = next(body for _, body in code_blocks(readme()) if body.startswith("$ okey-vision advise"))
    command, *shown = block.splitlines()
    assert main(shlex.split(command)[2:]) == 0  # past "$ okey-vision"
    printed = capsys.readouterr().out.splitlines()
    for line in shown:
        if line.strip() == "...":
            continue
        if line.endswith("..."):
            assert any(p.startswith(line[:-3]) for p in printed), line
        else:
            assert line in printed, line


def test_readme_library_block_runs():
    pytest.importorskip("onnxruntime")
    pytest.importorskip("cv2")
    block = next(body for lang, body in code_blocks(readme()) if lang == "python")
    assert "read_rack" in block and "Hand.of" in block and "declare" in block and "advise" in block
    exec(compile(block, "README.md", "exec"), {"__name__": "readme"})


#: Paths a document names in backticks: beside the document, in the repository,
#: or package files written from inside ``okey_vision/`` (``vision/reader.py``).
PATH_RE = re.compile(r"`((?:[\w.-]+/)*[\w.-]+\.(?:py|md|yaml|json|json\.gz|onnx|png|jpg|sh))`")


def named_paths(text: str) -> set[str]:
    return {m.group(1) for m in PATH_RE.finditer(text)}


@pytest.mark.parametrize("doc", [README, ROOT / "docs" / "architecture.md", ROOT / "datasets" / "README.md"],
                         ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_a_current_document_names_exists(doc):
    """README, the architecture notes and the data recipes describe the tree as it is."""
    missing = []
    for name in sorted(named_paths(doc.read_text(encoding="utf-8"))):
        if name.startswith("../"):
            continue  # the shared rules and data sets lie beside the checkout, not in it
        places = [doc.parent / name, ROOT / name, ROOT / "okey_vision" / name, ROOT / "datasets" / name,
                  ROOT / "tests" / name, ROOT / "models" / name]
        if not any(p.exists() for p in places):
            missing.append(name)
    assert not missing, f"{doc.name} names files that do not exist: {missing}"


def test_readme_pictures_exist():
    for target in re.findall(r"!\[[^\]]*\]\(([^)]+)\)", readme()):
        assert (ROOT / target).is_file(), target


def test_the_turkish_word_list_is_what_the_pages_say():
    # One Turkish voice; every term of docs/turkish.md is said by some Turkish sentence,
    # and the game's words the issue names are in the list.
    from okey_vision.calibrate.text import SENTENCES as CALIBRATE
    from okey_vision.check.text import SENTENCES as CHECK
    from okey_vision.cli.common import SENTENCES as CLI
    from okey_vision.coach.text import SENTENCES as COACH
    from okey_vision.lang import UNITS, WORDS_101
    from okey_vision.report.labels import TEXT
    from okey_vision.yuzbir.text import SENTENCES as YUZBIR

    words = (ROOT / "docs" / "turkish.md").read_text(encoding="utf-8")
    terms = [m.group(1) for m in re.finditer(r"^\| ([^|`]+?) \| ", words, re.M) if m.group(1) != "term"]
    assert {"ortadan çek", "yerden al", "seri", "per", "çift", "gösterge", "okey", "sahte okey"} <= set(terms)
    assert set(WORDS_101) <= set(terms)  # the words of 101: açmak, el açmak, çift açmak, işlek taş
    tables = (COACH, CHECK, CALIBRATE, TEXT, UNITS, YUZBIR, WORDS_101, CLI)
    turkish = " ".join(pair[1] for table in tables for pair in table.values())
    turkish = turkish.lower() + " kırmızı 7 hata"  # a tile said in words: lang.tile_word; cli.common.fail's word
    for term in terms:
        for part in term.split(" / "):
            assert re.search(rf"(?<!\w){re.escape(part.lower())}", turkish), f"{part!r} is said nowhere"


def test_every_link_of_the_readme_lies_in_the_repository():
    # The rules link pointed outside the repository (../shared/...), broken in a clone.
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme()):
        if re.match(r"https?://", target):
            continue
        assert not target.startswith("../") and (ROOT / target).exists(), target
    assert "](docs/rules.md)" in readme()
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "12-13-1" in rules and "13-1-2" in rules and "seven pairs" in rules


def _architecture_figures() -> list[tuple[str, str, float]]:
    """(what, the figure architecture.md quotes, the value the code holds), each quoted figure of a setting."""
    from okey_vision.vision.config import CropConfig, FlagConfig, LookConfig, NormaliseConfig
    from okey_vision.vision.live import LIVE

    text = " ".join((ROOT / "docs" / "architecture.md").read_text(encoding="utf-8").split())  # lines joined
    quoted = [  # (what, the sentence with its figures as groups, the config's values in order)
        ("flag rule", r"`FlagConfig.flag`: below ([\d.]+) confidence, or below ([\d.]+) when the two ways up "
                      r"differ by more than ([\d.]+) nats, or \(however sure\) when its box scored under ([\d.]+) "
                      r"of the photo's median box",
         (FlagConfig.low_confidence, FlagConfig.doubt_confidence, FlagConfig.turn_doubt, FlagConfig.weak_box)),
        ("look border", r"grey border \((\d+) % of the long side", (LookConfig.border * 100,)),
        ("view tile height", r"scaled so a tile is (\d+) px tall", (NormaliseConfig.tile_height,)),
        ("view settles", r"`NormaliseConfig.settle_angle`, (\d+) degrees; size off by more than `settle_size`, (\d+) %",
         (NormaliseConfig.settle_angle, NormaliseConfig.settle_size * 100)),
        ("work tile height", r"where a tile is ~(\d+) px tall \(`work_image`\)", (CropConfig.work_tile_height,)),
        ("live look", r"newest frame every ([\d.]+) s \(`LiveConfig.check_interval`\)", (LIVE.check_interval,)),
        ("live settle", r"still for ([\d.]+) s \(`LiveConfig.settle`\)", (LIVE.settle,)),
    ]
    out = []
    for what, pattern, values in quoted:
        m = re.search(pattern, text)
        assert m, f"docs/architecture.md no longer quotes the {what} as /{pattern}/: quote it, or change this table"
        out += [(what, figure, value) for figure, value in zip(m.groups(), values, strict=True)]
    return out


def test_the_architecture_quotes_the_configs_figures():
    """Every setting docs/architecture.md quotes is the value the code holds."""
    wrong = [f"{what}: quoted {figure}, the code holds {value:g}" for what, figure, value in _architecture_figures()
             if abs(float(figure) - value) > 1e-9]
    assert not wrong, wrong


def test_the_figure_check_sees_a_stale_figure(monkeypatch):
    from okey_vision.vision import config

    monkeypatch.setattr(config.FlagConfig, "turn_doubt", 0.1)  # as the docs quoted it before the rule changed
    assert any(what == "flag rule" and float(f) != v for what, f, v in _architecture_figures())


#: The model card's length bound: the card, not its history (the training log is docs/results.md's).
MAX_CARD_LINES = 300


def test_the_model_card_is_a_card():
    card = (ROOT / "models" / "README.md").read_text(encoding="utf-8")
    assert card.count("\n") <= MAX_CARD_LINES, "models/README.md: the training log belongs in docs/results.md"
    assert card.startswith("# Model card") and "# Training log" not in card
    assert "# Training log" in (ROOT / "docs" / "results.md").read_text(encoding="utf-8")


#: A citation of a tracker's item by its number: "issue", a number after it (a space, a dash, a hash or a
#: line break and a comment's mark between them).
CITATION = re.compile(r"\b[Ii]ssues?[\s\-#:]*\d", re.M)
#: Where the project speaks: the package, the tests, the benchmarks, the documents, the data recipes and CI.
SPOKEN = [ROOT / "README.md", ROOT / "app.py", ROOT / ".ci" / "run", ROOT / "pyproject.toml",
          *(p for folder in ("okey_vision", "tests", "benchmarks", "docs", "models", "datasets")
            for p in sorted((ROOT / folder).rglob("*")) if p.suffix in (".py", ".md", ".yaml", ".sh", ".toml")
            and p != Path(__file__).resolve())]  # this file's probe cites on purpose


def citations(paths: list[Path]) -> list[str]:
    """``path:line`` of each citation of an issue by its number (no tracker in the repository to look it up)."""
    out = []
    for path in paths:
        text = path.read_text(encoding="utf-8")
        out += [f"{path.relative_to(ROOT)}:{text.count(chr(10), 0, m.start()) + 1}" for m in CITATION.finditer(text)]
    return out


def test_no_issue_is_cited_by_its_number():
    """Code, tests and documents say what and why, not which issue asked (a number no reader can look up)."""
    found = citations(SPOKEN)
    assert not found, f"say what and why instead of citing an issue number: {found}"


def test_the_citation_check_sees_each_form(tmp_path, monkeypatch):
    monkeypatch.setattr(sys.modules[__name__], "ROOT", tmp_path)
    probe = tmp_path / "probe.py"
    probe.write_text("# fixed in issue 24\n# (see issues\n# 11 and 37)\nx = 1  # issue-14\n# an issue, no number\n")
    assert citations([probe]) == ["probe.py:1", "probe.py:2", "probe.py:4"]
