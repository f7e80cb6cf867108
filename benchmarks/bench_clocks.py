"""Turn clocks at scale: 10,000 open matches with clocks in the database, armed as at start-up.

Prints the time to re-arm them all (read the clock columns, push them back by a downtime,
arm the heap), the extra memory the armed deadlines take, and the process's CPU time while
the bot sits idle with them armed.

    python benchmarks/bench_clocks.py [--matches 10000] [--idle 10]
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import json
import os
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path
from types import SimpleNamespace

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.matches.deadlines import Clock  # noqa: E402
from bot.storage.store import Store  # noqa: E402
from bot.ui.turn_clocks import TurnClocks  # noqa: E402


async def fill(store: Store, matches: int, now: float) -> None:
    """`matches` active Reversi matches with a 24-hour clock, started over the last 11 hours
    (none due for its half-time reminder yet)."""
    async with store.transaction() as db:
        for i in range(matches):
            cursor = await db.execute(
                "INSERT INTO matches (guild_id, channel_id, game, status, options, seed, state,"
                " creator_id, created_at, updated_at, turn_seconds, turn_since, human_at)"
                " VALUES (1, ?, 'reversi', 'active', ?, 1, NULL, 1, '', '', 86400, ?, ?)",
                (1000 + i, json.dumps({}), now - i * 4.0, now - i * 4.0))
            await db.execute("INSERT INTO seats (match_id, seat, kind, user_id, name)"
                             " VALUES (?, 0, 'user', 1, 'a')", (cursor.lastrowid,))


def resident_mb() -> float:
    with open("/proc/self/statm") as handle:
        return int(handle.read().split()[1]) * os.sysconf("SC_PAGE_SIZE") / 2**20


async def main(matches: int, idle: float) -> None:
    with tempfile.TemporaryDirectory() as folder:
        store = await Store.open(Path(folder) / "clocks.db")
        clock = Clock()
        await fill(store, matches, clock.now())
        await store.mark_alive(clock.now() - 600)  # the bot was down for ten minutes
        clocks = TurnClocks(SimpleNamespace(store=store), clock)

        before_rss = resident_mb()
        started = time.perf_counter()
        await clocks.start()
        seconds = time.perf_counter() - started
        gc.collect()
        grown = resident_mb() - before_rss
        armed = len(clocks.deadlines)
        print(f"re-armed {matches} matches ({armed} deadlines) in {seconds * 1000:.0f} ms "
              "(clock columns read, clocks pushed back by the downtime, heap armed)")

        tracemalloc.start()  # the same deadlines once more, to see what they hold
        again = TurnClocks(SimpleNamespace(store=store), clock)
        for row in await store.clock_rows():
            again.arm(row)
        held, _ = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        print(f"memory: the armed deadlines hold {held / 2**20:.1f} MB (tracemalloc); the "
              f"process grew by {grown:.1f} MB resident while arming (SQLite's cache included)")

        cpu = time.process_time()
        await asyncio.sleep(idle)
        used = time.process_time() - cpu
        print(f"idle for {idle:g} s with them armed: {used * 1000:.1f} ms of CPU "
              f"({used / idle * 100:.3f}% of a core)")
        await clocks.stop()
        await store.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=10_000)
    parser.add_argument("--idle", type=float, default=10.0, help="seconds to sit idle")
    args = parser.parse_args()
    asyncio.run(main(args.matches, args.idle))
