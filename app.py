"""okey-vision: the Streamlit app. ``streamlit run app.py``

Photo of the rack in (camera or upload), every tile read and boxed; the
player corrects reads and sets the indicator; the hand is drawn grouped into
runs, sets or pairs with the leftovers apart; whether it can be declared,
the recommended discard and the ranked alternatives; discards seen and the
indicator are kept through the round; a score table across rounds.

Thin glue: the work is in :mod:`okey_vision.ui` (pure helpers) and the
library. Widgets return values; drawing is separate; the reader's models
load once (``st.cache_resource``); the live round lives in
``st.session_state``. No error reaches the screen as a traceback.
"""

from __future__ import annotations

import hashlib
import importlib
import logging
import os
import time
import traceback

os.environ.setdefault("YOLO_OFFLINE", "1")

import streamlit as st  # noqa: E402

from okey_vision.coach import UNREACHABLE, Action  # noqa: E402
from okey_vision.errors import OkeyError  # noqa: E402
from okey_vision.scoring import COUNTDOWN, SCHEMES, FinishKind  # noqa: E402
from okey_vision.tiles import HAND_SIZE, MAX_HAND, TILES, okey_of, parse_hand  # noqa: E402
from okey_vision.ui import render  # noqa: E402
from okey_vision.ui.advice import (  # noqa: E402
    Analysis, Session, distance_text, groups_for_display, take_or_draw)
from okey_vision.ui.round import LiveRound  # noqa: E402
from okey_vision.ui.sample import sample_bytes  # noqa: E402
from okey_vision.ui.scores import Round, ScoreTable  # noqa: E402
from okey_vision.coach import text as words  # noqa: E402
from okey_vision.ui.text import Lang, error_message, t  # noqa: E402

log = logging.getLogger("okey_vision.app")
# One handler on the package's logger: the app's lines and the library's
# (the live reader's worker thread) reach the server log alike.
_pkg_log = logging.getLogger("okey_vision")
if not _pkg_log.handlers:
    _h = logging.StreamHandler()
    _h.setFormatter(logging.Formatter("%(asctime)s okey-vision app: %(message)s"))
    _pkg_log.addHandler(_h)
    _pkg_log.setLevel(logging.INFO)
    _pkg_log.propagate = False

TILE_NAMES = [t.name for t in TILES]
FACE_NAMES = TILE_NAMES[:-1]  # the indicator is never a false joker
SAMPLE = "sample"


def lang() -> Lang:
    """This session's language (set once from ?lang= or the browser, then by the switch)."""
    return st.session_state.get("lang", Lang.EN)


def tx(key: str, **fields: object) -> str:
    """The text ``key`` in this session's language."""
    return t(key, lang(), **fields)


# ------------------------------------------------------------------ model ---

@st.cache_resource(show_spinner="Loading the tile reader (once)...")
def get_reader(spec: str):
    """The reader callable ``reader(image) -> list[TileRead]`` and a message
    ('' when it loaded). ``spec`` 'module:factory' replaces the trained
    reader (tests); '' is the shipped one."""
    t0 = time.perf_counter()
    try:
        if spec:
            module, _, name = spec.partition(":")
            return getattr(importlib.import_module(module), name)(), ""
        from okey_vision.vision.reader import RackReader

        reader = RackReader().load()
        log.info("reader loaded (%s) in %.2f s", reader.backend, time.perf_counter() - t0)
        return reader.read, ""
    except Exception as exc:  # noqa: BLE001 - any failure: the app works without a reader
        log.warning("reader not available: %s", exc)
        return None, str(exc)


# ------------------------------------------------------------------ state ---

def init_state() -> None:
    ss = st.session_state
    ss.setdefault("photo_key", None)      # signature of the photo shown
    ss.setdefault("photo_name", "")
    ss.setdefault("photo_img", None)      # decoded BGR image
    ss.setdefault("photo_reads", None)    # PhotoReads
    ss.setdefault("photo_error", "")
    ss.setdefault("photo_seconds", None)  # photo received -> advice shown
    ss.setdefault("hand", [])             # [{"name", "low", "alts"}]
    ss.setdefault("ver", 0)               # bumps the tile-picker keys
    ss.setdefault("round", LiveRound())
    ss.setdefault("ind_source", "")       # "photo" | "player" | ""
    ss.setdefault("scheme", COUNTDOWN)
    ss.setdefault("scores", None)
    ss.setdefault("flash", "")
    ss.setdefault("coach", Session())     # this player's search caches and analyses (bounded)
    ss.setdefault("correcting", False)    # the player has started correcting this photo's tiles
    ss.setdefault("photo_has_ind", False) # the photo shown has an indicator apart from the rack


def set_hand(entries: list[dict]) -> None:
    st.session_state.hand = entries
    st.session_state.ver += 1


def hand_names() -> list[str]:
    return [e["name"] for e in st.session_state.hand]


def set_indicator(name: str | None, source: str) -> None:
    ss = st.session_state
    ss.round = ss.round.with_indicator(name)
    ss.ind_source = source if name else ""
    ss.ind_pick = name or ""


# ------------------------------------------------------------ photo input ---

def photo_input() -> tuple[str, bytes | None]:
    """The photo the player gives now: (name, bytes), or ('', None)."""
    left, right = st.columns([3, 1])
    with right:
        use_camera = st.toggle(tx("camera"), key="use_camera", help=tx("camera_help"))
    with left:
        upload = st.file_uploader(tx("upload"), type=["jpg", "jpeg", "png", "webp", "bmp", "tif", "tiff"],
                                  key="upload", help=tx("upload_help"))
    shot = (st.camera_input(tx("camera_take"), key="camera", resolution="1080p")
            if use_camera else None)
    if shot is not None:
        return "camera photo", shot.getvalue()
    if upload is not None:
        return upload.name, upload.getvalue()
    return "", None


def take_photo(name: str, data: bytes) -> None:
    """Decode and read a new photo into the session; errors become a message."""
    from okey_vision.ui.photo import decode_photo, pick_indicator, read_photo

    ss = st.session_state
    ss.photo_key = hashlib.sha1(data or b"").hexdigest() + name
    ss.photo_name = name
    ss.photo_error = ""
    ss.correcting = False
    try:
        img = decode_photo(data, name if name != SAMPLE else "sample photo")
    except OkeyError as exc:
        forget_photo(error_message(exc, lang()))
        return
    ss.photo_img = img
    reader, msg = get_reader(os.environ.get("OKEY_VISION_APP_READER", ""))
    t0 = time.perf_counter()  # the clock starts once the model is loaded (once per server)
    got = None
    if reader is None:
        ss.photo_error = tx("reader_missing", why=msg)
    else:
        try:
            got = read_photo(img, reader, lang())
        except OkeyError as exc:
            ss.photo_error = error_message(exc, lang())
        except Exception as exc:  # noqa: BLE001 - a reader failure is a message, not a traceback
            log.error("reader failed on %r: %s", name, traceback.format_exc())
            ss.photo_error = tx("reader_failed", why=type(exc).__name__)
    if got is None:
        ss.photo_reads = None
        if name == SAMPLE:  # still show the whole flow: the sample's recorded tiles
            from okey_vision.ui.sample import sample_truth

            truth = sample_truth()
            set_hand([{"name": n, "low": False, "alts": []} for n in truth["hand"]])
            photo_indicator(truth["indicator"])
            ss.photo_error += " " + tx("sample_recorded")
        elif reader is not None:  # a photo the reader could not use: no stale advice beside the error
            forget_photo(ss.photo_error, keep_image=True)
        return
    ss.photo_reads = got
    set_hand([{"name": r.tile.name, "low": r.low_confidence, "read": i,
               "alts": [t.name for t, _ in r.alternatives[:3]]} for i, r in enumerate(got.rack)])
    ind = pick_indicator(got.apart)
    photo_indicator(ind.name if ind is not None else None)
    ss.photo_t0 = t0
    log.info("photo %r: %d reads (%d on the rack, %d apart) in %.3f s", name, len(got.reads),
             len(got.rack), len(got.apart), got.seconds)


def photo_indicator(name: str | None) -> None:
    """A new photo starts from what it shows: its own indicator, or none. An
    indicator the player chose is kept (and the advice says it assumes it);
    one read from an earlier photo is dropped, so the page asks for it."""
    ss = st.session_state
    ss.photo_has_ind = name is not None
    if ss.ind_source == "player" and ss.round.indicator is not None:
        return
    set_indicator(name, "photo")


def forget_photo(message: str, keep_image: bool = False) -> None:
    """A photo failed: say why and clear the previous photo's hand and advice."""
    ss = st.session_state
    if not keep_image:
        ss.photo_img = None
    ss.photo_reads = None
    ss.photo_error = tx("photo_failed", why=message)
    set_hand([])
    ss.photo_has_ind = False
    if ss.ind_source == "photo":
        set_indicator(None, "")


# ------------------------------------------------------------------ views ---

def shown_reads(got) -> tuple[list, list]:
    """The photo's reads as the player has corrected them, and beside each
    the index of its hand entry (None for the tiles apart): each rack read
    labelled with its entry's tile (removed ones dropped), then the tiles apart."""
    from dataclasses import replace

    from okey_vision.tiles import parse_tile

    entry_of = {e.get("read"): k for k, e in enumerate(st.session_state.hand) if e.get("read") is not None}
    reads, entries = [], []
    for i, r in enumerate(got.rack):
        k = entry_of.get(i)
        if k is not None:
            e = st.session_state.hand[k]
            reads.append(replace(r, tile=parse_tile(e["name"])))
            entries.append(k)
    return reads + list(got.apart), entries + [None] * len(got.apart)


def show_photo() -> None:
    """The photo with every read boxed and labelled (redrawn after each
    correction); tap a tile on it to correct that tile."""
    from okey_vision.ui.photo import draw_reads, overlay_scale, read_at

    ss = st.session_state
    if ss.photo_img is None:
        return
    got = ss.photo_reads
    reads, entries = shown_reads(got) if got else ([], [])
    label = tx("sample") if ss.photo_name == SAMPLE else ss.photo_name
    key = (ss.photo_key, ss.round.indicator, tuple((e.get("read"), e["name"], e["low"]) for e in ss.hand))
    if ss.get("overlay_key") != key:  # drawn once per photo, indicator and correction, not on every rerun
        flags = [ss.hand[k]["low"] if k is not None else None for k in entries]  # confirmed: not flagged
        ss.overlay = draw_reads(ss.photo_img, reads, ss.round.indicator, flags=flags)
        ss.overlay_key = key
    tap = None
    try:
        from streamlit_image_coordinates import streamlit_image_coordinates
    except ImportError:  # the plain photo: correct with the pickers below
        streamlit_image_coordinates = None
    if streamlit_image_coordinates is not None and got:
        st.caption(tx("tap_to_correct"))
        tap = streamlit_image_coordinates(ss.overlay, key=f"tap_{ss.photo_key}", use_column_width="always",
                                          image_format="JPEG", jpeg_quality=85)
    else:
        st.image(ss.overlay, caption=tx("photo_caption", label=label, n=len(reads)) if got else label,
                 width="stretch", output_format="JPEG")
    if tap and tap.get("unix_time") != ss.get("tap_seen"):
        ss.tap_seen = tap.get("unix_time")
        s = overlay_scale(ss.photo_img) * tap["width"] / ss.overlay.shape[1]  # shown px per photo px
        hit = read_at(reads, tap["x"] / s, tap["y"] / s)
        if hit is not None and entries[hit] is not None:  # a rack tile (not one lying apart)
            ss.tapped = entries[hit]
    if ss.get("tapped") is not None and ss.tapped < len(ss.hand):
        tap_picker(ss.tapped)
    if got:
        for w in got.warnings:
            st.warning(w)
        unsure = [(i, e["name"]) for i, e in enumerate(ss.hand) if e["low"]]
        if unsure:
            st.info(tx("check_marked", tiles=", ".join(f"#{i + 1} {n}?" for i, n in unsure)))
            if st.button(tx("they_are_right"), key="confirm_reads"):
                ss.hand = [dict(e, low=False) for e in ss.hand]
                st.rerun()
        if got.apart:
            st.caption(tx("apart", tiles=", ".join(r.tile.name for r in got.apart))
                       + (tx("apart_indicator", ind=ss.round.indicator.name) if ss.round.indicator else ""))


def tap_picker(i: int) -> None:
    """The one picker for the tile the player tapped."""
    ss = st.session_state
    e = ss.hand[i]
    remove = tx("remove")
    key = f"tap_pick_{ss.ver}_{i}"

    def changed() -> None:
        value = st.session_state[key]
        st.session_state.correcting = True
        entries = list(st.session_state.hand)
        if value == remove:
            entries.pop(i)
        else:
            entries[i] = dict(entries[i], name=value, low=False, alts=[])
        st.session_state.tapped = None
        set_hand(entries)

    st.selectbox(tx("tapped_tile", k=i + 1, tile=e["name"]), [remove] + TILE_NAMES,
                 index=TILE_NAMES.index(e["name"]) + 1, key=key, on_change=changed)


def show_action(a: Analysis) -> None:
    """The move, first and large: the headline (a success box when the hand
    can be declared), the tile to throw drawn large, ties in plain words."""
    ss = st.session_state
    advice = a.advice
    head = words.headline(advice, len(a.hand.tiles), a.finish, a.points, a.scheme, lang())
    with st.container(key="action"):
        if a.can_declare:
            st.success(head)
        else:
            st.info(head)
        rec = a.recommended
        throw = a.finish.discard if a.finish else (rec.tile if rec else None)
        if throw is not None and len(a.hand.tiles) == MAX_HAND:
            st.markdown(render.css(lang()) + render.action_html(tx("throw_this"), throw, a.okey),
                        unsafe_allow_html=True)
        ties = [o for o in a.discards[1:] if rec is not None and (o.distance, o.outs) == (rec.distance, rec.outs)]
        if ties and a.finish is None:
            st.caption(words.ties_text(rec, ties, lang()))
        elif advice is not None and advice.action is not Action.DECLARE:
            st.caption(tx("why", reason=words.explain(advice, lang())))
    if not ss.photo_has_ind and a.hand.indicator is not None and ss.photo_reads is not None:
        source = tx("source_player") if ss.ind_source == "player" else tx("source_photo")
        st.caption(tx("assumes_indicator", ind=a.hand.indicator.name, source=source))


def show_advice(a: Analysis) -> None:
    """The hand drawn grouped, the indicator, the other finishes and the ranked discards."""
    okey = a.okey
    ind = a.hand.indicator
    st.markdown(render.css(lang()), unsafe_allow_html=True)
    advice = a.advice
    st.caption(tx("indicator_line", ind=ind.name, okey=okey.name)
               + (" " + tx("discards_seen", n=len(a.hand.seen)) if a.hand.seen else ""))
    if advice is not None and advice.indicator_twin:
        st.caption(tx("twin", ind=ind.name))
    melds, left, caption = groups_for_display(a, lang())
    rec = a.recommended
    discard = a.finish.discard if a.finish else (rec.tile if rec else None)
    st.markdown(f"**{caption}**")
    st.markdown(render.hand_html(melds, left, okey, discard=discard, lang=lang()), unsafe_allow_html=True)
    if a.finish is not None and len(a.declaration.finishes) > 1:
        others = sorted({f"{f.discard.name if f.discard else '-'} ({f.kind.label}, {f.points(a.scheme)} "
                         f"{tx('points')})" for f in a.declaration.finishes if f != a.finish})
        st.caption(tx("other_declares", ways="; ".join(others)))
    if a.discards and len(a.hand.tiles) == MAX_HAND:
        st.markdown(f"**{tx('discards_best_first')}**")
        st.markdown(options_table(a))
    elif advice is not None and len(a.hand.tiles) == HAND_SIZE:
        st.caption(tx("fourteen", n=HAND_SIZE, distance=words.distance_text(advice.distance, lang()))
                   + (tx("outs_list", n=advice.outs, tiles=" ".join(t.name for t in advice.out_tiles))
                      if advice.outs else ""))
        offered = st.selectbox(tx("offered"), TILE_NAMES, index=None, placeholder=tx("offered_placeholder"),
                               key="offered")
        if offered:
            st.info(take_or_draw(a, offered, memo=st.session_state.coach.memo, lang=lang()))
    for note in a.notes:
        if note:
            st.caption(note)


def options_table(a: Analysis, top: int = 8) -> str:
    """The ranked discards as a Markdown table: discard, distance, outs, what it waits for."""
    lines = [tx("table_head"), "|---|---|---|---|---|"]
    for k, o in enumerate(a.discards[:top], start=1):
        outs = str(o.outs)
        waits = " ".join(t.name for t in o.out_tiles[:10]) + (" ..." if len(o.out_tiles) > 10 else "")
        dist = str(o.distance) if o.distance < UNREACHABLE else "-"
        name = o.tile.name
        lines.append(f"| {k} | {'**' + name + '**' if k == 1 else name} | {dist} | {outs} | {waits or '-'} |")
    return "\n".join(lines)


def edit_tiles() -> None:
    """A picker per tile (choose '(remove)' to drop it) and 'add a tile'."""
    ss = st.session_state
    hand = ss.hand
    ver = ss.ver

    remove = tx("remove")

    def changed(i: int, key: str) -> None:
        st.session_state.correcting = True  # keep the panel open while the player corrects
        value = st.session_state[key]
        entries = list(st.session_state.hand)
        if value == remove:
            entries.pop(i)
            set_hand(entries)
        else:
            entries[i] = dict(entries[i], name=value, low=False, alts=[])
            st.session_state.hand = entries

    per_row = 4
    # a grid that stays a grid on a phone (Streamlit stacks columns under 640 px)
    st.markdown("<style>.st-key-pickers [data-testid=stHorizontalBlock]{flex-wrap:nowrap;gap:.3rem}"
                ".st-key-pickers [data-testid=stColumn]{min-width:0;flex:1 1 0}</style>", unsafe_allow_html=True)
    with st.container(key="pickers"):
        for start in range(0, len(hand), per_row):
            cols = st.columns(per_row)
            for j, e in enumerate(hand[start:start + per_row]):
                i = start + j
                key = f"tile_{ver}_{i}"
                label = f"{i + 1}" + (tx("maybe", alts="/".join(e["alts"][1:3])) if e["low"] and e["alts"][1:]
                                      else " ?" if e["low"] else "")
                with cols[j]:
                    st.selectbox(label, [remove] + TILE_NAMES, index=TILE_NAMES.index(e["name"]) + 1,
                                 key=key, on_change=changed, args=(i, key))
    c1, c2, c3 = st.columns([2, 1, 1])
    with c1:
        add = st.selectbox(tx("add_tile"), TILE_NAMES, index=None, placeholder=tx("add_placeholder"),
                           key=f"add_{ver}")
    with c2:
        st.write("")
        if st.button(tx("add"), key="add_btn", disabled=add is None):
            ss.correcting = True
            set_hand(list(hand) + [{"name": add, "low": False, "alts": []}])
            st.rerun()
    with c3:
        st.write("")
        if st.button(tx("clear"), key="clear_btn"):
            ss.correcting = True
            set_hand([])
            st.rerun()
    text = st.text_input(tx("type_hand"), key=f"hand_text_{ver}",
                         placeholder="r1 r2 r3 y5 ... fj", help=tx("type_help"))
    if text:
        ss.correcting = True
        try:
            set_hand([{"name": t.name, "low": False, "alts": []} for t in parse_hand(text)])
            st.rerun()
        except OkeyError as exc:
            st.warning(error_message(exc, lang()))


def round_panel() -> None:
    """Indicator picker and the tiles seen this round, turn by turn."""
    ss = st.session_state
    r: LiveRound = ss.round
    if "ind_pick" not in ss:
        ss.ind_pick = r.indicator.name if r.indicator else ""

    def ind_changed() -> None:
        v = st.session_state.ind_pick
        set_indicator(v or None, "player")

    c1, c2 = st.columns([1, 2])
    with c1:
        st.selectbox(tx("indicator_pick"), [""] + FACE_NAMES, key="ind_pick", on_change=ind_changed,
                     format_func=lambda v, none=tx("not_set"): v or none, help=tx("indicator_help"))
        if r.indicator:
            src = {"photo": tx("source_photo"), "player": tx("source_player")}.get(ss.ind_source, "")
            st.caption(tx("okey_is", okey=okey_of(r.indicator).name) + (f" ({src})" if src else ""))

    def add_seen() -> None:
        text = st.session_state.seen_text
        if not text.strip():
            return
        try:
            st.session_state.round = st.session_state.round.add_seen(text)
            st.session_state.seen_text = ""
            st.session_state.flash = ""
        except OkeyError as exc:
            st.session_state.flash = error_message(exc, lang())

    with c2:
        st.text_input(tx("seen_input", turn=r.turn), key="seen_text", on_change=add_seen,
                      placeholder=tx("seen_placeholder"))
        b1, b2, b3, b4 = st.columns(4)
        b1.button(tx("add_seen"), key="seen_add", on_click=add_seen)
        b2.button(tx("next_turn"), key="next_turn", on_click=lambda: setattr(st.session_state, "round",
                                                                             st.session_state.round.next_turn()))
        b3.button(tx("undo_seen"), key="seen_undo", disabled=not r.seen,
                  on_click=lambda: setattr(st.session_state, "round", st.session_state.round.undo_seen()))
        b4.button(tx("new_round"), key="new_round", on_click=new_round)
    if ss.flash:
        st.warning(ss.flash)
    if r.seen:
        okey = okey_of(r.indicator) if r.indicator else None
        st.markdown(render.css(lang()) + render.tiles_row_html(r.seen_tiles(), okey), unsafe_allow_html=True)
        st.caption(tx("seen_by_turn", turns="; ".join(tx("turn", t=k, tiles=v) for k, v in r.by_turn())))


def new_round() -> None:
    ss = st.session_state
    ss.round = LiveRound()
    ss.ind_source = ""
    ss.ind_pick = ""
    ss.flash = ""


def scores_panel() -> None:
    """Players, scheme and rounds; the running table."""
    ss = st.session_state
    table: ScoreTable | None = ss.scores
    if table is None:
        c1, c2 = st.columns([1, 3])
        n = c1.number_input(tx("players"), min_value=2, max_value=4, value=4, step=1, key="n_players")
        names = c2.text_input(tx("names"), key="player_names",
                              value=", ".join(tx("player_n", k=k + 1) for k in range(int(n))))
        if st.button(tx("start_table"), key="start_scores"):
            try:
                ss.scores = ScoreTable([p for p in names.split(",")][: int(n)], ss.scheme)
                st.rerun()
            except OkeyError as exc:
                st.warning(error_message(exc, lang()))
        return
    st.caption(tx("countdown_rule" if table.scheme == COUNTDOWN else "penalty_rule",
                  scheme=scheme_label(table.scheme)))
    st.table(table.table(lang()))
    if table.game_over():
        st.success(tx("game_over", who=table.leader()))
    else:
        c1, c2, c3, c4 = st.columns([2, 2, 1, 2])
        winner = c1.selectbox(tx("won_by"), table.players + [tx("nobody")], key="r_winner")
        kinds = list(FinishKind)
        labels = [words.kind_label(k, lang()) for k in kinds]
        label = c2.radio(tx("finish"), labels, key="r_kind", horizontal=True)
        kind = kinds[labels.index(label)] if label in labels else kinds[0]
        okey = c3.checkbox(tx("okey_discard"), key="r_okey")
        shown = c4.multiselect(tx("twin_shown"), table.players, key="r_shown")
        if st.button(tx("record_round"), key="r_add"):
            w = None if winner not in table.players else table.players.index(winner)
            try:
                ss.scores = table.add(Round(w, kind, okey,
                                            tuple(table.players.index(p) for p in shown)))
                st.rerun()
            except OkeyError as exc:
                st.warning(error_message(exc, lang()))
    c1, c2 = st.columns(2)
    if c1.button(tx("undo_round"), key="r_undo", disabled=not table.rounds):
        ss.scores = table.undo()
        st.rerun()
    if c2.button(tx("new_game"), key="r_new"):
        ss.scores = None
        st.rerun()


# ------------------------------------------------------------------- page ---

def live_view() -> None:
    """Live coaching: the camera streams to the server (WebRTC, no STUN/TURN:
    loopback and the local network need none), a worker reads the newest
    frame every few hundred ms, the hand shown is voted across recent reads."""
    from streamlit_webrtc import WebRtcMode, webrtc_streamer

    from okey_vision.ui.live import LiveReader

    ss = st.session_state
    reader, msg = get_reader(os.environ.get("OKEY_VISION_APP_READER", ""))
    if reader is None:
        st.warning(tx("reader_missing", why=msg))
        return
    if "live_reader" not in ss:
        ss.live_reader = LiveReader(reader)
    live: LiveReader = ss.live_reader

    def on_frame(frame):
        live.offer(frame.to_ndarray(format="bgr24"))  # cheap: the worker reads it later
        return frame

    st.caption(tx("live_start"))
    try:
        ctx = webrtc_streamer(key="live_camera", mode=WebRtcMode.SENDRECV, video_frame_callback=on_frame,
                              rtc_configuration={"iceServers": []},
                              media_stream_constraints={"video": {"facingMode": "environment"}, "audio": False},
                              async_processing=True)
    except Exception as exc:  # noqa: BLE001 - no WebRTC runtime here (e.g. a test harness): say so
        log.warning("live camera unavailable: %s", exc)
        st.warning(tx("live_unavailable", why=type(exc).__name__))
        return
    conn = (getattr(ctx.state, "signalling", None), getattr(ctx.state, "playing", None))
    if ss.get("live_conn") != conn:  # the connection's steps go to the log: a camera that never plays shows there
        ss.live_conn = conn
        log.info("live: camera connection: signalling %s, playing %s", *conn)
    live_panel()


@st.fragment(run_every=1.0)
def live_panel() -> None:
    """The hand read live, how fresh it is, and the advice for it (refreshed every second)."""
    ss = st.session_state
    live = ss.get("live_reader")
    if live is None:
        return
    state = live.state()
    if state.hand:
        st.markdown(f"**{tx('live_hand', hand='').strip()}** `{' '.join(state.hand)}`")
    else:
        st.info(tx("live_none"))
    ago = state.freshness()
    if ago is not None:
        st.caption(tx("live_fresh", ago=ago, reads=state.reads, per=1 / max(live.interval, state.read_seconds),
                      ms=state.read_seconds * 1000))
    if state.indicator and ss.ind_source != "player" and ss.round.indicator is None:
        st.caption(tx("live_indicator", ind=state.indicator))
    indicator = ss.round.indicator or state.indicator
    if state.hand:
        result = ss.coach.analyse(list(state.hand), indicator, ss.round.seen_tiles(), ss.scheme)
        if result.ok:
            show_action(result)
        else:
            st.warning(result.said(lang()))


def scheme_label(scheme: str) -> str:
    """The scoring scheme in the session's words."""
    return tx("scheme_countdown" if scheme == COUNTDOWN else "scheme_penalty")


def language_switch() -> None:
    """Turkish or English: from ?lang= or the browser at first, then the switch (kept in the URL)."""
    ss = st.session_state
    if "lang" not in ss:
        ss.lang = Lang.pick(st.query_params.get("lang"), st.context.headers.get("Accept-Language"))
        ss.lang_pick = ss.lang.value

    def changed() -> None:
        st.session_state.lang = Lang(st.session_state.lang_pick)
        st.query_params["lang"] = st.session_state.lang_pick

    st.radio(t("language", ss.lang), [x.value for x in Lang], key="lang_pick", horizontal=True,
             format_func=lambda v: Lang(v).label, on_change=changed, label_visibility="collapsed")


def scheme_picker() -> None:
    """The scoring scheme; switching it under a running table asks first."""
    ss = st.session_state

    def changed() -> None:
        table = st.session_state.scores
        new = st.session_state.scheme_pick
        if table is not None and table.scheme != new:
            st.session_state.scheme_pending = new  # ask before the table changes its rules
        else:
            st.session_state.scheme = new

    # labels fixed at render time: a format function reading the session later would mix languages
    labels = {scheme: scheme_label(scheme) for scheme in SCHEMES}
    st.radio(tx("scoring"), SCHEMES, key="scheme_pick", on_change=changed, format_func=labels.__getitem__)
    pending = ss.get("scheme_pending")
    if pending:
        table = ss.scores
        st.warning(tx("scheme_switch", old=scheme_label(table.scheme), new=scheme_label(pending)))

        def new_table() -> None:
            ss = st.session_state
            ss.scores = ScoreTable(list(ss.scores.players), ss.scheme_pending)
            ss.scheme, ss.scheme_pending = ss.scheme_pending, None

        def keep() -> None:
            ss = st.session_state
            ss.scheme_pick, ss.scheme_pending = ss.scores.scheme, None

        c1, c2 = st.columns(2)
        c1.button(tx("scheme_new_table", new=scheme_label(pending)), key="scheme_new_table", on_click=new_table)
        c2.button(tx("scheme_keep", old=scheme_label(table.scheme)), key="scheme_keep", on_click=keep)


def main() -> None:
    st.set_page_config(page_title="Okey", page_icon=":game_die:", layout="wide",
                       initial_sidebar_state="collapsed")
    init_state()
    ss = st.session_state
    ss.setdefault("scheme_pick", ss.scheme)
    st.markdown("<style>.block-container{padding-top:2.6rem;padding-bottom:1rem}"
                ".st-key-action [data-testid=stAlert] p{font-size:1.45rem;font-weight:700;line-height:1.25}</style>",
                unsafe_allow_html=True)
    head, switch = st.columns([3, 1])
    with switch:
        language_switch()
    with head:
        st.markdown(f"### {tx('title')}")
    with st.sidebar:
        scheme_picker()
        st.caption(tx("tile_help"))

    if "live_on" not in ss:
        ss.live_on = st.query_params.get("live") == "1"
    if st.toggle(tx("live"), key="live_on", help=tx("live_help")):
        live_view()
        with st.expander(tx("round"), expanded=False):
            round_panel()
        return

    name, data = photo_input()
    if data is not None or name:
        key = hashlib.sha1(data or b"").hexdigest() + name
        if key != ss.photo_key:
            take_photo(name, data)
    elif ss.photo_key is None:
        take_photo(SAMPLE, sample_bytes())

    # phone first: the move, then the hand grouped; the photo folded below
    if ss.photo_error:
        st.warning(ss.photo_error)
    r: LiveRound = ss.round
    result = ss.coach.analyse(hand_names(), r.indicator, r.seen_tiles(), ss.scheme)
    if result.ok:
        show_action(result)
        show_advice(result)
    elif r.indicator is None and ss.hand and not ss.photo_has_ind and ss.photo_reads is not None:
        st.info(tx("ask_indicator"))
    else:
        st.warning(result.said(lang()))
    t0 = ss.pop("photo_t0", None)
    if t0 is not None:
        ss.photo_seconds = time.perf_counter() - t0
        log.info("photo to advice: %.3f s (advice %.3f s)", ss.photo_seconds,
                 getattr(result, "seconds", 0.0))
    if ss.photo_img is not None:
        got = ss.photo_reads
        n = len(got.reads) if got else 0
        label = tx("sample") if ss.photo_name == SAMPLE else ss.photo_name
        with st.expander(tx("photo_section", label=label, n=n), expanded=not result.ok or any(e["low"] for e in ss.hand)):
            show_photo()
    if ss.photo_seconds is not None:
        st.caption(tx("photo_to_advice", s=ss.photo_seconds))

    low = any(e["low"] for e in ss.hand)
    with st.expander(tx("correct", n=len(ss.hand)), expanded=low or ss.correcting or not ss.hand):
        edit_tiles()
    with st.expander(tx("round"), expanded=True):
        round_panel()
    with st.expander(tx("scores"), expanded=False):
        scores_panel()


def run() -> None:
    """The page, with any unexpected error shown as one plain line."""
    try:
        main()
    except Exception as exc:  # noqa: BLE001 - the last line of defence: never a traceback
        if type(exc).__name__ in ("RerunException", "StopException"):
            raise
        log.error("unexpected error: %s", traceback.format_exc())
        st.error(tx("unexpected", why=f"{type(exc).__name__}: {exc}"))


run()
