"""Every label and message the app shows, in English and Turkish.

The coach's own sentences (what to do and why) live in
:mod:`okey_vision.coach.text`, in both languages too; the app says them
through :func:`in_words`. The language type is :class:`okey_vision.lang.Lang`,
and a tile said in words (:func:`tile_word`, :func:`in_words`) lives beside
it, for every module's sentences (re-exported here).

Turkish as players speak it. On the Turkish page a tile is never written in
the project's Latin notation (``r5``: a Turkish player reads *k* as
kırmızı, red): sentences say it in words (:func:`tile_word`: "kırmızı 5",
"sarı 13", "mavi 1", "siyah 10", "sahte okey") and the drawings show it as a
coloured chip. The game's words, checked against Turkish rule pages
(mimol.com.tr/okey/nasil-oynanir: "Per (Seri): aynı renkte ardışık en az 3
taş", "Grup: aynı sayıda farklı renklerde 3 veya 4 taş", gösterge, okey;
nedemek.page/kavramlar/okey: "renk serisi", "sayı grubu", "çift gitmek";
milliyet.com.tr's classic rules: "gruplara per adı verilmektedir", sahte
okey; favorite-games.com/htmltur/rules_okey.php: ıstaka, per, gösterge):
per (a meld), seri (a run), grup (a set), çift (a pair), gösterge (the
indicator), okey, sahte okey (the false joker), ıstaka (the rack), at
(discard), bitir (declare), çek (draw).

Every message is one sentence per problem ending with its full stop
(:func:`sentence`), naming the fix.

>>> t("discards_seen", Lang.TR, n=2)
'2 görülen taş sayıldı.'
>>> t("indicator_line", Lang.TR, ind="r3", okey="r4")
'Gösterge kırmızı 3, okey kırmızı 4 (joker); sahte okey kırmızı 4 yerine geçer.'
>>> in_words("r5 ve fj aynı derecede iyi", Lang.TR)
'Kırmızı 5 ve sahte okey aynı derecede iyi'
>>> in_words("R12 al: eli bitirir.", Lang.TR)
'Kırmızı 12 al: eli bitirir.'
>>> in_words("r5 and b1 are equally good", Lang.EN)
'r5 and b1 are equally good'
"""

from __future__ import annotations

from okey_vision.lang import ERRORS_TR, TILE_NOTATION, Lang, error_message, fill, in_words, tile_word

#: key -> (English, Turkish); ``{name}`` fields are filled by :func:`t`.
TEXT: dict[str, tuple[str, str]] = {
    "title": ("Okey coach", "Okey koçu"),
    "tagline": ("Photo of your rack in: every tile read, the hand grouped, the move to play. "
                "Runs entirely on this device.",
                "Istakanın fotoğrafını ver: her taş okunur, el gruplanır, oynanacak hamle söylenir. "
                "Tamamen bu cihazda çalışır."),
    "language": ("Language", "Dil"),
    "scoring": ("Scoring", "Puanlama"),
    "scheme_countdown": ("countdown (start 20)", "geri sayım (20'den başlar)"),
    "scheme_penalty": ("penalty points", "ceza puanı"),
    "tile_help": ("Tiles: r red, y yellow, b blue, k black, 1-13; fj false joker. Turkish names work too "
                  "(kırmızı5, sahte).",
                  "Taşlar rengi ve sayısıyla yazılır: kırmızı 5, sarı 13, mavi 1, siyah 10; sahte okey."),
    "camera": ("Camera", "Kamera"),
    "camera_help": ("Take the photo with this device's camera", "Fotoğrafı bu cihazın kamerasıyla çek"),
    "upload": ("Photo of your rack", "Istakanın fotoğrafı"),
    "upload_help": ("Your rack from the front, numbers facing the camera",
                    "Istakayı önden çek, sayılar kameraya baksın"),
    "camera_take": ("Take a photo of your rack", "Istakanın fotoğrafını çek"),
    "upload_button": ("Upload", "Fotoğraf seç"),
    "upload_limit": ("{mb}MB per file • {types}", "Dosya başına en çok {mb} MB • {types}"),
    "camera_button": ("Take Photo", "Fotoğraf çek"),
    "reader_missing": ("The tile reader is not available ({why}): enter your tiles by hand below.",
                       "Taş okuyucu çalışmıyor ({why}): taşlarını aşağıdan elle gir."),
    "reader_failed": ("The reader failed on this photo ({why}): enter the tiles by hand below.",
                      "Okuyucu bu fotoğrafta hata verdi ({why}): taşları aşağıdan elle gir."),
    "sample_recorded": ("Showing the sample's recorded tiles.", "Örneğin kayıtlı taşları gösteriliyor."),
    "photo_failed": ("{why} The previous hand and its advice were cleared.",
                     "{why} Önceki el ve önerisi silindi."),
    "sample": ("the sample photo", "örnek fotoğraf"),
    "photo_caption": ("{label}: {n} read", "{label}: {n} okundu"),
    "photo_section": ("Photo: {label} ({n} read)", "Fotoğraf: {label} ({n} okundu)"),
    "check_marked": ("Check the tiles marked '?' (orange boxes): {tiles}. Tap one on the photo to correct it.",
                     "'?' işaretli taşlara bak (turuncu kutular): {tiles}. Düzeltmek için fotoğrafta taşa dokun."),
    "they_are_right": ("They are right", "Doğrular"),
    "apart": ("Apart from the rack (purple): {tiles}{ind}.", "Istakanın dışında (mor): {tiles}{ind}."),
    "apart_indicator": ("; indicator {ind}", "; gösterge {ind}"),
    "advice": ("Advice", "Öneri"),
    "why": ("Why: {reason}.", "Neden: {reason}."),
    "indicator_line": ("Indicator {ind}, okey {okey} (wild); a false joker plays as {okey}.",
                       "Gösterge {ind}, okey {okey} (joker); sahte okey {okey} yerine geçer."),
    "discards_seen": ("Seen tiles counted: {n}.", "{n} görülen taş sayıldı."),
    "assumes_indicator": ("This photo shows no indicator: the advice assumes {ind} ({source}).",
                          "Bu fotoğrafta gösterge yok: öneri {ind} göstergesine göre ({source})."),
    "source_player": ("set by you", "senin seçtiğin"),
    "source_photo": ("read from the photo", "fotoğraftan okundu"),
    "source_photo_check": ("read from the photo, to check: tap it on the photo or choose it here",
                           "fotoğraftan okundu, kontrol et: fotoğrafta ona dokun ya da buradan seç"),
    "indicator_right": ("It is right", "Doğru"),
    "indicator_mark": ("indicator {tile}", "gösterge {tile}"),
    "ask_indicator": ("This photo shows no indicator: choose it under 'This round' to get advice.",
                      "Bu fotoğrafta gösterge yok: öneri için 'Bu el' bölümünden göstergeyi seç."),
    "twin": ("You hold the indicator's twin ({ind}): show it at the start of the round for the bonus.",
             "Göstergenin eşi sende ({ind}): bonus için elin başında göster."),
    "throw_this": ("Throw", "At"),
    "take_this": ("Take", "Al"),
    "other_declares": ("Other ways to declare: {ways}.", "Bitirmenin diğer yolları: {ways}."),
    "points": ("pts", "puan"),
    "discards_best_first": ("Discards, best first", "Atılacak taşlar, en iyisi önce"),
    "table_head": ("| # | discard | distance | outs | waiting for |",
                   "| # | at | mesafe | işe yarayan | beklenen taşlar |"),
    "table_cols": ("#|discard|distance|outs|waiting for", "#|at|mesafe|işe yarayan|beklenen taşlar"),
    "fourteen": ("{n} tiles: {distance}{outs}.", "{n} taş: {distance}{outs}."),
    "outs_list": ("; {n}: {tiles}", "; işe yarayan {n}: {tiles}"),
    "offered": ("Tile the previous player just discarded (take it or draw?)",
                "Önceki oyuncunun attığı taş (yerden mi alayım, ortadan mı çekeyim?)"),
    "offered_placeholder": ("choose the tile on their pile", "yerdeki taşı seç"),
    "correct": ("Correct the tiles ({n} on the rack)", "Taşları düzelt (ıstakada {n} taş)"),
    "remove": ("(remove)", "(çıkar)"),
    "add_tile": ("Add a tile", "Taş ekle"),
    "add_placeholder": ("choose a tile", "bir taş seç"),
    "pick_placeholder": ("choose", "seç"),
    "add": ("Add", "Ekle"),
    "clear": ("Clear all", "Hepsini sil"),
    "type_hand": ("Or type the whole hand", "Ya da bütün eli yaz"),
    "type_help": ("Replaces the tiles above", "Yukarıdaki taşların yerine geçer"),
    "maybe": (" ? maybe {alts}", " ? belki {alts}"),
    "type_placeholder": ("r1 r2 r3 y5 ... fj", "kırmızı 1, kırmızı 2, mavi 7, sahte okey"),
    "round": ("This round: indicator and tiles seen", "Bu el: gösterge ve görülen taşlar"),
    "indicator_pick": ("Indicator (the tile turned face up)", "Gösterge (açılan taş)"),
    "indicator_help": ("Read from the photo when a tile lies apart from the rack; change it here",
                       "Istakanın dışında bir taş varsa fotoğraftan okunur; buradan değiştir"),
    "not_set": ("(not set)", "(seçilmedi)"),
    "okey_is": ("okey {okey}", "okey {okey}"),
    "seen_input": ("Tiles seen on the discard piles, turn {turn} (type and press Enter)",
                   "Yere atılan taşlar, {turn}. tur (yaz ve Enter'a bas)"),
    "seen_placeholder": ("e.g. r5 k7", "örn. kırmızı 5, siyah 7"),
    "add_seen": ("Add seen", "Ekle"),
    "next_turn": ("Next turn", "Sonraki tur"),
    "undo_seen": ("Undo seen", "Geri al"),
    "new_round": ("New round", "Yeni el"),
    "seen_by_turn": ("Seen, by turn: {turns}.", "Görülenler, tur tur: {turns}."),
    "turn": ("turn {t}: {tiles}", "{t}. tur: {tiles}"),
    "scores": ("Scores", "Puanlar"),
    "players": ("Players", "Oyuncular"),
    "names": ("Names (comma separated)", "Adlar (virgülle ayır)"),
    "player_n": ("Player {k}", "Oyuncu {k}"),
    "start_table": ("Start the score table", "Puan tablosunu başlat"),
    "countdown_rule": ("{scheme} scoring - start 20, first at 0 ends the game",
                       "{scheme} - 20'den başlar, ilk 0'a inen oyunu bitirir"),
    "penalty_rule": ("{scheme} scoring - start 0, lowest total is best",
                     "{scheme} - 0'dan başlar, en düşük toplam kazanır"),
    "game_over": ("Game over: {who} wins.", "Oyun bitti: {who} kazandı."),
    "won_by": ("Round won by", "Eli kazanan"),
    "nobody": ("nobody (stall)", "kimse (taş bitti)"),
    "finish": ("Finish", "Bitiş"),
    "okey_discard": ("okey discard", "okey atarak"),
    "twin_shown": ("indicator twin shown by", "gösterge eşini gösteren"),
    "record_round": ("Record round", "Eli kaydet"),
    "undo_round": ("Undo last round", "Son eli geri al"),
    "new_game": ("New game", "Yeni oyun"),
    "round_col": ("round", "el"),
    "result_col": ("result", "sonuç"),
    "start_row": ("start", "başlangıç"),
    "stall": ("stall (stock ran out)", "kimse bitiremedi (taş bitti)"),
    "okey_discard_note": (", okey discard", ", okey atarak"),
    "twin_note": ("; indicator twin: {who}", "; gösterge eşi: {who}"),
    "scheme_switch": ("The score table counts {old} scoring. Start a new table in {new} scoring?",
                      "Puan tablosu {old} ile sayıyor. {new} ile yeni tablo başlatılsın mı?"),
    "scheme_new_table": ("New table in {new}", "{new} ile yeni tablo"),
    "scheme_keep": ("Keep {old}", "{old} kalsın"),
    "game_pick": ("Game", "Oyun"),
    "game_help": ("Classic Okey (14 tiles, finish the hand) or 101 (21-22 tiles, open with 101 points, "
                  "penalty scores); ?game=101 opens 101",
                  "Klasik Okey (14 taş, eli bitir) ya da yüzbir, 101 (21-22 taş, 101 puanla açılır, ceza puanı); "
                  "?game=101 doğrudan 101'i açar"),
    "words101": ("The words of 101", "101'in terimleri"),
    "opened_pick": ("Your opening this round", "Bu elde açışın"),
    "opened_no": ("not opened yet", "henüz açmadın"),
    "opened_melds": ("opened with runs and sets (el açtın)", "el açtın (perlerle)"),
    "opened_pairs": ("opened with pairs (çift açtın)", "çift açtın"),
    "opened_help": ("After you lay your first melds, say so here: the advice then adds to the table.",
                    "İlk perlerini yere açınca burada seç: öneri artık yerdeki perlere işler."),
    "beat_highest": ("Each later opener must beat the highest opening", "Sonra açan en yüksek açışı geçmeli"),
    "beat_highest_help": ("A house rule some tables play (off by default): after a 116 opening, the next needs 117.",
                          "Bazı masaların ev kuralı (kapalı başlar): 116 ile açılmışsa sonraki en az 117 ister."),
    "highest_opening": ("Highest opening so far", "Şimdiye kadarki en yüksek açış"),
    "table101": ("Melds on the table ({n})", "Yerdeki perler ({n})"),
    "table101_input": ("The melds laid on the table", "Yere açılmış perler"),
    "table101_placeholder": ("r3 r4 r5, k7 b7 y7", "kırmızı 3 kırmızı 4 kırmızı 5, siyah 7 mavi 7 sarı 7"),
    "table101_help": ("Melds separated by commas, tiles by spaces; two tiles make a pair.",
                      "Perleri virgülle, taşları boşlukla ayır; iki taş bir çifttir."),
    "table101_pick": ("Or pick a meld's tiles", "Ya da bir perin taşlarını seç"),
    "table101_lay": ("Lay it", "Yere koy"),
    "table101_photo": ("Or a photo of the table's melds", "Ya da yerdeki perlerin fotoğrafı"),
    "table101_read": ("Read from {photo}: {n}. Check them in the box above and correct a wrong tile there.",
                      "{photo} fotoğrafından okundu: {n}. Yukarıdaki kutuda kontrol et, yanlış taşı orada düzelt."),
    "table101_none": ("{photo}: no tiles read; type the melds instead.",
                      "{photo}: taş okunamadı; perleri elle yaz."),
    "table101_no_indicator": ("Set the indicator (in the round below) to read the melds: it says which tile is "
                              "the okey.",
                              "Perleri okumak için göstergeyi seç (aşağıda, elin bölümünde): okeyi o belirler."),
    "table101_empty": ("Nothing laid yet.", "Yerde henüz per yok."),
    "scores101_rule": ("101 penalty points, lowest total wins: never opened 202; opened: the tiles left in hand "
                       "(an okey 101), doubled after a pairs opening; the finisher -101, doubled for finishing "
                       "with the okey, with pairs or the whole hand at once; each misplay 101.",
                       "101 ceza puanı, en düşük toplam kazanır: hiç açmayan 202; açan: elde kalan taşlar (okey "
                       "101), çift açanın iki katı; biten -101, okey atarak, çiftle ya da elden bitince iki katı; "
                       "her hatalı atış 101."),
    "scores101_indicator": ("Indicator of the round", "Elin göstergesi"),
    "scores101_need_indicator": ("Choose the round's indicator: it says which tile is the okey.",
                                 "Elin göstergesini seç: okeyi o belirler."),
    "scores101_left": ("tiles left in hand", "elde kalan taşlar"),
    "scores101_left_placeholder": ("r5 k13", "kırmızı 5 siyah 13"),
    "scores101_misplays": ("misplays", "hatalı atış"),
    "scores101_finished": ("Finished by", "Biten"),
    "scores101_nobody": ("nobody (stock ran out)", "kimse (taş bitti)"),
    "scores101_okey": ("finished with the okey", "okey atarak bitti"),
    "scores101_whole": ("the whole hand at once (elden)", "elden bitti"),
    "scores101_finish_note": ("{who} finished", "{who} bitti"),
    "scores101_okey_note": (", with the okey", ", okey atarak"),
    "scores101_whole_note": (", elden", ", elden"),
    "scores101_pairs_note": (", with pairs", ", çiftle"),
    "scores101_stall": ("nobody finished", "kimse bitiremedi"),
    "photo_to_advice": ("Photo to advice in {s:.2f} s.", "Fotoğraftan öneriye {s:.2f} sn."),
    "no_tiles": ("No tiles found in this photo: take it again closer to the rack, with the numbers facing "
                 "the camera, or enter the tiles by hand below.",
                 "Bu fotoğrafta taş bulunamadı: ıstakaya daha yakından, sayılar kameraya bakarken yeniden çek "
                 "ya da taşları aşağıdan elle gir."),
    "no_tiles_blurry": ("No tiles found in this photo, which looks blurry: hold the phone still, let it focus "
                        "and take it again, or enter the tiles by hand below.",
                        "Bu fotoğrafta taş bulunamadı, fotoğraf bulanık: telefonu sabit tut, odaklanmasını bekle "
                        "ve yeniden çek ya da taşları aşağıdan elle gir."),
    "blurry": ("The photo looks blurry: check the reads, or take it again.",
               "Fotoğraf bulanık: okunan taşları kontrol et ya da yeniden çek."),
    "set_aside": ("{n} tiles read on the rack, but a hand has at most {most}: the least sure ({tiles}) set aside. "
                  "Add a tile back under 'Correct the tiles' if it is really on your rack.",
                  "Istakada {n} taş okundu, ama bir elde en çok {most} taş olur: en az emin olunanlar ({tiles}) "
                  "ayrıldı. Gerçekten ıstakandaysa 'Taşları düzelt' bölümünden geri ekle."),
    "meld_run": ("run", "seri"),
    "meld_set": ("set", "grup"),
    "meld_pair": ("pair", "çift"),
    "left_over": ("left over", "artan"),
    "discard_mark": ("discard", "at"),
    "tap_to_correct": ("Tap a tile on the photo to correct it.", "Düzeltmek için fotoğraftaki taşa dokun."),
    "tapped_tile": ("Tile #{k} you tapped: {tile}", "Dokunduğun {k}. taş: {tile}"),
    "tapped_indicator": ("The indicator you tapped: {tile}", "Dokunduğun gösterge: {tile}"),
    "whole_photo": ("Whole photo", "Bütün fotoğraf"),
    "whole_photo_help": ("Off: the photo zoomed to the tiles read, large enough to tap one at a time",
                         "Kapalı: fotoğraf okunan taşlara yakınlaşır, taşlara tek tek dokunulabilir"),
    "move_legend": ("On the photo: the tile to throw ringed in red, the melds outlined.",
                    "Fotoğrafta: atılacak taş kırmızı halkalı, perler çerçeveli."),
    "move_legend_okey": ("On the photo: the okey to throw ringed in gold (it doubles the points), the melds "
                         "outlined.",
                         "Fotoğrafta: atılacak okey altın halkalı (puanı ikiye katlar), perler çerçeveli."),
    "live": ("Live camera", "Canlı kamera"),
    "live_help": ("Coach continuously from this device's camera (?live=1 opens it directly)",
                  "Bu cihazın kamerasıyla sürekli koçluk (?live=1 doğrudan açar)"),
    "live_start": ("Point the camera at your rack and press START.",
                   "Kamerayı ıstakana tut ve BAŞLAT'a bas."),
    "live_start_button": ("START", "BAŞLAT"),
    "live_stop_button": ("STOP", "DURDUR"),
    "live_select_device": ("SELECT DEVICE", "KAMERA SEÇ"),
    "live_ask_permission": ("Please allow the app to use your camera.", "Uygulamanın kamerayı kullanmasına izin ver."),
    "live_no_device": ("No camera was found on this device.", "Bu cihazda kamera bulunamadı."),
    "live_denied": ("The camera is blocked: allow it in the browser's settings.",
                    "Kamera engellendi: tarayıcının ayarlarından izin ver."),
    "live_no_media": ("This browser gives no camera to this page: open it over https or on localhost.",
                      "Bu tarayıcı bu sayfaya kamera vermiyor: sayfayı https ya da localhost üzerinden aç."),
    "live_on_video": ("On the video: the tile to throw ringed, the melds outlined.",
                      "Görüntüde: atılacak taş halkalı, perler çerçeveli."),
    "live_unavailable": ("The live camera cannot start here ({why}); take photos instead.",
                         "Canlı kamera burada başlayamıyor ({why}); fotoğraf çek."),
    "live_hand": ("Reading now: {hand}", "Şu an okunan: {hand}"),
    "live_none": ("No steady hand yet: hold the rack still in view.",
                  "Henüz sabit bir el yok: ıstakayı görüntüde sabit tut."),
    "live_fresh": ("Read {ago:.1f} s ago; {reads} read, {ms:.0f} ms each, only when the view changed.",
                   "{ago:.1f} sn önce okundu; {reads} okundu, her biri {ms:.0f} ms, yalnız görüntü "
                   "değişince."),
    "live_indicator": ("Indicator seen beside the rack: {ind}.", "Istakanın yanında görülen gösterge: {ind}."),
    "unexpected": ("Something went wrong ({why}). Try another photo or correct the tiles; the round is kept.",
                   "Bir şeyler ters gitti ({why}). Başka bir fotoğraf dene ya da taşları düzelt; el korunuyor."),
}




def sentence(text: str) -> str:
    """``text`` ending with its full stop (one added when it has none).

    >>> sentence("x.jpg: the file is empty"), sentence("Done.")
    ('x.jpg: the file is empty.', 'Done.')
    """
    text = text.rstrip()
    return text if not text or text.endswith((".", "!", "?")) else text + "."


def t(key: str, lang: Lang = Lang.EN, **fields: object) -> str:
    """The text ``key`` in ``lang``, its ``{fields}`` filled (in Turkish, its tiles in words)."""
    text = fill(TEXT, key, lang, **fields)
    return in_words(text, lang) if Lang.of(lang) is Lang.TR else text


__all__ = ["ERRORS_TR", "TEXT", "TILE_NOTATION", "Lang", "error_message", "in_words", "sentence", "t", "tile_word"]
