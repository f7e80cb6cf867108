"""Turn clocks (the columns of the open matches that their deadlines follow from), when the bot
was last seen running, and leases: work that one process does for all that share the database."""

from __future__ import annotations

from bot.storage.base import StoreBase
from bot.storage.rows import ClockRow


class ClockStore(StoreBase):
    """Clocks and leases (a part of `Store`)."""

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

    # -- leases -------------------------------------------------------------------------------

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
