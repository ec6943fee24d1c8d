"""Every sentence the coach says to a player, in one place (English today;
a translation replaces this module's strings, nothing else).

>>> distance_text(0), distance_text(2)
('finished (distance 0)', '2 tiles from winning (distance 2)')
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Sequence

from okey_vision.coach.templates import UNREACHABLE
from okey_vision.tiles import HAND_SIZE, MAX_HAND, Tile

if TYPE_CHECKING:  # pragma: no cover - names for type hints only
    from okey_vision.coach.advice import Action, Advice
    from okey_vision.coach.ranking import DiscardOption
    from okey_vision.coach.reading import Reading
    from okey_vision.scoring import FinishKind
    from okey_vision.solver import Finish

#: Each action in words (:attr:`okey_vision.coach.Action.label`).
ACTION_LABELS = {
    "discard": "discard",
    "declare": "declare",
    "draw": "draw from the stock",
    "take": "take the offered tile",
}


def action_label(action: Action) -> str:
    """The action in words."""
    return ACTION_LABELS[action.value]


def _names(tiles: Sequence[Tile]) -> str:
    return " ".join(t.name for t in tiles)


# ------------------------------------------------------------ reasons ---

def declare_reason(finish: Finish, scheme: str) -> str:
    """Why to declare now."""
    extra = " (throwing the okey doubles it)" if finish.okey_discard else ""
    return (f"declare: throw {finish.discard.name} and show {finish.kind.label} for "
            f"{finish.points(scheme)} points{extra}")


def wait_reason(wins: int, unseen: int, later: int, now: int) -> str:
    """Why a finished hand should wait one turn."""
    return (f"finished, but {wins} of {unseen} unseen tiles let you finish by throwing "
            f"the okey next turn for {later} points instead of {now}: worth one turn")


def discard_reason(best: DiscardOption, ties: Sequence[DiscardOption]) -> str:
    """Why to throw the first-ranked tile; ``ties`` are the others of equal distance and outs."""
    reason = (f"throw {best.tile.name}: {best.distance} exchange(s) from a finished hand "
              f"({best.route}) with {best.outs} outs")
    if ties:
        reason += f"; tied with {_names([o.tile for o in ties])}, it keeps most tiles in melds"
    return reason


def draw_reason(now: Reading) -> str:
    """Why to draw when nothing is offered."""
    return f"draw from the stock: {now.distance} exchange(s) away, {now.outs} outs"


def take_reason(offered: Tile, now: Reading, finishes: bool) -> str:
    """Why to take the offered tile."""
    if finishes:
        return f"take {offered.name}: it finishes the hand"
    return (f"take {offered.name}: it brings the hand to {now.distance - 1} exchange(s) "
            f"from finished (the stock does so only {now.outs} times in the unseen tiles)")


def leave_reason(offered: Tile, now: Reading) -> str:
    """Why to leave the offered tile and draw."""
    return (f"draw from the stock: {offered.name} does not shorten the hand "
            f"({now.distance} exchange(s), {now.outs} outs), and the stock hides your plan")


# ----------------------------------------------------- what screens show ---

def distance_text(d: int) -> str:
    """'finished (distance 0)', '1 tile from winning (distance 1)', ..."""
    if d >= UNREACHABLE:
        return "no finish is possible with the tiles left"
    if d == 0:
        return "finished (distance 0)"
    return f"{d} tile{'s' if d != 1 else ''} from winning (distance {d})"


def headline(advice: Advice | None, tiles: int, finish: Finish | None, points: int, scheme: str) -> str:
    """One sentence for a screen: what to do now."""
    rec = advice.best if advice is not None else None
    if finish is not None and advice is not None and advice.wait and rec is not None:
        return (f"Wait: discard {rec.tile.name} and keep your finished hand - "
                f"finishing by throwing the okey later doubles the points.")
    if finish is not None:
        how = finish.kind.label
        if finish.discard is None:
            return f"Declare: your {HAND_SIZE} tiles are finished as {how} ({points} points, {scheme})."
        okey = " - discarding the okey doubles it" if finish.okey_discard else ""
        return (f"Declare: discard {finish.discard.name} and show {how} "
                f"({points} points, {scheme}{okey}).")
    if tiles == MAX_HAND and rec is not None:
        return f"Discard {rec.tile.name}: {distance_text(rec.distance)}, {rec.outs} outs."
    if tiles == HAND_SIZE and advice is not None:
        return f"Draw: {distance_text(advice.distance)}, {advice.outs} outs."
    return (f"{tiles} tiles: a hand has {HAND_SIZE} tiles ({MAX_HAND} after taking one); "
            "add or remove tiles below.")


def take_or_draw_text(advice: Advice) -> str:
    """The take-or-draw advice as a sentence for a screen."""
    reason = advice.reason
    return reason[0].upper() + reason[1:] + "."


#: Why a hand cannot be analysed yet.
NO_INDICATOR = "Set the indicator (the tile turned face up) to get advice."
NO_TILES = "No tiles in the hand: take a photo of your rack, or add tiles below."


def groups_caption(finish: Finish | None, pairs: int = 0, in_melds: int = 0, tiles: int = 0) -> str:
    """The caption over the drawn groups: the finish's melds, the seven-pairs
    route (``pairs`` pairs), or the runs and sets (``in_melds`` of ``tiles``)."""
    if finish is not None:
        return "Declare with these " + finish.kind.label
    if pairs:
        return f"Seven pairs route: {pairs} pairs"
    return f"Runs and sets: {in_melds} of {tiles} tiles in melds"


def cannot_take(offered: Tile, why: str) -> str:
    """The offered tile cannot be taken (too many copies, ...)."""
    return f"Cannot take {offered.name}: {why}"


def advice_lines(advice: Advice) -> list[str]:
    """The advice as the command line prints it."""
    ind = advice.indicator
    lines = [f"Indicator {ind.name}: okey {advice.okey.name}", f"Advice: {advice.reason}"]
    if advice.indicator_twin:
        lines.append(f"You hold the indicator's twin ({ind.name}): show it for the bonus.")
    if advice.discards:
        lines.append("Discards (distance after, outs):")
        for d in advice.discards:
            lines.append(f"  {d.tile.name:<4} distance {d.distance}  outs {d.outs:<3} {_names(d.out_tiles)}")
    else:
        lines.append(f"Distance {advice.distance}, outs {advice.outs}: {_names(advice.out_tiles)}")
    return lines


def ties_text(best: DiscardOption, ties: Sequence[DiscardOption]) -> str:
    """Equally good discards in a player's words (``ties``: the others of the
    best's distance and outs)."""
    names = [best.tile.name] + [o.tile.name for o in ties]
    joined = ", ".join(names[:-1]) + " and " + names[-1]
    d = best.distance
    away = "finished" if d == 0 else "one tile away" if d == 1 else f"{d} tiles away"
    what = "finish" if d == 1 else "bring you closer"
    return (f"{joined} are equally good: {'both' if len(names) == 2 else 'all'} leave you {away} "
            f"with {best.outs} tiles that {what}.")


def kind_label(kind: FinishKind) -> str:
    """The finish kind in words (:attr:`FinishKind.label`)."""
    return kind.label
