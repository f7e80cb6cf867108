"""Matches of each game, started by slash command through the real bot and the fake Discord
and played on through the match service (the same `act` a slash command calls): what the
browser tests and docs/tools/web_screenshots.py open the pages of.

Moves are chosen from the engine's legal moves by a seeded generator, preferring moves that
change the table (a play or a purchase over a pass), so a run shows the same match each time.
"""

from __future__ import annotations

import asyncio
import os
import random
from dataclasses import dataclass
from typing import Any

GAMES = ("reversi", "scrabble", "patchwork", "doudizhu")
PLAYERS = ("alice", "bob", "carol")
# Moves that leave the table as it was: chosen only when nothing else is legal.
IDLE = {"pass", "challenge"}
PLAYWRIGHT = f"{os.sep}playwright{os.sep}"


def playwright_is_not_the_bot(fake: Any) -> None:
    """The fake Discord waits for the bot's tasks to be idle after each interaction; Playwright's
    own tasks (its driver's pipe, started on the same event loop) are the test's, not the
    bot's."""
    fake.idle_predicates.append(_playwright_task)


def _playwright_task(task: asyncio.Task[Any]) -> bool:
    coro: Any = task.get_coro()
    code = getattr(coro, "cr_code", None) or getattr(coro, "gi_code", None)
    return code is not None and PLAYWRIGHT in code.co_filename


@dataclass
class Opened:
    """A match open in a channel, and the pages' addresses on the bot's own port."""

    match_id: int
    live: str  # http://127.0.0.1:PORT/m/TOKEN
    replay: str  # http://127.0.0.1:PORT/r/TOKEN


def local(bot: Any, link: str) -> str:
    """A link the bot gives Discord (on GAMENIGHT_PUBLIC_URL), on the port it serves here."""
    path = link.split("/", 3)[3]
    return f"http://127.0.0.1:{bot.web.port}/{path}"


async def open_match(fake: Any, bot: Any, channel: Any, users: dict[str, Any],
                     game: str) -> Opened:
    """A new match of `game` in `channel` by slash command, joined by button: alice and bob
    (and carol for Dou Dizhu's three seats; Scrabble's is started by its creator)."""
    alice, bob, carol = (users[name] for name in PLAYERS)
    options = {"players": 3} if game == "doudizhu" else {}
    lobby = await fake.slash(alice, channel, f"{game} new", **options)
    joiners = (bob, carol) if game == "doudizhu" else (bob,)
    for user in joiners:
        await fake.click(user, lobby.message, label="Join")
    if game == "scrabble":  # up to four seats: the creator starts it with two
        await fake.click(alice, lobby.message, label="Start")
    match = await bot.service.current(channel.id)
    assert match is not None and match.status == "active", lobby.message.text()
    return Opened(match.id, local(bot, await bot.web.live_link(match.id)),
                  local(bot, await bot.web.replay_link(match.id)))


def choose(match: Any, seat: int, rng: random.Random) -> str:
    """A legal move for `seat`, one that changes the table where there is one."""
    moves = [str(move) for move in match.engine.legal_moves(match.state, seat)]
    busy = [move for move in moves if move.split()[0].lower() not in IDLE
            and not move.lower().startswith("exchange")]
    return rng.choice(busy or moves)


async def play(bot: Any, channel: Any, moves: int, seed: int = 7) -> int:
    """Up to `moves` actions in the channel's match, each by the seat to act; how many were
    made (fewer where the game ended or no one seat is to act)."""
    rng = random.Random(seed)
    for made in range(moves):
        match = await bot.service.current(channel.id)
        seat = None if match is None or match.status != "active" else match.current_seat()
        if seat is None:
            return made
        await bot.service.act(channel.id, match.player(seat).user_id, choose(match, seat, rng))
    return moves


async def finish(fake: Any, bot: Any, channel: Any, users: dict[str, Any]) -> int:
    """The channel's match ends: the seat to act resigns by slash command (for Dou Dizhu,
    whose round goes on, resignations until it is over). The number of actions logged."""
    by_id = {user.id: user for user in users.values()}
    match = await bot.service.current(channel.id)
    match_id = match.id
    while match is not None and match.id == match_id and match.status == "active":
        seat = match.current_seat()
        seat = 0 if seat is None else seat
        await fake.slash(by_id[match.player(seat).user_id], channel, "match resign")
        match = await bot.service.get(match_id)
    return len(await bot.service.store.moves(match_id))
