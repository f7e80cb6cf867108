"""One live DM per player per match, through the real bot and the fake Discord: a player's hand
or rack is edited in place, a new DM comes only when that player must act (and the previous
one shrinks to one line), and which DM is live is kept in the database across a restart."""

from __future__ import annotations

from collections import Counter

import pytest

import games.doudizhu as ddz
import games.scrabble as scrabble
from games.common import counted
from i18n import CLOSE, OPEN
from tests.e2e.test_e2e_doudizhu import bid_round, check, latest_dm, open_table, play_greedy
from tests.e2e_helpers import fake_world, fix_match_seeds, running_bot

pytestmark = pytest.mark.e2e

NAMES = ("alice", "bob", "carol", "dave")


@pytest.fixture
async def world(monkeypatch):
    fix_match_seeds(monkeypatch, 7)
    async with fake_world("doudizhu", NAMES) as world:
        yield world


def readers(result) -> list:
    """Who received a new DM while the bot handled `result` (an edit is not a new DM)."""
    return [message.channel.recipient for message in result.dms]


def live_dm(fake, user):
    """The player's one live DM: the newest; every older one is shrunk to one short line."""
    *older, live = fake.dm_messages(user)
    for message in older:
        assert not (message.embeds or message.attachments or message.components)
        assert "newer message below" in message.content
    assert live.embeds
    return live


@pytest.mark.parametrize(("players", "via"), [(3, "dm"), (4, "slash")])
async def test_a_round_brings_each_player_a_new_dm_only_for_their_own_turns(
        world, tmp_path, players, via):
    fake, guild, channel, users = world
    seated = [users[name] for name in NAMES[:players]]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        table, started = await open_table(fake, channel, bot, seated, players)
        await check(table, started, hand_images=True)
        await bid_round(table, fake, channel, ["pass", "1", "3"])
        await play_greedy(table, via=via)
        state = await table.state()
        assert state.phase == ddz.ROUND_OVER

        turns = Counter(move.seat for move in await bot.store.moves(table.match_id))
        assert sum(turns.values()) > 3 * players  # a real round, not a quick one
        for seat, user in enumerate(table.players):
            received = len(fake.dm_messages(user))  # DMs are never deleted: every one sent
            assert received <= turns[seat] + 2, (user.name, received, turns[seat])
            # The live DM was edited to the round's end: the choice, and no stale hand.
            live = live_dm(fake, user)
            assert "Round 1 is over" in live.content
            assert [b["label"] for b in live.buttons] == ["Next round", "Stop the series"]
            held = len(state.hands[seat])
            shown = f"Your hand: {counted(held, 'card')}" if held else "You are out of cards"
            assert shown in live.text()


async def test_after_a_restart_the_live_dm_is_edited_and_its_stale_controls_come_off(
        world, tmp_path):
    fake, guild, channel, users = world
    db = tmp_path / "g.db"
    async with running_bot(fake, db, guild.id) as bot:
        table, started = await open_table(fake, channel, bot, [users[n] for n in NAMES[:3]])
        opener = await table.to_move()
        prompt = latest_dm(fake, opener)
        assert [b["label"] for b in prompt.buttons] == ["Pass", "Bid 1", "Bid 2", "Bid 3"]
        before = {user: latest_dm(fake, user) for user in table.players}

    async with running_bot(fake, db, guild.id) as bot:  # a new bot process, the same database
        table.bot = bot
        passed = await fake.slash(opener, channel, "doudizhu bid", amount="pass")
        assert not passed.errors  # a bid edits the table; the bidder is told privately
        await check(table, passed)
        # The opener's DM is the same message, edited: its bid buttons are gone.
        assert prompt in passed.edited and live_dm(fake, opener) is prompt
        assert prompt.components == [] and "Waiting for" in prompt.content
        # The next bidder is called by a new DM; their earlier one shrinks to one line.
        bidder = await table.to_move()
        assert readers(passed) == [bidder]
        assert "Your turn to bid" in live_dm(fake, bidder).content
        assert before[bidder] in passed.edited and not before[bidder].embeds
        # The third player's DM is edited in place and says whose turn it is now.
        [third] = [u for u in table.players if u not in (opener, bidder)]
        assert live_dm(fake, third) is before[third] and before[third] in passed.edited
        assert f"Waiting for **{bidder.name}**" in before[third].content
        seat = (await table.match()).seat_of(opener.id)
        live = await bot.store.live_dm(table.match_id, seat)
        assert live.message_id == prompt.id and live.version == (await table.match()).row.version


async def test_a_scrabble_rack_dm_is_edited_in_place_and_a_new_one_comes_each_turn(
        world, tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        lobby = await fake.slash(alice, channel, "scrabble new", players=2)
        started = await fake.click(bob, lobby.message, label="Join")
        assert sorted(u.name for u in readers(started)) == ["alice", "bob"]
        match = await bot.service.current(channel.id)
        first = users[match.player(match.state.turn).name]
        second = bob if first is alice else alice
        mine, theirs = live_dm(fake, first), live_dm(fake, second)
        assert "You: `/scrabble play`" in mine.text()

        tile = match.state.racks[match.state.turn][0]
        swapped = await fake.slash(first, channel, "scrabble exchange", tiles=tile)
        assert not swapped.ephemeral
        match = await bot.service.current(channel.id)
        rack = match.state.racks[match.seat_of(first.id)]
        # The player who exchanged sees the new rack in the same DM; only the next is called.
        assert readers(swapped) == [second]
        assert live_dm(fake, first) is mine and mine in swapped.edited
        assert f"Your Scrabble rack: **{' '.join(rack)}**" in mine.content
        assert f"To move\n{second.name}" in mine.text() and "You: " not in mine.text()
        assert "You: `/scrabble play`" in live_dm(fake, second).text()
        assert not theirs.embeds  # the older DM is one line now

        passed = await fake.slash(second, channel, "scrabble pass")
        assert readers(passed) == [first]
        assert "You: `/scrabble play`" in live_dm(fake, first).text()
        assert len(fake.dm_messages(first)) == 2 and len(fake.dm_messages(second)) == 2
        # Each new DM was one request: the DM channels were opened once, users never fetched.
        requests = Counter(r for r in fake.requests
                           if r[1].startswith("/users/") and r[1] != "/users/@me")  # login
        assert set(requests) == {("POST", "/users/@me/channels")}
        assert requests[("POST", "/users/@me/channels")] <= 2


async def test_a_deleted_live_dm_is_replaced_by_a_new_one(world, tmp_path):
    fake, guild, channel, users = world
    three = [users[name] for name in NAMES[:3]]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        lobby = await fake.slash(three[0], channel, "scrabble new", players=3)
        await fake.click(three[1], lobby.message, label="Join")
        await fake.click(three[2], lobby.message, label="Join")
        match = await bot.service.current(channel.id)
        order = [users[match.player(seat).name] for seat in scrabble.view(match.state).order]
        last = order[2]
        await fake._delete(live_dm(fake, last))  # gone: editing it now gets 10008

        passed = await fake.slash(order[0], channel, "scrabble pass")
        assert not passed.ephemeral and not passed.errors
        # The waiting player's update could not be an edit, so it is a new DM, now the live one.
        assert {u.name for u in readers(passed)} == {order[1].name, last.name}
        assert len(readers(passed)) == 2
        replacement = live_dm(fake, last)
        assert "Your Scrabble rack" in replacement.content
        seat = match.seat_of(last.id)
        assert (await bot.store.live_dm(match.id, seat)).message_id == replacement.id

        # When that player must act, the replacement shrinks like any live DM and a new one calls.
        again = await fake.slash(order[1], channel, "scrabble pass")
        assert readers(again) == [last]  # now it is their turn: the notice
        assert not replacement.embeds and "newer message below" in replacement.content


async def test_when_the_match_is_cancelled_every_live_dm_shrinks(world, tmp_path):
    fake, guild, channel, users = world
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        table, _ = await open_table(fake, channel, bot, [users[n] for n in NAMES[:3]])
        cancelled = await fake.slash(users["alice"], channel, "match cancel")
        assert not cancelled.ephemeral and cancelled.dms == []
        for user in table.players:
            [dm] = fake.dm_messages(user)
            assert dm in cancelled.edited
            assert not (dm.embeds or dm.attachments or dm.components)
            assert dm.content.endswith("This match was cancelled: see the channel.")


async def test_an_edit_overtaken_on_the_same_dm_by_a_newer_one_shows_the_newest_again(
        world, tmp_path):
    """Two processes edit one live DM at once: the one whose swap finds a newer version on the
    same message cannot know which edit Discord applied last, so it shows the newest again."""
    from dataclasses import replace

    fake, guild, channel, users = world
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        table, _ = await open_table(fake, channel, bot, [users[n] for n in NAMES[:3]])
        match = await table.match()
        cog = bot.presenters["doudizhu"]
        seat = next(s for s in range(3) if not cog.must_act(match, s))  # its DM is edited
        voice = await bot.languages.person(match.player(seat).user_id, match.guild_id)
        reply = await cog.private_reply(match, seat, voice)
        live_dms = cog.live_dms
        edit = live_dms._edit
        calls: list[str] = []

        async def racing_edit(live, kwargs, **options):
            done = await edit(live, kwargs, **options)
            if not calls:  # the other process edits the same DM, a version on, meanwhile
                newer = replace(live, version=match.row.version + 1)
                assert (await bot.store.swap_live_dm(newer, same_message=True)).won
            calls.append("edit")
            return done

        async def again():
            calls.append("again")

        live_dms._edit = racing_edit
        assert await live_dms.show(match, seat, reply, prompt=False, again=again)
        assert calls == ["edit", "again"]
        calls.clear()
        # Without a race the DM is edited once and nothing is shown again.
        live = await bot.store.live_dm(match.id, seat)
        await bot.store.forget_live_dm(match.id, seat)
        assert await bot.store.swap_live_dm(replace(live, version=match.row.version))
        calls.append("no race")
        assert await live_dms.show(match, seat, reply, prompt=False, again=again)
        assert calls == ["no race", "edit"]
        # A newer version claimed the DM before this announcement: it leaves the DM alone.
        calls.clear()
        live = await bot.store.live_dm(match.id, seat)
        assert (await bot.store.swap_live_dm(replace(live, version=match.row.version + 2),
                                             same_message=True)).won
        assert await live_dms.show(match, seat, reply, prompt=False, again=again)
        assert calls == []


async def test_a_table_edit_overtaken_by_a_newer_move_shows_the_newest_table(
        world, tmp_path, monkeypatch):
    """Two processes announce two bids at once by editing the one table message: the older
    edit lands last, so its process, finding the newer claim after its edit, edits again."""
    import bot.ui.boards as base

    fake, guild, channel, users = world
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        table, _ = await open_table(fake, channel, bot, [users[n] for n in NAMES[:3]])
        board_id = (await bot.store.board(table.match_id)).message_id
        edit_stored = base.edit_stored
        shown: list[int] = []

        async def other_process_first(bot_, match, message_id, what, **changes):
            if not shown:  # meanwhile the next bid is committed and its table edit claimed
                second = await table.to_move()
                newer = await bot.service.act(channel.id, second.id, "bid 2")
                assert (await bot.store.record_board(match.id, message_id,
                                                     newer.match.row.version)).won
            shown.append(match.row.version)
            return await edit_stored(bot_, match, message_id, what, **changes)

        monkeypatch.setattr(base, "edit_stored", other_process_first)
        first = await table.to_move()
        result = await fake.slash(first, channel, "doudizhu bid", amount="1")
        assert "Done: [the table]" in result.content
        newest = await table.match()
        assert shown == [newest.row.version - 1, newest.row.version]
        message = next(m for m in fake.messages(channel) if m.id == board_id)
        expected = await bot.presenters["doudizhu"].board_post(newest, newest.state.events)
        unmarked = expected.content.replace(OPEN, "").replace(CLOSE, "")  # the pseudo run's
        assert message.content == unmarked
        assert (await bot.store.board(table.match_id)).version == newest.row.version


async def test_a_dm_worded_by_a_process_serving_another_shard_names_the_server_and_channel(
        world, tmp_path, monkeypatch):
    """DMs go to shard 0's process, which may not serve the match's server: the names the
    match was opened with stand in for the ones it cannot see."""
    fake, guild, channel, users = world
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        table, _ = await open_table(fake, channel, bot, [users[n] for n in NAMES[:3]])
        match = await table.match()
        cog = bot.presenters["doudizhu"]
        seat = next(s for s in range(3) if not cog.must_act(match, s))
        user = table.players[seat]
        here = live_dm(fake, user).content.splitlines()[0]
        assert here.startswith(f"**{guild.name}** › [#{channel.name}]")

        monkeypatch.setattr(bot, "get_guild", lambda guild_id: None)  # another shard's server
        monkeypatch.setattr(bot, "get_channel", lambda channel_id: None)
        assert await cog.deliver_private(match, seat)
        assert live_dm(fake, user).content.splitlines()[0] == here
