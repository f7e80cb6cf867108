"""Load through the fake Discord: many matches at once, a fifth of the players with their DMs
closed, and the requests Discord would refuse. Run from the repository root:

    python benchmarks/bench_load.py [--matches 6] [--players 20] [--population 2000]
                                    [--actions 3000] [--games reversi,scrabble,doudizhu]

Reversi, Scrabble (2 players) and Dou Dizhu (3 players) matches (or the `--games` given;
Patchwork too) are opened in their own channels
and played by the engines' legal moves through slash commands, one action at a time, round robin
over the matches; a finished match makes way for a new one in its channel, seated from a fixed
population of players, so players come back as they do on a real server. It prints the time
from each interaction to the bot being idle again (every reply, board, DM and edit done).

Refusals depend on time (a closed-DM player is tried again after an hour, then two, four…), so
the bot's refusal clock is simulated. The run is one slice of a process doing 50 actions a
second for `--population` players: population / players such slices, each with its own
players, side by side. So the slice acts at 50 * players / population actions a simulated
second, and its refusals are multiplied by population / players. It prints, per simulated 10
minutes, the refused requests (401/403/429) the whole process would see: Discord bans an address
past 10,000. The first hour is the cold start (every player is new to the bot, and each
closed-DM player costs one refusal when first seen); later hours show the steady state with
returning players.
"""

from __future__ import annotations

import argparse
import asyncio
import bisect
import random
import statistics
import sys
import tempfile
import time
from collections import Counter
from datetime import datetime, timedelta
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import bot.ui.dms as private  # noqa: E402
import games.doudizhu as ddz  # noqa: E402
import games.patchwork as patchwork  # noqa: E402
import games.reversi as reversi  # noqa: E402
import games.scrabble as scrabble  # noqa: E402
from tests.e2e_helpers import running_bot  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402

SEATS = {"reversi": 2, "scrabble": 2, "doudizhu": 3, "patchwork": 2}
GAMES = (("reversi", 2), ("scrabble", 2), ("doudizhu", 3))
REFUSED = (401, 403, 429)
RATE, WINDOW = 50, 600  # actions a second, seconds Discord counts refusals over


def command_for(game: str, state, seat: int) -> tuple[str, dict]:
    """The slash command (and options) of a legal move for `seat`."""
    if game == "reversi":
        return "reversi move", {"square": str(reversi.legal_moves(state, seat)[0])}
    if game == "scrabble":
        if state.pending is not None and state.pending.final:
            return "scrabble pass", {}
        plays = scrabble.scored_plays(state, seat)
        if not plays:
            return "scrabble pass", {}
        play = plays[len(plays) // 2][1]  # a middling play keeps the game long
        return "scrabble play", {"word": play.word, "square": play.square,
                                 "direction": play.direction}
    if game == "patchwork":
        return patchwork_command(state, seat)
    moves = ddz.legal_moves(state, seat)
    if state.phase == ddz.ROUND_OVER:
        return "doudizhu next", {}
    if state.phase == ddz.AUCTION:
        amount = max(move.amount for move in moves)
        return "doudizhu bid", {"amount": str(amount) if amount else "pass"}
    plays = [move for move in moves if isinstance(move, ddz.Play)]
    return ("doudizhu play", {"cards": str(plays[0])}) if plays else ("doudizhu pass", {})


def patchwork_command(state, seat: int) -> tuple[str, dict]:
    """A leather patch on the first free square, else the first patch that fits (so quilts
    fill), else a pass."""
    move = patchwork.legal_moves(state, seat)[0]
    if isinstance(move, patchwork.Place):
        return "patchwork place", {"square": move.square}
    if isinstance(move, patchwork.Buy):
        return "patchwork buy", {"patch": move.choice, "square": move.square,
                                 "orientation": move.orientation}
    return "patchwork pass", {}


class SimulatedClock:
    """The bot's refusal clock, moved forward a fixed step per action."""

    def __init__(self, step: timedelta) -> None:
        self.at = datetime(2026, 1, 1, tzinfo=private.UTC)
        self.step = step

    def __call__(self) -> datetime:
        return self.at


class Tables:
    """The channels, each with a match whose players come from one population."""

    def __init__(self, fake, guild, bot, players: int, closed: float, seed: int = 1,
                 games: tuple[tuple[str, int], ...] = GAMES) -> None:
        self.fake, self.guild, self.bot = fake, guild, bot
        self.games = games
        self.random = random.Random(seed)
        every = round(1 / closed) if closed else 0
        self.people = []
        for number in range(1, players + 1):
            user = fake.add_user(f"p{number}", dms_open=not every or number % every != 0)
            fake.add_member(guild, user)
            self.people.append(user)
        self.tables: list[tuple[str, object, dict]] = []
        self.lobby_commands = 0
        self.stamps: list[tuple[int, datetime]] = []  # (request log length, simulated time)

    def stamp(self, at: datetime) -> None:
        """Requests from here on happen at simulated time `at`."""
        self.stamps.append((len(self.fake.request_log), at))

    async def open(self, index: int, channel=None) -> None:
        """A started match of the index's game in `channel` (a new channel if None)."""
        game, seats = self.games[index % len(self.games)]
        channel = channel or self.fake.add_channel(self.guild, f"{game}-{index}")
        users = self.random.sample(self.people, seats)
        options = {"players": seats} if game in ("scrabble", "doudizhu") else {}
        await self.fake.slash(users[0], channel, f"{game} new", **options)
        for user in users[1:]:
            await self.fake.slash(user, channel, "match join")
        self.lobby_commands += seats
        entry = (game, channel, {u.id: u for u in users})
        if index < len(self.tables):
            self.tables[index] = entry
        else:
            self.tables.append(entry)


async def play(tables: Tables, actions: int, clock: SimulatedClock) -> list[float]:
    """Round robin: the player to move in each match acts once, and a finished match is
    followed by a new one; the seconds each action took."""
    took: list[float] = []
    bot, fake = tables.bot, tables.fake
    while len(took) < actions:
        for index, (game, channel, users) in enumerate(list(tables.tables)):
            tables.stamp(clock.at)
            match = await bot.service.current(channel.id)
            if match is None or match.status != "active":
                await tables.open(index, channel)
                continue
            seat = match.current_seat()
            if seat is None:
                continue
            user = users[match.player(seat).user_id]
            command, options = command_for(game, match.state, seat)
            start = time.perf_counter()
            await fake.slash(user, channel, command, **options)
            took.append(time.perf_counter() - start)
            clock.at += clock.step
            if len(took) >= actions:
                break
    return took


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def main(matches: int, actions: int, players: int, population: int,
               closed: float, games: tuple[tuple[str, int], ...] = GAMES) -> None:
    scale = population / players
    clock = SimulatedClock(timedelta(seconds=scale / RATE))
    private.now = clock  # the benchmark's own process: nothing else reads this clock
    fake = FakeDiscord()
    await fake.start()
    try:
        guild = fake.add_guild("Load")
        with tempfile.TemporaryDirectory() as folder:
            async with running_bot(fake, Path(folder) / "load.db", guild.id) as bot:
                tables = Tables(fake, guild, bot, players, closed, games=games)
                tables.stamp(clock.at)
                for index in range(matches):
                    await tables.open(index)
                took = await play(tables, actions, clock)
                log = list(fake.request_log)
    finally:
        await fake.stop()
    report(log, took, tables, matches, players, scale, closed)


def parse_games(text: str) -> tuple[tuple[str, int], ...]:
    """`reversi,scrabble,patchwork` as (game, seats) pairs, opened in turn."""
    return tuple((name, SEATS[name]) for name in text.split(","))


def report(log, took, tables: Tables, matches, players, scale, closed) -> None:
    refused = [r for r in log if r.status in REFUSED]
    ms = [t * 1000 for t in took]
    done = len(took) + tables.lobby_commands
    hours = len(took) * scale / RATE / 3600
    print(f"{matches} channels ({', '.join(g for g, _ in tables.games)}), {players} players "
          f"({closed:.0%} with DMs closed), {len(took)} actions over {hours:.1f} simulated hours")
    print(f"interaction -> bot idle: median {statistics.median(ms):.1f} ms, "
          f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms")
    print(f"requests: {len(log)} ({len(log) / done:.1f} per action, the "
          f"{tables.lobby_commands} lobby commands included); refused: {len(refused)}")
    for (status, method, route), count in Counter(
            (r.status, r.method, r.path.split("/")[1]) for r in refused).most_common():
        print(f"  {count:5d}  {status} {method} /{route}/...")
    # When each refusal happened: the last stamp taken before its request.
    positions = [index for index, _ in tables.stamps]
    start = tables.stamps[0][1]
    per_window: Counter[int] = Counter()
    for index, record in enumerate(log):
        if record.status in REFUSED:
            at = tables.stamps[bisect.bisect_right(positions, index) - 1][1]
            per_window[int((at - start) / timedelta(seconds=WINDOW))] += 1
    windows = max(1, int(hours * 3600 / WINDOW))
    print(f"as one slice of a process at {RATE} actions/s (x{scale:.0f}: "
          f"{players * scale:,.0f} players), refused per 10 minutes, window by window:")
    figures = [per_window[w] * scale for w in range(windows)]
    print("  " + " ".join(f"{f:,.0f}" for f in figures))
    cold, warm = figures[:6], figures[6:]
    print(f"first hour (every player new): mean {statistics.mean(cold):,.0f}, "
          f"max {max(cold):,.0f}")
    if warm:
        print(f"after it (players returning): mean {statistics.mean(warm):,.0f}, "
              f"max {max(warm):,.0f} (goal <= 100; Discord bans an address past 10,000)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=6, help="channels in play at once")
    parser.add_argument("--actions", type=int, default=3000)
    parser.add_argument("--players", type=int, default=20, help="the slice's players")
    parser.add_argument("--population", type=int, default=2000,
                        help="the players of a whole process at 50 actions/s")
    parser.add_argument("--closed", type=float, default=0.2, help="share of players with DMs "
                        "closed")
    parser.add_argument("--games", type=parse_games, default=GAMES,
                        help="the games opened in turn, e.g. reversi,scrabble,patchwork")
    args = parser.parse_args()
    asyncio.run(main(args.matches, args.actions, args.players, args.population, args.closed,
                     args.games))
