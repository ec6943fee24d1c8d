"""The one language type: the app, the coach's sentences and the command line
all speak in a :class:`Lang`; and the words every module's sentences share:
a tile said in the language (:func:`tile_word`: ``r5`` in English, *kırmızı 5*
in Turkish, never the Latin notation there), a count with its noun
(:func:`count`: "1 tile", "2 tiles"; Turkish keeps the singular after a
number: "2 taş"), and :func:`fill`, the one lookup of a module's sentences,
which says a :class:`~okey_vision.tiles.Tile` field in the language and
starts a sentence with its capital.

>>> Lang.pick("tr"), Lang.pick(None, "tr-TR,tr;q=0.9,en;q=0.8"), Lang.pick(None, "de-DE")
(<Lang.TR: 'tr'>, <Lang.TR: 'tr'>, <Lang.EN: 'en'>)
>>> Lang.of("tr") is Lang.TR, Lang.TR == "tr"
(True, True)
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from enum import Enum

from okey_vision.errors import OkeyError
from okey_vision.tiles import COLOR_NAMES_TR, Tile, parse_tile


class Lang(str, Enum):
    """The languages every text exists in (a ``str`` enum: ``Lang.TR == "tr"``)."""

    EN = "en"
    TR = "tr"

    @property
    def label(self) -> str:
        """The language's own name, for the switch."""
        return {"en": "English", "tr": "Türkçe"}[self.value]

    @classmethod
    def of(cls, lang: Lang | str) -> Lang:
        """``lang`` as a :class:`Lang` (a code such as ``"tr"`` is accepted)."""
        return cls(lang)

    @classmethod
    def pick(cls, query: str | None, accept_language: str | None = None) -> Lang:
        """``?lang=`` when it names a language, else Turkish when the browser
        asks for it first among ours (Accept-Language), else English."""
        if query and query.lower()[:2] in {lang.value for lang in cls}:
            return cls(query.lower()[:2])
        for part in (accept_language or "").split(","):
            code = part.split(";")[0].strip().lower()[:2]
            if code in {lang.value for lang in cls}:
                return cls(code)
        return cls.EN


#: A tile in the project's notation inside a sentence ("r5", "k10", "fj"):
#: not part of a longer word, a number, a file name or a CSS colour.
TILE_NOTATION = re.compile(r"(?<![\w#\-=./])(fj|[rybk](?:1[0-3]|[1-9]))(?![\w/]|\.\w)")

#: The things counted: English singular|plural; Turkish one word (no plural after a number).
UNITS: dict[str, tuple[str, str]] = {
    "tile": ("tile|tiles", "taş"),
    "out": ("out|outs", "taş"),
    "pair": ("pair|pairs", "çift"),
    "point": ("point|points", "puan"),
    "time": ("time|times", "kez"),
    "photo": ("photo|photos", "fotoğraf"),
    "frame": ("frame|frames", "kare"),
    "read": ("read|reads", "okuma"),
    "player": ("player|players", "oyuncu"),
    "replica": ("replica|replicas", "kopya"),
}

#: The words of 101 Okey (yüzbir) as players say them, each with what it
#: means, in the page's language (docs/turkish.md lists them): the app's
#: 101 page shows them, and the 101 coach's sentences use them.
WORDS_101: dict[str, tuple[str, str]] = {
    "açmak": ("açmak: to open, laying your first melds on the table",
              "açmak: ilk perleri yere koymak"),
    "el açmak": ("el açmak: to open with runs and sets worth at least 101 points (an okey counts as the tile "
                 "it stands for)",
                 "el açmak: en az 101 puanlık seri ve gruplarla açmak (okey yerine geçtiği taş kadar sayılır)"),
    "çift açmak": ("çift açmak: to open with at least 5 pairs; from then on you lay only pairs, and your "
                   "penalty counts double",
                   "çift açmak: en az 5 çiftle açmak; sonra yalnız çift açılır, ceza iki kat yazılır"),
    "işlek taş": ("işlek taş: a tile the table's melds take; discarding it costs 101",
                  "işlek taş: yerdeki bir pere işlenebilen taş; atan 101 ceza yazar"),
}



def tile_word(tile: Tile | str, lang: Lang | str = Lang.EN) -> str:
    """A tile as a sentence says it: its notation in English (``r5``), its
    colour and number in Turkish (``kırmızı 5``, ``sahte okey``).

    >>> tile_word("k10", Lang.TR), tile_word("fj", Lang.TR), tile_word("k10")
    ('siyah 10', 'sahte okey', 'k10')
    """
    tile = parse_tile(tile)
    if Lang.of(lang) is not Lang.TR:
        return tile.name
    if tile.is_false_joker:
        return "sahte okey"
    return f"{COLOR_NAMES_TR[tile.color]} {tile.number}"


def tiles_words(tiles: Iterable[Tile | str], lang: Lang | str = Lang.EN) -> str:
    """Tiles in a row as a sentence lists them: ``r1 r2 fj`` in English,
    ``kırmızı 1, kırmızı 2, sahte okey`` in Turkish (words need commas).

    >>> tiles_words(["r1", "fj"]), tiles_words(["r1", "fj"], Lang.TR)
    ('r1 fj', 'kırmızı 1, sahte okey')
    """
    words = [tile_word(t, lang) for t in tiles]
    return (", " if Lang.of(lang) is Lang.TR else " ").join(words)


def count(n: int, unit: str, lang: Lang | str = Lang.EN) -> str:
    """``n`` things in words: '1 tile', '2 tiles', '1 photo'; Turkish keeps
    the singular after a number ('2 taş', '3 fotoğraf').

    >>> count(1, "tile"), count(2, "photo"), count(2, "photo", Lang.TR)
    ('1 tile', '2 photos', '2 fotoğraf')
    """
    one, _, many = fill(UNITS, unit, lang).partition("|")
    return f"{n} {one if n == 1 or not many else many}"


def capital(text: str, lang: Lang | str = Lang.EN) -> str:
    """``text`` with a capital first letter (Turkish: ``i`` -> ``İ``); a
    sentence starting with a tile's notation (``b1 and r5 ...``) keeps it.

    >>> capital("ikisi de"), capital("ikisi de", Lang.TR), capital("r5 goes")
    ('Ikisi de', 'İkisi de', 'r5 goes')
    """
    if not text or TILE_NOTATION.match(text) or not text[0].islower():
        return text
    first = "İ" if text[0] == "i" and Lang.of(lang) is Lang.TR else text[0].upper()
    return first + text[1:]


def mid_sentence(text: str, lang: Lang | str = Lang.EN) -> str:
    """A sentence ``text`` as it reads quoted inside another (after a colon):
    its first word's capital made small (Turkish: ``İ`` -> ``i``, ``I`` ->
    ``ı``); a name written with more capitals (``OSError``, ``URL``) or a
    file's name (``Rack.jpg``) keeps them.

    >>> mid_sentence("The photo is large"), mid_sentence("İstek bozuk", Lang.TR), mid_sentence("OSError: x")
    ('the photo is large', 'istek bozuk', 'OSError: x')
    >>> mid_sentence("Rack.jpg: empty")
    'Rack.jpg: empty'
    """
    word = re.match(r"\w+(?=[\s,;]|$)", text)  # a word, not a file's name ("Rack.jpg: ...")
    if not word or not text[0].isupper() or any(c.isupper() for c in word.group(0)[1:]):
        return text
    first = {"İ": "i", "I": "ı"}.get(text[0], text[0].lower()) if Lang.of(lang) is Lang.TR else text[0].lower()
    return first + text[1:]


def in_words(text: str, lang: Lang | str = Lang.EN) -> str:
    """``text`` as a page shows it: in Turkish every tile written in the
    project's notation is said in words (a sentence that starts with one
    starts with a capital); English is left as it is.

    >>> in_words("r5 ve fj aynı derecede iyi", Lang.TR)
    'Kırmızı 5 ve sahte okey aynı derecede iyi'
    >>> in_words("R12 al: eli bitirir.", Lang.TR), in_words("r5.jpg: boş", Lang.TR)
    ('Kırmızı 12 al: eli bitirir.', 'r5.jpg: boş')
    """
    if Lang.of(lang) is not Lang.TR or not text:
        return text
    if re.match(r"(?:[RYBK](?:1[0-3]|[1-9])|Fj)(?![\w.])", text):  # a sentence begun with a tile ("R12 al")
        text = text[0].lower() + text[1:]
    out = TILE_NOTATION.sub(lambda m: tile_word(m.group(1), lang), text)
    if out != text and TILE_NOTATION.match(text):
        out = capital(out, lang)
    return out


#: Domain errors in Turkish, by the error's key (English: the error's own
#: message; photo problems: :class:`okey_vision.errors.ImageProblem`).
ERRORS_TR: dict[str, str] = {
    "missing": "{name}: böyle bir dosya yok",
    "folder": "{name}: bir klasör, fotoğraf değil",
    "unreadable": "{name}: okunamıyor ({why})",
    "not_file": "{name}: normal bir dosya değil ({kind}): yalnız fotoğraf dosyaları okunur",
    "empty": "{name}: dosya boş",
    "file_too_large": "{name}: dosya çok büyük ({size} MB; bir fotoğraf dosyası en çok {limit} MB)",
    "not_image": "{name}: bu bir fotoğraf değil ({formats} bekleniyor)",
    "header": "{name}: fotoğraf bozuk: {format} başlığı kesik ya da hatalı",
    "too_small": "{name}: fotoğraf taş okumak için çok küçük ({width}x{height} piksel)",
    "too_large": "{name}: görüntü çok büyük ({width}x{height} piksel; en çok {limit} milyon)",
    "damaged": "{name}: fotoğraf bozuk ve açılamıyor (kesik ya da hatalı {format})",
    "unknown_tile": "bilinmeyen taş adı {name}: bir renk (kırmızı, sarı, mavi, siyah) ve 1-13 arası bir sayı "
                    "bekleniyor, örn. 'kırmızı 7', ya da 'sahte okey'",
    "too_many_copies": "{tile} taşından {n} tane var: sette yalnız {copies} tane olur",
    "fj_indicator": "sahte okey gösterge olamaz",
    "hand_too_big": "bir elde en çok {most} taş olur, burada {n} taş var",
    "advice_size": "öneri için {hand} taş ve yere atılan taş ya da {most} taş gerekir; burada {n} taş var: {tiles}",
    "advice_size_offered": "yere atılan taşla öneri için {hand} taş gerekir; burada {n} taş var: {tiles}",
    "not_a_meld": "{tiles}: ne seri, ne grup, ne de çift",
    "not_a_run_or_set": "{tiles}: ne seri, ne de grup",
    "missing_extra": "'{package}' paketi gerekli: pip install 'okey-vision[{extra}]'",
    "finisher_opened": "{who} bitti, demek ki açmıştı: perlerle mi, çiftle mi?",
}


def error_message(exc: Exception, lang: Lang = Lang.EN) -> str:
    """A domain error for the player: its own English message, or its
    Turkish sentence (its tiles said in words): the one the error says
    itself where its words live beside it (:meth:`OkeyError.said`: the
    reader service's, the check's, 101's), else the one of
    :data:`ERRORS_TR` for the error's key.

    >>> from okey_vision.yuzbir.rules import Hand101, rack101
    >>> try:
    ...     rack101(Hand101.of("r1 r2 r3", "k5"), "a.jpg")
    ... except ValueError as exc:
    ...     print(error_message(exc, Lang.TR))
    a.jpg: ıstakada 3 taş okundu, ama 101'de ıstakada 21 taş, atmadan önce 22 taş olur; fotoğrafı bütün ıstaka \
görünecek şekilde yeniden çek
    """
    key = getattr(exc, "key", "")
    said = exc.said(Lang.TR) if Lang.of(lang) is Lang.TR and isinstance(exc, OkeyError) else None
    if said:
        return in_words(said.rstrip("."), lang)
    if Lang.of(lang) is Lang.TR and key in ERRORS_TR:
        fields = dict(getattr(exc, "fields", {}))
        if isinstance(fields.get("formats"), str):  # the formats' list is joined in English: "BMP or TIFF"
            fields["formats"] = fields["formats"].replace(" or ", " ya da ")
        return in_words(ERRORS_TR[key].format(**fields), lang)
    return in_words(str(exc), lang)


def fill(table: Mapping[str, tuple[str, str]], key: str, lang: Lang | str = Lang.EN, **fields: object) -> str:
    """The text ``key`` of ``table`` (key -> (English, Turkish)) in ``lang``,
    its ``{fields}`` filled: every module's words are looked up this one way.
    A :class:`~okey_vision.tiles.Tile` field is said by :func:`tile_word`;
    a sentence (a text ending with its full stop) that starts with a tile
    starts with a capital in Turkish ("Kırmızı 7 al: ...").

    >>> fill({"hi": ("Hello {name}.", "Merhaba {name}.")}, "hi", Lang.TR, name="Ayşe")
    'Merhaba Ayşe.'
    >>> table = {"take": ("Take {tile}.", "{tile} al.")}
    >>> fill(table, "take", tile=parse_tile("r7")), fill(table, "take", Lang.TR, tile=parse_tile("r7"))
    ('Take r7.', 'Kırmızı 7 al.')
    """
    en, tr = table[key]
    lang = Lang.of(lang)
    template = tr if lang is Lang.TR else en
    said = {k: tile_word(v, lang) if isinstance(v, Tile) else v for k, v in fields.items()}
    text = template.format(**said)
    first = re.match(r"{(\w+)[^}]*}", template)  # a sentence that starts with a tile (never a file's name)
    if first and isinstance(fields.get(first.group(1)), Tile) and text.endswith((".", "!", "?")):
        return capital(text, lang)
    return text


__all__ = ["ERRORS_TR", "TILE_NOTATION", "UNITS", "WORDS_101", "Lang", "capital", "count", "error_message", "fill",
           "in_words", "mid_sentence", "tile_word", "tiles_words"]
