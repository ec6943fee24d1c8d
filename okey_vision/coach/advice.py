"""Advice: declare, which tile to discard, or take the offered tile or draw.

>>> a = advise("r1 r2 r3 r4 y5 y6 y7 b9 b10 b11 k1 k2 k3 k4 y13", "b2")
>>> a.action, a.declare.discard, a.discards[0].distance
(<Action.DECLARE: 'declare'>, Tile('y13'), 0)
>>> advise("r1 r2 r3 y7 y8 y9 b4 b5 b6 k10 k11 k12 k13 y1", "b9", offered="k9").take
True
"""

from __future__ import annotations

import dataclasses
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from enum import Enum
from typing import Any

from okey_vision.coach.lookahead import LookScore, look, look_take, position_seed
from okey_vision.coach.pool import Pool
from okey_vision.coach.ranking import DiscardOption, discard_options, rank_key
from okey_vision.coach.reading import HandInput, Reading, distance_after_discard, read, without
from okey_vision.coach.strategy import RULES, Rules, Table, danger, outs_worth_taking, unseen
from okey_vision.coach.templates import TemplateSearch
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
from okey_vision.errors import HandError, HandSizeError, clip
from okey_vision.lang import count
from okey_vision.memo import Memo, owned
from okey_vision.scoring import COUNTDOWN, Scheme, check_scheme
from okey_vision.solver import Declaration, Finish, arrange, declare
from okey_vision.tiles import (
    HAND_SIZE,
    MAX_HAND,
    NUM_FACES,
    SET_SIZE,
    TILES,
    Hand,
    Tile,
    TileLike,
    check_counts,
    format_hand,
    okey_of,
    parse_hand,
    parse_tile,
)


class Action(str, Enum):
    """What the advice says to do (said in words by :func:`okey_vision.coach.text.action_label`)."""

    DISCARD = "discard"
    DECLARE = "declare"
    DRAW = "draw"
    TAKE = "take"


@dataclass(frozen=True)
class Advice:
    """What to do with a hand: declare, which tile to discard, or whether to
    take the offered discard, with the reason (:class:`Why`) and notes as data."""

    hand: tuple[Tile, ...]
    indicator: Tile
    seen: tuple[Tile, ...]
    action: Action
    why: Why
    distance: int                     # now (14 tiles) or after the best discard (15)
    discards: tuple[DiscardOption, ...] = ()   # 15 tiles: best first (the finish's discard when declaring)
    can_declare: bool = False
    declare: Finish | None = None
    wait: bool = False                # finished, but waiting for a richer finish pays
    offered: Tile | None = None
    take: bool | None = None
    outs: int = 0
    out_tiles: tuple[Tile, ...] = ()
    indicator_twin: bool = False
    scheme: Scheme = COUNTDOWN
    notes: tuple[Why, ...] = ()       # more reasons in player words (the tiles waited for, ...)

    @property
    def okey(self) -> Tile:
        """The okey face."""
        return okey_of(self.indicator)

    @property
    def best(self) -> DiscardOption | None:
        """The recommended discard (first ranked), if the hand has 15 tiles."""
        return self.discards[0] if self.discards else None

    def to_dict(self) -> dict[str, Any]:
        """A JSON-ready summary of the data (no words: the surfaces add the
        reason, e.g. :func:`okey_vision.coach.text.advice_dict`); ``discards``
        is the ranked list."""
        return {
            "hand": [t.name for t in self.hand],
            "indicator": self.indicator.name,
            "okey": self.okey.name,
            "action": self.action.value,
            "distance": self.distance,
            "can_declare": self.can_declare,
            "declare": self.declare.to_dict() if self.declare else None,
            "declare_points": self.declare.points(self.scheme) if self.declare else 0,
            "wait": self.wait,
            "discards": [d.to_dict() for d in self.discards],
            "offered": self.offered.name if self.offered else None,
            "take": self.take,
            "outs": self.outs,
            "out_tiles": [t.name for t in self.out_tiles],
            "indicator_twin": self.indicator_twin,
            "scheme": self.scheme,
        }


def holds_indicator_twin(hand: Iterable[Tile | str] | str, indicator: Tile | str) -> bool:
    """True when the hand holds the indicator's twin (shown at the start for a bonus).

    >>> holds_indicator_twin("r3 k5", "r3"), holds_indicator_twin("r4", "r3")
    (True, False)
    """
    return parse_tile(indicator) in parse_hand(hand)


#: Chance per turn that some opponent finishes, estimated from the
#: simulator's 4-player rounds; used to judge whether waiting pays.
OPPONENT_FINISH_RATE = 0.08


def wait_pays(finishes: Sequence[Finish], tiles: Sequence[Tile], indicator: Tile, seen: Sequence[Tile],
              scheme: Scheme, memo: Memo | None = None) -> tuple[bool, WaitWhy | None]:
    """Whether a finished hand should wait one turn for a richer finish
    (throwing an okey to finish doubles the score): waiting pays when the
    chance to draw a tile that frees the okey, times the doubled points,
    beats declaring now less the risk that an opponent finishes first;
    with the reason when it does."""
    memo = owned(memo)
    okey = okey_of(indicator)
    best = max(finishes, key=lambda f: f.points(scheme))
    if best.okey_discard or okey not in tiles:
        return False, None
    # Keep the finished 14 (throw the best finish's discard) holding the okey;
    # next turn a drawn tile t finishes with an okey discard when the 14 less
    # the okey plus t is finished.
    hold = without(tiles, best.discard) if best.discard is not None else list(tiles)
    unseen = SET_SIZE - len(tiles) - len(seen) - 1
    base = without(hold, okey)
    wins = 0
    # The okey set aside stays in the hand: it is not a tile left to draw.
    pool = Pool.of(base, indicator, list(seen) + ([best.discard] if best.discard else []) + [okey])
    held = Hand.of(base, indicator)  # checked once; each draw below adds one available tile
    for j in range(NUM_FACES + 1):
        a = pool.available(TILES[j])
        if a and declare(held.plus(TILES[j]), scheme=scheme, memo=memo).can_declare:
            wins += a
    p = wins / max(1, unseen)
    now = best.points(scheme)
    later = 2 * now
    q = OPPONENT_FINISH_RATE
    if p * later + (1 - p) * (1 - q) * now > now:
        return True, WaitWhy(wins, unseen, later, now)
    return False, None


def advise(hand: HandInput, indicator: Tile | str | None = None, seen: str | Iterable[TileLike] = (),
           offered: Tile | str | None = None, scheme: Scheme | str = COUNTDOWN, with_outs: bool = True,
           memo: Memo | None = None, only_best: bool = False, table: Table | None = None,
           rules: Rules = RULES, declaration: Declaration | None = None) -> Advice:
    """Advice for a hand: 15 tiles -> declare or which discard (ranked);
    14 tiles with ``offered`` (the previous player's discard) -> take it or
    draw from the stock; 14 without -> draw, with the distance and outs
    (declare, when they are finished as they are).

    ``hand``: a :class:`~okey_vision.tiles.Hand` (its own indicator and seen
    tiles; not checked again), or tiles with ``indicator`` and ``seen`` made
    into one. ``declaration``: the hand's :func:`~okey_vision.solver.declare`
    when the caller has it (the app shows it too), so it is not searched twice.

    ``with_outs=False`` skips the outs (faster; ranks by distance and
    tie-breaks). ``only_best`` (a bot's move) ranks only the first discard,
    skipping those surely farther from winning. ``memo``: the caches of the
    game or app session (a fresh one per call without it). ``table``: what
    the player saw beyond the discards (the stock left, tiles opponents
    took); ``rules``: the decision rules (:data:`~okey_vision.coach.strategy.RULES`,
    or ``BASIC`` for distance-then-outs alone)."""
    h = Hand.of(hand, indicator, seen)
    tiles, ind, gone = list(h.tiles), h.indicator, list(h.seen)
    scheme = check_scheme(scheme)
    off = None
    if offered is not None:
        off = parse_tile(offered)
        check_counts(tiles, ind, gone, offered=off)
    memo = owned(memo)
    twin = ind in tiles
    table = table if table is not None else Table()
    known = gone
    if rules.held_gone and table.held:
        # A copy an opponent took from a pile (and still holds) cannot be drawn.
        known = gone + list(table.held)
        check_counts(tiles, ind, known, offered=off)
    if len(tiles) == MAX_HAND and off is None:
        decl = _declared(h, scheme, memo, declaration)
        return _advise_discard(tiles, ind, gone, known, scheme, twin, with_outs, memo, only_best, table, rules, decl)
    if len(tiles) == HAND_SIZE:
        return _advise_draw(tiles, ind, gone, known, off, scheme, twin, with_outs, memo, rules, table)
    need = (f"{HAND_SIZE} tiles and the offered discard, or {MAX_HAND} tiles" if off is None
            else f"{HAND_SIZE} tiles with an offered discard")
    raise HandSizeError(f"advice needs {need}; got {count(len(tiles), 'tile')}: {format_hand(tiles)[:80]!r}",
                        "advice_size" if off is None else "advice_size_offered", hand=HAND_SIZE, most=MAX_HAND,
                        n=len(tiles), tiles=repr(format_hand(tiles)[:80]))


def _declared(hand: Hand, scheme: Scheme, memo: Memo, given: Declaration | None) -> Declaration:
    """The hand's declaration: the caller's when given (it must be this hand's), else searched now."""
    if given is None:
        return declare(hand, scheme=scheme, memo=memo)
    if (given.hand, given.indicator, given.scheme) != (hand.tiles, hand.indicator, scheme):
        raise HandError(f"the declaration given is for {clip(format_hand(given.hand))!r} / "
                        f"{given.indicator.name} ({given.scheme}), not this hand: {clip(format_hand(hand.tiles))!r} / "
                        f"{hand.indicator.name} ({scheme})", "declaration_mismatch")
    return given


def _waits_for(out_tiles: Sequence[Tile], outs: int) -> tuple[Why, ...]:
    """The note naming the tiles a hand waits for (none when there are none)."""
    return (WaitsForNote(tuple(out_tiles), outs),) if out_tiles else ()


def keep_back(options: Sequence[DiscardOption], tiles: Sequence[Tile], seen: Sequence[Tile], table: Table,
              rules: Rules) -> tuple[DiscardOption, float, float] | None:
    """The discard-safety rule: among discards as close to winning as the
    best and giving up at most ``rules.safety_slack`` outs, the one the next
    player least likely collects, when it is clearly safer than the best:
    (that discard, its danger, the best's danger), or None."""
    best = options[0]
    mine = list(tiles) + list(seen)
    risk = danger(best.tile, table, mine, rules.safety_generic)
    if risk <= 0:
        return None
    pick, low = best, risk
    for o in options[1:]:
        if o.distance != best.distance or o.outs < best.outs - rules.safety_slack:
            continue
        d = danger(o.tile, table, mine, rules.safety_generic)
        if d < low:
            pick, low = o, d
    if pick is best or low > rules.safety_ratio * risk:
        return None
    return pick, low, risk


def player_choice(options: Sequence[DiscardOption], tiles: Sequence[Tile], ind: Tile, known: Sequence[Tile],
                  table: Table, rules: Rules, memo: Memo) -> tuple[list[DiscardOption], Choice | None]:
    """Equally good discards (the same distance and outs), ordered as a
    player chooses (``rules.loose_first``): the okey last, then a loose tile
    (in no meld of the groups the player sees drawn: ``Arrangement.shown``)
    before a tile inside a drawn meld, then the one keeping most tiles in
    melds, then the one the next player least likely wants (:func:`danger`),
    then the ranking's own tie-breaks. Without the rule the ranking's order
    stands. Returns the options so ordered, and why the first of the best's
    equals comes first (None when it has none)."""
    okey = okey_of(ind)
    loose = set(arrange(tiles, ind, memo=memo).shown[1]) if rules.loose_first else set()
    mine = list(tiles) + list(known)

    def parts(o: DiscardOption) -> tuple[tuple[Choice, object], ...]:
        if not rules.loose_first:  # the ranking's tie-breaks (rank_key)
            return ((Choice.KEEPS, -o.keeps), (Choice.CHANCES, -o.potential), (Choice.OKEY, o.tile == okey),
                    (Choice.ANY, o.tile.index))
        risk = round(danger(o.tile, table, mine, rules.safety_generic), 9)
        return ((Choice.OKEY, o.tile == okey), (Choice.LOOSE, o.tile not in loose), (Choice.KEEPS, -o.keeps),
                (Choice.SAFER, risk), (Choice.CHANCES, -o.potential), (Choice.ANY, o.tile.index))

    out: list[DiscardOption] = []
    basis = None
    i = 0
    while i < len(options):
        j = i
        while j < len(options) and (options[j].distance, options[j].outs) == (options[i].distance, options[i].outs):
            j += 1
        keyed = sorted(((tuple(v for _, v in parts(o)), parts(o), o) for o in options[i:j]), key=lambda k: k[0])
        out += [o for _, _, o in keyed]
        if i == 0 and j - i > 1:
            (_, first, best), (_, second, _) = keyed[0], keyed[1]
            basis = next(name for (name, a), (_, b) in zip(first, second, strict=True) if a != b)
            if basis is Choice.SAFER and best.tile in loose and any(o.tile not in loose for _, _, o in keyed):
                basis = Choice.LOOSE_SAFER
        i = j
    return out, basis


def _look_draws(rules: Rules, table: Table) -> int:
    """The player's draws the lookahead plays: ``rules.look_draws``, fewer
    when the stock runs out first (shared: the player draws one tile in ``players``)."""
    if table.stock_left is None:
        return rules.look_draws
    return min(rules.look_draws, -(-table.stock_left // table.players))


def _not_drawable(known: Sequence[Tile], table: Table, rules: Rules) -> list[Tile]:
    """The tiles the lookahead's samples leave out: those seen, and the copies
    opponents are known to hold (whatever ``held_gone`` says for the outs)."""
    return list(known) if rules.held_gone else list(known) + list(table.held)


def look_ahead(options: Sequence[DiscardOption], tiles: Sequence[Tile], ind: Tile, known: Sequence[Tile],
               table: Table, memo: Memo, rules: Rules) -> tuple[DiscardOption, LookScore, LookScore] | None:
    """The lookahead rule: among the first-ranked discards at the best's
    distance (2 to ``rules.look_distance``) with enough of its outs, the one
    whose 14 finishes most often in sampled draws played forward, when it is
    not the first ranked: (that discard, its score, the first's), or None."""
    best = options[0]
    if not 2 <= best.distance <= rules.look_distance:
        return None
    # The fast policy plays the melds route (seven pairs would need the full ranking at every draw).
    close = [o for o in options if o.distance == best.distance and o.outs >= rules.look_ratio * best.outs
             and o.route == "melds"]
    if not close or close[0] is not best:
        return None
    close = close[:rules.look_candidates]
    if len(close) < 2:
        return None
    draws = _look_draws(rules, table)
    hidden_known = _not_drawable(known, table, rules)
    seed = position_seed(tiles, ind, hidden_known)
    scores = look(close, tiles, ind, hidden_known, memo, draws, rules.look_samples, rules.look_budget, seed)
    top = max(scores, key=lambda s: s.score)  # the first of equals: the ranking's order breaks ties
    if top is scores[0] or top.score <= scores[0].score + rules.look_margin:
        return None
    return close[scores.index(top)], top, scores[0]


def _advise_discard(tiles: list[Tile], ind: Tile, gone: list[Tile], known: list[Tile], scheme: Scheme, twin: bool,
                    with_outs: bool, memo: Memo, only_best: bool, table: Table, rules: Rules,
                    decl: Declaration) -> Advice:
    okey = okey_of(ind)
    found = discard_options(tiles, ind, known, memo, with_outs, only_best=only_best and with_outs)
    options = sorted(found, key=lambda o: rank_key(o, okey))
    safety = rules.safety and table.stock_left is not None and not decl.can_declare and len(options) > 1
    basis = None
    if not decl.can_declare:
        # Without the outs, discards of one distance are not known to be equally good: the ranking's order stands.
        chooser = rules if with_outs else dataclasses.replace(rules, loose_first=False)
        options, basis = player_choice(options, tiles, ind, known, table, chooser, memo)
    if only_best and not (safety or rules.lookahead):
        options = options[:1]
    common: dict[str, Any] = dict(hand=tuple(tiles), indicator=ind, seen=tuple(gone), indicator_twin=twin,
                                  scheme=scheme)
    if decl.can_declare:
        finish = decl.best
        assert finish is not None
        # The finish's own discard leads: thrown to declare, or (waiting) to keep the finished 14.
        options = [o for o in options if o.tile == finish.discard] + [o for o in options if o.tile != finish.discard]
        wait, why = wait_pays(decl.finishes, tiles, ind, known, scheme, memo) if rules.wait else (False, None)
        if wait and table.stock_left is not None and table.stock_left < 2 * table.players:
            wait, why = False, None  # the stock runs out before the okey could come: a stall scores nothing
        reason = why if wait and why is not None else DeclareWhy(finish, scheme)
        action = Action.DISCARD if wait else Action.DECLARE
        return Advice(action=action, why=reason, distance=0, discards=tuple(options), can_declare=True,
                      declare=finish, wait=wait, **common)
    notes: tuple[Why, ...] = ()
    if safety:
        kept = keep_back(options, tiles, known, table, rules)
        if kept is not None:
            pick = kept[0]  # (its danger and the best's are for callers that weigh them)
            notes = (KeepBackNote(options[0].tile, pick.tile),)
            options = [pick] + [o for o in options if o is not pick]
    if rules.lookahead and with_outs and not notes:  # the fast policy plays the outs
        picked = look_ahead(options, tiles, ind, known, table, memo, rules)
        if picked is not None:
            pick, chosen, first = picked
            notes = (LookaheadNote(options[0], pick.tile, chosen, first),)
            options = [pick] + [o for o in options if o is not pick]
    if only_best:
        options = options[:1]
    best = options[0]
    # Tied discards are named when the tie-break chose (not the safety rule, which says why itself).
    ties = [o for o in options[1:] if (o.distance, o.outs) == (best.distance, best.outs)] if not notes else []
    if ties and basis is not None:
        notes = (ChoiceNote(best, tuple(ties), basis),)
    notes = notes + _waits_for(best.out_tiles, best.outs) if rules.explain else notes
    return Advice(action=Action.DISCARD, why=DiscardWhy(best, tuple(ties)), distance=best.distance,
                  discards=tuple(options), notes=notes, **common)


def take_offered(tiles: Sequence[Tile], ind: Tile, gone: Sequence[Tile], offered: Tile, now: Reading,
                 scheme: Scheme | str = COUNTDOWN, memo: Memo | None = None) -> tuple[bool, bool]:
    """The take-or-draw rule: (take, finishes). Take the offered tile when it
    finishes the hand, or when the 15 with it lie closer to winning (after
    their best discard) than ``now``, the 14's reading with the offered tile
    counted as gone. An out of ``now`` surely does; the rest are searched
    (the offered copy may be the last one, which no out counts)."""
    memo = owned(memo)
    taken = list(tiles) + [offered]
    if declare(taken, ind, scheme, memo=memo).can_declare:
        return True, True
    if offered in now.out_tiles:
        return True, False
    return distance_after_discard(taken, ind, gone, TemplateSearch(memo)) < now.distance, False


def _advise_draw(tiles: list[Tile], ind: Tile, gone: list[Tile], known: list[Tile], off: Tile | None,
                 scheme: Scheme, twin: bool, with_outs: bool, memo: Memo, rules: Rules, table: Table) -> Advice:
    now = read(Pool.of(tiles, ind, known + ([off] if off else [])), TemplateSearch(memo), with_outs=with_outs)
    common: dict[str, Any] = dict(hand=tuple(tiles), indicator=ind, seen=tuple(gone), distance=now.distance,
                                  outs=now.outs, out_tiles=now.out_tiles, indicator_twin=twin, scheme=scheme)
    waits = _waits_for(now.out_tiles, now.outs) if rules.explain else ()
    if off is None:
        finish = declare(tiles, ind, scheme, memo=memo).best if now.distance == 0 else None
        if finish is not None:  # finished as they are: declare, not draw
            return Advice(action=Action.DECLARE, why=DeclareWhy(finish, scheme), can_declare=True,
                          declare=finish, **common)
        return Advice(action=Action.DRAW, why=DrawWhy(now), notes=waits, **common)
    take, finishes = take_offered(tiles, ind, known, off, now, scheme, memo)
    after: DiscardOption | None = None
    why: Why
    if take:
        why = TakeWhy(off, now, finishes)
    else:
        why = LeaveWhy(off, now)
        if rules.take_outs and with_outs and now.distance > 0:
            # Same distance after taking: take when its outs shorten the
            # expected wait for the next step by more than the draw given up.
            hidden = unseen(len(tiles), len(known) + 1)
            # No 15 can wait for more tiles than are hidden: when even that would not pay, skip the search.
            if outs_worth_taking(now.outs, hidden, hidden, rules.take_margin):
                after = min(discard_options(tiles + [off], ind, known, memo, True, only_best=True),
                            key=lambda o: rank_key(o, okey_of(ind)))
            else:
                after = None
            if after is not None and after.distance == now.distance and \
                    outs_worth_taking(now.outs, after.outs, hidden, rules.take_margin):
                take = True
                why = TakeOutsWhy(off, after.tile, now, after)
    if rules.lookahead and rules.look_take and with_outs and not finishes and now.route == "melds" and \
            2 <= now.distance <= rules.look_distance and (not take or after is not None):
        if after is None:
            after = min(discard_options(tiles + [off], ind, known, memo, True, only_best=True),
                        key=lambda o: rank_key(o, okey_of(ind)))
        if after.distance == now.distance and after.route == "melds":
            # Same distance either way: the lookahead weighs what each leaves to wait for next.
            draws = _look_draws(rules, table)
            gone_too = _not_drawable(known, table, rules)
            seed = position_seed(tiles + [off], ind, gone_too, 1)
            took, drew = look_take(tiles, now, off, after, ind, gone_too, memo, draws, rules.look_samples,
                                   rules.look_budget, seed)
            if not take and took.score > drew.score + rules.look_margin:
                take, why = True, TakeLookWhy(off, after.tile, took, drew)
            elif take and drew.score > took.score + rules.look_margin:
                take, why = False, LeaveLookWhy(off, took, drew)
    return Advice(action=Action.TAKE if take else Action.DRAW, why=why, offered=off, take=take,
                  notes=() if take else waits, **common)
