"""The app's state, typed: one :class:`AppState` per player session, held in
``st.session_state`` under :data:`KEY`, with one :class:`Entry` per rack tile.

Pure Python (no Streamlit): the page's sections read the state and change it
through its methods, so the rules (a new photo keeps the indicator the player
chose; a failed photo clears the hand) are tested without a browser.

>>> app = AppState()
>>> app.set_entries([Entry.typed("r4"), Entry(parse_tile("b1"), confidence=0.5, unsure=True)])
>>> [e.flagged for e in app.entries], app.version
([False, True], 1)
>>> app.confirm_all()
>>> [e.flagged for e in app.entries], app.entries[1].confidence
([False, False], 0.5)

The indicator read from a photo is a tile like the others: flagged,
confirmed or corrected the same way.

>>> from okey_vision.vision.reads import APART, TileRead
>>> app.photo_indicator(TileRead((0, 0, 10, 15), parse_tile("r3"), 0.4, row=APART))
>>> app.round.indicator.name, app.indicator_flagged
('r3', True)
>>> app.choose_indicator("r2")
>>> app.round.indicator.name, app.indicator_flagged, app.indicator_read.confirmed
('r2', False, True)
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from enum import Enum
from typing import TYPE_CHECKING, Any, cast

from okey_vision.app.round import LiveRound
from okey_vision.app.scores import ScoreTable, ScoreTable101
from okey_vision.report.analysis import Session
from okey_vision.report.labels import Lang
from okey_vision.scoring import COUNTDOWN, Scheme
from okey_vision.tiles import Game, Tile, parse_tile
from okey_vision.yuzbir import Opened

if TYPE_CHECKING:  # numpy and the reader's types load only with a photo
    import numpy as np

    from okey_vision.check.photos import Checked
    from okey_vision.report.photo import PhotoReads
    from okey_vision.report.zoom import ZoomView
    from okey_vision.vision.live import LiveReader
    from okey_vision.vision.reads import TileRead

#: The one ``st.session_state`` key the app keeps its state under.
KEY = "app"
#: :attr:`AppState.tapped` when the player tapped the indicator (not a rack tile).
INDICATOR = -1

Box = tuple[float, float, float, float]


class IndicatorSource(Enum):
    """Who set the round's indicator: nobody yet, the photo, or the player."""

    NONE = ""
    PHOTO = "photo"
    PLAYER = "player"


@dataclass(frozen=True)
class Entry:
    """One rack tile as the app holds it: the tile, how the reader saw it
    (nothing for a tile the player added), and whether the player confirmed it.

    A flag is cleared by ``confirmed``, never by changing the confidence: the
    reader's own rule (``TileRead.low_confidence``) decides ``unsure`` once."""

    tile: Tile
    #: The reader's confidence in ``tile`` (1.0 for a tile the player gave).
    confidence: float = 1.0
    #: The reader asked the player to check this tile.
    unsure: bool = False
    #: The reader's best guesses, best first (the read tile itself first).
    alternatives: tuple[Tile, ...] = ()
    #: Where the tile lies in the photo (photo px); None for a tile the player added.
    box: Box | None = None
    #: Its corners in the photo (TL, TR, BR, BL as the tile stands), when the reader fitted them.
    quad: tuple[tuple[float, float], ...] | None = None
    #: The rack row it was read in.
    row: int = 0
    #: Its place among the photo's rack reads; None for a tile the player added.
    order: int | None = None
    #: The player chose or confirmed this tile.
    confirmed: bool = False
    #: The corners the classifiers read it from (``TileRead.cut``): what a kept correction is cut from.
    cut: tuple[tuple[float, float], ...] | None = None

    @classmethod
    def read(cls, r: TileRead, order: int) -> Entry:
        """The entry for the photo's ``order``-th rack read."""
        return cls(r.tile, r.confidence, r.low_confidence, tuple(t for t, _ in r.alternatives[:3]),
                   r.box, r.quad, r.row, order, cut=r.cut)

    @classmethod
    def apart(cls, r: TileRead) -> Entry:
        """The entry for a read lying apart from the rack (the indicator)."""
        return replace(cls.read(r, 0), order=None)

    @classmethod
    def typed(cls, tile: Tile | str) -> Entry:
        """A tile the player gave (typed, added or recorded): nothing to check."""
        return cls(tile if isinstance(tile, Tile) else parse_tile(tile))

    @property
    def name(self) -> str:
        """The tile's short notation."""
        return self.tile.name

    @property
    def flagged(self) -> bool:
        """True while the player should check this tile."""
        return self.unsure and not self.confirmed

    def corrected(self, tile: Tile | str) -> Entry:
        """This entry with the tile the player chose (confirmed; the reader's guesses dropped)."""
        return replace(self, tile=tile if isinstance(tile, Tile) else parse_tile(tile),
                       alternatives=(), confirmed=True)


@dataclass(frozen=True, eq=False)
class TakenPhoto:
    """The photo taken last: its signature and name, the decoded image (None
    when it could not be decoded or was dropped), its reads (None when it was
    not read), what went wrong, and whether it shows an indicator apart."""

    key: str
    name: str
    image: np.ndarray | None = None
    reads: PhotoReads | None = None
    error: str = ""
    has_indicator: bool = False


@dataclass(frozen=True, eq=False)
class Overlay:
    """The photo drawn with its reads boxed, what it was drawn from (to
    redraw only when the photo, the indicator or a tile changes), and how it
    shows the photo (:class:`~okey_vision.report.zoom.ZoomView`: a tap on it -> a read)."""

    key: tuple[Any, ...]
    image: np.ndarray
    view: ZoomView | None = None


@dataclass(frozen=True, eq=False)
class Checks:
    """The organiser's page: what the uploaded photos gave, and
    what they were checked with (their bytes' hashes, the indicator chosen,
    the scheme), so a rerun shows them again without reading them again."""

    key: str
    checked: tuple[Checked, ...] = ()


# Not frozen: the one mutable holder of a session, kept across reruns and
# changed by the widgets' callbacks; what it holds is replaced whole.
@dataclass
class AppState:
    """Everything one player's session keeps between the page's reruns."""

    #: The page's language.
    lang: Lang = Lang.EN
    #: The game played: classic Okey or 101 (the page's switch, or ?game=101).
    game: Game = Game.OKEY
    #: The photo taken last (None before the first).
    photo: TakenPhoto | None = None
    #: The overlay drawn for the photo (None until drawn).
    overlay: Overlay | None = None
    #: The tile the player tapped on the photo (its entry index, or
    #: :data:`INDICATOR`), and the last tap handled.
    tapped: int | None = None
    tap_seen: Any = None
    #: When the photo's reads were ready (perf_counter), until its advice is shown.
    clock: float | None = None
    #: Seconds from the photo's reads to its advice.
    photo_seconds: float | None = None
    #: The hand: one entry per rack tile, in rack order.
    entries: tuple[Entry, ...] = ()
    #: Bumped when the hand is replaced, so the tile pickers start afresh.
    version: int = 0
    #: The player has started correcting this photo's tiles (the panel stays open).
    correcting: bool = False
    #: The tile the previous player just discarded, as the player named it
    #: (take it or draw?); None: none named. A new photo or round clears it.
    offered: Tile | None = None
    #: The round: indicator, turn, tiles seen; and who set the indicator.
    round: LiveRound = field(default_factory=LiveRound)
    indicator_source: IndicatorSource = IndicatorSource.NONE
    #: The indicator as the photo read it (its box, flag and confirmation), while the round uses it.
    indicator_read: Entry | None = None
    #: Why the last tiles typed as seen were refused ('' when they were not).
    seen_error: str = ""
    #: The scoring scheme; one the player picked under a running table, until confirmed.
    scheme: Scheme = COUNTDOWN
    scheme_pending: Scheme | None = None
    #: The score table (None until started).
    scores: ScoreTable | None = None
    #: This player's search caches and last analyses.
    coach: Session = field(default_factory=Session)
    #: The live view's frame reader (None until the live view opens) and its
    #: camera connection's last (signalling, playing) state, logged on change.
    live: LiveReader | None = None
    live_conn: tuple[Any, Any] | None = None
    #: The check page's photos and verdicts (None until photos are checked there).
    checks: Checks | None = None
    #: The player lets the app keep their confirmed and corrected tiles to
    #: learn their set (off until they switch it on).
    learning: bool = False
    #: 101: the melds laid on the table this round, as the player typed them
    #: or a photo of the table read them ("r3 r4 r5, k7 b7 y7"; made into
    #: melds with the round's indicator, :func:`okey_vision.app.table.laid_melds`).
    table_text: str = ""
    #: 101: the photo of the table read last (its signature), so a rerun does not read it again,
    #: and what reading it said.
    table_photo: str = ""
    table_note: str = ""
    #: 101: how this player has opened this round.
    opened: Opened = Opened.NO
    #: 101's house rule that each later opener must beat the highest opening
    #: so far (off by default, as most tables play), and that opening's points.
    beat_highest: bool = False
    highest: int = 0
    #: 101: the penalty score table (None until started).
    scores101: ScoreTable101 | None = None
    #: The hand the player typed for this photo (tile names, rack order), until it is kept.
    typed: tuple[str, ...] | None = None
    #: What was kept already: (photo, place on the rack, tile).
    kept: frozenset[tuple[str, int, str]] = frozenset()

    @property
    def tiles(self) -> list[Tile]:
        """The hand's tiles, in rack order."""
        return [e.tile for e in self.entries]

    @property
    def flagged(self) -> list[int]:
        """The indices of the rack tiles the player should check."""
        return [i for i, e in enumerate(self.entries) if e.flagged]

    @property
    def indicator_flagged(self) -> bool:
        """True while the player should check the indicator read from the photo."""
        return (self.indicator_read is not None and self.indicator_read.flagged
                and self.indicator_source is IndicatorSource.PHOTO)

    @property
    def to_check(self) -> bool:
        """Whether any tile (the indicator too) is still to check."""
        return bool(self.flagged) or self.indicator_flagged

    def set_entries(self, entries: Iterable[Entry]) -> None:
        """Replace the hand (the tile pickers start afresh)."""
        self.entries = tuple(entries)
        self.version += 1

    def correct(self, i: int, tile: Tile | str | None, renumber: bool = False) -> None:
        """The player chose ``tile`` for entry ``i``, or removed it (None). The
        tile pickers start afresh after a removal (the tiles after it move up)
        or with ``renumber`` (the change came from elsewhere than its picker)."""
        self.correcting = True  # keep the panel open while the player corrects
        entries = list(self.entries)
        if tile is None:
            entries.pop(i)
        else:
            entries[i] = entries[i].corrected(tile)
        if tile is None or renumber:
            self.set_entries(entries)
        else:
            self.entries = tuple(entries)

    def confirm_all(self) -> None:
        """The player says every flagged read is right (the indicator's too)."""
        self.entries = tuple(replace(e, confirmed=True) if e.flagged else e for e in self.entries)
        self.confirm_indicator()

    def confirm_indicator(self) -> None:
        """The player says the indicator read from the photo is right."""
        if self.indicator_read is not None:
            self.indicator_read = replace(self.indicator_read, confirmed=True)

    def choose_indicator(self, tile: Tile | str | None) -> None:
        """The player chose the indicator (its picker, or the one a tap on it
        opened): it corrects the photo's read of it, and is kept for the round."""
        if self.indicator_read is not None and tile:
            self.indicator_read = self.indicator_read.corrected(tile)
        elif not tile:
            self.indicator_read = None
        self.set_indicator(tile, IndicatorSource.PLAYER)

    def set_indicator(self, tile: Tile | str | None, source: IndicatorSource) -> None:
        """Set (or clear) the round's indicator, saying who set it."""
        self.round = self.round.with_indicator(tile)
        self.indicator_source = source if tile else IndicatorSource.NONE

    def photo_indicator(self, tile: TileRead | Tile | str | None) -> None:
        """A new photo starts from what it shows: its own indicator (its read,
        flagged like a rack tile, or the tile), or none. An indicator the
        player chose is kept (and the advice says it assumes it); one read
        from an earlier photo is dropped, so the page asks for it."""
        read = cast("TileRead", tile) if tile is not None and hasattr(tile, "box") else None
        face = read.tile if read is not None else cast("Tile | str | None", tile)
        if self.photo is not None:
            self.photo = replace(self.photo, has_indicator=face is not None)
        if self.indicator_source is IndicatorSource.PLAYER and self.round.indicator is not None:
            self.indicator_read = None
            return
        self.indicator_read = Entry.apart(read) if read is not None else None
        self.set_indicator(face, IndicatorSource.PHOTO)

    def type_hand(self, entries: Iterable[Entry]) -> None:
        """The player typed the whole hand (rack order): it replaces the hand."""
        self.set_entries(entries)
        self.typed = tuple(e.name for e in self.entries)

    def start_photo(self, key: str, name: str) -> None:
        """A new photo arrived: it replaces the last one (nothing read yet)."""
        self.photo = TakenPhoto(key, name)
        self.typed = None
        self.offered = None
        self.correcting = False
        self.overlay = None
        self.tapped = None
        self.clock = self.photo_seconds = None  # no time said from the previous photo

    def forget_photo(self, message: str, keep_image: bool = False) -> None:
        """The photo failed: say so (``message``, in the page's words) and clear
        the previous photo's hand and advice."""
        photo = self.photo or TakenPhoto("", "")
        self.photo = replace(photo, image=photo.image if keep_image else None, reads=None, error=message,
                             has_indicator=False)
        self.set_entries([])
        self.clock = self.photo_seconds = None
        if self.indicator_source is IndicatorSource.PHOTO:
            self.set_indicator(None, IndicatorSource.NONE)
            self.indicator_read = None

    def set_checks(self, key: str, checked: Iterable[Checked]) -> None:
        """The check page's photos were checked (``key``: what with)."""
        self.checks = Checks(key, tuple(checked))

    def set_game(self, game: Game) -> None:
        """Switch the game: the photo is read again for it (a 101 rack holds
        up to 22 tiles, a classic one 15) and a new round starts."""
        if game is self.game:
            return
        self.game = game
        self.photo = None
        self.set_entries([])
        self.new_round()

    def new_round(self) -> None:
        """A new round: no indicator, turn 1, nothing seen (101: nothing laid, not opened)."""
        self.table_text, self.table_photo, self.table_note = "", "", ""
        self.opened, self.highest = Opened.NO, 0
        self.round = LiveRound()
        self.offered = None
        self.indicator_source = IndicatorSource.NONE
        self.indicator_read = None
        self.seen_error = ""


__all__ = ["INDICATOR", "KEY", "AppState", "Entry", "IndicatorSource", "Overlay", "TakenPhoto"]
