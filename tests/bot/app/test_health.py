"""/healthz and /readyz on the metrics server, and what readiness checks (the gateway per shard,
the database, its migrations), without Discord."""

from __future__ import annotations

import asyncio
from types import SimpleNamespace

import aiohttp

from bot.app import readiness as readiness_module
from bot.app.metrics import Metrics
from bot.app.readiness import Readiness
from bot.storage.migrations import MIGRATIONS


async def no_counts():
    return {}


async def get(metrics: Metrics, path: str) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{metrics.port}{path}") as response:
            return response.status, await response.json()


async def test_alive_and_ready_answer_200_or_503_with_what_is_wrong():
    problems: list[str] = []

    async def ready():
        return problems

    metrics = Metrics("http://127.0.0.1:9/api/v10")
    await metrics.start(0, no_counts, ready=ready)
    metrics._lag_task.cancel()  # the test says what the loop watch measured
    try:
        metrics._last_lag = 0.02  # what the loop watch measured last
        assert await get(metrics, "/healthz") == (200, {"status": "alive",
                                                        "loop_lag_seconds": 0.02})
        assert await get(metrics, "/readyz") == (200, {"status": "ready"})
        problems.append("gateway: shard 1 not connected")
        assert await get(metrics, "/readyz") == (503, {"status": "not ready", "problems": [
            "gateway: shard 1 not connected"]})
        metrics._last_lag = 1.25  # the loop watch saw a timer run 1.25 s late
        assert await get(metrics, "/healthz") == (503, {
            "status": "not alive", "problems": ["event loop: ran 1.2 s late"],
            "loop_lag_seconds": 1.25})
    finally:
        await metrics.stop()


class Store:
    def __init__(self, version: int = len(MIGRATIONS)) -> None:
        self.version = version
        self.error: Exception | None = None
        self.silent = False

    async def schema_version(self) -> int:
        if self.silent:
            await asyncio.Event().wait()
        if self.error is not None:
            raise self.error
        return self.version


def bot(shard_ids=None, shard_count=None, store: Store | None = None):
    return SimpleNamespace(shard_ids=shard_ids, shard_count=shard_count, store=store)


async def test_every_shard_of_this_process_must_be_connected():
    metrics = Metrics("http://127.0.0.1:9/api/v10")
    ready = Readiness(bot(shard_ids=[1, 3], shard_count=4, store=Store()),
                      metrics.gateway_connected)
    ready.expect([1, 3])

    def gauge(shard: str) -> float | None:
        return metrics.registry.get_sample_value("gamenight_gateway_connected", {"shard": shard})

    assert (gauge("1"), gauge("3"), gauge("0")) == (0, 0, None)
    assert await ready.problems() == ["gateway: shard 1, 3 not connected"]
    await ready.connected(1)
    await ready.connected(3)
    assert await ready.problems() == [] and (gauge("1"), gauge("3")) == (1, 1)
    await ready.disconnected(3)
    assert await ready.problems() == ["gateway: shard 3 not connected"] and gauge("3") == 0


async def test_before_discord_py_knows_the_shards_the_gateway_is_not_ready():
    ready = Readiness(bot(store=Store()))
    assert await ready.problems() == ["gateway: not connected yet"]
    ready.bot.shard_count = 2  # told by Discord: this process runs both
    await ready.connected(0)
    assert await ready.problems() == ["gateway: shard 1 not connected"]


async def test_the_database_must_answer_and_be_migrated(monkeypatch):
    store = Store(version=len(MIGRATIONS) - 1)
    ready = Readiness(bot(shard_count=1, store=store))
    await ready.connected(0)
    assert await ready.problems() == [
        f"database: migrations at {len(MIGRATIONS) - 1} of {len(MIGRATIONS)}"]
    store.version = len(MIGRATIONS)
    assert await ready.problems() == []
    store.error = ConnectionRefusedError("connection refused")
    assert await ready.problems() == ["database: ConnectionRefusedError: connection refused"]
    store.error, store.silent = None, True
    monkeypatch.setattr(readiness_module, "DB_TIMEOUT", 0)
    assert await ready.problems() == ["database: no answer within 0 s"]
    assert await Readiness(bot(shard_count=1, store=None)).database_problems() == [
        "database: not open yet"]
