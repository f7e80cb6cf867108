"""What every part of the store stands on: the database, the store's clock and name, its
transactions and reads, and the announcement of each commit to the other processes."""

from __future__ import annotations

import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.storage.database import POSTGRESQL, Connection, Database

COMMIT_CHANNEL = "gamenight_commits"  # PostgreSQL NOTIFY channel (with the schema's name)


class StoreBase:
    """The database that the store's parts share (`Store`, bot/storage/store.py, is them all)."""

    def __init__(self, db: Database, location: str | Path = "") -> None:
        self._db = db
        self._location = location
        self.clock: Callable[[], float] = time.time  # the turn clocks' time (tests set theirs)
        self.name = secrets.token_hex(6)  # this store's tag on the commits it announces
        self.commit_channel = COMMIT_CHANNEL  # PostgreSQL: where commits are announced

    @property
    def dialect(self) -> str:
        return self._db.dialect

    def transaction(self) -> Any:
        """`async with store.transaction() as db`: one write transaction."""
        return self._db.transaction()

    def _reading(self) -> Any:
        """Reads that see one committed state, never half of another coroutine's write."""
        return self._db.reading()

    async def _announce(self, db: Connection, match_id: int) -> None:
        """PostgreSQL: tell every process listening (`listen`) that the match changed, when
        (and only if) this transaction commits. The payload is `<match id>:<store name>`."""
        if self.dialect == POSTGRESQL:
            await db.execute("SELECT pg_notify(?, ?)",
                             (self.commit_channel, f"{match_id}:{self.name}"))

    async def _announce_pages_off(self, db: Connection, guild_id: int) -> None:
        """PostgreSQL: tell every process listening that the server turned its pages off (the
        payload `g<guild id>:<store name>`), so each ends its open streams of them."""
        if self.dialect == POSTGRESQL:
            await db.execute("SELECT pg_notify(?, ?)",
                             (self.commit_channel, f"g{guild_id}:{self.name}"))
