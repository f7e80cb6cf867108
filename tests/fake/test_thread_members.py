"""A thread's members in the fake Discord, driven through discord.py: the bot adds players to
a thread it made (as the night rounds will), lists them, takes them out, and hears of it."""

from __future__ import annotations

import discord
import pytest
from discord.ext import commands
from discord.http import Route

from tests.fakediscord import FakeDiscord, Perm, run_bot


def make_bot(*, members_intent: bool = True) -> commands.Bot:
    intents = discord.Intents.default()
    intents.members = members_intent
    bot = commands.Bot(command_prefix="!", intents=intents)
    bot.joined = []

    @bot.listen()
    async def on_thread_member_join(member: discord.ThreadMember) -> None:
        bot.joined.append(member.id)

    return bot


@pytest.fixture
async def club():
    async with FakeDiscord() as fake:
        guild = fake.add_guild("Game Night Club")
        chan = fake.add_channel(guild, "games")
        players = [fake.add_user(name) for name in ("alice", "bob", "carol")]
        for player in players:
            fake.add_member(guild, player)
        yield fake, guild, chan, players


async def round_thread(bot: commands.Bot, chan) -> discord.Thread:
    channel = bot.get_channel(chan.id)
    return await channel.create_thread(name="Round 1", type=discord.ChannelType.public_thread)


async def test_adding_players_to_a_thread_and_listing_them(club):
    fake, g, chan, (alice, bob, carol) = club
    async with run_bot(make_bot(), fake) as bot:
        thread = await round_thread(bot, chan)
        made = fake.channels[thread.id]
        assert fake.thread_members(made) == [fake.bot_user]  # its creator
        for player in (bob, alice, bob):  # bob twice: still once
            await thread.add_user(discord.Object(player.id))
        await fake.wait_idle()
        assert fake.thread_members(made) == sorted([fake.bot_user, alice, bob], key=lambda u: u.id)
        assert sorted(bot.joined) == sorted([alice.id, bob.id])  # THREAD_MEMBERS_UPDATE
        assert {m.id for m in bot.get_channel(thread.id).members} == {alice.id, bob.id}  # cached
        listed = await thread.fetch_members()
        assert [m.id for m in listed] == sorted([fake.bot_user.id, alice.id, bob.id])
        assert all(m.thread_id == thread.id for m in listed)
        assert made.payload()["member_count"] == 3

        one = await bot.http.get_thread_member(thread.id, alice.id)
        assert one["user_id"] == str(alice.id) and "member" not in one
        with pytest.raises(discord.NotFound):
            await bot.http.get_thread_member(thread.id, carol.id)

        members = Route("GET", "/channels/{channel_id}/thread-members", channel_id=thread.id)
        first = await bot.http.request(members, params={"with_member": "true", "limit": 2})
        after = await bot.http.request(members, params={"with_member": "true", "after": first[-1]["user_id"]})
        assert [m["user_id"] for m in first + after] == [str(m.id) for m in listed]
        assert first[0]["member"]["user"]["id"] == first[0]["user_id"]


async def test_who_may_be_added_and_who_may_take_them_out(club):
    fake, g, chan, (alice, bob, _) = club
    stranger = fake.add_user("stranger")
    async with run_bot(make_bot(), fake) as bot:
        thread = await round_thread(bot, chan)
        made = fake.channels[thread.id]
        with pytest.raises(discord.NotFound) as unknown:
            await thread.add_user(discord.Object(stranger.id))
        assert unknown.value.code == 10007
        with pytest.raises(discord.HTTPException) as not_a_thread:
            await bot.http.add_user_to_thread(chan.id, alice.id)
        assert not_a_thread.value.code == 50024

        await thread.add_user(discord.Object(alice.id))
        await thread.add_user(discord.Object(bob.id))
        with pytest.raises(discord.Forbidden):  # a public thread: Manage Threads to take one out
            await thread.remove_user(discord.Object(bob.id))
        fake.set_bot_permissions(g, Perm.BOT_DEFAULT | Perm.MANAGE_THREADS)
        await thread.remove_user(discord.Object(bob.id))
        await thread.leave()
        assert fake.thread_members(made) == [alice]
        await thread.join()
        assert fake.bot_user in fake.thread_members(made)

        fake.set_bot_overwrite(chan, deny=Perm.SEND_MESSAGES_IN_THREADS)
        with pytest.raises(discord.Forbidden) as cannot_send:
            await thread.add_user(discord.Object(bob.id))
        assert cannot_send.value.code == 50013
        assert bob not in fake.thread_members(made)


async def test_without_the_members_intent_only_the_bots_own_comings_are_heard(club):
    fake, g, chan, (alice, _, _) = club
    async with run_bot(make_bot(members_intent=False), fake) as bot:
        thread = await round_thread(bot, chan)
        await thread.add_user(discord.Object(alice.id))
        await thread.leave()
        await thread.join()
        await fake.wait_idle()
    sent = [m["d"] for s in fake._sessions.values() for m in s.buffer if m["t"] == "THREAD_MEMBERS_UPDATE"]
    assert [d.get("removed_member_ids") or [a["user_id"] for a in d["added_members"]] for d in sent] == [
        [str(fake.bot_user.id)], [str(fake.bot_user.id)]]
    assert bot.joined == []
