"""Load through the fake Discord: many matches at once, a fifth of the players with their DMs
closed, and the requests Discord would refuse. Run from the repository root:

    python benchmarks/bench_load.py [--matches 30] [--actions 600] [--closed 0.2]

Reversi, Scrabble (2 players) and Dou Dizhu (3 players) matches are opened in their own channels
and played by the engines' legal moves through slash commands, one action at a time, round robin
over the matches. It prints the time from each interaction to the bot being idle again (every
reply, board, DM and edit done), and the refused requests (401/403/429) Discord would count,
scaled to 10 minutes at 50 actions a second: Discord bans an address past 10,000.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games.doudizhu as ddz  # noqa: E402
import games.reversi as reversi  # noqa: E402
import games.scrabble as scrabble  # noqa: E402
from tests.e2e import running_bot  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402

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
    moves = ddz.legal_moves(state, seat)
    if state.phase == ddz.ROUND_OVER:
        return "doudizhu next", {}
    if state.phase == ddz.AUCTION:
        amount = max(move.amount for move in moves)
        return "doudizhu bid", {"amount": str(amount) if amount else "pass"}
    plays = [move for move in moves if isinstance(move, ddz.Play)]
    return ("doudizhu play", {"cards": str(plays[0])}) if plays else ("doudizhu pass", {})


async def open_matches(fake, guild, bot, count: int, closed: float):
    """`count` started matches, each in its own channel: (game, channel, users by seat order)."""
    tables, made = [], 0
    for index in range(count):
        game, seats = GAMES[index % len(GAMES)]
        channel = fake.add_channel(guild, f"{game}-{index}")
        users = []
        for _ in range(seats):
            made += 1
            user = fake.add_user(f"p{made}", dms_open=(made % round(1 / closed)) != 0)
            fake.add_member(guild, user)
            users.append(user)
        options = {"players": seats} if game != "reversi" else {}
        await fake.slash(users[0], channel, f"{game} new", **options)
        for user in users[1:]:
            await fake.slash(user, channel, "match join")
        tables.append((game, channel, {u.id: u for u in users}))
    return tables


async def play(fake, bot, tables, actions: int) -> list[float]:
    """Round robin: the player to move in each open match acts once; the seconds each took."""
    took: list[float] = []
    while len(took) < actions:
        moved = False
        for game, channel, users in tables:
            match = await bot.service.current(channel.id)
            if match is None or match.status != "active":
                continue
            seat = match.current_seat()
            if seat is None:
                continue
            user = users[match.player(seat).user_id]
            command, options = command_for(game, match.state, seat)
            start = time.perf_counter()
            await fake.slash(user, channel, command, **options)
            took.append(time.perf_counter() - start)
            moved = True
            if len(took) >= actions:
                break
        if not moved:
            break
    return took


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


async def main(matches: int, actions: int, closed: float) -> None:
    fake = FakeDiscord()
    await fake.start()
    try:
        guild = fake.add_guild("Load")
        with tempfile.TemporaryDirectory() as folder:
            async with running_bot(fake, Path(folder) / "load.db", guild.id) as bot:
                before = len(fake.request_log)  # the matches' starts count: DMs go out then
                tables = await open_matches(fake, guild, bot, matches, closed)
                opened = sum(len(users) for _, _, users in tables)  # a `new` or a join each
                took = await play(fake, bot, tables, actions)
                log = fake.request_log[before:]
    finally:
        await fake.stop()
    refused = Counter((r.status, r.method, r.path.split("/")[1]) for r in log
                      if r.status in REFUSED)
    total = sum(refused.values())
    ms = [t * 1000 for t in took]
    print(f"{matches} matches ({', '.join(g for g, _ in GAMES)}), {len(took)} actions, "
          f"{closed:.0%} of the players with DMs closed")
    print(f"interaction -> bot idle: median {statistics.median(ms):.1f} ms, "
          f"p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms")
    done = len(took) + opened
    print(f"requests: {len(log)} ({len(log) / done:.1f} per action, the {opened} lobby "
          f"commands included); refused: {total}")
    for (status, method, route), count in refused.most_common():
        print(f"  {count:5d}  {status} {method} /{route}/...")
    per_window = total / done * RATE * WINDOW
    print(f"refused per 10 minutes at {RATE} actions/s: {per_window:,.0f} "
          f"(Discord bans an address past 10,000)")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--matches", type=int, default=30)
    parser.add_argument("--actions", type=int, default=600)
    parser.add_argument("--closed", type=float, default=0.2, help="share of players with DMs "
                        "closed")
    args = parser.parse_args()
    asyncio.run(main(args.matches, args.actions, args.closed))
