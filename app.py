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
from okey_vision.scoring import COUNTDOWN, PENALTY, SCHEMES, FinishKind  # noqa: E402
from okey_vision.tiles import HAND_SIZE, MAX_HAND, TILES, okey_of, parse_hand  # noqa: E402
from okey_vision.ui import render  # noqa: E402
from okey_vision.ui.advice import (  # noqa: E402
    Analysis, Session, distance_text, groups_for_display, take_or_draw)
from okey_vision.ui.round import LiveRound  # noqa: E402
from okey_vision.ui.sample import sample_bytes  # noqa: E402
from okey_vision.ui.scores import Round, ScoreTable  # noqa: E402

log = logging.getLogger("okey_vision.app")
if not log.handlers:
    _h = logging.StreamHandler()
    _h.setFormatter(logging.Formatter("%(asctime)s okey-vision app: %(message)s"))
    log.addHandler(_h)
    log.setLevel(logging.INFO)
    log.propagate = False

TILE_NAMES = [t.name for t in TILES]
FACE_NAMES = TILE_NAMES[:-1]  # the indicator is never a false joker
REMOVE = "(remove)"
NOT_SET = "(not set)"
SAMPLE = "sample"


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
        return None, f"The tile reader is not available ({exc}). Enter your tiles by hand below."


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


def set_hand(entries: list[dict]) -> None:
    st.session_state.hand = entries
    st.session_state.ver += 1


def hand_names() -> list[str]:
    return [e["name"] for e in st.session_state.hand]


def set_indicator(name: str | None, source: str) -> None:
    ss = st.session_state
    ss.round = ss.round.with_indicator(name)
    ss.ind_source = source if name else ""
    ss.ind_pick = name or NOT_SET


# ------------------------------------------------------------ photo input ---

def photo_input() -> tuple[str, bytes | None]:
    """The photo the player gives now: (name, bytes), or ('', None)."""
    left, right = st.columns([3, 1])
    with right:
        use_camera = st.toggle("Camera", key="use_camera", help="Take the photo with this device's camera")
    with left:
        upload = st.file_uploader("Photo of your rack", type=["jpg", "jpeg", "png", "webp", "bmp"],
                                  key="upload", help="Your rack from the front, numbers facing the camera")
    shot = (st.camera_input("Take a photo of your rack", key="camera", resolution="1080p")
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
    try:
        img = decode_photo(data, name if name != SAMPLE else "sample photo")
    except OkeyError as exc:
        ss.photo_img, ss.photo_reads = None, None
        ss.photo_error = str(exc)
        return
    ss.photo_img = img
    reader, msg = get_reader(os.environ.get("OKEY_VISION_APP_READER", ""))
    t0 = time.perf_counter()  # the clock starts once the model is loaded (once per server)
    got = None
    if reader is None:
        ss.photo_error = msg
    else:
        try:
            got = read_photo(img, reader)
        except OkeyError as exc:
            ss.photo_error = str(exc)
        except Exception as exc:  # noqa: BLE001 - a reader failure is a message, not a traceback
            log.error("reader failed on %r: %s", name, traceback.format_exc())
            ss.photo_error = f"The reader failed on this photo ({type(exc).__name__}). Enter the tiles by hand below."
    if got is None:
        ss.photo_reads = None
        if name == SAMPLE:  # still show the whole flow: the sample's recorded tiles
            from okey_vision.ui.sample import sample_truth

            truth = sample_truth()
            set_hand([{"name": n, "low": False, "alts": []} for n in truth["hand"]])
            if ss.round.indicator is None or ss.ind_source == "photo":
                set_indicator(truth["indicator"], "photo")
            ss.photo_error += " Showing the sample's recorded tiles."
        return
    ss.photo_reads = got
    set_hand([{"name": r.tile.name, "low": r.low_confidence,
               "alts": [t.name for t, _ in r.alternatives[:3]]} for r in got.rack])
    ind = pick_indicator(got.apart)
    if ind is not None and (ss.round.indicator is None or ss.ind_source == "photo"):
        set_indicator(ind.name, "photo")
    ss.photo_t0 = t0
    log.info("photo %r: %d reads (%d on the rack, %d apart) in %.3f s", name, len(got.reads),
             len(got.rack), len(got.apart), got.seconds)


# ------------------------------------------------------------------ views ---

def show_photo() -> None:
    from okey_vision.ui.photo import draw_reads

    ss = st.session_state
    if ss.photo_error:
        st.warning(ss.photo_error)
    if ss.photo_img is None:
        return
    got = ss.photo_reads
    reads = got.reads if got else []
    label = "the sample photo" if ss.photo_name == SAMPLE else ss.photo_name
    key = (ss.photo_key, ss.round.indicator)
    if ss.get("overlay_key") != key:  # drawn once per photo and indicator, not on every tap
        ss.overlay = draw_reads(ss.photo_img, reads, ss.round.indicator)
        ss.overlay_key = key
    st.image(ss.overlay, caption=f"{label}: {len(reads)} tiles read" if got else label,
             width="stretch", output_format="JPEG")
    if got:
        for w in got.warnings:
            st.warning(w)
        unsure = [(i, e["name"]) for i, e in enumerate(ss.hand) if e["low"]]
        if unsure:
            st.info("Check the tiles marked '?' (orange boxes): "
                    + ", ".join(f"#{i + 1} {n}?" for i, n in unsure)
                    + ". Correct them under 'Correct the tiles'.")
            if st.button("They are right", key="confirm_reads"):
                ss.hand = [dict(e, low=False) for e in ss.hand]
                st.rerun()
        if got.apart:
            st.caption("Apart from the rack (purple): " + ", ".join(r.tile.name for r in got.apart)
                       + (f"; indicator {ss.round.indicator.name}" if ss.round.indicator else ""))


def show_advice(a: Analysis) -> None:
    okey = a.okey
    ind = a.hand.indicator
    st.markdown(render.CSS, unsafe_allow_html=True)
    head = a.headline()
    if a.can_declare:
        st.success(head)
    else:
        st.info(head)
    advice = a.advice
    if advice is not None and advice.reason and advice.action is not Action.DECLARE:
        st.caption("Why: " + advice.reason + ".")
    st.caption(f"Indicator {ind.name}, okey {okey.name} (wild); a false joker plays as {okey.name}."
               + (f" {len(a.hand.seen)} seen tiles counted." if a.hand.seen else ""))
    if advice is not None and advice.indicator_twin:
        st.caption(f"You hold the indicator's twin ({ind.name}): show it at the start of the round "
                   "for the bonus.")
    melds, left, caption = groups_for_display(a)
    rec = a.recommended
    discard = a.finish.discard if a.finish else (rec.tile if rec else None)
    st.markdown(f"**{caption}**")
    st.markdown(render.hand_html(melds, left, okey, discard=discard), unsafe_allow_html=True)
    if a.finish is not None and len(a.declaration.finishes) > 1:
        others = sorted({f"{f.discard.name if f.discard else '-'} ({f.kind}, {f.points(a.scheme)} pts)"
                         for f in a.declaration.finishes if f != a.finish})
        st.caption("Other ways to declare: " + "; ".join(others))
    if a.discards and len(a.hand.tiles) == MAX_HAND:
        st.markdown("**Discards, best first**")
        st.markdown(options_table(a))
    elif advice is not None and len(a.hand.tiles) == HAND_SIZE:
        st.caption(f"{HAND_SIZE} tiles: {distance_text(advice.distance)}"
                   + (f"; {advice.outs} outs: " + " ".join(t.name for t in advice.out_tiles) if advice.outs else ""))
        offered = st.selectbox("Tile the previous player just discarded (take it or draw?)", TILE_NAMES,
                               index=None, placeholder="choose the tile on their pile", key="offered")
        if offered:
            st.info(take_or_draw(a, offered, memo=st.session_state.coach.memo))
    for note in a.notes:
        if note:
            st.caption(note)


def options_table(a: Analysis, top: int = 8) -> str:
    """The ranked discards as a Markdown table: discard, distance, outs, what it waits for."""
    lines = ["| # | discard | distance | outs | waiting for |", "|---|---|---|---|---|"]
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

    def changed(i: int, key: str) -> None:
        value = st.session_state[key]
        entries = list(st.session_state.hand)
        if value == REMOVE:
            entries.pop(i)
            set_hand(entries)
        else:
            entries[i] = {"name": value, "low": False, "alts": []}
            st.session_state.hand = entries

    per_row = 5
    for start in range(0, len(hand), per_row):
        cols = st.columns(per_row)
        for j, e in enumerate(hand[start:start + per_row]):
            i = start + j
            key = f"tile_{ver}_{i}"
            label = f"{i + 1}" + (" ? maybe " + "/".join(e["alts"][1:3]) if e["low"] and e["alts"][1:] else
                                  " ?" if e["low"] else "")
            with cols[j]:
                st.selectbox(label, [REMOVE] + TILE_NAMES, index=TILE_NAMES.index(e["name"]) + 1,
                             key=key, on_change=changed, args=(i, key))
    c1, c2, c3 = st.columns([2, 1, 1])
    with c1:
        add = st.selectbox("Add a tile", TILE_NAMES, index=None, placeholder="choose a tile", key=f"add_{ver}")
    with c2:
        st.write("")
        if st.button("Add", key="add_btn", disabled=add is None):
            set_hand(list(hand) + [{"name": add, "low": False, "alts": []}])
            st.rerun()
    with c3:
        st.write("")
        if st.button("Clear all", key="clear_btn"):
            set_hand([])
            st.rerun()
    text = st.text_input("Or type the whole hand", key=f"hand_text_{ver}",
                         placeholder="r1 r2 r3 y5 ... fj", help="Replaces the tiles above")
    if text:
        try:
            set_hand([{"name": t.name, "low": False, "alts": []} for t in parse_hand(text)])
            st.rerun()
        except OkeyError as exc:
            st.warning(str(exc))


def round_panel() -> None:
    """Indicator picker and the tiles seen this round, turn by turn."""
    ss = st.session_state
    r: LiveRound = ss.round
    if "ind_pick" not in ss:
        ss.ind_pick = r.indicator.name if r.indicator else NOT_SET

    def ind_changed() -> None:
        v = st.session_state.ind_pick
        set_indicator(None if v == NOT_SET else v, "player")

    c1, c2 = st.columns([1, 2])
    with c1:
        st.selectbox("Indicator (the tile turned face up)", [NOT_SET] + FACE_NAMES, key="ind_pick",
                     on_change=ind_changed,
                     help="Read from the photo when a tile lies apart from the rack; change it here")
        if r.indicator:
            src = {"photo": "read from the photo - confirm", "player": "set by you"}.get(ss.ind_source, "")
            st.caption(f"okey {okey_of(r.indicator).name}" + (f" ({src})" if src else ""))

    def add_seen() -> None:
        text = st.session_state.seen_text
        if not text.strip():
            return
        try:
            st.session_state.round = st.session_state.round.add_seen(text)
            st.session_state.seen_text = ""
            st.session_state.flash = ""
        except OkeyError as exc:
            st.session_state.flash = str(exc)

    with c2:
        st.text_input(f"Tiles seen on the discard piles, turn {r.turn} (type and press Enter)",
                      key="seen_text", on_change=add_seen, placeholder="e.g. r5 k7")
        b1, b2, b3, b4 = st.columns(4)
        b1.button("Add seen", key="seen_add", on_click=add_seen)
        b2.button("Next turn", key="next_turn", on_click=lambda: setattr(st.session_state, "round",
                                                                         st.session_state.round.next_turn()))
        b3.button("Undo seen", key="seen_undo", disabled=not r.seen,
                  on_click=lambda: setattr(st.session_state, "round", st.session_state.round.undo_seen()))
        b4.button("New round", key="new_round", on_click=new_round)
    if ss.flash:
        st.warning(ss.flash)
    if r.seen:
        okey = okey_of(r.indicator) if r.indicator else None
        st.markdown(render.CSS + render.tiles_row_html(r.seen_tiles(), okey), unsafe_allow_html=True)
        st.caption("Seen, by turn: " + "; ".join(f"turn {t}: {s}" for t, s in r.by_turn()))


def new_round() -> None:
    ss = st.session_state
    ss.round = LiveRound()
    ss.ind_source = ""
    ss.ind_pick = NOT_SET
    ss.flash = ""


def scores_panel() -> None:
    """Players, scheme and rounds; the running table."""
    ss = st.session_state
    table: ScoreTable | None = ss.scores
    if table is None:
        c1, c2 = st.columns([1, 3])
        n = c1.number_input("Players", min_value=2, max_value=4, value=4, step=1, key="n_players")
        names = c2.text_input("Names (comma separated)", key="player_names",
                              value=", ".join(f"Player {k + 1}" for k in range(int(n))))
        if st.button("Start the score table", key="start_scores"):
            try:
                ss.scores = ScoreTable([p for p in names.split(",")][: int(n)], ss.scheme)
                st.rerun()
            except OkeyError as exc:
                st.warning(str(exc))
        return
    st.caption(f"{table.scheme} scoring" + (" - start 20, first at 0 ends the game" if table.scheme == COUNTDOWN
                                            else " - start 0, lowest total is best"))
    st.table(table.table())
    if table.game_over():
        st.success(f"Game over: {table.leader()} wins.")
    else:
        c1, c2, c3, c4 = st.columns([2, 2, 1, 2])
        winner = c1.selectbox("Round won by", table.players + ["nobody (stall)"], key="r_winner")
        label = c2.radio("Finish", [k.label for k in FinishKind], key="r_kind", horizontal=True)
        kind = next(k for k in FinishKind if k.label == label)
        okey = c3.checkbox("okey discard", key="r_okey")
        shown = c4.multiselect("indicator twin shown by", table.players, key="r_shown")
        if st.button("Record round", key="r_add"):
            w = None if winner not in table.players else table.players.index(winner)
            try:
                ss.scores = table.add(Round(w, kind, okey,
                                            tuple(table.players.index(p) for p in shown)))
                st.rerun()
            except OkeyError as exc:
                st.warning(str(exc))
    c1, c2 = st.columns(2)
    if c1.button("Undo last round", key="r_undo", disabled=not table.rounds):
        ss.scores = table.undo()
        st.rerun()
    if c2.button("New game", key="r_new"):
        ss.scores = None
        st.rerun()


# ------------------------------------------------------------------- page ---

def main() -> None:
    st.set_page_config(page_title="Okey coach", page_icon=":game_die:", layout="wide")
    init_state()
    ss = st.session_state
    st.markdown("<style>.block-container{padding-top:2.2rem;padding-bottom:1rem}</style>",
                unsafe_allow_html=True)
    st.title("Okey coach")
    st.caption("Photo of your rack in: every tile read, the hand grouped, the discard to play. "
               "Runs entirely on this device.")
    with st.sidebar:
        ss.scheme = st.radio("Scoring", SCHEMES, index=SCHEMES.index(ss.scheme), key="scheme_pick",
                             format_func=lambda s: {COUNTDOWN: "countdown (start 20)",
                                                    PENALTY: "penalty points"}[s])
        st.caption("Tiles: r red, y yellow, b blue, k black, 1-13; fj false joker.")

    name, data = photo_input()
    if data is not None or name:
        key = hashlib.sha1(data or b"").hexdigest() + name
        if key != ss.photo_key:
            take_photo(name, data)
    elif ss.photo_key is None:
        take_photo(SAMPLE, sample_bytes())

    left, right = st.columns([1, 1], gap="large")
    with left:
        show_photo()
    with right:
        st.subheader("Advice")
        r: LiveRound = ss.round
        result = ss.coach.analyse(hand_names(), r.indicator, r.seen_tiles(), ss.scheme)
        if result.ok:
            show_advice(result)
        else:
            st.warning(result.message)
        t0 = ss.pop("photo_t0", None)
        if t0 is not None:
            ss.photo_seconds = time.perf_counter() - t0
            log.info("photo to advice: %.3f s (advice %.3f s)", ss.photo_seconds,
                     getattr(result, "seconds", 0.0))
        if ss.photo_seconds is not None:
            st.caption(f"Photo to advice in {ss.photo_seconds:.2f} s.")

    low = any(e["low"] for e in ss.hand)
    with st.expander(f"Correct the tiles ({len(ss.hand)} on the rack)", expanded=low or not ss.hand):
        edit_tiles()
    with st.expander("This round: indicator and tiles seen", expanded=True):
        round_panel()
    with st.expander("Scores", expanded=False):
        scores_panel()


def run() -> None:
    """The page, with any unexpected error shown as one plain line."""
    try:
        main()
    except Exception as exc:  # noqa: BLE001 - the last line of defence: never a traceback
        if type(exc).__name__ in ("RerunException", "StopException"):
            raise
        log.error("unexpected error: %s", traceback.format_exc())
        st.error(f"Something went wrong ({type(exc).__name__}: {exc}). "
                 "Try another photo or correct the tiles; the round is kept.")


run()
