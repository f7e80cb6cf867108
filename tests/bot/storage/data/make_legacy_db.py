"""Write `legacy_matches.sql`: the dump of a database of matches of all four games, saved by the
code of the day it ran.

Run from the repository root: `python tests/bot/storage/data/make_legacy_db.py`. The database
was made at commit beab566 (engines with hand-written `to_dict`/`from_dict`) and is kept as it
was, so `tests/bot/storage/test_legacy_db.py` proves that later code still loads what that
version saved.
Do not regenerate it to make a test pass: a failure there means old saves no longer load.

Moves go through `MatchService.act` as text, so the move log replays; choices are drawn from
the engines' legal moves with a fixed-seed RNG. Each match stops at a point worth loading.
"""

from __future__ import annotations

import asyncio
import random
import sqlite3
import sys
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.matches.model import Match, Player
from bot.matches.service import MatchService
from bot.storage.store import Store

OUT = Path(__file__).with_name("legacy_matches.sql")
PLAYERS = [Player(101, "alice"), Player(102, "bob"), Player(103, "carol"), Player(104, "dave")]
GUILD = 1


class Table:
    """One match being played through the service, a channel of its own."""

    channel = 9000

    def __init__(self, service: MatchService, rng: random.Random) -> None:
        self.service = service
        self.rng = rng

    async def start(self, game: str, seats: int, seed: int, **options: Any) -> Match:
        Table.channel += 1
        lobby = await self.service.open_lobby(
            game, guild_id=GUILD, channel_id=Table.channel, creator=PLAYERS[0],
            options={"players": seats, **options}, seed=seed)
        match = lobby
        for player in PLAYERS[1:seats]:
            match = await self.service.join(lobby.id, player)
        assert match.status == "active", match.status
        return match

    async def act(self, match: Match, seat: int, text: str) -> Match:
        user = match.player(seat).user_id
        result = await self.service.act(match.channel_id, user, text)
        return result.match

    async def random_move(self, match: Match, choose: Callable[[list], Any] | None = None
                          ) -> Match:
        seat = match.current_seat()
        moves = match.engine.legal_moves(match.state, seat)
        move = (choose or self.rng.choice)(moves)
        return await self.act(match, seat, str(move))

    async def play_until(self, match: Match, done: Callable[[Match], bool], limit: int = 400,
                         choose: Callable[[list], Any] | None = None) -> Match:
        for _ in range(limit):
            if done(match):
                return match
            match = await self.random_move(match, choose)
        raise RuntimeError(f"match #{match.id} never reached the point wanted")


async def reversi(table: Table) -> None:
    match = await table.start("reversi", 2, seed=101)
    await table.play_until(match, lambda m: len(m.state.events) and m.row.version >= 22)
    match = await table.start("reversi", 2, seed=102)
    await table.play_until(match, lambda m: m.status == "finished")
    match = await table.start("reversi", 2, seed=103)
    match = await table.play_until(match, lambda m: m.row.version >= 10)
    await table.service.resign(match.channel_id, match.player(0).user_id)


def _is_play(move: Any) -> bool:
    return type(move).__name__ == "Play"


def _has_blank(move: Any) -> bool:
    return _is_play(move) and any(c.islower() for c in move.word)


def _plain_play(moves: list) -> Any:
    """The first play that lays no blank, else the first play, else the first move."""
    plain = [m for m in moves if _is_play(m) and not _has_blank(m)]
    return (plain or [m for m in moves if _is_play(m)] or moves)[0]


def _blank_play(moves: list) -> Any:
    """The first play that lays a blank, else as `_plain_play`."""
    return ([m for m in moves if _has_blank(m)] or [_plain_play(moves)])[0]


async def scrabble(table: Table) -> None:
    # A play with a blank, open to challenge (the next player has not acted yet).
    match = await table.start("scrabble", 2, seed=7)
    match = await table.play_until(match, lambda m: m.row.version >= 6, choose=_plain_play)
    match = await table.play_until(
        match, lambda m: m.state.pending is not None and any(
            c.islower() for c in m.state.pending.move.split()[-1]), choose=_blank_play)
    # Three players, 9-tile racks, finish line: a failed challenge costs a turn.
    match = await table.start("scrabble", 3, seed=8, tiles=9, finish="intermediate")
    match = await table.play_until(match, lambda m: m.state.pending is not None
                                   and m.row.version >= 4, choose=_plain_play)
    challenger = next(s for s in range(3) if s not in (match.state.pending.seat,
                                                        match.current_seat()))
    match = await table.act(match, challenger, "challenge")
    await table.play_until(match, lambda m: m.row.version >= 9, choose=_blank_play)
    # Four players, stopped just after a failed challenge: the challenger's next turn is lost.
    match = await table.start("scrabble", 4, seed=10)
    match = await table.play_until(match, lambda m: m.state.pending is not None
                                   and m.row.version >= 5, choose=_plain_play)
    await table.act(match, match.state.pending.seat - 1, "challenge")
    # Finished: one of two players resigns after a few plays.
    match = await table.start("scrabble", 2, seed=9, challenge="void")
    match = await table.play_until(match, lambda m: m.row.version >= 6, choose=_blank_play)
    await table.service.resign(match.channel_id, match.player(1).user_id)


def _mostly_play(rng: random.Random) -> Callable[[list], Any]:
    def choose(moves: list) -> Any:
        plays = [m for m in moves if str(m) not in ("pass", "bid pass")]
        return rng.choice(plays) if plays and rng.random() < 0.7 else rng.choice(moves)
    return choose


async def doudizhu(table: Table) -> None:
    choose = _mostly_play(table.rng)
    # Mid-trick: someone must beat the last play.
    match = await table.start("doudizhu", 3, seed=21)
    await table.play_until(match, lambda m: m.state.phase == "play" and m.state.to_beat
                           and len(m.state.played) >= 12, choose=choose)
    # Round over, the ledger written, waiting for next or stop.
    match = await table.start("doudizhu", 3, seed=22)
    await table.play_until(match, lambda m: m.state.phase == "round_over", choose=choose)
    # Four players, two decks, second round in play.
    match = await table.start("doudizhu", 4, seed=23)
    await table.play_until(match, lambda m: m.state.round_no == 2 and m.state.phase == "play"
                           and m.state.trick, choose=choose, limit=600)
    # Finished: a round played, then stop.
    match = await table.start("doudizhu", 3, seed=24)
    match = await table.play_until(match, lambda m: m.state.phase == "round_over", choose=choose)
    await table.act(match, 0, "stop")


async def patchwork(table: Table) -> None:
    match = await table.start("patchwork", 2, seed=31)
    await table.play_until(match, lambda m: m.state.pending_seat is not None)
    match = await table.start("patchwork", 2, seed=32)
    await table.play_until(match, lambda m: m.row.version >= 15)
    match = await table.start("patchwork", 2, seed=33)
    await table.play_until(match, lambda m: m.status == "finished")


async def lobbies(table: Table) -> None:
    Table.channel += 1
    await table.service.open_lobby("reversi", guild_id=GUILD, channel_id=Table.channel,
                                   creator=PLAYERS[0], seed=41)
    Table.channel += 1
    await table.service.open_lobby("patchwork", guild_id=GUILD, channel_id=Table.channel,
                                   creator=PLAYERS[1], seed=42)
    await table.service.cancel(Table.channel, PLAYERS[1].user_id, moderator=False)


async def main() -> None:
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "legacy.db"
        store = await Store.open(path)
        try:
            table = Table(MatchService(store), random.Random(2026))
            for make in (reversi, scrabble, doudizhu, patchwork, lobbies):
                await make(table)
        finally:
            await store.close()
        with sqlite3.connect(path) as db:  # a text dump: no database file in the repository
            version = db.execute("PRAGMA user_version").fetchone()[0]
            OUT.write_text("\n".join(db.iterdump()) + f"\nPRAGMA user_version = {version};\n")
    print(f"wrote {OUT}", file=sys.stderr)

if __name__ == "__main__":
    asyncio.run(main())
