"""The store on SQLite and on PostgreSQL: how long one move takes through the match service
(read the match, check the move, commit it with its move-log row, read it back), measured over
whole Reversi games.

    python benchmarks/bench_store.py [--games 20] [--pg postgresql://postgres@127.0.0.1/test]
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games.reversi as reversi  # noqa: E402
from bot.matches.model import Player
from bot.matches.service import MatchService
from bot.storage.store import Store  # noqa: E402
from tests import stores  # noqa: E402


async def moves(location: str | Path, games: int) -> list[float]:
    """Seconds per move, over `games` whole games played by the service."""
    store = await Store.open(location)
    service = MatchService(store)
    times = []
    try:
        for channel in range(games):
            lobby = await service.open_lobby("reversi", guild_id=1, channel_id=channel,
                                             creator=Player(1, "a"), seed=channel)
            match = await service.join(lobby.id, Player(2, "b"))
            while match.status == "active":
                seat = match.current_seat()
                move = str(reversi.legal_moves(match.state, seat)[0])
                started = time.perf_counter()
                match = (await service.act(channel, match.player(seat).user_id, move)).match
                times.append(time.perf_counter() - started)
    finally:
        await store.close()
    return times


def show(name: str, times: list[float]) -> None:
    times = sorted(times)
    print(f"  {name:<11} {len(times)} moves: median {statistics.median(times) * 1000:.2f} ms,"
          f" p99 {times[int(len(times) * 0.99)] * 1000:.2f} ms")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--pg", default=stores.PG_URL, help="a PostgreSQL server to use")
    args = parser.parse_args()
    stores.PG_URL = args.pg
    print("One Reversi move through the match service:")
    with tempfile.TemporaryDirectory() as folder:
        show("SQLite", await moves(Path(folder) / "bench.db", args.games))
    why = await stores.reachable()
    if why is not None:
        print(f"  PostgreSQL  not measured: {why}")
        return
    schema = "bench_store"
    await stores.run_sql(f"DROP SCHEMA IF EXISTS {schema} CASCADE", f"CREATE SCHEMA {schema}")
    try:
        show("PostgreSQL", await moves(stores.url_for(schema), args.games))
    finally:
        await stores.run_sql(f"DROP SCHEMA IF EXISTS {schema} CASCADE")


if __name__ == "__main__":
    asyncio.run(main())
