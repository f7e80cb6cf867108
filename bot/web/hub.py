"""Who watches which match, to wake their event streams at each commit.

A watcher holds no queue: only the newest version it has not yet sent and an event to wake
its stream. However slow a client, it costs one slot; it skips to the newest version, which
is all a page needs (it fetches the match as it is then). A reconnecting page says the last
version it saw (the event id) and is sent the current one if that is newer.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable


class Watcher:
    """One stream's slot. Waiting costs one future and one timer, no task: a thousand open
    streams are a thousand of these."""

    __slots__ = ("version", "closed", "_woken", "_waiter")

    def __init__(self) -> None:
        self.version: int | None = None  # the newest version not yet sent
        self.closed = False
        self._woken = False
        self._waiter: asyncio.Future[None] | None = None

    def tell(self, version: int) -> None:
        if self.version is None or version > self.version:
            self.version = version
        self._wake()

    def close(self) -> None:
        self.closed = True
        self._wake()

    def _wake(self) -> None:
        self._woken = True
        if self._waiter is not None:
            _settle(self._waiter)

    async def next(self, timeout: float) -> int | None:
        """The newest version once there is one (None after `timeout` seconds, or closed)."""
        if not self._woken:
            loop = asyncio.get_running_loop()
            waiter = self._waiter = loop.create_future()
            timer = loop.call_later(timeout, _settle, waiter)
            try:
                await waiter
            finally:
                timer.cancel()
                self._waiter = None
            if not self._woken:
                return None  # the time is up
        self._woken = False
        version, self.version = self.version, None
        return None if self.closed else version


def _settle(waiter: asyncio.Future[None]) -> None:
    if not waiter.done():
        waiter.set_result(None)


class Hub:
    """Watchers by match id. `changed` is called with each commit of this process (the match
    service's `on_commit`), `heard` with each of another process (PostgreSQL's NOTIFY)."""

    def __init__(self, version_of: Callable[[int], Awaitable[int | None]]) -> None:
        self._version_of = version_of
        self._watchers: dict[int, set[Watcher]] = {}
        self._groups: dict[int, int | None] = {}  # watched match id -> its server (or None)
        self._tasks: set[asyncio.Task[None]] = set()

    def watch(self, match_id: int, group: int | None = None) -> Watcher:
        """A new watcher of the match; `group` (its server) lets `close_group` end it."""
        watcher = Watcher()
        self._watchers.setdefault(match_id, set()).add(watcher)
        self._groups[match_id] = group
        return watcher

    def leave(self, match_id: int, watcher: Watcher) -> None:
        watchers = self._watchers.get(match_id)
        if watchers is not None:
            watchers.discard(watcher)
            if not watchers:
                del self._watchers[match_id]
                self._groups.pop(match_id, None)

    def watching(self, match_id: int) -> int:
        return len(self._watchers.get(match_id, ()))

    def changed(self, match_id: int, version: int) -> None:
        for watcher in self._watchers.get(match_id, ()):
            watcher.tell(version)

    def heard(self, match_id: int) -> None:
        """Another process committed to the match: read its version once, if anyone watches."""
        if match_id not in self._watchers:
            return
        task = asyncio.get_running_loop().create_task(self._read(match_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    def catch_up(self) -> None:
        """Commits of other processes may have gone unheard (the listener was lost): read every
        watched match's version once."""
        for match_id in list(self._watchers):
            self.heard(match_id)

    async def _read(self, match_id: int) -> None:
        version = await self._version_of(match_id)
        if version is not None:
            self.changed(match_id, version)

    def close_group(self, group: int) -> None:
        """End the streams of every match of `group` (its server turned its pages off)."""
        for match_id, owner in self._groups.items():
            if owner == group:
                for watcher in self._watchers.get(match_id, ()):
                    watcher.close()

    def close(self) -> None:
        """End every stream (the server stops)."""
        for watchers in self._watchers.values():
            for watcher in watchers:
                watcher.close()
        for task in self._tasks:
            task.cancel()
