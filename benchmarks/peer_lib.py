"""The peer library okey-solver-py, installed beside the project for benchmarks.

It ships a top-level package named ``okey_vision`` too, so it never goes into
the project's environment: it is installed with ``pip --target`` into
``.cache/peer`` and its ``okey_solver`` (with ``okey_core`` and what they
need) is imported from there, after everything of ours
(:func:`okey_vision.eval.external.import_from`: the folder never goes on
``sys.path``, and its ``okey_vision`` is never imported).
"""

from __future__ import annotations

import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from okey_vision.eval.external import import_from
from okey_vision.melds import is_meld
from okey_vision.tiles import Tile, okey_of

PEER_DIR = Path(__file__).resolve().parent.parent / ".cache" / "peer"
PEER_SPEC = "okey-solver-py==0.6.0"
_COLORS = {"r": "RED", "y": "YELLOW", "b": "BLUE", "k": "BLACK"}


def load_peer() -> Any:
    """Import the peer's ``okey_solver``, installing it into .cache/peer first
    if needed; raises RuntimeError saying why when it cannot."""
    if not (PEER_DIR / "okey_solver").is_dir():
        proc = subprocess.run(
            [sys.executable, "-m", "pip", "install", "-q", "--target", str(PEER_DIR), PEER_SPEC],
            capture_output=True, text=True,
        )
        if proc.returncode:
            raise RuntimeError(f"cannot install {PEER_SPEC}: {proc.stderr.strip()[-300:]}")
    return import_from(PEER_DIR, "okey_solver")


class PeerSolver:
    """Adapter: our tiles in, the peer's exact backtracking arrangement out."""

    def __init__(self, strategy: str = "backtracking") -> None:
        self.lib = load_peer()
        self.engine = self.lib.create_standard_okey_solver(strategy=strategy)

    def to_peer(self, hand: Sequence[Tile]) -> list[Any]:
        """Peer tiles with unique ids ``"<position>"``."""
        lib = self.lib
        out = []
        for i, t in enumerate(hand):
            if t.is_false_joker:
                out.append(lib.Tile(id=str(i), color=lib.TileColor.JOKER, value=0))
            else:
                out.append(lib.Tile(id=str(i), color=lib.TileColor[_COLORS[t.color]], value=t.number))
        return out

    def meta(self, indicator: Tile) -> Any:
        """The peer's OkeyMeta (the okey face) for an indicator."""
        okey = okey_of(indicator)
        return self.lib.OkeyMeta(color=self.lib.TileColor[_COLORS[okey.color]], value=okey.number)

    def arrange(self, hand: Sequence[Tile], indicator: Tile) -> Any:
        """The peer's arrangement object."""
        return self.engine.find_best_arrangement(self.to_peer(hand), self.meta(indicator))

    def placed(self, hand: Sequence[Tile], indicator: Tile, result: Any) -> tuple[int, int, list[str]]:
        """(tiles the peer claims placed, tiles in its melds that are valid
        under the rules, descriptions of its invalid melds)."""
        claimed = len(hand) - len(result.remainingTiles)
        valid = 0
        bad: list[str] = []
        used: set[str] = set()
        for meld in result.melds:
            ids = [t.id for t in meld.tiles]
            tiles = [hand[int(i)] for i in ids]
            if len(set(ids)) != len(ids) or used & set(ids) or not is_meld(tiles, indicator):
                bad.append(" ".join(t.name for t in tiles))
            else:
                valid += len(ids)
            used |= set(ids)
        return claimed, valid, bad

    def declares(self, hand: Sequence[Tile], indicator: Tile) -> bool:
        """Whether the peer finds a finish: some discard whose 14 tiles all
        land in its melds (how a peer user would check a 15-tile hand)."""
        for d in range(len(hand)):
            rest = list(hand[:d]) + list(hand[d + 1:])
            if not self.arrange(rest, indicator).remainingTiles:
                return True
        return False
