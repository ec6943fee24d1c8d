"""One geometry per rack row: shared top and bottom lines, like widths, no neighbour covered."""

from __future__ import annotations

import pytest

np = pytest.importorskip("numpy")
cv2 = pytest.importorskip("cv2")

from okey_vision.tiles import parse_tile  # noqa: E402
from okey_vision.vision.config import GeometryConfig  # noqa: E402
from okey_vision.vision.geometry import fit_rows, theil_sen, worst_overlap  # noqa: E402
from okey_vision.vision.reads import APART, TileRead  # noqa: E402


def row_reads(rng, n=8, h=40.0, w=28.0, angle=12.0, noise=2.0, overlap=4.0):
    """A row of tiles along a line turned ``angle`` degrees, each corner jittered, neighbours overlapping."""
    t = np.radians(angle)
    right, down = np.array([np.cos(t), np.sin(t)]), np.array([-np.sin(t), np.cos(t)])
    out = []
    for k in range(n):
        x = k * (w + 1.0)
        q = np.array([[x - overlap / 2, 0], [x + w + overlap / 2, 0], [x + w + overlap / 2, h], [x - overlap / 2, h]])
        q = q + rng.normal(0, noise, q.shape)
        pts = 100 + q[:, :1] * right + q[:, 1:] * down
        out.append(TileRead((0, 0, 1, 1), parse_tile("y4"), 0.99, row=0,
                            quad=tuple((float(a), float(b)) for a, b in pts)))
    return out, right, down


def line_residual(reads, corners, right, down) -> float:
    pts = np.array([r.quad[c] for r in reads for c in corners])
    u, v = pts @ right, pts @ down
    a, b = theil_sen(u, v)
    return float(np.abs(v - a - b * u).max())


def test_a_row_is_fitted_as_one() -> None:
    rng = np.random.default_rng(5)
    reads, right, down = row_reads(rng, noise=1.0, overlap=6.0)
    fitted = fit_rows(reads)
    assert worst_overlap(reads) > 0.1 and worst_overlap(fitted) <= 0.1
    for corners in ((0, 1), (3, 2)):                     # tops, bottoms: one line each
        assert line_residual(reads, corners, right, down) > 1.0
        assert line_residual(fitted, corners, right, down) < 0.5
    widths = [np.hypot(*np.subtract(r.quad[1], r.quad[0])) for r in fitted]
    assert max(widths) / min(widths) < 1.25
    assert fit_rows(reads, GeometryConfig(fit=False)) == reads


def test_a_row_seen_in_perspective_keeps_each_sides_own_lean() -> None:
    # upright edges meeting at a vanishing point below the row: the lean of a
    # side at u is (u - 150) / 400 (-0.375 at the left end, +0.31 at the right), tiles touching
    rng = np.random.default_rng(7)
    reads, truth = [], []
    for k in range(8):
        x0, x1 = k * 34.0, k * 34.0 + 34.0
        q = np.array([[x0, 0.0], [x1, 0.0], [x1 + (x1 - 150) / 10, 40.0], [x0 + (x0 - 150) / 10, 40.0]])
        truth.append(q)
        noisy = q + rng.normal(0, 0.6, q.shape)
        reads.append(TileRead((0, 0, 1, 1), parse_tile("k9"), 0.99, row=0,
                              quad=tuple((float(a), float(b)) for a, b in noisy + 100)))

    def worst(fitted):
        return max(np.abs(np.asarray(r.quad) - 100 - t).max() for r, t in zip(fitted, truth, strict=True))

    assert worst(fit_rows(reads)) < 1.5 < 5.0 < worst(fit_rows(reads, GeometryConfig(perspective=False)))


def test_a_tile_standing_proud_keeps_its_own_top_and_a_lone_tile_is_left_alone() -> None:
    rng = np.random.default_rng(6)
    reads, _, _ = row_reads(rng, angle=0.0, noise=0.5)
    proud = [(x, y - 15.0) for x, y in reads[3].quad[:2]] + list(reads[3].quad[2:])
    reads[3] = TileRead(reads[3].box, reads[3].tile, 0.99, row=0, quad=tuple(proud))
    lone = TileRead((0, 0, 1, 1), parse_tile("r3"), 0.99, row=APART, quad=((0, 300), (20, 301), (20, 330), (0, 330)))
    fitted = fit_rows([*reads, lone])
    assert fitted[-1] is lone
    assert abs(fitted[3].quad[0][1] - proud[0][1]) < 0.1 and abs(fitted[3].quad[1][1] - proud[1][1]) < 0.1
    assert abs(fitted[2].quad[0][1] - 100.0) < 1.5


def test_the_real_okey_photo_has_one_geometry_per_row() -> None:
    pytest.importorskip("onnxruntime")
    from okey_vision.eval.views import okey_photo, okey_photo_path, score_view, views
    from okey_vision.vision.reader import RackReader

    if not okey_photo_path().exists():
        pytest.skip(f"{okey_photo_path()} not here")
    view = views(okey_photo(), (), ("as-is",))[0]
    fitted = RackReader(calibration=False)
    own = RackReader(calibration=False, config=fitted.config.with_settings(["geometry.fit=False"]))
    a, b = own.read(view.image), fitted.read(view.image)
    assert worst_overlap(a) > 0.1 and worst_overlap(b) <= 0.1
    ia, ib = score_view(view, a).ious, score_view(view, b).ious
    assert len(ib) == 7 and np.median(ib) > np.median(ia) and min(ib) > min(ia)


def test_the_edge_between_touching_tiles_is_found_on_the_photo() -> None:
    # six cream tiles touching on a dark table, 30 px wide, with a dark groove
    # between each two; the reads' shared edges lie 3 px off the grooves, each
    # one its own way, so spacing them evenly cannot find them; the row's two
    # ends lie 3 px out on the table, its top and bottom 2 px inside the faces
    img = np.full((200, 300, 3), 40, np.uint8)
    x0, y0, w, h = 40, 60, 30, 44
    img[y0:y0 + h, x0:x0 + 6 * w] = (200, 225, 235)
    for k in range(1, 6):
        img[y0:y0 + h, x0 + k * w - 1:x0 + k * w + 1] = (90, 100, 110)
    off = [-3.0, 3.0, -3.0, 3.0, -3.0, 3.0, 3.0]
    reads = []
    for k in range(6):
        a, b = x0 + k * w + off[k], x0 + (k + 1) * w + off[k + 1]
        reads.append(TileRead((0, 0, 1, 1), parse_tile("r5"), 0.99, row=0,
                              quad=((a, y0 + 2), (b, y0 + 2), (b, y0 + h - 2), (a, y0 + h - 2))))
    fitted = fit_rows(reads, GeometryConfig(even=False), (300, 200), img)
    tops, bottoms = [[c[1] for r in fitted for c in r.quad[k:k + 2]] for k in (0, 2)]
    assert np.abs(np.subtract(tops, y0)).max() <= 1.0 and np.abs(np.subtract(bottoms, y0 + h)).max() <= 1.0
    seams = [(r.quad[1][0] + r.quad[2][0]) / 2 for r in fitted[:-1]]
    assert np.abs(np.subtract(seams, [x0 + k * w for k in range(1, 6)])).max() <= 1.0
    ends = (fitted[0].quad[0][0] + fitted[0].quad[3][0]) / 2, (fitted[-1].quad[1][0] + fitted[-1].quad[2][0]) / 2
    assert abs(ends[0] - x0) <= 1.0 and abs(ends[1] - (x0 + 6 * w)) <= 1.0
    blind = fit_rows(reads, GeometryConfig(even=False), (300, 200))
    assert np.abs(np.subtract([r.quad[1][0] for r in blind[:-1]], [x0 + k * w for k in range(1, 6)])).max() >= 2.5
    assert fit_rows(reads, GeometryConfig(even=False, seams=False, outer=False, lines=False), (300, 200), img) == blind
    unseamed = fit_rows(reads, GeometryConfig(even=False, seams=False), (300, 200), img)
    assert np.abs(np.subtract([r.quad[1][0] for r in unseamed[:-1]], [x0 + k * w for k in range(1, 6)])).max() >= 2.5
    ends = fit_rows(reads, GeometryConfig(even=False, outer=False), (300, 200), img)
    assert abs(ends[0].quad[0][0] - (x0 - 3)) < 0.1
    # a stored correction is cut where the classifiers read the tile, not where the fit moved its outline
    assert all(f.quad != r.quad and f.cut == r.quad for f, r in zip(fitted, reads, strict=True))
    assert all(f.cut == r.quad for f, r in zip(fit_rows(fitted, GeometryConfig(even=False), (300, 200), img), reads,
                                              strict=True))


def test_neighbours_that_still_cover_each_other_are_cut_back() -> None:
    # a tile lying turned across its row (its own corners kept) covers a
    # third of its neighbour's quad: it is cut back, both keep most of their own
    t = np.radians(40)
    r, d = np.array([np.cos(t), np.sin(t)]), np.array([-np.sin(t), np.cos(t)])

    def tile(c, rr, dd):
        c = np.asarray(c, np.float64)
        return tuple(map(tuple, [c - 15 * rr - 20 * dd, c + 15 * rr - 20 * dd, c + 15 * rr + 20 * dd,
                                 c - 15 * rr + 20 * dd]))

    quads = [tile((100, 100), r, d), tile((120, 100), d, -r), tile((200, 100), r, d)]
    reads = [TileRead((0, 0, 1, 1), parse_tile("b2"), 0.99, row=0, quad=q) for q in quads]
    assert worst_overlap(reads) > 0.3
    fitted = fit_rows(reads)
    assert worst_overlap(fitted) <= 0.1 and fitted[2] == reads[2]
    for a, b in zip(fitted[:2], reads[:2], strict=True):   # each keeps most of its own
        assert cv2.contourArea(np.float32(a.quad)) > 0.6 * cv2.contourArea(np.float32(b.quad))
    assert worst_overlap(fit_rows(reads, GeometryConfig(max_overlap=1.0))) > 0.3


def test_no_read_of_the_real_okey_photo_seen_from_the_side_covers_its_neighbour() -> None:
    pytest.importorskip("onnxruntime")
    from okey_vision.eval.views import okey_photo, okey_photo_path, score_view, views
    from okey_vision.vision.reader import RackReader

    if not okey_photo_path().exists():
        pytest.skip(f"{okey_photo_path()} not here")
    reader = RackReader(calibration=False)
    loose = RackReader(calibration=False, config=reader.config.with_settings(["geometry.max_overlap=1.0"]))
    for view in views(okey_photo(), (), ("side",)):
        reads, uncut = reader.read(view.image), loose.read(view.image)
        ious, before = sorted(score_view(view, reads).ious), sorted(score_view(view, uncut).ious)
        assert worst_overlap(reads) <= 0.1, view.name
        assert len(ious) == 7 and sum(ious) >= sum(before) - 1e-9, view.name   # cut, the quads fit no worse
        assert [r.tile for r in reads] == [r.tile for r in uncut]      # the cut changes no read
        if view.name == "from the right":   # the detector's box of k10 spans half of b10: cut, it fits better
            assert worst_overlap(uncut) > 0.2 and sum(ious) > sum(before) + 0.05
