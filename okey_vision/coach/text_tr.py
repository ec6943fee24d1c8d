"""Every sentence the coach says to a player, in Turkish: the same functions
as :mod:`okey_vision.coach.text` (a test keeps the two in step), in the words
players use at the table: gösterge, okey, sahte okey, ıstaka, per, çift,
at, bitir, çek.

>>> distance_text(0), distance_text(2)
('bitti (mesafe 0)', 'bitmeye 2 taş var (mesafe 2)')
"""

from __future__ import annotations

import sys
from typing import TYPE_CHECKING, Sequence

from okey_vision.coach.templates import UNREACHABLE
from okey_vision.scoring import COUNTDOWN
from okey_vision.tiles import HAND_SIZE, MAX_HAND, Tile

if TYPE_CHECKING:  # pragma: no cover - names for type hints only
    from okey_vision.coach.advice import Action, Advice
    from okey_vision.coach.ranking import DiscardOption
    from okey_vision.coach.reading import Reading
    from okey_vision.scoring import FinishKind
    from okey_vision.solver import Finish

#: Each action in words.
ACTION_LABELS = {
    "discard": "at",
    "declare": "bitir",
    "draw": "yerden çek",
    "take": "atılan taşı al",
}
#: Each finish kind in words.
KIND_LABELS = {"melds": "perler", "pairs": "çiftler"}
#: Each scoring scheme in words.
SCHEME_LABELS = {COUNTDOWN: "geri sayım", "penalty": "ceza puanı"}


def action_label(action: Action) -> str:
    """The action in words."""
    return ACTION_LABELS[action.value]


def kind_label(kind: FinishKind) -> str:
    """The finish kind in words."""
    return KIND_LABELS[kind.value]


def _names(tiles: Sequence[Tile]) -> str:
    return " ".join(t.name for t in tiles)


def _scheme(scheme: str) -> str:
    return SCHEME_LABELS.get(scheme, scheme)


# ------------------------------------------------------------ reasons ---

def declare_reason(finish: Finish, scheme: str) -> str:
    """Why to declare now."""
    extra = " (okeyi atmak puanı ikiye katlar)" if finish.okey_discard else ""
    return (f"bitir: {finish.discard.name} at ve {kind_label(finish.kind)} göster, "
            f"{finish.points(scheme)} puan{extra}")


def wait_reason(wins: int, unseen: int, later: int, now: int) -> str:
    """Why a finished hand should wait one turn."""
    return (f"el bitti, ama görülmemiş {unseen} taşın {wins} tanesi gelecek el okey atarak "
            f"bitirmeni sağlar: {now} yerine {later} puan, bir el beklemeye değer")


def discard_reason(best: DiscardOption, ties: Sequence[DiscardOption]) -> str:
    """Why to throw the first-ranked tile; ``ties`` are the others of equal distance and outs."""
    reason = (f"{best.tile.name} at: bitmeye {best.distance} değişim kalır, "
              f"{best.outs} taş işine yarar")
    if ties:
        reason += f"; {_names([o.tile for o in ties])} ile eşit, ama perlerde daha çok taş tutar"
    return reason


def draw_reason(now: Reading) -> str:
    """Why to draw when nothing is offered."""
    return f"yerden çek: bitmeye {now.distance} değişim var, {now.outs} taş işine yarar"


def take_reason(offered: Tile, now: Reading, finishes: bool) -> str:
    """Why to take the offered tile."""
    if finishes:
        return f"{offered.name} al: eli bitirir"
    return (f"{offered.name} al: bitmeye {now.distance - 1} değişim kalır "
            f"(yerden çekince bu, görülmemiş taşlarda yalnız {now.outs} kez olur)")


def leave_reason(offered: Tile, now: Reading) -> str:
    """Why to leave the offered tile and draw."""
    return (f"yerden çek: {offered.name} eli kısaltmaz (bitmeye {now.distance} değişim, "
            f"{now.outs} taş işine yarar) ve yerden çekmek planını gizler")


# ----------------------------------------------------- what screens show ---

def distance_text(d: int) -> str:
    """'bitti (mesafe 0)', 'bitmeye 1 taş var (mesafe 1)', ..."""
    if d >= UNREACHABLE:
        return "kalan taşlarla bitirmek mümkün değil"
    if d == 0:
        return "bitti (mesafe 0)"
    return f"bitmeye {d} taş var (mesafe {d})"


def headline(advice: Advice | None, tiles: int, finish: Finish | None, points: int, scheme: str) -> str:
    """One sentence for a screen: what to do now."""
    rec = advice.best if advice is not None else None
    if finish is not None and advice is not None and advice.wait and rec is not None:
        return (f"Bekle: {rec.tile.name} at ve bitmiş elini tut - "
                f"sonra okey atarak bitirmek puanı ikiye katlar.")
    if finish is not None:
        how = kind_label(finish.kind)
        if finish.discard is None:
            return f"Bitir: {HAND_SIZE} taşın {how} olarak bitti ({points} puan, {_scheme(scheme)})."
        okey = " - okeyi atmak puanı ikiye katlar" if finish.okey_discard else ""
        return f"Bitir: {finish.discard.name} at ve {how} göster ({points} puan, {_scheme(scheme)}{okey})."
    if tiles == MAX_HAND and rec is not None:
        return f"{rec.tile.name} at: {distance_text(rec.distance)}, {rec.outs} taş işine yarar."
    if tiles == HAND_SIZE and advice is not None:
        return f"Çek: {distance_text(advice.distance)}, {advice.outs} taş işine yarar."
    return (f"{tiles} taş: bir elde {HAND_SIZE} taş olur (taş alınca {MAX_HAND}); "
            "aşağıdan taş ekle ya da çıkar.")


def take_or_draw_text(advice: Advice) -> str:
    """The take-or-draw advice as a sentence for a screen."""
    reason = advice.explain(sys.modules[__name__])
    return reason[0].upper() + reason[1:] + "."


#: Why a hand cannot be analysed yet.
NO_INDICATOR = "Öneri için göstergeyi (açılan taşı) seç."
NO_TILES = "Elde taş yok: ıstakanın fotoğrafını çek ya da aşağıdan taş ekle."


def groups_caption(finish: Finish | None, pairs: int = 0, in_melds: int = 0, tiles: int = 0) -> str:
    """The caption over the drawn groups: the finish's melds, the seven-pairs
    route (``pairs`` pairs), or the runs and sets (``in_melds`` of ``tiles``)."""
    if finish is not None:
        return "Bunlarla bitir: " + kind_label(finish.kind)
    if pairs:
        return f"Çift yolu: {pairs} çift"
    return f"Perler: {tiles} taşın {in_melds} tanesi perde"


def cannot_take(offered: Tile, why: str) -> str:
    """The offered tile cannot be taken (too many copies, ...)."""
    return f"{offered.name} alınamaz: {why}"


def advice_lines(advice: Advice) -> list[str]:
    """The advice as the command line prints it."""
    ind = advice.indicator
    lines = [f"Gösterge {ind.name}: okey {advice.okey.name}", f"Öneri: {advice.explain(sys.modules[__name__])}"]
    if advice.indicator_twin:
        lines.append(f"Göstergenin eşi sende ({ind.name}): bonus için göster.")
    if advice.discards:
        lines.append("Atılacak taşlar (sonraki mesafe, işe yarayan taşlar):")
        for d in advice.discards:
            lines.append(f"  {d.tile.name:<4} mesafe {d.distance}  {d.outs:<3} {_names(d.out_tiles)}")
    else:
        lines.append(f"Mesafe {advice.distance}, {advice.outs} taş: {_names(advice.out_tiles)}")
    return lines


def ties_text(best: DiscardOption, ties: Sequence[DiscardOption]) -> str:
    """Equally good discards in a player's words (``ties``: the others of the
    best's distance and outs)."""
    names = [best.tile.name] + [o.tile.name for o in ties]
    joined = ", ".join(names[:-1]) + " ve " + names[-1]
    d = best.distance
    away = "eli bitmiş" if d == 0 else f"bitişe {d} taş uzakta"
    what = "eli bitirir" if d == 1 else "bitişe yaklaştırır"
    return (f"{joined} aynı derecede iyi: {'ikisi de' if len(names) == 2 else 'hepsi'} seni {away} "
            f"bırakır ve {best.outs} taş {what}.")
