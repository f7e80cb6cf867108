"""Scheduled backups in the bot: one at once when there is none, then one a period on a clock
the test moves (nothing sleeps); after a restart the next is due a period after the newest;
outcomes counted in the metrics."""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime

import pytest

from bot.app.metrics import Metrics
from bot.operations.backups import backups_in, take_backup, taken_at
from bot.operations.schedule import BackupSchedule
from tests.e2e_helpers import FakeClock

pytestmark = pytest.mark.sqlite_only

HOUR = 3600.0


async def until(condition) -> None:
    """Wait for the backup's thread to finish (not for time to pass: the clock is fake)."""
    for _ in range(6000):  # a worker process is started for each backup
        if condition():
            return
        await asyncio.sleep(0.01)
    raise AssertionError("the backup never happened")


def value(metrics: Metrics, name: str, labels: dict | None = None) -> float | None:
    return metrics.registry.get_sample_value(name, labels or {})


async def test_backups_follow_the_clock_and_are_counted(played_db, tmp_path):
    clock, metrics, directory = FakeClock(), Metrics("http://x/api/v10"), tmp_path / "b"
    schedule = BackupSchedule(played_db, directory, 6 * HOUR, 2, clock, metrics)
    schedule.start()
    try:
        await until(lambda: len(backups_in(directory)) == 1)  # none yet: one at once
        await until(lambda: value(metrics, "gamenight_backups_total", {"outcome": "done"}) == 1)
        assert value(metrics, "gamenight_backup_last_success_timestamp_seconds") == clock.now()
        clock.advance(5 * HOUR)
        for _ in range(20):
            await asyncio.sleep(0)
        assert len(backups_in(directory)) == 1  # not due yet
        for hours in (1, 6, 6):
            clock.advance(hours * HOUR)
            done = value(metrics, "gamenight_backups_total", {"outcome": "done"})
            await until(lambda: value(metrics, "gamenight_backups_total",
                                      {"outcome": "done"}) == done + 1)
    finally:
        await schedule.stop()
    found = backups_in(directory)
    assert len(found) == 2  # GAMENIGHT_BACKUP_KEEP=2
    assert taken_at(found[-1]).timestamp() == clock.now()


async def test_after_a_restart_the_next_backup_is_a_period_after_the_newest(played_db, tmp_path):
    clock = FakeClock()
    newest = take_backup(played_db, tmp_path / "b", now=datetime.fromtimestamp(
        clock.now() - 2 * HOUR, UTC))
    metrics = Metrics("http://x/api/v10")
    schedule = BackupSchedule(played_db, tmp_path / "b", 6 * HOUR, None, clock, metrics)
    assert schedule.first_due() == taken_at(newest.path).timestamp() + 6 * HOUR
    schedule.start()
    await schedule.stop()
    assert value(metrics, "gamenight_backup_last_success_timestamp_seconds") == (
        clock.now() - 2 * HOUR)


async def test_a_failed_backup_is_counted_and_the_bot_goes_on(tmp_path):
    clock, metrics = FakeClock(), Metrics("http://x/api/v10")
    schedule = BackupSchedule(tmp_path / "missing.db", tmp_path / "b", HOUR, None, clock,
                              metrics)
    assert await schedule.once() is None
    assert value(metrics, "gamenight_backups_total", {"outcome": "failed"}) == 1
    assert value(metrics, "gamenight_backup_last_success_timestamp_seconds") == 0
