"""Synthetic renderer settings (:class:`SynthConfig`) and their YAML recipes."""

from __future__ import annotations

from dataclasses import asdict, dataclass, fields
from pathlib import Path
from typing import Any


@dataclass(frozen=True)
class SynthConfig:
    """Every knob of the renderer; defaults are the training recipe."""

    #: Output image long side in px, sampled uniformly per image.
    long_side: tuple[int, int] = (640, 1024)
    #: Aspect ratios (w/h) to pick from: landscape 4:3, 16:9, portrait 3:4.
    aspects: tuple[float, ...] = (4 / 3, 4 / 3, 16 / 9, 3 / 4, 1.0)
    #: Apparent tile height in the output image, px (at the layout centre).
    tile_height: tuple[float, float] = (20.0, 200.0)
    #: Probability of a scene of tiles lying flat on a table (no rack).
    p_flat: float = 0.3
    #: Tiles per rack row (each row 0..15).
    row_tiles: tuple[int, int] = (0, 15)
    #: Probability that the rack holds a typical hand (a size from ``hand_sizes``).
    p_typical_hand: float = 0.6
    #: The typical hands' sizes, one drawn per rack: Okey's 14/15 (13 after a
    #: lay-down) and 101 Okey's 21/22 (the starter holds 22). Its rows split
    #: the hand at half +-3 tiles, each row at most ``row_tiles``' top.
    hand_sizes: tuple[int, ...] = (14, 15, 14, 15, 13, 21, 22)
    #: Tiles in a flat-on-table scene.
    flat_tiles: tuple[int, int] = (1, 30)
    #: Camera tilt (perspective) in degrees, rack scenes / flat scenes.
    max_tilt: float = 45.0
    #: In-plane rotation of rack scenes, degrees (flat scenes: any angle).
    max_roll: float = 15.0
    #: Per-tile tilt on the rack, degrees.
    tile_tilt: float = 3.0
    #: Probabilities of clutter in rack scenes.
    p_indicator: float = 0.6
    p_discards: float = 0.4
    p_other_rack: float = 0.3
    p_hand: float = 0.25
    p_objects: float = 0.4
    #: Photo effects (set False for clean label tests).
    effects: bool = True
    p_blur: float = 0.35
    p_motion_blur: float = 0.15
    p_low_light: float = 0.15
    p_glare: float = 0.4
    noise_sigma: tuple[float, float] = (0.0, 8.0)
    jpeg_quality: tuple[int, int] = (40, 95)
    # --- Okey racks as players photograph them (all off by default, so the
    # --- older recipes render exactly as before, draw for draw).
    #: Probability that a rack scene is turned by any angle (0-360 degrees).
    p_any_roll: float = 0.0
    #: When hi > 0: every rack scene is turned by +-uniform(lo, hi) degrees.
    rack_roll: tuple[float, float] = (0.0, 0.0)
    #: Probability of a side view (camera yaw 35-60 degrees, strong perspective).
    p_side_view: float = 0.0
    #: Probability that the set is an Okey style (real palettes, hearts, hollow numerals).
    p_okey_style: float = 0.0
    #: Probability that the rack holds one or two blank (face-down) tiles (unlabelled).
    p_blank: float = 0.0
    #: Probability of table clutter: heap of face-down tiles, coins/badges, bottles.
    p_heap: float = 0.0
    #: Probability of strongly tinted light (warm lamp, purple filter, wrong white balance).
    p_tint: float = 0.0
    #: Probability of an Okey table cover (felt, speckled, checked, marble, wood).
    p_okey_table: float = 0.0
    #: One fixed tile set for every photo (a player's own set): the
    #: name of a set in ``sprites.PINNED_SETS`` (palette, font, symbol, body
    #: all fixed); "" draws a new set per photo, as the training recipes do.
    pinned_set: str = ""
    #: When hi > 0: the apparent tile height is this share of the photo's long
    #: side (log-uniform), replacing ``tile_height``'s draw: close-ups whose
    #: tiles are as large in the frame whatever the photo's pixel size.
    tile_share: tuple[float, float] = (0.0, 0.0)
    #: A turned or side-seen rack is shrunk until it spans at most
    #: uniform(lo, hi) times the frame; above 1 the rack is cut by the frame
    #: (close-ups). The default is the renderer's own range.
    turned_fit: tuple[float, float] = (0.85, 1.15)
    #: A tile cut by the border or occluded is labelled only if at least
    #: this fraction of it is visible.
    min_visible: float = 0.6
    #: Tiles smaller than this (box height, px) are left unlabelled.
    min_label_px: float = 8.0

    def replace(self, **changes: Any) -> SynthConfig:
        """A copy with some fields changed (names checked)."""
        data = asdict(self)
        unknown = set(changes) - set(data)
        if unknown:
            raise ValueError(f"unknown SynthConfig fields: {sorted(unknown)}")
        data.update(changes)
        return SynthConfig.from_dict(data)

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> SynthConfig:
        """Build from a mapping (lists become tuples); unknown keys are an error."""
        names = {f.name: f for f in fields(cls)}
        unknown = set(data) - set(names)
        if unknown:
            raise ValueError(f"unknown SynthConfig fields: {sorted(unknown)}")
        clean: dict[str, Any] = {k: tuple(v) if isinstance(v, list) else v for k, v in data.items()}
        return cls(**clean)

    def to_dict(self) -> dict[str, Any]:
        """Plain mapping (tuples as lists) for YAML/JSON."""
        return {k: list(v) if isinstance(v, tuple) else v for k, v in asdict(self).items()}


def load_recipe(path: str | Path) -> dict[str, Any]:
    """Read a YAML recipe from ``datasets/`` as a dict."""
    import yaml

    with open(path, encoding="utf-8") as fh:
        data = yaml.safe_load(fh) or {}
    if not isinstance(data, dict):
        raise ValueError(f"{path}: a recipe must be a YAML mapping")
    return data


def load_config(path: str | Path) -> SynthConfig:
    """The :class:`SynthConfig` of a recipe (its ``config:`` mapping, or the whole file)."""
    data = load_recipe(path)
    section = data.get("config", {}) if "config" in data else data
    return SynthConfig.from_dict(dict(section or {}))
