"""Matches, their seats and the append-only move log. Every change of a match's game bumps its
version, and is committed only if the version is still the one it was read at (`StaleVersion`)."""

from __future__ import annotations

import json
from typing import Any

from bot.storage.base import StoreBase
from bot.storage.database import POSTGRESQL, SQLITE, Connection, Duplicate
from bot.storage.errors import ChannelBusy, StaleVersion
from bot.storage.records import add_record
from bot.storage.rows import (
    Clocks, FinishRecord, MatchRow, MoveRow, PlaceNames, SeatRow, dumps, loads, now_iso,
)

OPEN_STATUSES = ("lobby", "active")

# A match's seats as one JSON array of [seat, kind, user_id, name, level, away], so a match and
# its seats are read in one query.
SEATS_JSON = {
    SQLITE: "(SELECT json_group_array(json_array(seat, kind, user_id, name, level, away))"
            " FROM seats WHERE seats.match_id = matches.id)",
    POSTGRESQL: "(SELECT json_agg(json_build_array(seat, kind, user_id, name, level, away))"
                " FROM seats WHERE seats.match_id = matches.id)::text",
}


class MatchStore(StoreBase):
    """Matches, seats and moves (a part of `Store`)."""

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

    async def computer_matches(self) -> list[int]:
        """The active matches where a computer may have the turn: a computer's seat, or a
        person's that one plays while they are away."""
        async with self._reading() as db:
            rows = await db.fetchall(
                "SELECT DISTINCT m.id FROM matches m JOIN seats s ON s.match_id = m.id"
                " WHERE m.status = 'active' AND (s.kind = 'computer' OR s.away IS NOT NULL)"
                " ORDER BY m.id")
        return [row["id"] for row in rows]

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
            game=row["game"], status=row["status"], options=loads(row["options"]) or {},
            seed=row["seed"], state=loads(row["state"]), version=row["version"],
            creator_id=row["creator_id"], invited_id=row["invited_id"],
            lobby_message_id=row["lobby_message_id"], board_message_id=row["board_message_id"],
            result=loads(row["result"]), created_at=row["created_at"],
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
        now, since = now_iso(), self.clock()
        try:
            async with self.transaction() as db:
                match_id = await db.fetchval(
                    "INSERT INTO matches (guild_id, channel_id, game, status, options, seed,"
                    " creator_id, invited_id, created_at, updated_at, turn_seconds, on_timeout,"
                    " lobby_seconds, turn_since, human_at, server_name, channel_name)"
                    " VALUES (?, ?, ?, 'lobby', ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)"
                    " RETURNING id",
                    (guild_id, channel_id, game, dumps(options), seed, creator.user_id,
                     invited_id, now, now, clocks.turn_seconds, clocks.on_timeout,
                     clocks.lobby_seconds, since, since, place.server, place.channel),
                )
                await self._insert_seat(db, match_id, creator)
                await self._announce(db, match_id)
        except Duplicate as err:
            raise ChannelBusy(channel_id) from err
        return int(match_id)

    async def create_table_match(
        self, *, guild_id: int, channel_id: int, game: str, options: dict[str, Any], seed: int,
        seats: list[SeatRow], state: dict[str, Any], clocks: Clocks, place: PlaceNames,
        table: tuple[int, int, int],
    ) -> int:
        """A match that starts at once with its `seats` (a game night's table: `table` is its
        night, round and number, which it is linked to in the same transaction)."""
        now, since = now_iso(), self.clock()
        try:
            async with self.transaction() as db:
                match_id = await db.fetchval(
                    "INSERT INTO matches (guild_id, channel_id, game, status, options, seed,"
                    " state, version, creator_id, created_at, updated_at, turn_seconds,"
                    " on_timeout, lobby_seconds, turn_since, human_at, server_name,"
                    " channel_name, board_due)"
                    " VALUES (?, ?, ?, 'active', ?, ?, ?, 1, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, 1)"
                    " RETURNING id",
                    (guild_id, channel_id, game, dumps(options), seed, dumps(state),
                     seats[0].user_id or 0, now, now, clocks.turn_seconds, clocks.on_timeout,
                     clocks.lobby_seconds, since, since, place.server, place.channel),
                )
                for seat in seats:
                    await self._insert_seat(db, match_id, seat)
                await db.execute(
                    "UPDATE night_tables SET match_id = ?, thread_id = ?, status = 'playing'"
                    " WHERE night_id = ? AND round = ? AND number = ?",
                    (match_id, channel_id, *table))
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
            await self._bump(db, match_id, version, status="active", state=dumps(state),
                             board_due=version + 1)
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
            await self._bump(db, match_id, version, status=status, state=dumps(state),
                             result=dumps(result), board_due=version + 1, **extra)
            if away is not None:
                await self._set_away(db, match_id, *away)
            await db.execute(
                "INSERT INTO moves (match_id, ply, seat, action, created_at, actor)"
                " SELECT ?, COALESCE(MAX(ply), 0) + 1, ?, ?, ?, ? FROM moves WHERE match_id = ?",
                (match_id, seat, action, now_iso(), actor, match_id),
            )
            if record is not None:
                await add_record(db, match_id, record)

    async def close_match(self, match_id: int, version: int, status: str,
                          result: dict[str, Any] | None = None) -> None:
        async with self.transaction() as db:
            await self._bump(db, match_id, version, status=status, result=dumps(result))

    async def abandon_match(self, match_id: int) -> bool:
        """Its channel is gone, with its messages: cancel the open match quietly (whatever
        its version) and forget them; True when it was open."""
        async with self.transaction() as db:
            changed = await db.execute(
                "UPDATE matches SET version = version + 1, status = 'cancelled', updated_at = ?,"
                " lobby_message_id = NULL, board_message_id = NULL"
                " WHERE id = ? AND status IN ('lobby', 'active')", (now_iso(), match_id))
            await self._announce(db, match_id)
            return changed == 1

    async def replace_seat(self, match_id: int, version: int, seat: int, user_id: int,
                           name: str) -> None:
        """Another person takes the seat (a game night's substitute), bumping the version; the
        seat's DMs are forgotten, so its hand goes to the new player, never to the old."""
        async with self.transaction() as db:
            await self._bump(db, match_id, version)
            await db.execute("UPDATE seats SET user_id = ?, name = ?, away = NULL"
                             " WHERE match_id = ? AND seat = ?", (user_id, name, match_id, seat))
            for table in ("live_dms", "dm_notices", "dm_retries"):  # the old player's DMs
                await db.execute(f"DELETE FROM {table} WHERE match_id = ? AND seat = ?",
                                 (match_id, seat))

    async def set_away(self, match_id: int, version: int, seat: int, away: str | None) -> None:
        """Mark a seat away (a computer plays its turns) or back, bumping the version."""
        async with self.transaction() as db:
            await self._bump(db, match_id, version)
            await self._set_away(db, match_id, seat, away)

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
            (now_iso(), *columns.values(), match_id, version),
        )
        if changed != 1:
            raise StaleVersion(match_id)
        await self._announce(db, match_id)

    @staticmethod
    async def _insert_seat(db: Connection, match_id: int, seat: SeatRow) -> None:
        await db.execute(
            "INSERT INTO seats (match_id, seat, kind, user_id, name, level, away)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (match_id, seat.seat, seat.kind, seat.user_id, seat.name, seat.level, seat.away),
        )
