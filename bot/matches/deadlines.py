"""The one source of time for turn clocks, and the scheduler that wakes up at deadlines.

`Clock` is wall-clock time (seconds since the epoch, which the database stores) and a way to
sleep until a time; tests give the bot one they move forward themselves, so none of them waits.
`Deadlines` keeps every armed deadline in a heap and one task asleep until the earliest: no
polling, and nothing runs while no deadline is due.
"""

from __future__ import annotations

import asyncio
import heapq
import itertools
import logging
import time
from collections.abc import Awaitable, Callable, Hashable

log = logging.getLogger(__name__)


class Clock:
    def now(self) -> float:
        return time.time()

    async def sleep_until(self, when: float) -> None:
        await asyncio.sleep(max(0.0, when - self.now()))


class Deadlines:
    """Deadlines by key: arming a key again moves its deadline; `fire(key)` runs (as its own
    task) once the clock reaches it, at most `at_once` of them at a time: when many fall due
    together (a process taking the clocks over from one that died), they are worked off a
    few at a time instead of all competing with the players' moves."""

    def __init__(self, clock: Clock, fire: Callable[[Hashable], Awaitable[None]], *,
                 at_once: int = 4) -> None:
        self.clock = clock
        self.at_once = at_once
        self._fire = fire
        self._due: dict[Hashable, float] = {}
        self._heap: list[tuple[float, int, Hashable]] = []  # entries no longer in _due are skipped
        self._order = itertools.count()
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._running: set[asyncio.Task[None]] = set()

    def __len__(self) -> int:
        return len(self._due)

    def arm(self, key: Hashable, when: float) -> None:
        if self._due.get(key) == when:
            return
        self._due[key] = when
        heapq.heappush(self._heap, (when, next(self._order), key))
        if len(self._heap) > 2 * len(self._due) + 1024:  # drop the entries of moved deadlines
            self._heap = [(w, n, k) for w, n, k in self._heap if self._due.get(k) == w]
            heapq.heapify(self._heap)
        if self._heap[0][2] == key:
            self._wake.set()  # earlier than what the task sleeps for

    def due(self, key: Hashable) -> float | None:
        """When `key` fires (None: not armed)."""
        return self._due.get(key)

    def disarm(self, key: Hashable) -> None:
        self._due.pop(key, None)

    def start(self) -> None:
        if self._task is None:
            self._task = asyncio.get_running_loop().create_task(
                self._run(), name="gamenight: deadlines")

    async def stop(self) -> None:
        tasks = [t for t in (self._task, *self._running) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._task = None
        self._due.clear()  # armed again from the database when they start again
        self._heap.clear()

    async def _run(self) -> None:
        while True:
            self._wake.clear()
            while self._heap and self._due.get(self._heap[0][2]) != self._heap[0][0]:
                heapq.heappop(self._heap)  # a deadline that moved or was disarmed
            if not self._heap:
                await self._wake.wait()
                continue
            when, _, key = self._heap[0]
            if when > self.clock.now():
                await self._sleep(when)
                continue
            if len(self._running) >= self.at_once:
                await asyncio.wait(set(self._running), return_when=asyncio.FIRST_COMPLETED)
                continue
            heapq.heappop(self._heap)
            del self._due[key]
            task = asyncio.get_running_loop().create_task(self._call(key),
                                                          name=f"gamenight: deadline {key}")
            self._running.add(task)
            task.add_done_callback(self._running.discard)

    async def _sleep(self, when: float) -> None:
        """Until `when`, or until an earlier deadline is armed."""
        sleeper = asyncio.ensure_future(self.clock.sleep_until(when))
        waker = asyncio.ensure_future(self._wake.wait())
        try:
            await asyncio.wait({sleeper, waker}, return_when=asyncio.FIRST_COMPLETED)
        finally:
            sleeper.cancel()
            waker.cancel()

    async def _call(self, key: Hashable) -> None:
        try:
            await self._fire(key)
        except Exception:  # one deadline's failure must not stop the others
            log.exception("the deadline %s failed", key)
