"""Channels where the bot may not post (no Send Messages) or not attach pictures (no Attach
Files): whole matches through the real bot and the fake Discord, with no request refused
(Discord counts each refusal toward banning the bot's address) and every action answered."""

from __future__ import annotations

import random

import pytest

import games.doudizhu as ddz
from tests.e2e_helpers import fake_world, running_bot
from tests.fakediscord import Perm

pytestmark = pytest.mark.e2e

NO_PICTURE = "I need the **Attach Files** permission"


def refused(fake) -> list[tuple[str, str, int]]:
    return [(r.method, r.path, r.status) for r in fake.request_log if r.status == 403]


def answered(result) -> bool:
    """The caller sees something: a response, a follow-up, or the clicked message updated."""
    return result.response_type in (4, 7) or any(
        not m.loading for m in result.all_messages)


async def play_reversi(fake, channel, alice, bob, rng) -> list:
    """A whole Reversi match by slash commands; returns every move's result."""
    lobby = await fake.slash(alice, channel, "reversi new")
    assert answered(lobby) and not lobby.ephemeral
    joined = await fake.click(bob, lobby.message, label="Join")
    assert answered(joined)
    results, players = [joined], (alice, bob)
    for _ in range(80):
        if "Game over" in results[-1].text():
            break
        for user in players:
            choices = await fake.autocomplete(user, channel, "reversi move", "square", square="")
            if choices:
                break
        move = await fake.slash(user, channel, "reversi move",
                                square=rng.choice(choices)["value"])
        assert answered(move) and not move.ephemeral, move.text()
        results.append(move)
    assert "Game over" in results[-1].text()
    return results


@pytest.mark.parametrize("denied", ["send", "attach"])
async def test_reversi_where_the_bot_may_not_post_or_attach(tmp_path, denied):
    async with fake_world("reversi", ("alice", "bob")) as (fake, guild, channel, users):
        deny = Perm.SEND_MESSAGES if denied == "send" else Perm.ATTACH_FILES
        fake.set_bot_overwrite(channel, deny=deny)
        async with running_bot(fake, tmp_path / "g.db", guild.id):
            results = await play_reversi(fake, channel, users["alice"], users["bob"],
                                         random.Random(3))
        assert refused(fake) == []
        boards = [m for r in results for m in r.all_messages if m.embeds and not m.ephemeral]
        assert len(boards) >= len(results)  # every move's board, answered through the interaction
        if denied == "attach":
            assert all(not m.attachments for r in results for m in r.all_messages)
            assert all(NO_PICTURE in m.text() for m in boards if "Reversi:" not in m.text())


@pytest.mark.parametrize("denied", ["send", "attach"])
async def test_a_dou_dizhu_round_where_the_bot_may_not_post_or_attach(tmp_path, denied):
    """With no interaction to answer (a Dou Dizhu DM control), nothing is posted in a channel
    without Send Messages: the player hears once, only to them, which permission is missing.
    Without Attach Files the tables come without pictures, saying why."""
    names = ("alice", "bob", "carol")
    async with fake_world("doudizhu", names) as (fake, guild, channel, users):
        deny = Perm.SEND_MESSAGES if denied == "send" else Perm.ATTACH_FILES
        fake.set_bot_overwrite(channel, deny=deny)
        players = [users[name] for name in names]
        async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
            lobby = await fake.slash(players[0], channel, "doudizhu new", players=3)
            for user in players[1:]:
                assert answered(await fake.click(user, lobby.message, label="Join"))
            match = await bot.service.latest(channel.id)
            told = []
            for _ in range(300):
                match = await bot.service.get(match.id)
                state = match.state
                if state.phase not in (ddz.AUCTION, ddz.PLAY):
                    break
                user = players[state.turn]
                if state.phase == ddz.AUCTION:
                    result = await fake.slash(user, channel, "doudizhu bid", amount="3")
                else:
                    dm = fake.dm_messages(user)[-1]
                    if dm.selects:
                        options = dm.selects[0]["options"]
                        value = max((o["value"] for o in options), key=len)
                        result = await fake.select(user, dm, dm.selects[0]["custom_id"], [value])
                    else:
                        result = await fake.click(user, dm, label="Pass")
                assert answered(result), result.text()
                told += [m for m in result.all_messages
                         if m.ephemeral and "**Send Messages** permission" in m.text()]
            assert state.phase == ddz.ROUND_OVER
        assert refused(fake) == []
        public = fake.messages(channel)
        if denied == "send":
            assert len(told) == 1
            assert all(m.interaction is not None for m in public)  # no plain channel post
        else:
            assert told == [] and not any(m.attachments for m in public)
            assert any(NO_PICTURE in m.text() for m in public if m.interaction is None)
