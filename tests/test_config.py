"""The reader's one configuration (okey_vision.vision.config)."""

from __future__ import annotations

import dataclasses

import pytest

from okey_vision.vision.config import DEFAULT, ReaderConfig


def test_settings_change_a_copy() -> None:
    cfg = DEFAULT.with_settings(["detect.mirror=False", "normalise.tile_height=36", "crop.margins=(0.1,)",
                                 "detect.view_stem=detector_axis"])
    assert (cfg.detect.mirror, cfg.normalise.tile_height, cfg.crop.margins) == (False, 36.0, (0.1,))
    assert cfg.detect.view_stem == "detector_axis"
    assert DEFAULT.detect.mirror and ReaderConfig() == DEFAULT
    with pytest.raises(dataclasses.FrozenInstanceError):
        cfg.detect.mirror = True  # type: ignore[misc]


@pytest.mark.parametrize("bad", ["detect.nope=1", "nowhere.conf=1", "detect.conf", "detect.conf=abc"])
def test_a_bad_setting_is_one_clear_error_quoting_it(bad: str) -> None:
    with pytest.raises(ValueError, match=r"detect|nowhere") as err:
        DEFAULT.with_settings([bad])
    assert repr(bad) in str(err.value)


def test_every_setting_says_why() -> None:
    """Each field of each section has a comment above it (its reason), or
    shares the one above the field it follows ("... and this one too")."""
    import ast
    import inspect

    from okey_vision.vision import config

    src = inspect.getsource(config)
    lines = src.splitlines()
    sections = {f.type if isinstance(f.type, str) else f.type.__name__ for f in dataclasses.fields(ReaderConfig)}
    checked = 0
    for node in ast.parse(src).body:
        if isinstance(node, ast.ClassDef) and node.name in sections:
            fields = [n for n in node.body if isinstance(n, ast.AnnAssign)]
            for f in fields:
                above = lines[f.lineno - 2].strip()
                follows = lines[f.lineno - 2].strip().split(":")[0] in {
                    g.target.id for g in fields if isinstance(g.target, ast.Name)}
                assert above.startswith("#") or follows, f"{node.name}.{f.target.id} says no reason"
                checked += 1
    assert checked >= 30
