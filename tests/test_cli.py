"""The command line: readable and JSON output, one-line errors with exit 2."""

import json
import subprocess
import sys

import pytest

from okey_vision.cli import main
from okey_vision.cli.common import SENTENCES as CLI_SENTENCES

WIN15 = "r1 r2 r3 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 k5 r4".split()


def run_cli(capsys, *args):
    code = main(list(args))
    out, err = capsys.readouterr()
    return code, out, err


def test_solve_json_has_the_promised_keys(capsys):
    code, out, _ = run_cli(capsys, "solve", "--indicator", "r3", "--json", *WIN15)
    assert code == 0
    data = json.loads(out)
    assert data["indicator"] == "r3" and data["okey"] == "r4"
    assert data["hand"] == WIN15
    assert data["can_declare"] is True
    best = data["declare"]
    assert best["discard"] == "r4" and best["okey_discard"] is True and best["kind"] == "melds"
    assert sorted(t for m in best["melds"] for t in m) == sorted(t for t in WIN15 if t != "r4")
    arr = data["arrangement"]
    assert arr["tiles_in_melds"] == 15 and arr["leftover"] == []
    assert sum(len(m) for m in arr["melds"]) == 15


def test_solve_readable_output(capsys):
    code, out, _ = run_cli(capsys, "solve", "-i", "r3", *WIN15)
    assert code == 0
    assert "okey r4" in out and "Declare: yes, discard r4" in out and "doubles" in out


def test_solve_partial_rack_cannot_declare_with_note(capsys):
    code, out, _ = run_cli(capsys, "solve", "-i", "k1", "--json", "r1", "r2", "r3", "y9")
    data = json.loads(out)
    assert code == 0 and data["can_declare"] is False and data["declare"] is None
    assert "14" in data["note"]
    assert data["arrangement"]["melds"] == [["r1", "r2", "r3"]]


@pytest.mark.parametrize("args,needle", [
    (["-i", "r3", "x7", "r1"], "'x7'"),
    (["-i", "r3"] + ["r1"] * 8 + ["r2"] * 8, "16"),
    (["-i", "r3", "r3", "r3"], "'r3'"),
    (["-i", "r3", "r5", "r5", "r5"], "'r5'"),
    (["-i", "r3", "fj", "fj", "fj"], "'fj'"),
    (["-i", "fj", "r1"], "'fj'"),
    (["-i", "purple9", "r1"], "'purple9'"),
])
def test_bad_input_is_one_line_exit_2(capsys, args, needle):
    code, out, err = run_cli(capsys, "solve", *args)
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and needle in err and "Traceback" not in err


def test_console_entry_point_runs_as_a_module():
    proc = subprocess.run(
        [sys.executable, "-m", "okey_vision.cli", "solve", "-i", "b2", "--json",
         *"r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 r9".split()],
        capture_output=True, text=True, check=True,
    )
    assert json.loads(proc.stdout)["declare"]["discard"] == "r9"


# -- hostile input ---------------------------------------------------------

HAND15 = "r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 y1 r9".split()


@pytest.mark.parametrize("seen", [
    ["--seen", "k7 y2", *HAND15], ["--seen", "k7,y2", *HAND15], [*HAND15, "--seen", "k7", "--seen", "y2"]])
def test_advise_seen_is_one_argument(seen, capsys) -> None:
    assert main(["advise", "-i", "r3", *seen, "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    from okey_vision.coach import advise
    from okey_vision.coach.text import advice_dict

    assert out == json.loads(json.dumps(advice_dict(advise(HAND15, "r3", seen=["k7", "y2"]))))
    assert out != json.loads(json.dumps(advise(HAND15, "r3").to_dict()))


def test_advise_refuses_the_ambiguous_seen_form(capsys) -> None:
    # README's old form: y2 was meant as seen, but would silently join the hand
    assert main(["advise", "-i", "r3", "--seen", "k7", "y2", *HAND15[:14]]) == 2
    err = capsys.readouterr().err
    assert "--seen takes one argument" in err and err.count("\n") == 1
    # the hand first, then --seen: unambiguous
    assert main(["advise", "-i", "r3", *HAND15, "--seen", "k7"]) == 0


def test_a_huge_tile_name_gives_a_short_error(capsys) -> None:
    assert main(["solve", "-i", "r3", "r1", "x" * 100_000]) == 2
    err = capsys.readouterr().err
    assert "unknown tile name" in err and len(err) < 300 and err.count("\n") == 1


def test_advise_on_the_sample_throws_the_loose_tile(capsys):
    # The CLI speaks the app's sentences (the headline, then why).
    from okey_vision.coach import advise
    from okey_vision.coach.text import headline

    hand = "r4 r5 r6 b1 r9 r10 r11 y10 y11 y12 y13 r4 r5 r6 k6".split()
    code, out, _ = run_cli(capsys, "advise", "-i", "r3", *hand)
    lines = out.splitlines()
    assert code == 0 and lines[0] == "Indicator r3: okey r4."
    assert lines[1] == "Discard b1: 1 tile from winning (distance 1), 17 outs." == \
        headline(advise(hand, "r3"))
    assert "b1 is a loose tile (in no meld), so throw it." in lines[2]
    assert "exchange(s)" not in out and lines[4].split()[0] == "b1"


def test_a_finished_hand_says_declare_with_the_other_finishes_in_tile_order(capsys):
    # Every discard finishes (two okeys): declare, the others sorted by colour then number, no list of 15.
    hand = "r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13 k1 k1".split()
    code, out, _ = run_cli(capsys, "advise", "-i", "k13", *hand)
    assert code == 0 and "distance 0" not in out
    assert out.splitlines()[1:] == [
        "Declare: discard k1 and show runs and sets (4 points, countdown - discarding the okey doubles it).",
        "Other finishing discards: r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13."]
    code, out, _ = run_cli(capsys, "advise", "-i", "b2", *"r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4".split())
    assert out.splitlines()[1] == "Declare: your 14 tiles are finished as runs and sets (2 points, countdown)."
    code, out, _ = run_cli(capsys, "solve", "-i", "k13", *hand)
    assert "Other finishing discards: r1 r2 r3 r4 r5 r6 r7 r8 r9 r10 r11 r12 r13." in out


@pytest.mark.parametrize("lang,one,two", [("en", "Seven pairs: 1 pair (r5 r5)", "Seven pairs: 2 pairs"),
                                          ("tr", "Çiftler: 1 çift (kırmızı 5, kırmızı 5)", "Çiftler: 2 çift")])
def test_counts_are_said_right_in_both_languages(capsys, lang, one, two):
    _, out, _ = run_cli(capsys, "solve", "-i", "b2", "--lang", lang, "r5", "r5", "y7")
    assert one in out
    _, out, _ = run_cli(capsys, "solve", "-i", "b2", "--lang", lang, "r5", "r5", "y7", "y7")
    assert two in out


def test_every_line_the_cli_says_is_a_sentence(capsys):
    # Each sentence ends with its full stop: the advice, the solve report's verdict, an error.
    hand = "r4 r5 r6 b1 r9 r10 r11 y10 y11 y12 y13 r4 r5 r6 k6".split()
    for lang in ("en", "tr"):
        _, out, _ = run_cli(capsys, "advise", "-i", "r3", "--lang", lang, *hand)
        head = out.splitlines()[:3]
        assert all(line.endswith(".") for line in head), head
    _, out, _ = run_cli(capsys, "solve", "-i", "b2", "r5", "r5", "y7")
    assert out.splitlines()[0].endswith(".") and out.splitlines()[-1].endswith(".")
    code, _, err = run_cli(capsys, "advise", "-i", "r3", "r1", "x9")
    assert code == 2 and err.strip().endswith(".") and err.count("\n") == 1


@pytest.mark.parametrize("argv", [
    ["--lang", "tr", "advise", "-i", "b9", *"r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 y1".split()],
    ["advise", "--lang", "tr", "-i", "b9", *"r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 y1".split()],
    ["advise", "-i", "b9", *"r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 y1".split(), "--lang", "tr"],
    ["--lang", "tr", "solve", "-i", "b2", "r5", "r5"],
    ["solve", "-i", "b2", "r5", "r5", "--lang", "tr"],
    ["calibrate", "reset", "--lang", "tr"],
    ["calibrate", "--lang", "tr", "reset"],
    ["--lang", "tr", "calibrate", "reset"],
])
def test_lang_is_taken_before_or_after_the_command_word(capsys, argv):
    # `calibrate fit --lang tr` was refused (--lang only before the action word).
    assert main(argv) == 0
    out = capsys.readouterr().out
    assert out.startswith(("Gösterge", "Kalibrasyon")), out


def test_the_command_line_says_nothing_in_english_on_turkish(capsys):
    # `--lang tr` writes no English word of the interface and no tile in the Latin notation.
    from browser.turkish import english_words, latin_tiles

    hand = "r4 r5 r6 b1 r9 r10 r11 y10 y11 y12 y13 r4 r5 r6 k6".split()
    runs = [["advise", "-i", "r3", *hand], ["advise", "-i", "r3", *hand[:-1], "--offered", "r7"],
            ["advise", "-i", "r3", *hand[:-1], "--offered", "k13"], ["advise", "-i", "r3", *hand[:-1]],
            ["solve", "-i", "r3", *hand],
            ["solve", "-i", "b2", *"r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 y13".split()],
            ["solve", "-i", "b2", "r5", "r5", "y7"], ["calibrate", "reset"], ["calibrate", "show"]]
    for argv in runs:
        main([*argv, "--lang", "tr"])
        out, err = capsys.readouterr()
        said = out + err
        assert said.strip() and not latin_tiles(said) and not english_words(said), (argv, said)


@pytest.mark.parametrize("argv", [
    ["serve", "--port", "0"], ["serve", "--limit-mb", "0"], ["serve", "--replicas", "0"],
    ["solve", "-i", "r3", "--highest", "80", "r1"], ["read", "no-such.jpg", "--beat-highest"],
    ["advise", "-i", "r3", "--opened", "melds", "r1"], ["advise", "-i", "r3"], ["advise", "--game", "101", "-i", "r3"],
    ["advise", "-i", "r3", "--seen", "k5", "y1", "r1", "r2"], ["advise", "-i", "r3", "r1", "r2", "r3"],
    ["advise", "-i", "r3", "--offered", "k5", "r1", "r2", "r3"],
    ["check", "--workers", "0", "--ray", "auto", "x.jpg"], ["check", "--html", "/no/such/x.html", "x.jpg"],
    ["check", "/no/such/folder"], ["check", "okey_vision/cli"], ["check", "-i", "fj", "okey_vision/cli"],
    # argparse's own: a required option, a choice, a number, a missing value, a value given to a flag, a prefix
    ["solve", "r1"], ["solve", "--game", "7", "-i", "r1", "r2"], ["check", "--workers", "x", "a.jpg"],
    ["advise", "-i", "r1", "r2", "--seen"], ["solve", "--json=3", "-i", "r1", "r2"], ["solve", "--h", "-i", "r1"],
])
def test_a_usage_error_is_one_sentence_in_each_language(capsys, argv):
    # Each is refused before anything runs: one line in the language asked for, never English on Turkish.
    from browser.turkish import english_words, latin_tiles

    if argv[0] == "serve" or "--ray" in argv:
        pytest.importorskip("ray")  # without it, the missing extra is said first
    lines = {}
    for lang in ("en", "tr"):
        code = main([*argv, "--lang", lang])
        out, err = capsys.readouterr()
        assert code == 2 and out == "" and err.count("\n") == 1 and "Traceback" not in err, (argv, err)
        lines[lang] = err
    assert lines["en"].startswith(f"okey-vision {argv[0]}: error: ") and lines["en"].endswith(".\n")
    assert lines["tr"].startswith(f"okey-vision {argv[0]}: hata: ") and lines["tr"].endswith(".\n")
    assert not english_words(lines["tr"]) and not latin_tiles(lines["tr"]), lines["tr"]
    assert english_words(lines["en"]), lines["en"]  # the scan knows these sentences' English words


@pytest.mark.parametrize(("argv", "en", "tr"), [
    ([], "give a command (see --help)", "bir komut yaz (--help'e bak)"),
    (["solve", "-i", "r1", "r2", "--bogus"], "unknown arguments --bogus (see --help)",
     "bilinmeyen argümanlar --bogus (--help'e bak)"),
    (["sovle"], "'sovle' is not a command: 'solve', 'synth'", "'sovle' diye bir komut yok: 'solve', 'synth'"),
])
def test_a_usage_error_before_the_command_is_one_sentence(capsys, argv, en, tr):
    # No command, or words no command takes: said by the program itself, the language read off the line.
    from browser.turkish import english_words

    for lang, said in (("en", en), ("tr", tr)):
        assert main([*argv, "--lang", lang]) == 2
        out, err = capsys.readouterr()
        error = "hata" if lang == "tr" else "error"
        assert out == "" and err.count("\n") == 1 and err.startswith(f"okey-vision: {error}: {said}"), err
    if argv != ["sovle"]:  # the command names are names, in either language
        assert not english_words(err), err


@pytest.mark.parametrize(("argv", "package"), [(["serve"], "ray"), (["synth", "--count", "1", "--out", "{tmp}"],
                                                                   "matplotlib")])
def test_a_missing_extra_is_said_in_each_language(tmp_path, monkeypatch, capsys, argv, package):
    # Through errors.require (serve) and through an ImportError the command met (synth): one sentence each way.
    import sys

    monkeypatch.setitem(sys.modules, package, None)  # as if the package were not installed
    argv = [a.format(tmp=tmp_path / "never") for a in argv]
    said = {}
    for lang in ("en", "tr"):
        assert main(["--lang", lang, *argv]) == 2
        out, said[lang] = capsys.readouterr()
        assert out == "" and said[lang].count("\n") == 1
    assert f"needs the '{package}' package: pip install 'okey-vision[" in said["en"]
    assert said["tr"] == f"okey-vision {argv[0]}: hata: '{package}' paketi gerekli: pip install " \
                         f"'okey-vision[{argv[0]}]'.\n"


@pytest.mark.parametrize("key", sorted(CLI_SENTENCES))
def test_every_command_line_sentence_in_both_languages(key):
    import re

    en, tr = CLI_SENTENCES[key]
    assert en.endswith(".") and tr.endswith(".") and en != tr
    assert sorted(re.findall(r"{(\w+)}", en)) == sorted(re.findall(r"{(\w+)}", tr)), key


@pytest.mark.parametrize("args", [["solve", "-i", "r3", "r1", "r2", "r3"],
                                  ["read", "okey_vision/data/sample_rack.jpg", "--json"]])
def test_output_to_a_full_disk_is_one_sentence(args):
    # /dev/full refuses every write (no space left on device), as a redirection to a full disk does
    from pathlib import Path

    if args[0] == "read":
        pytest.importorskip("onnxruntime")
    with open("/dev/full", "w") as full:
        done = subprocess.run([sys.executable, "-m", "okey_vision.cli", *args], stdout=full, stderr=subprocess.PIPE,
                              text=True, timeout=300, cwd=Path(__file__).resolve().parents[1])
    assert done.returncode == 2
    assert done.stderr == (f"okey-vision {args[0]}: error: cannot write the standard output: the disk is full; "
                           "what was printed is cut short.\n")
