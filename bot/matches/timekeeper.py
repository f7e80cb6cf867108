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

While the whole bot is down, turn clocks stand still. Every process notes that it is alive
every `HEARTBEAT` seconds (and every commit notes its time), so at start-up a process knows
to within a heartbeat when the last one stopped; when that was over `DOWN_AFTER` ago, nobody
ran meanwhile, and it pushes every open match's clocks back by the downtime
(`Store.resume_clocks`, one transaction: of processes starting together, one does it). That
one also shows the result (`TurnClockRunner.after_downtime`): each moved deadline on its
board, and the boards of changes saved but never shown when the processes died.
"""

from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from collections.abc import Callable
from typing import Any, Protocol

from bot.matches.deadlines import Clock
from bot.matches.model import Match
from bot.matches.service import MatchService
from bot.storage.commits import CommitListener
from bot.storage.rows import ClockRow, Downtime, MatchRow

log = logging.getLogger(__name__)

LEASE = "timekeeper"
LEASE_SECONDS = 30.0  # how long a renewal holds the lease
RENEW_EVERY = 10.0  # the holder renews (and the others try) this often: three chances a lease
RESCAN_EVERY = 60.0  # the holder re-reads every open match this often (notices lost meanwhile)
HEARTBEAT = 2.0  # every process notes it is alive this often: the downtime's start
DOWN_AFTER = 3 * HEARTBEAT  # nobody alive for longer: the whole bot was down (PostgreSQL)
FINISHED_LATELY = 3600.0  # a final board owed since a crash is posted if the game ended this
# shortly before the bot went down (an older one would only puzzle the channel)
OWED_AFTER = LEASE_SECONDS  # a change unannounced this long had its process die: a re-scan
# posts its board (a live process's announcement is over by then: bot/matches/commit_order.py)


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
    async def resume_clocks(self, now: float, down_after: float,
                            finished_lately: float) -> Downtime | None: ...
    async def mark_alive(self, at: float) -> None: ...


class TurnClockRunner(Protocol):
    """The turn clocks (bot/ui/turn_clocks.py), run only by the lease's holder; what follows
    a downtime of the whole bot, by the process that found it (`after_downtime`)."""

    async def start(self) -> None: ...
    async def stop(self) -> None: ...
    def arm(self, row: MatchRow | ClockRow) -> None: ...
    async def after_downtime(self, downtime: Downtime) -> None: ...
    async def catch_up_owed(self, before: float, after: float) -> int: ...


class ComputerRunner(Protocol):
    """The computer players (bot/ui/computer_players.py), run only by the lease's holder."""

    async def resume(self) -> None: ...
    def stop(self) -> None: ...
    def schedule(self, match: Match, *, retry: bool = False) -> bool: ...


class NightKeeper(Protocol):
    """The game nights' times (bot/ui/nights/runner.py), kept by the lease's holder."""

    async def start(self) -> None: ...
    async def stop(self) -> None: ...
    async def rescan(self) -> None: ...


class Timekeeper:
    """Holds, renews and gives up the timekeeper lease, running the `clocks` and `computers`
    only while it holds it."""

    def __init__(self, store: LeaseStore, service: MatchService, clocks: TurnClockRunner,
                 computers: ComputerRunner, clock: Clock,
                 on_lease: Callable[[bool], None] | None = None,
                 nights: NightKeeper | None = None) -> None:
        self.store = store
        self.nights = nights
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
        self._tasks: set[asyncio.Task[None]] = set()  # commits heard, the heartbeat...
        self._stopped = False
        self._turn = asyncio.Lock()  # taking over, stepping down and re-scanning, one at a time

    @property
    def shared(self) -> bool:
        """Whether other processes may share the database (PostgreSQL)."""
        return self.store.dialect != "sqlite"

    async def start(self) -> None:
        """At start-up: take the whole bot's downtime out of the clocks (if it was down),
        note this process alive from now on, listen for other processes' commits, take the
        lease if it is free (and then start the clocks and the computers), and keep renewing
        or trying it."""
        # One process alone (SQLite): whatever time passed since it was last alive, the bot
        # was down.
        downtime = await self.store.resume_clocks(
            self.clock.now(), DOWN_AFTER if self.shared else 0.0, FINISHED_LATELY)
        if downtime is not None:
            log.info("the bot was down for %.1f s: %d turn clock(s) moved by it, %d board(s) "
                     "owed", downtime.seconds, len(downtime.moved), len(downtime.owed))
            self._background(self.clocks.after_downtime(downtime), "after the downtime")
        self._background(self._beat(), "heartbeat")
        if self.shared:
            await self._listen()
        await self.tick()
        self._task = asyncio.get_running_loop().create_task(self._run(),
                                                            name="gamenight: timekeeper")

    def _background(self, work: Any, name: str) -> None:
        task = asyncio.get_running_loop().create_task(work, name=f"gamenight: {name}")
        self._tasks.add(task)  # cancelled when this process stops keeping time
        task.add_done_callback(self._tasks.discard)

    async def _beat(self) -> None:
        """Note that this process is alive, every `HEARTBEAT` seconds."""
        while True:
            await self.clock.sleep_until(self.clock.now() + HEARTBEAT)
            try:
                await self.store.mark_alive(self.clock.now())
            except Exception:  # the database is out of reach: the next beat tries again
                log.debug("could not note that the bot is alive", exc_info=True)

    async def stop(self, *, release: bool = True) -> None:
        """Stop keeping time and give the lease up, so another process takes it at its next
        try, noting that the downtime starts now. Without `release`, as if the process died
        (kill -9): the lease lapses by itself, and the last heartbeat says when it died."""
        if self._stopped:  # once: a process that died (release=False) notes nothing after
            return
        self._stopped = True
        tasks = [t for t in (self._task, *self._tasks) if t is not None]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)
        self._task = None
        if self._listener is not None:
            await self._listener.close()
            self._listener = None
        if release:
            try:
                await self.store.mark_alive(self.clock.now())  # the downtime starts now
            except Exception:  # the store may already be closed
                log.debug("could not note the time the bot stopped", exc_info=True)
        if self.holding:
            await self._step_down()
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
                await self._step_down()
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
            # What fell due while nobody kept time is done now (a downtime of the whole bot
            # was taken out at start-up). Before the computers: their moves restart clocks.
            await self.clocks.start()
            await self.computers.resume()  # the computers' turns pending meanwhile
            if self.nights is not None:
                await self.nights.start()
        except BaseException:
            await self._step_down()
            if self.shared:  # another process may manage: it takes the lease at once
                await self.store.release_lease(LEASE, self.owner)
            raise
        self._next_scan = self.clock.now() + RESCAN_EVERY

    def _hold(self, holding: bool) -> None:
        if holding != self.holding:
            self.holding = holding
            if self.on_lease is not None:
                self.on_lease(holding)

    async def _step_down(self) -> None:
        self._hold(False)
        self.computers.stop()
        await self.clocks.stop()
        if self.nights is not None:
            await self.nights.stop()

    async def _rescan(self) -> None:
        """Arm every open match's clocks, schedule every computer due to act, and post the
        boards of changes whose process died before announcing them (committed between
        `OWED_AFTER` and two re-scans earlier: each such change is seen by a re-scan or two,
        and one whose board cannot be posted is not tried forever)."""
        now = self.clock.now()
        self._next_scan = now + RESCAN_EVERY
        for row in await self.store.clock_rows():
            self.clocks.arm(row)
        for match_id in await self.store.computer_matches():
            await self.heard(match_id)
        if self.nights is not None:
            await self.nights.rescan()
        await self.clocks.catch_up_owed(now - OWED_AFTER, now - OWED_AFTER - 2 * RESCAN_EVERY)

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
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

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
