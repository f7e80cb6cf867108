"""The two databases the store runs on, behind one small interface.

SQLite (the default): one file, one aiosqlite connection shared under an asyncio lock, each
write a `BEGIN IMMEDIATE` transaction. PostgreSQL (`postgresql://...`): an asyncpg pool, each
write a transaction on a connection of its own, each multi-statement read a repeatable-read
snapshot. The store's SQL is written once with `?` placeholders; the PostgreSQL side numbers
them (`$1`, `$2`...) and its migrations are the same scripts with the types PostgreSQL needs
(the store's modules keep the SQL, bot/storage/migrations.py the migrations; this module only
carries them).
"""

from __future__ import annotations

import asyncio
import re
import sqlite3
import zlib
from abc import ABC, abstractmethod
from collections.abc import AsyncIterator, Callable, Iterator, Sequence
from contextlib import asynccontextmanager, contextmanager
from functools import lru_cache
from pathlib import Path
from typing import Any

import aiosqlite

from bot.storage.errors import StoreOutage

SQLITE, POSTGRESQL = "sqlite", "postgresql"
URL_SCHEMES = ("postgresql://", "postgres://")


class Unavailable(Exception):
    """The database cannot be reached or brought up to date; the message says why."""


class TooNew(Unavailable):
    """The schema's version is above every migration this code knows: a newer Gamenight
    brought it up to date, and this one must not write to it."""


def check_known(version: int, known: int) -> None:
    """Refuse (before touching anything) a schema newer than the `known` migrations."""
    if version > known:
        raise TooNew(f"the database's schema is at version {version}, newer than this Gamenight "
                     f"knows ({known}): a newer release upgraded it")


class Duplicate(Exception):
    """A write broke a unique constraint (e.g. a second open match in a channel)."""


@contextmanager
def unique_is_duplicate(error_type: type[Exception]) -> Iterator[None]:
    """A driver's unique-constraint error as `Duplicate`."""
    try:
        yield
    except error_type as error:
        if error_type is sqlite3.IntegrityError and "UNIQUE" not in str(error):
            raise
        raise Duplicate(str(error)) from error


@contextmanager
def outage_said(is_outage: Callable[[BaseException], bool]) -> Iterator[None]:
    """A driver's error that means "not now" (a full disk, a server out of reach) as
    `StoreOutage`; any other error as it is."""
    try:
        yield
    except StoreOutage:
        raise
    except Exception as error:
        if is_outage(error):
            raise StoreOutage(f"{type(error).__name__}: {error}") from error
        raise


# SQLite's primary result codes for a write the disk or the file lock refused just now.
SQLITE_OUTAGES = frozenset({sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR, sqlite3.SQLITE_BUSY,
                            sqlite3.SQLITE_LOCKED})


def sqlite_outage(error: BaseException) -> bool:
    code = getattr(error, "sqlite_errorcode", None)
    return isinstance(error, sqlite3.Error) and code is not None and code & 0xFF in SQLITE_OUTAGES


def postgres_outage(error: BaseException) -> bool:
    """The server is gone, restarting, refusing connections or out of disk (class 08, 53, 57
    and asyncpg's lost-connection errors)."""
    import asyncpg

    return isinstance(error, (OSError, asyncio.TimeoutError, asyncpg.PostgresConnectionError,
                              asyncpg.InterfaceError, asyncpg.InsufficientResourcesError,
                              asyncpg.OperatorInterventionError))


def is_url(location: str | Path) -> bool:
    return str(location).startswith(URL_SCHEMES)


class Rows:
    """A query's rows, read as from a cursor."""

    def __init__(self, rows: list[Any]) -> None:
        self._rows = rows

    async def fetchall(self) -> list[Any]:
        return self._rows

    async def fetchone(self) -> Any | None:
        return self._rows[0] if self._rows else None


class Connection(ABC):
    """One connection inside a transaction (or a read snapshot)."""

    @abstractmethod
    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run a statement; how many rows it changed."""

    @abstractmethod
    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """Rows that read by column name (`row["id"]`) or position, and unpack as tuples."""

    @asynccontextmanager
    async def query(self, sql: str, params: Sequence[Any] = ()) -> AsyncIterator[Rows]:
        """`async with conn.query(sql, params) as rows`: then `await rows.fetchall()`."""
        yield Rows(await self.fetchall(sql, params))

    async def fetchone(self, sql: str, params: Sequence[Any] = ()) -> Any | None:
        rows = await self.fetchall(sql, params)
        return rows[0] if rows else None

    async def fetchval(self, sql: str, params: Sequence[Any] = ()) -> Any:
        row = await self.fetchone(sql, params)
        return None if row is None else row[0]

    @abstractmethod
    async def lock(self, key: str) -> None:
        """Hold `key` until the transaction ends: writers of the same key take turns."""


class Database(ABC):
    dialect: str

    @abstractmethod
    def transaction(self) -> Any:
        """`async with db.transaction() as conn`: one write transaction."""

    @abstractmethod
    def reading(self) -> Any:
        """`async with db.reading() as conn`: reads that see one committed state."""

    @abstractmethod
    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        """One query on its own: one trip to the database, no transaction around it."""

    @abstractmethod
    async def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        """One statement committed on its own (one trip); how many rows it changed."""

    @abstractmethod
    async def migrate(self, scripts: Sequence[str]) -> None:
        """Run the numbered migration scripts not yet run, each in its transaction."""

    @abstractmethod
    async def schema_version(self) -> int: ...

    async def scrub(self) -> bool:
        """Leave no copy of deleted or overwritten rows in the database's files (SQLite: see
        `SqliteDatabase.scrub`; PostgreSQL's VACUUM is the operator's, README "Backups");
        False if it could not be done now."""
        return True

    @abstractmethod
    async def close(self) -> None: ...


# -- SQLite -------------------------------------------------------------------------------------

class SqliteConnection(Connection):
    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        with unique_is_duplicate(sqlite3.IntegrityError):
            cursor = await self._db.execute(sql, tuple(params))
        return cursor.rowcount

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        # One trip to the database thread (a cursor's execute, fetch and close are three):
        # under load each trip waits its turn for the interpreter lock.
        with unique_is_duplicate(sqlite3.IntegrityError):
            return list(await self._db.execute_fetchall(sql, tuple(params)))

    async def lock(self, key: str) -> None:
        """Nothing to do: SQLite has one writer at a time."""


class SqliteDatabase(Database):
    """One file; every use of the shared connection takes one asyncio lock, so a transaction
    never interleaves with another coroutine's statements."""

    dialect = SQLITE

    def __init__(self, db: aiosqlite.Connection) -> None:
        self._db = db
        self._conn = SqliteConnection(db)
        self._lock = asyncio.Lock()

    @classmethod
    async def open(cls, path: str | Path) -> SqliteDatabase:
        try:
            if str(path) != ":memory:":
                Path(path).parent.mkdir(parents=True, exist_ok=True)
            db = await aiosqlite.connect(str(path), isolation_level=None)
        except (OSError, sqlite3.Error) as error:
            raise Unavailable(f"cannot open the database {path}: {error}") from error
        try:
            db.row_factory = aiosqlite.Row
            # First: switching to WAL needs a moment's lock that another process opening the
            # same file (and migrating it) may hold; without a timeout that fails at once.
            await db.execute("PRAGMA busy_timeout = 5000")
            await db.execute("PRAGMA journal_mode = WAL")
            await db.execute("PRAGMA synchronous = FULL")  # a commit survives a power cut
            await db.execute("PRAGMA foreign_keys = ON")
            await db.execute("PRAGMA secure_delete = ON")  # what is forgotten is overwritten
        except BaseException as error:
            await db.close()  # its worker thread would otherwise keep the process alive
            if isinstance(error, sqlite3.Error):
                raise Unavailable(f"cannot use the database {path}: {error}") from error
            raise
        return cls(db)

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """The statements run in order on the connection's worker thread, so a ROLLBACK queued
        after a cancelled BEGIN or COMMIT still ends it."""
        with outage_said(sqlite_outage):
            async with self._lock:
                try:
                    await self._db.execute("BEGIN IMMEDIATE")
                    yield self._conn
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
    async def reading(self) -> AsyncIterator[Connection]:
        with outage_said(sqlite_outage):
            async with self._lock:
                yield self._conn

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with outage_said(sqlite_outage):
            async with self._lock:
                return await self._conn.fetchall(sql, params)

    async def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        with outage_said(sqlite_outage):
            async with self._lock:  # outside BEGIN, a statement commits on its own
                return await self._conn.execute(sql, params)

    async def migrate(self, scripts: Sequence[str]) -> None:
        """Each script and its version number in one transaction: a process killed half-way
        leaves the database as it was before that script, and the next start runs it again."""
        try:
            for number, script in enumerate(scripts, start=1):
                async with self.transaction() as conn:
                    # Read inside the write transaction: another process may have just migrated.
                    version = await self._user_version()
                    check_known(version, len(scripts))
                    if version >= number:
                        continue
                    for statement in sqlite_statements(script):
                        await conn.execute(statement)
                    await conn.execute(f"PRAGMA user_version = {number}")
        except (sqlite3.Error, StoreOutage) as error:
            raise Unavailable(f"cannot bring the database up to date: {error}") from error

    async def schema_version(self) -> int:
        async with self._lock:
            return await self._user_version()

    async def _user_version(self) -> int:
        async with self._db.execute("PRAGMA user_version") as cursor:
            row = await cursor.fetchone()
        return int(row[0])

    async def scrub(self) -> bool:
        """Copy the WAL's pages into the file and truncate the WAL: until then it keeps the
        pages as they were before a row was changed (secure_delete only zeroes the file's
        freed space). False if a reader of an older snapshot (a backup being copied) kept it
        from finishing: waiting for it would hold up every write."""
        async with self._lock:
            await self._db.execute("PRAGMA busy_timeout = 200")
            try:
                rows = await self._db.execute_fetchall("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.OperationalError:  # busy
                return False
            finally:
                await self._db.execute("PRAGMA busy_timeout = 5000")
        return not list(rows)[0][0]  # (busy, frames in the WAL, frames copied)

    async def close(self) -> None:
        await self._db.close()

    @property
    def raw(self) -> aiosqlite.Connection:
        """The aiosqlite connection itself (tests and PRAGMAs)."""
        return self._db


def sqlite_statements(script: str) -> list[str]:
    """Split a migration into statements, keeping trigger bodies whole."""
    statements, buffer = [], ""
    for line in script.strip().splitlines():
        buffer += line + "\n"
        if sqlite3.complete_statement(buffer):
            statements.append(buffer.strip())
            buffer = ""
    return statements


# -- PostgreSQL ---------------------------------------------------------------------------------

class PostgresConnection(Connection):
    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        import asyncpg

        with unique_is_duplicate(asyncpg.UniqueViolationError):
            status = await self._conn.execute(numbered(sql), *params)
        last = status.rsplit(" ", 1)[-1]
        return int(last) if last.isdigit() else 0

    async def fetchall(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        import asyncpg

        with unique_is_duplicate(asyncpg.UniqueViolationError):
            return list(await self._conn.fetch(numbered(sql), *params))

    async def lock(self, key: str) -> None:
        await self._conn.execute("SELECT pg_advisory_xact_lock($1)", lock_number(key))


class PostgresDatabase(Database):
    """A pool of connections; the database's own locks and the store's version checks keep
    writers apart, so several processes may share it."""

    dialect = POSTGRESQL
    MIGRATION_LOCK = "gamenight: migrations"

    def __init__(self, pool: Any) -> None:
        self._pool = pool

    @classmethod
    async def open(cls, url: str, *, pool_size: int = 10) -> PostgresDatabase:
        import asyncpg

        try:
            pool = await asyncpg.create_pool(url, min_size=1, max_size=pool_size)
        except (OSError, asyncpg.PostgresError, ValueError) as error:
            raise Unavailable(f"cannot reach the PostgreSQL database {safe_url(url)}: "
                              f"{error}") from error
        return cls(pool)

    # A connection the server dropped (a restart) is closed; the pool opens a new one in its
    # place on the next acquire, so once the server is back the next action finds it.

    @asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        with outage_said(postgres_outage):
            async with self._pool.acquire() as conn, conn.transaction():
                yield PostgresConnection(conn)

    @asynccontextmanager
    async def reading(self) -> AsyncIterator[Connection]:
        with outage_said(postgres_outage):
            async with self._pool.acquire() as conn, conn.transaction(
                    isolation="repeatable_read", readonly=True):
                yield PostgresConnection(conn)

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Any]:
        with outage_said(postgres_outage):
            async with self._pool.acquire() as conn:
                return await PostgresConnection(conn).fetchall(sql, params)

    async def write(self, sql: str, params: Sequence[Any] = ()) -> int:
        with outage_said(postgres_outage):
            async with self._pool.acquire() as conn:
                return await PostgresConnection(conn).execute(sql, params)

    async def migrate(self, scripts: Sequence[str]) -> None:
        import asyncpg

        try:
            async with self.transaction() as conn:
                # IF NOT EXISTS is not safe against another process creating it at once.
                await conn.lock(self.MIGRATION_LOCK)
                await conn.execute("CREATE TABLE IF NOT EXISTS schema_version"
                                   " (version BIGINT NOT NULL)")
            for number, script in enumerate(scripts, start=1):
                async with self.transaction() as conn:
                    await conn.lock(self.MIGRATION_LOCK)  # one process migrates at a time
                    version = await self._version(conn)
                    check_known(version, len(scripts))
                    if version >= number:
                        continue
                    await conn.execute(postgres_script(script))
                    await conn.execute("DELETE FROM schema_version")
                    await conn.execute("INSERT INTO schema_version (version) VALUES (?)",
                                       (number,))
        except (asyncpg.PostgresError, StoreOutage) as error:
            raise Unavailable(f"cannot bring the database up to date: {error}") from error

    async def schema_version(self) -> int:
        async with self.reading() as conn:
            return await self._version(conn)

    @staticmethod
    async def _version(conn: Connection) -> int:
        return int(await conn.fetchval("SELECT COALESCE(MAX(version), 0) FROM schema_version"))

    async def close(self) -> None:
        await self._pool.close()


@lru_cache(maxsize=1024)
def numbered(sql: str) -> str:
    """`?` placeholders as PostgreSQL's `$1`, `$2`... (the store's SQL has no `?` in text)."""
    count = 0

    def number(_match: re.Match[str]) -> str:
        nonlocal count
        count += 1
        return f"${count}"

    return re.sub(r"\?", number, sql)


def lock_number(key: str) -> int:
    """A stable 63-bit number for an advisory lock's key."""
    return zlib.crc32(key.encode()) << 31 | zlib.adler32(key.encode()) >> 1


_TYPES = (
    (r"CAST\(strftime\('%s', 'now'\) AS REAL\)", "EXTRACT(EPOCH FROM now())"),
    (r"\bINTEGER PRIMARY KEY AUTOINCREMENT\b",
     "BIGINT GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY"),
    (r"\bINTEGER\b", "BIGINT"),
    (r"\bREAL\b", "DOUBLE PRECISION"),
)
_TRIGGER = re.compile(
    r"CREATE TRIGGER (\w+) BEFORE (UPDATE|DELETE) ON (\w+)\s+"
    r"BEGIN SELECT RAISE\(ABORT, '([^']*)'\); END;")


def postgres_script(script: str) -> str:
    """A migration written for SQLite, as PostgreSQL takes it: 64-bit integers (Discord ids),
    identity columns, double precision, and triggers as PL/pgSQL functions."""
    for pattern, replacement in _TYPES:
        script = re.sub(pattern, replacement, script)
    return _TRIGGER.sub(_postgres_trigger, script)


def _postgres_trigger(found: re.Match[str]) -> str:
    name, event, table, message = found.groups()
    return (f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN "
            f"RAISE EXCEPTION '{message}'; END; $$;\n"
            f"CREATE TRIGGER {name} BEFORE {event} ON {table} "
            f"FOR EACH ROW EXECUTE FUNCTION {name}();")


def safe_url(url: str) -> str:
    """The URL without its password, for messages and logs."""
    return re.sub(r"//([^:/@]+):[^@]*@", r"//\1:***@", url)
