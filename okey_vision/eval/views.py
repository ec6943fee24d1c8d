"""Real pixels as the judge: real photos read as they are and through views
that carry their labels along (turned, framed farther and closer, seen from
the side), scored tile by tile.

The photos are the shared real Okey rack photo (its tiles labelled by hand
below: our own reading, rack order) and the real Rummikub photos held out
from training (``synth.real.is_real_val``; polygon labels). The held-out
photos are split once more, by a hash of their name, into a part that
chooses (``choose``: reader changes, thresholds, flag calibration) and a part
that only reports (``report``). The Okey photo chooses: it is the one real
Okey rack we have and every test reads it.

A view is one homography from the photo to a new canvas: the image is warped
with it and every label polygon mapped through it, so the labels travel with
the pixels. Used by ``benchmarks/real_pixels.py``, the reader's tests and
the calibration's guard. The photos are read from the shared folder
(:func:`okey_vision.eval.shared.real_pixels`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from functools import partial
from pathlib import Path

import numpy as np

from okey_vision.eval.match import greedy_match
from okey_vision.eval.shared import real_pixels
from okey_vision.tiles import Tile, parse_tile

#: The shared real Okey photo, in the shared folder (:func:`okey_photo_path`).
OKEY_PHOTO = Path("okey-real") / "images" / "okey-solver-py-rack-1.jpg"
#: Its rack tiles in rack order with their faces' corners (TL, TR, BR, BL as
#: the tile stands; px in the 1152 x 881 photo), read off the photo by hand.
OKEY_LABELS: tuple[tuple[str, tuple[tuple[float, float], ...]], ...] = (
    ("r7", ((101, 135), (252, 137), (255, 365), (105, 345))),
    ("b7", ((253, 150), (407, 165), (402, 385), (255, 365))),
    ("b9", ((582, 192), (750, 205), (730, 435), (570, 415))),
    ("b10", ((755, 207), (932, 222), (900, 460), (727, 437))),
    ("k10", ((937, 227), (1130, 247), (1077, 487), (902, 462))),
    ("k5", ((692, 450), (860, 480), (832, 700), (670, 667))),
    ("y5", ((865, 480), (1042, 505), (1000, 735), (832, 700))),
)
#: The tiles cut by the photo's left and right edges (not in the hand): a read
#: there is neither right nor a false read.
OKEY_CUT: tuple[tuple[tuple[float, float], ...], ...] = (
    ((0, 115), (55, 115), (55, 340), (0, 340)),
    ((0, 345), (50, 345), (50, 560), (0, 560)),
    ((1125, 130), (1152, 130), (1152, 300), (1125, 300)),
    ((1120, 620), (1152, 620), (1152, 750), (1120, 750)),
)
#: Labels of the real photos found wrong by looking at the photo: (photo
#: source name, the label's index in its file) -> the true face. In
#: rummy4-24 the second "orange_8" is a black 5 (upside down), which the
#: reader read right in every view.
LABEL_FIXES: dict[tuple[str, int], str] = {("rummy4-24", 3): "k5"}
#: Grey of the canvas a view adds around the photo (the pad colour of a turned phone photo).
FILL = (60, 60, 60)


@dataclass(frozen=True)
class Label:
    """One labelled tile: its face (None: a Rummikub joker, not scored) and its polygon."""

    tile: Tile | None
    polygon: np.ndarray = field(compare=False)


@dataclass(frozen=True)
class RealPhoto:
    """A real photo, its labels, the regions where reads are not scored, and its part."""

    name: str
    path: Path
    labels: tuple[Label, ...]
    ignore: tuple[np.ndarray, ...] = ()
    part: str = "choose"
    #: True when the labels are a rack in rack order (the Okey photo).
    rack: bool = False

    def image(self) -> np.ndarray:
        """The photo's BGR pixels."""
        import cv2

        img = cv2.imread(str(self.path))
        if img is None:
            raise FileNotFoundError(f"cannot read {self.path}")
        return img


@dataclass(frozen=True)
class RealView:
    """A photo seen one way: the pixels and the labels carried through the same homography."""

    photo: RealPhoto
    kind: str          # as-is, turned, farther, closer, side, closer-turned, framed, warm-dim
    name: str          # e.g. "turned 45"
    image: np.ndarray = field(compare=False)
    labels: tuple[Label, ...] = field(compare=False)
    ignore: tuple[np.ndarray, ...] = field(compare=False, default=())


def report_part(stem: str) -> bool:
    """Whether a held-out photo belongs to the reporting part (a stable hash of its source name)."""
    source = stem.split("_jpeg.rf.")[0]
    digest = hashlib.sha256(f"real-pixels:{source}".encode()).digest()
    return int.from_bytes(digest[:8], "big") / 2 ** 64 < 0.5


def okey_photo_path() -> Path:
    """Where the shared real Okey photo is."""
    return real_pixels() / OKEY_PHOTO


def okey_photo() -> RealPhoto:
    """The shared real Okey photo with its hand labels."""
    labels = tuple(Label(parse_tile(n), np.array(q, np.float64)) for n, q in OKEY_LABELS)
    return RealPhoto("okey-solver-py-rack-1", okey_photo_path(), labels,
                     tuple(np.array(q, np.float64) for q in OKEY_CUT), "choose", rack=True)


#: The parts of the real-pixel set: the held-out photos that choose and those
#: that report, and the photos the networks were trained on (``trained``:
#: read and reported apart, never chosen on: a network is surer on what it saw).
PARTS = ("choose", "report", "trained")


def real_photos(part: str = "all") -> list[RealPhoto]:
    """The real-pixel set: the Okey photo and the Rummikub photos of ``part``
    ("choose", "report", "trained", "all": choose and report, or "every":
    all three), the Okey photo first."""
    from okey_vision.synth.real import load_real, split_real

    if part not in PARTS + ("all", "every"):
        raise ValueError(f"not a part of the real-pixel set: {part!r}")
    wanted = {"all": ("choose", "report"), "every": PARTS}.get(part, (part,))
    photos = [okey_photo()] if "choose" in wanted and okey_photo_path().exists() else []
    try:
        trained, held = split_real(load_real(real_pixels() / "rummikub-real"))
    except (FileNotFoundError, OSError):
        trained, held = [], []
    seen = {im.stem for im in trained}
    for im in held + trained:
        p = "trained" if im.stem in seen else "report" if report_part(im.stem) else "choose"
        if p in wanted:
            source = im.stem.split("_jpeg.rf.")[0]
            labels = tuple(Label(parse_tile(LABEL_FIXES[(source, k)]) if (source, k) in LABEL_FIXES else lab.tile,
                                 np.array(lab.polygon, np.float64)) for k, lab in enumerate(im.labels))
            photos.append(RealPhoto(im.stem, im.path, labels, (), p))
    return photos


# -- the views: each a homography and a canvas --------------------------------------------

Homography = tuple[np.ndarray, tuple[int, int]]   # 3x3 matrix, (width, height) of the canvas


def turn(w: int, h: int, degrees: float) -> Homography:
    """Turned by ``degrees`` (counter-clockwise as shown) about the centre, the canvas grown to hold it all."""
    from okey_vision.vision.normalise import turn_matrix

    m, size = turn_matrix(w, h, degrees)
    return np.vstack([m, [0, 0, 1]]), size


def border(w: int, h: int, share: float = 0.3) -> Homography:
    """Framed farther: a plain border of ``share`` of the long side on every side."""
    b = share * max(w, h)
    m = np.array([[1, 0, b], [0, 1, b], [0, 0, 1]], np.float64)
    return m, (round(w + 2 * b), round(h + 2 * b))


def closer(w: int, h: int, labels: Sequence[Label], margin: float = 0.25) -> Homography:
    """Framed closer: cropped to the labelled tiles (grown by ``margin`` of a
    tile, so no tile is cut) and enlarged back to the photo's long side."""
    pts = np.concatenate([lab.polygon for lab in labels])
    sizes = [np.ptp(lab.polygon, axis=0) for lab in labels]
    pad = margin * float(np.median([max(s) for s in sizes]))
    x0, y0 = np.maximum(pts.min(0) - pad, 0)
    x1, y1 = np.minimum(pts.max(0) + pad, [w, h])
    s = max(w, h) / max(x1 - x0, y1 - y0)
    m = np.array([[s, 0, -s * x0], [0, s, -s * y0], [0, 0, 1]], np.float64)
    return m, (round((x1 - x0) * s), round((y1 - y0) * s))


def side(w: int, h: int, near: str = "left", squeeze: float = 0.35) -> Homography:
    """Seen from the side: the far edge shrunk by ``squeeze`` towards its
    middle, as a camera turned about the vertical axis sees it."""
    import cv2

    src = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32)
    d = squeeze * h / 2
    if near == "left":
        dst = np.array([[0, 0], [w, d], [w, h - d], [0, h]], np.float32)
    else:
        dst = np.array([[0, d], [w, 0], [w, h], [0, h - d]], np.float32)
    return cv2.getPerspectiveTransform(src, dst).astype(np.float64), (w, h)


def framed(w: int, h: int, labels: Sequence[Label], distance: float) -> Homography:
    """Framed from ``distance`` times as far as the photo was taken: the photo
    scaled by ``1 / distance`` about its labelled tiles' centre on a canvas
    of its own size (grey beyond the photo when farther; cut when nearer, the
    tiles the canvas cuts then not scored, :func:`apply`)."""
    pts = np.concatenate([lab.polygon for lab in labels])
    cx, cy = (pts.min(0) + pts.max(0)) / 2
    s = 1.0 / distance
    m = np.array([[s, 0, w / 2 - s * cx], [0, s, h / 2 - s * cy], [0, 0, 1]], np.float64)
    return m, (w, h)


def then(a: Homography, b: Callable[[int, int], Homography]) -> Homography:
    """View ``a`` followed by the view ``b`` builds on ``a``'s canvas."""
    mb, size = b(*a[1])
    return mb @ a[0], size


def warm_dim(image: np.ndarray) -> np.ndarray:
    """The photo under a dim, warm lamp: blue and green cut (to 60 % and 85 %),
    then darkened (gamma 1.6): the light of players' evening tables."""
    x = image.astype(np.float32) / 255.0 * np.array([0.6, 0.85, 1.0], np.float32)
    return np.clip(255.0 * x ** 1.6, 0, 255).astype(np.uint8)


def apply(photo: RealPhoto, image: np.ndarray, kind: str, name: str, hom: Homography) -> RealView:
    """The view of ``photo`` through a homography: the warped pixels, the labels carried along."""
    import cv2

    m, (nw, nh) = hom
    out = cv2.warpPerspective(image, m, (nw, nh), flags=cv2.INTER_LINEAR,
                              borderMode=cv2.BORDER_CONSTANT, borderValue=FILL)

    def carry(poly: np.ndarray) -> np.ndarray:
        return cv2.perspectiveTransform(poly.reshape(-1, 1, 2).astype(np.float64), m).reshape(-1, 2)

    carried = [Label(lab.tile, carry(lab.polygon)) for lab in photo.labels]
    # a tile the canvas cuts is scored only if enough of it shows (the reader's own rule, ``FuseConfig.min_visible``)
    shown = [visible(lab.polygon, nw, nh) for lab in carried]
    labels = tuple(lab for lab, v in zip(carried, shown, strict=True) if v >= MIN_VISIBLE)
    cut = tuple(lab.polygon for lab, v in zip(carried, shown, strict=True) if 0 < v < MIN_VISIBLE)
    return RealView(photo, kind, name, out, labels, tuple(carry(q) for q in photo.ignore) + cut)


#: A labelled tile the view's canvas cuts is scored when at least this share of it shows.
MIN_VISIBLE = 0.6


def visible(poly: np.ndarray, w: int, h: int) -> float:
    """The share of a polygon's area inside a ``w`` x ``h`` canvas."""
    import cv2

    hull = cv2.convexHull(np.asarray(poly, np.float32))
    area = cv2.contourArea(hull)
    if area <= 0:
        return 0.0
    canvas = np.array([[0, 0], [w, 0], [w, h], [0, h]], np.float32).reshape(-1, 1, 2)
    inter, _ = cv2.intersectConvexConvex(hull, canvas)
    return float(inter / area)


#: Angles of the turned views (every 15 degrees round the circle).
TURNS = tuple(range(15, 360, 15))
#: The angles players hold close-ups at, for the closer-and-turned views.
CLOSE_TURNS = (30, 45, 60, -45)
#: Distances of the framed views, as a share of the distance the photo was taken from.
DISTANCES = (0.3, 0.5, 0.75, 1.25, 1.6)
#: A framed view is made only while a tile stays under this share of the
#: canvas's short side: nearer, a photo holds one or two tiles, not a rack.
MAX_TILE_SHARE = 0.4


def views(photo: RealPhoto, turns: Sequence[int] = TURNS, kinds: Sequence[str] | None = None) -> list[RealView]:
    """Every view of one photo: as it is, turned by each of ``turns``, framed
    farther and closer, seen from either side, closer then turned (the
    close-ups players take), framed from each of ``DISTANCES`` (while a tile
    stays a rack's tile, ``MAX_TILE_SHARE``), and under a warm, dim light;
    ``kinds`` keeps some kinds only."""
    img = photo.image()
    h, w = img.shape[:2]
    ident: Homography = (np.eye(3), (w, h))
    made = [("as-is", "as is", ident)]
    made += [("turned", f"turned {a}", turn(w, h, a)) for a in turns]
    made += [("farther", "farther (30 % border)", border(w, h)),
             ("side", "from the left", side(w, h, "left")),
             ("side", "from the right", side(w, h, "right"))]
    if photo.labels:  # the views framed about the tiles need tiles (a photo may show none)
        near = closer(w, h, photo.labels)
        made.insert(len(turns) + 2, ("closer", "closer (cropped to the tiles)", near))
        made += [("closer-turned", f"closer, turned {a}", then(near, partial(turn, degrees=a)))
                 for a in CLOSE_TURNS]
        tile = float(np.median([np.ptp(lab.polygon, axis=0).max() for lab in photo.labels]))
        made += [("framed", f"framed {d:g}x as far", framed(w, h, photo.labels, d))
                 for d in DISTANCES if tile / d <= MAX_TILE_SHARE * min(w, h)]
    out = [apply(photo, img, k, n, hom) for k, n, hom in made if kinds is None or k in kinds]
    if kinds is None or "warm-dim" in kinds:
        out.append(apply(photo, warm_dim(img), "warm-dim", "warm, dim light", ident))
    return out


# -- scoring ------------------------------------------------------------------------------

def polygon_iou(a: np.ndarray, b: np.ndarray) -> float:
    """Intersection over union of two polygons (convex hulls)."""
    import cv2

    ha = cv2.convexHull(np.asarray(a, np.float32))
    hb = cv2.convexHull(np.asarray(b, np.float32))
    inter, _ = cv2.intersectConvexConvex(ha, hb)
    union = cv2.contourArea(ha) + cv2.contourArea(hb) - inter
    return float(inter / union) if union > 0 else 0.0


def read_polygon(read) -> np.ndarray:
    """A read's corners (its quad, else its box's)."""
    if read.quad is not None:
        return np.array(read.quad, np.float64)
    x1, y1, x2, y2 = read.box
    return np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]], np.float64)


def inside(pt: np.ndarray, poly: np.ndarray) -> bool:
    """Whether a point lies inside a polygon."""
    import cv2

    return cv2.pointPolygonTest(np.asarray(poly, np.float32).reshape(-1, 1, 2),
                                (float(pt[0]), float(pt[1])), False) >= 0


#: A read and a label are one tile when their polygons overlap by at least this IoU.
MATCH_IOU = 0.3
#: Neighbours in a row may overlap by at most this share of a quad's area
#: (tiles standing side by side never cover each other's faces).
OVERLAP = 0.1


@dataclass
class Scored:
    """One view's reads against its labels."""

    view: str
    kind: str
    photo: str
    part: str
    tiles: int = 0          # scored labels (jokers left out)
    right: int = 0          # labels read right
    reads: int = 0          # scored reads (matched to a scored label, or false)
    false: int = 0          # reads on no tile
    misses: int = 0         # labels with no read
    exact: bool = False
    ious: list[float] = field(default_factory=list)
    #: (flagged, right, confidence, 0/180 evidence, second-best probability,
    #: box score over the photo's median or None) for every scored read
    flags: list[tuple[bool, bool, float, float, float, float | None]] = field(default_factory=list)
    got: str = ""
    #: The largest share of a read's quad that a neighbour in its row covers
    #: (:func:`okey_vision.vision.geometry.worst_overlap`; 0: none overlap).
    overlap: float = 0.0


def flag_row(read, right: bool) -> tuple[bool, bool, float, float, float, float | None]:
    """What the flag calibration looks at for one read."""
    second = read.alternatives[1][1] if len(read.alternatives) > 1 else 0.0
    return (read.low_confidence, right, read.confidence, read.turn or 0.0, second, read.detection)


def score_view(view: RealView, reads: Sequence) -> Scored:
    """Match reads to labels one to one (greedy by polygon IoU, at least
    ``MATCH_IOU``) and count: right, wrong, missed, false, exact, IoU, flags."""
    from okey_vision.vision.geometry import worst_overlap
    from okey_vision.vision.reads import APART, rack_order

    polys = [read_polygon(r) for r in reads]
    matched = greedy_match(view.labels, polys, lambda lab, p: polygon_iou(lab.polygon, p), MATCH_IOU)
    used_l = {i for i, _, _ in matched}
    used_r = {j for _, j, _ in matched}
    s = Scored(view.name, view.kind, view.photo.name, view.photo.part, overlap=worst_overlap(reads))
    for i, j, v in matched:
        lab, r = view.labels[i], reads[j]
        if lab.tile is None:
            continue
        ok = r.tile == lab.tile
        s.tiles += 1
        s.reads += 1
        s.right += ok
        s.ious.append(v)
        s.flags.append(flag_row(r, ok))
    s.misses = sum(1 for i, lab in enumerate(view.labels) if i not in used_l and lab.tile is not None)
    s.tiles += s.misses
    for j, r in enumerate(reads):
        if j in used_r:
            continue
        centre = polys[j].mean(0)
        if any(inside(centre, q) for q in view.ignore) or any(
                inside(centre, lab.polygon) for lab in view.labels if lab.tile is None):
            continue
        s.false += 1
        s.reads += 1
        s.flags.append(flag_row(r, False))
    rack = [r for r in rack_order(reads) if r.row != APART]
    if view.photo.rack:
        s.got = " ".join(r.name + ("?" if r.low_confidence else "") for r in rack)
        s.exact = [r.tile for r in rack] == [lab.tile for lab in view.labels]
    else:
        s.got = f"{s.right}/{s.tiles}"
        s.exact = s.right == s.tiles and s.false == 0
    return s


@dataclass(frozen=True)
class Summary:
    """Totals over some scored views."""

    views: int
    tiles: int
    right: int
    reads: int
    reads_right: int
    exact: int
    iou_median: float
    false: int
    misses: int
    #: Views where a read's quad is covered over ``OVERLAP`` of its area by a neighbour's.
    overlapped: int = 0

    @property
    def accuracy(self) -> float:
        """Share of labelled tiles read right."""
        return self.right / max(self.tiles, 1)

    @property
    def precision(self) -> float:
        """Share of reads that are right."""
        return self.reads_right / max(self.reads, 1)


def summarise(scored: Sequence[Scored]) -> Summary:
    """Totals of ``scored``."""
    ious = [v for s in scored for v in s.ious]
    return Summary(len(scored), sum(s.tiles for s in scored), sum(s.right for s in scored),
                   sum(s.reads for s in scored), sum(s.right for s in scored),
                   sum(s.exact for s in scored), float(np.median(ious)) if ious else 0.0,
                   sum(s.false for s in scored), sum(s.misses for s in scored),
                   sum(s.overlap > OVERLAP for s in scored))


def flag_rates(scored: Sequence[Scored]) -> tuple[float, float, int, int]:
    """(share of wrong reads flagged, share of right reads flagged, wrong, right)."""
    fl = [(row[0], row[1]) for s in scored for row in s.flags]
    wrong = [f for f, ok in fl if not ok]
    right = [f for f, ok in fl if ok]
    return (sum(wrong) / max(len(wrong), 1), sum(right) / max(len(right), 1), len(wrong), len(right))
