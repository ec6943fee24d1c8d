"""The photo: given (upload or camera), read into the state, shown with every
read boxed; a tap on a tile opens its picker."""

from __future__ import annotations

import hashlib
import time
import traceback
from dataclasses import replace

import streamlit as st

from okey_vision.app.sections.common import (
    FACE_NAMES,
    SAMPLE,
    TILE_NAMES,
    html,
    log,
    reader,
    state,
    tx,
)
from okey_vision.app.state import INDICATOR, AppState, Entry, Overlay
from okey_vision.errors import OkeyError
from okey_vision.lang import count
from okey_vision.report.analysis import RackMove
from okey_vision.report.labels import Lang, error_message, sentence, t, tile_word
from okey_vision.report.photo import decode_photo, draw_reads, indicator_read, read_photo
from okey_vision.report.zoom import rack_view, tapped_read, whole_view
from okey_vision.synth.sample import sample_bytes, sample_truth
from okey_vision.vision.reads import APART, TileRead

#: The image types the uploader takes.
IMAGE_TYPES = ["jpg", "jpeg", "png", "webp", "bmp", "tif", "tiff"]


def photo_key(name: str, data: bytes | None) -> str:
    """A photo's signature: its bytes' hash and its name."""
    return hashlib.sha1(data or b"").hexdigest() + name


def widget_css(lang: Lang) -> str:
    """CSS putting the page's words on Streamlit's own uploader and camera
    buttons, which say "Upload", "25MB per file" and "Take Photo" in
    English whatever the page's language; '' in English."""
    if lang is not Lang.TR:
        return ""
    limit = t("upload_limit", lang, mb=st.get_option("server.maxUploadSize"),
              types=", ".join(x.upper() for x in IMAGE_TYPES if x not in ("jpeg", "tiff")))

    def swap(selector: str, text: str, size: str) -> str:
        return (f"{selector}{{font-size:0 !important}}"
                f"{selector}::after{{content:{css_string(text)};font-size:{size}}}")

    return ("<style>"
            + swap("[data-testid=stFileUploaderDropzone] button [data-testid=stMarkdownContainer] p",
                   t("upload_button", lang), "1rem")
            + swap("[data-testid=stFileUploaderDropzoneInstructions] span", limit, ".875rem")
            + swap("button[data-testid=stCameraInputButton]", t("camera_button", lang), "1rem")
            + "</style>")


def css_string(text: str) -> str:
    """``text`` as a quoted CSS string."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


def photo_input() -> tuple[str, bytes | None]:
    """The photo the player gives now: (name, bytes), or ('', None)."""
    lang = state().lang
    if lang is Lang.TR:
        html(widget_css(lang))
    left, right = st.columns([3, 1])
    with right:
        use_camera = st.toggle(tx("camera"), key="use_camera", help=tx("camera_help"))
    with left:
        upload = st.file_uploader(tx("upload"), type=IMAGE_TYPES, key="upload", help=tx("upload_help"))
    shot = st.camera_input(tx("camera_take"), key="camera", resolution="1080p") if use_camera else None
    if shot is not None:
        return "camera photo", shot.getvalue()
    if upload is not None:
        return upload.name, upload.getvalue()
    return "", None


def take_new_photo(app: AppState, name: str, data: bytes | None) -> None:
    """Read the photo given now if it is new; the sample when none was ever given."""
    if data is not None or name:
        if app.photo is None or photo_key(name, data) != app.photo.key:
            take_photo(app, name, data)
    elif app.photo is None:
        take_photo(app, SAMPLE, sample_bytes(app.game.value))


def take_photo(app: AppState, name: str, data: bytes | None) -> None:
    """Decode and read a new photo into the state; errors become a message."""
    app.start_photo(photo_key(name, data), name)
    try:
        img = decode_photo(data, name if name != SAMPLE else "sample photo")
    except OkeyError as exc:
        app.forget_photo(tx("photo_failed", why=sentence(error_message(exc, app.lang))))
        return
    assert app.photo is not None  # start_photo made it
    app.photo = replace(app.photo, image=img)
    read, msg = reader()
    t0 = time.perf_counter()  # the clock starts once the model is loaded (once per server)
    got, error = None, ""
    if read is None:
        error = tx("reader_missing", why=msg)
    else:
        try:
            got = read_photo(img, read, app.lang, most=app.game.max_hand)
        except OkeyError as exc:
            error = error_message(exc, app.lang)
        except Exception as exc:  # noqa: BLE001 - a reader failure is a message, not a traceback
            log.error("reader failed on %r: %s", name, traceback.format_exc())
            error = tx("reader_failed", why=type(exc).__name__)
    app.photo = replace(app.photo, reads=got, error=error)
    if got is None:
        if name == SAMPLE:  # still show the whole flow: the sample's recorded tiles
            truth = sample_truth(app.game.value)
            app.set_entries(Entry.typed(n) for n in truth["hand"])
            app.photo_indicator(truth["indicator"])
            app.photo = replace(app.photo, error=sentence(error) + " " + tx("sample_recorded"))
        elif read is not None:  # a photo the reader could not use: no stale advice beside the error
            app.forget_photo(tx("photo_failed", why=sentence(error)), keep_image=True)
        return
    app.set_entries(Entry.read(r, i) for i, r in enumerate(got.rack))
    app.photo_indicator(indicator_read(got.apart))
    app.clock = t0
    log.info("photo %r: %d reads (%d on the rack, %d apart) in %.3f s", name, len(got.reads),
             len(got.rack), len(got.apart), got.seconds)


def shown_reads(app: AppState) -> tuple[list[TileRead], list[bool], list[int | None]]:
    """What the overlay draws: each rack tile as the player has corrected it
    (removed ones dropped), then the tiles apart (the indicator as the player
    has confirmed or corrected it); beside each, whether it is drawn as one
    to check, and what a tap on it opens: its entry's index,
    :data:`INDICATOR`, or None (another tile apart)."""
    got = app.photo.reads if app.photo is not None else None
    if got is None:
        return [], [], []
    rack = [(i, e) for i, e in enumerate(app.entries) if e.box is not None]
    reads = [TileRead(e.box, e.tile, e.confidence, row=e.row, quad=e.quad) for _, e in rack if e.box is not None]
    unsure = [e.flagged for _, e in rack]
    targets: list[int | None] = [i for i, _ in rack]
    ind = app.indicator_read
    for r in got.apart:
        if ind is not None and ind.box == r.box:
            reads.append(TileRead(r.box, ind.tile, ind.confidence, row=APART, quad=r.quad))
            unsure.append(app.indicator_flagged)
            targets.append(INDICATOR)
        else:  # another tile apart: drawn, not used
            reads.append(r)
            unsure.append(False)
            targets.append(None)
    return reads, unsure, targets


def move_on_reads(move: RackMove | None, targets: list[int | None]) -> RackMove | None:
    """The move by rack entry (:func:`~okey_vision.report.analysis.move_on_rack`) by the overlay's reads."""
    if move is None:
        return None
    at = {entry: k for k, entry in enumerate(targets) if entry is not None and entry != INDICATOR}
    return RackMove(at.get(move.discard) if move.discard is not None else None,
                tuple(tuple(at[i] for i in m if i in at) for m in move.melds), move.okey_discard, move.declare)


def overlay(app: AppState, reads: list[TileRead], unsure: list[bool], move: RackMove | None, whole: bool) -> Overlay:
    """The photo drawn with its reads (zoomed to them unless ``whole``) and
    the move, redrawn only when the photo, the indicator, a tile, the move
    or the view changed (not on every rerun)."""
    assert app.photo is not None and app.photo.image is not None
    key = (app.photo.key, app.round.indicator, app.entries, app.indicator_read, tuple(unsure), move, whole,
           app.lang)
    if app.overlay is None or app.overlay.key != key:
        img = app.photo.image
        h, w = img.shape[:2]
        view = whole_view((w, h), len(reads)) if whole else rack_view(
            [r.box for r in reads], [r.row for r in reads], (w, h))
        app.overlay = Overlay(key, draw_reads(img, reads, app.round.indicator, unsure=unsure, view=view,
                                              move=move, lang=app.lang), view)
    return app.overlay


def photo_section(app: AppState, expanded: bool, move: RackMove | None = None) -> None:
    """The photo, folded under the advice, named and counted; ``move``: the
    advised move (by rack entry) drawn on it."""
    photo = app.photo
    if photo is None or photo.image is None:
        return
    n = len(photo.reads.reads) if photo.reads else 0
    label = tx("sample") if photo.name == SAMPLE else photo.name
    with st.expander(tx("photo_section", label=label, n=count(n, "tile", app.lang)), expanded=expanded):
        show_photo(app, label, move)


def show_photo(app: AppState, label: str, move: RackMove | None = None) -> None:
    """The photo with every read boxed and labelled, zoomed to the tiles
    (redrawn after each correction), the move on it; tap a tile on it to
    correct that tile."""
    assert app.photo is not None
    got = app.photo.reads
    reads, unsure, targets = shown_reads(app)
    whole = st.toggle(tx("whole_photo"), key="whole_photo", help=tx("whole_photo_help")) if got else True
    drawn = overlay(app, reads, unsure, move_on_reads(move, targets), whole)
    image, view = drawn.image, drawn.view
    wide, _ = st.columns([3, 2])  # a phone stacks the columns: the photo is the column's width
    with wide:
        tap = photo_tap(app, image) if got else None
        if tap is None:
            st.image(image, caption=tx("photo_caption", label=label, n=count(len(reads), "tile", app.lang)) if got
                     else label,
                     width="stretch", output_format="JPEG")
    if tap and view is not None and tap.get("unix_time") != app.tap_seen:
        app.tap_seen = tap.get("unix_time")
        hit = tapped_read(view, [r.box for r in reads], tap)
        if hit is not None and targets[hit] is not None:  # a rack tile or the indicator
            app.tapped = targets[hit]
    if app.tapped == INDICATOR and app.indicator_read is not None:
        indicator_tap_picker(app)
    elif app.tapped is not None and 0 <= app.tapped < len(app.entries):
        tap_picker(app, app.tapped)
    if got:
        if move is not None and move.discard is not None:
            st.caption(tx("move_legend_okey" if move.okey_discard else "move_legend"))
        for w in got.warnings:
            st.warning(w)
        if app.to_check:
            marks = [f"#{i + 1} {app.entries[i].name}?" for i in app.flagged]
            if app.indicator_flagged and app.round.indicator is not None:
                marks.append(tx("indicator_mark", tile=app.round.indicator.name) + "?")
            st.info(tx("check_marked", tiles=", ".join(marks)))
            if st.button(tx("they_are_right"), key="confirm_reads"):
                app.confirm_all()
                st.rerun()
        if got.apart:
            ind = app.round.indicator
            st.caption(tx("apart", tiles=", ".join(r.tile.name for r in got.apart),
                          ind=tx("apart_indicator", ind=ind.name) if ind else ""))


def photo_tap(app: AppState, image) -> dict | None:
    """The photo shown tappable: the last tap ({} before any), or None when
    the tap component is not installed (the photo is then not drawn yet)."""
    try:
        from streamlit_image_coordinates import streamlit_image_coordinates
    except ImportError:  # the plain photo: correct with the pickers below
        return None
    assert app.photo is not None
    st.caption(tx("tap_to_correct"))
    tap = streamlit_image_coordinates(image, key=f"tap_{app.photo.key}", use_column_width="always",
                                      image_format="JPEG", jpeg_quality=85)
    return tap or {}


def tap_picker(app: AppState, i: int) -> None:
    """The one picker for the rack tile the player tapped."""
    remove = tx("remove")
    key = f"tap_pick_{app.version}_{i}"

    def changed() -> None:
        value = st.session_state[key]
        app.tapped = None
        app.correct(i, None if value == remove else value, renumber=True)  # the grid's pickers follow

    tile = app.entries[i].name
    st.selectbox(tx("tapped_tile", k=i + 1, tile=tile), [remove, *TILE_NAMES],
                 index=TILE_NAMES.index(tile) + 1, key=key, on_change=changed, placeholder=tx("add_placeholder"),
                 format_func=lambda v: v if v == remove else tile_word(v, app.lang))


def indicator_tap_picker(app: AppState) -> None:
    """The picker for the indicator, opened by a tap on it: as a rack tile's."""
    key = f"tap_pick_ind_{app.version}"

    def changed() -> None:
        app.tapped = None
        app.choose_indicator(st.session_state[key])

    ind = app.round.indicator
    name = ind.name if ind is not None else FACE_NAMES[0]
    st.selectbox(tx("tapped_indicator", tile=name), FACE_NAMES, index=FACE_NAMES.index(name), key=key,
                 on_change=changed, format_func=lambda v: tile_word(v, app.lang), placeholder=tx("add_placeholder"))
