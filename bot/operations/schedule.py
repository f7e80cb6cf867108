"""Backups the bot takes itself, every GAMENIGHT_BACKUP_EVERY into GAMENIGHT_BACKUP_DIR.

One task sleeps on the bot's clock (tests move a fake one) until the next backup is due: the
newest backup there plus the period, so a restart neither skips one nor takes an extra; at
once when there is none. The backup (bot/operations/backups.py) runs in a worker process of
its own: in a thread, its checksums and compression would hold the interpreter lock the event
loop needs, and the p99 of replies would triple (benchmarks/bench_backup.py). Each outcome is
counted (`gamenight_backups{outcome}`), and the time of the last success kept
(`gamenight_backup_last_success_timestamp_seconds`)."""

from __future__ import annotations

import asyncio
import logging
import os
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Protocol

from bot.matches.deadlines import Clock
from bot.operations.backups import Backup, backups_in, take_backup, taken_at
from bot.storage.database import safe_url
from bot.workers.pools import process_pool

log = logging.getLogger(__name__)


class BackupMetrics(Protocol):
    backup_last_success: Any  # a prometheus Gauge
    backups: Any  # a prometheus Counter by outcome


class BackupSchedule:
    def __init__(self, location: Path | str, directory: Path, every: float, keep: int | None,
                 clock: Clock, metrics: BackupMetrics | None = None,
                 take: Callable[..., Backup] = take_backup,
                 run: Callable[..., Awaitable[Backup]] | None = None) -> None:
        """`take` is run by `run(take, *args)` (default: in a worker process)."""
        self.location, self.directory = location, directory
        self.every, self.keep = every, keep
        self.clock, self.metrics, self._take = clock, metrics, take
        self._run_take = run or in_worker_process
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        """Run the schedule. The last success is the newest backup there at first, so an
        alert on its age does not fire at each restart."""
        found = backups_in(self.directory)
        if found and self.metrics is not None:
            self.metrics.backup_last_success.set(taken_at(found[-1]).timestamp())
        self._task = asyncio.create_task(self._run(), name="gamenight: backups")

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            await asyncio.gather(self._task, return_exceptions=True)

    def first_due(self) -> float:
        found = backups_in(self.directory)
        return self.clock.now() if not found else taken_at(found[-1]).timestamp() + self.every

    async def _run(self) -> None:
        due = self.first_due()
        while True:
            await self.clock.sleep_until(due)
            await self.once()
            due += self.every
            if due <= self.clock.now():  # it ran late (the machine slept): a period from now
                due = self.clock.now() + self.every

    async def once(self) -> Backup | None:
        """Take one backup now; None if it failed (logged and counted)."""
        now = datetime.fromtimestamp(self.clock.now(), UTC)
        try:
            backup = await self._run_take(self._take, self.location, self.directory,
                                          self.keep, now)
        except Exception as error:
            log.error("the scheduled backup of %s failed: %s", safe_url(str(self.location)),
                      error)
            self._count("failed")
            return None
        log.info("backed up the database to %s (%.1f MB)", backup.path, backup.size / 1e6)
        self._count("done")
        if self.metrics is not None:
            self.metrics.backup_last_success.set(self.clock.now())
        return backup

    def _count(self, outcome: str) -> None:
        if self.metrics is not None:
            self.metrics.backups.labels(outcome).inc()


async def in_worker_process(work: Callable[..., Backup], *args: Any) -> Backup:
    """`work(*args)` in a worker process started for it (one backup every few hours: not
    worth a process kept waiting)."""
    pool = process_pool(1, _in_the_background)
    try:
        return await asyncio.get_running_loop().run_in_executor(pool, work, *args)
    finally:  # never waits here: a backup cut short by a shutdown finishes on its own
        pool.shutdown(wait=False)


def _in_the_background() -> None:
    """The backup's worker yields the CPU to the bot (and to the pictures and computers)."""
    os.nice(10)
