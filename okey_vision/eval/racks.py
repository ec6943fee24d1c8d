"""Rendered racks with known hands, for the organiser's check;
the rack of a rendered scene in rack order; reads made from a truth record.

Each rack is a chosen hand (:class:`okey_vision.synth.render.Deal`) drawn by
the synthetic renderer in the app sample's clean settings, with a seed whose
render the shipped reader reads exactly (tile for tile, in rack order; found
by ``python -m okey_vision.eval.racks --find``). The verdict of each is the solver's
on the true hand: winning and losing hands, 14 and 15 tiles, an okey finish,
seven pairs, the indicator beside the rack or given in a sidecar.

    python -m okey_vision.eval.racks --find        # check the seeds (and search new ones)
    python -m okey_vision.eval.racks --write DIR   # the photos and sidecars into DIR
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from okey_vision.tiles import Tile, parse_hand, parse_tile
from okey_vision.vision.reads import APART, TileRead


@dataclass(frozen=True)
class Rack:
    """A known hand: its groups on the rack, its indicator, whether the
    indicator lies beside the rack, and the render seed."""

    name: str
    groups: str             # groups separated by '|', e.g. "r1 r2 r3 | y5 y6 y7"
    indicator: str
    seed: int
    shown: bool = True      # the indicator lies beside the rack (else: a sidecar says it)
    can_declare: bool = True

    @property
    def hand(self) -> list[Tile]:
        """The rack's tiles, in rack order."""
        return [t for g in self.groups.split("|") for t in parse_hand(g)]

    def deal(self):
        """The renderer's :class:`~okey_vision.synth.render.Deal` of this hand."""
        from okey_vision.synth.render import Deal

        return Deal.of([parse_hand(g) for g in self.groups.split("|")], parse_tile(self.indicator))


RACKS = (
    # 15 tiles: throw y1, show runs and sets
    Rack("win15", "r1 r2 r3 | y5 y6 y7 | k9 k10 k11 k12 k13 | b7 b8 b9 | y1", "b4", 3),
    # 14 tiles finished as they are, a false joker standing for the okey k8 in a run
    Rack("win14", "r4 r5 r6 r7 | y10 y11 y12 y13 | k6 k7 fj | b1 y1 r1", "k7", 5),
    # 15 tiles: throw the okey r7 to finish (doubled)
    Rack("okey15", "b2 b3 b4 b5 | y8 y9 y10 y11 | k5 k6 k7 | r11 r12 r13 | r7", "r6", 8),
    # 14 tiles: seven pairs, two false jokers as one pair
    Rack("pairs14", "r5 r5 | b8 b8 | k12 k12 | y9 y9 | k1 k1 | b13 b13 | fj fj", "y2", 6),
    # 15 tiles, not finished
    Rack("lose15", "r1 r2 r3 | y7 y8 y9 | b4 b5 | k2 k6 | y12 r12 | b10 k13 r8", "k10", 4, can_declare=False),
    # 14 tiles one tile away; no indicator beside the rack: its sidecar says 'indicator r9'
    Rack("lose14", "r1 r2 r3 | y5 y6 y7 | b9 b10 b11 | k1 k2 k3 k4 | y13", "r9", 3, shown=False,
         can_declare=False),
)


def config(shown: bool):
    """The renderer's settings: the app sample's, clean (no photo effects),
    nothing else lying apart from the rack but the indicator."""
    from okey_vision.synth import SynthConfig
    from okey_vision.synth.sample import SETTINGS

    return SynthConfig(**SETTINGS).replace(effects=False, p_discards=0.0, p_hand=0.0, p_objects=0.0,
                                           p_indicator=1.0 if shown else 0.0)


def render(rack: Rack, seed: int | None = None):
    """The rack's scene (``seed``: another seed than the pinned one)."""
    from okey_vision.synth.render import render_scene

    return render_scene(rack.seed if seed is None else seed, config(rack.shown), rack.deal())


def jpeg(image, quality: int = 92) -> bytes:
    """JPEG bytes of a BGR image."""
    import cv2

    ok, buf = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, quality])
    assert ok
    return buf.tobytes()


def write(folder: Path, racks=RACKS) -> list[Path]:
    """Each rack's photo (``NAME.jpg``) into ``folder``, with a sidecar
    (``NAME.txt``) for a rack whose indicator is not in view."""
    folder.mkdir(parents=True, exist_ok=True)
    out = []
    for rack in racks:
        path = folder / f"{rack.name}.jpg"
        path.write_bytes(jpeg(render(rack).image))
        if not rack.shown:
            (folder / f"{rack.name}.txt").write_text(f"indicator {rack.indicator}\n")
        out.append(path)
    return out


def reads_exactly(rack: Rack, seed: int) -> tuple[bool, str]:
    """Whether the shipped reader reads the render of ``rack`` at ``seed``
    exactly (the hand in rack order, the indicator when shown, nothing
    flagged); and what it read."""
    from okey_vision.vision.io import decode_image
    from okey_vision.vision.reader import default_reader

    scene = render(rack, seed)
    photo = decode_image(jpeg(scene.image), rack.name)
    reads = default_reader().read_photo(photo)
    hand = [r.tile for r in reads if r.row != APART]
    apart = [r.tile for r in reads if r.row == APART]
    flagged = [r.name for r in reads if r.low_confidence]
    ok = hand == rack.hand and apart == ([parse_tile(rack.indicator)] if rack.shown else []) and not flagged
    return ok, f"{' '.join(t.name for t in hand)} | apart {' '.join(t.name for t in apart)} | flagged {flagged}"


def rack_truth(scene) -> list[str]:
    """The labelled rack tiles (those in the photo) in rack order: top tier
    first, then along the rack's own axis (the tiles' mean width direction)."""
    import numpy as np

    rack = [t for t in scene.tiles if t.on_rack]
    if not rack:
        return []
    q = [np.asarray(t.quad) for t in rack]
    u = np.mean([(a[1] - a[0]) / max(np.linalg.norm(a[1] - a[0]), 1e-9) for a in q], axis=0)
    order = sorted(range(len(rack)), key=lambda i: (rack[i].row, float(q[i].mean(0) @ u)))
    return [rack[i].tile.name for i in order]


def reads_from_truth(truth: dict, low: Sequence[int] = ()) -> list[TileRead]:
    """Reads from a sample-style truth record (``tiles``: tile, box, row,
    is_indicator); reads at the indices in ``low`` get confidence 0.4."""
    out = []
    for i, t in enumerate(truth["tiles"]):
        if not t.get("on_rack", True) and not t.get("is_indicator", False):
            continue
        conf = 0.4 if i in low else 0.99
        tile = parse_tile(t["tile"])
        out.append(TileRead(tuple(t["box"]), tile, conf, ((tile, conf),),
                            row=APART if not t.get("on_rack", True) else t["row"]))
    return out


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--find", action="store_true", help="check each rack's seed; search further when it fails")
    ap.add_argument("--tries", type=int, default=30)
    ap.add_argument("--write", type=Path, help="write the photos and sidecars into this folder")
    args = ap.parse_args(argv)
    if args.write:
        for p in write(args.write):
            print(p)
    if args.find:
        for rack in RACKS:
            for seed in range(rack.seed, rack.seed + args.tries):
                ok, got = reads_exactly(rack, seed)
                print(f"{rack.name} seed {seed}: {'exact' if ok else 'NO'}: {got}", flush=True)
                if ok:
                    break
    return 0


if __name__ == "__main__":
    sys.exit(main())
