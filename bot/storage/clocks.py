"""Turn clocks (the columns of the open matches that their deadlines follow from), when the bot
was last seen running, and leases: work that one process does for all that share the database."""

from __future__ import annotations

from bot.storage.base import StoreBase
from bot.storage.database import Connection
from bot.storage.delivery import owed_boards
from bot.storage.rows import ClockRow, Downtime


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
        async with self._reading() as db, db.query(CLOCK_ROWS) as cursor:
            return [ClockRow(*row) for row in await cursor.fetchall()]

    async def resume_clocks(self, now: float, down_after: float,
                            finished_lately: float) -> Downtime | None:
        """At a process's start-up: if no process sharing the database was seen alive (a
        heartbeat, a commit) for more than `down_after` seconds before `now`, the whole bot
        was down, and every open match's clocks stood still meanwhile: push them back by the
        downtime and note the bot alive, in one transaction (of processes starting together,
        one does it), and say what changed. Boards owed by a finished match count when it
        ended within `finished_lately` seconds before the downtime. None: some process was
        running (or has just done this)."""
        async with self.transaction() as db:
            await db.lock("alive_at")  # PostgreSQL: processes starting together take turns
            seen = [await db.fetchval("SELECT value FROM bot_state WHERE key = 'alive_at'"),
                    await db.fetchval("SELECT MAX(turn_since) FROM matches")]
            last = max((float(t) for t in seen if t is not None), default=None)
            downtime = None
            if last is not None and now - last > down_after:
                rows = [ClockRow(*row) for row in await db.fetchall(CLOCK_ROWS)]
                moved = [row for row in rows if row.status == "active"
                         and row.turn_seconds is not None and row.turn_since is not None]
                affected = [row.id for row in moved
                            if last < row.turn_since + row.turn_seconds <= now]
                owed = await owed_boards(db, finished_after=last - finished_lately)
                await _pause(db, now - last)
                downtime = Downtime(now - last, tuple(
                    (row.id, row.turn_since + row.turn_seconds + now - last) for row in moved),
                                    tuple(affected), tuple(owed))
            await _mark_alive(db, now)
        return downtime

    async def last_alive(self) -> float | None:
        async with self._reading() as db, db.query(
            "SELECT value FROM bot_state WHERE key = 'alive_at'"
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else float(row["value"])

    async def mark_alive(self, at: float) -> None:
        async with self.transaction() as db:
            await _mark_alive(db, at)

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


CLOCK_ROWS = ("SELECT id, status, version, turn_seconds, lobby_seconds, turn_since, human_at,"
              " reminded FROM matches WHERE status IN ('lobby', 'active')")


async def _pause(db: Connection, seconds: float) -> None:
    """Every open match's clocks stood still for `seconds`."""
    await db.execute(
        "UPDATE matches SET turn_since = turn_since + ?, human_at = human_at + ?"
        " WHERE status IN ('lobby', 'active')", (seconds, seconds))


async def _mark_alive(db: Connection, at: float) -> None:
    await db.execute("INSERT INTO bot_state (key, value) VALUES ('alive_at', ?)"
                     " ON CONFLICT (key) DO UPDATE SET value = excluded.value", (at,))
