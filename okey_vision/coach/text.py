"""Every sentence the coach says to a player, in one place, in English and
Turkish: each function builds its sentence once, from templates of both
languages (a :class:`~okey_vision.lang.Lang`, English by default). The coach
itself returns plain data (:data:`~okey_vision.coach.why.Why`: a frozen
dataclass a :class:`~okey_vision.coach.why.Reason`, with its values); :func:`said`
says each reason, :func:`explain` a whole advice. Turkish uses the words
players use at the table (docs/turkish.md lists them with their meanings):
gösterge, okey, sahte okey, ıstaka, per, seri, grup, çift, at, bitir,
ortadan çek (draw from the stock), yerden al (take the discard), artan; a
tile is said in words (*kırmızı 7*), never in the Latin notation
(:func:`okey_vision.lang.tile_word`: every ``Tile`` field of a sentence).

The app, the command line and the JSON say the same advice in the same
sentences: :func:`headline` (the move: always the advice's action, from the
advice alone), :func:`explain` (why), :func:`choice_text`
(equally good discards, and why the advised one goes), and the command
line's reports (:func:`advice_lines`, :func:`solve_lines`,
:func:`read_lines`). Each sentence ends with its full stop; counts are said
by :func:`count` ('1 pair', '2 pairs'; Turkish: '2 çift'); tiles in a list
come by colour, then number (:func:`tiles_text`).

>>> distance_text(0), distance_text(2)
('finished (distance 0)', '2 tiles from winning (distance 2)')
>>> distance_text(2, Lang.TR)
'bitmeye 2 taş var (mesafe 2)'
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import TYPE_CHECKING, Any

from okey_vision.coach.advice import Action, Advice
from okey_vision.coach.templates import UNREACHABLE
from okey_vision.coach.why import (
    Choice,
    ChoiceNote,
    DeclareWhy,
    DiscardWhy,
    DrawWhy,
    KeepBackNote,
    LeaveLookWhy,
    LeaveWhy,
    LookaheadNote,
    TakeLookWhy,
    TakeOutsWhy,
    TakeWhy,
    WaitsForNote,
    WaitWhy,
    Why,
)
from okey_vision.lang import Lang, capital, fill, tiles_words
from okey_vision.lang import count as count
from okey_vision.scoring import Scheme
from okey_vision.tiles import HAND_SIZE, MAX_HAND, Tile, okey_of, sort_tiles

if TYPE_CHECKING:  # pragma: no cover - names for type hints only
    from okey_vision.coach.lookahead import LookScore
    from okey_vision.coach.ranking import DiscardOption
    from okey_vision.coach.reading import Reading
    from okey_vision.melds import Meld
    from okey_vision.scoring import FinishKind
    from okey_vision.solver import Arrangement, Declaration, Finish

#: The languages of every sentence (the codes of :class:`Lang`).
LANGS = tuple(lang.value for lang in Lang)

#: key -> (English, Turkish) templates; ``{name}`` fields are filled by :func:`say`
#: (a ``Tile`` field said in the language's words).
#: A sentence ends with its full stop; a count of things is said by
#: :func:`count` ("1 tile", "2 tiles"; Turkish keeps the singular after a
#: number: "2 taş"), so a template takes the count whole (``{outs}``: "17 outs").
SENTENCES: dict[str, tuple[str, str]] = {
    # actions (Action.label)
    "action.discard": ("discard", "at"),
    "action.declare": ("declare", "bitir"),
    "action.draw": ("draw from the stock", "ortadan çek"),
    "action.take": ("take the discard", "yerden al"),
    # finish kinds in Turkish (English: FinishKind.label); shown (the object of "göster": perleri)
    "kind.melds": ("", "perler"),
    "kind.pairs": ("", "çiftler"),
    "kind.shown.melds": ("", "perleri"),
    "kind.shown.pairs": ("", "çiftleri"),
    # scoring schemes as a sentence names them
    "scheme.countdown": ("countdown", "geri sayım"),
    "scheme.penalty": ("penalty", "ceza puanı"),
    # a discard's route in a reason
    "route.melds": ("runs and sets", "per"),
    "route.pairs": ("seven pairs", "çift"),
    "route.both": ("runs and sets or seven pairs", "per ya da çift"),
    # reasons: one sentence each
    "declare_reason": ("Declare: throw {tile} and show {how} for {points}{extra}.",
                       "Bitir: {tile} at ve {how} göster, {points}{extra}."),
    "declare_finished": ("Declare: your tiles are finished; show {how} for {points}{extra}.",
                         "Bitir: taşların bitti; {how} göster, {points}{extra}."),
    "okey_doubles": (" (throwing the okey doubles it)", " (okeyi atmak puanı ikiye katlar)"),
    "wait_reason": ("The hand is finished, but {wins} of {unseen} unseen tiles let you finish by throwing "
                    "the okey next turn for {later} points instead of {now}: worth one turn.",
                    "El bitti, ama görülmemiş {unseen} taşın {wins} tanesi gelecek el okey atarak "
                    "bitirmeni sağlar: {now} yerine {later} puan, bir el beklemeye değer."),
    "discard_reason": ("{tile} leaves you {away} from winning ({route}), with {outs}.",
                       "{tile} atınca bitmeye {away} kalır ({route}), {outs} işine yarar."),
    "discard_stuck": ("{tile}: no finish is possible with the tiles left, whichever you throw.",
                      "{tile}: hangisini atsan da kalan taşlarla bitirmek mümkün değil."),
    "draw_reason": ("Draw from the stock: you are {away} from winning, with {outs}.",
                    "Ortadan çek: bitmeye {away} var, {outs} işine yarar."),
    "take_finishes": ("Take {tile}: it finishes the hand.", "{tile} al: eli bitirir."),
    "take_reason": ("Take {tile}: it brings the hand to {closer} from winning (the stock does so only "
                    "{outs} in the unseen tiles).",
                    "{tile} al: bitmeye {closer} kalır (ortadan çekince bu, görülmemiş taşlarda yalnız {outs} olur)."),
    "leave_reason": ("Draw from the stock: {tile} does not bring you closer ({away} from winning, {outs}), "
                     "and the stock hides your plan.",
                     "Ortadan çek: {tile} eli kısaltmaz (bitmeye {away}, {outs} işine yarar) ve ortadan "
                     "çekmek planını gizler."),
    "take_outs_reason": ("Take {tile}: the hand stays {away} from winning, but after throwing {throw} it waits "
                         "for {after} instead of {outs} - more than the one draw you give up.",
                         "{tile} al: bitmeye yine {away} kalır, ama {throw} atınca {outs} yerine {after} işine "
                         "yarar - vazgeçtiğin tek çekişten fazlası."),
    "waits_for": ("You wait for {tiles} ({outs} left to come).", "Beklediğin taşlar: {tiles} (gelebilecek {outs})."),
    "keep_back": ("{kept} is as good, but the next player likely collects it (it fits the tiles they took and "
                  "kept), so keep {kept} back.",
                  "{kept} de aynı derecede iyi, ama sonraki oyuncu büyük olasılıkla onu topluyor (aldığı taşlara "
                  "uyuyor), bu yüzden {kept} taşını elde tut."),
    "lookahead_note": ("Throwing {other} would wait for {other_outs}, but played {draws} draws ahead in {samples} "
                       "sampled deals, throwing {tile} finishes the hand in {won} of them (throwing {other}: "
                       "{other_won}) and sooner on average: what you wait for next comes more often.",
                       "{other} atınca {other_outs} beklersin, ama {samples} örnek dağıtımda {draws} çekiş ileri "
                       "oynayınca {tile} atarsan el {won} kez biter ({other} atarsan {other_won} kez) ve ortalamada "
                       "daha erken: sonra beklediğin taşlar daha sık gelir."),
    "lookahead_closer": ("Throwing {other} would wait for {other_outs}, but played {draws} draws ahead in "
                         "{samples} sampled deals, throwing {tile} comes within {goal} of winning in {won} of them "
                         "(throwing {other}: {other_won}) and sooner on average: what you wait for next comes more "
                         "often.",
                         "{other} atınca {other_outs} beklersin, ama {samples} örnek dağıtımda {draws} çekiş ileri "
                         "oynayınca {tile} atarsan bitmeye {goal} kalması {won} kez olur ({other} atarsan "
                         "{other_won} kez) ve ortalamada daha erken: sonra beklediğin taşlar daha sık gelir."),
    "take_look_reason": ("Take {tile}: the hand stays {away} from winning either way, but played {draws} draws "
                         "ahead in {samples} sampled deals, taking it and throwing {throw} {gets} in {won} of them "
                         "(drawing: {other_won}) and sooner on average.",
                         "{tile} al: bitmeye yine {away} kalır, ama {samples} örnek dağıtımda {draws} çekiş ileri "
                         "oynayınca alıp {throw} atarsan {gets} {won} kez (ortadan çekersen {other_won} kez) ve "
                         "ortalamada daha erken."),
    "leave_look_reason": ("Draw from the stock: {tile} keeps the hand {away} from winning, and played {draws} "
                          "draws ahead in {samples} sampled deals, drawing {gets} in {won} of them (taking it: "
                          "{other_won}) and sooner on average.",
                          "Ortadan çek: {tile} eli kısaltmaz (bitmeye {away}), ve {samples} örnek dağıtımda {draws} "
                          "çekiş ileri oynayınca ortadan çekersen {gets} {won} kez (alırsan {other_won} kez) ve "
                          "ortalamada daha erken."),
    "look_gets_0": ("finishes", "el biter"),
    "look_gets_n": ("comes within {goal} of winning", "bitmeye {goal} kalır"),
    # equally good discards, and why the first of them comes first (Choice)
    "ties": ("{names} are equally good: {all} leave you {away} with {outs} that {what}",
             "{names} aynı derecede iyi: {all} seni {away} bırakır ve {outs} {what}"),
    "choice.loose": ("{tile} is a loose tile (in no meld), so throw it",
                     "{tile} artan bir taş (hiçbir perde değil), onu at"),
    "choice.loose_safer": ("{tile} is a loose tile and the one the next player is least likely to use, so throw it",
                           "{tile} artan bir taş ve sonraki oyuncunun işine en az yarayacak olanı, onu at"),
    "choice.safer": ("the next player is least likely to use {tile}, so throw it",
                     "{tile} sonraki oyuncunun işine en az yarar, onu at"),
    "choice.keeps": ("throwing {tile} keeps the most tiles in melds", "{tile} atınca perlerde en çok taş kalır"),
    "choice.chances": ("throwing {tile} leaves your loose tiles the most chances to join a meld",
                       "{tile} atınca artan taşların pere girme şansı en yüksek kalır"),
    "choice.okey": ("keep the okey: it stands for any tile", "okeyi tut: her taşın yerine geçer"),
    "choice.any": ("any of them will do", "hangisini atsan olur"),
    "and": (" and ", " ve "),
    "both": ("both", "ikisi de"),
    "all": ("all", "hepsi"),
    "away_0": ("finished", "eli bitmiş"),
    "away_n": ("{away} from winning", "bitmeye {away} uzakta"),
    "what_finish": ("finish", "eli bitirir"),
    "what_closer": ("bring you closer", "bitişe yaklaştırır"),
    # what screens show
    "unreachable": ("no finish is possible with the tiles left", "kalan taşlarla bitirmek mümkün değil"),
    "finished": ("finished (distance 0)", "bitti (mesafe 0)"),
    "distance_one": ("1 tile from winning (distance 1)", "bitmeye 1 taş var (mesafe 1)"),
    "distance_many": ("{d} tiles from winning (distance {d})", "bitmeye {d} taş var (mesafe {d})"),
    "head_wait": ("Discard {tile} and wait: keep your finished hand - "
                  "finishing by throwing the okey later doubles the points.",
                  "{tile} at ve bekle: bitmiş elini tut - sonra okey atarak bitirmek puanı ikiye katlar."),
    "head_finished": ("Declare: your {n} tiles are finished as {how} ({points}, {scheme}).",
                      "Bitir: {n} taşın {how} olarak bitti ({points}, {scheme})."),
    "head_declare": ("Declare: discard {tile} and show {how} ({points}, {scheme}{okey}).",
                     "Bitir: {tile} at ve {how} göster ({points}, {scheme}{okey})."),
    "okey_doubles_dash": (" - discarding the okey doubles it", " - okeyi atmak puanı ikiye katlar"),
    "head_discard": ("Discard {tile}: {distance}, {outs}.", "{tile} at: {distance}, {outs} işine yarar."),
    "head_draw": ("Draw from the stock: {distance}, {outs}.", "Ortadan çek: {distance}, {outs} işine yarar."),
    "head_take": ("Take {tile}: better than drawing ({distance} now, {outs}).",
                  "{tile} al: ortadan çekmekten iyi (şu an {distance}, {outs} işine yarar)."),
    "head_take_finishes": ("Take {tile}: it finishes the hand.", "{tile} al: eli bitirir."),
    "head_size": ("{n}: a hand has {hand} tiles ({most} after taking one); add or remove tiles below.",
                  "{n}: bir elde {hand} taş olur (taş alınca {most}); aşağıdan taş ekle ya da çıkar."),
    "no_indicator": ("Set the indicator (the tile turned face up) to get advice.",
                     "Öneri için göstergeyi (açılan taşı) seç."),
    "no_tiles": ("No tiles in the hand: take a photo of your rack, or add tiles below.",
                 "Elde taş yok: ıstakanın fotoğrafını çek ya da aşağıdan taş ekle."),
    "caption_declare": ("Declare with these {how}", "Bunlarla bitir: {how}"),
    "caption_pairs": ("Seven pairs route: {pairs}", "Çift yolu: {pairs}"),
    "caption_melds": ("Runs and sets: {in_melds} of {tiles} tiles in melds",
                      "Perler: {tiles} taşın {in_melds} tanesi perde"),
    "cannot_take": ("Cannot take {tile}: {why}", "{tile} alınamaz: {why}"),
    # the command line
    "cli_indicator": ("Indicator {ind}: okey {okey}.", "Gösterge {ind}: okey {okey}."),
    "cli_why": ("Why: {reason}", "Neden: {reason}"),
    "cli_twin": ("You hold the indicator's twin ({ind}): show it for the bonus.",
                 "Göstergenin eşi sende ({ind}): bonus için göster."),
    "cli_finishes": ("Other finishing discards: {tiles}.", "Bitiren öbür atışlar: {tiles}."),
    "cli_discards": ("Discards, best first (distance after, outs):",
                     "Atılacak taşlar, en iyisi önce (sonraki mesafe, işe yarayan taşlar):"),
    "cli_discard": ("  {tile:<4} distance {distance}  outs {outs:<3} {outs_tiles}",
                    "  {tile:<4} mesafe {distance}  {outs:<3} {outs_tiles}"),
    "cli_unreachable": ("-", "-"),
    # the solve command
    "solve_indicator": ("Indicator {ind}: okey {okey} (wild); a false joker plays as {okey}.",
                        "Gösterge {ind}: okey {okey} (her taşın yerine geçer); sahte okey {okey} yerine geçer."),
    "solve_hand": ("Hand ({n}): {tiles}", "El ({n}): {tiles}"),
    "solve_meld": ("  {kind:<4} {tiles}", "  {kind:<4} {tiles}"),
    "solve_left": ("  left over: {tiles}", "  artan: {tiles}"),
    "solve_pairs": ("Seven pairs: {pairs}{shown}", "Çiftler: {pairs}{shown}"),
    "solve_no": ("Declare: no. {note}", "Bitir: hayır. {note}"),
    "note_short": ("{n}: a finished hand has {hand} tiles ({most} before the discard).",
                   "{n}: bitmiş bir elde {hand} taş olur (atmadan önce {most})."),
    "note_open": ("No finish: not every tile fits in melds or seven pairs.",
                  "Bitmiyor: her taş bir pere ya da çifte girmiyor."),
    "solve_yes": ("Declare: yes, {what} and show {how} ({points}, {scheme}{extra}).",
                  "Bitir: evet, {what} ve {how} göster ({points}, {scheme}{extra})."),
    "solve_discard": ("discard {tile}", "{tile} at"),
    "solve_fourteen": ("the 14 tiles", "14 taşla"),
    "solve_okey_doubles": (", discarding an okey doubles it", ", okey atmak puanı ikiye katlar"),
    "meld.run": ("run", "seri"),
    "meld.set": ("set", "grup"),
    "meld.pair": ("pair", "çift"),
    # the read command
    "read_none": ("No tiles found in the {width}x{height} photo.", "{width}x{height} fotoğrafta taş bulunamadı."),
    "read_count": ("{n} read ({width}x{height}); '?' = please confirm.",
                   "{n} okundu ({width}x{height}); '?' = lütfen kontrol et."),
    "read_row": ("  row {row}: {tiles}", "  {row}. sıra: {tiles}"),
    "read_apart": ("  apart: {tiles}", "  ıstakanın dışında: {tiles}"),
    "read_indicator": ("Indicator {ind}: the tile beside the rack in the photo (give another with --indicator).",
                       "Gösterge {ind}: fotoğrafta ıstakanın yanındaki taş (başkası için --indicator ver)."),
    "read_no_tiles": ("{photo}: no tiles read on a rack, nothing to solve or advise; take the photo closer, with "
                      "the whole rack in the frame.",
                      "{photo}: ıstakada taş okunamadı, çözülecek ya da önerilecek bir şey yok; fotoğrafı daha "
                      "yakından, bütün ıstaka görünecek şekilde çek."),
    "read_include_apart": ("--include-apart counts the tiles apart from the rack as the hand's: give the indicator "
                           "with --indicator.",
                           "--include-apart ıstakanın dışındaki taşları da elden sayar: göstergeyi --indicator ile "
                           "ver."),
    "read_no_indicator": ("{photo}: the photo shows no indicator beside the rack: give it with --indicator "
                          "(e.g. --indicator r3).",
                          "{photo}: fotoğrafta ıstakanın yanında gösterge yok: --indicator ile ver "
                          "(örn. --indicator \"kırmızı 3\")."),
}


def say(key: str, lang: Lang = Lang.EN, **fields: object) -> str:
    """The sentence ``key`` in ``lang``, its ``{fields}`` filled (a ``Tile`` in the language's words)."""
    return fill(SENTENCES, key, lang, **fields)


def action_label(action: Action, lang: Lang = Lang.EN) -> str:
    """The action in words."""
    return say(f"action.{action.value}", lang)


def kind_label(kind: FinishKind, lang: Lang = Lang.EN) -> str:
    """The finish kind in words (English: :attr:`FinishKind.label`)."""
    return kind.label if Lang.of(lang) is not Lang.TR else say(f"kind.{kind.value}", lang)


def shown_label(kind: FinishKind, lang: Lang = Lang.EN) -> str:
    """The finish kind as what a player shows ("show runs and sets"; Turkish
    its object form: "perleri göster")."""
    return kind.label if Lang.of(lang) is not Lang.TR else say(f"kind.shown.{kind.value}", lang)


def scheme_label(scheme: Scheme | str, lang: Lang = Lang.EN) -> str:
    """A scoring scheme as a sentence names it."""
    key = f"scheme.{Scheme(scheme).value}"
    return say(key, lang)


def meld_label(kind: str, lang: Lang = Lang.EN) -> str:
    """A meld's kind in words: run, set or pair (Turkish: seri, grup, çift)."""
    key = f"meld.{kind}"
    return say(key, lang) if key in SENTENCES else kind


def meld_text(meld: Meld, lang: Lang = Lang.EN) -> str:
    """A meld's tiles with what each okey stands for: ``r3 r4 k6(=r5)`` in
    English (:meth:`~okey_vision.melds.Meld.describe`), in words in Turkish.

    >>> from okey_vision.solver import arrange
    >>> m = arrange("r3 r4 k6", "k5").melds[0]
    >>> meld_text(m), meld_text(m, Lang.TR)
    ('r3 r4 k6(=r5)', 'kırmızı 3, kırmızı 4, siyah 6 (= kırmızı 5)')
    """
    if Lang.of(lang) is not Lang.TR:
        return meld.describe()
    wild = dict(meld.wilds)
    return ", ".join(f"{tiles_words([t], lang)} (= {tiles_words([wild[i]], lang)})" if i in wild
                     else tiles_words([t], lang) for i, t in enumerate(meld.tiles))


def tiles_text(tiles: Iterable[Tile], lang: Lang = Lang.EN) -> str:
    """Tiles as a player reads them: by colour, then number (:func:`~okey_vision.tiles.sort_tiles`),
    in the language's words (:func:`~okey_vision.lang.tiles_words`).

    >>> from okey_vision.tiles import parse_hand
    >>> tiles_text(parse_hand("b10 b11 b9 r2 fj")), tiles_text(parse_hand("b9 r2"), Lang.TR)
    ('r2 b9 b10 b11 fj', 'kırmızı 2, mavi 9')
    """
    return tiles_words(sort_tiles(tiles), lang)


def _sentence(text: str, lang: Lang = Lang.EN) -> str:
    """``text`` as a sentence: a capital first letter (never on a tile's
    notation: 'b1 and r5 ...'; a Turkish one on its word: 'Kırmızı 5 ve ...')
    and its full stop."""
    text = capital(text.strip(), lang)
    if not text:
        return text
    return text if text[-1] in ".!?" else text + "."


# ------------------------------------------------------------ reasons ---

def declare_reason(finish: Finish, scheme: Scheme, lang: Lang = Lang.EN) -> str:
    """Why to declare now."""
    extra = say("okey_doubles", lang) if finish.okey_discard else ""
    points = count(finish.points(scheme), "point", lang)
    if finish.discard is None:  # 14 tiles, finished as they are
        return say("declare_finished", lang, how=shown_label(finish.kind, lang), points=points, extra=extra)
    return say("declare_reason", lang, tile=finish.discard, how=shown_label(finish.kind, lang), points=points,
               extra=extra)


def wait_reason(wins: int, unseen: int, later: int, now: int, lang: Lang = Lang.EN) -> str:
    """Why a finished hand should wait one turn."""
    return say("wait_reason", lang, wins=wins, unseen=unseen, later=later, now=now)


def _route(route: str, lang: Lang) -> str:
    return say(f"route.{route}", lang) if f"route.{route}" in SENTENCES else route


def discard_reason(best: DiscardOption, ties: Sequence[DiscardOption], lang: Lang = Lang.EN) -> str:
    """Why to throw the first-ranked tile (``ties``, the others of equal
    distance and outs, are said by the :class:`~okey_vision.coach.why.ChoiceNote`)."""
    if best.distance >= UNREACHABLE:
        return say("discard_stuck", lang, tile=best.tile)
    return say("discard_reason", lang, tile=best.tile, away=count(best.distance, "tile", lang),
               route=_route(best.route, lang), outs=count(best.outs, "out", lang))


def draw_reason(now: Reading, lang: Lang = Lang.EN) -> str:
    """Why to draw when nothing is offered."""
    if now.distance >= UNREACHABLE:
        return _sentence(action_label(Action.DRAW, lang) + ": " + say("unreachable", lang), lang)
    return say("draw_reason", lang, away=count(now.distance, "tile", lang), outs=count(now.outs, "out", lang))


def take_reason(offered: Tile, now: Reading, finishes: bool, lang: Lang = Lang.EN) -> str:
    """Why to take the offered tile."""
    if finishes:
        return say("take_finishes", lang, tile=offered)
    return say("take_reason", lang, tile=offered, closer=count(now.distance - 1, "tile", lang),
               outs=count(now.outs, "time", lang))


def take_outs_reason(offered: Tile, throw: Tile, now: Reading, after: DiscardOption, lang: Lang = Lang.EN) -> str:
    """Why to take a tile that keeps the distance: it adds outs."""
    return say("take_outs_reason", lang, tile=offered, away=count(now.distance, "tile", lang),
               throw=throw, after=count(after.outs, "tile", lang), outs=now.outs)


def waits_for(tiles: Sequence[Tile], outs: int, lang: Lang = Lang.EN) -> str:
    """Which tiles the hand waits for (a note after the reason)."""
    return say("waits_for", lang, tiles=tiles_words(tiles, lang), outs=count(outs, "tile", lang))


def keep_back(kept: Tile, thrown: Tile, lang: Lang = Lang.EN) -> str:
    """Why a tile is kept back from the next player (a note after the reason)."""
    return say("keep_back", lang, kept=kept, thrown=thrown)


def lookahead_note(other: DiscardOption, tile: Tile, chosen: LookScore, first: LookScore, lang: Lang = Lang.EN) -> str:
    """Why the lookahead throws ``tile`` rather than ``other``, ranked first by distance then outs (a note)."""
    return say("lookahead_closer" if chosen.goal else "lookahead_note", lang, tile=tile, other=other.tile,
               other_outs=count(other.outs, "tile", lang), draws=chosen.draws, samples=chosen.samples,
               won=chosen.wins, other_won=first.wins, goal=count(chosen.goal, "tile", lang))


def _gets(goal: int, lang: Lang) -> str:
    """What a lookahead sample reaches: finished, or within ``goal`` exchanges of it."""
    return say("look_gets_n", lang, goal=count(goal, "tile", lang)) if goal else say("look_gets_0", lang)


def take_look_reason(offered: Tile, throw: Tile, took: LookScore, drew: LookScore, lang: Lang = Lang.EN) -> str:
    """Why to take a tile that keeps the distance: the lookahead finishes more often after taking."""
    return say("take_look_reason", lang, tile=offered, throw=throw, away=count(took.goal + 2, "tile", lang),
               gets=_gets(took.goal, lang), draws=drew.draws, samples=took.samples, won=took.wins,
               other_won=drew.wins)


def leave_look_reason(offered: Tile, took: LookScore, drew: LookScore, lang: Lang = Lang.EN) -> str:
    """Why to leave a tile that keeps the distance: the lookahead finishes more often after drawing."""
    return say("leave_look_reason", lang, tile=offered, away=count(drew.goal + 2, "tile", lang),
               gets=_gets(drew.goal, lang), draws=drew.draws, samples=drew.samples, won=drew.wins,
               other_won=took.wins)


def leave_reason(offered: Tile, now: Reading, lang: Lang = Lang.EN) -> str:
    """Why to leave the offered tile and draw."""
    return say("leave_reason", lang, tile=offered, away=count(now.distance, "tile", lang),
               outs=count(now.outs, "out", lang))


def choice_note(best: DiscardOption, ties: Sequence[DiscardOption], basis: Choice, lang: Lang = Lang.EN) -> str:
    """Equally good discards, and why the first of them is thrown (a note):
    :func:`ties_text` with its :class:`Choice`."""
    return ties_text(best, ties, lang, basis)


def said(why: Why, lang: Lang = Lang.EN) -> str:
    """One reason (or note) in ``lang``: one sentence, with its full stop (each kind its own sentence)."""
    if isinstance(why, DeclareWhy):
        return declare_reason(why.finish, why.scheme, lang)
    if isinstance(why, WaitWhy):
        return wait_reason(why.wins, why.unseen, why.later, why.now, lang)
    if isinstance(why, DiscardWhy):
        return discard_reason(why.best, why.ties, lang)
    if isinstance(why, DrawWhy):
        return draw_reason(why.now, lang)
    if isinstance(why, TakeWhy):
        return take_reason(why.offered, why.now, why.finishes, lang)
    if isinstance(why, LeaveWhy):
        return leave_reason(why.offered, why.now, lang)
    if isinstance(why, TakeOutsWhy):
        return take_outs_reason(why.offered, why.throw, why.now, why.after, lang)
    if isinstance(why, TakeLookWhy):
        return take_look_reason(why.offered, why.throw, why.took, why.drew, lang)
    if isinstance(why, LeaveLookWhy):
        return leave_look_reason(why.offered, why.took, why.drew, lang)
    return _said_note(why, lang)


def _said_note(why: WaitsForNote | KeepBackNote | ChoiceNote | LookaheadNote, lang: Lang) -> str:
    """A note's sentence (said after the reason)."""
    if isinstance(why, WaitsForNote):
        return waits_for(why.out_tiles, why.outs, lang)
    if isinstance(why, KeepBackNote):
        return keep_back(why.kept, why.thrown, lang)
    if isinstance(why, ChoiceNote):
        return choice_note(why.best, why.ties, why.basis, lang)
    return lookahead_note(why.other, why.tile, why.chosen, why.first, lang)


def explain(advice: Advice, lang: Lang = Lang.EN) -> str:
    """Why the advice says what it does, in ``lang``: the reason, then the
    notes, each a sentence.

    >>> from okey_vision.coach import advise
    >>> a = advise("r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 y1", "b9", offered="k9")
    >>> explain(a), explain(a, Lang.TR)
    ('Take k9: it finishes the hand.', 'Siyah 9 al: eli bitirir.')
    """
    return " ".join([said(advice.why, lang)] + [said(n, lang) for n in advice.notes])


def choice_text(advice: Advice, lang: Lang = Lang.EN) -> str | None:
    """The equally good discards and why the advised one is thrown (the
    :class:`~okey_vision.coach.why.ChoiceNote`), or None when the advised discard has no equal."""
    note = next((n for n in advice.notes if isinstance(n, ChoiceNote)), None)
    return said(note, lang) if note is not None else None


def advice_dict(advice: Advice, lang: Lang = Lang.EN) -> dict[str, Any]:
    """The advice's JSON summary (:meth:`Advice.to_dict`) with, beside the
    action, its :func:`headline` and reason in ``lang``, as the command line
    prints it (the headline is the app's and the plain output's, word for word)."""
    out: dict[str, Any] = {}
    for key, value in advice.to_dict().items():
        out[key] = value
        if key == "action":
            out["headline"] = headline(advice, lang)
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


def headline(advice: Advice, lang: Lang = Lang.EN) -> str:
    """The move in one sentence, for a screen, the command line and the JSON
    alike: always the advice's :class:`Action` (take, draw, discard or
    declare), said from the advice alone.

    >>> from okey_vision.coach import advise
    >>> a = advise("r3 r4 r5 r6 r9 r10 r11 y10 y11 y12 y13 r4 r5 r6", "k6", offered="r7")
    >>> a.action.value, headline(a)
    ('take', 'Take r7: it finishes the hand.')
    >>> headline(a, Lang.TR)
    'Kırmızı 7 al: eli bitirir.'
    """
    action = advice.action
    rec = advice.best
    if action is Action.DECLARE and advice.declare is not None:
        return finish_headline(advice.declare, advice.scheme, lang)
    if action is Action.DISCARD and rec is not None:
        if advice.wait:
            return say("head_wait", lang, tile=rec.tile)
        return say("head_discard", lang, tile=rec.tile, distance=distance_text(rec.distance, lang),
                   outs=count(rec.outs, "out", lang))
    if action is Action.TAKE and advice.offered is not None:
        if isinstance(advice.why, TakeWhy) and advice.why.finishes:
            return say("head_take_finishes", lang, tile=advice.offered)
        return say("head_take", lang, tile=advice.offered, distance=distance_text(advice.distance, lang),
                   outs=count(advice.outs, "out", lang))
    if action is Action.DRAW:
        return say("head_draw", lang, distance=distance_text(advice.distance, lang),
                   outs=count(advice.outs, "out", lang))
    raise ValueError(f"an advice to {action.value} without its tile: {advice!r}"[:200])


def finish_headline(finish: Finish, scheme: Scheme | str, lang: Lang = Lang.EN) -> str:
    """A finished hand's move: declare, throwing the finish's discard (or
    with 14 tiles finished as they are), what it shows and its points; the
    organiser's check says a finish in this sentence too."""
    how = shown_label(finish.kind, lang)
    named = scheme_label(scheme, lang)
    worth = count(finish.points(scheme), "point", lang)
    if finish.discard is None:
        return say("head_finished", lang, n=HAND_SIZE, how=kind_label(finish.kind, lang), points=worth,
                   scheme=named)
    okey = say("okey_doubles_dash", lang) if finish.okey_discard else ""
    return say("head_declare", lang, tile=finish.discard, how=how, points=worth, scheme=named, okey=okey)


def size_headline(tiles: int, lang: Lang = Lang.EN) -> str:
    """What a hand of the wrong size needs (no advice: not 14 or 15 tiles)."""
    return say("head_size", lang, n=count(tiles, "tile", lang), hand=HAND_SIZE, most=MAX_HAND)


def groups_caption(finish: Finish | None, pairs: int = 0, in_melds: int = 0, tiles: int = 0,
                   lang: Lang = Lang.EN) -> str:
    """The caption over the drawn groups: the finish's melds, the seven-pairs
    route (``pairs`` pairs), or the runs and sets (``in_melds`` of ``tiles``)."""
    if finish is not None:
        return say("caption_declare", lang, how=kind_label(finish.kind, lang))
    if pairs:
        return say("caption_pairs", lang, pairs=count(pairs, "pair", lang))
    return say("caption_melds", lang, in_melds=in_melds, tiles=tiles)


def cannot_take(offered: Tile, why: str, lang: Lang = Lang.EN) -> str:
    """The offered tile cannot be taken (too many copies, ...): one sentence."""
    return _sentence(say("cannot_take", lang, tile=offered, why=why), lang)


def ties_text(best: DiscardOption, ties: Sequence[DiscardOption], lang: Lang = Lang.EN,
              basis: Choice | None = None) -> str:
    """Equally good discards in a player's words (``ties``: the others of the
    best's distance and outs), and, given the :class:`Choice` that put the
    best first, why to throw it: one sentence."""
    names = [tiles_words([best.tile], lang)] + [tiles_words([o.tile], lang) for o in ties]
    joined = ", ".join(names[:-1]) + say("and", lang) + names[-1]
    d = best.distance
    away = say("away_0", lang) if d == 0 else say("away_n", lang, away=count(d, "tile", lang))
    what = say("what_finish", lang) if d == 1 else say("what_closer", lang)
    text = say("ties", lang, names=joined, all=say("both" if len(names) == 2 else "all", lang), away=away,
               outs=count(best.outs, "tile", lang), what=what)
    if basis is not None:
        text += "; " + say(f"choice.{Choice(basis).value}", lang, tile=best.tile)
    return _sentence(text, lang)


def advice_lines(advice: Advice, lang: Lang = Lang.EN) -> list[str]:
    """The advice as the command line prints it: the indicator, the move in
    the app's words (:func:`headline`), why, and then the ranked discards
    (or, for a hand to declare, the other finishing discards)."""
    ind = advice.indicator
    finish = advice.declare if advice.can_declare else None
    head, reason = headline(advice, lang), explain(advice, lang)
    lines = [say("cli_indicator", lang, ind=ind, okey=advice.okey), head]
    if advice.action is not Action.DECLARE and reason != head:  # a declaration's reason is its headline
        lines.append(say("cli_why", lang, reason=reason))
    if advice.indicator_twin:
        lines.append(say("cli_twin", lang, ind=ind))
    if advice.can_declare:
        others = [o.tile for o in advice.discards
                  if o.distance == 0 and finish is not None and o.tile != finish.discard]
        if others:
            lines.append(say("cli_finishes", lang, tiles=tiles_text(others, lang)))
    elif advice.discards:
        lines.append(say("cli_discards", lang))
        width = max(len(tiles_words([d.tile], lang)) for d in advice.discards)
        for d in advice.discards:
            lines.append(say("cli_discard", lang, tile=tiles_words([d.tile], lang).ljust(width),
                             distance=d.distance if d.distance < UNREACHABLE else say("cli_unreachable", lang),
                             outs=d.outs, outs_tiles=tiles_words(d.out_tiles, lang)).rstrip())
    return lines


# -------------------------------------------------------- the commands ---

def solve_lines(arrangement: Arrangement, declaration: Declaration, lang: Lang = Lang.EN) -> list[str]:
    """The ``solve`` command's report: the indicator, the hand, its runs and
    sets, its seven pairs, and whether (and how) it can be declared."""
    ind = arrangement.indicator
    okey = okey_of(ind)
    n = len(arrangement.hand)
    lines = [say("solve_indicator", lang, ind=ind, okey=okey),
             say("solve_hand", lang, n=n, tiles=tiles_words(arrangement.hand, lang)),
             groups_caption(None, in_melds=arrangement.tiles_in_melds, tiles=n, lang=lang)]
    for meld in arrangement.melds:
        lines.append(say("solve_meld", lang, kind=meld_label(meld.kind, lang), tiles=meld_text(meld, lang)))
    lines.append(say("solve_left", lang, tiles=tiles_text(arrangement.leftover, lang) or "-"))
    shown = f" ({'; '.join(meld_text(m, lang) for m in arrangement.pairs)})" if arrangement.pairs else ""
    lines.append(say("solve_pairs", lang, pairs=count(len(arrangement.pairs), "pair", lang), shown=shown))
    best = declaration.best
    if best is None:
        lines.append(say("solve_no", lang, note=declare_note(declaration, lang)))
        return lines
    what = say("solve_discard", lang, tile=best.discard) if best.discard else say("solve_fourteen", lang)
    extra = say("solve_okey_doubles", lang) if best.okey_discard else ""
    lines.append(say("solve_yes", lang, what=what, how=shown_label(best.kind, lang),
                     points=count(best.points(declaration.scheme), "point", lang),
                     scheme=scheme_label(declaration.scheme, lang), extra=extra))
    for meld in best.melds:
        lines.append(say("solve_meld", lang, kind=meld_label(meld.kind, lang), tiles=meld_text(meld, lang)))
    others = {f.discard for f in declaration.finishes if f.discard is not None and f != best}
    if others:
        lines.append(say("cli_finishes", lang, tiles=tiles_text(others, lang)))
    return lines


def declare_note(declaration: Declaration, lang: Lang = Lang.EN) -> str:
    """Why a hand cannot be declared: too few tiles, or no finish (the
    solver's ``note``, said in ``lang``); empty when it can be."""
    if declaration.can_declare:
        return ""
    n = len(declaration.hand)
    if n < HAND_SIZE:
        return say("note_short", lang, n=count(n, "tile", lang), hand=HAND_SIZE, most=MAX_HAND)
    return say("note_open", lang)


def read_lines(rows: Sequence[tuple[int | None, Sequence[tuple[Tile, bool]]]], found: int, width: int, height: int,
               lang: Lang = Lang.EN) -> list[str]:
    """The ``read`` command's report: how many tiles it read, then each rack
    row (``None``: the tiles lying apart) as (tile, unsure) pairs said in
    the language, '?' after the unsure ones."""
    if not found:
        return [say("read_none", lang, width=width, height=height)]
    lines = [say("read_count", lang, n=count(found, "tile", lang), width=width, height=height)]
    for row, tiles in rows:
        names = (", " if Lang.of(lang) is Lang.TR else " ").join(
            tiles_words([tile], lang) + ("?" if unsure else "") for tile, unsure in tiles)
        if row is None:
            lines.append(say("read_apart", lang, tiles=names))
        else:
            lines.append(say("read_row", lang, row=row + 1, tiles=names))
    return lines
