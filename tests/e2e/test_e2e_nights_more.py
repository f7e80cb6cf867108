"""Game nights through the real bot and the fake Discord: sign-up through the Discord event,
a night without the Create Events permission, Dou Dizhu and Scrabble tables, a substitute, and a
restart in the middle of a round."""

from __future__ import annotations

import pytest

from bot.matches.timekeeper import HEARTBEAT, LEASE_SECONDS
from tests.e2e.night_helpers import (
    MINUTE, NAMES, card_of, end_table, later, night_bot, night_world, schedule,
    sign_and_check_in,
)
from tests.e2e_helpers import FakeClock
from tests.fakediscord import Perm

pytestmark = pytest.mark.e2e


@pytest.fixture
async def world():
    async with night_world() as world:
        yield world


async def test_interested_on_the_event_signs_up_and_im_out_wins(world, tmp_path):
    fake, guild, channel, users = world
    clock = FakeClock()
    async with night_bot(fake, tmp_path / "g.db", guild, clock) as bot:
        await schedule(fake, users, channel, game="reversi", rounds=1)
        [event] = fake.scheduled_events(guild)
        assert event.entity_type == 3 and "#nights" in event.location
        for name in ("ann", "ben", "cat"):
            await fake.mark_interested(users[name], event)
        await fake.click(users["cat"], card_of(fake, channel), label="I'm out")
        await later(fake, clock, 45 * MINUTE + 1)  # check-in: the event's users are read
        night = (await bot.nights.open_in(guild.id))[0]
        signed = {p.name for p in night.signed_up}
        assert signed == {"host", "ann", "ben"}
        for name in ("ann", "ben"):
            assert any("Check-in is open" in m.text() for m in fake.dm_messages(users[name]))
        assert not any("Check-in" in m.text() for m in fake.dm_messages(users["cat"]))


async def test_without_create_events_the_night_runs_and_the_host_is_told_once(world, tmp_path):
    fake, guild, channel, users = world
    fake.set_bot_permissions(guild, Perm.BOT_DEFAULT)
    clock = FakeClock()
    async with night_bot(fake, tmp_path / "g.db", guild, clock) as bot:
        first = await schedule(fake, users, channel, game="reversi", rounds=1)
        assert "Create Events" in first.text()
        second = await fake.slash(users["host"], channel, "gamenight night schedule",
                                  game="patchwork", start="in 2h")
        assert "Create Events" not in second.text() and "is scheduled" in second.text()
        assert fake.scheduled_events(guild) == []
        await sign_and_check_in(fake, clock, users, channel, ("host", "ann"))
        nights = await bot.nights.open_in(guild.id)
        assert any(n.row.status == "running" for n in nights)


async def test_a_member_without_manage_events_cannot_schedule(world, tmp_path):
    fake, guild, channel, users = world
    async with night_bot(fake, tmp_path / "g.db", guild, FakeClock()) as bot:
        result = await fake.slash(users["ann"], channel, "gamenight night schedule",
                                  game="reversi", start="in 1h")
        assert result.ephemeral and "Manage Events" in result.text()
        assert await bot.nights.open_in(guild.id) == []


async def test_dou_dizhu_seven_players_two_tables_and_one_sits_out(world, tmp_path):
    fake, guild, channel, users = world
    clock = FakeClock()
    by_id = {u.id: u for u in users.values()}
    async with night_bot(fake, tmp_path / "g.db", guild, clock) as bot:
        await schedule(fake, users, channel, game="doudizhu", rounds=2, table=3)
        await sign_and_check_in(fake, clock, users, channel, NAMES)
        night = (await bot.nights.open_in(guild.id))[0]
        tables = night.round_tables()
        assert sorted(len(t.players) for t in tables) == [1, 3, 3]
        out = next(t for t in tables if t.status == "out")
        assert len(fake.threads(channel)) == 2
        round_card = next(m for m in fake.messages(channel) if "round 1 of 2" in m.text())
        assert "sits out" in round_card.text()
        for table in tables:
            if table.match_id:
                hands = [m for pid in table.players for m in fake.dm_messages(by_id[pid])
                         if m.attachments]
                assert hands  # the hands went by DM
                await end_table(fake, bot, table, by_id)
        night = await bot.nights.require(night.id)
        assert night.row.round == 2
        sat_out = [t.players[0] for t in night.tables if t.status == "out"]
        assert len(sat_out) == 2 and len(set(sat_out)) == 2  # not the same one twice
        assert {s.player: s.points for s in night.standings()}[out.players[0]] == 1.0


async def test_a_four_player_scrabble_night_and_a_substitute(world, tmp_path):
    fake, guild, channel, users = world
    clock = FakeClock()
    by_id = {u.id: u for u in users.values()}
    async with night_bot(fake, tmp_path / "g.db", guild, clock) as bot:
        await schedule(fake, users, channel, game="scrabble", rounds=1, table=4)
        await sign_and_check_in(fake, clock, users, channel, ("host", "ann", "ben", "cat"))
        night = (await bot.nights.open_in(guild.id))[0]
        [table] = night.round_tables()
        match = await bot.service.get(table.match_id)
        assert len(match.seats) == 4 and match.status == "active"
        leaving = table.players[2]
        before = [(m.id, m.text()) for m in fake.dm_messages(by_id[leaving])]
        result = await fake.slash(users["host"], channel, "gamenight night sub",
                                  player=by_id[leaving], substitute=users["fay"])
        assert result.ephemeral
        match = await bot.service.get(table.match_id)
        assert match.status == "active" and users["fay"].id in [s.user_id for s in match.seats]
        thread = fake.channels[table.thread_id]
        assert users["fay"] in fake.thread_members(thread)
        assert any("takes" in m.text() for m in fake.messages(thread))
        assert [m for m in fake.dm_messages(users["fay"]) if m.attachments]  # the rack
        after = [(m.id, m.text()) for m in fake.dm_messages(by_id[leaving])]
        assert after == before  # the player who left sees nothing of the seat any more
        night = await bot.nights.require(night.id)
        assert night.player(leaving).state == "dropped"
        assert "sub" in [entry[2] for entry in await bot.store.night_log(night.id)]


async def test_a_restart_in_round_two_loses_nothing(world, tmp_path):
    fake, guild, channel, users = world
    clock, db = FakeClock(), tmp_path / "g.db"
    by_id = {u.id: u for u in users.values()}
    async with night_bot(fake, db, guild, clock) as bot:
        await schedule(fake, users, channel, game="reversi", rounds=3)
        await sign_and_check_in(fake, clock, users, channel, ("host", "ann", "ben", "cat"))
        night = (await bot.nights.open_in(guild.id))[0]
        for table in night.round_tables():
            await end_table(fake, bot, table, by_id)
        night = await bot.nights.require(night.id)
        assert night.row.round == 2
        first, second = night.round_tables()
        await end_table(fake, bot, first, by_id)  # one table of round 2 is done
        await bot.timekeeper.stop(release=False)  # kill -9
    clock.advance(5 * HEARTBEAT)
    cards = len(fake.messages(channel))
    async with night_bot(fake, db, guild, clock) as bot:
        await fake.wait_idle()
        night = await bot.nights.require(night.id)
        assert night.row.round == 2 and night.round_tables()[0].status == "done"
        await end_table(fake, bot, night.round_tables()[1], by_id)
        night = await bot.nights.require(night.id)
        assert night.row.round == 3 and len(fake.threads(channel)) == 6
        for table in night.round_tables():
            await end_table(fake, bot, table, by_id)
        night = await bot.nights.require(night.id)
        assert night.row.status == "finished"
        assert len(fake.messages(channel)) > cards


async def test_the_round_deadline_ends_unfinished_games_and_the_next_round_starts(
        world, tmp_path):
    fake, guild, channel, users = world
    clock = FakeClock()
    async with night_bot(fake, tmp_path / "g.db", guild, clock) as bot:
        await schedule(fake, users, channel, game="reversi", rounds=2, round_minutes=30)
        await sign_and_check_in(fake, clock, users, channel, ("host", "ann", "ben", "cat"))
        night = (await bot.nights.open_in(guild.id))[0]
        first = night.round_tables()
        await later(fake, clock, 29 * MINUTE)
        assert (await bot.nights.require(night.id)).row.round == 1
        await later(fake, clock, 2 * MINUTE)
        night = await bot.nights.require(night.id)
        assert night.row.round == 2
        for table in first:
            assert (await bot.service.get(table.match_id)).status == "cancelled"
            assert night.tables[table.number - 1].result["unfinished"]
        card = next(m for m in fake.messages(channel) if "round 1 of 2" in m.text())
        assert "not finished" in card.text()  # the round card shows how it ended


async def test_pause_holds_the_next_round_and_repair_pairs_it_again(world, tmp_path):
    fake, guild, channel, users = world
    clock = FakeClock()
    by_id = {u.id: u for u in users.values()}
    async with night_bot(fake, tmp_path / "g.db", guild, clock) as bot:
        await schedule(fake, users, channel, game="reversi", rounds=2)
        await sign_and_check_in(fake, clock, users, channel, ("host", "ann", "ben", "cat"))
        night = (await bot.nights.open_in(guild.id))[0]
        refused = await fake.slash(users["ann"], channel, "gamenight night pause")
        assert refused.ephemeral and "host" in refused.text()
        paused = await fake.slash(users["host"], channel, "gamenight night pause")
        assert paused.ephemeral and "paused" in paused.text()
        for table in night.round_tables():
            await end_table(fake, bot, table, by_id)
        night = await bot.nights.require(night.id)
        assert night.row.round == 2 and all(t.match_id is None for t in night.round_tables())
        await bot.timekeeper.stop(release=False)  # kill -9 before its tables open
        assert len(fake.threads(channel)) == 2  # round 2 is seated, not opened
        again = await fake.slash(users["host"], channel, "gamenight night repair")
        assert "paired again" in again.text()
        await fake.slash(users["host"], channel, "gamenight night resume")
        night = await bot.nights.require(night.id)
        assert all(t.match_id is not None for t in night.round_tables())
        assert len(fake.threads(channel)) == 4
        late = await fake.slash(users["host"], channel, "gamenight night repair")
        assert late.ephemeral and "started" in late.text()


async def test_edit_list_and_cancel(world, tmp_path):
    fake, guild, channel, users = world
    clock = FakeClock()
    async with night_bot(fake, tmp_path / "g.db", guild, clock) as bot:
        await schedule(fake, users, channel, game="reversi")
        await fake.slash(users["host"], channel, "gamenight night schedule", game="scrabble",
                         start="in 3h", table=3)
        listed = await fake.slash(users["ben"], channel, "gamenight night list")
        assert listed.ephemeral and "Reversi" in listed.text() and "Scrabble" in listed.text()
        reversi_night = (await bot.nights.open_in(guild.id))[0]
        moved = await fake.slash(users["host"], channel, "gamenight night edit",
                                 night=reversi_night.id, start="in 5h", rounds=2)
        assert "Saved" in moved.text()
        night = await bot.nights.require(reversi_night.id)
        assert night.row.start_at == pytest.approx(clock.now() + 5 * 3600)
        assert night.plan.rounds == 2
        event = fake.scheduled_event(night.row.event_id)
        assert event.start.timestamp() == pytest.approx(night.row.start_at)
        refused = await fake.slash(users["ann"], channel, "gamenight night cancel",
                                   night=night.id)
        assert refused.ephemeral and (await bot.nights.require(night.id)).is_open
        await fake.slash(users["host"], channel, "gamenight night cancel", night=night.id)
        night = await bot.nights.require(night.id)
        assert night.row.status == "cancelled"
        assert fake.scheduled_event(night.row.event_id).status == 4  # canceled
        card = fake.get_message(night.row.card_message_id)
        assert "called off" in card.text() and not card.buttons
        stale = await fake.raw_component(users["ann"], card, {
            "custom_id": f"gn:night:in:{night.id}", "component_type": 2})
        assert stale.ephemeral and "older version" in stale.text()  # a press on an old card
        assert (await bot.nights.require(night.id)).player(users["ann"].id) is None


async def test_a_season_adds_up_each_nights_points(world, tmp_path):
    fake, guild, channel, users = world
    clock = FakeClock()
    by_id = {u.id: u for u in users.values()}
    async with night_bot(fake, tmp_path / "g.db", guild, clock) as bot:
        started = await fake.slash(users["host"], channel, "gamenight season start",
                                   name="Winter league")
        assert "Winter league" in started.text()
        for _ in range(2):
            await schedule(fake, users, channel, game="reversi", rounds=1)
            await sign_and_check_in(fake, clock, users, channel, ("host", "ann"))
            night = next(n for n in await bot.nights.open_in(guild.id)
                         if n.row.status == "running")
            for table in night.round_tables():
                await end_table(fake, bot, table, by_id)
        shown = await fake.slash(users["ben"], channel, "gamenight season standings")
        text = shown.text()
        assert shown.ephemeral and "Winter league" in text
        lines = [line for line in text.splitlines() if line[:2] in ("1.", "2.")]
        assert len(lines) == 2
        span, table, names = await bot.nights.season(guild.id, clock.now())
        assert sum(line.points for line in table) == 2.0 and table[0].nights == 2
        ended = await fake.slash(users["host"], channel, "gamenight season end")
        assert "is over" in ended.text()
        again = await fake.slash(users["host"], channel, "gamenight season end")
        assert again.ephemeral and "No season" in again.text()


async def test_a_crash_during_check_in_and_one_between_rounds_lose_nothing(world, tmp_path):
    fake, guild, channel, users = world
    clock, db = FakeClock(), tmp_path / "g.db"
    by_id = {u.id: u for u in users.values()}
    async with night_bot(fake, db, guild, clock) as bot:
        await schedule(fake, users, channel, game="reversi", rounds=2)
        card = card_of(fake, channel)
        for name in ("ann", "ben", "cat"):
            await fake.click(users[name], card, label="I'm in")
        await later(fake, clock, 45 * MINUTE + 1)
        for name in ("host", "ann", "ben", "cat"):
            await fake.click(users[name], card_of(fake, channel), label="Check in")
        await bot.timekeeper.stop(release=False)  # kill -9 during check-in
    clock.advance(20 * MINUTE)  # down past the start
    async with night_bot(fake, db, guild, clock) as bot:
        await fake.wait_idle()
        night = (await bot.nights.open_in(guild.id))[0]
        assert night.row.status == "running" and len(night.in_play) == 4
        assert len(fake.threads(channel)) == 2

        async def dies_first(night):  # the process dies once round 2 is seated
            return None

        bot.night_runner.open_round = dies_first
        for table in night.round_tables():
            await end_table(fake, bot, table, by_id)
        night = await bot.nights.require(night.id)
        assert night.row.round == 2 and all(t.match_id is None for t in night.round_tables())
        await bot.timekeeper.stop(release=False)  # kill -9 before its tables open
    clock.advance(LEASE_SECONDS + HEARTBEAT)  # its lease lapses (PostgreSQL keeps one)
    async with night_bot(fake, db, guild, clock) as bot:
        await fake.wait_idle()
        night = await bot.nights.require(night.id)
        assert all(t.match_id is not None for t in night.round_tables())
        assert len(fake.threads(channel)) == 4
        assert any("round 2 of 2" in m.text() for m in fake.messages(channel))


async def test_check_in_pings_by_dm_and_a_closed_dm_gets_one_mention(tmp_path):
    async with night_world(("host", "ann", "ben", "cat"),
                           dms_closed=("ben", "cat")) as (fake, guild, channel, users):
        clock = FakeClock()
        async with night_bot(fake, tmp_path / "g.db", guild, clock):
            await schedule(fake, users, channel, game="reversi")
            for name in ("ann", "ben", "cat"):
                await fake.click(users[name], card_of(fake, channel), label="I'm in")
            before = len(fake.messages(channel))
            await later(fake, clock, 45 * MINUTE + 1)
            assert any("Check-in is open" in m.text() for m in fake.dm_messages(users["ann"]))
            mentions = [m for m in fake.messages(channel)[before:]
                        if "check-in is open" in m.text()]
            assert len(mentions) == 1  # one message for everyone the DMs did not reach
            assert f"<@{users['ben'].id}>" in mentions[0].content
            assert f"<@{users['cat'].id}>" in mentions[0].content
            assert f"<@{users['ann'].id}>" not in mentions[0].content
            await later(fake, clock, 5 * MINUTE)  # nobody is pinged twice
            assert len([m for m in fake.messages(channel) if "check-in is open" in m.text()]) == 1
