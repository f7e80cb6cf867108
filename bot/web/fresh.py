"""Reads shared by the requests that ask at once, never older than the asking.

At each commit every viewer of a match asks for it again within a few milliseconds. A read
that began before a request arrived may miss the commit that request was told of, so it is
not shared with it: a request arriving while a read of its key is under way waits for the
next read, which begins once that one ends and serves every request that arrived meanwhile.
However many ask, a key has at most one read under way and one waiting.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Awaitable, Callable, Hashable
from typing import Any, Generic, TypeVar

T = TypeVar("T")


class FreshReads(Generic[T]):
    def __init__(self) -> None:
        self._running: dict[Hashable, asyncio.Future[T]] = {}
        self._next: dict[Hashable, asyncio.Future[T]] = {}

    async def read(self, key: Hashable, reader: Callable[[], Awaitable[T]]) -> T:
        """`reader()`'s result, from a read that began after this call (shared)."""
        shared = self._next.get(key)
        if shared is None:
            running = self._running.get(key)
            if running is None:
                shared = self._start(key, reader)
            else:
                shared = self._keep(asyncio.ensure_future(self._after(key, running, reader)))
                self._next[key] = shared
        # shielded: a viewer who leaves does not end the read the others wait for
        return await asyncio.shield(shared)

    def _start(self, key: Hashable, reader: Callable[[], Awaitable[T]]) -> asyncio.Future[T]:
        task = self._keep(asyncio.ensure_future(reader()))
        self._running[key] = task
        task.add_done_callback(lambda done: self._ended(key, done))
        return task

    async def _after(self, key: Hashable, running: asyncio.Future[T],
                     reader: Callable[[], Awaitable[T]]) -> T:
        with contextlib.suppress(BaseException):  # its failure is its own callers'
            await asyncio.shield(running)
        del self._next[key]
        return await self._start(key, reader)

    def _ended(self, key: Hashable, done: asyncio.Future[T]) -> None:
        if self._running.get(key) is done:
            del self._running[key]

    @staticmethod
    def _keep(future: asyncio.Future[Any]) -> asyncio.Future[Any]:
        # every caller may have left: its error is then nobody's, and not worth a warning
        future.add_done_callback(lambda done: done.cancelled() or done.exception())
        return future
