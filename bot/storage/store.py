"""The store, the one place that speaks SQL: matches, their seats and the append-only move log,
the messages that show them, turn clocks, leases, settings and records.

SQLite (a file, the default) or PostgreSQL (a `postgresql://` URL), through bot/storage/database.py:
the same SQL and the same numbered migrations (bot/storage/migrations.py) on both. A read never
sees a write that is not committed; every action is committed together with its move-log row,
and only if the match version is still the one it was read at, so of two writers of one match
exactly one wins, whichever process they run in.

`Store` is one class made of one part per kind of data, each in a module of its own over
`StoreBase` (base.py, the database they share): matches.py (matches, seats, the move log),
delivery.py (lobby and board messages, live DMs, closed DMs), clocks.py (turn clocks, leases),
settings.py (servers' and people's settings, languages), records.py (records, ratings, history,
forgetting a person), nights.py (game nights, their tables, seasons), commits.py (hearing
other processes' commits), links.py (the web pages' match tokens), server_links.py (a server
page's token), reviews.py (the coach's reviews, accuracies and hints) and tables.py (whole
tables, for `gamenight migrate`). The rows they read and write are in rows.py, their errors in errors.py.
"""

from __future__ import annotations

from pathlib import Path

from bot.storage.base import COMMIT_CHANNEL
from bot.storage.clocks import ClockStore
from bot.storage.commits import CommitStore
from bot.storage.database import (
    POSTGRESQL, Database, PostgresDatabase, SqliteDatabase, TooNew, Unavailable, is_url,
    safe_url,
)
from bot.storage.delivery import DeliveryStore
from bot.storage.errors import SchemaTooNew, StoreUnavailable
from bot.storage.matches import MatchStore
from bot.storage.migrations import migrate
from bot.storage.nights import NightStore
from bot.storage.records import RecordStore
from bot.storage.settings import SettingsStore
from bot.storage.tables import TableStore
from bot.storage.links import LinkStore
from bot.storage.reviews import ReviewStore
from bot.storage.server_links import ServerLinkStore


class Store(MatchStore, DeliveryStore, ClockStore, SettingsStore, RecordStore, CommitStore,
            TableStore, NightStore, LinkStore, ServerLinkStore, ReviewStore):
    """Owns the database: `await Store.open(path or postgresql:// URL)`, then `close()`."""

    @classmethod
    async def open(cls, location: str | Path) -> Store:
        """The SQLite file at `location`, or the PostgreSQL database its URL names, brought up
        to date by the migrations; `SchemaTooNew` (and nothing changed) when a newer
        Gamenight already brought it further than this one knows."""
        try:
            if is_url(location):
                db: Database = await PostgresDatabase.open(str(location))
            else:
                db = await SqliteDatabase.open(location)
        except Unavailable as error:
            raise StoreUnavailable(str(error)) from None
        try:
            await migrate(db)
        except BaseException as error:
            await db.close()  # its worker thread or pool would otherwise keep the process alive
            if isinstance(error, TooNew):
                raise SchemaTooNew(f"{safe_url(str(location))}: {error}") from None
            if isinstance(error, Unavailable):
                raise StoreUnavailable(f"{safe_url(str(location))}: {error}") from None
            raise
        store = cls(db, location)
        if store.dialect == POSTGRESQL:  # NOTIFY channels span the database: one per schema
            async with db.reading() as conn:
                schema = await conn.fetchval("SELECT current_schema()")
            store.commit_channel = f"{COMMIT_CHANNEL}:{schema}"[:63]
        return store

    async def close(self) -> None:
        await self._db.close()

    async def schema_version(self) -> int:
        return await self._db.schema_version()
