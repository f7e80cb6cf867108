"""Hearing other processes' commits for the pages (PostgreSQL's LISTEN, bot/storage/commits.py),
on a connection that is opened again when lost (the database restarted, a proxy dropped it):
checked every CHECK_EVERY seconds. Once listening again, every watched match's version is read
once, since commits made while deaf were not heard."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable
from typing import Any

log = logging.getLogger(__name__)

CHECK_EVERY = 10.0  # seconds


class Listening:
    """The store's commit listener kept open for `heard` (and `pages_off`); `caught_up` is
    called after a reopening (the hub's watched matches read again)."""

    def __init__(self, store: Any, heard: Callable[[int], None], caught_up: Callable[[], None],
                 wait: Callable[[float], Awaitable[Any]] = asyncio.sleep,
                 pages_off: Callable[[int], None] | None = None) -> None:
        self.store = store
        self.heard = heard
        self.pages_off = pages_off
        self.caught_up = caught_up
        self.wait = wait
        self.listener: Any = None
        self._task: asyncio.Task[None] | None = None

    async def start(self) -> None:
        """Listen now (a failure stops start-up: the database is unreachable), then keep it."""
        self.listener = await self.store.listen(self.heard, self.pages_off)
        if self.listener is not None:  # SQLite: one process, nothing to hear
            self._task = asyncio.get_running_loop().create_task(self._keep())

    async def check(self) -> bool:
        """Open the listener again if its connection is lost; whether it listens now."""
        if self.listener is None or self.listener.alive:
            return self.listener is not None
        try:
            await self.listener.close()
            self.listener = await self.store.listen(self.heard, self.pages_off)
        except Exception as error:  # OSError, asyncpg's own errors: tried again later
            log.warning("the pages cannot hear other processes' commits yet: %s",
                        type(error).__name__)
            return False
        log.info("the pages hear other processes' commits again")
        self.caught_up()
        return True

    async def _keep(self) -> None:
        while True:
            await self.wait(CHECK_EVERY)
            await self.check()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            try:
                await self._task
            except asyncio.CancelledError:
                pass
            self._task = None
        if self.listener is not None:
            await self.listener.close()
            self.listener = None
