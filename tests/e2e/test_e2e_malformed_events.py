"""A malformed gateway event (a component click without its custom id) is logged and dropped:
the process stays up, and the next interaction, and every other match, are answered."""

from __future__ import annotations

import logging

import pytest

import games.reversi as reversi
from tests.e2e_helpers import fake_world, running_bot

pytestmark = pytest.mark.e2e


async def reversi_started(fake, channel, bot, alice, bob):
    lobby = await fake.slash(alice, channel, "reversi new")
    await fake.click(bob, lobby.message, label="Join")
    match = await bot.service.current(channel.id)
    to_move = alice if match.player(match.current_seat()).user_id == alice.id else bob
    return match, to_move


async def test_a_click_without_a_custom_id_is_dropped_and_play_goes_on(tmp_path, caplog):
    async with fake_world("games", ("alice", "bob", "carol", "dave")) as world:
        fake, guild, channel, users = world
        other = fake.add_channel(guild, "more-games")
        async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
            first, to_move = await reversi_started(fake, channel, bot, users["alice"],
                                                   users["bob"])
            second, _ = await reversi_started(fake, other, bot, users["carol"], users["dave"])
            board = fake.messages(channel)[-1]
            payload = fake.interaction_payload(3, users["alice"], channel,
                                               {"component_type": 2}, message=board)
            caplog.set_level(logging.WARNING, logger="bot.app.events")

            await fake.gateway_event("INTERACTION_CREATE", payload, guild=guild)

            dropped = [r for r in caplog.records if r.name == "bot.app.events"]
            assert len(dropped) == 1 and "INTERACTION_CREATE" in dropped[0].getMessage()
            assert payload["token"] not in dropped[0].getMessage()  # no credentials in logs
            assert not bot.is_closed()
            status = await fake.slash(users["carol"], other, "match status")  # answered
            assert status.response_type is not None and not status.ephemeral
            square = str(reversi.legal_moves(first.state, first.current_seat())[0])
            moved = await fake.slash(to_move, channel, "reversi move", square=square)
            assert not moved.ephemeral, moved.content
            assert len(await bot.store.moves(first.id)) == 1
            assert len(await bot.store.moves(second.id)) == 0
