"""The app's pure helpers: score table, live round, advice, drawing, photos."""

from __future__ import annotations

import pytest

from okey_vision.app.round import LiveRound
from okey_vision.app.scores import Round, ScoreTable
from okey_vision.errors import ImageError, OkeyError
from okey_vision.report.analysis import Problem, analyse, distance_text, groups_for_display
from okey_vision.report.render import hand_html, tile_html
from okey_vision.scoring import COUNTDOWN, PENALTY
from okey_vision.tiles import parse_hand, parse_tile
from okey_vision.vision.reads import APART, TileRead

# ------------------------------------------------------------ scores ---

def test_countdown_scores_every_finish_kind():
    t = ScoreTable(["A", "B"])
    assert t.totals() == [20, 20]
    t = t.add(Round(0))                                  # -2
    t = t.add(Round(0, okey_discard=True))               # -4
    t = t.add(Round(1, kind="pairs"))                    # -4
    t = t.add(Round(1, kind="pairs", okey_discard=True))  # -8
    assert t.totals() == [8, 14]
    t = t.add(Round(None))                               # stall: nothing in countdown
    assert t.totals() == [8, 14]
    assert [row["round"] for row in t.table()] == ["start", "1", "2", "3", "4", "5"]
    from okey_vision.report.labels import Lang

    tr = t.table(Lang.TR)
    assert [row["el"] for row in tr] == ["başlangıç", "1", "2", "3", "4", "5"]
    assert [row["sonuç"] for row in tr][1:] == ["A: perler", "A: perler, okey atarak", "B: çiftler",
                                                "B: çiftler, okey atarak", "kimse bitiremedi (taş bitti)"]


def test_countdown_indicator_twin_and_game_over():
    t = ScoreTable(["A", "B", "C", "D"], COUNTDOWN)
    t = t.add(Round(0, indicator_shown=(1,)))
    assert t.totals() == [19, 18, 17, 17]
    for _ in range(8):
        t = t.add(Round(0, kind="pairs", okey_discard=True)) if not t.game_over() else t
    assert t.game_over() and t.leader() == "A"
    with pytest.raises(OkeyError, match="game is over"):
        t.add(Round(1))
    assert t.undo().totals() != t.totals() and len(t.undo().rounds) == len(t.rounds) - 1


def test_penalty_scores():
    t = ScoreTable(["A", "B", "C"], PENALTY)
    t = t.add(Round(2))                                   # +20 each opponent
    t = t.add(Round(None))                                # stall +10 everyone
    t = t.add(Round(1, kind="pairs", okey_discard=True, indicator_shown=(0,)))  # +80, twin +10
    assert t.totals() == [20 + 10 + 80, 20 + 10 + 10, 10 + 80 + 10]
    assert t.leader() == "B" and not t.game_over()


@pytest.mark.parametrize("players,scheme,msg", [
    (["A"], COUNTDOWN, "2 to 4 players"),
    (["A", "B", "C", "D", "E"], COUNTDOWN, "2 to 4 players"),
    (["A", "A"], COUNTDOWN, "must differ"),
    (["A", " "], COUNTDOWN, "needs a name"),
    (["A", "B"], "golf", "unknown scoring scheme"),
])
def test_score_table_refuses_bad_setups(players, scheme, msg):
    with pytest.raises(OkeyError, match=msg):
        ScoreTable(players, scheme)


def test_score_table_refuses_bad_rounds():
    t = ScoreTable(["A", "B"])
    for r in (Round(2), Round(0, kind="triples"), Round(0, indicator_shown=(5,))):
        with pytest.raises(OkeyError):
            t.add(r)


# ------------------------------------------------------------ round ---

def test_live_round_records_seen_tiles_by_turn():
    r = LiveRound().with_indicator("k3").add_seen("r5, k7", who="left").next_turn().add_seen("fj")
    assert r.seen_names() == ["r5", "k7", "fj"]
    assert r.by_turn() == [(1, "r5 (left), k7 (left)"), (2, "fj")]
    assert r.undo_seen().seen_names() == ["r5", "k7"]
    assert r.indicator == parse_tile("k3")


@pytest.mark.parametrize("text,err", [("", "no tile"), ("r5 x", "unknown tile"), ("fj fj fj", "copies")])
def test_live_round_refuses_bad_entries(text, err):
    with pytest.raises(OkeyError, match=err):
        LiveRound().add_seen(text)
    with pytest.raises(OkeyError, match="false joker"):
        LiveRound().with_indicator("fj")


# ------------------------------------------------------------ advice ---

def test_analyse_fifteen_tiles_ranks_discards():
    a = analyse("r4 r5 r6 b1 r9 r10 r11 y10 y11 y12 y13 r4 r5 r6 k6", "r3")
    assert a.ok and not a.can_declare and len(a.hand.tiles) == 15
    assert a.recommended.tile is not None
    assert a.headline().startswith(f"Discard {a.recommended.tile.name}")
    melds, left, _caption = groups_for_display(a)
    assert sum(len(m) for m in melds) + len(left) == 15


def test_analyse_declarable_and_fourteen():
    a = analyse("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4", "b2")
    assert a.can_declare and a.headline().startswith("Declare: your 14 tiles")
    melds, left, _caption = groups_for_display(a)
    assert left == [] and sum(len(m) for m in melds) == 14
    a = analyse("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 y13", "b2")
    assert a.headline().startswith("Draw")


@pytest.mark.parametrize("tiles,ind,seen,msg", [
    ("r1 r2 q3", "b2", "", "unknown tile name 'q3'"),
    ("r1 r1 r1", "b2", "", "3 copies of 'r1'"),
    ("r1 r2", "fj", "", "false joker"),
    ("r1 r2", None, "", "Set the indicator"),
    ("", "b2", "", "No tiles"),
    (" ".join(["r1"] * 2 + ["y1"] * 2 + ["b1"] * 2 + ["k1"] * 2 + ["r2"] * 2 + ["y2"] * 2 + ["b2"] * 2 + ["k2"] * 2),
     "r9", "", "at most 15"),
    ("r1 r2", "b2", "r1 r1", "3 copies of 'r1'"),
])
def test_analyse_gives_plain_messages(tiles, ind, seen, msg):
    a = analyse(tiles, ind, seen)
    assert isinstance(a, Problem) and not a.ok and msg in a.message


def test_distance_text():
    assert distance_text(0).startswith("finished")
    assert distance_text(1) == "1 tile from winning (distance 1)"
    assert "no finish" in distance_text(99)


# ------------------------------------------------------------ drawing ---

def test_tiles_are_drawn_with_okeys_and_false_jokers_marked():
    okey = parse_tile("r4")
    assert "OKEY" in tile_html(parse_tile("r4"), okey, stands_for=parse_tile("r7"))
    assert "=r7" in tile_html(parse_tile("r4"), okey, stands_for=parse_tile("r7"))
    fj = tile_html(parse_tile("fj"), okey)
    assert "FJ" in fj and "=r4" in fj
    assert "#1565c0" in tile_html(parse_tile("b9"), okey)  # blue numeral
    a = analyse("r4 r5 r6 b1 r9 r10 r11 y10 y11 y12 y13 r4 r5 r6 k6", "r3")
    melds, left, _ = groups_for_display(a)
    html = hand_html(melds, left, okey, discard=a.recommended.tile)
    assert html.count("ov-tile") - html.count("ov-tiles") == 15
    assert html.count(" discard\"") == 1  # one tile ringed as the discard


# ------------------------------------------------------------ app state ---

def test_an_entry_flag_is_cleared_by_confirming_not_by_its_confidence():
    from okey_vision.app.state import AppState, Entry

    # flagged for its reason (e.g. a greyscale photo) although the reader is sure of it
    r = TileRead((0, 0, 10, 15), parse_tile("b1"), 0.995, ((parse_tile("b1"), 0.995), (parse_tile("k1"), 0.004)),
                 reason="greyscale photo")
    e = Entry.read(r, 0)
    assert e.unsure and e.flagged and e.alternatives == (parse_tile("b1"), parse_tile("k1"))
    app = AppState()
    app.set_entries([e, Entry.typed("r4")])
    assert app.flagged == [0]
    app.confirm_all()
    assert app.flagged == [] and app.entries[0].confirmed and app.entries[0].confidence == 0.995
    fixed = e.corrected("k1")
    assert fixed.tile == parse_tile("k1") and not fixed.flagged and fixed.box == e.box and fixed.alternatives == ()


def test_app_state_keeps_the_players_indicator_and_drops_a_photos():
    from okey_vision.app.state import AppState, Entry, IndicatorSource

    app = AppState()
    app.start_photo("a", "a.jpg")
    app.photo_indicator(parse_tile("r3"))
    assert app.round.indicator == parse_tile("r3") and app.indicator_source is IndicatorSource.PHOTO
    assert app.photo is not None and app.photo.has_indicator
    app.start_photo("b", "b.jpg")
    app.photo_indicator(None)  # read from the earlier photo: dropped, so the page asks
    assert app.round.indicator is None and app.indicator_source is IndicatorSource.NONE
    app.set_indicator("k9", IndicatorSource.PLAYER)
    app.start_photo("c", "c.jpg")
    app.photo_indicator(parse_tile("r3"))  # the player's choice wins
    assert app.round.indicator == parse_tile("k9") and app.photo.has_indicator
    app.set_entries([Entry.typed("r1")])
    version = app.version
    app.forget_photo("c.jpg: damaged")
    assert app.entries == () and app.version == version + 1 and app.photo.error == "c.jpg: damaged"
    assert app.photo.image is None and app.round.indicator == parse_tile("k9")
    app.set_indicator("b2", IndicatorSource.PHOTO)
    app.forget_photo("again")
    assert app.round.indicator is None


def test_app_state_corrections_renumber_the_pickers_only_when_needed():
    from okey_vision.app.state import AppState, Entry

    app = AppState()
    app.set_entries(Entry.typed(n) for n in ("r1", "r2", "r3"))
    version = app.version
    app.correct(1, "k5")  # from its own picker: the pickers stay
    assert [e.name for e in app.entries] == ["r1", "k5", "r3"] and app.version == version
    assert app.correcting and app.entries[1].confirmed
    app.correct(0, None)  # removed: the tiles after it move up
    assert [e.name for e in app.entries] == ["k5", "r3"] and app.version == version + 1
    app.correct(0, "y1", renumber=True)  # from the tap picker: the grid follows
    assert app.version == version + 2 and app.tiles == [parse_tile("y1"), parse_tile("r3")]


# ------------------------------------------------------------ photos ---

cv2 = pytest.importorskip("cv2")
np = pytest.importorskip("numpy")


@pytest.mark.parametrize("data,msg", [
    (b"", "empty"),
    (b"hello", "not an image file"),
    (b"\xff\xd8\xff\xe0garbage" * 10, "damaged"),
])
def test_decode_photo_refuses_bad_bytes(data, msg):
    from okey_vision.report.photo import decode_photo

    with pytest.raises(ImageError, match=msg):
        decode_photo(data, "x.jpg")


def test_decode_photo_refuses_tiny_and_shrinks_huge():
    from okey_vision.report.photo import READ_SIDE, decode_photo

    _ok, tiny = cv2.imencode(".png", np.zeros((20, 30, 3), np.uint8))
    with pytest.raises(ImageError, match="too small"):
        decode_photo(tiny.tobytes())
    _ok, big = cv2.imencode(".jpg", np.zeros((2400, 3200, 3), np.uint8))
    assert max(decode_photo(big.tobytes()).shape[:2]) == READ_SIDE


def test_read_photo_splits_rack_and_apart_and_draws_boxes():
    from okey_vision.report.photo import draw_reads, pick_indicator, read_photo

    img = np.full((300, 400, 3), 200, np.uint8)
    t = parse_tile
    reads = [TileRead((10, 10, 40, 50), t("r5"), 0.99, row=0),
             TileRead((50, 10, 80, 50), t("r6"), 0.3, ((t("r6"), 0.3), (t("r8"), 0.25)), row=0),
             TileRead((200, 200, 230, 240), t("k3"), 0.95, row=APART)]
    got = read_photo(img, lambda image: reads)
    assert [r.name for r in got.rack] == ["r5", "r6"] and [r.name for r in got.apart] == ["k3"]
    assert [r.name for r in got.low] == ["r6"]
    assert pick_indicator(got.apart) == t("k3")
    out = draw_reads(img, got.reads, t("k3"))
    assert out.shape == img.shape and (out != img[:, :, ::-1]).any()
    with pytest.raises(ImageError, match="No tiles found"):
        read_photo(img, lambda image: [])


def test_draw_reads_marks_the_tiles_the_player_should_check():
    from okey_vision.report.photo import draw_reads

    img = np.full((300, 400, 3), 200, np.uint8)
    reads = [TileRead((50, 60, 80, 100), parse_tile("r6"), 0.3, row=0)]
    unsure = draw_reads(img, reads)
    assert (draw_reads(img, reads, unsure=[True]) == unsure).all()  # by default: the read's own flag
    confirmed = draw_reads(img, reads, unsure=[False])  # the player confirmed it: green, no '?'
    assert (confirmed != unsure).any() and (confirmed == draw_reads(img, [TileRead(
        (50, 60, 80, 100), parse_tile("r6"), 0.99, row=0)])).all()
    with pytest.raises(ValueError):
        draw_reads(img, reads, unsure=[])


def test_sample_truth_matches_a_fresh_render():
    from okey_vision.synth.sample import render_sample, sample_truth

    truth = sample_truth()
    scene = render_sample()
    assert [t.name for t in scene.hand] == truth["hand"]
    assert scene.indicator.name == truth["indicator"]
    assert parse_hand(" ".join(truth["hand"]))


def test_take_or_draw_for_fourteen_tiles():
    # The offered tile is part of the analysis, so its headline is the advice's action.
    hand = "r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 y13"
    take, draw = analyse(hand, "b2", offered="k4"), analyse(hand, "b2", offered="r9")
    assert take.advice.action.value == "take" and take.headline() == "Take k4: it finishes the hand."
    assert draw.advice.action.value == "draw" and draw.headline().startswith("Draw from the stock: ")
    assert analyse(hand, "b2").headline().startswith("Draw from the stock: ")  # nothing offered
    third = analyse("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k4 k4", "b2", offered="k4")  # a third copy
    assert third.refused is not None and third.refused[0].name == "k4" and third.advice.offered is None


def test_decode_photo_refuses_a_giant_png():
    import struct
    import zlib

    from okey_vision.report.photo import decode_photo

    ihdr = struct.pack(">IIBBBBB", 20000, 20000, 8, 2, 0, 0, 0)
    chunk = struct.pack(">I", len(ihdr)) + b"IHDR" + ihdr + struct.pack(">I", zlib.crc32(b"IHDR" + ihdr))
    with pytest.raises(ImageError, match="too large"):
        decode_photo(b"\x89PNG\r\n\x1a\n" + chunk + b"\x00" * 64, "bomb.png")


def test_read_photo_sets_aside_the_least_sure_extra_tiles():
    from okey_vision.report.photo import read_photo

    img = np.full((300, 1200, 3), 200, np.uint8)
    names = ["r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", "r9", "r10", "r11", "r12", "r13", "k1", "k2", "k3"]
    reads = [TileRead((10 + 60 * i, 10, 60 + 60 * i, 80), parse_tile(n), 0.9 if n != "r7" else 0.5, row=0)
             for i, n in enumerate(names)]
    got = read_photo(img, lambda image: reads)
    assert len(got.rack) == 15 and "r7" not in [r.name for r in got.rack]
    assert any("(r7) set aside" in w for w in got.warnings)


def test_a_tap_finds_the_tile_under_it():
    from okey_vision.report.photo import read_at

    t = parse_tile
    reads = [TileRead((10, 10, 40, 50), t("r5"), 0.9), TileRead((42, 10, 72, 50), t("r6"), 0.9),
             TileRead((200, 200, 230, 240), t("k3"), 0.9, row=APART)]
    assert read_at(reads, 25, 30) == 0 and read_at(reads, 60, 12) == 1
    assert read_at(reads, 41, 30) in (0, 1)          # between two touching tiles: one of them
    assert read_at(reads, 215, 245) == 2            # just below a tile: still that tile
    assert read_at(reads, 120, 120) is None          # the table: nothing
    assert read_at([], 5, 5) is None


# ------------------------------------------- the move on the image ---

def rendered_reads(seed: int = 54):
    """A clean rendered rack (the app tests' rack, or another seed), its reads
    with the scene's exact corners in rack order, and the rack tiles."""
    from okey_vision.synth.sample import render_test_rack
    from okey_vision.vision.reads import rack_order

    _data, scene = render_test_rack(seed)
    reads = rack_order([TileRead(t.box, t.tile, 0.99, ((t.tile, 0.99),), row=t.row if t.on_rack else APART,
                                 quad=tuple(map(tuple, t.quad)))
                        for t in scene.tiles if t.on_rack or t.is_indicator])
    return scene, reads, [r for r in reads if r.row != APART]


def ring_pixels(out, img, color):
    """Where the drawing put ``color`` (BGR) on ``img``: a mask."""
    changed = (out.astype(int) != img.astype(int)).any(2)
    return changed & (np.abs(out.astype(int) - np.array(color)).sum(2) < 40)


def test_the_move_is_drawn_at_the_advised_tiles_quad():
    from okey_vision.report.analysis import move_on_rack
    from okey_vision.report.photo import RING, corners, draw_move

    scene, _reads, rack = rendered_reads(26)  # seed 26: a finished hand, the indicator apart
    a = analyse([r.tile for r in rack], scene.indicator.name)
    move = move_on_rack(a, [r.tile for r in rack])
    assert move.discard is not None and move.declare and sum(map(len, move.melds)) == 14
    assert rack[move.discard].tile == a.finish.discard
    out = scene.image.copy()
    quads = {i: corners(r) for i, r in enumerate(rack)}
    draw_move(out, quads, move)
    ring = ring_pixels(out, scene.image, RING)
    ys, xs = np.nonzero(ring)
    assert len(xs) > 200  # a ring, not a speck
    x1, y1, x2, y2 = rack[move.discard].box
    w, h = x2 - x1, y2 - y1
    # every ring pixel around the advised tile, none near another
    assert xs.min() >= x1 - w and xs.max() <= x2 + w and ys.min() >= y1 - h and ys.max() <= y2 + h
    cx, cy = (x1 + x2) / 2, (y1 + y2) / 2
    assert abs(xs.mean() - cx) < w / 3 and abs(ys.mean() - cy) < h / 3
    # the melds outlined: each run of a meld's tiles side by side inside its own outline
    from okey_vision.report.photo import MELD

    meld = ring_pixels(out, scene.image, MELD)
    for m in move.melds:
        runs: list[list[int]] = []
        for i in m:
            if runs and runs[-1][-1] == i - 1 and rack[i].row == rack[i - 1].row:
                runs[-1].append(i)
            else:
                runs.append([i])
        for run in runs:
            mx1 = min(rack[i].box[0] for i in run)
            mx2 = max(rack[i].box[2] for i in run)
            my = int(np.mean([(rack[i].box[1] + rack[i].box[3]) / 2 for i in run]))
            row = np.nonzero(meld[my - 3:my + 4].any(0))[0]
            assert (abs(row - mx1) < w / 2).any() and (abs(row - mx2) < w / 2).any(), run


def test_the_move_is_drawn_on_the_zoomed_photo_and_an_okey_finish_in_gold():
    from okey_vision.report.analysis import RackMove
    from okey_vision.report.photo import GOLD, RING, draw_reads
    from okey_vision.report.zoom import rack_view

    scene, reads, _rack = rendered_reads()
    h, w = scene.image.shape[:2]
    view = rack_view([r.box for r in reads], [r.row for r in reads], (w, h))
    plain = draw_reads(scene.image, reads, scene.indicator, view=view)[:, :, ::-1]
    for okey, color in ((False, RING), (True, GOLD)):
        out = draw_reads(scene.image, reads, scene.indicator, view=view, move=RackMove(4, ((0, 1, 2, 3),), okey))
        ring = ring_pixels(out[:, :, ::-1], plain, color)
        ys, xs = np.nonzero(ring)
        x1, y1, x2, y2 = view.box(4, reads[4].box)
        assert len(xs) > 200 and abs(xs.mean() - (x1 + x2) / 2) < (x2 - x1) / 3
        assert abs(ys.mean() - (y1 + y2) / 2) < (y2 - y1) / 3


# ------------------------------------------ tap targets and labels ---

@pytest.mark.parametrize("seed", [54, 26, 304, 7, 11])
def test_the_zoomed_photo_gives_every_tile_40_px_on_a_phone(seed):
    from okey_vision.report.zoom import rack_view

    scene, reads, _rack = rendered_reads(seed)
    h, w = scene.image.shape[:2]
    view = rack_view([r.box for r in reads], [r.row for r in reads], (w, h))
    shown = 320 / view.width  # a phone's column (390 px screen) shows the view 320 px wide or more
    assert all(view.tile_width(i, r.box) * shown >= 40 for i, r in enumerate(reads))
    assert view.width <= 640 and view.height <= 2 * 1024
    whole = min(1.0, 1024 / w) * 320 / min(w * min(1.0, 1024 / w), 1024)  # the whole photo on the phone
    assert min(r.box[2] - r.box[0] for r in reads) * whole * min(1.0, 1024 / w) < 40  # what the zoom fixes
    # a tap in the middle of each tile, on the view as shown, finds that tile
    from okey_vision.report.zoom import tapped_read

    for i, r in enumerate(reads):
        x1, y1, x2, y2 = view.box(i, r.box)
        tap = {"x": (x1 + x2) / 2 * shown, "y": (y1 + y2) / 2 * shown, "width": 320,
               "height": view.height * shown}
        assert tapped_read(view, [q.box for q in reads], tap) == i


def test_labels_never_overlap():
    from okey_vision.report.zoom import place_labels

    rng = np.random.default_rng(3)
    for _ in range(50):  # crowded rows of touching tiles, long labels
        n = int(rng.integers(5, 16))
        boxes = [(40.0 + 30 * i, 100.0 + 90 * (i % 2), 68.0 + 30 * i, 140.0 + 90 * (i % 2)) for i in range(n)]
        sizes = [[(int(rng.integers(30, 70)), 20), (24, 20)] for _ in range(n)]
        keep = [bool(rng.random() < 0.3) for _ in range(n)]
        spots = place_labels(boxes, sizes, (600, 400), keep)
        rects = [(x, y, x + sizes[i][f][0], y + sizes[i][f][1]) for i, s in enumerate(spots) if s for x, y, f in [s]]
        for a in range(len(rects)):
            for b in range(a + 1, len(rects)):
                ra, rb = rects[a], rects[b]
                assert not (ra[0] < rb[2] and rb[0] < ra[2] and ra[1] < rb[3] and rb[1] < ra[3])
        assert all(spots[i] is not None for i in range(n) if keep[i])  # a tile to check keeps its label


def test_the_sample_photo_labels_do_not_overlap_on_the_whole_photo():
    """The issue's photo: 'y10 y11 y12 y13?' ran into each other."""
    import app_fakes as fake

    from okey_vision.report.photo import label_forms, label_size
    from okey_vision.report.zoom import place_labels, whole_view
    from okey_vision.synth.sample import sample_truth
    from okey_vision.vision.reads import rack_order

    truth = sample_truth()
    reads = rack_order(fake.reads_from_truth(truth, low=(7, 8, 9, 10)))
    w, h = truth["size"]
    view = whole_view((w, h), len(reads))
    boxes = [view.box(i, r.box) for i, r in enumerate(reads)]
    sizes = [[label_size(text, 1.14) for text, _ in label_forms(r.tile, r.low_confidence, False)] for r in reads]
    spots = place_labels(boxes, sizes, (view.width, view.height), [r.low_confidence for r in reads])
    assert all(spots[i] is not None for i, r in enumerate(reads) if r.low_confidence)
