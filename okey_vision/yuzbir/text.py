"""Every sentence of 101 shown to a player, in English and Turkish (looked
up through :func:`okey_vision.lang.fill`, tiles said in the language).

>>> progress_words(87, 101), progress_words(87, 101, Lang.TR)
('87 of 101', '101 puandan 87')
"""

from __future__ import annotations

from okey_vision.lang import Lang, fill

#: key -> (English, Turkish). The 101 words: açmak (to open), el açmak,
#: çift açmak (to open with pairs), işlek taş (a tile the table takes).
SENTENCES: dict[str, tuple[str, str]] = {
    "progress": ("{points} of {needed}", "{needed} puandan {points}"),
    # The sizes a 101 hand must have for the call (:class:`okey_vision.yuzbir.rules.Hand101SizeError`).
    "read_rack_size": ("{photo}: {n} read on the rack, and a 101 rack holds {hand} tiles, or {most} before its "
                       "discard; take the photo again with the whole rack in the frame.",
                       "{photo}: ıstakada {n} okundu, ama 101'de ıstakada {hand} taş, atmadan önce {most} taş olur; "
                       "fotoğrafı bütün ıstaka görünecek şekilde yeniden çek."),
    "offered_size": ("a player offered {tile} holds at most {hand} tiles, before drawing; got {n}: {tiles}.",
                     "yandan {tile} alabilecek oyuncunun elinde, çekmeden önce, en çok {hand} taş olur; burada "
                     "{n} var: {tiles}."),
    "open": ("Open now with {points} points: {melds}.", "Şimdi {points} puanla el aç: {melds}."),
    "open_pairs": ("Open with {n} pairs now: {melds}.", "Şimdi {n} çiftle çift aç: {melds}."),
    "label_opens": ("Opens", "Açar"),
    "label_not_yet": ("Not yet", "Henüz değil"),
    "headline_open": ("Open: {progress}.", "El aç: {progress}."),
    "headline_pairs": ("Open with {n} pairs.", "{n} çiftle çift aç."),
    "not_yet": ("Not yet: {progress}.", "Henüz değil: {progress}."),
    "pairs_progress": ("Pairs: {n} of {needed}.", "Çift: {needed} çiftten {n}."),
    "why_open": ("A player who never opens takes 202; open as soon as you can.",
                 "Hiç açmayan 202 ceza yazar; açabildiğin an aç."),
    "why_pairs": ("Pairs double your penalty and bind you to pairs; open with them only when the runs and sets "
                  "are far.",
                  "Çift açmak cezanı ikiye katlar ve seni çiftlere bağlar; per uzaksa çift aç."),
    "wait_pairs": ("Wait before opening with pairs: the runs and sets lack only {missing} points.",
                   "Çift açmadan bekle: perlerin yalnız {missing} puan eksik."),
    "lay": ("Lay {melds}.", "Yere aç: {melds}."),
    "add": ("Add {tile} to {meld}.", "{tile} taşını {meld} perine işle."),
    "take_back": ("Put {tile} in the okey's place in {meld} and take the okey back.",
                  "{tile} taşını {meld} perindeki okeyin yerine koy, okeyi geri al."),
    "discard": ("Discard {tile}.", "{tile} at."),
    "finish": ("Discard {tile} and finish.", "{tile} atıp bitir."),
    "finish_okey": ("Discard the okey {tile} and finish: the finish counts double.",
                    "Okeyi ({tile}) atıp bitir: bitiş iki kat sayılır."),
    "why_discard_open": ("{tile} helps no meld: held to the end it would cost {points} points.",
                         "{tile} hiçbir pere girmiyor; elinde {points} puan yazardı."),
    "why_discard_wait": ("{tile} helps no run or set toward the opening; your higher tiles do.",
                         "{tile} açışa giden hiçbir pere yaramıyor; yüksek taşların yarıyor."),
    "why_discard_least": ("Every tile is in a run or set; {tile} costs them the fewest points.",
                          "Her taş bir perde; {tile} perlerden en az puan götürüyor."),
    "why_discard_pairs": ("{tile} pairs with nothing you hold.", "{tile} elindeki hiçbir taşla çift olmuyor."),
    "never_islek": ("Never discard {tiles}: the table takes them (101 penalty).",
                    "{tiles} atma: yerdeki perlere işler (işlek taş, 101 ceza)."),
    "never_okey": ("Never discard the okey before your last tile (101 penalty).",
                   "Son taşın değilse okeyi atma (101 ceza)."),
    "take": ("Take {tile}: {why}.", "{tile} al: {why}."),
    "draw": ("Draw from the stock: {why}.", "Ortadan çek: {why}."),
    "take_opens": ("it opens your hand ({progress})", "elini açtırıyor ({progress})"),
    "take_adds": ("the table takes it at once", "hemen yere işleniyor"),
    "take_melds": ("it lays a new meld with your tiles", "elindeki taşlarla yeni per oluyor"),
    "draw_no_open": ("{tile} does not open your hand, and a taken tile must be laid at once",
                     "{tile} elini açtırmıyor; yandan alınan taş hemen kullanılmalı"),
    "draw_no_use": ("{tile} cannot be laid this turn", "{tile} bu el yere konamıyor"),
    "penalty": ("Penalty now: {points}.", "Şu anki ceza: {points}."),
    "okey_line": ("Indicator {indicator}, okey {okey} (101 Okey).", "Gösterge {indicator}, okey {okey} (101 Okey)."),
    "opening_yes": ("Opening: {progress}: open with {melds}.", "Açış: {progress}: {melds} ile el aç."),
    "opening_no": ("Opening: not yet: {progress}.", "Açış: henüz değil: {progress}."),
    "best_melds": ("Best runs and sets: {melds}.", "En iyi perler: {melds}."),
    "no_melds": ("No run or set yet.", "Henüz per yok."),
    "pairs_line": ("Pairs: {pairs} of {needed}{tail}.", "Çiftler: {needed} çiftten {pairs}{tail}."),
    "pairs_open": (": enough to open with pairs", ": çift açmaya yeter"),
    "left_line": ("Left in hand: {tiles} ({points}).", "Elde kalan: {tiles} ({points})."),
    "left_none": ("Nothing left in hand.", "Elde taş kalmıyor."),
}


def say(key: str, lang: Lang | str = Lang.EN, **fields: object) -> str:
    """The sentence ``key`` in ``lang``, its fields filled."""
    return fill(SENTENCES, key, lang, **fields)


def progress_words(points: int, needed: int, lang: Lang | str = Lang.EN) -> str:
    """The opening's points against the need: '87 of 101'."""
    return say("progress", lang, points=points, needed=needed)

