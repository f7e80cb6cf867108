"""A user's DM channel is opened once and remembered: later DMs to them are one request each,
through the real discord.py against the fake Discord."""

from __future__ import annotations

import pytest

from bot.ui.dm_channels import DMChannels
from tests.e2e_helpers import fake_world, running_bot

pytestmark = pytest.mark.e2e


async def test_a_users_dm_channel_is_opened_once_and_kept_for_the_newest_users(tmp_path):
    async with fake_world("games", ("alice", "bob")) as (fake, guild, _channel, users):
        async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
            alice, bob = users["alice"], users["bob"]
            dms = DMChannels(bot, size=1)
            before = len(fake.requests)
            await (await dms.of(alice.id)).send("ONE")
            await (await dms.of(alice.id)).send("TWO")
            sent = fake.requests[before:]
            assert [method for method, _path in sent] == ["POST", "POST", "POST"]
            assert sent[0][1] == "/users/@me/channels"
            assert [m.content for m in fake.dm_messages(alice)] == ["ONE", "TWO"]

            await (await dms.of(bob.id)).send("HI")  # alice is forgotten: one user is kept
            await (await dms.of(alice.id)).send("THREE")  # asked for again (discord.py's cache)
            assert [m.content for m in fake.dm_messages(alice)] == ["ONE", "TWO", "THREE"]
            assert [m.content for m in fake.dm_messages(bob)] == ["HI"]
