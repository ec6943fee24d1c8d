"""The joint decision: rows' runs and sets, two copies of a face, sure reads kept, reasons said."""

from __future__ import annotations

import itertools

import pytest

np = pytest.importorskip("numpy")

from okey_vision.tiles import TILES, parse_tile  # noqa: E402
from okey_vision.vision.config import DecideConfig  # noqa: E402
from okey_vision.vision.decide import decide, linked, row_posteriors, touching  # noqa: E402
from okey_vision.vision.reads import TileRead  # noqa: E402

SURE = DecideConfig().confident


def read(x: float, *alts: tuple[str, float], row: int = 0, width: float = 10) -> TileRead:
    tiles = tuple((parse_tile(n), p) for n, p in alts)
    return TileRead((x, 0, x + width, 15), tiles[0][0], tiles[0][1], tiles, row=row)


def names(reads) -> list[str]:
    return [r.name for r in reads]


def test_links_are_runs_and_sets() -> None:
    t = parse_tile
    assert linked(t("r12"), t("r13")) and linked(t("r13"), t("r1")) and linked(t("r6"), t("r5"))
    assert not linked(t("r5"), t("r5"))  # a pair is no group of a table, nor of most racks
    assert linked(t("r5"), t("k5")) and not linked(t("r5"), t("k6")) and not linked(t("r5"), t("r7"))
    assert linked(t("b2"), t("k9"), wild=frozenset({t("k9")}))  # the okey stands for any tile


def test_a_row_picks_the_alternative_that_continues_its_run() -> None:
    row = [read(0, ("b9", .99)), read(10, ("b1", .55), ("b10", .40)), read(20, ("b11", .995))]
    out = decide(row)
    assert names(out) == ["b9", "b10", "b11"]
    assert out[1].confidence == pytest.approx(.40)
    assert out[1].low_confidence  # a read the rules changed is confirmed by the player
    assert out[1].reason == ("the rules chose b10 over b1 (read 40 % against 55 %): "
                             "it makes a group with b9 and b11")
    assert out[0] is row[0] and out[2] is row[2]


def test_tiles_with_an_empty_place_between_are_not_linked() -> None:
    row = [read(0, ("b9", .99)), read(25, ("b1", .55), ("b10", .40)), read(50, ("b11", .995))]
    assert not touching(row[0], row[1])
    assert names(decide(row)) == ["b9", "b1", "b11"]


def test_a_sure_read_is_never_changed() -> None:
    # r6 between y3 and y5 breaks the run, but the classifiers are sure of it
    row = [read(0, ("y3", .99)), read(10, ("r6", SURE), ("y4", .01)), read(20, ("y5", .99))]
    out = decide(row)
    assert names(out) == ["y3", "r6", "y5"] and not out[1].reason
    # sweep: whatever the neighbours, no read at or above the threshold changes face
    faces = ["r4", "r5", "r6", "k5", "fj"]
    for a, b in itertools.product(faces, repeat=2):
        for p in (SURE, .99, 1.0):
            mid = read(10, ("b2", p), ("r5", 1 - p))
            got = decide([read(0, (a, .9), ("b2", .1)), mid, read(20, (b, .9), ("b2", .1))])
            assert got[1].name == "b2"


def test_sure_reads_beyond_the_set_are_kept_and_said() -> None:
    reads = [read(i * 30, ("k7", .999), ("k1", .001)) for i in range(3)]
    out = decide(reads)
    assert names(out) == ["k7"] * 3
    assert all(r.reason == "k7 is read 3 times and the set holds 2: one of them is wrong" for r in out)


def test_the_two_copy_rule_changes_the_least_sure_read_and_says_why() -> None:
    reads = [read(0, ("k7", .99)), read(40, ("k7", .70), ("k1", .25)), read(80, ("k7", .995))]
    out = decide(reads)
    assert names(out) == ["k7", "k1", "k7"]
    assert out[1].reason == ("the rules chose k1 over k7 (read 25 % against 70 %): "
                             "k7 is read as often as the set holds it elsewhere")


def test_the_indicator_uses_a_copy() -> None:
    reads = [read(0, ("b2", .99)), read(40, ("b2", .6), ("b7", .3))]
    assert names(decide(reads)) == ["b2", "b2"]
    assert names(decide(reads, indicator="b2")) == ["b2", "b7"]


def test_rules_off_keep_every_read() -> None:
    row = [read(0, ("b9", .99)), read(10, ("b1", .55), ("b10", .40)), read(20, ("b11", .995))]
    assert decide(row, cfg=DecideConfig(rules=False)) == row


def test_row_posteriors_match_brute_force() -> None:
    """The forward-backward marginals equal the sums over every assignment of the row."""
    cfg = DecideConfig(confident=1.01)
    row = [read(0, ("r5", .6), ("k5", .3), ("r3", .1)), read(10, ("r6", .5), ("b6", .5)),
           read(20, ("r7", .4), ("r9", .35), ("fj", .25)), read(50, ("y1", .7), ("y2", .3))]
    got = row_posteriors(row, cfg)
    from okey_vision.vision.decide import _link_weights

    w = _link_weights(frozenset(), cfg.link)
    states = [[(t, p) for t, p in r.alternatives] for r in row]
    totals = [dict.fromkeys([t for t, _ in s], 0.0) for s in states]
    for combo in itertools.product(*states):
        p = float(np.prod([q for _, q in combo]))
        for (a, _), (b, _), ra, rb in zip(combo, combo[1:], row, row[1:], strict=False):
            p *= w[a.index, b.index] if touching(ra, rb, cfg) else 1.0
        for k, (t, _) in enumerate(combo):
            totals[k][t] += p
    for k, post in enumerate(got):
        z = sum(totals[k].values())
        assert {t.name: round(p, 9) for t, p in post} == {t.name: round(v / z, 9) for t, v in totals[k].items()}
    assert len(TILES) == 53


# -- on real photos ------------------------------------------------------------------------
# Two real Rummikub tables of the shared set (among the photos the networks
# were trained on; the rules were never fitted on them), read as they are.

RUN_PHOTO = "rummy-35_jpeg.rf.2e2ffc2240d9b26f8afacbea438ad8fa"      # y3 y5 y4 in a row: y5 reads y6
COLOUR_RUN_PHOTO = "rummy-4_jpeg.rf.54fccb47b64e43622d4e8781d19832da"  # k13 .. k1 in a row: k3 reads k8


@pytest.fixture(scope="module")
def real_reads():
    pytest.importorskip("cv2")
    from okey_vision.eval.views import real_photos, views
    from okey_vision.vision.reader import RackReader

    reader = RackReader()
    if not reader.has_net("detector"):
        pytest.skip("no detector weights")
    photos = {p.name: p for p in real_photos("trained") if p.name in (RUN_PHOTO, COLOUR_RUN_PHOTO)}
    if len(photos) < 2:
        pytest.skip("the real Rummikub photos are not in the shared folder")
    out = {}
    for name, photo in photos.items():
        view = views(photo, (), ("as-is",))[0]
        out[name] = view, reader.read(view.image, consistent=False)
    return out


def _on(view, reads, tile: str):
    """The read on the labelled tile ``tile``."""
    from okey_vision.eval.views import polygon_iou, read_polygon

    lab = next(lab for lab in view.labels if lab.tile is not None and lab.tile.name == tile)
    return max(reads, key=lambda r: polygon_iou(lab.polygon, read_polygon(r)))


@pytest.mark.parametrize(("photo", "truth", "misread", "group"),
                         [(RUN_PHOTO, "y5", "y6", "y4"), (COLOUR_RUN_PHOTO, "k3", "k8", "k4 and k2")])
def test_a_real_row_picks_the_alternative_its_run_needs(real_reads, photo, truth, misread, group) -> None:
    from okey_vision.eval.views import score_view

    view, raw = real_reads[photo]
    assert _on(view, raw, truth).name == misread      # alone, the classifiers read it wrong ...
    decided = decide(raw)
    got = _on(view, decided, truth)
    assert got.name == truth                           # ... its row's run reads it right
    assert got.reason.endswith(f"it makes a group with {group}") and got.low_confidence
    assert score_view(view, decided).right == score_view(view, raw).right + 1
    assert all(a is b for a, b in zip(raw, decided, strict=True) if a.confidence >= SURE)


def test_the_two_copy_rule_fixes_a_real_read(real_reads) -> None:
    """The table holds k8 once and shows a k3 read as k8; with the indicator
    k8 (which uses one of its two copies) the set holds one more k8, so the
    less sure k8 read takes its next face, k3 -- right. The rows' prior is
    off here: the copy rule alone."""
    view, raw = real_reads[COLOUR_RUN_PHOTO]
    copies_only = DecideConfig(link=0.0)
    assert _on(view, decide(raw, cfg=copies_only), "k3").name == "k8"   # two k8s: the set allows it
    got = _on(view, decide(raw, indicator="k8", cfg=copies_only), "k3")
    assert got.name == "k3"
    assert got.reason.endswith("k8 is read as often as the set holds it elsewhere")
    assert _on(view, decide(raw, indicator="k8", cfg=copies_only), "k8").name == "k8"  # the sure one stays
