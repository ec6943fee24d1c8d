"""The photo: given (upload or camera), read into the state, shown with every
read boxed; a tap on a tile opens its picker."""

from __future__ import annotations

import hashlib
import time
import traceback
from dataclasses import replace

import streamlit as st

from okey_vision.errors import OkeyError
from okey_vision.ui.photo import (
    decode_photo,
    draw_reads,
    overlay_scale,
    pick_indicator,
    read_at,
    read_photo,
)
from okey_vision.ui.sample import sample_bytes, sample_truth
from okey_vision.ui.sections.common import SAMPLE, TILE_NAMES, log, reader, tx
from okey_vision.ui.state import AppState, Entry, Overlay
from okey_vision.ui.text import error_message
from okey_vision.vision.reads import TileRead

#: The image types the uploader takes.
IMAGE_TYPES = ["jpg", "jpeg", "png", "webp", "bmp", "tif", "tiff"]


def photo_key(name: str, data: bytes | None) -> str:
    """A photo's signature: its bytes' hash and its name."""
    return hashlib.sha1(data or b"").hexdigest() + name


def photo_input() -> tuple[str, bytes | None]:
    """The photo the player gives now: (name, bytes), or ('', None)."""
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
        take_photo(app, SAMPLE, sample_bytes())


def take_photo(app: AppState, name: str, data: bytes | None) -> None:
    """Decode and read a new photo into the state; errors become a message."""
    app.start_photo(photo_key(name, data), name)
    try:
        img = decode_photo(data, name if name != SAMPLE else "sample photo")
    except OkeyError as exc:
        app.forget_photo(tx("photo_failed", why=error_message(exc, app.lang)))
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
            got = read_photo(img, read, app.lang)
        except OkeyError as exc:
            error = error_message(exc, app.lang)
        except Exception as exc:  # noqa: BLE001 - a reader failure is a message, not a traceback
            log.error("reader failed on %r: %s", name, traceback.format_exc())
            error = tx("reader_failed", why=type(exc).__name__)
    app.photo = replace(app.photo, reads=got, error=error)
    if got is None:
        if name == SAMPLE:  # still show the whole flow: the sample's recorded tiles
            truth = sample_truth()
            app.set_entries(Entry.typed(n) for n in truth["hand"])
            app.photo_indicator(truth["indicator"])
            app.photo = replace(app.photo, error=error + " " + tx("sample_recorded"))
        elif read is not None:  # a photo the reader could not use: no stale advice beside the error
            app.forget_photo(tx("photo_failed", why=error), keep_image=True)
        return
    app.set_entries(Entry.read(r, i) for i, r in enumerate(got.rack))
    app.photo_indicator(pick_indicator(got.apart))
    app.clock = t0
    log.info("photo %r: %d reads (%d on the rack, %d apart) in %.3f s", name, len(got.reads),
             len(got.rack), len(got.apart), got.seconds)


def shown_reads(app: AppState) -> tuple[list[TileRead], list[bool], list[int | None]]:
    """What the overlay draws: each rack tile as the player has corrected it
    (removed ones dropped), then the tiles apart; beside each, whether it is
    drawn as one to check, and its entry's index (None for the tiles apart)."""
    got = app.photo.reads if app.photo is not None else None
    if got is None:
        return [], [], []
    rack = [(i, e) for i, e in enumerate(app.entries) if e.box is not None]
    reads = [TileRead(e.box, e.tile, e.confidence, row=e.row) for _, e in rack if e.box is not None]
    return (reads + list(got.apart), [e.flagged for _, e in rack] + [r.low_confidence for r in got.apart],
            [i for i, _ in rack] + [None] * len(got.apart))


def overlay(app: AppState, reads: list[TileRead], unsure: list[bool]) -> Overlay:
    """The photo drawn with its reads, redrawn only when the photo, the
    indicator or a tile changed (not on every rerun)."""
    assert app.photo is not None and app.photo.image is not None
    key = (app.photo.key, app.round.indicator, app.entries)
    if app.overlay is None or app.overlay.key != key:
        app.overlay = Overlay(key, draw_reads(app.photo.image, reads, app.round.indicator, unsure=unsure))
    return app.overlay


def photo_section(app: AppState, expanded: bool) -> None:
    """The photo, folded under the advice, named and counted."""
    photo = app.photo
    if photo is None or photo.image is None:
        return
    n = len(photo.reads.reads) if photo.reads else 0
    label = tx("sample") if photo.name == SAMPLE else photo.name
    with st.expander(tx("photo_section", label=label, n=n), expanded=expanded):
        show_photo(app, label)


def show_photo(app: AppState, label: str) -> None:
    """The photo with every read boxed and labelled (redrawn after each
    correction); tap a tile on it to correct that tile."""
    assert app.photo is not None
    got = app.photo.reads
    reads, unsure, entries = shown_reads(app)
    image = overlay(app, reads, unsure).image
    tap = photo_tap(app, image) if got else None
    if tap is None:
        st.image(image, caption=tx("photo_caption", label=label, n=len(reads)) if got else label,
                 width="stretch", output_format="JPEG")
    elif tap and tap.get("unix_time") != app.tap_seen:
        app.tap_seen = tap.get("unix_time")
        s = overlay_scale(app.photo.image) * tap["width"] / image.shape[1]  # shown px per photo px
        hit = read_at(reads, tap["x"] / s, tap["y"] / s)
        if hit is not None and entries[hit] is not None:  # a rack tile (not one lying apart)
            app.tapped = entries[hit]
    if app.tapped is not None and app.tapped < len(app.entries):
        tap_picker(app, app.tapped)
    if got:
        for w in got.warnings:
            st.warning(w)
        if app.flagged:
            st.info(tx("check_marked", tiles=", ".join(f"#{i + 1} {app.entries[i].name}?" for i in app.flagged)))
            if st.button(tx("they_are_right"), key="confirm_reads"):
                app.confirm_all()
                st.rerun()
        if got.apart:
            st.caption(tx("apart", tiles=", ".join(r.tile.name for r in got.apart))
                       + (tx("apart_indicator", ind=app.round.indicator.name) if app.round.indicator else ""))


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
    """The one picker for the tile the player tapped."""
    remove = tx("remove")
    key = f"tap_pick_{app.version}_{i}"

    def changed() -> None:
        value = st.session_state[key]
        app.tapped = None
        app.correct(i, None if value == remove else value, renumber=True)  # the grid's pickers follow

    tile = app.entries[i].name
    st.selectbox(tx("tapped_tile", k=i + 1, tile=tile), [remove, *TILE_NAMES],
                 index=TILE_NAMES.index(tile) + 1, key=key, on_change=changed)
