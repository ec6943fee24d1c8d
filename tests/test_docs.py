"""The documents a newcomer reads say what the project does (issue 25, item 6).

README stays short and starts with the two commands for a fresh machine; the
commands, benchmarks, files and library calls the documents name exist; the
README's Python block runs.
"""

from __future__ import annotations

import re
import shlex
from pathlib import Path

import pytest

from okey_vision.cli import build_parser

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
#: Every document a newcomer is pointed to.
DOCS = [README, ROOT / "models" / "README.md", ROOT / "datasets" / "README.md", *sorted((ROOT / "docs").glob("*.md"))]
#: README's length bound (issue 25: "README at most 250 lines").
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
    # Issue 36: one Turkish voice; every term of docs/turkish.md is said by some Turkish sentence,
    # and the game's words the issue names are in the list.
    from okey_vision.calibrate.text import SENTENCES as CALIBRATE
    from okey_vision.check.text import SENTENCES as CHECK
    from okey_vision.coach.text import SENTENCES as COACH
    from okey_vision.lang import UNITS, WORDS_101
    from okey_vision.report.text import TEXT
    from okey_vision.yuzbir.text import SENTENCES as YUZBIR

    words = (ROOT / "docs" / "turkish.md").read_text(encoding="utf-8")
    terms = [m.group(1) for m in re.finditer(r"^\| ([^|`]+?) \| ", words, re.M) if m.group(1) != "term"]
    assert {"ortadan çek", "yerden al", "seri", "per", "çift", "gösterge", "okey", "sahte okey"} <= set(terms)
    assert set(WORDS_101) <= set(terms)  # the words of 101: açmak, el açmak, çift açmak, işlek taş
    tables = (COACH, CHECK, CALIBRATE, TEXT, UNITS, YUZBIR, WORDS_101)
    turkish = " ".join(pair[1] for table in tables for pair in table.values())
    turkish = turkish.lower() + " kırmızı 7"  # a tile said in words: lang.tile_word
    for term in terms:
        for part in term.split(" / "):
            assert re.search(rf"(?<!\w){re.escape(part.lower())}", turkish), f"{part!r} is said nowhere"


def test_every_link_of_the_readme_lies_in_the_repository():
    # Issue 36: the rules link pointed outside the repository (../shared/...), broken in a clone.
    for target in re.findall(r"\]\(([^)#]+)(?:#[^)]*)?\)", readme()):
        if re.match(r"https?://", target):
            continue
        assert not target.startswith("../") and (ROOT / target).exists(), target
    assert "](docs/rules.md)" in readme()
    rules = (ROOT / "docs" / "rules.md").read_text(encoding="utf-8")
    assert "12-13-1" in rules and "13-1-2" in rules and "seven pairs" in rules
