"""The app's side of learning the player's tile set, without
Streamlit: which of the photo's tiles the player has confirmed or corrected
(or typed for the photo), and keeping them as labelled crops.

Only with the player's consent (``AppState.learning``, off by default):
with it off nothing is kept. Kept: each confirmed or corrected read of the
photo's rack (its crop, cut from the photo by its corners, and the tile the
player gave), and a hand typed for a photo, aligned with the photo's rack
reads as ``okey-vision calibrate add`` aligns it (a tile the reader missed
shifts nothing). Never the whole photo.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from okey_vision.app.state import AppState

if TYPE_CHECKING:  # the store loads numpy and OpenCV: only when something is kept
    from okey_vision.calibrate.store import Store

Quad = tuple[tuple[float, float], ...]


def photo_id(app: AppState) -> str:
    """The photo's name in the store (a hash of its signature: its bytes' hash and its name)."""
    import hashlib

    assert app.photo is not None
    return hashlib.sha256(app.photo.key.encode()).hexdigest()[:16]


def to_keep(app: AppState) -> list[tuple[int, str, Quad]]:
    """(place on the rack, tile, corners) of each tile to keep now: none
    unless learning is on and the photo was read."""
    photo = app.photo
    if not app.learning or photo is None or photo.image is None or photo.reads is None:
        return []
    items = [(e.order, e.name, cut) for e in app.entries
             if e.confirmed and e.order is not None and (cut := e.cut if e.cut is not None else e.quad) is not None]
    if app.typed:
        from okey_vision.calibrate.align import enough, rack_pairs

        pairs, n = rack_pairs(photo.reads.rack, app.typed)
        if enough(pairs, n):
            items += [(place, tile, read.cut) for place, read, tile in pairs if read.cut is not None]
    pid = photo_id(app)
    return [(place, tile, quad) for place, tile, quad in dict(((p, t), (p, t, q)) for p, t, q in items).values()
            if (pid, place, tile) not in app.kept]


def keep(app: AppState, store: Store | None = None) -> int:
    """Keep the tiles :func:`to_keep` names (in ``store``, default the
    player's data folder); how many were kept."""
    items = to_keep(app)
    if not items:
        app.typed = None if app.learning else app.typed
        return 0
    from okey_vision.calibrate.store import Store, crop_of

    assert app.photo is not None and app.photo.image is not None
    store = store or Store()
    pid = photo_id(app)
    image = app.photo.image
    n = store.add(pid, [(place, tile, crop_of(image, quad)) for place, tile, quad in items], "app")
    app.kept = app.kept | {(pid, place, tile) for place, tile, _ in items}
    app.typed = None
    return n


__all__ = ["keep", "photo_id", "to_keep"]
