"""The player's corrections, kept on their machine: labelled tile crops.

Only the tiles' crops and their labels are kept, never a whole photo: each
a small PNG (the tile cut upright from its corners, as the classifiers see
it: :func:`crop_of`) under ``crops/`` in the player's data folder
(:func:`~okey_vision.vision.calibration.data_dir`: ``$OKEY_VISION_DATA``, or
the user data directory), and one JSON line per crop in
``corrections.jsonl``: the tile, the photo's hash (its bytes' SHA-256, not
its name), the tile's place on the rack, where from (the app or the command
line) and when. A tile stored again for the same photo and place replaces
the earlier label (the player corrected it again). Nothing is sent anywhere.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import time
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from okey_vision.tiles import parse_tile
from okey_vision.vision.calibration import data_dir
from okey_vision.vision.crops import CROP_SIZE, UPRIGHT_MARGIN, upright_crop

#: The index of the stored crops, one JSON object a line.
INDEX = "corrections.jsonl"
#: The folder of the crops' PNG files.
CROPS = "crops"


def photo_hash(data: bytes) -> str:
    """A photo's name in the store: the first 16 hex digits of its bytes' SHA-256."""
    return hashlib.sha256(data).hexdigest()[:16]


def crop_of(image: np.ndarray, quad: Sequence[Sequence[float]]) -> np.ndarray:
    """The tile with corners ``quad`` (TL, TR, BR, BL as it stands, ``image`` px)
    cut upright as the classifiers read it (64 px, the classifiers' margin)."""
    return upright_crop(image, np.asarray(quad, np.float64), CROP_SIZE, margin=UPRIGHT_MARGIN)


@dataclass(frozen=True)
class Kept:
    """One stored crop: its label, the photo it came from and its place there, where from and when."""

    tile: str
    photo: str
    place: int
    file: str
    source: str = ""
    time: float = 0.0

    @property
    def key(self) -> tuple[str, int]:
        """What a later label of the same tile replaces."""
        return self.photo, self.place


class Store:
    """The stored crops in ``folder`` (default: the player's data folder)."""

    def __init__(self, folder: str | Path | None = None):
        self.folder = Path(folder) if folder is not None else data_dir()

    @property
    def index(self) -> Path:
        """The JSON-lines index."""
        return self.folder / INDEX

    def add(self, photo: str, items: Iterable[tuple[int, str, np.ndarray]], source: str) -> int:
        """Store ``(place, tile, crop)`` items of photo ``photo`` (its hash); how many were stored."""
        import cv2

        items = list(items)
        if not items:
            return 0
        (self.folder / CROPS).mkdir(parents=True, exist_ok=True)
        lines = []
        for place, tile, crop in items:
            name = parse_tile(tile).name
            rel = f"{CROPS}/{photo}-{place:02d}-{name}.png"
            if not cv2.imwrite(str(self.folder / rel), crop):
                raise OSError(f"cannot write {self.folder / rel}")
            lines.append(json.dumps({"tile": name, "photo": photo, "place": place, "file": rel,
                                     "source": source, "time": round(time.time(), 3)}))
        with open(self.index, "a", encoding="utf-8") as fh:
            fh.write("\n".join(lines) + "\n")
        return len(lines)

    def kept(self) -> list[Kept]:
        """Every stored crop, the latest label of each tile (a damaged line is skipped)."""
        if not self.index.exists():
            return []
        latest: dict[tuple[str, int], Kept] = {}
        for line in self.index.read_text(encoding="utf-8").splitlines():
            try:
                k = Kept(**json.loads(line))
                parse_tile(k.tile)
            except (ValueError, TypeError):
                continue
            latest[k.key] = k
        return list(latest.values())

    def samples(self) -> tuple[list[np.ndarray], list[str], list[str]]:
        """The stored crops that can be read: (crops, their tiles, their photos)."""
        import cv2

        crops, tiles, photos = [], [], []
        for k in self.kept():
            img = cv2.imread(str(self.folder / k.file), cv2.IMREAD_COLOR)
            if img is None or img.shape[:2] != (CROP_SIZE, CROP_SIZE):
                continue
            crops.append(img)
            tiles.append(k.tile)
            photos.append(k.photo)
        return crops, tiles, photos

    def forget(self) -> int:
        """Delete every stored crop and the index; how many crops were there."""
        n = len(self.kept())
        shutil.rmtree(self.folder / CROPS, ignore_errors=True)
        self.index.unlink(missing_ok=True)
        return n


__all__ = ["CROPS", "INDEX", "Kept", "Store", "crop_of", "photo_hash"]
