"""The coach's rows: each finished match's review (its turns judged, games/review.py), each seat's
accuracy beside its result for `/gamenight stats`, and the hints given in practice games."""

from __future__ import annotations

from typing import Any

from bot.storage.base import StoreBase
from bot.storage.rows import dumps, loads, now_iso


class ReviewStore(StoreBase):
    """Reviews, accuracies and hints (a part of `Store`)."""

    async def review(self, match_id: int, reviewer: int) -> list[dict[str, Any]] | None:
        """The match's judged turns, if reviewed by this `reviewer` version (None: not yet)."""
        async with self._reading() as db:
            rows = await db.fetchall("SELECT reviewer, turns FROM match_reviews"
                                     " WHERE match_id = ?", (match_id,))
        if not rows or rows[0]["reviewer"] != reviewer:
            return None
        return list(loads(rows[0]["turns"]))

    async def save_review(self, match_id: int, reviewer: int, turns: list[dict[str, Any]],
                          accuracy: dict[int, int | None]) -> None:
        """Keep the review (replacing an older reviewer's) and each seat's accuracy."""
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO match_reviews (match_id, reviewer, turns, made_at) VALUES"
                " (?, ?, ?, ?) ON CONFLICT (match_id) DO UPDATE SET reviewer ="
                " excluded.reviewer, turns = excluded.turns, made_at = excluded.made_at",
                (match_id, reviewer, dumps(turns), now_iso()))
            for seat, value in accuracy.items():
                await db.execute("UPDATE results SET accuracy = ? WHERE match_id = ?"
                                 " AND seat = ?", (value, match_id, seat))

    async def unreviewed(self, reviewer: int, games: tuple[str, ...], *,
                         limit: int = 50) -> list[int]:
        """Recently finished matches of `games` with no review by `reviewer`, newest first."""
        if not games:
            return []
        marks = ", ".join("?" for _ in games)
        async with self._reading() as db:
            rows = await db.fetchall(
                "SELECT m.id FROM matches m LEFT JOIN match_reviews r ON r.match_id = m.id"
                f" WHERE m.status = 'finished' AND m.game IN ({marks})"
                " AND (r.match_id IS NULL OR r.reviewer <> ?) ORDER BY m.id DESC LIMIT ?",
                (*games, reviewer, limit))
        return [int(row["id"]) for row in rows]

    async def last_finished(self, channel_id: int, user_id: int) -> int | None:
        """The newest finished match in the channel that the person sat in."""
        async with self._reading() as db:
            found = await db.fetchval(
                "SELECT m.id FROM matches m JOIN seats s ON s.match_id = m.id"
                " WHERE m.channel_id = ? AND s.user_id = ? AND m.status = 'finished'"
                " ORDER BY m.id DESC LIMIT 1", (channel_id, user_id))
        return None if found is None else int(found)

    async def accuracy_by_game(self, guild_id: int, user_id: int) -> dict[str, tuple[float, int]]:
        """A person's mean accuracy in a server per game, and over how many matches."""
        async with self._reading() as db:
            rows = await db.fetchall(
                "SELECT game, AVG(accuracy) AS mean, COUNT(accuracy) AS n FROM results"
                " WHERE guild_id = ? AND user_id = ? AND accuracy IS NOT NULL GROUP BY game",
                (guild_id, user_id))
        return {row["game"]: (float(row["mean"]), int(row["n"])) for row in rows}

    async def record_hint(self, match_id: int, version: int, seat: int, move: str) -> None:
        """A hint was shown to `seat` at the match's `version`."""
        async with self.transaction() as db:
            await db.execute("INSERT INTO match_hints (match_id, version, seat, move, at)"
                             " VALUES (?, ?, ?, ?, ?) ON CONFLICT DO NOTHING",
                             (match_id, version, seat, move, now_iso()))

    async def hinted(self, match_id: int) -> bool:
        async with self._reading() as db:
            return await db.fetchval("SELECT 1 FROM match_hints WHERE match_id = ? LIMIT 1",
                                     (match_id,)) is not None
