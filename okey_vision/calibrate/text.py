"""Every word of the calibration, in English and Turkish: the command
line's lines and the app's. Each sentence ends with its full stop (labels,
keys starting ``label.``, do not); a count of tiles or photos is said with
its noun (:func:`~okey_vision.lang.count`: "1 tile", "2 tiles"; "2 taş").

>>> say("removed", Lang.TR)
'Kalibrasyon silindi: okuyucu kurulduğu gibi okuyor.'
"""

from __future__ import annotations

from okey_vision.lang import Lang, fill

#: key -> (English, Turkish); ``{name}`` fields are filled by :func:`say`.
SENTENCES: dict[str, tuple[str, str]] = {
    # calibrate add
    "stored": ("{photo}: {n} of {reads} rack reads stored with the tiles given ({given} given).",
               "{photo}: ıstakada okunan {reads} taşın {n} tanesi verilen taşlarla saklandı ({given} verildi)."),
    "refused": ("{photo}: the tiles given cannot be aligned with the photo's reads ({n} of {reads} rack reads "
                "aligned, at least half are needed); nothing was stored. Give the rack's tiles in rack order, "
                "rows top to bottom, each row left to right.",
                "{photo}: verilen taşlar fotoğrafta okunanlarla eşleşmiyor (ıstakada okunan {reads} taşın {n} "
                "tanesi eşleşti, en az yarısı gerekir); hiçbir şey saklanmadı. Istakadaki taşları sırasıyla ver: "
                "sıralar yukarıdan aşağıya, her sıra soldan sağa."),
    "no_rack": ("{photo}: no tiles were read on a rack; nothing was stored.",
                "{photo}: ıstakada taş okunamadı; hiçbir şey saklanmadı."),
    # the store's damaged lines and files (every command)
    "lines_set_aside": ("{index}: damaged lines (cut short or not readable) set aside in {aside}: {n}; "
                        "stored tiles kept: {kept}.",
                        "{index}: {n} bozuk satır (kesik ya da okunamaz) {aside} dosyasına ayrıldı; saklanan "
                        "{kept} taş korunuyor."),
    "lines_skipped": ("{index}: damaged lines (cut short or not readable) skipped: {n}; they could not be "
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
                       "veya okey-vision calibrate add FOTOĞRAF --tiles \"kırmızı 1, kırmızı 2, ...\" komutunu "
                       "çalıştır."),
    "learned": ("Learned from {crops} of {photos} in {seconds} s.",
                "{photos}taki {crops}tan {seconds} saniyede öğrenildi."),
    "looked": ("Looked at {crops} of {photos} in {seconds} s.",
               "{photos}taki {crops} {seconds} saniyede incelendi."),
    "part": ("{part}: the shipped reader misread {before} of your {crops}, the calibration {after}.",
             "{part}: kurulu okuyucu {crops}ından {before} tanesini yanlış okudu, kalibrasyon {after} tanesini."),
    "part_right": ("{part}: no misread on your {crops}.", "{part}: {crops}ında hiç yanlış okuma yok."),
    "part_unused": ("{part}: the shipped reader misread {before} of your {crops}; nothing could be learned from "
                    "them yet.",
                    "{part}: kurulu okuyucu {crops}ından {before} tanesini yanlış okudu; bunlardan henüz bir şey "
                    "öğrenilemedi."),
    "label.colour": ("Colour", "Renk"),
    "label.number": ("Number", "Sayı"),
    "nothing_to_learn": ("Nothing to learn: the shipped reader made no misread on the {crops} you gave; it stays "
                         "as it was.",
                         "Öğrenilecek bir şey yok: kurulu okuyucu verdiğin {crops}ta hiç yanlış okumadı; olduğu "
                         "gibi kalıyor."),
    "nothing_learned_few": ("Nothing was learned yet: a colour or a number is learned from {need} tiles of it at "
                            "least, and the misread ones had fewer; {more} would help. The reader stays as it "
                            "was.",
                            "Henüz bir şey öğrenilmedi: bir renk ya da sayı en az {need} taşından öğrenilir ve "
                            "yanlış okunanlarınki daha az; {more} işe yarar. Okuyucu olduğu gibi kalıyor."),
    "nothing_learned_alike": ("Nothing was learned yet: learning from the misread tiles read no more of them "
                              "right; {more} would help. The reader stays as it was.",
                              "Henüz bir şey öğrenilmedi: yanlış okunan taşlardan öğrenmek hiçbirini daha doğru "
                              "okutmadı; {more} işe yarar. Okuyucu olduğu gibi kalıyor."),
    "label.more_colour": ("{n} more {name} {noun}", "{n} {name} {noun} daha"),
    "label.more_number": ("{n} more {noun} numbered {name}", "{name} sayılı {n} {noun} daha"),
    "label.and": (" and ", " ve "),
    "label.more_photos": ("a photo or two more of your set (about {tiles})",
                          "takımının bir iki fotoğrafı daha (yaklaşık {tiles})"),
    "label.colour.r": ("red", "kırmızı"),
    "label.colour.y": ("yellow", "sarı"),
    "label.colour.b": ("blue", "mavi"),
    "label.colour.k": ("black", "siyah"),
    "label.colour.fj": ("false joker", "sahte okey"),
    "guard_passed": ("Checked on {judge}: {calibrated} of {tiles} read right with it, {shipped} without it.",
                     "{judge} üzerinde denendi: onunla {tiles}ın {calibrated} tanesi doğru okundu, onsuz "
                     "{shipped} tanesi."),
    "guard_failed": ("Not used: on {judge} it read {calibrated} of {tiles} right, the shipped reader "
                     "{shipped}; the reader stays as it was.",
                     "Kullanılmadı: {judge} üzerinde {tiles}ın {calibrated} tanesini doğru okudu, kurulu "
                     "okuyucu {shipped} tanesini; okuyucu olduğu gibi kalıyor."),
    "weakened": ("At its full pull it read {calibrated} of those {tiles} right, fewer than the shipped "
                 "reader's {shipped}; it is used at {percent} % of its pull.",
                 "Tam gücüyle o {tiles}ın {calibrated} tanesini doğru okudu, kurulu okuyucunun "
                 "{shipped} tanesinden az; %{percent} gücüyle kullanılıyor."),
    "saved": ("The reader reads your set with it from the next photo on ({path}).",
              "Okuyucu bir sonraki fotoğraftan itibaren senin takımını onunla okuyor ({path})."),
    # calibrate reset, show
    "removed": ("The calibration was removed: the reader reads as shipped.",
                "Kalibrasyon silindi: okuyucu kurulduğu gibi okuyor."),
    "no_calibration": ("No calibration is there: the reader reads as shipped.",
                       "Kalibrasyon yok: okuyucu kurulduğu gibi okuyor."),
    "forgot": ("Stored tiles deleted: {n}.", "Saklanan taşlar silindi: {n}."),
    "kept_count": ("{crops} of {photos} stored in {folder}.",
                   "{folder} içinde {photos}tan {crops} saklı."),
    "calibration_of": ("Calibration of {made}: learned from {crops} of {photos}.",
                       "{made} tarihli kalibrasyon: {photos}taki {crops}tan öğrenildi."),
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
    "kept_now": ("Kept {n} to learn your set.", "Takımını öğrenmek için {n} saklandı."),
}


#: A sentence found before the language it is said in is known: its key and fields (:func:`said`).
Note = tuple[str, dict[str, object]]


def say(key: str, lang: Lang = Lang.EN, **fields: object) -> str:
    """The sentence or label ``key`` in ``lang``, its ``{fields}`` filled."""
    return fill(SENTENCES, key, lang, **fields)


def said(notes: list[Note] | tuple[Note, ...], lang: Lang = Lang.EN) -> list[str]:
    """Each note's sentence in ``lang``.

    >>> said([("forgot", {"n": 3})], Lang.TR)
    ['Saklanan taşlar silindi: 3.']
    """
    return [say(key, lang, **fields) for key, fields in notes]


__all__ = ["SENTENCES", "Note", "say", "said"]
