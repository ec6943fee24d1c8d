"""The score tables of a game: 2 to 4 players across rounds, in either
scoring scheme of the classic game's rules page (:class:`ScoreTable`), or in
101's penalty points (:class:`ScoreTable101`) (pure Python).

Countdown (default): everyone starts at 20; a finish makes every other
player lose its points (2, doubled for seven pairs and for an okey
discard); showing the indicator's twin makes the others lose 1; the game
ends when someone reaches 0. Penalty: everyone starts at 0; a finish gives
every opponent its points (20, doubled likewise); a stall gives everyone
10; holding the indicator's twin gives every opponent 10; lowest is best.

>>> t = ScoreTable(["Ayse", "Can", "Deniz"])
>>> t = t.add(Round(winner=0, kind="pairs"))
>>> t.totals()
[20, 16, 16]
>>> t = t.add(Round(winner=1, okey_discard=True, indicator_shown=(2,)))
>>> t.totals(), t.leader()
([15, 15, 12], 'Ayse')

101: each round's scores come from how it ended (the round's indicator, how
each player opened, the tiles each held, who finished and how), counted by
:func:`okey_vision.yuzbir.round_penalties`; the lowest total leads.

>>> t = ScoreTable101(["Ayse", "Can", "Deniz"])
>>> t = t.add(Round101Score.of("b2", ["melds", "melds", "no"], ["", "r5 k13", "r1"], finisher=0))
>>> t.totals(), t.leader()
([-101, 18, 202], 'Ayse')
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from okey_vision.coach import text as coach_text
from okey_vision.errors import OkeyError
from okey_vision.report.labels import Lang, t
from okey_vision.scoring import (
    COUNTDOWN,
    PENALTY,
    START,
    FinishKind,
    Scheme,
    check_scheme,
    finish_points,
    game_over,
    leader,
    round_deltas,
)
from okey_vision.tiles import Tile, parse_hand, parse_tile
from okey_vision.yuzbir import Opened, round_penalties

MIN_PLAYERS, MAX_PLAYERS = 2, 4


def player_names(players: list[str]) -> list[str]:
    """The players' names, trimmed and checked: 2 to 4, none empty, all different."""
    names = [str(p).strip() for p in players]
    if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
        raise OkeyError(f"Okey is played by {MIN_PLAYERS} to {MAX_PLAYERS} players, got {len(names)}")
    if any(not n for n in names):
        raise OkeyError("every player needs a name")
    if len(set(names)) != len(names):
        raise OkeyError(f"player names must differ: {', '.join(names)}")
    return names


@dataclass(frozen=True)
class Round:
    """How one round ended: the winner's seat (None for a stall: the stock
    ran out), the finish kind, whether the winner discarded an okey, and the
    seats that showed (countdown) or held (penalty) the indicator's twin."""

    winner: int | None
    kind: FinishKind | str = FinishKind.MELDS   # checked when the round is added
    okey_discard: bool = False
    indicator_shown: tuple[int, ...] = ()

    def describe(self, players: list[str], lang: Lang = Lang.EN) -> str:
        """A short line such as 'Can: seven pairs, okey discard'."""
        if self.winner is None:
            text = t("stall", lang)
        else:
            how = coach_text.kind_label(FinishKind.parse(self.kind), lang)
            text = f"{players[self.winner]}: {how}" + (t("okey_discard_note", lang) if self.okey_discard else "")
        if self.indicator_shown:
            text += t("twin_note", lang, who=", ".join(players[i] for i in self.indicator_shown))
        return text


@dataclass(frozen=True)
class ScoreTable:
    """Players, the scheme and the rounds played; every method returns a new table."""

    players: list[str]
    scheme: Scheme = COUNTDOWN
    rounds: tuple[Round, ...] = field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "scheme", check_scheme(self.scheme))  # a scheme's name ("penalty") too
        object.__setattr__(self, "players", player_names(self.players))
        for r in self.rounds:
            self._check(r)

    def _check(self, r: Round) -> None:
        n = len(self.players)
        if r.winner is not None and not 0 <= r.winner < n:
            raise OkeyError(f"no player at seat {r.winner}")
        FinishKind.parse(r.kind)
        if any(not 0 <= i < n for i in r.indicator_shown) or len(set(r.indicator_shown)) != len(r.indicator_shown):
            raise OkeyError(f"bad indicator seats {r.indicator_shown}")

    def add(self, r: Round) -> ScoreTable:
        """The table with one more round (refused once the game is over)."""
        self._check(r)
        if self.game_over():
            raise OkeyError(f"the game is over: {self.leader()} won; start a new game")
        return replace(self, rounds=self.rounds + (r,))

    def undo(self) -> ScoreTable:
        """The table without its last round."""
        return replace(self, rounds=self.rounds[:-1])

    def deltas(self, r: Round) -> list[int]:
        """Each player's change for one round (countdown: losses are negative)."""
        points = 0 if r.winner is None else finish_points(r.kind, r.okey_discard, self.scheme)
        return list(round_deltas(len(self.players), r.winner, points, r.indicator_shown, self.scheme))

    def rows(self) -> list[list[int]]:
        """Running totals after each round (one list per round)."""
        totals = [START[self.scheme]] * len(self.players)
        out = []
        for r in self.rounds:
            totals = [t + d for t, d in zip(totals, self.deltas(r), strict=True)]
            out.append(list(totals))
        return out

    def totals(self) -> list[int]:
        """Current totals."""
        rows = self.rows()
        return rows[-1] if rows else [START[self.scheme]] * len(self.players)

    def game_over(self) -> bool:
        """Countdown: someone has reached 0. Penalty games run until the players stop."""
        return game_over(self.totals(), self.scheme)

    def leader(self) -> str:
        """The best placed player (most points in countdown, fewest in penalty)."""
        return self.players[leader(self.totals(), self.scheme)]

    def table(self, lang: Lang = Lang.EN) -> list[dict[str, object]]:
        """Rows for display: round number, what happened, each player's total."""
        rnd, res = t("round_col", lang), t("result_col", lang)
        out: list[dict[str, object]] = [
            {rnd: t("start_row", lang), res: "", **dict.fromkeys(self.players, START[self.scheme])}
        ]
        for k, (r, tot) in enumerate(zip(self.rounds, self.rows(), strict=True), start=1):
            out.append({rnd: str(k), res: r.describe(self.players, lang), **dict(zip(self.players, tot, strict=True))})
        return out


@dataclass(frozen=True)
class Round101Score:
    """How a 101 round ended, as the table saw it: the round's indicator,
    how each player opened, the tiles each held at the end, each one's
    misplays (a discard the table took, or the okey), who finished (None:
    the stock ran out) and whether with the okey or the whole hand at once."""

    indicator: Tile
    opened: tuple[Opened, ...]
    left: tuple[tuple[Tile, ...], ...]
    finisher: int | None = None
    okey_finish: bool = False
    whole_hand: bool = False
    misplays: tuple[int, ...] = ()

    @classmethod
    def of(cls, indicator: Tile | str, opened: Sequence[Opened | str], left: Sequence[str], finisher: int | None = None,
           okey_finish: bool = False, whole_hand: bool = False, misplays: tuple[int, ...] = ()) -> Round101Score:
        """A round from what players type: tile names (Turkish too), opening states by name."""
        return cls(parse_tile(indicator), tuple(Opened.parse(o) for o in opened),
                   tuple(tuple(parse_hand(x)) for x in left), finisher, okey_finish, whole_hand, tuple(misplays))

    def scores(self) -> tuple[int, ...]:
        """Each player's penalty for the round (lower is better)."""
        return round_penalties(self.left, self.indicator, self.opened, self.finisher, self.okey_finish,
                               self.whole_hand, self.misplays)

    def describe(self, players: list[str], lang: Lang = Lang.EN) -> str:
        """A short line such as 'Can finished, with the okey'."""
        if self.finisher is None:
            return t("scores101_stall", lang)
        text = t("scores101_finish_note", lang, who=players[self.finisher])
        if self.opened[self.finisher] is Opened.PAIRS:
            text += t("scores101_pairs_note", lang)
        if self.okey_finish:
            text += t("scores101_okey_note", lang)
        if self.whole_hand:
            text += t("scores101_whole_note", lang)
        return text


@dataclass(frozen=True)
class ScoreTable101:
    """The 101 penalty scores of 2 to 4 players across rounds; every method returns a new table."""

    players: list[str]
    rounds: tuple[Round101Score, ...] = field(default=())

    def __post_init__(self) -> None:
        object.__setattr__(self, "players", player_names(self.players))
        for r in self.rounds:
            self._check(r)

    def _check(self, r: Round101Score) -> None:
        n = len(self.players)
        if len(r.opened) != n or len(r.left) != n or (r.misplays and len(r.misplays) != n):
            raise OkeyError(f"a round needs each of the {n} players' opening and tiles left, "
                            f"got {len(r.opened)} and {len(r.left)}")
        if r.finisher is not None:
            if not 0 <= r.finisher < n:
                raise OkeyError(f"no player at seat {r.finisher}")
            if r.opened[r.finisher] is Opened.NO:
                raise OkeyError(f"{self.players[r.finisher]} finished, so opened: with runs and sets or with pairs?",
                                "finisher_opened", who=self.players[r.finisher])
        if any(m < 0 for m in r.misplays):
            raise OkeyError(f"misplays cannot be negative: {list(r.misplays)}")

    def add(self, r: Round101Score) -> ScoreTable101:
        """The table with one more round."""
        self._check(r)
        return replace(self, rounds=self.rounds + (r,))

    def undo(self) -> ScoreTable101:
        """The table without its last round."""
        return replace(self, rounds=self.rounds[:-1])

    def rows(self) -> list[list[int]]:
        """Running totals after each round (one list per round)."""
        totals = [0] * len(self.players)
        out = []
        for r in self.rounds:
            totals = [a + b for a, b in zip(totals, r.scores(), strict=True)]
            out.append(list(totals))
        return out

    def totals(self) -> list[int]:
        """Current totals."""
        rows = self.rows()
        return rows[-1] if rows else [0] * len(self.players)

    def leader(self) -> str:
        """The player with the fewest penalty points (the first of equals)."""
        totals = self.totals()
        return self.players[totals.index(min(totals))]

    def table(self, lang: Lang = Lang.EN) -> list[dict[str, object]]:
        """Rows for display: round number, what happened, each player's total."""
        rnd, res = t("round_col", lang), t("result_col", lang)
        out: list[dict[str, object]] = [{rnd: t("start_row", lang), res: "", **dict.fromkeys(self.players, 0)}]
        for k, (r, tot) in enumerate(zip(self.rounds, self.rows(), strict=True), start=1):
            out.append({rnd: str(k), res: r.describe(self.players, lang), **dict(zip(self.players, tot, strict=True))})
        return out


__all__ = ["COUNTDOWN", "PENALTY", "Round", "Round101Score", "ScoreTable", "ScoreTable101", "player_names"]
