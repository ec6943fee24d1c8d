"""Every sentence the coach says to a player, in one place, in English and
Turkish: each function builds its sentence once, from templates of both
languages (a :class:`~okey_vision.lang.Lang`, English by default). The coach
itself returns plain data (:class:`~okey_vision.coach.advice.Why`: a
:class:`~okey_vision.coach.advice.Reason` and its values); :data:`REASONS`
says each reason, :func:`explain` a whole advice. Turkish uses the words
players use at the table: gösterge, okey, sahte okey, ıstaka, per, çift, at,
bitir, çek.

>>> distance_text(0), distance_text(2)
('finished (distance 0)', '2 tiles from winning (distance 2)')
>>> distance_text(2, Lang.TR)
'bitmeye 2 taş var (mesafe 2)'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from okey_vision.coach.advice import Action, Advice, Reason, Why
from okey_vision.coach.templates import UNREACHABLE
from okey_vision.lang import Lang
from okey_vision.tiles import HAND_SIZE, MAX_HAND, Tile

if TYPE_CHECKING:  # pragma: no cover - names for type hints only
    from okey_vision.coach.lookahead import Look
    from okey_vision.coach.ranking import DiscardOption
    from okey_vision.coach.reading import Reading
    from okey_vision.scoring import FinishKind
    from okey_vision.solver import Finish

#: The languages of every sentence (the codes of :class:`Lang`).
LANGS = tuple(lang.value for lang in Lang)

#: key -> (English, Turkish) templates; ``{name}`` fields are filled by :func:`say`.
SENTENCES: dict[str, tuple[str, str]] = {
    # actions (Action.label)
    "action.discard": ("discard", "at"),
    "action.declare": ("declare", "bitir"),
    "action.draw": ("draw from the stock", "yerden çek"),
    "action.take": ("take the offered tile", "atılan taşı al"),
    # finish kinds in Turkish (English: FinishKind.label)
    "kind.melds": ("", "perler"),
    "kind.pairs": ("", "çiftler"),
    # scoring schemes as a sentence names them
    "scheme.countdown": ("countdown", "geri sayım"),
    "scheme.penalty": ("penalty", "ceza puanı"),
    # a discard's route in a reason (English: the route's own name)
    "route.melds": ("melds", "per"),
    "route.pairs": ("pairs", "çift"),
    "route.both": ("both", "per ya da çift"),
    # reasons
    "declare_reason": ("declare: throw {tile} and show {how} for {points} points{extra}",
                       "bitir: {tile} at ve {how} göster, {points} puan{extra}"),
    "okey_doubles": (" (throwing the okey doubles it)", " (okeyi atmak puanı ikiye katlar)"),
    "wait_reason": ("finished, but {wins} of {unseen} unseen tiles let you finish by throwing "
                    "the okey next turn for {later} points instead of {now}: worth one turn",
                    "el bitti, ama görülmemiş {unseen} taşın {wins} tanesi gelecek el okey atarak "
                    "bitirmeni sağlar: {now} yerine {later} puan, bir el beklemeye değer"),
    "discard_reason": ("throw {tile}: {distance} exchange(s) from a finished hand ({route}) with {outs} outs",
                       "{tile} at: bitmeye {distance} değişim kalır ({route}), {outs} taş işine yarar"),
    "tied": ("; tied with {tiles}, it keeps most tiles in melds",
             "; {tiles} ile eşit, ama perlerde daha çok taş tutar"),
    "draw_reason": ("draw from the stock: {distance} exchange(s) away, {outs} outs",
                    "yerden çek: bitmeye {distance} değişim var, {outs} taş işine yarar"),
    "take_finishes": ("take {tile}: it finishes the hand", "{tile} al: eli bitirir"),
    "take_reason": ("take {tile}: it brings the hand to {closer} exchange(s) from finished "
                    "(the stock does so only {outs} times in the unseen tiles)",
                    "{tile} al: bitmeye {closer} değişim kalır "
                    "(yerden çekince bu, görülmemiş taşlarda yalnız {outs} kez olur)"),
    "leave_reason": ("draw from the stock: {tile} does not shorten the hand "
                     "({distance} exchange(s), {outs} outs), and the stock hides your plan",
                     "yerden çek: {tile} eli kısaltmaz (bitmeye {distance} değişim, "
                     "{outs} taş işine yarar) ve yerden çekmek planını gizler"),
    "take_outs_reason": ("take {tile}: the hand stays {distance} exchange(s) from finished, but after "
                         "throwing {throw} it waits for {after} tiles instead of {outs} - more than the one "
                         "draw you give up",
                         "{tile} al: bitmeye yine {distance} değişim kalır, ama {throw} atınca {outs} yerine "
                         "{after} taş işine yarar - vazgeçtiğin tek çekişten fazlası"),
    "waits_for": ("; you wait for {tiles} ({outs} left to come)",
                  "; beklediğin taşlar: {tiles} (gelebilecek {outs} taş)"),
    "keep_back": ("; {kept} is as good but the next player likely collects it (it fits the tiles they "
                  "took and kept), so keep {kept} back",
                  "; {kept} de aynı derecede iyi, ama sonraki oyuncu büyük olasılıkla onu topluyor (aldığı "
                  "taşlara uyuyor), bu yüzden {kept} taşını elde tut"),
    "lookahead_note": ("; throwing {other} would wait for {other_outs} tiles, but played {draws} draws ahead "
                       "in {samples} sampled deals, throwing {tile} finishes the hand in {won} of them (throwing "
                       "{other}: {other_won}) and sooner on average: what you wait for next comes more often",
                       "; {other} atınca {other_outs} taş beklersin, ama {samples} örnek dağıtımda {draws} çekiş "
                       "ileri oynayınca {tile} atarsan el {won} kez biter ({other} atarsan {other_won} kez) ve "
                       "ortalamada daha erken: sonra beklediğin taşlar daha sık gelir"),
    "lookahead_closer": ("; throwing {other} would wait for {other_outs} tiles, but played {draws} draws ahead "
                         "in {samples} sampled deals, throwing {tile} comes within {goal} exchange(s) of finished "
                         "in {won} of them (throwing {other}: {other_won}) and sooner on average: what you wait "
                         "for next comes more often",
                         "; {other} atınca {other_outs} taş beklersin, ama {samples} örnek dağıtımda {draws} "
                         "çekiş ileri oynayınca {tile} atarsan bitişe {goal} değişim kalması {won} kez olur "
                         "({other} atarsan {other_won} kez) ve ortalamada daha erken: sonra beklediğin taşlar "
                         "daha sık gelir"),
    "take_look_reason": ("take {tile}: the hand stays {distance} exchange(s) from finished either way, but "
                         "played {draws} draws ahead in {samples} sampled deals, taking it and throwing {throw} {gets} "
                         "in {won} of them (drawing: {other_won}) and sooner on average",
                         "{tile} al: bitmeye yine {distance} değişim kalır, ama {samples} örnek dağıtımda {draws} "
                         "çekiş ileri oynayınca alıp {throw} atarsan {gets} {won} kez (yerden çekersen "
                         "{other_won} kez) ve ortalamada daha erken"),
    "leave_look_reason": ("draw from the stock: {tile} keeps the hand {distance} exchange(s) from finished, and "
                          "played {draws} draws ahead in {samples} sampled deals, drawing {gets} in {won} of "
                          "them (taking it: {other_won}) and sooner on average",
                          "yerden çek: {tile} eli kısaltmaz (bitmeye {distance} değişim), ve {samples} örnek "
                          "dağıtımda {draws} çekiş ileri oynayınca yerden çekersen {gets} {won} kez (alırsan "
                          "{other_won} kez) ve ortalamada daha erken"),
    "look_gets_0": ("finishes", "el biter"),
    "look_gets_n": ("comes within {goal} exchange(s) of finished", "bitişe {goal} değişim kalır"),
    # what screens show
    "unreachable": ("no finish is possible with the tiles left", "kalan taşlarla bitirmek mümkün değil"),
    "finished": ("finished (distance 0)", "bitti (mesafe 0)"),
    "distance_one": ("1 tile from winning (distance 1)", "bitmeye 1 taş var (mesafe 1)"),
    "distance_many": ("{d} tiles from winning (distance {d})", "bitmeye {d} taş var (mesafe {d})"),
    "head_wait": ("Wait: discard {tile} and keep your finished hand - "
                  "finishing by throwing the okey later doubles the points.",
                  "Bekle: {tile} at ve bitmiş elini tut - sonra okey atarak bitirmek puanı ikiye katlar."),
    "head_finished": ("Declare: your {n} tiles are finished as {how} ({points} points, {scheme}).",
                      "Bitir: {n} taşın {how} olarak bitti ({points} puan, {scheme})."),
    "head_declare": ("Declare: discard {tile} and show {how} ({points} points, {scheme}{okey}).",
                     "Bitir: {tile} at ve {how} göster ({points} puan, {scheme}{okey})."),
    "okey_doubles_dash": (" - discarding the okey doubles it", " - okeyi atmak puanı ikiye katlar"),
    "head_discard": ("Discard {tile}: {distance}, {outs} outs.", "{tile} at: {distance}, {outs} taş işine yarar."),
    "head_draw": ("Draw: {distance}, {outs} outs.", "Çek: {distance}, {outs} taş işine yarar."),
    "head_size": ("{n} tiles: a hand has {hand} tiles ({most} after taking one); add or remove tiles below.",
                  "{n} taş: bir elde {hand} taş olur (taş alınca {most}); aşağıdan taş ekle ya da çıkar."),
    "no_indicator": ("Set the indicator (the tile turned face up) to get advice.",
                     "Öneri için göstergeyi (açılan taşı) seç."),
    "no_tiles": ("No tiles in the hand: take a photo of your rack, or add tiles below.",
                 "Elde taş yok: ıstakanın fotoğrafını çek ya da aşağıdan taş ekle."),
    "caption_declare": ("Declare with these {how}", "Bunlarla bitir: {how}"),
    "caption_pairs": ("Seven pairs route: {pairs} pairs", "Çift yolu: {pairs} çift"),
    "caption_melds": ("Runs and sets: {in_melds} of {tiles} tiles in melds",
                      "Perler: {tiles} taşın {in_melds} tanesi perde"),
    "cannot_take": ("Cannot take {tile}: {why}", "{tile} alınamaz: {why}"),
    "ties": ("{names} are equally good: {all} leave you {away} with {outs} tiles that {what}.",
             "{names} aynı derecede iyi: {all} seni {away} bırakır ve {outs} taş {what}."),
    "and": (" and ", " ve "),
    "both": ("both", "ikisi de"),
    "all": ("all", "hepsi"),
    "away_0": ("finished", "eli bitmiş"),
    "away_1": ("one tile away", "bitişe 1 taş uzakta"),
    "away_n": ("{d} tiles away", "bitişe {d} taş uzakta"),
    "what_finish": ("finish", "eli bitirir"),
    "what_closer": ("bring you closer", "bitişe yaklaştırır"),
    # the command line
    "cli_indicator": ("Indicator {ind}: okey {okey}", "Gösterge {ind}: okey {okey}"),
    "cli_advice": ("Advice: {reason}", "Öneri: {reason}"),
    "cli_twin": ("You hold the indicator's twin ({ind}): show it for the bonus.",
                 "Göstergenin eşi sende ({ind}): bonus için göster."),
    "cli_discards": ("Discards (distance after, outs):", "Atılacak taşlar (sonraki mesafe, işe yarayan taşlar):"),
    "cli_discard": ("  {tile:<4} distance {distance}  outs {outs:<3} {outs_tiles}",
                    "  {tile:<4} mesafe {distance}  {outs:<3} {outs_tiles}"),
    "cli_distance": ("Distance {distance}, outs {outs}: {outs_tiles}", "Mesafe {distance}, {outs} taş: {outs_tiles}"),
}


def say(key: str, lang: Lang = Lang.EN, **fields: object) -> str:
    """The sentence ``key`` in ``lang``, its ``{fields}`` filled."""
    en, tr = SENTENCES[key]
    return (tr if Lang.of(lang) is Lang.TR else en).format(**fields)


def action_label(action: Action, lang: Lang = Lang.EN) -> str:
    """The action in words."""
    return say(f"action.{action.value}", lang)


def kind_label(kind: FinishKind, lang: Lang = Lang.EN) -> str:
    """The finish kind in words (English: :attr:`FinishKind.label`)."""
    return kind.label if Lang.of(lang) is not Lang.TR else say(f"kind.{kind.value}", lang)


def scheme_label(scheme: str, lang: Lang = Lang.EN) -> str:
    """A scoring scheme as a sentence names it."""
    key = f"scheme.{scheme}"
    return say(key, lang) if key in SENTENCES else scheme


def _names(tiles: Sequence[Tile]) -> str:
    return " ".join(t.name for t in tiles)


# ------------------------------------------------------------ reasons ---

def declare_reason(finish: Finish, scheme: str, lang: Lang = Lang.EN) -> str:
    """Why to declare now."""
    extra = say("okey_doubles", lang) if finish.okey_discard else ""
    # A 15-tile finish always throws a tile; "-" only guards a 14-tile one.
    tile = finish.discard.name if finish.discard is not None else "-"
    return say("declare_reason", lang, tile=tile, how=kind_label(finish.kind, lang),
               points=finish.points(scheme), extra=extra)


def wait_reason(wins: int, unseen: int, later: int, now: int, lang: Lang = Lang.EN) -> str:
    """Why a finished hand should wait one turn."""
    return say("wait_reason", lang, wins=wins, unseen=unseen, later=later, now=now)


def discard_reason(best: DiscardOption, ties: Sequence[DiscardOption], lang: Lang = Lang.EN) -> str:
    """Why to throw the first-ranked tile; ``ties`` are the others of equal distance and outs."""
    route = say(f"route.{best.route}", lang) if f"route.{best.route}" in SENTENCES else best.route
    reason = say("discard_reason", lang, tile=best.tile.name, distance=best.distance, route=route, outs=best.outs)
    if ties:
        reason += say("tied", lang, tiles=_names([o.tile for o in ties]))
    return reason


def draw_reason(now: Reading, lang: Lang = Lang.EN) -> str:
    """Why to draw when nothing is offered."""
    return say("draw_reason", lang, distance=now.distance, outs=now.outs)


def take_reason(offered: Tile, now: Reading, finishes: bool, lang: Lang = Lang.EN) -> str:
    """Why to take the offered tile."""
    if finishes:
        return say("take_finishes", lang, tile=offered.name)
    return say("take_reason", lang, tile=offered.name, closer=now.distance - 1, outs=now.outs)


def take_outs_reason(offered: Tile, throw: Tile, now: Reading, after: DiscardOption, lang: Lang = Lang.EN) -> str:
    """Why to take a tile that keeps the distance: it adds outs."""
    return say("take_outs_reason", lang, tile=offered.name, distance=now.distance, throw=throw.name,
               after=after.outs, outs=now.outs)


def waits_for(tiles: Sequence[Tile], outs: int, lang: Lang = Lang.EN) -> str:
    """Which tiles the hand waits for (a note after the reason)."""
    return say("waits_for", lang, tiles=_names(tiles), outs=outs)


def keep_back(kept: Tile, thrown: Tile, lang: Lang = Lang.EN) -> str:
    """Why a tile is kept back from the next player (a note after the reason)."""
    return say("keep_back", lang, kept=kept.name, thrown=thrown.name)


def lookahead_note(other: DiscardOption, tile: Tile, chosen: Look, first: Look, lang: Lang = Lang.EN) -> str:
    """Why the lookahead throws ``tile`` rather than ``other``, ranked first by distance then outs (a note)."""
    return say("lookahead_closer" if chosen.goal else "lookahead_note", lang, tile=tile.name, other=other.tile.name,
               other_outs=other.outs, draws=chosen.draws, samples=chosen.samples, won=chosen.wins,
               other_won=first.wins, goal=chosen.goal)


def _gets(goal: int, lang: Lang) -> str:
    """What a lookahead sample reaches: finished, or within ``goal`` exchanges of it."""
    return say("look_gets_n", lang, goal=goal) if goal else say("look_gets_0", lang)


def take_look_reason(offered: Tile, throw: Tile, took: Look, drew: Look, lang: Lang = Lang.EN) -> str:
    """Why to take a tile that keeps the distance: the lookahead finishes more often after taking."""
    return say("take_look_reason", lang, tile=offered.name, throw=throw.name, distance=took.goal + 2,
               gets=_gets(took.goal, lang), draws=drew.draws, samples=took.samples, won=took.wins,
               other_won=drew.wins)


def leave_look_reason(offered: Tile, took: Look, drew: Look, lang: Lang = Lang.EN) -> str:
    """Why to leave a tile that keeps the distance: the lookahead finishes more often after drawing."""
    return say("leave_look_reason", lang, tile=offered.name, distance=drew.goal + 2, gets=_gets(drew.goal, lang),
               draws=drew.draws, samples=drew.samples, won=drew.wins, other_won=took.wins)


def leave_reason(offered: Tile, now: Reading, lang: Lang = Lang.EN) -> str:
    """Why to leave the offered tile and draw."""
    return say("leave_reason", lang, tile=offered.name, distance=now.distance, outs=now.outs)


#: Each reason's sentence: its :attr:`Why.args`, then the language.
REASONS: dict[Reason, Callable[..., str]] = {
    Reason.DECLARE: declare_reason,
    Reason.WAIT: wait_reason,
    Reason.DISCARD: discard_reason,
    Reason.DRAW: draw_reason,
    Reason.TAKE: take_reason,
    Reason.LEAVE: leave_reason,
    Reason.TAKE_OUTS: take_outs_reason,
    Reason.TAKE_LOOK: take_look_reason,
    Reason.LEAVE_LOOK: leave_look_reason,
    Reason.WAITS_FOR: waits_for,
    Reason.KEEP_BACK: keep_back,
    Reason.LOOKAHEAD: lookahead_note,
}


def said(why: Why, lang: Lang = Lang.EN) -> str:
    """One reason (or note) in ``lang``."""
    return REASONS[why.reason](*why.args, lang=lang)


def explain(advice: Advice, lang: Lang = Lang.EN) -> str:
    """Why the advice says what it does, in ``lang``: the reason, then the notes.

    >>> from okey_vision.coach import advise
    >>> explain(advise("r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 y1", "b9", offered="k9"))
    'take k9: it finishes the hand'
    """
    return "".join([said(advice.why, lang)] + [said(n, lang) for n in advice.notes])


def advice_dict(advice: Advice, lang: Lang = Lang.EN) -> dict:
    """The advice's JSON summary (:meth:`Advice.to_dict`) with its reason in
    ``lang`` beside the action, as the command line prints it."""
    out: dict = {}
    for key, value in advice.to_dict().items():
        out[key] = value
        if key == "action":
            out["reason"] = explain(advice, lang)
    return out


# ----------------------------------------------------- what screens show ---

def distance_text(d: int, lang: Lang = Lang.EN) -> str:
    """'finished (distance 0)', '1 tile from winning (distance 1)', ..."""
    if d >= UNREACHABLE:
        return say("unreachable", lang)
    if d == 0:
        return say("finished", lang)
    return say("distance_one", lang) if d == 1 else say("distance_many", lang, d=d)


def headline(advice: Advice | None, tiles: int, finish: Finish | None, points: int, scheme: str,
             lang: Lang = Lang.EN) -> str:
    """One sentence for a screen: what to do now."""
    rec = advice.best if advice is not None else None
    if finish is not None and advice is not None and advice.wait and rec is not None:
        return say("head_wait", lang, tile=rec.tile.name)
    if finish is not None:
        how = kind_label(finish.kind, lang)
        named = scheme_label(scheme, lang)
        if finish.discard is None:
            return say("head_finished", lang, n=HAND_SIZE, how=how, points=points, scheme=named)
        okey = say("okey_doubles_dash", lang) if finish.okey_discard else ""
        return say("head_declare", lang, tile=finish.discard.name, how=how, points=points, scheme=named, okey=okey)
    if tiles == MAX_HAND and rec is not None:
        return say("head_discard", lang, tile=rec.tile.name, distance=distance_text(rec.distance, lang),
                   outs=rec.outs)
    if tiles == HAND_SIZE and advice is not None:
        return say("head_draw", lang, distance=distance_text(advice.distance, lang), outs=advice.outs)
    return say("head_size", lang, n=tiles, hand=HAND_SIZE, most=MAX_HAND)


def take_or_draw_text(advice: Advice, lang: Lang = Lang.EN) -> str:
    """The take-or-draw advice as a sentence for a screen."""
    reason = explain(advice, lang)
    return reason[0].upper() + reason[1:] + "."


def groups_caption(finish: Finish | None, pairs: int = 0, in_melds: int = 0, tiles: int = 0,
                   lang: Lang = Lang.EN) -> str:
    """The caption over the drawn groups: the finish's melds, the seven-pairs
    route (``pairs`` pairs), or the runs and sets (``in_melds`` of ``tiles``)."""
    if finish is not None:
        return say("caption_declare", lang, how=kind_label(finish.kind, lang))
    if pairs:
        return say("caption_pairs", lang, pairs=pairs)
    return say("caption_melds", lang, in_melds=in_melds, tiles=tiles)


def cannot_take(offered: Tile, why: str, lang: Lang = Lang.EN) -> str:
    """The offered tile cannot be taken (too many copies, ...)."""
    return say("cannot_take", lang, tile=offered.name, why=why)


def ties_text(best: DiscardOption, ties: Sequence[DiscardOption], lang: Lang = Lang.EN) -> str:
    """Equally good discards in a player's words (``ties``: the others of the
    best's distance and outs)."""
    names = [best.tile.name] + [o.tile.name for o in ties]
    joined = ", ".join(names[:-1]) + say("and", lang) + names[-1]
    d = best.distance
    away = say("away_0", lang) if d == 0 else say("away_1", lang) if d == 1 else say("away_n", lang, d=d)
    what = say("what_finish", lang) if d == 1 else say("what_closer", lang)
    return say("ties", lang, names=joined, all=say("both" if len(names) == 2 else "all", lang), away=away,
               outs=best.outs, what=what)


def advice_lines(advice: Advice, lang: Lang = Lang.EN) -> list[str]:
    """The advice as the command line prints it."""
    ind = advice.indicator
    lines = [say("cli_indicator", lang, ind=ind.name, okey=advice.okey.name),
             say("cli_advice", lang, reason=explain(advice, lang))]
    if advice.indicator_twin:
        lines.append(say("cli_twin", lang, ind=ind.name))
    if advice.discards:
        lines.append(say("cli_discards", lang))
        for d in advice.discards:
            lines.append(say("cli_discard", lang, tile=d.tile.name, distance=d.distance, outs=d.outs,
                             outs_tiles=_names(d.out_tiles)))
    else:
        lines.append(say("cli_distance", lang, distance=advice.distance, outs=advice.outs,
                         outs_tiles=_names(advice.out_tiles)))
    return lines
