"""The one module that speaks SQL: matches, their seats and the append-only move log.

SQLite (a file, the default) or PostgreSQL (a `postgresql://` URL), through bot/storage/database.py:
the same SQL and the same numbered migrations on both. A read never sees a write that is not
committed; every action is committed together with its move-log row, and only if the match
version is still the one it was read at, so of two writers of one match exactly one wins,
whichever process they run in.
"""

from __future__ import annotations

import json
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, NamedTuple

from bot.storage.database import (
    POSTGRESQL, SQLITE, Connection, Database, Duplicate, PostgresDatabase, SqliteDatabase,
    Unavailable, is_url, safe_url,
)
from bot.matches.ratings import ALL_TIME, START, Skill, display, rate, season_of
from games.contests import Contest

MIGRATIONS: tuple[str, ...] = (
    # 1: matches, seats, moves
    """
    CREATE TABLE matches (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        guild_id INTEGER,
        channel_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        status TEXT NOT NULL CHECK (status IN ('lobby', 'active', 'finished', 'cancelled')),
        options TEXT NOT NULL DEFAULT '{}',
        seed INTEGER NOT NULL,
        state TEXT,
        version INTEGER NOT NULL DEFAULT 0,
        creator_id INTEGER NOT NULL,
        invited_id INTEGER,
        lobby_message_id INTEGER,
        board_message_id INTEGER,
        result TEXT,
        created_at TEXT NOT NULL,
        updated_at TEXT NOT NULL
    );
    CREATE UNIQUE INDEX one_open_match_per_channel
        ON matches (channel_id) WHERE status IN ('lobby', 'active');
    CREATE INDEX matches_by_status ON matches (status);
    CREATE TABLE seats (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        kind TEXT NOT NULL DEFAULT 'user' CHECK (kind IN ('user', 'computer')),
        user_id INTEGER,
        name TEXT NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    CREATE TABLE moves (
        id INTEGER PRIMARY KEY AUTOINCREMENT,
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        ply INTEGER NOT NULL,
        seat INTEGER,
        action TEXT NOT NULL,
        created_at TEXT NOT NULL,
        UNIQUE (match_id, ply)
    );
    CREATE TRIGGER moves_are_append_only_update BEFORE UPDATE ON moves
        BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
    CREATE TRIGGER moves_are_append_only_delete BEFORE DELETE ON moves
        BEGIN SELECT RAISE(ABORT, 'the move log is append-only'); END;
    """,
    # 2: which players were told in the channel that their DMs are closed (once per match)
    """
    CREATE TABLE dm_notices (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    """,
    # 3: each player's one live DM per match (hand or rack with its controls), edited in place
    """
    CREATE TABLE live_dms (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        channel_id INTEGER NOT NULL,
        message_id INTEGER NOT NULL,
        version INTEGER NOT NULL,
        prompt INTEGER NOT NULL DEFAULT 0,
        updated_at TEXT NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    """,
    # 4: users who refused a DM (closed DMs), per user and across matches, with the time
    """
    CREATE TABLE dms_closed (
        user_id INTEGER PRIMARY KEY,
        refused_at TEXT NOT NULL
    );
    """,
    # 5: how many DMs in a row each closed-DM user refused (the retry wait doubles each time)
    """
    ALTER TABLE dms_closed ADD COLUMN refusals INTEGER NOT NULL DEFAULT 1;
    CREATE TABLE dm_retries (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        created_at TEXT NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    """,
    # 6: a computer seat's level (easy, normal, hard); NULL for a person
    """
    ALTER TABLE seats ADD COLUMN level TEXT;
    """,
    # 7: turn clocks. Times are seconds since the epoch from the bot's clock. `turn_since`:
    # when the match last changed (the seat to act has had the turn since); `human_at`: when
    # a person last acted; `reminded`: the version whose turn was reminded at half time. A
    # seat is `away` ('away': a computer plays its turns; 'once': this turn only). Servers'
    # defaults, people's reminder choice, and when the bot was last seen running.
    """
    ALTER TABLE matches ADD COLUMN turn_seconds INTEGER;
    ALTER TABLE matches ADD COLUMN on_timeout TEXT NOT NULL DEFAULT 'computer';
    ALTER TABLE matches ADD COLUMN lobby_seconds INTEGER;
    ALTER TABLE matches ADD COLUMN turn_since REAL;
    ALTER TABLE matches ADD COLUMN human_at REAL;
    ALTER TABLE matches ADD COLUMN reminded INTEGER;
    UPDATE matches SET turn_since = CAST(strftime('%s', 'now') AS REAL),
        human_at = CAST(strftime('%s', 'now') AS REAL) WHERE status IN ('lobby', 'active');
    ALTER TABLE seats ADD COLUMN away TEXT;
    CREATE TABLE guild_settings (
        guild_id INTEGER PRIMARY KEY,
        turn_time TEXT,
        on_timeout TEXT,
        lobby_time TEXT
    );
    CREATE TABLE user_settings (
        user_id INTEGER PRIMARY KEY,
        notify INTEGER NOT NULL DEFAULT 1
    );
    CREATE TABLE bot_state (
        key TEXT PRIMARY KEY,
        value REAL NOT NULL
    );
    """,
    # 8: languages. A server's default language, a person's own choice, and the language of
    # the Discord client they last used (to word their DMs when they are not asking).
    """
    ALTER TABLE guild_settings ADD COLUMN language TEXT;
    ALTER TABLE user_settings ADD COLUMN language TEXT;
    ALTER TABLE user_settings ADD COLUMN client_language TEXT;
    """,
    # 9: records. Who made each move (`person`, `computer`, or `clock` for a turn that timed
    # out; NULL before records were kept). `records`: one row per finished match in the order
    # they finished (`seq`), rated or not and why; `results`: each seat's place, score and
    # highlights; `ratings`: openskill's skill per server, game, season (`all` or `2026-Q4`)
    # and person; `rating_changes`: each rated match's all-time change, for the charts.
    """
    ALTER TABLE moves ADD COLUMN actor TEXT;
    CREATE TABLE records (
        seq INTEGER PRIMARY KEY AUTOINCREMENT,
        match_id INTEGER NOT NULL UNIQUE REFERENCES matches (id) ON DELETE CASCADE,
        guild_id INTEGER,
        game TEXT NOT NULL,
        unrated TEXT,
        finished_at TEXT NOT NULL
    );
    CREATE INDEX records_by_guild ON records (guild_id, seq);
    CREATE TABLE results (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        seat INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        guild_id INTEGER,
        game TEXT NOT NULL,
        user_id INTEGER,
        place INTEGER NOT NULL,
        score INTEGER NOT NULL,
        won INTEGER NOT NULL,
        rated INTEGER NOT NULL,
        turns INTEGER NOT NULL,
        seconds REAL NOT NULL,
        highlights TEXT NOT NULL,
        PRIMARY KEY (match_id, seat)
    );
    CREATE INDEX results_by_player ON results (guild_id, user_id, game, seq);
    CREATE TABLE ratings (
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        season TEXT NOT NULL,
        user_id INTEGER NOT NULL,
        name TEXT NOT NULL,
        mu REAL NOT NULL,
        sigma REAL NOT NULL,
        display INTEGER NOT NULL,
        games INTEGER NOT NULL,
        wins INTEGER NOT NULL,
        PRIMARY KEY (guild_id, game, season, user_id)
    );
    CREATE INDEX ratings_board ON ratings (guild_id, game, season, display DESC, games DESC);
    CREATE TABLE rating_changes (
        match_id INTEGER NOT NULL REFERENCES matches (id) ON DELETE CASCADE,
        user_id INTEGER NOT NULL,
        seq INTEGER NOT NULL,
        guild_id INTEGER NOT NULL,
        game TEXT NOT NULL,
        before INTEGER NOT NULL,
        after INTEGER NOT NULL,
        PRIMARY KEY (match_id, user_id)
    );
    CREATE INDEX rating_changes_by_player ON rating_changes (guild_id, game, user_id, seq);
    """,
    # 10: leases. Work that one process does for all that share the database (the turn clocks
    # and the computers' turns: `timekeeper`) belongs to the `owner` of its lease until
    # `expires_at` (seconds since the epoch, the bot's clock); the owner renews it well before
    # then, and once it lapses (its owner died) another process takes it.
    """
    CREATE TABLE leases (
        name TEXT PRIMARY KEY,
        owner TEXT NOT NULL,
        expires_at REAL NOT NULL
    );
    """,
    # 11: the match version the board message (`board_message_id`) shows. Several processes
    # may post a match's boards: a board is recorded only over an older one, so a process can
    # tell that its board came too late (bot/commands/game.py).
    """
    ALTER TABLE matches ADD COLUMN board_version INTEGER;
    """,
    # 12: the server's and channel's names when the match was opened, for DMs worded by a
    # process that does not serve that server (bot/ui/dms.py).
    """
    ALTER TABLE matches ADD COLUMN server_name TEXT;
    ALTER TABLE matches ADD COLUMN channel_name TEXT;
    """,
)

OPEN_STATUSES = ("lobby", "active")
COMMIT_CHANNEL = "gamenight_commits"  # PostgreSQL NOTIFY channel (with the schema's name)

#: Every table with its key, parents before children: the order `gamenight migrate` copies in.
TABLES: dict[str, tuple[str, ...]] = {
    "matches": ("id",),
    "seats": ("match_id", "seat"),
    "moves": ("id",),
    "dm_notices": ("match_id", "seat"),
    "live_dms": ("match_id", "seat"),
    "dms_closed": ("user_id",),
    "dm_retries": ("match_id", "seat"),
    "guild_settings": ("guild_id",),
    "user_settings": ("user_id",),
    "bot_state": ("key",),
    "records": ("seq",),
    "results": ("match_id", "seat"),
    "ratings": ("guild_id", "game", "season", "user_id"),
    "rating_changes": ("match_id", "user_id"),
}
IDENTITIES = {"matches": "id", "moves": "id", "records": "seq"}  # numbered by the database


class StaleVersion(Exception):
    """The match changed between reading it and writing it: another action won the race."""


class ChannelBusy(Exception):
    """The channel already has an open match."""


class StoreUnavailable(Exception):
    """The database file cannot be opened or brought up to date; the message says why."""


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


_now = now_iso


def _dumps(value: Any) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"), sort_keys=True)


# A match's seats as one JSON array of [seat, kind, user_id, name, level, away], so a match and
# its seats are read in one query.
SEATS_JSON = {
    SQLITE: "(SELECT json_group_array(json_array(seat, kind, user_id, name, level, away))"
            " FROM seats WHERE seats.match_id = matches.id)",
    POSTGRESQL: "(SELECT json_agg(json_build_array(seat, kind, user_id, name, level, away))"
                " FROM seats WHERE seats.match_id = matches.id)::text",
}
SAME = {SQLITE: "IS", POSTGRESQL: "IS NOT DISTINCT FROM"}  # equal, NULL included


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


class Store:
    """Owns the database: `await Store.open(path or postgresql:// URL)`, then `close()`."""

    def __init__(self, db: Database, location: str | Path = "") -> None:
        self._db = db
        self._location = location
        self.clock: Callable[[], float] = time.time  # the turn clocks' time (tests set theirs)
        self.name = secrets.token_hex(6)  # this store's tag on the commits it announces
        self.commit_channel = COMMIT_CHANNEL  # PostgreSQL: where commits are announced

    @classmethod
    async def open(cls, location: str | Path) -> Store:
        """The SQLite file at `location`, or the PostgreSQL database its URL names, brought up
        to date by the migrations."""
        try:
            if is_url(location):
                db: Database = await PostgresDatabase.open(str(location))
            else:
                db = await SqliteDatabase.open(location)
        except Unavailable as error:
            raise StoreUnavailable(str(error)) from None
        try:
            await db.migrate(MIGRATIONS)
        except BaseException as error:
            await db.close()  # its worker thread or pool would otherwise keep the process alive
            if isinstance(error, Unavailable):
                raise StoreUnavailable(f"{safe_url(str(location))}: {error}") from None
            raise
        store = cls(db, location)
        if store.dialect == POSTGRESQL:  # NOTIFY channels span the database: one per schema
            async with db.reading() as conn:
                schema = await conn.fetchval("SELECT current_schema()")
            store.commit_channel = f"{COMMIT_CHANNEL}:{schema}"[:63]
        return store

    @property
    def dialect(self) -> str:
        return self._db.dialect

    async def close(self) -> None:
        await self._db.close()

    async def schema_version(self) -> int:
        return await self._db.schema_version()

    def transaction(self) -> Any:
        """`async with store.transaction() as db`: one write transaction."""
        return self._db.transaction()

    def _reading(self) -> Any:
        """Reads that see one committed state, never half of another coroutine's write."""
        return self._db.reading()

    # -- reading -----------------------------------------------------------------------------

    async def get_match(self, match_id: int) -> MatchRow | None:
        return await self._fetch_match("WHERE id = ?", (match_id,))

    async def open_match_in(self, channel_id: int) -> MatchRow | None:
        return await self._fetch_match(
            "WHERE channel_id = ? AND status IN ('lobby', 'active')", (channel_id,))

    async def away_in(self, channel_id: int, user_id: int) -> int | None:
        """The id of the active match in the channel where `user_id` is away, if any: asked
        of every slash command, so one query and no match decoded."""
        async with self._reading() as db:
            return await db.fetchval(
                "SELECT m.id FROM matches m JOIN seats s ON s.match_id = m.id"
                " WHERE m.channel_id = ? AND m.status = 'active' AND s.user_id = ?"
                " AND s.away IS NOT NULL", (channel_id, user_id))

    async def latest_match_in(self, channel_id: int) -> MatchRow | None:
        return await self._fetch_match("WHERE channel_id = ? ORDER BY id DESC LIMIT 1",
                                       (channel_id,))

    async def open_matches(self) -> list[MatchRow]:
        async with self._reading() as db, db.query(
            "SELECT id FROM matches WHERE status IN ('lobby', 'active') ORDER BY id"
        ) as cursor:
            ids = [row["id"] for row in await cursor.fetchall()]
        return [match for match_id in ids if (match := await self.get_match(match_id))]

    async def open_matches_in_guild(self, guild_id: int) -> list[MatchRow]:
        async with self._reading() as db, db.query(
            "SELECT id FROM matches WHERE guild_id = ? AND status IN ('lobby', 'active') "
            "ORDER BY id", (guild_id,)
        ) as cursor:
            ids = [row["id"] for row in await cursor.fetchall()]
        return [match for match_id in ids if (match := await self.get_match(match_id))]

    async def open_counts(self) -> dict[tuple[str, str], int]:
        """How many matches are open, by (game, status): for the operators' metrics."""
        async with self._reading() as db, db.query(
            "SELECT game, status, COUNT(*) AS n FROM matches "
            "WHERE status IN ('lobby', 'active') GROUP BY game, status"
        ) as cursor:
            return {(row["game"], row["status"]): row["n"] for row in await cursor.fetchall()}

    async def moves(self, match_id: int) -> list[MoveRow]:
        async with self._reading() as db, db.query(
            "SELECT ply, seat, action, created_at, actor FROM moves WHERE match_id = ?"
            " ORDER BY ply", (match_id,),
        ) as cursor:
            return [MoveRow(r["ply"], r["seat"], r["action"], r["created_at"], r["actor"])
                    for r in await cursor.fetchall()]

    async def _fetch_match(self, where: str, params: tuple[Any, ...]) -> MatchRow | None:
        """The match `where` picks, with its seats, in one query (one trip)."""
        rows = await self._db.fetch(f"SELECT *, {SEATS_JSON[self.dialect]} AS seats_json"
                                    f" FROM matches {where}", params)
        if not rows:
            return None
        row = rows[0]
        seats = tuple(sorted((SeatRow(*seat) for seat in json.loads(row["seats_json"] or "[]")),
                             key=lambda seat: seat.seat))
        return MatchRow(
            id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
            game=row["game"], status=row["status"], options=_loads(row["options"]) or {},
            seed=row["seed"], state=_loads(row["state"]), version=row["version"],
            creator_id=row["creator_id"], invited_id=row["invited_id"],
            lobby_message_id=row["lobby_message_id"], board_message_id=row["board_message_id"],
            result=_loads(row["result"]), created_at=row["created_at"],
            updated_at=row["updated_at"], seats=seats, turn_seconds=row["turn_seconds"],
            on_timeout=row["on_timeout"], lobby_seconds=row["lobby_seconds"],
            turn_since=row["turn_since"], human_at=row["human_at"], reminded=row["reminded"],
            place=PlaceNames(row["server_name"], row["channel_name"]),
        )

    # -- writing -----------------------------------------------------------------------------

    async def create_match(
        self, *, guild_id: int | None, channel_id: int, game: str, options: dict[str, Any],
        seed: int, creator: SeatRow, invited_id: int | None, clocks: Clocks = Clocks(),
        place: PlaceNames = PlaceNames(),
    ) -> int:
        now, since = _now(), self.clock()
        try:
            async with self.transaction() as db:
                match_id = await db.fetchval(
                    "INSERT INTO matches (guild_id, channel_id, game, status, options, seed,"
                    " creator_id, invited_id, created_at, updated_at, turn_seconds, on_timeout,"
                    " lobby_seconds, turn_since, human_at, server_name, channel_name)"
                    " VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    " RETURNING id",
                    (guild_id, channel_id, game, _dumps(options), seed, creator.user_id,
                     invited_id, now, now, clocks.turn_seconds, clocks.on_timeout,
                     clocks.lobby_seconds, since, since, place.server, place.channel),
                )
                await self._insert_seat(db, match_id, creator)
                await self._announce(db, match_id)
        except Duplicate as err:
            raise ChannelBusy(channel_id) from err
        return int(match_id)

    async def set_seats(self, match_id: int, version: int, seats: list[SeatRow]) -> None:
        """Replace the lobby's seats (join / leave), bumping the version."""
        async with self.transaction() as db:
            await self._bump(db, match_id, version)
            await db.execute("DELETE FROM seats WHERE match_id = ?", (match_id,))
            for seat in seats:
                await self._insert_seat(db, match_id, seat)

    async def start(self, match_id: int, version: int, seats: list[SeatRow],
                    state: dict[str, Any]) -> None:
        """Fix the seat order and store the first state: the lobby becomes an active match."""
        async with self.transaction() as db:
            await self._bump(db, match_id, version, status="active", state=_dumps(state))
            await db.execute("DELETE FROM seats WHERE match_id = ?", (match_id,))
            for seat in seats:
                await self._insert_seat(db, match_id, seat)

    async def record_action(
        self, match_id: int, version: int, *, seat: int | None, action: str,
        state: dict[str, Any], status: str = "active", result: dict[str, Any] | None = None,
        person: bool = False, away: tuple[int, str | None] | None = None,
        actor: str | None = None, record: FinishRecord | None = None,
    ) -> None:
        """Append the action to the move log and store the new state, in one transaction.
        `person`: a person acted (the match is not abandoned); `away`: (seat, its new mark);
        `actor`: who made the move (`person`, `computer`, `clock`); `record`: the finished
        match's results and rating changes, committed with its last action."""
        async with self.transaction() as db:
            extra = {"human_at": self.clock()} if person else {}
            await self._bump(db, match_id, version, status=status, state=_dumps(state),
                             result=_dumps(result), **extra)
            if away is not None:
                await self._set_away(db, match_id, *away)
            await db.execute(
                "INSERT INTO moves (match_id, ply, seat, action, created_at, actor)"
                " SELECT ?, COALESCE(MAX(ply), 0) + 1, ?, ?, ?, ? FROM moves WHERE match_id = ?",
                (match_id, seat, action, _now(), actor, match_id),
            )
            if record is not None:
                await self._write_record(db, match_id, record)

    async def close_match(self, match_id: int, version: int, status: str,
                          result: dict[str, Any] | None = None) -> None:
        async with self.transaction() as db:
            await self._bump(db, match_id, version, status=status, result=_dumps(result))

    async def set_message(self, match_id: int, *, lobby: int | None = None,
                          board: int | None = None) -> None:
        """Remember the lobby or latest board message (not game state: no version bump)."""
        async with self.transaction() as db:
            if lobby is not None:
                await db.execute("UPDATE matches SET lobby_message_id = ? WHERE id = ?",
                                 (lobby, match_id))
            if board is not None:
                await db.execute("UPDATE matches SET board_message_id = ? WHERE id = ?",
                                 (board, match_id))

    async def board(self, match_id: int) -> Board:
        """The match's newest recorded board message and the version it shows."""
        rows = await self._db.fetch(
            "SELECT board_message_id, board_version FROM matches WHERE id = ?", (match_id,))
        return Board(rows[0][0], rows[0][1]) if rows else Board(None, None)

    async def record_board(self, match_id: int, message_id: int, version: int, *,
                           seen: Board | None = None) -> BoardSwap:
        """Record `message_id`, showing the match at `version`, as its newest board unless
        the recorded one shows a newer version: a compare-and-swap across processes. `seen`,
        the board just read, makes it one statement while it is still the recorded one."""
        if seen is not None and (seen.version is None or seen.version <= version):
            same = SAME[self.dialect]
            if await self._db.write(
                    "UPDATE matches SET board_message_id = ?, board_version = ? WHERE id = ?"
                    f" AND board_message_id {same} ? AND board_version {same} ?",
                    (message_id, version, match_id, seen.message_id, seen.version)):
                return BoardSwap(True, seen)
        async with self.transaction() as db:
            await db.lock(f"board:{match_id}")  # PostgreSQL: one swap at a time
            async with db.query(
                "SELECT board_message_id, board_version FROM matches WHERE id = ?", (match_id,)
            ) as cursor:
                row = await cursor.fetchone()
            before = Board(None, None) if row is None else Board(row[0], row[1])
            if before.version is not None and before.version > version:
                return BoardSwap(False, before)
            await db.execute("UPDATE matches SET board_message_id = ?, board_version = ?"
                             " WHERE id = ?", (message_id, version, match_id))
            return BoardSwap(True, before)

    async def dm_notice_sent(self, match_id: int, seat: int) -> bool:
        """Whether `seat` was already told in the channel that its DMs are closed."""
        async with self._reading() as db, db.query(
            "SELECT 1 FROM dm_notices WHERE match_id = ? AND seat = ?", (match_id, seat)
        ) as cursor:
            return await cursor.fetchone() is not None

    async def record_dm_notice(self, match_id: int, seat: int) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO dm_notices (match_id, seat, created_at) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (match_id, seat, _now()))

    async def live_dm(self, match_id: int, seat: int) -> LiveDM | None:
        async with self._reading() as db, db.query(
            "SELECT * FROM live_dms WHERE match_id = ? AND seat = ?", (match_id, seat)
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else _live_dm(row)

    async def live_dms(self, match_id: int) -> list[LiveDM]:
        async with self._reading() as db, db.query(
            "SELECT * FROM live_dms WHERE match_id = ? ORDER BY seat", (match_id,)
        ) as cursor:
            return [_live_dm(row) for row in await cursor.fetchall()]

    async def keep_live_dm(self, dm: LiveDM) -> bool:
        """Make `dm` the seat's live DM, unless one built at a newer version is (False)."""
        return (await self.swap_live_dm(dm)).won

    async def swap_live_dm(self, dm: LiveDM, *, same_message: bool = False) -> LiveSwap:
        """Make `dm` the seat's live DM if the live one was built at its version or an older
        one (and, with `same_message`, is still `dm`'s message: an edit of it): a
        compare-and-swap, so of two processes replacing one live DM at once, each learns which
        DM it replaced, or that it lost and to which."""
        async with self.transaction() as db:
            await db.lock(f"live_dm:{dm.match_id}:{dm.seat}")  # PostgreSQL: one swap at a time
            async with db.query("SELECT * FROM live_dms WHERE match_id = ? AND seat = ?",
                                (dm.match_id, dm.seat)) as cursor:
                row = await cursor.fetchone()
            before = None if row is None else _live_dm(row)
            if before is not None and (before.version > dm.version or (
                    same_message and before.message_id != dm.message_id)):
                return LiveSwap(False, before)
            await db.execute(
                "INSERT INTO live_dms (match_id, seat, channel_id, message_id, version, prompt,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (match_id, seat) DO UPDATE SET channel_id = excluded.channel_id,"
                " message_id = excluded.message_id, version = excluded.version,"
                " prompt = excluded.prompt, updated_at = excluded.updated_at",
                (dm.match_id, dm.seat, dm.channel_id, dm.message_id, dm.version, int(dm.prompt),
                 _now()))
            return LiveSwap(True, before)

    async def forget_live_dm(self, match_id: int, seat: int,
                             message_id: int | None = None) -> None:
        """The seat's live DM (`message_id`, if it is still that one) is gone (deleted):
        nothing to edit any more."""
        async with self.transaction() as db:
            if message_id is None:
                await db.execute("DELETE FROM live_dms WHERE match_id = ? AND seat = ?",
                                 (match_id, seat))
            else:
                await db.execute("DELETE FROM live_dms WHERE match_id = ? AND seat = ?"
                                 " AND message_id = ?", (match_id, seat, message_id))

    async def dms_closed_at(self, user_id: int) -> datetime | None:
        """When a DM to `user_id` was last refused because its DMs are closed (None: never,
        or since cleared)."""
        closed = await self.dms_closed(user_id)
        return None if closed is None else closed.at

    async def dms_closed(self, user_id: int) -> ClosedDMs | None:
        """The user's closed-DM mark: the last refusal and how many came in a row."""
        async with self._reading() as db, db.query(
            "SELECT refused_at, refusals FROM dms_closed WHERE user_id = ?", (user_id,)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        return ClosedDMs(datetime.fromisoformat(row["refused_at"]), row["refusals"])

    async def mark_dms_closed(self, user_id: int, at: datetime) -> None:
        """Record a refused DM; a refusal after an earlier one adds to the count."""
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO dms_closed (user_id, refused_at, refusals) VALUES (?, ?, 1)"
                " ON CONFLICT (user_id) DO UPDATE SET refused_at = excluded.refused_at,"
                " refusals = dms_closed.refusals + 1",
                (user_id, at.isoformat()))

    async def take_dm_retry(self, match_id: int, seat: int) -> bool:
        """Use the seat's one automatic DM retry of the match; False if it was used."""
        async with self.transaction() as db:
            changed = await db.execute(
                "INSERT INTO dm_retries (match_id, seat, created_at) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (match_id, seat, _now()))
            return changed == 1

    async def clear_dms_closed(self, user_id: int) -> None:
        async with self.transaction() as db:
            await db.execute("DELETE FROM dms_closed WHERE user_id = ?", (user_id,))

    async def forget_message(self, match_id: int, message_id: int) -> None:
        """A lobby or board message of the match was deleted: stop pointing at it."""
        async with self.transaction() as db:
            await db.execute("UPDATE matches SET lobby_message_id = NULL"
                             " WHERE id = ? AND lobby_message_id = ?", (match_id, message_id))
            await db.execute("UPDATE matches SET board_message_id = NULL"
                             " WHERE id = ? AND board_message_id = ?", (match_id, message_id))

    async def abandon_match(self, match_id: int) -> bool:
        """Its channel is gone, with its messages: cancel the open match quietly (whatever
        its version) and forget them; True when it was open."""
        async with self.transaction() as db:
            changed = await db.execute(
                "UPDATE matches SET version = version + 1, status = 'cancelled', updated_at = ?,"
                " lobby_message_id = NULL, board_message_id = NULL"
                " WHERE id = ? AND status IN ('lobby', 'active')", (_now(), match_id))
            await self._announce(db, match_id)
            return changed == 1

    async def set_away(self, match_id: int, version: int, seat: int, away: str | None) -> None:
        """Mark a seat away (a computer plays its turns) or back, bumping the version."""
        async with self.transaction() as db:
            await self._bump(db, match_id, version)
            await self._set_away(db, match_id, seat, away)

    async def mark_reminded(self, match_id: int, version: int) -> bool:
        """Note that the turn at `version` was reminded; False if the match moved on, or the
        reminder was already noted (by a deadline that fired twice, or another process)."""
        async with self.transaction() as db:
            changed = await db.execute(
                "UPDATE matches SET reminded = ? WHERE id = ? AND version = ?"
                " AND (reminded IS NULL OR reminded <> ?)",
                (version, match_id, version, version))
            return changed == 1

    async def clock_rows(self) -> list[ClockRow]:
        """The open matches' clock columns only: to arm their deadlines."""
        async with self._reading() as db, db.query(
            "SELECT id, status, version, turn_seconds, lobby_seconds, turn_since, human_at,"
            " reminded FROM matches WHERE status IN ('lobby', 'active')"
        ) as cursor:
            return [ClockRow(*row) for row in await cursor.fetchall()]

    async def pause_clocks(self, seconds: float) -> None:
        """The bot was down for `seconds`: every open match's clocks stood still meanwhile."""
        async with self.transaction() as db:
            await db.execute(
                "UPDATE matches SET turn_since = turn_since + ?, human_at = human_at + ?"
                " WHERE status IN ('lobby', 'active')", (seconds, seconds))

    async def last_alive(self) -> float | None:
        async with self._reading() as db, db.query(
            "SELECT value FROM bot_state WHERE key = 'alive_at'"
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else float(row["value"])

    async def mark_alive(self, at: float) -> None:
        async with self.transaction() as db:
            await db.execute("INSERT INTO bot_state (key, value) VALUES ('alive_at', ?)"
                             " ON CONFLICT (key) DO UPDATE SET value = excluded.value", (at,))

    # -- several processes --------------------------------------------------------------------

    async def take_lease(self, name: str, owner: str, seconds: float) -> bool:
        """Take or renew the lease `name` for `seconds` from now (the store's clock), in one
        statement: `owner` gets it if nobody holds it, it already does, or its holder let it
        lapse. Whether `owner` holds it now."""
        now = self.clock()
        async with self.transaction() as db:
            changed = await db.execute(
                "INSERT INTO leases (name, owner, expires_at) VALUES (?, ?, ?)"
                " ON CONFLICT (name) DO UPDATE SET owner = excluded.owner,"
                " expires_at = excluded.expires_at"
                " WHERE leases.owner = excluded.owner OR leases.expires_at <= ?",
                (name, owner, now + seconds, now))
        return changed == 1

    async def release_lease(self, name: str, owner: str) -> None:
        """Give the lease up at once (a clean stop), if `owner` still holds it."""
        async with self.transaction() as db:
            await db.execute("DELETE FROM leases WHERE name = ? AND owner = ?", (name, owner))

    async def lease(self, name: str) -> tuple[str, float] | None:
        """Who holds the lease `name` and until when (None: nobody ever took it, or it was
        released)."""
        async with self._reading() as db:
            row = await db.fetchone("SELECT owner, expires_at FROM leases WHERE name = ?",
                                    (name,))
        return None if row is None else (row["owner"], float(row["expires_at"]))

    async def computer_matches(self) -> list[int]:
        """The active matches where a computer may have the turn: a computer's seat, or a
        person's that one plays while they are away."""
        async with self._reading() as db:
            rows = await db.fetchall(
                "SELECT DISTINCT m.id FROM matches m JOIN seats s ON s.match_id = m.id"
                " WHERE m.status = 'active' AND (s.kind = 'computer' OR s.away IS NOT NULL)"
                " ORDER BY m.id")
        return [row["id"] for row in rows]

    async def listen(self, heard: Callable[[int], None]) -> CommitListener | None:
        """PostgreSQL: call `heard(match_id)` for each match another process's store commits
        a change to (announced with NOTIFY inside the commit), on a connection of its own.
        None on SQLite, which one process uses alone."""
        if self.dialect != POSTGRESQL:
            return None
        import asyncpg

        conn = await asyncpg.connect(str(self._location))
        own = f":{self.name}"

        def notified(_conn: Any, _pid: int, _channel: str, payload: str) -> None:
            match_id, _, _store = payload.partition(":")
            if not payload.endswith(own) and match_id.isdigit():
                heard(int(match_id))

        try:
            await conn.add_listener(self.commit_channel, notified)
        except BaseException:
            await conn.close()
            raise
        return CommitListener(conn)

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        async with self._reading() as db, db.query(
            "SELECT turn_time, on_timeout, lobby_time, language FROM guild_settings"
            " WHERE guild_id = ?", (guild_id,),
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return GuildSettings()
        return GuildSettings(row["turn_time"], row["on_timeout"], row["lobby_time"],
                             row["language"])

    async def set_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, turn_time, on_timeout, lobby_time,"
                " language) VALUES (?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " turn_time = excluded.turn_time, on_timeout = excluded.on_timeout,"
                " lobby_time = excluded.lobby_time, language = excluded.language",
                (guild_id, settings.turn_time, settings.on_timeout, settings.lobby_time,
                 settings.language))

    async def notify(self, user_id: int) -> bool:
        """Whether the person wants turn reminders by DM (yes unless they turned them off)."""
        async with self._reading() as db, db.query(
            "SELECT notify FROM user_settings WHERE user_id = ?", (user_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return row is None or bool(row["notify"])

    async def set_notify(self, user_id: int, on: bool) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO user_settings (user_id, notify) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify",
                (user_id, int(on)))

    async def user_languages(self, user_id: int) -> tuple[str | None, str | None]:
        """A person's chosen language and their Discord client's last seen one (or None)."""
        async with self._reading() as db, db.query(
            "SELECT language, client_language FROM user_settings WHERE user_id = ?", (user_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return (None, None) if row is None else (row["language"], row["client_language"])

    async def set_user_language(self, user_id: int, column: str, language: str | None) -> None:
        """Store a person's `language` (their choice) or `client_language`."""
        if column not in ("language", "client_language"):
            raise ValueError(column)
        async with self.transaction() as db:
            await db.execute(
                f"INSERT INTO user_settings (user_id, {column}) VALUES (?, ?)"
                f" ON CONFLICT (user_id) DO UPDATE SET {column} = excluded.{column}",
                (user_id, language))

    # -- copying between databases (`gamenight migrate`) -------------------------------------

    async def columns(self, table: str) -> list[str]:
        async with self._reading() as db:
            if self.dialect == "sqlite":
                return [row["name"] for row in await db.fetchall(f"PRAGMA table_info({table})")]
            return [row["column_name"] for row in await db.fetchall(
                "SELECT column_name FROM information_schema.columns WHERE table_name = ?"
                " AND table_schema = current_schema() ORDER BY ordinal_position", (table,))]

    async def table_rows(self, table: str, columns: list[str]) -> list[tuple[Any, ...]]:
        """Every row of `table` (`columns` in that order), by its key."""
        names, key = ", ".join(columns), ", ".join(TABLES[table])
        async with self._reading() as db:
            return [tuple(row) for row in await db.fetchall(
                f"SELECT {names} FROM {table} ORDER BY {key}")]

    async def copy_rows(self, table: str, columns: list[str],
                        rows: list[tuple[Any, ...]]) -> int:
        """Insert the rows this database lacks (by key), in one transaction; how many."""
        names, marks = ", ".join(columns), ", ".join("?" * len(columns))
        added = 0
        async with self.transaction() as db:
            for row in rows:
                added += await db.execute(f"INSERT INTO {table} ({names}) VALUES ({marks})"
                                          " ON CONFLICT DO NOTHING", row)
            identity = IDENTITIES.get(table)
            if identity is not None and self.dialect != "sqlite" and rows:
                await db.execute(  # new rows are numbered after the copied ones
                    f"SELECT setval(pg_get_serial_sequence('{table}', '{identity}'),"
                    f" (SELECT MAX({identity}) FROM {table}))")
        return added

    # -- records -----------------------------------------------------------------------------

    async def write_record(self, match_id: int, record: FinishRecord) -> bool:
        """Record a match finished before records were kept; False if it has its record."""
        async with self.transaction() as db:
            async with db.query("SELECT 1 FROM records WHERE match_id = ?",
                                  (match_id,)) as cursor:
                if await cursor.fetchone() is not None:
                    return False
            await self._write_record(db, match_id, record)
            return True

    async def _write_record(self, db: Connection, match_id: int,
                            record: FinishRecord) -> None:
        async with db.query("SELECT guild_id, game FROM matches WHERE id = ?",
                              (match_id,)) as cursor:
            guild_id, game = await cursor.fetchone()
        now = datetime.now(UTC)
        await db.lock(f"ratings:{guild_id}:{game}")  # another process may rate the same people
        seq = await db.fetchval(
            "INSERT INTO records (match_id, guild_id, game, unrated, finished_at)"
            " VALUES (?, ?, ?, ?, ?) RETURNING seq",
            (match_id, guild_id, game, record.unrated, now.isoformat(timespec="milliseconds")))
        rated = record.unrated is None and bool(record.contests)
        for r in record.results:
            await db.execute(
                "INSERT INTO results (match_id, seat, seq, guild_id, game, user_id, place, score,"
                " won, rated, turns, seconds, highlights) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?,"
                " ?, ?, ?)",
                (match_id, r.seat, seq, guild_id, game, r.user_id, r.place, r.score, int(r.won),
                 int(rated and r.user_id is not None), r.turns, r.seconds,
                 _dumps(r.highlights)))
        if not rated:
            return
        users = [r.user_id for r in record.results]
        for season in (ALL_TIME, season_of(now)):
            before = await self._skills(db, guild_id, game, season, users)
            after = rate(before, users, record.contests)
            for r in record.results:
                skill = after[r.user_id]
                await db.execute(
                    "INSERT INTO ratings (guild_id, game, season, user_id, name, mu, sigma,"
                    " display, games, wins) VALUES (?, ?, ?, ?, ?, ?, ?, ?, 1, ?)"
                    " ON CONFLICT (guild_id, game, season, user_id) DO UPDATE SET"
                    " name = excluded.name, mu = excluded.mu, sigma = excluded.sigma,"
                    " display = excluded.display, games = ratings.games + 1,"
                    " wins = ratings.wins + excluded.wins",
                    (guild_id, game, season, r.user_id, r.name, skill.mu, skill.sigma,
                     display(skill), int(r.won)))
                if season == ALL_TIME:
                    await db.execute(
                        "INSERT INTO rating_changes (match_id, user_id, seq, guild_id, game,"
                        " before, after) VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (match_id, r.user_id, seq, guild_id, game,
                         display(before.get(r.user_id, START)), display(skill)))

    @staticmethod
    async def _skills(db: Connection, guild_id: int, game: str, season: str,
                      users: list[int]) -> dict[int, Skill]:
        marks = ", ".join("?" * len(users))
        async with db.query(
            f"SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND game = ?"
            f" AND season = ? AND user_id IN ({marks})", (guild_id, game, season, *users),
        ) as cursor:
            return {row["user_id"]: Skill(row["mu"], row["sigma"])
                    for row in await cursor.fetchall()}

    async def skills(self, guild_id: int, game: str, season: str) -> dict[int, Skill]:
        """Every stored skill of a server's game and season (for the recompute check)."""
        async with self._reading() as db, db.query(
            "SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND game = ?"
            " AND season = ?", (guild_id, game, season),
        ) as cursor:
            return {row["user_id"]: Skill(row["mu"], row["sigma"])
                    for row in await cursor.fetchall()}

    async def recorded(self) -> list[tuple[int, str, int | None, str]]:
        """Every recorded match in the order it finished: (match id, game, server, when)."""
        async with self._reading() as db, db.query(
            "SELECT match_id, game, guild_id, finished_at FROM records ORDER BY seq"
        ) as cursor:
            return [tuple(row) for row in await cursor.fetchall()]

    async def unrecorded_finished(self) -> list[int]:
        """Finished matches without a record (finished before records were kept), oldest first."""
        async with self._reading() as db, db.query(
            "SELECT id FROM matches WHERE status = 'finished' AND id NOT IN"
            " (SELECT match_id FROM records) ORDER BY updated_at, id"
        ) as cursor:
            return [row["id"] for row in await cursor.fetchall()]

    async def leaderboard(self, guild_id: int, game: str, season: str, *, offset: int = 0,
                          limit: int = 10) -> tuple[list[RatingRow], int]:
        """A page of a server's ratings for a game and season, best first, and how many."""
        async with self._reading() as db:
            async with db.query(
                "SELECT user_id, name, display, games, wins, mu, sigma FROM ratings"
                " WHERE guild_id = ? AND game = ? AND season = ?"
                " ORDER BY display DESC, games DESC, user_id LIMIT ? OFFSET ?",
                (guild_id, game, season, limit, offset),
            ) as cursor:
                rows = [RatingRow(*row) for row in await cursor.fetchall()]
            async with db.query(
                "SELECT COUNT(*) FROM ratings WHERE guild_id = ? AND game = ? AND season = ?",
                (guild_id, game, season),
            ) as cursor:
                (total,) = await cursor.fetchone()
        return rows, total

    async def rating(self, guild_id: int, game: str, season: str,
                     user_id: int) -> RatingRow | None:
        async with self._reading() as db, db.query(
            "SELECT user_id, name, display, games, wins, mu, sigma FROM ratings"
            " WHERE guild_id = ? AND game = ? AND season = ? AND user_id = ?",
            (guild_id, game, season, user_id),
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else RatingRow(*row)

    async def rating_path(self, guild_id: int, game: str, user_id: int,
                          limit: int = 100) -> list[int]:
        """A person's all-time rating after each of their last `limit` rated matches, the
        first entry being the rating before them."""
        async with self._reading() as db, db.query(
            "SELECT before, after FROM rating_changes WHERE guild_id = ? AND game = ?"
            " AND user_id = ? ORDER BY seq DESC LIMIT ?", (guild_id, game, user_id, limit),
        ) as cursor:
            rows = list(reversed(await cursor.fetchall()))
        return [rows[0]["before"], *(row["after"] for row in rows)] if rows else []

    async def person_results(self, guild_id: int, user_id: int,
                             game: str | None = None) -> list[ResultRow]:
        """Every stored result of a person in a server (of one game), oldest first."""
        where = "r.guild_id = ? AND r.user_id = ?" + (" AND r.game = ?" if game else "")
        params = (guild_id, user_id, game) if game else (guild_id, user_id)
        return await self._results(f"{where} ORDER BY r.seq", params)

    async def match_results(self, match_id: int) -> list[ResultRow]:
        """A recorded match's results by seat, with the rating changes (empty: no record)."""
        return await self._results("r.match_id = ? ORDER BY r.seat", (match_id,))

    async def _results(self, where: str, params: tuple[Any, ...]) -> list[ResultRow]:
        async with self._reading() as db, db.query(
            "SELECT r.*, s.name, c.finished_at, c.unrated, k.before, k.after FROM results r"
            " JOIN records c ON c.match_id = r.match_id"
            " LEFT JOIN seats s ON s.match_id = r.match_id AND s.seat = r.seat"
            " LEFT JOIN rating_changes k ON k.match_id = r.match_id AND k.user_id = r.user_id"
            f" WHERE {where}", params,
        ) as cursor:
            return [_result(row) for row in await cursor.fetchall()]

    async def history(self, guild_id: int, user_id: int | None = None, *, limit: int = 10,
                      offset: int = 0) -> list[HistoryRow]:
        """A server's most recently finished matches (those `user_id` played), newest first,
        skipping the `offset` newest."""
        params: list[Any] = [guild_id]
        where = "c.guild_id = ?"
        if user_id is not None:
            where += (" AND c.match_id IN (SELECT match_id FROM results WHERE guild_id = ?"
                      " AND user_id = ?)")
            params += [guild_id, user_id]
        async with self._reading() as db, db.query(
            "SELECT c.*, m.channel_id, m.board_message_id FROM records c"
            f" JOIN matches m ON m.id = c.match_id WHERE {where} ORDER BY c.seq DESC"
            " LIMIT ? OFFSET ?", (*params, limit, offset),
        ) as cursor:
            records = await cursor.fetchall()
        rows = []
        for c in records:
            results = tuple(await self.match_results(c["match_id"]))
            rows.append(HistoryRow(c["match_id"], c["seq"], c["game"], c["channel_id"],
                                   c["board_message_id"], c["finished_at"], c["unrated"],
                                   results))
        return rows

    async def open_seats_of(self, user_id: int) -> list[int]:
        """The open matches a person sits in."""
        async with self._reading() as db, db.query(
            "SELECT m.id FROM matches m JOIN seats s ON s.match_id = m.id"
            " WHERE s.user_id = ? AND m.status IN ('lobby', 'active') ORDER BY m.id",
            (user_id,),
        ) as cursor:
            return [row["id"] for row in await cursor.fetchall()]

    async def forget_person(self, user_id: int, pseudonym: int) -> None:
        """Delete a person's name, ratings, stats and settings. Their seats in past matches
        keep their moves (the others' records stand) under `pseudonym`, a negative id no
        Discord user has, with no name."""
        if pseudonym >= 0:
            raise ValueError("a pseudonym is negative")
        async with self.transaction() as db:
            await db.execute("UPDATE seats SET user_id = ?, name = '' WHERE user_id = ?",
                             (pseudonym, user_id))
            await db.execute("UPDATE results SET user_id = ?, highlights = '{}', rated = 0"
                             " WHERE user_id = ?", (pseudonym, user_id))
            await db.execute("UPDATE matches SET creator_id = ? WHERE creator_id = ?",
                             (pseudonym, user_id))
            await db.execute("UPDATE matches SET invited_id = NULL WHERE invited_id = ?",
                             (user_id,))
            for row in await db.fetchall("SELECT id, result FROM matches WHERE result LIKE ?",
                                         (f'%"by":{user_id}%',)):
                result = {**_loads(row["result"]), "by": pseudonym}  # who cancelled it
                await db.execute("UPDATE matches SET result = ? WHERE id = ?",
                                 (_dumps(result), row["id"]))
            for table in ("ratings", "rating_changes", "user_settings", "dms_closed"):
                await db.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))

    @staticmethod
    async def _set_away(db: Connection, match_id: int, seat: int,
                        away: str | None) -> None:
        await db.execute("UPDATE seats SET away = ? WHERE match_id = ? AND seat = ?",
                         (away, match_id, seat))

    async def _bump(self, db: Connection, match_id: int, version: int,
                    **columns: Any) -> None:
        """The next version of the match: its turn clock starts again."""
        columns = {"turn_since": self.clock(), **columns}
        assignments = "".join(f", {name} = ?" for name in columns)
        changed = await db.execute(
            f"UPDATE matches SET version = version + 1, updated_at = ?{assignments}"
            " WHERE id = ? AND version = ?",
            (_now(), *columns.values(), match_id, version),
        )
        if changed != 1:
            raise StaleVersion(match_id)
        await self._announce(db, match_id)

    async def _announce(self, db: Connection, match_id: int) -> None:
        """PostgreSQL: tell every process listening (`listen`) that the match changed, when
        (and only if) this transaction commits. The payload is `<match id>:<store name>`."""
        if self.dialect == POSTGRESQL:
            await db.execute("SELECT pg_notify(?, ?)",
                             (self.commit_channel, f"{match_id}:{self.name}"))

    @staticmethod
    async def _insert_seat(db: Connection, match_id: int, seat: SeatRow) -> None:
        await db.execute(
            "INSERT INTO seats (match_id, seat, kind, user_id, name, level, away)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (match_id, seat.seat, seat.kind, seat.user_id, seat.name, seat.level, seat.away),
        )


class CommitListener:
    """The connection `Store.listen` hears other processes' commits on."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    @property
    def alive(self) -> bool:
        """False once the connection is lost (the server restarted, say): listen again."""
        return not self._conn.is_closed()

    async def close(self) -> None:
        if not self._conn.is_closed():
            await self._conn.close()


def _result(row: Any) -> ResultRow:
    change = None if row["before"] is None else (row["before"], row["after"])
    return ResultRow(row["match_id"], row["seq"], row["seat"], row["user_id"], row["name"] or "",
                     row["place"], row["score"], bool(row["won"]), bool(row["rated"]),
                     row["turns"], row["seconds"], _loads(row["highlights"]),
                     row["finished_at"], row["game"], change, row["unrated"])


def _live_dm(row: Any) -> LiveDM:
    return LiveDM(row["match_id"], row["seat"], row["channel_id"], row["message_id"],
                  row["version"], bool(row["prompt"]))
