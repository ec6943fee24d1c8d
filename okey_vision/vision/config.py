"""Every setting of the tile reader in one frozen configuration, each with its reason.

The reader is a pipeline of stages, one module each (look, normalise,
detect, fuse, crop, classify, order; see :mod:`okey_vision.vision.reader`);
each stage takes its own section of :class:`ReaderConfig`. Values were
chosen on the real-pixel benchmark's ``choose`` part
(``benchmarks/real_pixels.py``: the shared Okey photo and half of the
held-out real photos, turned, framed and seen from the side) together with
the player-style validation renders; the ``report`` part only reports.

>>> cfg = ReaderConfig().with_settings(["normalise.tile_height=48"])
>>> cfg.normalise.tile_height, ReaderConfig().normalise.tile_height
(48.0, 40.0)

Pure Python: the flag rule (:class:`FlagConfig`) is read by the boundary
type :class:`~okey_vision.vision.reads.TileRead` too.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass, field, fields, replace
from typing import Any


@dataclass(frozen=True)
class LookConfig:
    """The first look: where the rack is, how it lies and how big its tiles are."""

    #: A plain grey border of this share of the long side on every side before
    #: the first look: in players' close-ups a tile is 10-16 % of the long
    #: side, larger than the detector was taught; a 30 % border lifted six
    #: real Okey photos from 77 % to 93 % of tiles read.
    border: float = 0.3
    #: Long side (px) of the shrunk, bordered photo the oriented detector looks at.
    size: int = 416
    #: When the first look finds nothing, look again at this size without the
    #: border (a wide shot whose tiles were too small to see): 0 never.
    retry_size: int = 832


@dataclass(frozen=True)
class NormaliseConfig:
    """The view the detector reads: the rack turned level and the tiles scaled."""

    #: Tile height (px) in the view: about the size of the real Rummikub tiles
    #: at the detectors' input (41 px at 416), which they read best.
    tile_height: float = 40.0
    #: Grey margin around the turned photo, in tile heights: the tiles at the
    #: photo's edge still stand on a background, like the renders' racks.
    margin: float = 1.0
    #: The view holds the tiles found so far and this many tile heights
    #: around them, not the whole photo: a rack in a wide photo is read on a
    #: small view (the detector's time grows with the view's area).
    reach: float = 3.0
    #: The view's long side is at most this (px): a wide table of tiny tiles
    #: is read at a smaller scale rather than on a huge canvas.
    max_side: int = 1280
    #: Turn the view so the tiles stand upright (rows level). Off: scale only.
    level: bool = True
    #: The first look's boxes are coarse (large tiles turned 60 degrees gave
    #: near-square boxes at any angle); the view's boxes are not. When the
    #: pose they give departs from the first by more than ``settle_angle``
    #: degrees or ``settle_size`` of the tile height, the photo is normalised
    #: again with it and read again. The size bound was 0.15: at 0.4 the
    #: real-pixel choose part read the same (99.3 % of tiles, 339 of 378
    #: views exact) and a tilted 12 MP render skipped one view (366 -> 271 ms CPU).
    settle_angle: float = 6.0
    settle_size: float = 0.4
    #: A tile's width over its height, for the pose's tile height from a
    #: box's area: Okey tiles are 0.6-0.76 (the renderer's range), Rummikub's
    #: about 0.72.
    tile_aspect: float = 0.7
    #: Below this mean elongation (long side over short, less 1) the boxes are
    #: too near square to say which side is a tile's width; the neighbours'
    #: directions tell the rack's way instead.
    elongated: float = 0.08
    #: Neighbour directions within this many degrees of the commonest one
    #: agree with it (a rack's rows, drawn by hand, bend a little).
    neighbour_tol: float = 12.0


@dataclass(frozen=True)
class DetectConfig:
    """Running a detector and keeping its boxes."""

    #: The network that reads the view: the view detector (``detector_view``:
    #: the oriented detector fine-tuned on normalised views of close-ups, real
    #: training photos among them; on the real-pixel choose part 99.9 % of
    #: tiles and quad IoU 0.913 against 99.4 % and 0.908), the oriented one
    #: (``detector``, also the first look and the fallback when a model folder
    #: has no view detector), or an upright-box one (``detector_axis``,
    #: ``detector_strip``).
    view_stem: str = "detector_view"
    #: Boxes below this score are not tiles.
    conf: float = 0.35
    #: Non-maximum suppression IoU.
    iou: float = 0.5
    #: A box lying this share of its area inside a surer box is a part of a
    #: tile read as a tile of its own.
    inner: float = 0.6
    #: An oriented box whose area lies this much under surer boxes (their
    #: intersections added up) is dropped: a box straddling the gap between
    #: two tiles found on their own (0.6 dropped 13 of 59 false reads on the
    #: player-style validation renders and found as many tiles; 0.45 lost 10).
    covered: float = 0.6
    #: An oriented box this many times the median box's area is not a tile (a
    #: detector can fire on a whole table); left in, it would take every
    #: tile inside it in the NMS.
    outsized: float = 12.0
    #: At most this many tiles a photo.
    max_tiles: int = 120
    #: Read the view also mirrored left to right and fuse the two passes'
    #: boxes (``fuse.fuse_passes``): a box both passes find sits better on its
    #: tile (on the player-style validation renders the classifiers read 98.7 %
    #: of boxes overlapping their tile by IoU >= 0.8 right, 41.8 % under 0.5).
    mirror: bool = True
    #: Leave the mirrored pass out where the first look says it is not needed
    #: (below). Off: on the real-pixel choose part it read alike, but on the
    #: report part (144 views: as-is, turned 90/180/270, framed, side,
    #: warm-dim) it read 99.0 % of tiles and 133 exact views against 99.4 %
    #: and 137 with both passes -- it did not carry over, and an exact hand
    #: matters more than a third of the detector's time. A stricter rule
    #: (level within 8 degrees, tiles 100 px tall, every box scoring 0.8) read
    #: the choose part (227 views) as both passes did, but the report part
    #: (172 views, 63 left to one pass) 1493/1505 tiles and 162 exact against
    #: 1496 and 164 (``benchmarks/one_pass.py --part report --gate 8,100,0.8``):
    #: still off.
    one_pass: bool = False
    #: With ``one_pass``, the mirrored pass is left out where the first look says it is not
    #: needed: a level rack (turned at most ``one_pass_angle`` degrees), close
    #: enough that its tiles are at least ``one_pass_px`` px tall in the photo
    #: (the view shrinks them to ``NormaliseConfig.tile_height``; a far,
    #: blurred tile keeps the second pass), whose first pass is sure of every
    #: box (each scoring ``one_pass_score`` or more). Its boxes are fitted to
    #: the faces' edges all the same (``CropConfig.refine``). A third of the
    #: detector's time on an upright 12 MP rack; the real-pixel figures with
    #: and without it: docs/results.md.
    one_pass_angle: float = 8.0
    one_pass_px: float = 60.0
    one_pass_score: float = 0.6
    #: On the view every rack tile stands upright; a box less than this many
    #: times longer than wide is stood up by the view's own up, not by its
    #: long side (a near-square box of a tile seen at an angle was read turned
    #: 90 degrees: the shared Okey photo turned 30 degrees read k10 as k12).
    squarish: float = 1.25


@dataclass(frozen=True)
class FuseConfig:
    """Joining boxes of several passes into one box a tile."""

    #: Boxes of two passes at least this IoU apart are one tile ...
    iou: float = 0.5
    #: ... and a box only one pass found is kept from this score.
    single: float = 0.5
    #: Read each leaning rack row again warped level and square-on
    #: (:mod:`okey_vision.vision.rectify`) and fuse those boxes in.
    rectify_rows: bool = True
    #: A rectified box and a first box overlapping by more than this IoU are
    #: one tile (corners averaged, weighted by score) ...
    rectified_iou: float = 0.3
    #: ... and a rectified box overlapping none is kept from this score.
    rectified_new: float = 0.5
    #: Two boxes on overlapping chunks of one strip overlapping by more than
    #: this IoU are one tile (the surer kept).
    rectified_same_iou: float = 0.4
    #: A tile cut by the photo's edge is read only if at least this share of
    #: it shows (the renderer's labelling rule, ``SynthConfig.min_visible``).
    min_visible: float = 0.6


@dataclass(frozen=True)
class CropConfig:
    """Cutting each tile upright from its corners in the full-resolution photo."""

    #: Margins of the upright crops read per tile (their distributions
    #: averaged). One crop at 0.08 (the classifiers' training margin) read
    #: the real-pixel choose part as two at 0.05 and 0.12 did (99.3 % of
    #: tiles; validation renders 88.4 vs 88.8 %, within their noise) at half
    #: the classifiers' time.
    margins: tuple[float, ...] = (0.08,)
    #: Fit each oriented detection's corners to its face's edges
    #: (:mod:`okey_vision.vision.refine`) before the classifiers read it.
    refine: bool = True
    #: A tile is read again from its refined corners only if they moved this
    #: much (mean corner shift over the tile's height; the classifiers were
    #: trained with corners moved by up to 4 %): the others would read the same.
    refined_shift: float = 0.08
    #: Margins of the crops cut from a tile's refined corners, read besides
    #: the detected corners' crops and averaged with them.
    refined_margins: tuple[float, ...] = (0.12,)
    #: Report each read's refined corners (its face) rather than the
    #: detector's box, which takes in the tile's thickness and a neighbour's
    #: edge: the quad the app's taps and crops come from.
    report_refined: bool = True
    #: The tiles are cut from a copy of the photo where a tile is about this
    #: tall (px; 0: the full-size photo): twice the classifiers' 64 px crops
    #: keeps every detail they see, and a 12 MP photo's tiles are several
    #: hundred px tall (each crop then needed its own blur).
    work_tile_height: float = 128.0
    #: The fitted corners stop where the face is flat and bright, a little
    #: inside the tile's rounded, shaded edge that a player (and a labelled
    #: polygon) calls its outline: each side is moved out by this share of
    #: the tile's height (top, bottom) and width (left, right). Chosen on the
    #: real-pixel choose part, where the fitted sides lay 2-4 % inside the
    #: labelled outlines (median IoU 0.874 -> 0.911 with these).
    grow_tall: float = 0.02
    grow_wide: float = 0.03
    #: Drop detections whose face shows no ink: blank or face-down tiles,
    #: which the detectors were never taught ...
    drop_blanks: bool = True
    #: ... ink being a pixel this far from the face's colour (Lab, |dL| + 1.5
    #: |dab|, white-balanced; farther than ``RefineConfig.face_distance``, where
    #: a pixel merely stops looking like the face: shading is not ink) ...
    ink_distance: float = 45.0
    #: ... on at least this share of the face's middle.
    ink_share: float = 0.015
    #: Margin around the tile's quad when it is cut upright, as a share of its
    #: height / width: the numeral's edge stays inside the crop when the
    #: corners are a few per cent off.
    upright_margin: float = 0.08
    #: The cream face is mapped to this BGR colour by the white balance
    #: (``crops.white_balance``): the face colour of the training renders.
    face_reference: tuple[float, float, float] = (215.0, 225.0, 230.0)
    #: Channel gains of the white balance lie within these bounds: a dark or
    #: odd crop is not blown up past them. 8 (was 4): under a dim, warm lamp a
    #: face's blue channel needs ~10x, and at 4 the shared Okey photo's red 7
    #: still read black; at 6-12 it read red (real-pixel choose part, "warm, dim light").
    gain_bounds: tuple[float, float] = (0.5, 8.0)
    #: A colour's distance from the face is ``|dL| + chroma_weight * |dab|``
    #: (8-bit Lab), in the ink test, the corner fit's face-likeness and the
    #: calibration's ink pixels alike: a coloured ink differs from the cream
    #: face more in hue than in lightness, a shadow in lightness only.
    chroma_weight: float = 1.5


@dataclass(frozen=True)
class CalibrationConfig:
    """A player's own tile set applied at read time (``vision/calibration.py``)."""

    #: The part of an upright crop where the tile's face lies (x from, x to, y
    #: from, y to, shares of the crop): away from the rack and the neighbours.
    ink_window: tuple[float, float, float, float] = (0.25, 0.75, 0.1, 0.9)
    #: Fewer ink pixels than this: no ink colour (the expert stays out).
    min_ink: int = 8
    #: The calibration speaks in the light it learned in: a crop whose light (the
    #: log white-balance gain of its face in a channel) lies this far outside
    #: the range of the player's crops' lights in that channel has its say
    #: (shift and experts) fading, to none at twice as far. On renders of one
    #: set, dim or tinted photos' inks (gains 2-3 times the learned ones)
    #: looked like another colour's under the learned prototypes and turned
    #: reds the network read right into blacks; a navy set's shift turned a
    #: real Rummikub black 3 under a warm, dim light blue. 0.5 rather than 0.3
    #: (chosen on renders of the set that are not among the calibration
    #: benchmark's photos, and on the guard's views): 11 rather than 19 of 45
    #: misreads left, the guard's 550 tiles read alike.
    light_margin: float = 0.5
    #: A numeral's shape matches its prototype to exp(-1/2) when their cosine
    #: is this far below 1.
    shape_spread: float = 0.15


@dataclass(frozen=True)
class RefineConfig:
    """Fitting a tile's corners to its face's edges (``vision/refine.py``)."""

    #: Tile height in the search patch (px): the edges are found to about a pixel
    #: here, i.e. ~2.5 % of the tile's height.
    patch_h: int = 40
    #: How far a side may move (fraction of the tile's height, or width for the
    #: left/right sides): the detector's corners are off by a median 17 % and a
    #: 90th percentile 41 % of the height on the validation renders.
    search: float = 0.35
    #: Strip depth either side of a candidate edge (patch px).
    strip: tuple[int, ...] = (1, 2, 3)
    #: Share of a side's length sampled (its middle: rounded corners left out).
    span: float = 0.7
    #: Coarse search step (patch px); then every pixel within a step of the best.
    coarse_step: float = 2.0
    #: Samples along a side.
    samples: int = 14
    #: A side moves only if its face-inside / not-face-outside contrast reaches
    #: this (face-likeness difference, 0..1); weaker edges (two tiles touching
    #: without a gap) keep the detector's side. Stricter (0.35 on every side)
    #: read 78.3 vs 78.8 % of the validation tiles (measured before the
    #: plausibility gates, with the refined boxes reported).
    min_contrast: float = 0.25
    #: The same for the left and right sides, where two tiles often touch
    #: (0.45 with ``patch_h`` 64: 79.0 vs 78.8 % in that same earlier setting,
    #: but 96 false reads vs 92; not kept on one set's 0.2 points).
    min_contrast_side: float = 0.25
    #: Pull towards the detected side: score lost per patch px moved (on average
    #: over the side's two ends).
    pull: float = 0.004
    #: Colour distance (Lab: |dL| + 1.5 |dab|) at which a pixel stops looking like the face.
    face_distance: float = 40.0
    #: The face's colour is taken from the middle of the patch (these shares of
    #: its height, and of the tile's width): the digit's ink and the rounded
    #: corners lie outside it less often than anywhere else on the face.
    centre_rows: tuple[float, float] = (0.25, 0.75)
    centre_cols: tuple[float, float] = (0.2, 0.8)
    #: The refined quad is kept only if its area is within this ratio of the
    #: detection's and its height / width within this ratio of the detection's.
    area_ratio: tuple[float, float] = (0.6, 1.6)
    aspect_ratio: tuple[float, float] = (0.7, 1.45)
    #: ... and only if it is nearly a parallelogram (a tile is small against the
    #: camera distance: its opposite sides differ in direction by at most this,
    #: degrees) whose corners are not too sharp (a side view shears the face by
    #: up to ~40 degrees).
    max_side_skew: float = 12.0
    min_corner_angle: float = 45.0
    #: Refinement passes (each searches again in the frame of the last). A second
    #: pass read 77.9 vs 78.2 % of the validation tiles (gates on, the refined
    #: quad read at two margins).
    passes: int = 1


@dataclass(frozen=True)
class RectifyConfig:
    """Rack rows warped level and square-on for a second detector pass (``vision/rectify.py``)."""

    #: Height of a rectified row strip (px), margins included: the tiles come out
    #: about ``strip_h / (1 + 2 * margin)`` px tall, a size both detectors read well.
    strip_h: int = 72
    #: Band grown above and below the fitted tile tops and bottoms, as a share of
    #: the row's height: the fitted lines are loose, and the detector reads a tile
    #: better with some rack around it. Chosen on the player-style validation
    #: renders (seed 9201) and the real training photos (docs/results.md, the training log).
    margin: float = 0.5
    #: The band runs this many tile widths past the row's first and last tile.
    extend: float = 0.8
    #: A row whose tiles lean less than this (shear, strip px across per px down)
    #: is left as the first pass read it.
    min_lean: float = 0.1
    #: Shears tried by :func:`lean` (both ways).
    max_lean: float = 1.0
    lean_steps: int = 41
    #: Side of the square canvases the strips are stacked on (the detector's size).
    canvas: int = 416
    #: Vertical gap between stacked strips (px).
    gap: int = 8


@dataclass(frozen=True)
class ClassifyConfig:
    """Reading each crop's number and colour."""

    #: The colour classifier reads crops white-balanced on the tile's cream
    #: face; it must match how ``color`` was trained.
    white_balance: bool = True
    #: A tile's own 0/180 evidence (log ratio of its best face probability
    #: read both ways) that overrides its rack's common way up.
    own_turn_evidence: float = 2.5
    #: A rack whose tiles' 0/180 evidence sums to less than this (nats) would
    #: stand the way the photo stands (0: never). Off: on the shared Okey
    #: photo, turned 0-315 degrees and framed farther (tiles 8 % and 5 % of
    #: the long side), every rack's summed evidence was under 1.2 nats, its
    #: sign right in 14 of 17 framings, while the photo's own up is wrong for
    #: every photo turned past 90 degrees (at 1.0 the photo turned 105
    #: degrees read in reverse rack order). Small, far tiles read alike both
    #: ways up: at 5 % level the rack read right tile by tile, in reverse order.
    weak_vote: float = 0.0
    #: Read the colour network on each tile's turned crops too (averaged with
    #: the upright ones'); off: the upright crops' colour stands for both ways
    #: up (a colour does not turn), half the colour network's crops (~4 ms a
    #: 14-tile read). On: off read the real-pixel choose part's tiles alike
    #: (2050 of 2062) but flagged 2.6 % of its right reads, not 2.4 % (the
    #: Okey photo's red 7 and two Rummikub tiles read less surely).
    colour_turned: bool = True
    #: A tile of a rack row (three or more along one axis) whose face reads
    #: at least this sure upright as cut is not read turned by the number
    #: network (0: every tile both ways up) ... At ``FlagConfig.doubt_confidence``:
    #: a read this sure is never flagged for its ways up differing, so its
    #: unknown turn evidence (``TileRead.turn`` None) flags nothing the rule
    #: would; and it cannot overturn its row (own evidence would need it under 0.08).
    one_way_sure: float = 0.995
    #: ... while the row's other tiles' 0/180 evidence sums to at least this
    #: (nats) for the row standing as cut (under it: the sure tiles' evidence
    #: may decide, so they are read turned too). A rack row's evidence is weak
    #: and often rests on one tile: on the real-pixel choose part's 65 rack
    #: rows (as-is, turned 90/180/270, framed), summed without the tiles read
    #: at 0.995 or more it pointed the other way in 2 rows at 0, in none at
    #: 0.1; a rack photographed upside down reads both ways as before.
    one_way_vote: float = 0.1
    #: A detection whose best face (read both ways up) is below this
    #: probability shows no numeral the classifiers know (a checked cloth, a
    #: coin, a tile's back): it is not reported.
    no_face: float = 0.2
    #: Alternatives kept per read.
    top_k: int = 5
    #: Read with the player's calibration (their own tile set learned from
    #: their corrections, ``okey-vision calibrate fit``) when one is there and
    #: was fitted for these models; off: the shipped networks alone.
    calibration: bool = True


@dataclass(frozen=True)
class OrderConfig:
    """Rack rows and rack order along the rack's own axis."""

    #: Rows follow the direction from each tile to its nearest neighbour when
    #: it departs from the tiles' own axis by more than this (degrees): a side
    #: view's boxes turned off the row.
    row_direction_min_deg: float = 10.0
    #: Two tiles are neighbours in a row when their centres lie within this
    #: many tile heights across the row ...
    row_band: float = 0.45
    #: ... and within this many tile widths along it: a rack row holds gaps
    #: of up to three empty places between its groups (the sample photo's top
    #: row, r6 to b1, is 2.9 of its faces' widths apart).
    neighbour: float = 4.0
    #: Two groups of tiles in one band across the rows with at most this many
    #: tile widths between their ends are one rack row (a blank and an empty
    #: place between two groups, as on a rendered rack, are 3.9 widths apart).
    merge_reach: float = 8.0
    #: A lone tile joins the nearest row when within this many tile heights
    #: across it and this many tile widths past its ends; else it lies apart.
    lone_band: float = 0.6
    lone_reach: float = 4.0


@dataclass(frozen=True)
class DecideConfig:
    """The joint decision over a rack's reads (``vision/decide.py``): the
    game's rules as knowledge, each read's ranked alternatives as evidence."""

    #: Use the rules at all (off: each read is its classifier's best face).
    rules: bool = True
    #: A read at least this sure is never changed by the rules (it keeps its
    #: face and uses up a copy): the rules choose only among the faces of
    #: reads the classifiers are unsure of. On the real-pixel choose part
    #: (325 views) 0.9, 0.98 and 0.995 decided every scored tile alike; 0.98
    #: changes only reads the flag rule (``FlagConfig.low_confidence``) flags.
    confident: float = 0.98
    #: The prior that two touching tiles of a row belong to one group (a run
    #: or a set, side by side as players keep them): the chance a touching
    #: pair links, the rest spread over every face alike. The choose part
    #: (419 views) read alike from 0.1 to 0.7 (16 tiles wrong); a strong prior
    #: pulls an unsure read into a group it is not in (the report part: 11
    #: wrong up to 0.3, 13 at 0.7, a 0.88 y11 read as the y8 beside a y7),
    #: and at 0.3 a rendered side view of an unarranged hand read its
    #: y11 b10 b13 as y11 b12 b13. With pairs linked too, 0.5 read one more
    #: choose tile wrong.
    link: float = 0.15
    #: Two neighbours in a row touch when their centres are at most this many
    #: tile widths apart; farther, an empty place lies between them (a gap
    #: between groups) and the prior says nothing of them.
    touching: float = 1.5


@dataclass(frozen=True)
class GeometryConfig:
    """One geometry per rack row: shared top and bottom lines, like widths (``vision/geometry.py``)."""

    #: Fit each row's quads as one (off: every tile keeps its own corners).
    fit: bool = True
    #: Rows of at least this many tiles are fitted (two tiles give each line four corners).
    min_tiles: int = 2
    #: A corner within this many tile heights of its row's fitted line is
    #: moved onto it; one farther off (a tile standing proud of its row, a
    #: meld on a table pushed out of line) keeps its own. Chosen on the
    #: real-pixel choose part (the reads' own quads fitted after the read;
    #: median IoU with the labels 0.9069 at 0.15, 0.9092 at 0.08, 0.9106 at
    #: 0.04 with the tolerances below, the mean and 25th percentile best at 0.08).
    snap: float = 0.08
    #: The sides' lean changes along the row (a straight line in the
    #: side's place along the row): seen in perspective, a row's upright
    #: edges meet at a vanishing point, so each leans more the farther it
    #: stands from the point below it. On the choose part's views
    #: (``real_pixels.py --part choose --turns 90,180,270 --kinds
    #: as-is,turned,framed,side,warm-dim``) the median IoU rose from 0.9093 to
    #: 0.9107, the mean from 0.895 to 0.896 (the Okey rack's 69 tiles alone:
    #: median 0.873 -> 0.868, mean 0.847 -> 0.853).
    perspective: bool = True
    #: A tile whose width departs from the row's width-to-height ratio by
    #: more than this share takes the row's ratio (a box spanning a
    #: neighbour's edge); the others keep their own width. At 0.12 the choose
    #: part's median IoU was 0.9021, at 0.5 0.9091, never 0.9092: only a gross
    #: outlier is set.
    width_tolerance: float = 0.5
    #: Tiles touching side by side (a gap under ``touch`` of a tile's width)
    #: share the span between the group's two outer edges evenly: the outer
    #: edges stand against the table or the rack and are found surely, the
    #: edges between two touching tiles are not (on the real Rummikub tables
    #: the quads of a meld sat a sixth of a tile off to one side; off, the
    #: choose part's median IoU was 0.9054 against 0.9069) ...
    even: bool = True
    touch: float = 0.1
    #: ... unless the span departs from the tiles' widths by more than this
    #: share (a tile missed inside the group; 0.2: 0.9069, 0.35: 0.9092).
    span_tolerance: float = 0.35
    #: A tile turned more than this (degrees) from its row's way (a tile lying
    #: askew on a table) keeps its own corners and does not shape the row's lines.
    max_turn: float = 15.0
    #: The edge between two touching tiles is moved onto the groove between
    #: them in the photo (``geometry._seams``): the detector's boxes and the
    #: even spacing put it a few per cent of a width off, the photo shows it.
    #: On the choose part's views (as for ``perspective``, the reads' own
    #: quads fitted again) the median IoU rose from 0.9107 to 0.9140, the
    #: Okey rack's from 0.873 to 0.897. The values below moved it by at most
    #: 0.002 (reach 0.1-0.25, width 0.025-0.06, pull 0-30, contrast 1-10,
    #: blur 0.01-0.02) ...
    seams: bool = True
    #: ... searched within this share of a tile's width of the fitted edge,
    #: each end alone (0.15: the same median, one view more with neighbours
    #: overlapping; 0.25: five more) ...
    seam_reach: float = 0.1
    #: ... the groove's depth measured against the photo this share of a width to either side ...
    seam_width: float = 0.04
    #: ... on the photo shrunk by a whole factor while a tile stays at least
    #: this many px tall (on a 12 MP photo of seven tiles the searches took
    #: 150-230 ms at full size, 33 ms shrunk; the choose part's median IoU alike, 0.9201
    #: against 0.9202 unshrunk) ...
    search_height: float = 120.0
    #: ... and blurred by this share of a tile's height ...
    seam_blur: float = 0.01
    #: ... less this many grey levels per tile width moved (the fitted edge is likely near) ...
    seam_pull: float = 10.0
    #: ... and kept only where the groove is at least this many grey levels deep.
    seam_contrast: float = 4.0
    #: Two tiles in a row never cover each other: a quad still covering a
    #: neighbour's by more than this share of the smaller is cut back
    #: (``geometry._apart``): a tile whose fit went astray stops at its fitted
    #: neighbour's side, two alike meet at their overlap's middle. On the
    #: choose part's views (as for ``perspective``) the views with such an
    #: overlap fell from 5 to 0 (the median IoU alike, 0.914; the mean 0.900
    #: against 0.8998).
    max_overlap: float = 0.1
    #: A side with no touching neighbour is moved onto the photo's step from
    #: the bright face to what lies beside it (``geometry._outer_sides``):
    #: on the choose part's views (as for ``perspective``, after the seams)
    #: the median IoU rose from 0.914 to 0.9185, the mean from 0.900 to
    #: 0.908, the Okey rack's median from 0.897 to 0.905 ...
    outer: bool = True
    #: ... searched within this share of a tile's width, each end alone
    #: (0.05: median 0.9168, 0.1: 0.9180, 0.2: 0.9186 but the Okey rack's
    #: mean 0.874 against 0.880) ...
    outer_reach: float = 0.15
    #: ... and kept where the step is at least this many grey levels (10-60: alike).
    outer_contrast: float = 10.0
    #: The row's top and bottom lines are moved onto the photo's steps above
    #: and below its faces (``geometry._row_lines``; one line through every
    #: tile, so one noisy tile does not move it): on the choose part's views
    #: (as for ``outer``, after it) the median IoU rose from 0.9185 to
    #: 0.9202, the mean from 0.908 to 0.911, the Okey rack's median from
    #: 0.905 to 0.924 (each tile's lines alone: median 0.9206, the Okey
    #: rack's 0.916) ...
    lines: bool = True
    #: ... each end within this share of a tile's height (0.025: median
    #: 0.9196, 0.06: 0.9198, 0.08: the Okey rack's median 0.862).
    line_reach: float = 0.04
    #: A tile's fitted quad is kept only if it overlaps the tile's own by at
    #: least this IoU: a fit gone astray never moves a tile off its face.
    keep_iou: float = 0.6
    #: ... and only if no corner moved more than this many tile heights.
    max_move: float = 0.5


@dataclass(frozen=True)
class RackConfig:
    """No tiles without a rack (``vision/rack.py``)."""

    #: A rack row (or a meld on a table) holds at least this many tiles: a
    #: face, a cup or a playing card on a table gave one or two reads, never
    #: a row of three (``benchmarks/no_rack.py``) ...
    min_row_tiles: int = 3
    #: ... whose median confidence in their numbers (any colour) reaches this:
    #: the digits of a camera's test pattern read as rows of numbers at a
    #: median 0.66-0.72, the racks of a rendered navy-and-orange set (its blue
    #: read as black, faces at a median 0.64 in some rows) at 1.0, the rows of the real
    #: racks and tables at 0.99 and more.
    row_confidence: float = 0.8
    #: A lone tile is kept (as the indicator) only within this many tile
    #: heights of a rack row's tile (centre to centre): the indicator lies
    #: beside the rack, a phantom read lies across the photo.
    beside: float = 4.0
    #: With no rack in the frame, tiles are read only where one read reaches
    #: this confidence (then the reads of ``row_confidence`` and more stay):
    #: the held-out real photos of one, two or four tiles read them at
    #: 0.998-1.0, the test pattern's digits at 0.97 at most, a coin on a
    #: drawn table at 0.99 (``benchmarks/no_rack.py``). Keeping only the reads
    #: this sure lost a 0.9 and a 0.99 read of a real photo of seven tiles in
    #: pairs (no row of three).
    alone_confidence: float = 0.995
    #: A row of unsure reads (median under ``row_confidence``) is still a rack
    #: in a photo with colour when it holds at least this many tiles: a real
    #: rack seen badly (a rendered rack turned 54 degrees and leaning read its
    #: 11-tile row at a median 0.46, its reads then flagged) is a rack, while
    #: the rows of unsure "tiles" on the no-rack pictures are a test pattern's
    #: digits on a grey frame (``benchmarks/no_rack.py``). 0: unsure rows never count.
    unsure_row_tiles: int = 3


@dataclass(frozen=True)
class FlagConfig:
    """When a read is flagged for the player to confirm: it is probably wrong.

    Two witnesses: the classifiers (how sure of the face, and whether the
    tile reads alike both ways up) and the detector (how sure a tile lies in
    the box at all, next to the photo's other boxes: a box on the rack's
    edge, on part of a tile or over two is one it doubts, however sure the
    classifiers are of a face in it). Chosen on the real-pixel choose part
    alone: its views of the shipped kinds (as-is, turned 90/180/270, framed,
    side, warm-dim) and 20 more turns with the kinds turned, farther,
    closer and closer-turned, 8 wrong reads among 10 027. Seven of them
    scored their box 0.60-0.87 of the photo's median box (the eighth 0.92,
    read at 16 %), 1 % of the right reads under 0.90. Of the rules "below a
    confidence (0.5-0.98), or a box under a share (0.85-0.92), or the ways
    up differing" flagging all 8, at most 3 % of the right reads (under a
    third of the product's 10 %: the report part flagged 1.7 times the
    choose part's share under the rule before), this one has thresholds a
    player can be told; it flagged 2.7 % (0.93 / 0.88: 2.7 % too). The rule
    before, the classifiers alone (0.98 / 0.995 / 0.2), flagged 5.0 %.

    Reported once on the report part, not chosen on
    (``python benchmarks/real_pixels.py --part all --turns 90,180,270
    --kinds as-is,turned,framed,side,warm-dim``): 100 % of its 8 wrong
    reads flagged and 5.4 % of its 1249 right ones (the rule before: 87.5 %
    and 10.6 %; it missed a false read at 0.99 whose box scored 0.77); the
    choose part 100 % of 7 and 3.9 % of 2873 (before: 6.3 %).

    Fitting the classifiers' thresholds alone by split conformal calibration
    on the choose part's reads and hard crops (``okey_vision/eval/flags.py``,
    ``python benchmarks/flags.py``) did not carry over: hard crops are wrong
    at lower confidence than real misreads.
    """

    #: Below this confidence a read is flagged (the classifiers unsure of its face) ...
    low_confidence: float = 0.9
    #: ... and below this one too when the tile's two ways up disagree by
    #: more than ``turn_doubt`` nats: a tile read right reads alike both ways
    #: up (the number model was trained on turned crops), a misread one often does not ...
    doubt_confidence: float = 0.995
    turn_doubt: float = 0.2
    #: ... and, however sure the classifiers are, when the detector scored its
    #: box under this share of the photo's median box (``TileRead.detection``;
    #: a read without it, one made elsewhere, is judged by the classifiers alone).
    weak_box: float = 0.9

    def flag(self, confidence: float, turn: float | None, detection: float | None = None) -> bool:
        """Whether a read of this ``confidence``, 0/180 evidence ``turn`` and
        box score ``detection`` (a share of the photo's median box; None:
        unknown) is flagged.

        >>> rule = FlagConfig()
        >>> rule.flag(0.95, 0.0, 1.0), rule.flag(0.999, 0.0, 0.8), rule.flag(0.99, 0.5, 1.0), rule.flag(0.5, 0.0)
        (False, True, True, True)
        """
        return confidence < self.low_confidence or bool(self.why(confidence, turn, detection))

    def why(self, confidence: float, turn: float | None, detection: float | None = None) -> str:
        """Why a read is flagged beyond its confidence (its box doubted, its
        ways up differing), "" when nothing beyond it is wrong.

        >>> print(FlagConfig().why(0.999, 0.0, 0.72))
        the detector doubts a tile lies here (its box scored 72 % of the photo's median box)
        >>> FlagConfig().why(0.99, 0.5, 1.0), FlagConfig().why(0.5, 0.0, 1.0)
        ('the tile reads differently upside down', '')
        """
        out = []
        if detection is not None and detection < self.weak_box:
            out.append(WEAK_BOX_REASON.format(share=f"{detection:.0%}".replace("%", " %")))
        if turn is not None and turn > self.turn_doubt and confidence < self.doubt_confidence:
            out.append(TURN_REASON)
        return "; ".join(out)


#: Why a read whose box the detector doubts is flagged.
WEAK_BOX_REASON = "the detector doubts a tile lies here (its box scored {share} of the photo's median box)"
#: Why a read whose two ways up disagree is flagged.
TURN_REASON = "the tile reads differently upside down"

#: Why every read of a greyscale photo is flagged.
GREYSCALE_REASON = "greyscale photo: tile colours cannot be read"


@dataclass(frozen=True)
class ReaderConfig:
    """The reader's settings, one section a stage."""

    look: LookConfig = field(default_factory=LookConfig)
    normalise: NormaliseConfig = field(default_factory=NormaliseConfig)
    detect: DetectConfig = field(default_factory=DetectConfig)
    fuse: FuseConfig = field(default_factory=FuseConfig)
    crop: CropConfig = field(default_factory=CropConfig)
    refine: RefineConfig = field(default_factory=RefineConfig)
    rectify: RectifyConfig = field(default_factory=RectifyConfig)
    classify: ClassifyConfig = field(default_factory=ClassifyConfig)
    order: OrderConfig = field(default_factory=OrderConfig)
    decide: DecideConfig = field(default_factory=DecideConfig)
    geometry: GeometryConfig = field(default_factory=GeometryConfig)
    rack: RackConfig = field(default_factory=RackConfig)
    flags: FlagConfig = field(default_factory=FlagConfig)

    def with_settings(self, settings: Sequence[str]) -> ReaderConfig:
        """A copy with ``section.name=value`` settings changed (values as
        Python literals; a bad name or value is a ``ValueError`` quoting it)."""
        cfg = self
        for item in settings:
            key, sep, raw = item.partition("=")
            section, _, name = key.strip().partition(".")
            if not sep or section not in {f.name for f in fields(self)}:
                raise ValueError(f"not a reader setting (section.name=value): {item!r}")
            part = getattr(cfg, section)
            kinds = {f.name: f.type for f in fields(part)}
            if name not in kinds:
                raise ValueError(f"no setting {name!r} in the {section} section: {item!r}")
            cfg = replace(cfg, **{section: replace(part, **{name: _value(raw.strip(), getattr(part, name), item)})})
        return cfg


def _value(raw: str, current: Any, item: str) -> Any:
    """``raw`` parsed to the type of ``current``."""
    if isinstance(current, str):
        return raw
    try:
        value = ast.literal_eval(raw)
    except (ValueError, SyntaxError):
        raise ValueError(f"not a value for this setting: {item!r}") from None
    if isinstance(current, bool):
        return bool(value)
    if isinstance(current, float):
        return float(value)
    if isinstance(current, tuple):
        return tuple(value) if isinstance(value, (list, tuple)) else (value,)
    return type(current)(value)


#: The shipped settings.
DEFAULT = ReaderConfig()

__all__ = ["DEFAULT", "GREYSCALE_REASON", "TURN_REASON", "WEAK_BOX_REASON", "CalibrationConfig", "ClassifyConfig",
           "CropConfig", "DecideConfig", "DetectConfig", "FlagConfig", "FuseConfig", "GeometryConfig", "LookConfig",
           "NormaliseConfig", "OrderConfig", "RackConfig", "ReaderConfig", "RectifyConfig", "RefineConfig"]
