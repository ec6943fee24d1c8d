"""Every word of the calibration, in English and Turkish: the command
line's lines and the app's. Each sentence ends with its full stop (labels,
keys starting ``label.``, do not).

>>> say("removed", Lang.TR)
'Kalibrasyon silindi: okuyucu kurulduğu gibi okuyor.'
"""

from __future__ import annotations

from okey_vision.lang import Lang, fill

#: key -> (English, Turkish); ``{name}`` fields are filled by :func:`say`.
SENTENCES: dict[str, tuple[str, str]] = {
    # calibrate add
    "stored": ("{photo}: {n} of {reads} rack reads stored with the tiles given ({given} given).",
               "{photo}: ıstakada okunan {reads} taşın {n} tanesi verilen taşlarla saklandı ({given} taş verildi)."),
    "refused": ("{photo}: the tiles given cannot be aligned with the photo's reads ({n} of {reads} rack reads "
                "aligned, at least half are needed); nothing was stored. Give the rack's tiles in rack order, "
                "rows top to bottom, each row left to right.",
                "{photo}: verilen taşlar fotoğrafta okunanlarla eşleşmiyor (ıstakada okunan {reads} taşın {n} "
                "tanesi eşleşti, en az yarısı gerekir); hiçbir şey saklanmadı. Istakadaki taşları sırasıyla ver: "
                "satırlar yukarıdan aşağıya, her satır soldan sağa."),
    "no_rack": ("{photo}: no tiles were read on a rack; nothing was stored.",
                "{photo}: ıstakada taş okunamadı; hiçbir şey saklanmadı."),
    # the store's damaged lines and files (every command)
    "lines_set_aside": ("{index}: {n} damaged lines (cut short or not readable) were set aside in {aside}; "
                        "{kept} stored tiles are kept.",
                        "{index}: {n} bozuk satır (kesik ya da okunamaz) {aside} dosyasına ayrıldı; saklanan "
                        "{kept} taş korunuyor."),
    "lines_skipped": ("{index}: {n} damaged lines (cut short or not readable) are skipped; they could not be "
                      "set aside ({why}).",
                      "{index}: {n} bozuk satır (kesik ya da okunamaz) atlanıyor; ayrılamadılar ({why})."),
    "index_bounded": ("{index} is longer than a store of corrections is read for ({size} MB): only its newest "
                      "{limit} MB and at most {tiles} tiles are read, and it is not tidied; nothing was deleted.",
                      "{index} bir düzeltme deposunun okunduğundan uzun ({size} MB): yalnız en yeni {limit} MB'ı ve "
                      "en çok {tiles} taşı okunuyor, düzenlenmiyor; hiçbir şey silinmedi."),
    "too_many_tiles": ("{index} holds more than {tiles} tiles: the first {tiles} stored are read, and it is not "
                       "tidied; nothing was deleted.",
                       "{index} {tiles} taştan fazlasını tutuyor: saklanan ilk {tiles} taş okunuyor, düzenlenmiyor; "
                       "hiçbir şey silinmedi."),
    "cache_set_aside": ("The guard's kept scores {path} were damaged; they were set aside as {aside} and are "
                        "measured again.",
                        "Denetimin saklanan sonuçları {path} bozuktu; {aside} olarak ayrıldı ve yeniden ölçülüyor."),
    # calibrate fit
    "nothing_stored": ("No corrections are stored yet: switch on learning in the app and confirm or correct "
                       "reads, or run okey-vision calibrate add PHOTO --tiles \"r1 r2 ...\".",
                       "Henüz saklanan düzeltme yok: uygulamada öğrenmeyi aç ve okumaları onayla ya da düzelt, "
                       "veya okey-vision calibrate add FOTOĞRAF --tiles \"r1 r2 ...\" komutunu çalıştır."),
    "learned": ("Learned from {crops} tiles of {photos} photos in {seconds} s.",
                "{photos} fotoğraftaki {crops} taştan {seconds} saniyede öğrenildi."),
    "part": ("{part}: the shipped reader misread {before} of your {crops} tiles, the calibration {after}.",
             "{part}: kurulu okuyucu {crops} taşından {before} tanesini yanlış okudu, kalibrasyon {after} tanesini."),
    "part_unused": ("{part}: nothing to learn from your {crops} tiles (the shipped reader misread {before}).",
                    "{part}: {crops} taşından öğrenilecek bir şey yok (kurulu okuyucu {before} tanesini yanlış "
                    "okudu)."),
    "label.colour": ("Colour", "Renk"),
    "label.number": ("Number", "Sayı"),
    "nothing_learned": ("Nothing was learned: the shipped reader already reads your stored tiles as you gave "
                        "them; it stays as it was.",
                        "Öğrenilecek bir şey yok: kurulu okuyucu saklanan taşlarını zaten verdiğin gibi okuyor; "
                        "olduğu gibi kalıyor."),
    "guard_passed": ("Checked on {judge}: {calibrated} of {tiles} tiles read right with it, {shipped} without it.",
                     "{judge} üzerinde denendi: onunla {tiles} taşın {calibrated} tanesi doğru okundu, onsuz "
                     "{shipped} tanesi."),
    "guard_failed": ("Not used: on {judge} it read {calibrated} of {tiles} tiles right, the shipped reader "
                     "{shipped}; the reader stays as it was.",
                     "Kullanılmadı: {judge} üzerinde {tiles} taşın {calibrated} tanesini doğru okudu, kurulu "
                     "okuyucu {shipped} tanesini; okuyucu olduğu gibi kalıyor."),
    "weakened": ("At its full pull it read {calibrated} of {tiles} of those tiles right, fewer than the shipped "
                 "reader's {shipped}; it is used at {percent} % of its pull.",
                 "Tam gücüyle o taşların {tiles} tanesinden {calibrated} tanesini doğru okudu, kurulu okuyucunun "
                 "{shipped} tanesinden az; %{percent} gücüyle kullanılıyor."),
    "saved": ("The reader reads your set with it from the next photo on ({path}).",
              "Okuyucu bir sonraki fotoğraftan itibaren senin takımını onunla okuyor ({path})."),
    # calibrate reset, show
    "removed": ("The calibration was removed: the reader reads as shipped.",
                "Kalibrasyon silindi: okuyucu kurulduğu gibi okuyor."),
    "no_calibration": ("No calibration is there: the reader reads as shipped.",
                       "Kalibrasyon yok: okuyucu kurulduğu gibi okuyor."),
    "forgot": ("{n} stored tiles were deleted.", "Saklanan {n} taş silindi."),
    "kept_count": ("{crops} tiles of {photos} photos are stored in {folder}.",
                   "{folder} içinde {photos} fotoğraftan {crops} taş saklı."),
    "calibration_of": ("Calibration of {made}: learned from {crops} tiles of {photos} photos.",
                       "{made} tarihli kalibrasyon: {photos} fotoğraftaki {crops} taştan öğrenildi."),
    "shown": ("Tiles given: {shown}.", "Verilen taşlar: {shown}."),
    "not_used": ("A calibration is there but not used: {why}.", "Bir kalibrasyon var ama kullanılmıyor: {why}."),
    # the app
    "label.learn": ("Learn my tile set", "Taş takımımı öğren"),
    "learn_help": ("Keeps the tiles you confirm or correct (each tile's small picture and its name, never the "
                   "whole photo) on this device, to learn your own tile set. Nothing is sent anywhere.",
                   "Onayladığın ya da düzelttiğin taşları (her taşın küçük resmi ve adı, asla fotoğrafın tamamı) "
                   "bu cihazda saklar, kendi taş takımını öğrenmek için. Hiçbir şey bir yere gönderilmez."),
    "label.fit_button": ("Learn from my corrections", "Düzeltmelerimden öğren"),
    "fit_help": ("Adapts the reader to your set from the tiles kept (up to 2 minutes).",
                 "Okuyucuyu saklanan taşlardan senin takımına uyarlar (en çok 2 dakika)."),
    "label.reset_button": ("Back to the shipped reader", "Kurulu okuyucuya dön"),
    "fitting": ("Learning your tile set.", "Taş takımın öğreniliyor."),
    "kept_now": ("{n} tiles kept to learn your set.", "Takımını öğrenmek için {n} taş saklandı."),
}


#: A sentence found before the language it is said in is known: its key and fields (:func:`said`).
Note = tuple[str, dict[str, object]]


def say(key: str, lang: Lang = Lang.EN, **fields: object) -> str:
    """The sentence or label ``key`` in ``lang``, its ``{fields}`` filled."""
    return fill(SENTENCES, key, lang, **fields)


def said(notes: list[Note] | tuple[Note, ...], lang: Lang = Lang.EN) -> list[str]:
    """Each note's sentence in ``lang``.

    >>> said([("forgot", {"n": 3})], Lang.TR)
    ['Saklanan 3 taş silindi.']
    """
    return [say(key, lang, **fields) for key, fields in notes]


__all__ = ["SENTENCES", "Note", "say", "said"]
