"""Work owned by time, done by one process of many: the turn clocks and the computers' turns.

Several processes (each on some Discord shards) may share one PostgreSQL database, and any of
them may commit a change to any match: Discord delivers the presses in DMs to shard 0, whatever
server the match is in. Deadlines and computer turns must still be acted on once, so they belong
to the one process holding the `timekeeper` lease, a row in the database:

- The holder renews it every `RENEW_EVERY` seconds for `LEASE_SECONDS`; a process that is not
  the holder tries to take it as often, and gets it only once it has lapsed. So when the holder
  dies, another takes over within `LEASE_SECONDS + RENEW_EVERY` of its last renewal, and then
  arms every open match's clocks and resumes the computers' pending turns from the database,
  as at start-up, except that the clocks did not stand still: a deadline that passed meanwhile
  is acted on at once. A clean stop releases the lease: the next try takes it.
- Every commit is announced with NOTIFY inside its transaction (bot/storage/base.py); the holder
  hears the others' (`Store.listen`), re-reads the match and schedules or arms what it needs.
  Its own commits it handles directly (the service's `on_commit`).
- A notice lost on the way (the listening connection dropped) is made up for by a re-scan of
  every open match each `RESCAN_EVERY` seconds, and at once after listening again.

On SQLite (one process) the lease is simply held, and nothing is announced.

Whoever watches (the metrics) passes `on_lease`, told True when this process takes the lease and
False when it loses or gives it up.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Callable
from typing import Protocol

from bot.matches.deadlines import Clock
from bot.matches.model import Match
from bot.matches.service import MatchService
from bot.storage.commits import CommitListener
from bot.storage.rows import ClockRow, MatchRow

log = logging.getLogger(__name__)

LEASE = "timekeeper"
LEASE_SECONDS = 30.0  # how long a renewal holds the lease
RENEW_EVERY = 10.0  # the holder renews (and the others try) this often: three chances a lease
RESCAN_EVERY = 60.0  # the holder re-reads every open match this often (notices lost meanwhile)


class LeaseStore(Protocol):
    """The slice of the store the timekeeper reads and writes: the lease, the other
    processes' commits, and what an open match has pending."""

    @property
    def dialect(self) -> str: ...
    async def take_lease(self, name: str, owner: str, seconds: float) -> bool: ...
    async def release_lease(self, name: str, owner: str) -> None: ...
    async def listen(self, heard: Callable[[int], None]) -> CommitListener | None: ...
    async def clock_rows(self) -> list[ClockRow]: ...
    async def computer_matches(self) -> list[int]: ...


class TurnClockRunner(Protocol):
    """The turn clocks (bot/ui/turn_clocks.py), run only by the lease's holder."""

    async def start(self, *, pause: bool = True) -> None: ...
    async def stop(self, *, mark_alive: bool = True) -> None: ...
    def arm(self, row: MatchRow | ClockRow) -> None: ...


class ComputerRunner(Protocol):
    """The computer players (bot/ui/computer_players.py), run only by the lease's holder."""

    async def resume(self) -> None: ...
    def stop(self) -> None: ...
    def schedule(self, match: Match, *, retry: bool = False) -> bool: ...


class Timekeeper:
    """Holds, renews and gives up the timekeeper lease, running the `clocks` and `computers`
    only while it holds it."""

    def __init__(self, store: LeaseStore, service: MatchService, clocks: TurnClockRunner,
                 computers: ComputerRunner, clock: Clock,
                 on_lease: Callable[[bool], None] | None = None) -> None:
        self.store = store
        self.service = service
        self.clocks = clocks
        self.computers = computers
        self.clock = clock
        self.on_lease = on_lease
        self.owner = f"{socket.gethostname()}:{os.getpid()}:{secrets.token_hex(4)}"
        self.holding = False
        self._until = 0.0  # when the lease lapses unless renewed (as far as this process knows)
        self._next_scan = 0.0
        self._listener: CommitListener | None = None
        self._task: asyncio.Task[None] | None = None
        self._heard: set[asyncio.Task[None]] = set()
        self._turn = asyncio.Lock()  # taking over, stepping down and re-scanning, one at a time

    @property
    def shared(self) -> bool:
        """Whether other processes may share the database (PostgreSQL)."""
        return self.store.dialect != "sqlite"

    async def start(self) -> None:
        """At start-up: listen for other processes' commits, take the lease if it is free (and
        then start the clocks and the computers), and keep renewing or trying it."""
        if self.shared:
            await self._listen()
        await self.tick()
        self._task = asyncio.get_running_loop().create_task(self._run(),
                                                            name="gamenight: timekeeper")

    async def stop(self, *, release: bool = True) -> None:
        """Stop keeping time and give the lease up, so another process takes it at its next
        try. Without `release`, as if the process died: the lease lapses by itself, and the
        downtime is not noted."""
        tasks = [t for t in (self._task, *self._heard) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._task = None
        if self._listener is not None:
            await self._listener.close()
            self._listener = None
        if self.holding:
            await self._step_down(mark_alive=release)
            if release and self.shared:
                try:
                    await self.store.release_lease(LEASE, self.owner)
                except Exception:  # the store may be gone: the lease lapses by itself
                    log.warning("could not release the timekeeper lease", exc_info=True)

    async def _run(self) -> None:
        while True:
            await self.clock.sleep_until(self.clock.now() + RENEW_EVERY)
            try:
                await self.tick()
            except Exception:  # the next tick tries again
                log.exception("the timekeeper's tick failed")

    async def tick(self) -> None:
        """Renew or try to take the lease, and act on what changed."""
        async with self._turn:
            held = await self._renew()
            if held and not self.holding:
                await self._take_over()
            elif not held and self.holding:
                log.warning("the timekeeper lease passed to another process: its clocks and "
                            "computers stop here")
                await self._step_down(mark_alive=False)
            if self.shared and (self._listener is None or not self._listener.alive):
                await self._listen()
                self._next_scan = 0.0  # what was said while nobody listened: read it all
            if self.holding and self.clock.now() >= self._next_scan:
                await self._rescan()

    async def _renew(self) -> bool:
        now = self.clock.now()
        if not self.shared:
            return True
        try:
            held = await self.store.take_lease(LEASE, self.owner, LEASE_SECONDS)
        except Exception:  # the database is out of reach: ours until it would lapse
            log.warning("could not renew the timekeeper lease", exc_info=True)
            return self.holding and now < self._until
        if held:
            self._until = now + LEASE_SECONDS
        return held

    async def _take_over(self) -> None:
        log.info("this process keeps time (turn clocks, computers) as %s", self.owner)
        self._hold(True)
        try:
            # At start-up the clocks stood still while no process ran; taking over while this
            # one ran, they did not (what fell due meanwhile is done now). Before the
            # computers: their moves restart clocks.
            await self.clocks.start(pause=not self._ran)
            await self.computers.resume()  # the computers' turns pending meanwhile
        except BaseException:
            await self._step_down(mark_alive=False)
            if self.shared:  # another process may manage: it takes the lease at once
                await self.store.release_lease(LEASE, self.owner)
            raise
        self._next_scan = self.clock.now() + RESCAN_EVERY

    @property
    def _ran(self) -> bool:
        """Whether this process has been running a while (its first tick is done)."""
        return self._task is not None

    def _hold(self, holding: bool) -> None:
        if holding != self.holding:
            self.holding = holding
            if self.on_lease is not None:
                self.on_lease(holding)

    async def _step_down(self, *, mark_alive: bool) -> None:
        self._hold(False)
        self.computers.stop()
        await self.clocks.stop(mark_alive=mark_alive)

    async def _rescan(self) -> None:
        """Arm every open match's clocks and schedule every computer due to act."""
        self._next_scan = self.clock.now() + RESCAN_EVERY
        for row in await self.store.clock_rows():
            self.clocks.arm(row)
        for match_id in await self.store.computer_matches():
            await self.heard(match_id)

    # -- other processes' commits ------------------------------------------------------------

    async def _listen(self) -> None:
        try:
            self._listener = await self.store.listen(self._notified)
        except Exception:  # the re-scan stands in until the next tick listens again
            log.warning("cannot listen for other processes' commits", exc_info=True)

    def _notified(self, match_id: int) -> None:
        if not self.holding:
            return
        task = asyncio.get_running_loop().create_task(
            self.heard(match_id), name=f"gamenight: commit heard in match {match_id}")
        self._heard.add(task)
        task.add_done_callback(self._heard.discard)

    async def heard(self, match_id: int) -> None:
        """Another process changed the match: its computer's turn, its new deadlines."""
        try:
            match = await self.service.get(match_id)
        except Exception:  # the re-scan reads it again
            log.warning("could not read match %s after another process's commit", match_id,
                        exc_info=True)
            return
        if match is not None and self.holding:
            self.computers.schedule(match)
            self.clocks.arm(match.row)
