"""The hand drawn as tiles: HTML/CSS for the app (cream tiles, numerals in
their colour, okeys and false jokers marked, groups side by side).

>>> from okey_vision.tiles import parse_tile as t
>>> html = tile_html(t("r4"), okey=t("r4"))
>>> "okey" in html and ">4<" in html
True
>>> "ov-fj" in tile_html(t("fj"), okey=t("r4"))
True
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from html import escape

from okey_vision.melds import Meld
from okey_vision.report.labels import Lang, t, tile_word
from okey_vision.tiles import Tile

#: Numeral colours on the tiles (CSS).
INK = {"r": "#c62828", "y": "#e08a00", "b": "#1565c0", "k": "#1b1b1b", "f": "#6a1b9a"}

CSS = """
<style>
.ov-row{display:flex;flex-wrap:wrap;gap:14px;align-items:flex-end;margin:4px 0 10px 0}
.ov-group{display:flex;flex-direction:column;align-items:center}
.ov-tiles{display:flex;gap:3px;padding:4px;border-radius:8px;background:#5d4037}
.ov-group.ov-left .ov-tiles{background:#9e9e9e}
.ov-cap{font-size:12px;color:#666;margin-top:2px;white-space:nowrap}
.ov-tile{position:relative;width:34px;height:50px;border-radius:6px;background:#fbf3dc;
 box-shadow:inset 0 -4px 0 #e6d9b5,0 1px 2px rgba(0,0,0,.4);display:flex;flex-direction:column;
 align-items:center;justify-content:flex-start;font:700 21px/1 system-ui,sans-serif;padding-top:7px;
 box-sizing:border-box}
.ov-tile .ov-dot{width:7px;height:7px;border-radius:50%;margin-top:5px;opacity:.7}
.ov-tile.okey{box-shadow:inset 0 -4px 0 #e6d9b5,0 0 0 3px #f9a825}
.ov-tile .ov-badge{position:absolute;top:-7px;right:-6px;background:#f9a825;color:#000;border-radius:8px;
 font-size:9px;padding:1px 3px;font-weight:700}
.ov-tile .ov-as{position:absolute;bottom:5px;font-size:10px;color:#5d4037;font-weight:700;white-space:nowrap}
.ov-tile.ov-fj{background:repeating-linear-gradient(45deg,#fbf3dc,#fbf3dc 5px,#efe0f5 5px,#efe0f5 10px)}
.ov-tile.discard{box-shadow:inset 0 -4px 0 #e6d9b5,0 0 0 3px #d32f2f}
.ov-tile.discard::after{content:"discard";position:absolute;top:-15px;font-size:10px;color:#d32f2f;font-weight:700}
.ov-tile.small{width:26px;height:38px;font-size:16px;padding-top:5px}
.ov-tile.big{width:64px;height:94px;font-size:42px;padding-top:12px;border-radius:10px}
.ov-tile.big .ov-dot{width:12px;height:12px;margin-top:9px}
.ov-tile.big.discard::after{content:none}
.ov-action{display:flex;align-items:center;gap:16px;margin:6px 0 8px 0}
.ov-action .ov-verb{font:800 30px/1.1 system-ui,sans-serif;color:#b71c1c}
.ov-opts{border-collapse:collapse;margin:0 0 12px 0;font-size:14px}
.ov-opts td,.ov-opts th{padding:3px 6px;text-align:left;border-bottom:1px solid #e6e6e6;vertical-align:middle}
.ov-opts .ov-tiles{display:inline-flex;flex-wrap:wrap;background:none;padding:0;gap:2px}
.ov-opts .ov-tile.small{width:20px;height:28px;font-size:13px;padding-top:4px;border-radius:4px}
.ov-opts .ov-tile.small .ov-dot{width:4px;height:4px;margin-top:3px}
.ov-opts tr.ov-best td{font-weight:700}
.eye .ov-tiles{display:inline-flex;background:none;padding:0;vertical-align:middle;margin-right:6px}
</style>
"""


def action_html(verb: str, tile: Tile, okey: Tile | None, lang: Lang = Lang.EN) -> str:
    """The move drawn for a player at arm's length: a large verb ("Throw")
    beside the tile drawn large."""
    return (f'<div class="ov-action"><span class="ov-verb">{escape(verb)}</span>'
            f'{tile_html(tile, okey, discard=True, big=True, lang=lang)}</div>')


def stands_html(tile: Tile, lang: Lang = Lang.EN) -> str:
    """What an okey or false joker plays as, under it: ``=r7`` in English, in
    Turkish ``=7`` in the tile's colour (a chip, never the Latin notation)."""
    if Lang.of(lang) is Lang.TR:
        return f'<span class="ov-as" style="color:{INK[tile.color]}">={tile.number}</span>'
    return f'<span class="ov-as">={escape(tile.name)}</span>'


def tile_html(tile: Tile, okey: Tile | None = None, *, stands_for: Tile | None = None,
              discard: bool = False, small: bool = False, title: str = "", big: bool = False,
              lang: Lang = Lang.EN) -> str:
    """One tile: cream face, numeral in its colour; an okey gets a gold ring
    and an 'OKEY' badge (with the face it stands for below), a false joker a
    striped face with 'FJ' ('SAHTE' in Turkish) and the okey face it plays as."""
    classes = ["ov-tile"]
    if small:
        classes.append("small")
    if big:
        classes.append("big")
    badge = ""
    below = ""
    if tile.is_false_joker:
        classes.append("ov-fj")
        ink = INK["f"]
        text = "&#9733;"
        badge = f'<span class="ov-badge" style="background:#ce93d8">{"SAHTE" if lang is Lang.TR else "FJ"}</span>'
        if okey is not None:
            below = stands_html(okey, lang)
    else:
        ink = INK[tile.color]
        text = str(tile.number)
        if okey is not None and tile == okey:
            classes.append("okey")
            badge = '<span class="ov-badge">OKEY</span>'
            if stands_for is not None:
                below = stands_html(stands_for, lang)
    if discard:
        classes.append("discard")
    tip = escape(title or tile_word(tile, lang))
    dot = f'<span class="ov-dot" style="background:{ink}"></span>'
    return (f'<div class="{" ".join(classes)}" title="{tip}" style="color:{ink}">'
            f'<span>{text}</span>{below or dot}{badge}</div>')


def group_html(tiles: Sequence[Tile], okey: Tile | None, caption: str = "", *,
               stands: dict[int, Tile] | None = None, discard: Tile | None = None,
               leftover: bool = False, small: bool = False, lang: Lang = Lang.EN) -> str:
    """A group of tiles on a strip of rack, with a caption below; the first
    copy of ``discard`` gets a red ring."""
    stands = stands or {}
    marked = False
    parts = []
    for i, tile in enumerate(tiles):
        is_discard = discard is not None and tile == discard and not marked
        marked = marked or is_discard
        parts.append(tile_html(tile, okey, stands_for=stands.get(i), discard=is_discard, small=small, lang=lang))
    cls = "ov-group ov-left" if leftover else "ov-group"
    cap = f'<div class="ov-cap">{escape(caption)}</div>' if caption else ""
    return f'<div class="{cls}"><div class="ov-tiles">{"".join(parts)}</div>{cap}</div>'


def meld_caption(m: Meld, lang: Lang = Lang.EN) -> str:
    """'run', 'set', 'pair' with okey stand-ins, e.g. 'run (okey = r7)'
    ('seri (okey = kırmızı 7)' in Turkish)."""
    wild = ", ".join(tile_word(f, lang) for _, f in m.wilds)
    return t(f"meld_{m.kind}", lang) + (f" (okey = {wild})" if wild else "")


def css(lang: Lang = Lang.EN) -> str:
    """:data:`CSS` with the discard mark in ``lang``."""
    return CSS.replace('content:"discard"', f'content:"{t("discard_mark", lang)}"')


def hand_html(melds: Sequence[Meld], leftover: Sequence[Tile], okey: Tile | None, *,
              discard: Tile | None = None, leftover_caption: str | None = None, lang: Lang = Lang.EN) -> str:
    """The hand as groups: each meld (or pair) on its own strip, the
    leftovers apart; ``discard`` gets a red ring (the first copy found)."""
    parts = []
    # ring the discard among the leftovers if it is there, else in its meld
    pending = discard if discard is not None and discard not in leftover else None
    for m in melds:
        mark = pending if pending is not None and pending in m.tiles else None
        if mark is not None:
            pending = None
        parts.append(group_html(m.tiles, okey, meld_caption(m, lang), stands=dict(m.wilds), discard=mark,
                                lang=lang))
    if leftover:
        caption = leftover_caption if leftover_caption is not None else t("left_over", lang)
        parts.append(group_html(list(leftover), okey, caption, discard=discard, leftover=True, lang=lang))
    return f'<div class="ov-row">{"".join(parts)}</div>'


def tiles_row_html(tiles: Iterable[Tile], okey: Tile | None, *, small: bool = True,
                   discard: Tile | None = None, lang: Lang = Lang.EN) -> str:
    """Tiles in one row without grouping (the rack as read, seen tiles...)."""
    return f'<div class="ov-row">{group_html(list(tiles), okey, discard=discard, small=small, lang=lang)}</div>'


def chips_html(tiles: Iterable[Tile], okey: Tile | None = None, lang: Lang = Lang.TR) -> str:
    """Tiles as small chips in a line of text (a table cell)."""
    return f'<span class="ov-tiles">{"".join(tile_html(t, okey, small=True, lang=lang) for t in tiles)}</span>'


def options_html(rows: Sequence[tuple[Tile, str, int, tuple[Tile, ...], bool]], okey: Tile | None,
                 heads: Sequence[str], lang: Lang = Lang.TR) -> str:
    """The ranked discards as a table with the tiles drawn as chips (the
    Turkish page): #, discard, distance, outs, the tiles it waits for."""
    head = "".join(f"<th>{escape(h)}</th>" for h in heads)
    body = []
    for k, (tile, dist, outs, waits, more) in enumerate(rows, start=1):
        wait = chips_html(waits, okey, lang) + (" ..." if more else "") if waits else "-"
        body.append(f'<tr{" class=ov-best" if k == 1 else ""}><td>{k}</td><td>{chips_html([tile], okey, lang)}</td>'
                    f"<td>{escape(dist)}</td><td>{outs}</td><td>{wait}</td></tr>")
    return f'<table class="ov-opts"><tr>{head}</tr>{"".join(body)}</table>'


__all__ = ["CSS", "INK", "chips_html", "css", "group_html", "hand_html", "meld_caption", "options_html",
           "stands_html", "tile_html", "tiles_row_html"]
