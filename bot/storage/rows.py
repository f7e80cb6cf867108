"""The rows the store reads and writes, as the rest of the bot sees them, and the small helpers
every part of the store shares (times and JSON as the database keeps them)."""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, NamedTuple

from games.contests import Contest


@dataclass(frozen=True)
class SeatRow:
    seat: int
    kind: str
    user_id: int | None
    name: str
    level: str | None = None  # a computer's level; None for a person
    away: str | None = None  # a person whose turns a computer plays: 'away', or 'once'


class PlaceNames(NamedTuple):
    """A match's server and channel by name, as they were when it was opened."""

    server: str | None = None
    channel: str | None = None


@dataclass(frozen=True)
class MatchRow:
    id: int
    guild_id: int | None
    channel_id: int
    game: str
    status: str
    options: dict[str, Any]
    seed: int
    state: dict[str, Any] | None
    version: int
    creator_id: int
    invited_id: int | None
    lobby_message_id: int | None
    board_message_id: int | None
    result: dict[str, Any] | None
    created_at: str
    updated_at: str
    seats: tuple[SeatRow, ...] = field(default=())
    turn_seconds: int | None = None  # the turn clock; None: off
    on_timeout: str = "computer"
    lobby_seconds: int | None = None
    turn_since: float | None = None
    human_at: float | None = None
    reminded: int | None = None
    place: PlaceNames = PlaceNames()


class ClockRow(NamedTuple):
    """What a match's deadlines follow from (the same fields as in `MatchRow`)."""

    id: int
    status: str
    version: int
    turn_seconds: int | None
    lobby_seconds: int | None
    turn_since: float | None
    human_at: float | None
    reminded: int | None


@dataclass(frozen=True)
class Downtime:
    """What `Store.resume_clocks` did after the whole bot was down: for how long the clocks
    stood still, the active matches whose turn deadline moved by it (with the new
    deadline), those whose deadline fell inside it (it would have run out), and those owing
    a board (a change saved, never shown: `Store.owed_boards`), in commit order."""

    seconds: float
    moved: tuple[tuple[int, float], ...] = ()
    affected: tuple[int, ...] = ()
    owed: tuple[int, ...] = ()


@dataclass(frozen=True)
class Clocks:
    """A new match's clock settings (see `MatchRow`)."""

    turn_seconds: int | None = None
    on_timeout: str = "computer"
    lobby_seconds: int | None = None


@dataclass(frozen=True)
class GuildSettings:
    turn_time: str | None = None
    on_timeout: str | None = None
    lobby_time: str | None = None
    language: str | None = None  # a code of i18n.LANGUAGES; None: the server's Discord locale
    web_pages: bool | None = None  # None: match pages only; True: a server page too; False: none


@dataclass(frozen=True)
class ClosedDMs:
    at: datetime  # the last refusal
    refusals: int  # refusals in a row since the mark was last cleared


@dataclass(frozen=True)
class LiveDM:
    """The DM that shows a seat its private view: it was built at match `version`, and
    `prompt` says it was sent as the notice that the seat must act."""

    match_id: int
    seat: int
    channel_id: int
    message_id: int
    version: int
    prompt: bool


@dataclass(frozen=True)
class LiveSwap:
    """What `Store.swap_live_dm` did: whether the DM became live (`won`), and `before`, the
    live DM it replaced (won) or the one that stays live (lost); None: there was none."""

    won: bool
    before: LiveDM | None


@dataclass(frozen=True)
class Board:
    """A match's newest recorded board message and the match version it shows."""

    message_id: int | None
    version: int | None


@dataclass(frozen=True)
class BoardSwap:
    """What `Store.record_board` did: whether the board was recorded (`won`), and `before`,
    the board it replaced (won) or the newer one that stays recorded (lost)."""

    won: bool
    before: Board


@dataclass(frozen=True)
class MoveRow:
    ply: int
    seat: int | None
    action: str
    created_at: str
    actor: str | None = None  # `person`, `computer` or `clock`; None before records were kept


@dataclass(frozen=True)
class SeatResult:
    """One seat's line in a finished match's record."""

    seat: int
    user_id: int | None  # None: a computer
    name: str
    place: int  # 0 first; ties share a place
    score: int
    won: bool
    turns: int  # the person's own moves
    seconds: float  # the time those moves took, in all
    highlights: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class FinishRecord:
    """What a finished match adds to the records, written with its last action."""

    unrated: str | None  # why it does not move ratings (`computer`, `away`, `no_server`)
    results: tuple[SeatResult, ...]
    contests: tuple[Contest, ...]


@dataclass(frozen=True)
class RatingRow:
    user_id: int
    name: str
    display: int
    games: int
    wins: int
    mu: float
    sigma: float


@dataclass(frozen=True)
class ResultRow:
    """A seat's stored result, with the match's finishing order and time."""

    match_id: int
    seq: int
    seat: int
    user_id: int | None
    name: str
    place: int
    score: int
    won: bool
    rated: bool
    turns: int
    seconds: float
    highlights: dict[str, Any]
    finished_at: str
    game: str
    change: tuple[int, int] | None = None  # the all-time rating before and after
    unrated: str | None = None  # why the match moved no rating (None: it did)
    accuracy: int | None = None  # from the coach's review, 0-100 (None: not reviewed)


@dataclass(frozen=True)
class HistoryRow:
    match_id: int
    seq: int
    game: str
    channel_id: int
    board_message_id: int | None
    finished_at: str
    unrated: str | None
    results: tuple[ResultRow, ...]


def now_iso() -> str:
    """Now, as the database keeps times (UTC, ISO 8601, milliseconds)."""
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def dumps(value: Any) -> str | None:
    """A value as the database keeps JSON (None stays None)."""
    return None if value is None else json.dumps(value, separators=(",", ":"), sort_keys=True)


def loads(text: str | None) -> Any:
    """The value of JSON read from the database (None stays None)."""
    return None if text is None else json.loads(text)


# -- game nights (bot/nights/) -----------------------------------------------------------------

@dataclass(frozen=True)
class NightRow:
    """A game night: its plan (`options`: rounds, table size, rated, turn time...), where it
    is (`status`, `round`, the round's deadline) and the Discord things that show it."""

    id: int
    guild_id: int
    channel_id: int
    host_id: int
    game: str
    format: str
    options: dict[str, Any]
    start_at: float
    status: str  # scheduled, checkin, running, finished, cancelled
    paused: bool
    round: int
    round_due: float | None
    seed: int
    event_id: int | None
    card_message_id: int | None
    round_message_id: int | None
    version: int


@dataclass(frozen=True)
class NightPlayer:
    """Someone who signed up for a night (on the card, or Interested on the Discord event)."""

    user_id: int
    name: str
    signed_card: bool = False
    signed_event: bool = False
    opted_out: bool = False  # pressed I'm out (the event's Interested no longer counts)
    checked_in: bool = False
    pinged: bool = False
    state: str = "signed"  # signed, playing, dropping, dropped, withdrawn, removed
    joined_round: int | None = None
    rating: float | None = None

    @property
    def signed_up(self) -> bool:
        return (self.signed_card or self.signed_event) and not self.opted_out


@dataclass(frozen=True)
class NightTable:
    """One table of a round: its players in seat order (a negative id is a computer), and the
    match it became; a bye or a player sitting out is a table of one."""

    round: int
    number: int
    players: tuple[int, ...]
    status: str  # pending, playing, done, bye, out
    thread_id: int | None = None
    match_id: int | None = None
    result: dict[str, Any] | None = None


@dataclass(frozen=True)
class NightSettings:
    time_zone: str | None = None  # an IANA name; None: UTC
    host_role_id: int | None = None  # may host nights beside Manage Events
    permission_told: bool = False  # the host was told once that Create Events is missing


@dataclass(frozen=True)
class Season:
    number: int
    name: str
    started_at: float
    ended_at: float | None
