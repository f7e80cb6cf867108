"""Hearing other processes' commits: on PostgreSQL each commit that changes a match is announced
with NOTIFY inside its transaction (`StoreBase._announce`), and `listen` hears them."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from bot.storage.base import StoreBase
from bot.storage.database import POSTGRESQL


class CommitStore(StoreBase):
    """Listening to commits (a part of `Store`)."""

    async def listen(self, heard: Callable[[int], None],
                     pages_off: Callable[[int], None] | None = None) -> CommitListener | None:
        """PostgreSQL: call `heard(match_id)` for each match another process's store commits
        a change to (announced with NOTIFY inside the commit), and `pages_off(guild_id)` for
        each server another process turned its web pages off for, on a connection of its own.
        None on SQLite, which one process uses alone."""
        if self.dialect != POSTGRESQL:
            return None
        import asyncpg

        conn = await asyncpg.connect(str(self._location))
        own = f":{self.name}"

        def notified(_conn: Any, _pid: int, _channel: str, payload: str) -> None:
            subject, _, _store = payload.partition(":")
            if payload.endswith(own):
                return
            if subject.isdigit():
                heard(int(subject))
            elif pages_off is not None and subject[:1] == "g" and subject[1:].isdigit():
                pages_off(int(subject[1:]))

        try:
            await conn.add_listener(self.commit_channel, notified)
        except BaseException:
            await conn.close()
            raise
        return CommitListener(conn)


class CommitListener:
    """The connection `Store.listen` hears other processes' commits on."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    @property
    def alive(self) -> bool:
        """False once the connection is lost (the server restarted, say): listen again."""
        return not self._conn.is_closed()

    async def close(self) -> None:
        if not self._conn.is_closed():
            await self._conn.close()
