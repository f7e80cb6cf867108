"""A database with a few played matches (finished, rated, one still in play), closed, for the
operator's commands to back up, restore and verify."""

from __future__ import annotations

import pytest

from bot.matches.model import Player
from bot.matches.service import MatchService
from bot.storage.store import Store
from tests.bot.matches.test_records import PEOPLE, play


async def played(path, *, games=(("reversi", 2), ("scrabble", 3), ("doudizhu", 3))):
    store = await Store.open(path)
    service = MatchService(store)
    for seed, (game, count) in enumerate(games):
        await play(service, game, PEOPLE[:count], channel=30 + seed, seed=seed)
    lobby = await service.open_lobby("reversi", guild_id=7, channel_id=99, creator=PEOPLE[0],
                                     seed=5, options={"players": 2})
    match = await service.join(lobby.id, Player(301, "eve"))
    seat = match.current_seat()
    move = match.engine.legal_moves(match.state, seat)[0]
    await service.act(99, match.player(seat).user_id, str(move))
    await store.close()
    return path


@pytest.fixture
async def played_db(tmp_path):
    return await played(tmp_path / "gamenight.db")
