"""The classify stage: each tile's number and colour read from its upright crops.

Every tile is cut upright from its corners in the full-resolution photo
(:func:`okey_vision.vision.crops.upright_crop`, at each of
``CropConfig.margins``) and read **both ways up** (0 and 180 degrees: a quad
cannot tell which way up a tile stands). Two small classifiers read the
number (``1``..``13``, ``fj``) and, on the crop white-balanced on the tile's
cream face, the colour (``r y b k``, ``fj``); their product is a probability
for each of the 53 faces (:func:`face_probs`). Tiles lying along one axis (a
rack) share one way up, decided by their summed evidence, unless a tile's
own evidence is strong (``ClassifyConfig.own_turn_evidence``). A rack row's
tiles read surely as cut skip their turned crops while the row's other tiles
say it stands as cut (``ClassifyConfig.one_way_sure``, ``one_way_vote``). With a
player's :class:`~okey_vision.vision.calibration.Calibration`, each crop's
number and colour reads are multiplied by its set's experts' say first.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field

import numpy as np

from okey_vision.tiles import TILES
from okey_vision.vision.calibration import Calibration
from okey_vision.vision.config import ClassifyConfig, CropConfig
from okey_vision.vision.crops import (
    COLOR_CLASSES,
    CROP_SIZE,
    NUMBER_CLASSES,
    Quad,
    aligned,
    turned,
    upright_crop_pairs,
    white_balance_all,
)
from okey_vision.vision.nets import Net
from okey_vision.vision.order import common_axis


@dataclass(frozen=True, eq=False)
class FaceReads:
    """What the classifiers read of n tiles: face probabilities (n, 53, ``TILES``
    order), each tile's corners turned the way it was read, and each tile's
    own 0/180 evidence (nats: how much surer it reads one way up; NaN: read one way up only)."""

    probs: np.ndarray = field(repr=False)
    quads: tuple[Quad, ...] = field(repr=False)
    turn: np.ndarray = field(repr=False)

    def __len__(self) -> int:
        return len(self.quads)

    def mapped(self, matrix: np.ndarray) -> FaceReads:
        """The same reads with the corners through a 2 x 3 affine ``matrix``."""
        quads = tuple(np.asarray(q) @ matrix[:, :2].T + matrix[:, 2] for q in self.quads)
        return FaceReads(self.probs, quads, self.turn)

    def keep(self, mask: Sequence[bool] | np.ndarray) -> FaceReads:
        """Only the tiles where ``mask`` holds."""
        m = np.asarray(mask, bool)
        return FaceReads(self.probs[m], tuple(q for q, k in zip(self.quads, m, strict=True) if k), self.turn[m])


def face_probs(pn: np.ndarray, pc: np.ndarray) -> np.ndarray:
    """Joint face probabilities (n, 53) from number (n, 14: 1..13, fj) and
    colour (n, 5: r y b k fj) probabilities, renormalised.

    >>> pn = np.zeros((1, 14)); pn[0, 6] = 1.0           # a 7
    >>> pc = np.array([[0.9, 0.0, 0.1, 0.0, 0.0]])       # red, maybe blue
    >>> p = face_probs(pn, pc)
    >>> TILES[int(p.argmax())].name, round(float(p.max()), 2)
    ('r7', 0.9)
    """
    n = pn.shape[0]
    faces = (pc[:, :4, None] * pn[:, None, :13]).reshape(n, 52)  # colour-major: r1..r13, y1..
    fj = (pc[:, 4] * pn[:, 13])[:, None]
    p = np.concatenate([faces, fj], 1) + 1e-9
    result: np.ndarray = p / p.sum(1, keepdims=True)
    return result


class Classifier:
    """The number and colour networks and how their reads are combined."""

    def __init__(self, number: Net, color: Net, config: ClassifyConfig | None = None,
                 crop: CropConfig | None = None, calibration: Calibration | None = None):
        self.number = number
        self.color = color
        self.config = config or ClassifyConfig()
        self.crop = crop or CropConfig()
        #: The player's own set (:mod:`~okey_vision.vision.calibration`): None reads as shipped.
        self.calibration = calibration

    def __call__(self, img: np.ndarray, quads: Sequence[Quad], also: Sequence[Quad | None] | None = None,
                 group: bool = True) -> FaceReads:
        """The faces of the tiles with corners ``quads`` (TL, TR, BR, BL as each
        tile stands, up to a half turn) in the BGR photo.
        ``also``: a second quad per tile or None (its refined corners), read
        too (``CropConfig.refined_margins``) and averaged with the first;
        ``group``: tiles along one axis share one way up."""
        n = len(quads)
        if n == 0:
            return FaceReads(np.zeros((0, len(TILES))), (), np.zeros(0))
        qs = [np.asarray(q, np.float64) for q in quads]  # as the tiles stand (a view's detections)
        extra = [i for i in range(n) if also is not None and also[i] is not None]
        rq = [aligned(np.asarray(also[i]), qs[i]) for i in extra]  # type: ignore[index]  # `extra` holds only tiles with a second quad
        margins, more = self.crop.margins, self.crop.refined_margins
        crops = [c for m in margins for c in _both_ways(img, qs, m)]  # each margin: upright, then turned
        crops += [c for m in more for c in _both_ways(img, rq, m)] if extra else []
        # a crop turned a half turn shows its upright partner's light and ink: each crop's upright one
        owner = [i - n if i % (2 * n) >= n else i for i in range(len(margins) * 2 * n)]
        m, base = len(extra), len(owner)
        owner += [base + (i - m if i % (2 * m) >= m else i) for i in range(len(crops) - base)]
        wb = white_balance_all if self.config.white_balance else list
        if self.config.colour_turned:
            balanced = wb(crops)
            pc_all = self._probs(self.color, balanced, COLOR_CLASSES)
        else:  # the colour read of the upright crops alone, for both ways up
            ups, back = np.unique(owner, return_inverse=True)
            up_balanced = wb([crops[i] for i in ups])
            balanced = [up_balanced[j] for j in back]
            pc_all = self._probs(self.color, up_balanced, COLOR_CLASSES)[back]
        members = _members(qs) if group else []
        tile = np.array([i % n for i in range(base)] + [extra[i % m] for i in range(len(crops) - base)], int)
        upright = np.array(owner) == np.arange(len(crops))
        # one way up: the tiles of a rack row read surely as cut, while the row's other tiles say it stands as cut
        one_way = (self.config.one_way_sure > 0 and self.calibration is None and self.config.weak_vote == 0
                   and len(members) >= 3)
        todo = upright if one_way else np.ones(len(crops), bool)
        first = self._probs(self.number, [c for c, t in zip(crops, todo, strict=True) if t], NUMBER_CLASSES)
        pn_all = np.full((len(crops), first.shape[1]), np.nan, first.dtype)  # NaN: not read
        pn_all[todo] = first
        sure = np.zeros(n, bool)
        if one_way:
            pf = self._faces(pn_all, pc_all, n, extra)
            sure[members] = pf[members, :].max(1) >= self.config.one_way_sure
            rest = ~upright & ~sure[tile]
            if rest.any():
                pn_all[rest] = self._probs(self.number, [crops[i] for i in np.flatnonzero(rest)], NUMBER_CLASSES)
            pf = self._faces(pn_all, pc_all, n, extra)
            others = [i for i in members if not sure[i]]
            d = np.log(pf[others].max(1)) - np.log(pf[[i + n for i in others]].max(1))
            if sure.any() and float(d.sum()) < self.config.one_way_vote:  # the row may stand turned: read it all
                left = ~upright & sure[tile]
                pn_all[left] = self._probs(self.number, [crops[i] for i in np.flatnonzero(left)], NUMBER_CLASSES)
                sure[:] = False
        if self.calibration is not None:  # the player's set: each crop's reads times its experts' say
            pn_all, pc_all = self.calibration.adjust(crops, balanced, pn_all, pc_all, owner)
        pf = self._faces(pn_all, pc_all, n, extra)
        return self._turned(qs, pf[:n], pf[n:], members, sure)

    def _faces(self, pn_all: np.ndarray, pc_all: np.ndarray, n: int, extra: list[int]) -> np.ndarray:
        """Face probabilities (2n, 53: upright as cut, then turned) from every
        crop's number and colour reads (a crop's number read not made: NaN, in its way up's row)."""
        margins, more = self.crop.margins, self.crop.refined_margins
        k, ke, split = len(margins), len(more), len(margins) * 2 * n
        # per view: number (2n, 14) both ways up, colour (n, 5) both ways alike
        pn = pn_all[:split].reshape(k, 2 * n, -1).mean(0)
        pc = pc_all[:split].reshape(k, 2, n, -1).mean((0, 1))
        if extra:  # the refined corners' reads averaged in, view for view
            m = len(extra)
            pn_e = pn_all[split:].reshape(ke, 2 * m, -1).mean(0)
            pc_e = pc_all[split:].reshape(ke, 2, m, -1).mean((0, 1))
            rows = np.array(extra + [i + n for i in extra])
            pn[rows] = (k * pn[rows] + ke * pn_e) / (k + ke)
            pc[extra] = (k * pc[extra] + ke * pc_e) / (k + ke)
        return face_probs(pn, np.concatenate([pc, pc]))

    def _turned(self, qs: list[Quad], p0: np.ndarray, p180: np.ndarray, members: list[int],
                sure: np.ndarray) -> FaceReads:
        """Each tile's way up: its own evidence, or its rack's (``members``) when
        its own is weak; a tile read one way up (``sure``) stands as cut, its evidence unknown (NaN)."""
        d = np.log(p0.max(1)) - np.log(np.where(sure[:, None], p0, p180).max(1))  # > 0: upright as cut
        flip = d < 0
        if len(members) >= 3:
            vote = float(d[members].sum())
            if abs(vote) < self.config.weak_vote:  # the tiles cannot tell: as the photo stands
                vote = float(sum(_up(qs[i]) for i in members))
            for i in members:
                if abs(d[i]) < self.config.own_turn_evidence and not sure[i]:
                    flip[i] = vote < 0
        probs = np.where(flip[:, None], p180, p0)
        chosen = tuple(turned(q) if f else q for q, f in zip(qs, flip, strict=True))
        return FaceReads(probs, chosen, np.where(sure, np.nan, np.abs(d)))

    @staticmethod
    def _probs(net: Net, crops: list[np.ndarray], order: Sequence[str]) -> np.ndarray:
        return net_probs(net, crops, order)


def _both_ways(img: np.ndarray, quads: Sequence[Quad], margin: float) -> list[np.ndarray]:
    """The tiles' upright crops, then the same tiles' crops turned a half turn (one warp each)."""
    ups, downs = upright_crop_pairs(img, quads, margin=margin)
    return ups + downs


def _members(qs: list[Quad]) -> list[int]:
    """The tiles lying along one axis (a rack row) that share one way up; none when fewer than three."""
    if len(qs) < 3:
        return []
    axis, members = common_axis(qs)
    return list(members) if axis is not None and len(members) >= 3 else []


def _up(q: Quad) -> float:
    """How far a quad's up (its BL-BR midpoint to its TL-TR midpoint) points up the image: -1..1."""
    a = np.asarray(q, np.float64)
    v = (a[0] + a[1] - a[2] - a[3]) / 2
    return float(-v[1] / max(float(np.hypot(*v)), 1e-9))


def net_probs(net: Net, crops: Sequence[np.ndarray], order: Sequence[str]) -> np.ndarray:
    """One network's class probabilities for upright crops, columns in ``order``."""
    import cv2

    size = net.size or CROP_SIZE
    if size != CROP_SIZE:
        crops = [cv2.resize(c, (size, size), interpolation=cv2.INTER_AREA) for c in crops]
    x = np.ascontiguousarray(np.stack(list(crops))[:, :, :, ::-1].transpose(0, 3, 1, 2)).astype(np.float32) / 255.0
    p = net(x)
    cols = {name: i for i, name in net.names.items()}
    return np.ascontiguousarray(p[:, [cols[c] for c in order]])  # row-major: every reduction over it sums alike


__all__ = ["Classifier", "FaceReads", "face_probs", "net_probs"]
