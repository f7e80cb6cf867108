"""Records: each finished match's results and rating changes, the ratings they move, leaderboards
and history; and forgetting a person (`/gamenight forget-me`)."""

from __future__ import annotations

import logging
from datetime import UTC, datetime
from typing import Any

from bot.matches.ratings import ALL_TIME, START, Skill, display, rate, season_of
from bot.storage.base import StoreBase
from bot.storage.database import Connection
from bot.storage.rows import FinishRecord, HistoryRow, RatingRow, ResultRow, dumps, loads

log = logging.getLogger(__name__)


class RecordStore(StoreBase):
    """Records, ratings and history (a part of `Store`)."""

    async def write_record(self, match_id: int, record: FinishRecord) -> bool:
        """Record a match finished before records were kept; False if it has its record."""
        async with self.transaction() as db:
            async with db.query("SELECT 1 FROM records WHERE match_id = ?",
                                  (match_id,)) as cursor:
                if await cursor.fetchone() is not None:
                    return False
            await add_record(db, match_id, record)
            return True

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

    # -- forgetting a person ------------------------------------------------------------------

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
                result = {**loads(row["result"]), "by": pseudonym}  # who cancelled it
                await db.execute("UPDATE matches SET result = ? WHERE id = ?",
                                 (dumps(result), row["id"]))
            for table in ("ratings", "rating_changes", "user_settings", "dms_closed"):
                await db.execute(f"DELETE FROM {table} WHERE user_id = ?", (user_id,))
            await forget_in_nights(db, user_id, pseudonym)
        if not await self._db.scrub():  # no old page with the name left in the WAL either
            log.warning("a forgotten person's old rows stay in the WAL until its next "
                        "checkpoint: a reader (a backup being copied) held it")


async def forget_in_nights(db: Connection, user_id: int, pseudonym: int) -> None:
    """A forgotten person in game nights: their name gone, their id the pseudonym wherever it
    stands (their sign-up, the tables they sat at, the host's log), so standings stand."""
    await db.execute("UPDATE night_players SET user_id = ?, name = '' WHERE user_id = ?",
                     (pseudonym, user_id))
    await db.execute("UPDATE nights SET host_id = ? WHERE host_id = ?", (pseudonym, user_id))
    await db.execute("UPDATE night_log SET user_id = ? WHERE user_id = ?", (pseudonym, user_id))
    for row in await db.fetchall("SELECT night_id, round, number, players FROM night_tables"
                                 " WHERE players LIKE ?", (f"%{user_id}%",)):
        players = [pseudonym if p == user_id else p for p in loads(row["players"])]
        await db.execute("UPDATE night_tables SET players = ? WHERE night_id = ? AND round = ?"
                         " AND number = ?", (dumps(players), row["night_id"], row["round"],
                                             row["number"]))


async def add_record(db: Connection, match_id: int, record: FinishRecord) -> None:
    """Add a finished match's record, its seats' results and, if it is rated, the new
    ratings, in the transaction `db` (with its last action, or later: `write_record`)."""
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
             dumps(r.highlights)))
    if not rated:
        return
    users = [r.user_id for r in record.results]
    for season in (ALL_TIME, season_of(now)):
        before = await _skills(db, guild_id, game, season, users)
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


async def _skills(db: Connection, guild_id: int, game: str, season: str,
                  users: list[int]) -> dict[int, Skill]:
    marks = ", ".join("?" * len(users))
    async with db.query(
        f"SELECT user_id, mu, sigma FROM ratings WHERE guild_id = ? AND game = ?"
        f" AND season = ? AND user_id IN ({marks})", (guild_id, game, season, *users),
    ) as cursor:
        return {row["user_id"]: Skill(row["mu"], row["sigma"])
                for row in await cursor.fetchall()}


def _result(row: Any) -> ResultRow:
    change = None if row["before"] is None else (row["before"], row["after"])
    return ResultRow(row["match_id"], row["seq"], row["seat"], row["user_id"], row["name"] or "",
                     row["place"], row["score"], bool(row["won"]), bool(row["rated"]),
                     row["turns"], row["seconds"], loads(row["highlights"]),
                     row["finished_at"], row["game"], change, row["unrated"], row["accuracy"])
