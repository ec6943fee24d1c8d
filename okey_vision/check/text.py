"""Every word of the organiser's check, in English and Turkish: the verdict,
why, the report's and the page's labels, the command line's lines. Each
sentence is built once from both languages' templates, as the coach's are
(:mod:`okey_vision.coach.text`, whose sentences it reuses for a finish and a
distance); every sentence ends with its full stop (labels do not).

>>> verdict_label("yes"), verdict_label("no", Lang.TR)
('Can be declared', 'Bitmez')
>>> say("why_size", Lang.TR, n=count(13, "tile", Lang.TR), hand=14, most=15)
'13 taş: el 14 taşla, ya da atılacak taşıyla 15 taşla biter.'
"""

from __future__ import annotations

from okey_vision.lang import Lang, count, fill, tile_word
from okey_vision.tiles import Game, Tile, okey_of
from okey_vision.yuzbir.text import say as say101

#: key -> (English, Turkish); ``{name}`` fields are filled by :func:`say`.
#: Keys starting ``label.`` are labels (no full stop); the others are sentences.
SENTENCES: dict[str, tuple[str, str]] = {
    # the verdict in large type
    "label.yes": ("Can be declared", "Biter"),
    "label.no": ("Cannot be declared", "Bitmez"),
    "label.error": ("Not checked", "Kontrol edilemedi"),
    # why a hand cannot be declared
    "why_size": ("{n}: a hand is declared with {hand} tiles, or {most} with its discard.",
                 "{n}: el {hand} taşla, ya da atılacak taşıyla {most} taşla biter."),
    "why_left": ("Not finished: {tiles} left over after the {route}; {distance}.",
                 "Bitmemiş: {route} dışında kalan taşlar {tiles}; {distance}."),
    "why_left_15": ("Not finished: {tiles} left over after the {route}, and a finish leaves only its discard; "
                    "{distance}.",
                    "Bitmemiş: {route} dışında kalan taşlar {tiles}, ama bitişte yalnız atılan taş dışarıda "
                    "kalır; {distance}."),
    "label.route_melds": ("runs and sets", "perler"),
    "label.route_pairs": ("pairs", "çiftler"),
    # where the indicator came from
    "label.source_sidecar": ("from its sidecar file", "yanındaki dosyadan"),
    "label.source_option": ("chosen for the photos that show none", "gösterge göstermeyen fotoğraflar için seçilen"),
    "label.source_photo": ("beside the rack in the photo", "fotoğrafta ıstakanın yanında"),
    "shown_other": ("The photo shows {shown} beside the rack; checked with {ind} ({source}).",
                    "Fotoğrafta ıstakanın yanında {shown} var; {ind} ile kontrol edildi ({source})."),
    # errors of a photo (English: the error's own message)
    "no_path": ("{name}: no such file or folder.", "{name}: böyle bir dosya ya da klasör yok."),
    "no_photos": ("{name}: no photos in this folder ({types}).", "{name}: bu klasörde fotoğraf yok ({types})."),
    "folder_unreadable": ("{name}: this folder cannot be read ({why}).", "{name}: bu klasör okunamıyor ({why})."),
    "no_tiles": ("{name}: no tiles found in the photo.", "{name}: fotoğrafta taş bulunamadı."),
    "no_indicator": ("{name}: no indicator lies beside the rack and none was given (--indicator, or a sidecar "
                     "{stem}.txt).",
                     "{name}: ıstakanın yanında gösterge yok ve verilmedi (--indicator ya da yanında "
                     "{stem}.txt dosyası)."),
    "no_indicator_app": ("{name}: no indicator lies beside the rack: choose one for the photos that show none.",
                         "{name}: ıstakanın yanında gösterge yok: gösterge göstermeyen fotoğraflar için seç."),
    "sidecar": ("{name}: its sidecar {sidecar} names no indicator (write 'r3' or 'indicator r3').",
                "{name}: yanındaki {sidecar} dosyası gösterge söylemiyor ('kırmızı 3' ya da 'gösterge kırmızı 3' "
                "yaz)."),
    "sidecar_unreadable": ("{name}: its sidecar {sidecar} cannot be read ({why}).",
                           "{name}: yanındaki {sidecar} dosyası okunamıyor ({why})."),
    "reader_failed": ("{name}: the reader failed on this photo ({why}).",
                      "{name}: okuyucu bu fotoğrafta hata verdi ({why})."),
    "worker_failed": ("{name}: the worker checking this photo stopped, twice ({why}).",
                      "{name}: bu fotoğrafı kontrol eden işçi iki kez durdu ({why})."),
    # the report and the page
    "label.title": ("Declared hands, checked", "Bitirilen eller, kontrol"),
    "label.page": ("Check hands", "Elleri kontrol et"),
    "summary": ("{n}: {yes} can be declared, {no} cannot, {errors} not checked.",
                "{n}: {yes} el biter, {no} el bitmez, {errors} kontrol edilemedi."),
    "label.photo": ("Photo", "Fotoğraf"),
    "label.verdict": ("Verdict", "Sonuç"),
    "label.points": ("Points", "Puan"),
    "label.distance": ("Distance", "Mesafe"),
    "label.to_check": ("To check", "Bakılacak"),
    "label.indicator": ("Indicator", "Gösterge"),
    "label.hand": ("Hand read", "Okunan el"),
    "label.check_by_eye": ("Check by eye", "Gözle bak"),
    "label.the_indicator": ("Indicator", "Gösterge"),
    "label.or": ("or", "ya da"),
    "indicator_line": ("Indicator {ind} ({source}), okey {okey}.", "Gösterge {ind} ({source}), okey {okey}."),
    "tiles_line": ("{n} read on the rack.", "Istakada {n} okundu."),
    "to_check_line": ("Check these reads by eye: {tiles}.", "Bu okumalara gözle bak: {tiles}."),
    "nothing_to_check": ("Every read is sure.", "Her okuma kesin."),
    "report_written": ("The report: {path}.", "Rapor: {path}."),
    "made_by": ("Made by okey-vision check, offline; scoring {scheme}.",
                "okey-vision check ile, çevrimdışı yapıldı; puanlama {scheme}."),
    # the app page
    "page_help": ("Upload the photos of the declared hands (many at once): each is read, and its hand checked.",
                  "Bitirilen ellerin fotoğraflarını yükle (birden çok): her biri okunur ve eli kontrol edilir."),
    "label.uploads": ("Photos of declared hands", "Bitirilen ellerin fotoğrafları"),
    "label.fallback": ("Indicator for the photos that show none", "Gösterge göstermeyen fotoğraflar için gösterge"),
    "label.fallback_none": ("none: read it from each photo", "yok: her fotoğraftan oku"),
    "label.download": ("Download the report (HTML)", "Raporu indir (HTML)"),
    "checking": ("Checking {n}.", "{n} kontrol ediliyor."),
    # the same page and report in 101: a rack is judged by its best opening (el açmak)
    "summary_101": ("{n}: {yes} open, {no} not yet, {errors} not checked.",
                    "{n}: {yes} el açar, {no} el henüz açmaz, {errors} kontrol edilemedi."),
    "page_help_101": ("Upload the photos of the 101 racks (many at once): each is read, and its hand judged by its "
                      "best opening.",
                      "101 ıstakalarının fotoğraflarını yükle (birden çok): her biri okunur ve elin en iyi açışına "
                      "bakılır."),
    "label.uploads_101": ("Photos of 101 racks", "101 ıstakalarının fotoğrafları"),
    "made_by_101": ("Made by okey-vision check --game 101, offline.",
                    "okey-vision check --game 101 ile, çevrimdışı yapıldı."),
    "reader_missing": ("The tile reader is not available ({why}).", "Taş okuyucu çalışmıyor ({why})."),
}


def say(key: str, lang: Lang = Lang.EN, **fields: object) -> str:
    """The sentence or label ``key`` in ``lang``, its ``{fields}`` filled."""
    return fill(SENTENCES, key, lang, **fields)


def verdict_label(kind: str, lang: Lang = Lang.EN, game: Game = Game.OKEY) -> str:
    """The verdict in words: ``kind`` is 'yes', 'no' or 'error' (in 101 a
    rack opens or not yet).

    >>> verdict_label("yes", game=Game.ONE_OH_ONE), verdict_label("no", Lang.TR, Game.ONE_OH_ONE)
    ('Opens', 'Henüz değil')
    """
    if game is Game.ONE_OH_ONE and kind != "error":
        return say101("label_opens" if kind == "yes" else "label_not_yet", lang)
    return say(f"label.{kind}", lang)


def summary(photos: int, yes: int, no: int, errors: int, lang: Lang = Lang.EN, game: Game = Game.OKEY) -> str:
    """The counts of a check, one sentence ("1 photo: 1 can be declared, ...").

    >>> summary(1, 1, 0, 0)
    '1 photo: 1 can be declared, 0 cannot, 0 not checked.'
    >>> summary(2, 1, 1, 0, Lang.TR)
    '2 fotoğraf: 1 el biter, 1 el bitmez, 0 kontrol edilemedi.'
    >>> summary(2, 1, 1, 0, Lang.TR, Game.ONE_OH_ONE)
    '2 fotoğraf: 1 el açar, 1 el henüz açmaz, 0 kontrol edilemedi.'
    """
    key = "summary_101" if game is Game.ONE_OH_ONE else "summary"
    return say(key, lang, n=count(photos, "photo", lang), yes=yes, no=no, errors=errors)


def checking(photos: int, lang: Lang = Lang.EN) -> str:
    """The progress bar's sentence while ``photos`` photos are checked."""
    return say("checking", lang, n=count(photos, "photo", lang))


def tiles_line(tiles: int, lang: Lang = Lang.EN) -> str:
    """How many tiles were read on the rack, one sentence."""
    return say("tiles_line", lang, n=count(tiles, "tile", lang))


def indicator_line(indicator: Tile, source: str, lang: Lang = Lang.EN) -> str:
    """The indicator a verdict used, where it came from (``source``, said),
    and its okey: one sentence, the tiles in the language's words.

    >>> from okey_vision.tiles import parse_tile
    >>> indicator_line(parse_tile("y5"), "beside the rack in the photo")
    'Indicator y5 (beside the rack in the photo), okey y6.'
    >>> indicator_line(parse_tile("y5"), "fotoğrafta ıstakanın yanında", Lang.TR)
    'Gösterge sarı 5 (fotoğrafta ıstakanın yanında), okey sarı 6.'
    """
    return say("indicator_line", lang, ind=indicator, source=source, okey=okey_of(indicator))


def check_by_eye(position: int | None, tile: Tile, lang: Lang = Lang.EN) -> str:
    """Where a read to check by eye lies: its place on the rack ('#3'), or
    the indicator the verdict used ('Indicator y5'), with its tile in words.

    >>> from okey_vision.tiles import parse_tile
    >>> check_by_eye(3, parse_tile("r5")), check_by_eye(None, parse_tile("y5"), Lang.TR)
    ('#3 r5', 'Gösterge sarı 5')
    """
    where = f"#{position}" if position is not None else say("label.the_indicator", lang)
    return f"{where} {tile_word(tile, lang)}"


def error_text(exc: Exception, lang: Lang = Lang.EN) -> str | None:
    """A check error's sentence in ``lang`` by its key (None for another error)."""
    key = getattr(exc, "key", "")
    if key.startswith("check.") and key[len("check."):] in SENTENCES:
        return say(key[len("check."):], lang, **getattr(exc, "fields", {}))
    return None


__all__ = ["SENTENCES", "check_by_eye", "checking", "error_text", "indicator_line", "say", "summary", "tiles_line",
           "verdict_label"]
