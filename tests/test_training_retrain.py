"""The from-scratch retrain plan: every stage a valid ``train`` command, every
shipped model rebuilt from its yaml, finished stages skipped on a rerun."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest

from okey_vision.cli import train as cli
from okey_vision.training import paths, recipes, retrain, runs

SHIPPED = sorted(p.name for p in (Path(__file__).resolve().parents[1] / "models").glob("*.onnx"))
STAGES = [s for lane in retrain.PLAN for s in lane] + list(retrain.FINISH)


@pytest.mark.parametrize("stage", STAGES, ids=lambda s: s.name)
def test_every_stage_is_a_valid_train_command(stage: retrain.Stage) -> None:
    """The train command's own parser accepts each stage's arguments."""
    args = cli.build_parser().parse_args(retrain.stage_command(stage, restart=True))
    assert args.model[0] in {*recipes.RECIPES, "export"}


@pytest.mark.parametrize("model", sorted(recipes.RECIPES))
def test_a_plain_train_command_runs_the_retrain_recipe(model: str) -> None:
    """``train <model>`` with no option trains exactly what the retrain's stage trains: one source."""
    stage = next(s for s in STAGES if s.argv[0] == model and "--detected" not in s.argv)
    plain = cli.with_recipe(model, cli.build_parser().parse_args([model]))
    staged = cli.with_recipe(model, cli.build_parser().parse_args(list(stage.argv)))
    def data_options(args):  # the schedule's values are compared as the recipe they make
        return {k: v for k, v in vars(args).items() if k not in runs.OVERRIDES}

    assert data_options(plain) == data_options(staged)
    assert runs.recipe(model, plain) == runs.recipe(model, staged) == recipes.RECIPES[model]


def test_an_option_given_overrides_the_recipe_and_its_flags() -> None:
    given = cli.build_parser().parse_args(["number", "--geometry", "box", "--epochs", "3"])
    args = cli.with_recipe("number", given)
    assert args.geometry == "box" and args.rect  # given wins; the recipe's other flags stay
    assert runs.recipe("number", args).epochs == 3 and recipes.RECIPES["number"].epochs == 12


def test_no_stage_starts_from_weights_the_plan_did_not_make() -> None:
    """From scratch: a stage's --init names only a model an earlier stage wrote."""
    made: set[str] = set()
    for lane in [*retrain.PLAN, retrain.FINISH]:
        for s in lane:
            if "--init" in s.argv:
                init = s.argv[s.argv.index("--init") + 1]
                assert Path(init).stem in made, s.name
            if s.argv[0] != "export":
                made.add(s.argv[0])


class FakeTrainer:
    """Stands in for the train commands: writes the files a real run would."""

    def __init__(self, models: Path, fail: str | None = None) -> None:
        self.models, self.fail, self.calls = models, fail, []

    def __call__(self, argv, core: int) -> int:
        self.calls.append(list(argv))
        if argv[0] == self.fail:
            return 1
        if argv[0] == "export":
            for stem in argv[argv.index("--onnx") + 1].split(","):
                assert (self.models / f"{stem}.pt").exists(), stem
                (self.models / f"{stem}.onnx").write_text("onnx")
        else:
            (self.models / f"{argv[0]}.pt").write_text(" ".join(argv))
        return 0


@pytest.fixture
def sandbox(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """models/ and the stage marks in a temporary folder."""
    models = tmp_path / "models"
    models.mkdir()
    monkeypatch.setattr(paths, "MODELS", models)
    monkeypatch.setattr(retrain, "MARKS", tmp_path / "marks")
    return models


def test_the_plan_rebuilds_every_shipped_model(sandbox: Path) -> None:
    """Run with a fake trainer, the plan leaves exactly the shipped ONNX files."""
    fake = FakeTrainer(sandbox)
    assert retrain.retrain(runner=fake, log=logging.getLogger("test"))
    assert sorted(p.name for p in sandbox.glob("*.onnx")) == SHIPPED
    # the strip detector was fine-tuned from the upright detector, not from the oriented one
    strip = (sandbox / "detector_strip.pt").read_text()
    assert "--strips" in strip and "--init models/detector_axis.pt" in strip
    assert "--init models/detector.pt" in (sandbox / "detector_view.pt").read_text()
    assert all("--restart" in c for c in fake.calls if c[0] != "export")


def test_a_rerun_skips_finished_stages_and_resumes_the_failed_one(sandbox: Path) -> None:
    """After a failed stage, the next run starts there and resumes it (no --restart)."""
    log = logging.getLogger("test")
    first = FakeTrainer(sandbox, fail="color")
    assert not retrain.retrain(runner=first, log=log)
    assert sorted(c[0] for c in first.calls) == ["color", "detector", "number"]
    second = FakeTrainer(sandbox)
    assert retrain.retrain(runner=second, log=log)
    trained = [c[0] for c in second.calls if c[0] != "export"]
    # the oriented detector's stage finished: not run again
    assert not any(c[0] == "detector" for c in second.calls) and trained[0] == "color"
    assert "--restart" not in second.calls[0]
    assert sorted(p.name for p in sandbox.glob("*.onnx")) == SHIPPED


def test_one_lane_alone_runs_no_finishing_stage(sandbox: Path) -> None:
    """--lane 1: that lane's stages only; a later full run does the rest."""
    log = logging.getLogger("test")
    lane = FakeTrainer(sandbox)
    assert retrain.retrain(runner=lane, log=log, lanes=[1])
    assert [c[0] for c in lane.calls] == [s.argv[0] for s in retrain.PLAN[1]]
    assert not list(sandbox.glob("*.onnx"))
    rest = FakeTrainer(sandbox)
    assert retrain.retrain(runner=rest, log=log)
    assert rest.calls[0][0] == "detector"
    assert sorted(p.name for p in sandbox.glob("*.onnx")) == SHIPPED
