"""Refusals the bot remembers, through the real bot and the fake Discord: a player whose DMs are
closed is refused at most twice per match (once, and once more an hour later on their turn;
the wait doubles after each refusal in a row),
the channel notice comes once with a retry button, and a deleted message or a gone channel is
not edited again on every action."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

import bot.ui.dms as private
from bot.ui.lobby import refresh_lobby_card
from tests.e2e.test_e2e_doudizhu import bid_round, open_table, play_greedy
from tests.e2e_helpers import fake_world, fix_match_seeds, running_bot

pytestmark = pytest.mark.e2e

RETRY = "Send it by DM again"


class Clock:
    """The bot's refusal clock, moved by the test instead of waited for."""

    def __init__(self) -> None:
        self.at = private.now()

    def __call__(self):
        return self.at


@pytest.fixture
def clock(monkeypatch):
    fix_match_seeds(monkeypatch, 7)
    clock = Clock()
    monkeypatch.setattr(private, "now", clock)
    return clock


def refused_dms(fake, user) -> int:
    """DMs Discord refused to `user` so far (403): each counts against the bot's budget."""
    path = f"/channels/{fake.dm_channel(user).id}/messages"
    return sum(1 for r in fake.request_log
               if r.method == "POST" and r.path == path and r.status == 403)


def edits_of(fake, message) -> int:
    path = f"/channels/{message.channel.id}/messages/{message.id}"
    return sum(1 for r in fake.request_log if r.method == "PATCH" and r.path == path)


def notices(fake, channel) -> list:
    return [m for m in fake.messages(channel) if "DMs are closed" in m.content]


async def scrabble_table(fake, channel, bot, alice, bob):
    lobby = await fake.slash(alice, channel, "scrabble new", players=2)
    await fake.click(bob, lobby.message, label="Join")
    return await bot.service.current(channel.id)


async def take_turn(fake, channel, bot, users, command: str) -> None:
    """The player to move exchanges one tile or passes."""
    match = await bot.service.current(channel.id)
    user = users[match.player(match.state.turn).name]
    if command == "exchange":
        tile = match.state.racks[match.state.turn][0]
        result = await fake.slash(user, channel, "scrabble exchange", tiles=tile)
    else:
        result = await fake.slash(user, channel, "scrabble pass")
    assert not result.ephemeral and not result.errors, result.content


async def test_scrabble_closed_dms_are_refused_at_most_twice_a_match(clock, tmp_path):
    async with fake_world("word-games", ("alice", "bob"), dms_closed=("bob",)) as world:
        fake, guild, channel, users = world
        alice, bob = users["alice"], users["bob"]
        async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
            match = await scrabble_table(fake, channel, bot, alice, bob)
            assert refused_dms(fake, bob) == 1
            [notice] = notices(fake, channel)
            assert [b["label"] for b in notice.buttons] == [RETRY]
            assert await bot.store.dms_closed_at(bob.id) == clock.at

            for _ in range(6):  # three rounds of exchanges: bob is not tried on his turns
                await take_turn(fake, channel, bot, users, "exchange")
            assert refused_dms(fake, bob) == 1

            clock.at += timedelta(hours=1)  # an hour later, bob is tried once on his turn
            for _ in range(2):
                await take_turn(fake, channel, bot, users, "exchange")
            assert refused_dms(fake, bob) == 2
            assert await bot.store.dms_closed_at(bob.id) == clock.at

            clock.at += timedelta(days=3)  # a long game: no more tries in this match
            for _ in range(2):
                await take_turn(fake, channel, bot, users, "exchange")
            assert refused_dms(fake, bob) == 2

            for _ in range(4):  # every player passes twice: the game is over
                await take_turn(fake, channel, bot, users, "pass")
            assert (await bot.service.get(match.id)).status == "finished"
            assert refused_dms(fake, bob) == 2 and len(notices(fake, channel)) == 1
            assert fake.dm_messages(bob) == [] and len(fake.dm_messages(alice)) > 1

            # The mark is per user: a new match does not try bob's DMs, and says so once.
            clock.at = (await bot.store.dms_closed_at(bob.id)) + timedelta(minutes=5)
            await scrabble_table(fake, channel, bot, alice, bob)
            assert refused_dms(fake, bob) == 2 and len(notices(fake, channel)) == 2

            # Two refusals in a row: the next try waits two hours, not one.
            clock.at += timedelta(hours=1)
            for _ in range(2):
                await take_turn(fake, channel, bot, users, "exchange")
            assert refused_dms(fake, bob) == 2
            clock.at += timedelta(hours=1)
            for _ in range(2):
                await take_turn(fake, channel, bot, users, "exchange")
            assert refused_dms(fake, bob) == 3
            assert (await bot.store.dms_closed(bob.id)).refusals == 3


def test_the_retry_wait_doubles_up_to_a_day():
    waits = [private.retry_wait(n) for n in range(1, 8)]
    assert waits[:5] == [timedelta(hours=h) for h in (1, 2, 4, 8, 16)]
    assert waits[5:] == [timedelta(days=1)] * 2
    assert private.retry_wait(10_000) == timedelta(days=1)


async def test_the_retry_button_sends_the_rack_once_dms_are_open(clock, tmp_path):
    async with fake_world("word-games", ("alice", "bob", "carol"),
                          dms_closed=("bob",)) as world:
        fake, guild, channel, users = world
        alice, bob, carol = users["alice"], users["bob"], users["carol"]
        async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
            match = await scrabble_table(fake, channel, bot, alice, bob)
            [notice] = notices(fake, channel)

            stranger = await fake.click(carol, notice, label=RETRY)
            assert stranger.ephemeral and "for the players" in stranger.content

            # Still closed: one more refusal, bob hears so privately, and the mark stays.
            still = await fake.click(bob, notice, label=RETRY)
            assert still.ephemeral and "still cannot send you a DM" in still.content
            assert "/scrabble rack" in still.content
            assert refused_dms(fake, bob) == 2 and await bot.store.dms_closed_at(bob.id)
            await take_turn(fake, channel, bot, users, "pass")
            await take_turn(fake, channel, bot, users, "exchange")
            assert refused_dms(fake, bob) == 2

            bob.dms_open = True
            sent = await fake.click(bob, notice, label=RETRY)
            assert sent.ephemeral and sent.content.startswith("Sent")
            assert await bot.store.dms_closed_at(bob.id) is None
            [dm] = fake.dm_messages(bob)
            match = await bot.service.get(match.id)
            rack = " ".join(match.state.racks[match.seat_of(bob.id)])
            assert f"Your Scrabble rack: **{rack}**" in dm.content
            # From now on his rack follows the game like anyone's.
            await take_turn(fake, channel, bot, users, "pass")
            assert len(notices(fake, channel)) == 1 and refused_dms(fake, bob) == 2
            assert fake.dm_messages(bob)[-1].embeds


async def test_doudizhu_closed_dms_are_refused_once_in_a_whole_round(clock, tmp_path):
    names = ("alice", "bob", "erin")
    async with fake_world("doudizhu", names, dms_closed=("erin",)) as world:
        fake, guild, channel, users = world
        erin = users["erin"]
        async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
            table, _ = await open_table(fake, channel, bot, [users[n] for n in names])
            await bid_round(table, fake, channel, ["pass", "1", "3"])
            await play_greedy(table, via="slash")
            moves = await bot.store.moves(table.match_id)
            erin_seat = table.players.index(erin)
            assert sum(1 for m in moves if m.seat == erin_seat) >= 3  # erin had several turns
            assert refused_dms(fake, erin) == 1
            [notice] = notices(fake, channel)
            assert [b["label"] for b in notice.buttons] == [RETRY]
            assert fake.dm_messages(erin) == []


async def test_doudizhu_retry_button_sends_the_hand(clock, tmp_path):
    names = ("alice", "bob", "erin")
    async with fake_world("doudizhu", names, dms_closed=("erin",)) as world:
        fake, guild, channel, users = world
        erin = users["erin"]
        async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
            table, _ = await open_table(fake, channel, bot, [users[n] for n in names])
            [notice] = notices(fake, channel)
            erin.dms_open = True
            sent = await fake.click(erin, notice, label=RETRY)
            assert sent.ephemeral and sent.content.startswith("Sent")
            [dm] = fake.dm_messages(erin)
            assert "Your hand" in dm.text() and dm.attachments[0].is_png
            assert refused_dms(fake, erin) == 1
            # The table now points erin to her DM, no longer to the hand command.
            while (await table.to_move()) is not erin:
                await bid_round(table, fake, channel, ["pass"])
            status = await fake.slash(erin, channel, "match status")
            assert f"<@{erin.id}>, your bid" in status.content
            assert "the buttons in your DM" in status.content


async def test_a_deleted_live_dm_is_edited_at_most_once(clock, tmp_path):
    names = ("alice", "bob", "carol")
    async with fake_world("doudizhu", names) as world:
        fake, guild, channel, users = world
        async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
            table, _ = await open_table(fake, channel, bot, [users[n] for n in names])
            mover = await table.to_move()
            waiting = next(u for u in table.players if u is not mover)
            gone = fake.dm_messages(waiting)[-1]
            await fake._delete(gone)
            await bid_round(table, fake, channel, ["pass", "1", "3"])
            await play_greedy(table, via="slash")
            assert edits_of(fake, gone) <= 1
            assert fake.dm_messages(waiting)[-1] is not gone  # a new live DM took its place


async def test_a_deleted_table_message_is_edited_at_most_once(clock, tmp_path):
    names = ("alice", "bob", "carol")
    async with fake_world("doudizhu", names) as world:
        fake, guild, channel, users = world
        async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
            table, _ = await open_table(fake, channel, bot, [users[n] for n in names])
            match = await table.match()
            gone = fake.get_message(match.row.board_message_id)
            await fake._delete(gone)
            await bid_round(table, fake, channel, ["pass", "1", "3"])
            await play_greedy(table, via="slash")
            assert edits_of(fake, gone) <= 1
            assert (await table.match()).row.board_message_id != gone.id


async def test_a_deleted_lobby_card_is_edited_at_most_once(clock, tmp_path):
    names = ("alice", "bob", "carol", "dave")
    async with fake_world("doudizhu", names) as world:
        fake, guild, channel, users = world
        async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
            lobby = await fake.slash(users["alice"], channel, "doudizhu new", players=4)
            match_id = int(re.search(r"Match #(\d+)", lobby.message.text()).group(1))
            card = lobby.message
            await fake._delete(card)
            for _ in range(3):  # each slash join or leave would refresh the card
                joined = await fake.slash(users["bob"], channel, "match join")
                assert not joined.errors
                left = await fake.slash(users["bob"], channel, "match leave")
                assert not left.errors
            assert edits_of(fake, card) <= 1
            assert (await bot.service.get(match_id)).row.lobby_message_id is None


async def test_a_match_whose_channel_is_gone_is_cancelled_quietly(clock, tmp_path):
    names = ("alice", "bob", "carol")
    async with fake_world("doudizhu", names) as world:
        fake, guild, channel, users = world
        async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
            lobby = await fake.slash(users["alice"], channel, "doudizhu new", players=3)
            match_id = int(re.search(r"Match #(\d+)", lobby.message.text()).group(1))
            match = await bot.service.get(match_id)
            del fake.channels[channel.id]  # deleted, with everything in it
            await refresh_lobby_card(bot, match)
            await refresh_lobby_card(bot, await bot.service.get(match_id))
            assert (await bot.service.get(match_id)).status == "cancelled"
            path = f"/channels/{channel.id}/messages/{lobby.message.id}"
            assert sum(1 for r in fake.request_log if r.path == path) == 1


async def test_a_bid_from_a_dm_when_the_table_channel_is_gone_cancels_the_match(
        clock, tmp_path):
    names = ("alice", "bob", "carol")
    async with fake_world("doudizhu", names) as world:
        fake, guild, channel, users = world
        async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
            table, _ = await open_table(fake, channel, bot, [users[n] for n in names])
            bidder = await table.to_move()
            del fake.channels[channel.id]  # the channel was deleted, with the table in it
            bid = await fake.click(bidder, fake.dm_messages(bidder)[-1], label="Bid 1")
            assert "was made and saved" in bid.text()  # the bidder still hears of it
            assert (await table.match()).status == "cancelled"
            gone = f"/channels/{channel.id}/"
            tried = [r for r in fake.request_log if r.path.startswith(gone)]
            assert tried and all(r.status == 404 for r in tried)

            # The next bidder's DM controls no longer reach for the gone channel.
            nxt = next(u for u in table.players if u is not bidder)
            late = await fake.click(nxt, fake.dm_messages(nxt)[-1], label="Pass")
            assert late.ephemeral and "was cancelled" in late.content
            assert [r for r in fake.request_log if r.path.startswith(gone)] == tried
