"""Guild scheduled events in the fake Discord, driven through discord.py's own API by a tiny
bot (not the project's): creating, reading, changing and deleting them, their interested
users page by page, and Discord's rules (times, EXTERNAL events, status transitions, the cap
of 100 events to come, permissions)."""

from __future__ import annotations

from datetime import datetime, timedelta

import discord
import pytest
from discord.ext import commands

from tests.fakediscord import FakeDiscord, Perm, run_bot

EVENTS_BOT = Perm.BOT_DEFAULT | Perm.MANAGE_EVENTS


def tomorrow(hours: float = 0) -> datetime:
    return discord.utils.utcnow() + timedelta(days=1, hours=hours)


async def night(guild: discord.Guild, name: str = "Game night", *, start: datetime | None = None,
                end: datetime | None = None, location: str = "Table 1") -> discord.ScheduledEvent:
    """An EXTERNAL event as the bot must ask for one: discord.py leaves out the entity type and
    the privacy level unless given, and Discord requires both."""
    start = start or tomorrow()
    return await guild.create_scheduled_event(
        name=name, start_time=start, end_time=end or start + timedelta(hours=3), location=location,
        entity_type=discord.EntityType.external, privacy_level=discord.PrivacyLevel.guild_only)


def make_bot() -> commands.Bot:
    intents = discord.Intents.default()
    intents.members = True  # members (and so users) cached from GUILD_CREATE
    return commands.Bot(command_prefix="!", intents=intents)


@pytest.fixture
async def club():
    async with FakeDiscord(bot_permissions=EVENTS_BOT) as fake:
        guild = fake.add_guild("Game Night Club")
        mod = fake.add_user("mod")
        fake.add_member(guild, mod, permissions=Perm.MANAGE_EVENTS)
        yield fake, guild, mod


async def test_create_read_edit_and_delete_through_discord_py(club):
    fake, g, _ = club
    async with run_bot(make_bot(), fake) as bot:
        guild = bot.get_guild(g.id)
        start = tomorrow()
        made = await night(guild, start=start)
        assert (made.name, made.location, made.status) == ("Game night", "Table 1", discord.EventStatus.scheduled)
        assert made.start_time == start and made.end_time == start + timedelta(hours=3) and made.creator_id == bot.user.id
        (kept,) = fake.scheduled_events(g)
        assert kept.id == made.id and kept.creator is fake.bot_user and kept.interested == {}

        (listed,) = await guild.fetch_scheduled_events()
        fetched = await guild.fetch_scheduled_event(made.id)
        assert listed.id == fetched.id == made.id and fetched.user_count == 0
        assert guild.get_scheduled_event(made.id).name == "Game night"  # GUILD_SCHEDULED_EVENT_CREATE

        edited = await made.edit(name="Reversi night", location="Table 2", description="Bring snacks",
                                 end_time=start + timedelta(hours=5))
        assert (edited.name, edited.location, edited.description) == ("Reversi night", "Table 2", "Bring snacks")
        assert (kept.name, kept.location, kept.end) == ("Reversi night", "Table 2", start + timedelta(hours=5))
        assert guild.get_scheduled_event(made.id).name == "Reversi night"  # ...UPDATE

        await edited.delete()
        assert fake.scheduled_events(g) == [] and guild.get_scheduled_event(made.id) is None
        with pytest.raises(discord.NotFound) as gone:
            await guild.fetch_scheduled_event(made.id)
        assert gone.value.code == 10070


async def test_interested_users_in_pages_of_100_in_ascending_order(club):
    fake, g, _ = club
    people = [fake.add_user(f"player{i}") for i in range(150)]
    for person in people:
        fake.add_member(g, person, nick=f"P{person.name[6:]}")
    async with run_bot(make_bot(), fake) as bot:
        guild = bot.get_guild(g.id)
        made = await night(guild)
        event = fake.scheduled_event(made.id)
        for person in reversed(people):
            await fake.mark_interested(person, event)
        await fake.mark_interested(people[0], event)  # twice: still one
        assert (await guild.fetch_scheduled_event(made.id)).user_count == 150
        assert (await guild.fetch_scheduled_events())[0].user_count == 150

        ids = sorted(p.id for p in people)

        async def page(**query) -> list[dict]:
            return await bot.http.get_scheduled_event_users(g.id, made.id, **query)

        first = await page(limit=100, with_member=False)
        assert [int(u["user"]["id"]) for u in first] == ids[:100]
        assert first[0]["guild_scheduled_event_id"] == str(made.id) and "member" not in first[0]
        rest = await page(limit=100, with_member=False, after=ids[99])
        assert [int(u["user"]["id"]) for u in rest] == ids[100:]
        below = await page(limit=10, with_member=True, before=ids[120], after=ids[0])
        assert [int(u["user"]["id"]) for u in below] == ids[110:120]  # before wins, ascending
        assert below[0]["member"]["nick"] == fake.users[ids[110]].name.replace("player", "P")
        for bad in (0, 101):
            with pytest.raises(discord.HTTPException) as refused:
                await page(limit=bad, with_member=False)
            assert (refused.value.status, refused.value.code) == (400, 50035)

        await fake.mark_uninterested(people[0], event)
        assert (await guild.fetch_scheduled_event(made.id)).user_count == 149


async def test_discord_py_users_repeats_users_beyond_the_first_100(club):
    """discord.py 2.7's ScheduledEvent.users() pages as if Discord answered newest first; Discord
    answers in ascending order of user id, so past 100 users it yields some twice and misses
    others. The bot must page with ``after`` itself (as the test above does)."""
    fake, g, _ = club
    people = [fake.add_user(f"player{i}") for i in range(150)]
    for person in people:
        fake.add_member(g, person)
    async with run_bot(make_bot(), fake) as bot:
        guild = bot.get_guild(g.id)
        made = await night(guild)
        for person in people:
            await fake.mark_interested(person, fake.scheduled_event(made.id))
        fetched = await guild.fetch_scheduled_event(made.id)
        seen = [user.id async for user in fetched.users()]
        assert len(seen) == 150 and len(set(seen)) == 100
        small = [user.id async for user in fetched.users(limit=100)]
        assert sorted(small) == sorted(p.id for p in people)[:100]  # one page is right


async def test_status_moves_only_as_discord_allows(club):
    fake, g, _ = club
    async with run_bot(make_bot(), fake) as bot:
        guild = bot.get_guild(g.id)
        event = await night(guild)
        for wrong in (discord.EventStatus.completed, discord.EventStatus.scheduled):
            with pytest.raises(discord.HTTPException) as refused:
                await event.edit(status=wrong)
            assert (refused.value.status, refused.value.code) == (400, 50035)
            assert "status" in refused.value.text
        active = await event.start()
        assert active.status is discord.EventStatus.active
        with pytest.raises(discord.HTTPException) as refused:
            await active.edit(status=discord.EventStatus.cancelled)
        assert refused.value.code == 50035
        ended = await active.end()
        assert ended.status is discord.EventStatus.completed
        with pytest.raises(discord.HTTPException) as refused:
            await ended.edit(name="One more round")
        assert (refused.value.status, refused.value.code) == (400, 180000)

        cancelled = await (await night(guild, "Second night")).cancel()
        assert cancelled.status is discord.EventStatus.cancelled
        with pytest.raises(discord.HTTPException) as refused:
            await cancelled.edit(status=discord.EventStatus.active)
        assert refused.value.code == 180000
        assert [e.status for e in fake.scheduled_events(g)] == [3, 4]


async def test_at_most_100_events_to_come(club):
    fake, g, mod = club
    async with run_bot(make_bot(), fake) as bot:
        guild = bot.get_guild(g.id)
        events = [await night(guild, f"Night {i}") for i in range(99)]
        await fake.add_scheduled_event(g, mod, "The mod's night", start=tomorrow(), end=tomorrow(2),
                                       location="Table 9")
        with pytest.raises(discord.HTTPException) as refused:
            await night(guild, "Night 101")
        assert (refused.value.status, refused.value.code) == (400, 30038)
        assert "(100)" in refused.value.text and len(fake.scheduled_events(g)) == 100

        active = await events[0].start()  # an ACTIVE event still counts
        with pytest.raises(discord.HTTPException):
            await night(guild, "Night 101")
        await active.end()  # a COMPLETED one does not
        await night(guild, "Night 101")
        await events[1].cancel()  # nor a CANCELED one
        await night(guild, "Night 102")
        assert len(fake.scheduled_events(g)) == 102


async def test_times_places_and_kinds_discord_refuses(club):
    fake, g, _ = club
    async with run_bot(make_bot(), fake) as bot:
        guild = bot.get_guild(g.id)
        with pytest.raises(discord.HTTPException) as past:
            await night(guild, start=discord.utils.utcnow() - timedelta(minutes=5))
        assert past.value.code == 50035 and "scheduled_start_time" in past.value.text
        with pytest.raises(discord.HTTPException) as backwards:
            await night(guild, end=tomorrow(-1))
        assert backwards.value.code == 50035 and "scheduled_end_time" in backwards.value.text

        body = {"name": "No end", "privacy_level": 2, "entity_type": 3,
                "scheduled_start_time": tomorrow().isoformat(), "entity_metadata": {"location": "Hall"}}
        with pytest.raises(discord.HTTPException) as endless:
            await bot.http.create_guild_scheduled_event(g.id, **body)
        assert endless.value.code == 50035 and "scheduled_end_time" in endless.value.text
        voice = {**body, "entity_type": 2, "channel_id": str(fake.add_channel(g, "text").id)}
        with pytest.raises(discord.HTTPException) as not_voice:
            await bot.http.create_guild_scheduled_event(g.id, **voice)
        assert not_voice.value.code == 50035 and "channel_id" in not_voice.value.text
        with pytest.raises(discord.HTTPException) as placed:  # an EXTERNAL event has no channel
            await bot.http.create_guild_scheduled_event(
                g.id, **{**body, "scheduled_end_time": tomorrow(3).isoformat(), "channel_id": voice["channel_id"]})
        assert placed.value.code == 50035 and "channel_id" in placed.value.text

        event = await night(guild)
        with pytest.raises(discord.HTTPException) as no_end:
            await event.edit(end_time=None)
        assert no_end.value.code == 50035 and "scheduled_end_time" in no_end.value.text
        with pytest.raises(discord.HTTPException) as moved_back:
            await event.edit(start_time=discord.utils.utcnow() - timedelta(hours=1))
        assert moved_back.value.code == 50035
        assert fake.scheduled_event(event.id).name == "Game night"  # refused whole

        with fake.expect_invalid_requests() as seen:
            with pytest.raises(discord.HTTPException) as nowhere:
                await bot.http.create_guild_scheduled_event(
                    g.id, **{**body, "scheduled_end_time": tomorrow(3).isoformat(), "entity_metadata": {}})
            with pytest.raises(discord.HTTPException) as shorthand:  # no entity type, no privacy
                await guild.create_scheduled_event(name="Short", start_time=tomorrow(), end_time=tomorrow(2),
                                                   location="Hall")
        assert nowhere.value.code == shorthand.value.code == 50035 and len(seen) == 2
        assert [e.name for e in fake.scheduled_events(g)] == ["Game night"]


async def test_creating_and_changing_need_the_events_permissions(club):
    fake, g, mod = club
    theirs = await fake.add_scheduled_event(g, mod, "The mod's night", start=tomorrow(),
                                            end=tomorrow(2), location="Table 9")
    async with run_bot(make_bot(), fake) as bot:
        guild = bot.get_guild(g.id)
        fake.set_bot_permissions(g, Perm.BOT_DEFAULT)  # a role without either permission
        with pytest.raises(discord.Forbidden) as refused:
            await night(guild)
        assert refused.value.code == 50013

        fake.set_bot_permissions(g, Perm.BOT_DEFAULT | Perm.CREATE_EVENTS)
        own = await night(guild)
        own = await own.edit(name="Our night")  # its own event: Create Events is enough
        other = await guild.fetch_scheduled_event(theirs.id)
        assert other.creator_id == mod.id
        for change in (other.edit(name="Taken over"), other.delete(), other.cancel()):
            with pytest.raises(discord.Forbidden):
                await change
        await own.delete()

        fake.set_bot_permissions(g, Perm.BOT_DEFAULT | Perm.MANAGE_EVENTS)
        assert (await other.edit(name="Moved")).name == "Moved"
        await other.delete()
        assert fake.scheduled_events(g) == []
