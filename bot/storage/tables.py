"""Whole tables, to copy one database into another (`gamenight migrate`, bot/storage/copy.py):
every table with its key, and its columns and rows."""

from __future__ import annotations

from typing import Any

from bot.storage.base import StoreBase

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
    "nights": ("id",),
    "night_players": ("night_id", "user_id"),
    "night_tables": ("night_id", "round", "number"),
    "night_log": ("id",),
    "night_settings": ("guild_id",),
    "seasons": ("guild_id", "number"),
    "match_links": ("match_id",),
    "guild_links": ("guild_id",),
    "match_reviews": ("match_id",),
    "match_hints": ("match_id", "version", "seat"),
}
IDENTITIES = {"matches": "id", "moves": "id", "records": "seq", "nights": "id", "night_log": "id"}  # numbered by the database


class TableStore(StoreBase):
    """Whole tables (a part of `Store`)."""

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
