"""Records at scale: a server with 100,000 finished matches, and how fast its leaderboard,
stats and history answer.

The matches are written straight into a fresh database (the four games mixed, two to four
people each from a pool of players, every one with its results, highlights and rating
changes, the ratings computed with openskill as the bot does). Then each question is asked
as the commands ask it, through the store: the leaderboard's first and a late page, a busy
player's stats for one game and for every game (their results with highlights, both ratings,
the rating path and the chart), and the history pages. Prints the first answer (cold: the
database pages and the chart's fonts not yet loaded), then the median and worst of the next.

    python benchmarks/bench_records.py [--matches 100000] [--players 120] [--runs 21]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import sqlite3
import statistics
import sys
import tempfile
import time
from datetime import UTC, datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bot.matches.ratings import ALL_TIME, START, display, rate, season_of  # noqa: E402
from bot.storage.store import Store  # noqa: E402
from games.contests import Contest  # noqa: E402
from i18n import ENGLISH_VOICE  # noqa: E402
from render.records import rating_chart  # noqa: E402

GUILD = 1
GAMES = (("reversi", 2), ("scrabble", 2), ("scrabble", 4), ("doudizhu", 3), ("patchwork", 2))


def highlights(game: str, rng: random.Random) -> dict:
    if game == "scrabble":
        return {"turns": rng.randint(8, 14), "points": rng.randint(200, 500),
                "best_play": rng.randint(20, 120), "best_play_word": "QUIXOTIC",
                "bingos": rng.randint(0, 3)}
    if game == "reversi":
        return {"discs": rng.randint(10, 54), "margin": rng.randint(-40, 40)}
    if game == "doudizhu":
        return {"rounds": 4, "landlord_rounds": rng.randint(0, 3), "landlord_wins": 1,
                "bombs": rng.randint(0, 2), "springs": rng.randint(0, 1)}
    return {"score": rng.randint(-20, 40), "bonus": rng.randint(0, 1)}


async def fill(path: Path, matches: int, players: int, seed: int = 1) -> None:
    """The finished matches, written in one transaction per 5,000."""
    await (await Store.open(path)).close()  # the schema, by the migrations
    rng = random.Random(seed)
    db = sqlite3.connect(path)
    skills: dict[tuple[str, str], dict[int, object]] = {}
    counts: dict[tuple[str, str, int], list[int]] = {}
    start = datetime(2026, 1, 1, tzinfo=UTC)
    for i in range(1, matches + 1):
        game, size = GAMES[i % len(GAMES)]
        people = rng.sample(range(1, players + 1), size)
        when = start + timedelta(seconds=i * 270)
        at = when.isoformat(timespec="milliseconds")
        db.execute("INSERT INTO matches (id, guild_id, channel_id, game, status, seed, version,"
                   " creator_id, created_at, updated_at, board_message_id) VALUES"
                   " (?, ?, ?, ?, 'finished', 1, 9, ?, ?, ?, ?)",
                   (i, GUILD, 100 + i % 40, game, people[0], at, at, 10**6 + i))
        places = list(range(size)) if game != "doudizhu" else [0, 1, 1]
        rng.shuffle(places)
        contest = (Contest(((places.index(0),), tuple(s for s in range(size)
                                                       if places[s] != 0)), (0, 1))
                   if game == "doudizhu" else Contest(tuple((s,) for s in range(size)),
                                                      tuple(places)))
        db.execute("INSERT INTO records (seq, match_id, guild_id, game, unrated, finished_at)"
                   " VALUES (?, ?, ?, ?, NULL, ?)", (i, i, GUILD, game, at))
        for seat, user in enumerate(people):
            db.execute("INSERT INTO seats (match_id, seat, kind, user_id, name) VALUES"
                       " (?, ?, 'user', ?, ?)", (i, seat, user, f"player{user}"))
            db.execute("INSERT INTO results (match_id, seat, seq, guild_id, game, user_id, place,"
                       " score, won, rated, turns, seconds, highlights) VALUES"
                       " (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?)",
                       (i, seat, i, GUILD, game, user, places[seat], rng.randint(0, 400),
                        int(places[seat] == 0), 12, 12 * rng.uniform(5, 60),
                        json.dumps(highlights(game, rng))))
        for season in (ALL_TIME, season_of(when)):
            table = skills.setdefault((game, season), {})
            before = {user: table.get(user, START) for user in people}
            after = rate(before, people, [contest])
            table.update(after)
            for seat, user in enumerate(people):
                tally = counts.setdefault((game, season, user), [0, 0])
                tally[0] += 1
                tally[1] += int(places[seat] == 0)
                if season == ALL_TIME:
                    db.execute("INSERT INTO rating_changes (match_id, user_id, seq, guild_id,"
                               " game, before, after) VALUES (?, ?, ?, ?, ?, ?, ?)",
                               (i, user, i, GUILD, game, display(before[user]),
                                display(after[user])))
        if i % 5000 == 0:
            db.commit()
    for (game, season), table in skills.items():
        for user, skill in table.items():
            games, wins = counts[(game, season, user)]
            db.execute("INSERT INTO ratings (guild_id, game, season, user_id, name, mu, sigma,"
                       " display, games, wins) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                       (GUILD, game, season, user, f"player{user}", skill.mu, skill.sigma,
                        display(skill), games, wins))
    db.commit()
    db.close()


async def stats(store: Store, user: int, game: str | None) -> int:
    """What `/gamenight stats` reads and draws; the number of results read."""
    results = await store.person_results(GUILD, user, game)
    for name in {r.game for r in results}:
        await store.rating(GUILD, name, ALL_TIME, user)
        await store.rating(GUILD, name, season_of(datetime.now(UTC)), user)
    path = await store.rating_path(GUILD, game or results[-1].game, user)
    await asyncio.to_thread(rating_chart, path, ENGLISH_VOICE)
    return len(results)


async def timed(label: str, runs: int, ask) -> None:
    times = []
    for _ in range(runs + 1):
        started = time.perf_counter()
        found = await ask()
        times.append((time.perf_counter() - started) * 1000)
    first, warm = times[0], times[1:]
    print(f"  {label:<44} first {first:6.1f} ms   then median {statistics.median(warm):6.1f} ms,"
          f" worst {max(warm):6.1f} ms   ({found})")


async def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--matches", type=int, default=100_000)
    parser.add_argument("--players", type=int, default=120)
    parser.add_argument("--runs", type=int, default=21)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "records.db"
        started = time.perf_counter()
        await fill(path, args.matches, args.players)
        size = path.stat().st_size / 1e6
        print(f"{args.matches:,} finished matches, {args.players} players: written in "
              f"{time.perf_counter() - started:.0f} s, {size:.0f} MB")
        store = await Store.open(path)
        try:
            season = season_of(datetime.now(UTC))
            busiest = 1
            await timed("leaderboard, Scrabble, all time, page 1", args.runs, lambda: _rows(
                store.leaderboard(GUILD, "scrabble", ALL_TIME)))
            await timed("leaderboard, Reversi, this season, page 8", args.runs, lambda: _rows(
                store.leaderboard(GUILD, "reversi", season, offset=70)))
            await timed("stats, one player, Scrabble (results)", args.runs,
                        lambda: stats(store, busiest, "scrabble"))
            await timed("stats, one player, every game (results)", args.runs,
                        lambda: stats(store, busiest, None))
            await timed("history, the server, page 1", args.runs, lambda: _count(
                store.history(GUILD)))
            await timed("history, one player, page 20", args.runs, lambda: _count(
                store.history(GUILD, busiest, offset=190)))
        finally:
            await store.close()


async def _rows(query) -> int:
    rows, total = await query
    return total


async def _count(query) -> int:
    return len(await query)


if __name__ == "__main__":
    asyncio.run(main())
