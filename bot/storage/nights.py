"""Game nights: the night, who signed up, every round's tables and the log of what hosts
overrode; the server's night settings and seasons. A night's changes bump its `version` and are
committed only if it is still the one read (`StaleVersion`), as a match's are."""

from __future__ import annotations

from typing import Any

from bot.storage.base import StoreBase
from bot.storage.database import Connection
from bot.storage.errors import StaleVersion
from bot.storage.rows import (
    NightPlayer, NightRow, NightSettings, NightTable, Season, dumps, loads, now_iso,
)

OPEN_NIGHTS = ("scheduled", "checkin", "running")
PLAYER_COLUMNS = ("name", "signed_card", "signed_event", "opted_out", "checked_in", "pinged",
                  "state", "joined_round", "rating")
TABLE_COLUMNS = ("players", "status", "thread_id", "match_id", "result")


def _night(row: Any) -> NightRow:
    return NightRow(
        id=row["id"], guild_id=row["guild_id"], channel_id=row["channel_id"],
        host_id=row["host_id"], game=row["game"], format=row["format"],
        options=loads(row["options"]) or {}, start_at=row["start_at"], status=row["status"],
        paused=bool(row["paused"]), round=row["round"], round_due=row["round_due"],
        seed=row["seed"], event_id=row["event_id"], card_message_id=row["card_message_id"],
        round_message_id=row["round_message_id"], version=row["version"])


def _player(row: Any) -> NightPlayer:
    return NightPlayer(row["user_id"], row["name"], bool(row["signed_card"]),
                       bool(row["signed_event"]), bool(row["opted_out"]), bool(row["checked_in"]),
                       bool(row["pinged"]), row["state"], row["joined_round"], row["rating"])


def _table(row: Any) -> NightTable:
    return NightTable(row["round"], row["number"], tuple(loads(row["players"])), row["status"],
                      row["thread_id"], row["match_id"], loads(row["result"]))


class NightStore(StoreBase):
    """Game nights, their players and tables; night settings and seasons (a part of `Store`)."""

    # -- nights ------------------------------------------------------------------------------

    async def create_night(self, *, guild_id: int, channel_id: int, host_id: int, game: str,
                           format: str, options: dict[str, Any], start_at: float,
                           seed: int) -> int:
        now = now_iso()
        async with self.transaction() as db:
            night_id = await db.fetchval(
                "INSERT INTO nights (guild_id, channel_id, host_id, game, format, options,"
                " start_at, status, seed, created_at, updated_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, 'scheduled', ?, ?, ?) RETURNING id",
                (guild_id, channel_id, host_id, game, format, dumps(options), start_at, seed,
                 now, now))
        return int(night_id)

    async def get_night(self, night_id: int) -> NightRow | None:
        async with self._reading() as db:
            rows = await db.fetchall("SELECT * FROM nights WHERE id = ?", (night_id,))
        return _night(rows[0]) if rows else None

    async def guild_nights(self, guild_id: int, *, open_only: bool = True) -> list[NightRow]:
        """The server's nights, soonest first (open ones only, unless `open_only` is False:
        then the newest first)."""
        where = " AND status IN ('scheduled', 'checkin', 'running')" if open_only else ""
        order = "start_at, id" if open_only else "start_at DESC, id DESC"
        async with self._reading() as db:
            rows = await db.fetchall(
                f"SELECT * FROM nights WHERE guild_id = ?{where} ORDER BY {order}", (guild_id,))
        return [_night(row) for row in rows]

    async def open_nights(self) -> list[NightRow]:
        async with self._reading() as db:
            rows = await db.fetchall("SELECT * FROM nights WHERE status IN ('scheduled',"
                                     " 'checkin', 'running') ORDER BY id")
        return [_night(row) for row in rows]

    async def update_night(self, night_id: int, version: int, **columns: Any) -> None:
        async with self.transaction() as db:
            await self._bump_night(db, night_id, version, **columns)

    async def _bump_night(self, db: Connection, night_id: int, version: int,
                          **columns: Any) -> None:
        if "options" in columns:
            columns["options"] = dumps(columns["options"])
        if "paused" in columns:
            columns["paused"] = int(columns["paused"])
        assignments = "".join(f", {name} = ?" for name in columns)
        changed = await db.execute(
            f"UPDATE nights SET version = version + 1, updated_at = ?{assignments}"
            " WHERE id = ? AND version = ?", (now_iso(), *columns.values(), night_id, version))
        if changed != 1:
            raise StaleVersion(night_id)

    # -- players -----------------------------------------------------------------------------

    async def night_players(self, night_id: int) -> list[NightPlayer]:
        async with self._reading() as db:
            rows = await db.fetchall("SELECT * FROM night_players WHERE night_id = ?"
                                     " ORDER BY user_id", (night_id,))
        return [_player(row) for row in rows]

    async def put_player(self, night_id: int, user_id: int, name: str, **fields: Any) -> None:
        """Add the player, or change the `fields` given (and their name) if already there."""
        unknown = set(fields) - set(PLAYER_COLUMNS)
        if unknown:
            raise ValueError(unknown)
        values = {k: int(v) if isinstance(v, bool) else v for k, v in fields.items()}
        columns = ["night_id", "user_id", "name", *values]
        marks = ", ".join("?" for _ in columns)
        updates = ", ".join(f"{c} = excluded.{c}" for c in ["name", *values])
        async with self.transaction() as db:
            await db.execute(
                f"INSERT INTO night_players ({', '.join(columns)}) VALUES ({marks})"
                f" ON CONFLICT (night_id, user_id) DO UPDATE SET {updates}",
                (night_id, user_id, name, *values.values()))

    # -- tables ------------------------------------------------------------------------------

    async def night_tables(self, night_id: int) -> list[NightTable]:
        async with self._reading() as db:
            rows = await db.fetchall("SELECT * FROM night_tables WHERE night_id = ?"
                                     " ORDER BY round, number", (night_id,))
        return [_table(row) for row in rows]

    async def start_round(self, night_id: int, version: int, tables: list[NightTable],
                          **columns: Any) -> None:
        """Seat a round: its tables, and the night's new `columns` (round, status...), in one
        transaction. A re-pairing replaces the round's tables (none of them has a match)."""
        async with self.transaction() as db:
            await self._bump_night(db, night_id, version, **columns)
            for round_ in {table.round for table in tables}:
                await db.execute("DELETE FROM night_tables WHERE night_id = ? AND round = ?"
                                 " AND match_id IS NULL", (night_id, round_))
            for table in tables:
                await db.execute(
                    "INSERT INTO night_tables (night_id, round, number, players, status,"
                    " thread_id, match_id, result) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    (night_id, table.round, table.number, dumps(list(table.players)),
                     table.status, table.thread_id, table.match_id, dumps(table.result)))

    async def set_table(self, night_id: int, round_: int, number: int, **fields: Any) -> None:
        unknown = set(fields) - set(TABLE_COLUMNS)
        if unknown:
            raise ValueError(unknown)
        values = {k: dumps(list(v) if k == "players" else v)
                  if k in ("players", "result") else v for k, v in fields.items()}
        assignments = ", ".join(f"{name} = ?" for name in values)
        async with self.transaction() as db:
            await db.execute(
                f"UPDATE night_tables SET {assignments} WHERE night_id = ? AND round = ?"
                " AND number = ?", (*values.values(), night_id, round_, number))

    async def table_of_match(self, match_id: int) -> tuple[int, int, int] | None:
        """(night, round, table number) of the table that `match_id` is, if any."""
        async with self._reading() as db:
            rows = await db.fetchall("SELECT night_id, round, number FROM night_tables"
                                     " WHERE match_id = ?", (match_id,))
        return None if not rows else (rows[0]["night_id"], rows[0]["round"], rows[0]["number"])

    # -- the log -----------------------------------------------------------------------------

    async def log_night(self, night_id: int, at: float, user_id: int | None, action: str,
                        detail: dict[str, Any]) -> None:
        async with self.transaction() as db:
            await db.execute("INSERT INTO night_log (night_id, at, user_id, action, detail)"
                             " VALUES (?, ?, ?, ?, ?)",
                             (night_id, at, user_id, action, dumps(detail)))

    async def night_log(self, night_id: int) -> list[tuple[float, int | None, str,
                                                           dict[str, Any]]]:
        async with self._reading() as db:
            rows = await db.fetchall("SELECT at, user_id, action, detail FROM night_log"
                                     " WHERE night_id = ? ORDER BY id", (night_id,))
        return [(r["at"], r["user_id"], r["action"], loads(r["detail"]) or {}) for r in rows]

    # -- settings and seasons ----------------------------------------------------------------

    async def night_settings(self, guild_id: int) -> NightSettings:
        async with self._reading() as db:
            rows = await db.fetchall("SELECT * FROM night_settings WHERE guild_id = ?",
                                     (guild_id,))
        if not rows:
            return NightSettings()
        row = rows[0]
        return NightSettings(row["time_zone"], row["host_role_id"], bool(row["permission_told"]))

    async def set_night_settings(self, guild_id: int, settings: NightSettings) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO night_settings (guild_id, time_zone, host_role_id, permission_told)"
                " VALUES (?, ?, ?, ?) ON CONFLICT (guild_id) DO UPDATE SET"
                " time_zone = excluded.time_zone, host_role_id = excluded.host_role_id,"
                " permission_told = excluded.permission_told",
                (guild_id, settings.time_zone, settings.host_role_id,
                 int(settings.permission_told)))

    async def seasons(self, guild_id: int) -> list[Season]:
        async with self._reading() as db:
            rows = await db.fetchall("SELECT number, name, started_at, ended_at FROM seasons"
                                     " WHERE guild_id = ? ORDER BY number", (guild_id,))
        return [Season(r["number"], r["name"], r["started_at"], r["ended_at"]) for r in rows]

    async def start_season(self, guild_id: int, name: str, at: float) -> Season:
        """End the open season (if any) and start the next one at `at`."""
        async with self.transaction() as db:
            await db.execute("UPDATE seasons SET ended_at = ? WHERE guild_id = ?"
                             " AND ended_at IS NULL", (at, guild_id))
            number = await db.fetchval("SELECT COALESCE(MAX(number), 0) + 1 FROM seasons"
                                       " WHERE guild_id = ?", (guild_id,))
            await db.execute("INSERT INTO seasons (guild_id, number, name, started_at)"
                             " VALUES (?, ?, ?, ?)", (guild_id, number, name, at))
        return Season(int(number), name, at, None)

    async def end_season(self, guild_id: int, at: float) -> Season | None:
        """End the open season; None when none is open."""
        async with self.transaction() as db:
            rows = await db.fetchall("SELECT number, name, started_at FROM seasons"
                                     " WHERE guild_id = ? AND ended_at IS NULL", (guild_id,))
            if not rows:
                return None
            await db.execute("UPDATE seasons SET ended_at = ? WHERE guild_id = ?"
                             " AND number = ?", (at, guild_id, rows[0]["number"]))
        row = rows[0]
        return Season(row["number"], row["name"], row["started_at"], at)

    async def finished_nights(self, guild_id: int, since: float,
                              until: float | None) -> list[int]:
        """The server's finished nights that started in [since, until)."""
        async with self._reading() as db:
            rows = await db.fetchall(
                "SELECT id FROM nights WHERE guild_id = ? AND status = 'finished'"
                " AND start_at >= ? AND start_at < ? ORDER BY id",
                (guild_id, since, until if until is not None else 1e18))
        return [row["id"] for row in rows]
