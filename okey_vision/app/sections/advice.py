"""The advice: the move first and large, then the hand grouped, the other
finishes and the ranked discards (or, on 14 tiles, take or draw)."""

from __future__ import annotations

import streamlit as st

from okey_vision.app.sections.common import TILE_NAMES, html, sync_widget, tx
from okey_vision.app.state import AppState, IndicatorSource
from okey_vision.coach import UNREACHABLE, Action
from okey_vision.coach import text as words
from okey_vision.lang import count, tiles_words
from okey_vision.report import render
from okey_vision.report.analysis import Analysis, action_line, groups_for_display
from okey_vision.report.labels import Lang, error_message, in_words, tile_word
from okey_vision.tiles import HAND_SIZE, MAX_HAND, Tile, parse_tile, tile_order


def show_action(app: AppState, a: Analysis) -> None:
    """The move, first and large: the headline (the advice's own action, as
    the command line and the JSON say it; a success box when the hand can be
    declared), the tile to throw or take drawn large, ties in plain words."""
    advice = a.advice
    head = action_line(a, app.lang)
    with st.container(key="action"):
        if a.can_declare and (advice is None or advice.action is Action.DECLARE):
            st.success(head)
        else:
            st.info(head)
        rec = a.recommended
        throw = a.finish.discard if a.finish else (rec.tile if rec else None)
        if advice is not None and advice.action is Action.TAKE and advice.offered is not None:
            html(render.css(app.lang) + render.action_html(tx("take_this"), advice.offered, a.okey, app.lang))
        elif throw is not None and len(a.hand.tiles) == MAX_HAND:
            html(render.css(app.lang) + render.action_html(tx("throw_this"), throw, a.okey, app.lang))
        ties = [o for o in a.discards[1:] if rec is not None and (o.distance, o.outs) == (rec.distance, rec.outs)]
        if rec is not None and ties and a.finish is None:  # which of the equal discards, and why that one
            choice = words.choice_text(advice, app.lang) if advice is not None else None
            st.caption(in_words(choice or words.ties_text(rec, ties, app.lang), app.lang))
        elif advice is not None and advice.action is not Action.DECLARE and words.explain(advice, app.lang) != \
                a.headline(app.lang):  # the why, unless the headline says it whole ("Take r7: it finishes ...")
            st.caption(tx("why", reason=words.explain(advice, app.lang).rstrip(".")))  # one full stop
    photo = app.photo
    if photo is not None and not photo.has_indicator and a.hand.indicator is not None and photo.reads is not None:
        source = tx("source_player") if app.indicator_source is IndicatorSource.PLAYER else tx("source_photo")
        st.caption(tx("assumes_indicator", ind=a.hand.indicator.name, source=source))


def show_advice(app: AppState, a: Analysis) -> None:
    """The hand drawn grouped, the indicator, the other finishes and the ranked discards."""
    okey, ind, advice, lang = a.okey, a.hand.indicator, a.advice, app.lang
    html(render.css(lang))
    st.caption(tx("indicator_line", ind=ind.name, okey=okey.name)
               + (" " + tx("discards_seen", n=len(a.hand.seen)) if a.hand.seen else ""))
    if advice is not None and advice.indicator_twin:
        st.caption(tx("twin", ind=ind.name))
    melds, left, caption = groups_for_display(a, lang)
    rec = a.recommended
    discard = a.finish.discard if a.finish else (rec.tile if rec else None)
    st.markdown(f"**{caption}**")
    html(render.hand_html(melds, left, okey, discard=discard, lang=lang))
    if a.finish is not None and len(a.declaration.finishes) > 1:
        rest = sorted((f for f in a.declaration.finishes if f != a.finish),
                      key=lambda f: tile_order(f.discard) if f.discard else -1)
        others = list(dict.fromkeys(f"{f.discard.name if f.discard else '-'} ({words.kind_label(f.kind, lang)}, "
                                    f"{f.points(a.scheme)} {tx('points')})" for f in rest))
        st.caption(tx("other_declares", ways="; ".join(others)))
    if a.discards and len(a.hand.tiles) == MAX_HAND:
        st.markdown(f"**{tx('discards_best_first')}**")
        if lang is Lang.TR:  # the tiles as chips, never in the Latin notation
            html(render.options_html(options_rows(a), a.okey, tx("table_cols").split("|")))
        else:
            st.markdown(options_table(a))
    elif advice is not None and len(a.hand.tiles) == HAND_SIZE:
        outs = tx("outs_list", n=count(advice.outs, "out", lang), tiles=tiles_words(advice.out_tiles, lang)) \
            if advice.outs else ""
        st.caption(tx("fourteen", n=HAND_SIZE, distance=words.distance_text(advice.distance, lang), outs=outs))
        offered_picker(app)
        if a.refused is not None:  # the offered tile cannot be taken (a third copy, ...): why
            tile, exc = a.refused
            st.warning(in_words(words.cannot_take(tile, error_message(exc, lang), lang), lang))
    if advice is None and (note := words.declare_note(a.declaration, lang)):  # too few tiles to advise
        st.caption(in_words(note, lang))


def offered_picker(app: AppState) -> None:
    """The tile the previous player just discarded, chosen by the player: the
    advice (and its headline, drawn above) weighs taking it against drawing."""

    def changed() -> None:
        value = st.session_state.offered
        app.offered = parse_tile(value) if value else None

    sync_widget("offered", app.offered.name if app.offered is not None else None)
    st.selectbox(tx("offered"), TILE_NAMES, index=None, placeholder=tx("offered_placeholder"), key="offered",
                 format_func=lambda v: tile_word(v, app.lang), on_change=changed)


def options_rows(a: Analysis, top: int = 8) -> list[tuple[Tile, str, int, tuple[Tile, ...], bool]]:
    """The ranked discards: (tile, distance, outs, the first tiles it waits
    for, whether more follow), best first."""
    return [(o.tile, str(o.distance) if o.distance < UNREACHABLE else "-", o.outs, tuple(o.out_tiles[:10]),
             len(o.out_tiles) > 10) for o in a.discards[:top]]


def options_table(a: Analysis, top: int = 8) -> str:
    """The ranked discards as a Markdown table: discard, distance, outs, what it waits for."""
    lines = [tx("table_head"), "|---|---|---|---|---|"]
    for k, (tile, dist, outs, waits, more) in enumerate(options_rows(a, top), start=1):
        wait = " ".join(t.name for t in waits) + (" ..." if more else "")
        name = tile.name
        lines.append(f"| {k} | {'**' + name + '**' if k == 1 else name} | {dist} | {outs} | {wait or '-'} |")
    return "\n".join(lines)


__all__ = ["offered_picker", "options_rows", "options_table", "show_action", "show_advice"]
