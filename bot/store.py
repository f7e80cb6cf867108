"""The one module that speaks SQL: matches, their seats and the append-only move log.

SQLite through aiosqlite in WAL mode with full syncs. Migrations are numbered and tracked
with `PRAGMA user_version`. Every use of the shared connection takes one asyncio lock, so a
transaction issued by one coroutine never interleaves with another's statements and a read
never sees a write that is not committed; every action is committed together with its
move-log row, and only if the match version is still the one it was read at.
"""

from __future__ import annotations

import asyncio
import json
import sqlite3
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import aiosqlite

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
)

OPEN_STATUSES = ("lobby", "active")


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
class MoveRow:
    ply: int
    seat: int | None
    action: str
    created_at: str


def _now() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds")


def _dumps(value: Any) -> str | None:
    return None if value is None else json.dumps(value, separators=(",", ":"), sort_keys=True)


def _loads(text: str | None) -> Any:
    return None if text is None else json.loads(text)


class Store:
    """Owns the SQLite connection. Open with `await Store.open(path)`, close with `close()`."""

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> Store:
        try:
            if str(path) != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            db = await aiosqlite.connect(str(path), isolation_level=None)
        except (OSError, sqlite3.Error) as error:
            raise StoreUnavailable(f"cannot open the database {path}: {error}") from error
        try:
            db.row_factory = aiosqlite.Row
            # First: switching to WAL needs a moment's lock that another process opening the
            # same file (and migrating it) may hold; without a timeout that fails at once.
            await db.execute("PRAGMA busy_timeout = 5000")
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = FULL")  # a commit survives a power cut
            await db.execute("PRAGMA foreign_keys = ON")
            store = cls(db)
            await store._migrate()
        except BaseException as error:
            await db.close()  # its worker thread would otherwise keep the process alive
            if isinstance(error, sqlite3.Error):
                raise StoreUnavailable(f"cannot use the database {path}: {error}") from error
            raise
        return store

    async def close(self) -> None:
        await self._db.close()

    async def schema_version(self) -> int:
        async with self._lock:
            return await self._user_version()

    async def _user_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0])

    async def _migrate(self) -> None:
        for number, script in enumerate(MIGRATIONS, start=1):
            async with self.transaction():
                # Read inside the write transaction: another process may have just migrated.
                if await self._user_version() >= number:
                    continue
                for statement in _statements(script):
                    await self._db.execute(statement)
                await self._db.execute(f"PRAGMA user_version = {number}")

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[aiosqlite.Connection]:
        """One write transaction. The statements run in order on the connection's worker
        thread, so a ROLLBACK queued after a cancelled BEGIN or COMMIT still ends it."""
        async with self._lock:
            try:
                await self._db.execute("BEGIN IMMEDIATE")
                yield self._db
                await self._db.execute("COMMIT")
            except BaseException:
                await self._rollback()
                raise

    async def _rollback(self) -> None:
        try:
            await self._db.execute("ROLLBACK")
        except sqlite3.OperationalError:  # no transaction was open: BEGIN itself failed
            pass

    @asynccontextmanager
    async def _reading(self) -> AsyncIterator[aiosqlite.Connection]:
        """The connection for reads, never in the middle of another coroutine's write."""
        async with self._lock:
            yield self._db

    # -- reading -----------------------------------------------------------------------------

    async def get_match(self, match_id: int) -> MatchRow | None:
        return await self._fetch_match("SELECT * FROM matches WHERE id = ?", (match_id,))

    async def open_match_in(self, channel_id: int) -> MatchRow | None:
        return await self._fetch_match(
            "SELECT * FROM matches WHERE channel_id = ? AND status IN ('lobby', 'active')",
            (channel_id,),
        )

    async def latest_match_in(self, channel_id: int) -> MatchRow | None:
        return await self._fetch_match(
            "SELECT * FROM matches WHERE channel_id = ? ORDER BY id DESC LIMIT 1", (channel_id,)
        )

    async def open_matches(self) -> list[MatchRow]:
        async with self._reading() as db, db.execute(
            "SELECT id FROM matches WHERE status IN ('lobby', 'active') ORDER BY id"
        ) as cursor:
            ids = [row["id"] for row in await cursor.fetchall()]
        return [match for match_id in ids if (match := await self.get_match(match_id))]

    async def open_matches_in_guild(self, guild_id: int) -> list[MatchRow]:
        async with self._reading() as db, db.execute(
            "SELECT id FROM matches WHERE guild_id = ? AND status IN ('lobby', 'active') "
            "ORDER BY id", (guild_id,)
        ) as cursor:
            ids = [row["id"] for row in await cursor.fetchall()]
        return [match for match_id in ids if (match := await self.get_match(match_id))]

    async def open_counts(self) -> dict[tuple[str, str], int]:
        """How many matches are open, by (game, status): for the operators' metrics."""
        async with self._reading() as db, db.execute(
            "SELECT game, status, COUNT(*) AS n FROM matches "
            "WHERE status IN ('lobby', 'active') GROUP BY game, status"
        ) as cursor:
            return {(row["game"], row["status"]): row["n"] for row in await cursor.fetchall()}

    async def moves(self, match_id: int) -> list[MoveRow]:
        async with self._reading() as db, db.execute(
            "SELECT ply, seat, action, created_at FROM moves WHERE match_id = ? ORDER BY ply",
            (match_id,),
        ) as cursor:
            return [MoveRow(r["ply"], r["seat"], r["action"], r["created_at"])
                    for r in await cursor.fetchall()]

    async def _fetch_match(self, sql: str, params: tuple[Any, ...]) -> MatchRow | None:
        async with self._reading() as db:  # both queries see the same committed match
            async with db.execute(sql, params) as cursor:
                row = await cursor.fetchone()
            if row is None:
                return None
            async with db.execute(
                "SELECT seat, kind, user_id, name, level FROM seats WHERE match_id = ?"
                " ORDER BY seat",
                (row["id"],),
            ) as cursor:
                seats = tuple(SeatRow(s["seat"], s["kind"], s["user_id"], s["name"], s["level"])
                              for s in await cursor.fetchall())
        return MatchRow(
            id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
            game=row["game"], status=row["status"], options=_loads(row["options"]) or {},
            seed=row["seed"], state=_loads(row["state"]), version=row["version"],
            creator_id=row["creator_id"], invited_id=row["invited_id"],
            lobby_message_id=row["lobby_message_id"], board_message_id=row["board_message_id"],
            result=_loads(row["result"]), created_at=row["created_at"],
            updated_at=row["updated_at"], seats=seats,
        )

    # -- writing -----------------------------------------------------------------------------

    async def create_match(
        self, *, guild_id: int | None, channel_id: int, game: str, options: dict[str, Any],
        seed: int, creator: SeatRow, invited_id: int | None,
    ) -> int:
        now = _now()
        try:
            async with self.transaction() as db:
                cursor = await db.execute(
                    "INSERT INTO matches (guild_id, channel_id, game, status, options, seed,"
                    " creator_id, invited_id, created_at, updated_at)"
                    " VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?)",
                    (guild_id, channel_id, game, _dumps(options), seed, creator.user_id,
                     invited_id, now, now),
                )
                match_id = cursor.lastrowid
                await self._insert_seat(db, match_id, creator)
        except aiosqlite.IntegrityError as err:
            if "one_open_match_per_channel" in str(err) or "matches.channel_id" in str(err):
                raise ChannelBusy(channel_id) from err
            raise
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
    ) -> None:
        """Append the action to the move log and store the new state, in one transaction."""
        async with self.transaction() as db:
            await self._bump(db, match_id, version, status=status, state=_dumps(state),
                             result=_dumps(result))
            async with db.execute(
                "SELECT COALESCE(MAX(ply), 0) + 1 FROM moves WHERE match_id = ?", (match_id,)
            ) as cursor:
                (ply,) = await cursor.fetchone()
            await db.execute(
                "INSERT INTO moves (match_id, ply, seat, action, created_at)"
                " VALUES (?, ?, ?, ?, ?)",
                (match_id, ply, seat, action, _now()),
            )

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

    async def dm_notice_sent(self, match_id: int, seat: int) -> bool:
        """Whether `seat` was already told in the channel that its DMs are closed."""
        async with self._reading() as db, db.execute(
            "SELECT 1 FROM dm_notices WHERE match_id = ? AND seat = ?", (match_id, seat)
        ) as cursor:
            return await cursor.fetchone() is not None

    async def record_dm_notice(self, match_id: int, seat: int) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT OR IGNORE INTO dm_notices (match_id, seat, created_at) VALUES (?, ?, ?)",
                (match_id, seat, _now()))

    async def live_dm(self, match_id: int, seat: int) -> LiveDM | None:
        async with self._reading() as db, db.execute(
            "SELECT * FROM live_dms WHERE match_id = ? AND seat = ?", (match_id, seat)
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else _live_dm(row)

    async def live_dms(self, match_id: int) -> list[LiveDM]:
        async with self._reading() as db, db.execute(
            "SELECT * FROM live_dms WHERE match_id = ? ORDER BY seat", (match_id,)
        ) as cursor:
            return [_live_dm(row) for row in await cursor.fetchall()]

    async def keep_live_dm(self, dm: LiveDM) -> bool:
        """Make `dm` the seat's live DM, unless one built at a newer version is (False)."""
        async with self.transaction() as db:
            cursor = await db.execute(
                "INSERT INTO live_dms (match_id, seat, channel_id, message_id, version, prompt,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (match_id, seat) DO UPDATE SET channel_id = excluded.channel_id,"
                " message_id = excluded.message_id, version = excluded.version,"
                " prompt = excluded.prompt, updated_at = excluded.updated_at"
                " WHERE live_dms.version <= excluded.version",
                (dm.match_id, dm.seat, dm.channel_id, dm.message_id, dm.version, int(dm.prompt),
                 _now()))
            return cursor.rowcount == 1

    async def forget_live_dm(self, match_id: int, seat: int) -> None:
        """The seat's live DM is gone (deleted): nothing to edit any more."""
        async with self.transaction() as db:
            await db.execute("DELETE FROM live_dms WHERE match_id = ? AND seat = ?",
                             (match_id, seat))

    async def dms_closed_at(self, user_id: int) -> datetime | None:
        """When a DM to `user_id` was last refused because its DMs are closed (None: never,
        or since cleared)."""
        closed = await self.dms_closed(user_id)
        return None if closed is None else closed.at

    async def dms_closed(self, user_id: int) -> ClosedDMs | None:
        """The user's closed-DM mark: the last refusal and how many came in a row."""
        async with self._reading() as db, db.execute(
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
            cursor = await db.execute(
                "INSERT OR IGNORE INTO dm_retries (match_id, seat, created_at) VALUES (?, ?, ?)",
                (match_id, seat, _now()))
            return cursor.rowcount == 1

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
            cursor = await db.execute(
                "UPDATE matches SET version = version + 1, status = 'cancelled', updated_at = ?,"
                " lobby_message_id = NULL, board_message_id = NULL"
                " WHERE id = ? AND status IN ('lobby', 'active')", (_now(), match_id))
            return cursor.rowcount == 1

    async def _bump(self, db: aiosqlite.Connection, match_id: int, version: int,
                    **columns: str | None) -> None:
        assignments = "".join(f", {name} = ?" for name in columns)
        cursor = await db.execute(
            f"UPDATE matches SET version = version + 1, updated_at = ?{assignments}"
            " WHERE id = ? AND version = ?",
            (_now(), *columns.values(), match_id, version),
        )
        if cursor.rowcount != 1:
            raise StaleVersion(match_id)

    @staticmethod
    async def _insert_seat(db: aiosqlite.Connection, match_id: int, seat: SeatRow) -> None:
        await db.execute(
            "INSERT INTO seats (match_id, seat, kind, user_id, name, level)"
            " VALUES (?, ?, ?, ?, ?, ?)",
            (match_id, seat.seat, seat.kind, seat.user_id, seat.name, seat.level),
        )


def _live_dm(row: aiosqlite.Row) -> LiveDM:
    return LiveDM(row["match_id"], row["seat"], row["channel_id"], row["message_id"],
                  row["version"], bool(row["prompt"]))


def _statements(script: str) -> list[str]:
    """Split a migration into statements, keeping trigger bodies whole."""
    statements, buffer = [], ""
    for line in script.strip().splitlines():
        buffer += line + "\n"
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    return statements
