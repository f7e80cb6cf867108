"""What /readyz on the metrics server checks: the gateway is connected on every shard this
process runs, the database answers a trivial query, and its migrations are all done.

The shards' state comes from discord.py's shard events (connect, at READY, and resumed: up;
disconnect: down) and is also the `gamenight_gateway_connected{shard}` gauge.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable
from typing import Any

from prometheus_client import Gauge

from bot.storage.migrations import MIGRATIONS

DB_TIMEOUT = 2.0  # seconds the trivial query may take before the database counts as silent


class Readiness:
    """The gateway's state per shard, and the list of what is not ready."""

    def __init__(self, bot: Any, gauge: Gauge | None = None) -> None:
        self.bot = bot
        self.gauge = gauge
        self.up: set[int] = set()

    def expect(self, shard_ids: Iterable[int]) -> None:
        """Shards known before they connect show 0 rather than no series."""
        for shard_id in shard_ids:
            self._set(shard_id, False)

    async def connected(self, shard_id: int) -> None:
        self._set(shard_id, True)

    async def disconnected(self, shard_id: int) -> None:
        self._set(shard_id, False)

    def _set(self, shard_id: int, up: bool) -> None:
        (self.up.add if up else self.up.discard)(shard_id)
        if self.gauge is not None:
            self.gauge.labels(str(shard_id)).set(1 if up else 0)

    def shards(self) -> list[int] | None:
        """The shards this process runs, None until discord.py knows how many there are."""
        if self.bot.shard_ids is not None:
            return list(self.bot.shard_ids)
        if self.bot.shard_count is not None:
            return list(range(self.bot.shard_count))
        return None

    async def problems(self) -> list[str]:
        """What is not ready, one short phrase each (empty: ready)."""
        found: list[str] = []
        shards = self.shards()
        if shards is None:
            found.append("gateway: not connected yet")
        else:
            down = [str(s) for s in shards if s not in self.up]
            if down:
                found.append(f"gateway: shard {', '.join(down)} not connected")
        found.extend(await self.database_problems())
        return found

    async def database_problems(self) -> list[str]:
        store = getattr(self.bot, "store", None)
        if store is None:
            return ["database: not open yet"]
        try:
            version = await asyncio.wait_for(store.schema_version(), DB_TIMEOUT)
        except asyncio.TimeoutError:
            return [f"database: no answer within {DB_TIMEOUT:g} s"]
        except Exception as error:  # whatever the driver raises: the database is not answering
            return [f"database: {type(error).__name__}: {str(error)[:200]}"]
        if version < len(MIGRATIONS):
            return [f"database: migrations at {version} of {len(MIGRATIONS)}"]
        return []
