"""Backups while the bot plays: the p99 of the match service's replies on a 100,000-match
SQLite database, with no backup running and while a backup (the online backup API, checksums,
gzip) copies it: in a thread (as `gamenight backup` would in the bot's process), and in a
worker process (as the bot's scheduled backups run). Also the time of
the start-up quick check, the backup and `gamenight verify`'s integrity check on that file.

    python benchmarks/bench_backup.py [--matches 100000] [--keep-db DIR]

The database is built fast: a few real matches of each game are played through the service
(finished, with their records, results and ratings), then copied in bulk under new ids and
channels until there are `--matches` of them, with their seats and move logs.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import statistics
import sys
import tempfile
import time
from contextlib import closing
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.matches.model import Player  # noqa: E402
from bot.matches.service import MatchService  # noqa: E402
from bot.operations.backups import take_backup  # noqa: E402
from bot.operations.schedule import in_worker_process  # noqa: E402
from bot.storage.snapshots import connect, integrity_problems  # noqa: E402
from bot.storage.store import Store  # noqa: E402
from tests.bot.matches.test_records import PEOPLE, play  # noqa: E402

TEMPLATES = [("reversi", 2), ("scrabble", 2), ("scrabble", 3), ("doudizhu", 3),
             ("patchwork", 2), ("reversi", 2), ("scrabble", 4), ("doudizhu", 4)]
CHILDREN = ("seats", "moves", "records", "results")  # rows that belong to one match


async def templates(path: Path) -> None:
    store = await Store.open(path)
    service = MatchService(store)
    for seed, (game, count) in enumerate(TEMPLATES):
        await play(service, game, PEOPLE[:count], channel=seed + 1, seed=seed, rounds=1)
    await store.close()


def columns(conn: sqlite3.Connection, table: str, skip: str | None = None) -> list[str]:
    return [row[1] for row in conn.execute(f"PRAGMA table_info({table})") if row[1] != skip]


def bulk_copy(path: Path, total: int) -> None:
    """Copy the template matches, with their children, until there are `total` matches."""
    with closing(sqlite3.connect(path, isolation_level=None)) as conn:
        conn.execute("PRAGMA synchronous = OFF")
        ids = [row[0] for row in conn.execute("SELECT id FROM matches ORDER BY id")]
        rows = {table: {} for table in ("matches", *CHILDREN)}
        own = {"moves": "id", "records": "seq"}  # numbered by the database
        names = {t: columns(conn, t, own.get(t)) for t in rows}
        for t in rows:
            for match_id in ids:
                key = "id" if t == "matches" else "match_id"
                rows[t][match_id] = conn.execute(
                    f"SELECT {', '.join(names[t])} FROM {t} WHERE {key} = ?", (match_id,)
                ).fetchall()
        conn.execute("BEGIN")
        for new_id in range(max(ids) + 1, total + 1):
            source = ids[new_id % len(ids)]
            for t in rows:
                at = names[t].index("id" if t == "matches" else "match_id")
                batch = [row[:at] + (new_id,) + row[at + 1:] for row in rows[t][source]]
                if t == "matches":
                    channel = names[t].index("channel_id")
                    batch = [row[:channel] + (10**9 + new_id,) + row[channel + 1:]
                             for row in batch]
                marks = ", ".join("?" * len(names[t]))
                conn.executemany(f"INSERT INTO {t} ({', '.join(names[t])}) VALUES ({marks})",
                                 batch)
        conn.execute("COMMIT")
        conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")


async def replies(service: MatchService, channel: int, until) -> list[float]:
    """Seconds per action (open a Reversi lobby, join, moves to the end, again) until
    `until()` says stop."""
    import games.reversi as reversi

    times: list[float] = []
    channel += int(time.time()) << 8  # channels no earlier run left a match open in
    while not until():
        channel += 1
        started = time.perf_counter()
        lobby = await service.open_lobby("reversi", guild_id=1, channel_id=channel,
                                         creator=Player(1, "a"), seed=channel)
        match = await service.join(lobby.id, Player(2, "b"))
        times.append(time.perf_counter() - started)
        while match.status == "active" and not until():
            seat = match.current_seat()
            move = str(reversi.legal_moves(match.state, seat)[0])
            started = time.perf_counter()
            match = (await service.act(channel, match.player(seat).user_id, move)).match
            times.append(time.perf_counter() - started)
    return times


def show(name: str, times: list[float]) -> None:
    times = sorted(times)
    print(f"  {name:<30} {len(times):>6} replies: median {statistics.median(times) * 1000:6.2f} "
          f"ms, p99 {times[int(len(times) * 0.99)] * 1000:6.2f} ms, "
          f"max {times[-1] * 1000:7.2f} ms", flush=True)


async def measure(path: Path, backups: Path, seconds: float) -> None:
    store = await Store.open(path)
    service = MatchService(store)
    try:
        await replies(service, 2 * 10**9, deadline(1.0))  # warm up
        show("no backup", await replies(service, 3 * 10**9, deadline(seconds)))
        for channel, (how, run) in enumerate(
                [("in a thread", asyncio.to_thread), ("in a worker process", in_worker_process)]):
            started = time.perf_counter()
            backup = asyncio.ensure_future(run(take_backup, path, backups))
            during = await replies(service, (4 + channel) * 10**9, backup.done)
            made = await backup
            took = time.perf_counter() - started
            show(f"backup {how}", during)
            print(f"    the backup: {took:.1f} s, {made.size / 1e6:.0f} MB compressed, "
                  f"{made.rows:,} rows", flush=True)
    finally:
        await store.close()


def deadline(seconds: float):
    end = time.perf_counter() + seconds
    return lambda: time.perf_counter() >= end


def timed(what: str, work) -> None:
    started = time.perf_counter()
    result = work()
    print(f"  {what}: {time.perf_counter() - started:.1f} s ({result})", flush=True)


def checks(path: Path) -> None:
    with closing(connect(path)) as conn:
        timed("the start-up quick check", lambda: integrity_problems(conn, quick=True) or "ok")
        timed("verify's integrity check", lambda: integrity_problems(conn) or "ok")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--seconds", type=float, default=20.0,
                        help="how long to measure replies without a backup")
    parser.add_argument("--keep-db", type=Path, help="build the database in DIR and keep it")
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        where = args.keep_db or Path(folder)
        where.mkdir(parents=True, exist_ok=True)
        path = where / "bench.db"
        if not path.exists():
            started = time.perf_counter()
            asyncio.run(templates(path))
            bulk_copy(path, args.matches)
            print(f"built {args.matches:,} matches in {time.perf_counter() - started:.0f} s: "
                  f"{path.stat().st_size / 1e6:.0f} MB", flush=True)
        checks(path)
        asyncio.run(measure(path, Path(folder) / "backups", args.seconds))


if __name__ == "__main__":
    main()
