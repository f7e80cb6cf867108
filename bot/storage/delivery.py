"""What shows a match to its players, and whether it reaches them: the lobby and board messages
(a board recorded with the match version it shows), each seat's live DM, and the people whose
DMs are closed."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from bot.storage.base import StoreBase
from bot.storage.database import POSTGRESQL, SQLITE, Connection
from bot.storage.rows import Board, BoardSwap, ClosedDMs, LiveDM, LiveSwap, now_iso

SAME = {SQLITE: "IS", POSTGRESQL: "IS NOT DISTINCT FROM"}  # equal, NULL included


class DeliveryStore(StoreBase):
    """Boards, live DMs and closed DMs (a part of `Store`)."""

    # -- lobby and board messages -------------------------------------------------------------

    async def set_message(self, match_id: int, *, lobby: int | None = None,
                          board: int | None = None) -> None:
        """Remember the lobby or latest board message (not game state: no version bump)."""
        async with self.transaction() as db:
            if lobby is not None:
                await db.execute("UPDATE matches SET lobby_message_id = ? WHERE id = ?",
                                 (lobby, match_id))
            if board is not None:
                await db.execute("UPDATE matches SET board_message_id = ? WHERE id = ?",
                                 (board, match_id))

    async def forget_message(self, match_id: int, message_id: int) -> None:
        """A lobby or board message of the match was deleted: stop pointing at it."""
        async with self.transaction() as db:
            await db.execute("UPDATE matches SET lobby_message_id = NULL"
                             " WHERE id = ? AND lobby_message_id = ?", (match_id, message_id))
            await db.execute("UPDATE matches SET board_message_id = NULL"
                             " WHERE id = ? AND board_message_id = ?", (match_id, message_id))

    async def board(self, match_id: int) -> Board:
        """The match's newest recorded board message and the version it shows."""
        rows = await self._db.fetch(
            "SELECT board_message_id, board_version FROM matches WHERE id = ?", (match_id,))
        return Board(rows[0][0], rows[0][1]) if rows else Board(None, None)

    async def record_board(self, match_id: int, message_id: int, version: int, *,
                           seen: Board | None = None) -> BoardSwap:
        """Record `message_id`, showing the match at `version`, as its newest board unless
        the recorded one shows a newer version: a compare-and-swap across processes. `seen`,
        the board just read, makes it one statement while it is still the recorded one."""
        if seen is not None and (seen.version is None or seen.version <= version):
            same = SAME[self.dialect]
            if await self._db.write(
                    "UPDATE matches SET board_message_id = ?, board_version = ? WHERE id = ?"
                    f" AND board_message_id {same} ? AND board_version {same} ?",
                    (message_id, version, match_id, seen.message_id, seen.version)):
                return BoardSwap(True, seen)
        async with self.transaction() as db:
            await db.lock(f"board:{match_id}")  # PostgreSQL: one swap at a time
            async with db.query(
                "SELECT board_message_id, board_version FROM matches WHERE id = ?", (match_id,)
            ) as cursor:
                row = await cursor.fetchone()
            before = Board(None, None) if row is None else Board(row[0], row[1])
            if before.version is not None and before.version > version:
                return BoardSwap(False, before)
            await db.execute("UPDATE matches SET board_message_id = ?, board_version = ?"
                             " WHERE id = ?", (message_id, version, match_id))
            return BoardSwap(True, before)

    async def owed_boards(self, *, before: float | None = None, after: float | None = None,
                          finished_after: float | None = None) -> list[int]:
        """The matches whose newest recorded board is older than their last change a board
        shows (`board_due`, migration 13): that change was committed but its board never
        posted, as when the process died in between. The open ones, and the finished ones
        whose last change (the final move) came after `finished_after`; committed
        (`turn_since`) before `before` and after `after` when given. In commit order."""
        async with self._reading() as db:
            return await owed_boards(db, before=before, after=after,
                                     finished_after=finished_after)

    # -- live DMs -----------------------------------------------------------------------------

    async def live_dm(self, match_id: int, seat: int) -> LiveDM | None:
        async with self._reading() as db, db.query(
            "SELECT * FROM live_dms WHERE match_id = ? AND seat = ?", (match_id, seat)
        ) as cursor:
            row = await cursor.fetchone()
        return None if row is None else _live_dm(row)

    async def live_dms(self, match_id: int) -> list[LiveDM]:
        async with self._reading() as db, db.query(
            "SELECT * FROM live_dms WHERE match_id = ? ORDER BY seat", (match_id,)
        ) as cursor:
            return [_live_dm(row) for row in await cursor.fetchall()]

    async def keep_live_dm(self, dm: LiveDM) -> bool:
        """Make `dm` the seat's live DM, unless one built at a newer version is (False)."""
        return (await self.swap_live_dm(dm)).won

    async def swap_live_dm(self, dm: LiveDM, *, same_message: bool = False) -> LiveSwap:
        """Make `dm` the seat's live DM if the live one was built at its version or an older
        one (and, with `same_message`, is still `dm`'s message: an edit of it): a
        compare-and-swap, so of two processes replacing one live DM at once, each learns which
        DM it replaced, or that it lost and to which."""
        async with self.transaction() as db:
            await db.lock(f"live_dm:{dm.match_id}:{dm.seat}")  # PostgreSQL: one swap at a time
            async with db.query("SELECT * FROM live_dms WHERE match_id = ? AND seat = ?",
                                (dm.match_id, dm.seat)) as cursor:
                row = await cursor.fetchone()
            before = None if row is None else _live_dm(row)
            if before is not None and (before.version > dm.version or (
                    same_message and before.message_id != dm.message_id)):
                return LiveSwap(False, before)
            await db.execute(
                "INSERT INTO live_dms (match_id, seat, channel_id, message_id, version, prompt,"
                " updated_at) VALUES (?, ?, ?, ?, ?, ?, ?)"
                " ON CONFLICT (match_id, seat) DO UPDATE SET channel_id = excluded.channel_id,"
                " message_id = excluded.message_id, version = excluded.version,"
                " prompt = excluded.prompt, updated_at = excluded.updated_at",
                (dm.match_id, dm.seat, dm.channel_id, dm.message_id, dm.version, int(dm.prompt),
                 now_iso()))
            return LiveSwap(True, before)

    async def forget_live_dm(self, match_id: int, seat: int,
                             message_id: int | None = None) -> None:
        """The seat's live DM (`message_id`, if it is still that one) is gone (deleted):
        nothing to edit any more."""
        async with self.transaction() as db:
            if message_id is None:
                await db.execute("DELETE FROM live_dms WHERE match_id = ? AND seat = ?",
                                 (match_id, seat))
            else:
                await db.execute("DELETE FROM live_dms WHERE match_id = ? AND seat = ?"
                                 " AND message_id = ?", (match_id, seat, message_id))

    # -- closed DMs ---------------------------------------------------------------------------

    async def dm_notice_sent(self, match_id: int, seat: int) -> bool:
        """Whether `seat` was already told in the channel that its DMs are closed."""
        async with self._reading() as db, db.query(
            "SELECT 1 FROM dm_notices WHERE match_id = ? AND seat = ?", (match_id, seat)
        ) as cursor:
            return await cursor.fetchone() is not None

    async def record_dm_notice(self, match_id: int, seat: int) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO dm_notices (match_id, seat, created_at) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (match_id, seat, now_iso()))

    async def dms_closed_at(self, user_id: int) -> datetime | None:
        """When a DM to `user_id` was last refused because its DMs are closed (None: never,
        or since cleared)."""
        closed = await self.dms_closed(user_id)
        return None if closed is None else closed.at

    async def dms_closed(self, user_id: int) -> ClosedDMs | None:
        """The user's closed-DM mark: the last refusal and how many came in a row."""
        async with self._reading() as db, db.query(
            "SELECT refused_at, refusals FROM dms_closed WHERE user_id = ?", (user_id,)
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return None
        return ClosedDMs(datetime.fromisoformat(row["refused_at"]), row["refusals"])

    async def mark_dms_closed(self, user_id: int, at: datetime) -> None:
        """Record a refused DM; a refusal after an earlier one adds to the count."""
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO dms_closed (user_id, refused_at, refusals) VALUES (?, ?, 1)"
                " ON CONFLICT (user_id) DO UPDATE SET refused_at = excluded.refused_at,"
                " refusals = dms_closed.refusals + 1",
                (user_id, at.isoformat()))

    async def take_dm_retry(self, match_id: int, seat: int) -> bool:
        """Use the seat's one automatic DM retry of the match; False if it was used."""
        async with self.transaction() as db:
            changed = await db.execute(
                "INSERT INTO dm_retries (match_id, seat, created_at) VALUES (?, ?, ?)"
                " ON CONFLICT DO NOTHING",
                (match_id, seat, now_iso()))
            return changed == 1

    async def clear_dms_closed(self, user_id: int) -> None:
        async with self.transaction() as db:
            await db.execute("DELETE FROM dms_closed WHERE user_id = ?", (user_id,))


def _live_dm(row: Any) -> LiveDM:
    return LiveDM(row["match_id"], row["seat"], row["channel_id"], row["message_id"],
                  row["version"], bool(row["prompt"]))


async def owed_boards(db: Connection, *, before: float | None = None,
                      after: float | None = None, finished_after: float | None = None
                      ) -> list[int]:
    """`DeliveryStore.owed_boards`, read on `db` (inside another transaction, too)."""
    where = ["(status = 'active'" + (
        "" if finished_after is None else " OR (status = 'finished' AND turn_since > ?)") + ")",
        "board_due IS NOT NULL AND (board_version IS NULL OR board_version < board_due)"]
    params: list[float] = [] if finished_after is None else [finished_after]
    if before is not None:
        where.append("turn_since < ?")
        params.append(before)
    if after is not None:
        where.append("turn_since > ?")
        params.append(after)
    rows = await db.fetchall(f"SELECT id FROM matches WHERE {' AND '.join(where)}"
                             " ORDER BY turn_since, id", tuple(params))
    return [row["id"] for row in rows]
