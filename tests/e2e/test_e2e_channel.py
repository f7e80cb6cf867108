"""A quiet, ordered channel: announcements follow the commit order (a move racing a cancel
never leaves a "your move" board under the cancellation notice), and Dou Dizhu edits its live
table instead of posting on every bid and pass."""

from __future__ import annotations

import asyncio

import pytest

import games.doudizhu as ddz
from tests.e2e_helpers import fake_world, fix_match_seeds, mentioned_ids, running_bot

pytestmark = pytest.mark.e2e


@pytest.fixture
async def world():
    async with fake_world("games", ("alice", "bob", "carol")) as world:
        yield world


def after_cancel(fake, channel, since: int) -> tuple[list, list]:
    """The channel's messages since `since`, split at the cancellation notice."""
    messages = fake.messages(channel)[since:]
    notice = [i for i, m in enumerate(messages) if "was cancelled by" in m.content]
    assert len(notice) <= 1
    if not notice:
        return messages, []
    return messages[:notice[0]], messages[notice[0] + 1:]


def force_order(bot, game: str) -> dict:
    """Interleavings forced without a clock. With `hold["cancel"]`, `/match cancel` reaches
    the service only once another change (a move, a start) was written: that change wins the
    race, and its board is still being drawn when the cancel is committed. With
    `hold["late"]` as well, the move's announcement starts only once the cancel is committed."""
    service, cog = bot.service, bot.presenters[game]
    hold = {"cancel": False, "late": False,
            "written": asyncio.Event(), "cancelled": asyncio.Event()}
    write, cancel, announce = service._write, service.cancel, cog.announce

    async def noted(operation):
        await write(operation)
        hold["written"].set()

    async def cancel_after_it(*args, **kwargs):
        if hold["cancel"]:
            await hold["written"].wait()
        try:
            return await cancel(*args, **kwargs)
        finally:
            hold["cancelled"].set()

    async def announce_late(result, interaction=None):
        if hold["late"]:
            await hold["cancelled"].wait()
        return await announce(result, interaction)

    service._write, service.cancel, cog.announce = noted, cancel_after_it, announce_late
    return hold


def next_race(hold: dict, *, cancel: bool, late: bool = False) -> None:
    hold.update(cancel=cancel, late=late)
    hold["written"].clear()
    hold["cancelled"].clear()


async def race_move_and_cancel(fake, bot, channel, alice, bob, game, move, races):
    """Open and start a two-player match, then fire a move and `/match cancel` at once, many
    times (a free race, the move committed first, or that and its announcement starting
    after the cancel): the channel never shows a board after the cancellation notice, and
    the mover always hears what became of the move. Returns how often each happened."""
    hold = force_order(bot, game)
    outcomes = {"move first": 0, "cancel first": 0, "board not posted": 0}
    for race in range(races):
        lobby = await fake.slash(alice, channel, f"{game} new", opponent=bob.id)
        await fake.click(bob, lobby.message, label="Join")
        match = await bot.service.current(channel.id)
        mover = {alice.id: alice, bob.id: bob}[match.player(match.current_seat()).user_id]
        since = len(fake.messages(channel))
        next_race(hold, cancel=race % 3 > 0, late=race % 3 == 2)
        moved, cancelled = await asyncio.gather(
            move(mover), fake.slash(alice, channel, "match cancel"))
        assert not cancelled.ephemeral, cancelled.content
        before, after = after_cancel(fake, channel, since)
        assert after == [], [m.content for m in after]
        assert (await bot.service.get(match.id)).status == "cancelled"
        moves = await bot.service.store.moves(match.id)
        outcomes["move first" if moves else "cancel first"] += 1
        if not moves:
            assert moved.ephemeral  # the move was refused: nothing to announce
        elif moved.ephemeral:  # overtaken by the cancel: no board, only the mover is told
            assert "but the match was cancelled right after" in moved.content
            assert not any(m.attachments for m in before)
            outcomes["board not posted"] += 1
        else:
            assert any(m.attachments for m in before)
        if race % 3 == 2:
            assert moves and moved.ephemeral
    return outcomes


async def test_a_start_racing_a_cancel_is_announced_in_commit_order(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        hold = force_order(bot, "reversi")
        started_first = 0
        for race in range(20):
            lobby = await fake.slash(alice, channel, "reversi new", opponent=bob.id)
            since = len(fake.messages(channel))
            next_race(hold, cancel=race % 2 == 0)
            joined, cancelled = await asyncio.gather(
                fake.click(bob, lobby.message, label="Join"),
                fake.slash(alice, channel, "match cancel"))
            assert not joined.errors and not cancelled.ephemeral, cancelled.content
            before, after = after_cancel(fake, channel, since)
            assert after == [], [m.content for m in after]
            started = (await bot.service.store.latest_match_in(channel.id)).state is not None
            closed = "Reversi: cancelled" if started else "Reversi: lobby closed"
            assert closed in fake.get_message(lobby.message.id).text()
            started_first += started
        assert started_first >= 10


async def test_a_reversi_move_racing_a_cancel_is_announced_in_commit_order(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        counts = await race_move_and_cancel(
            fake, bot, channel, alice, bob, "reversi",
            lambda user: fake.slash(user, channel, "reversi move", square="d3"), races=50)
    print("reversi races:", counts)


async def test_a_patchwork_move_racing_a_cancel_is_announced_in_commit_order(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        counts = await race_move_and_cancel(
            fake, bot, channel, alice, bob, "patchwork",
            lambda user: fake.slash(user, channel, "patchwork pass"), races=30)
    print("patchwork races:", counts)


# -- Dou Dizhu: a new post for news, an edit of the live table for the rest -------------------

@pytest.fixture
async def table_world():
    async with fake_world("doudizhu", ("alice", "bob", "carol", "erin"),
                          dms_closed=("erin",)) as world:
        yield world


async def start_doudizhu(fake, bot, channel, players):
    lobby = await fake.slash(players[0], channel, "doudizhu new", players=3)
    for user in players[1:]:
        started = await fake.click(user, lobby.message, label="Join")
    return await bot.service.current(channel.id), started


async def act_once(fake, bot, channel, players, step: int):
    """The player to act acts: bids by DM button or slash command; plays the smallest play
    offered in the DM menu (slash commands for a closed DM), or passes."""
    match = await bot.service.current(channel.id)
    state = match.state
    user = next(u for u in players if u.id == match.player(state.turn).user_id)
    dms = fake.dm_messages(user)
    if state.phase == ddz.AUCTION:
        amount = "1" if state.bid == 0 and step % 2 else "pass"
        if state.bid == 0 and len(state.bids) == 2:
            amount = "1"  # no redeal: the test counts one round
        if dms and step % 3 == 0:
            return await fake.click(user, dms[-1], label="Pass" if amount == "pass" else "Bid 1")
        return await fake.slash(user, channel, "doudizhu bid", amount=amount)
    if dms and dms[-1].selects and step % 3:
        select = dms[-1].selects[0]
        return await fake.select(user, dms[-1], select["custom_id"],
                                 [select["options"][0]["value"]])
    if dms and not dms[-1].selects and step % 3:
        return await fake.click(user, dms[-1], label="Pass")
    choices = await fake.autocomplete(user, channel, "doudizhu play", "cards", cards="")
    if state.to_beat is None or (choices and step % 2):
        return await fake.slash(user, channel, "doudizhu play", cards=choices[0]["value"])
    return await fake.slash(user, channel, "doudizhu pass")


def posts(fake, channel, since: int):
    return [m for m in fake.messages(channel)[since:] if not m.ephemeral]


async def test_a_doudizhu_round_posts_at_most_half_as_often_as_players_act(
        table_world, tmp_path, monkeypatch):
    fix_match_seeds(monkeypatch, 20261125)  # the same deal on every run
    fake, guild, channel, users = table_world
    players = [users["alice"], users["bob"], users["carol"]]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        since = len(fake.messages(channel)) + 1  # after the lobby card
        match, _ = await start_doudizhu(fake, bot, channel, players)
        for step in range(400):
            result = await act_once(fake, bot, channel, players, step)
            assert not result.errors
            match = await bot.service.get(match.id)
            if match.state.phase != ddz.AUCTION and match.state.phase != ddz.PLAY:
                break
            # every action is answered: a new post, or the caller's DM or a short "done"
            assert result.channel_messages or result.response_type == 7 or (
                result.ephemeral and "Done: [the table]" in result.content), result.content
            # the live table (the newest post) is current: it names who is to act
            table = fake.get_message(match.row.board_message_id)
            assert table is posts(fake, channel, 0)[-1]
            assert mentioned_ids(table.content) == [match.player(match.state.turn).user_id]
        assert match.state.phase == ddz.ROUND_OVER
        actions = len(await bot.service.store.moves(match.id))
        public = posts(fake, channel, since)
        print(f"one round: {actions} actions, {len(public)} public posts")
        assert len(public) <= actions / 2
        images = [m.attachments[0].data for m in public if m.attachments]
        assert all(a != b for a, b in zip(images, images[1:]))  # no image twice in a row


async def test_a_player_without_dms_is_pinged_in_the_channel_on_each_turn(
        table_world, tmp_path, monkeypatch):
    fix_match_seeds(monkeypatch, 20261125)
    fake, guild, channel, users = table_world
    players = [users["alice"], users["erin"], users["bob"]]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        match, _ = await start_doudizhu(fake, bot, channel, players)
        erin_turns = edits = 0
        for step in range(400):
            result = await act_once(fake, bot, channel, players, step)
            match = await bot.service.get(match.id)
            if match.state.phase not in (ddz.AUCTION, ddz.PLAY):
                break
            if match.player(match.state.turn).user_id == users["erin"].id:
                erin_turns += 1
                (post,) = result.channel_messages
                assert mentioned_ids(post.content) == [users["erin"].id]
            elif not result.channel_messages:
                edits += 1
        assert erin_turns and edits  # others are still told by DM, the table edited


async def test_a_pass_does_not_post_the_same_picture_again(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        lobby = await fake.slash(alice, channel, "scrabble new", players=2)
        started = await fake.click(bob, lobby.message, label="Join")
        (first,) = [m for m in started.channel_messages if m.attachments]
        for _ in range(2):
            match = await bot.service.current(channel.id)
            user = alice if match.player(match.current_seat()).user_id == alice.id else bob
            passed = await fake.slash(user, channel, "scrabble pass")
            (post,) = passed.channel_messages
            assert "passed" in post.text() and post.attachments == []
            assert "Unchanged: the picture above shows it." in post.text()
        status = await fake.slash(alice, channel, "match status")  # asked for: shown again
        assert status.attachments[0].data == first.attachments[0].data
        pictures = [m.attachments[0].data for m in fake.messages(channel) if m.attachments]
        assert pictures == [first.attachments[0].data] * 2


async def test_a_table_that_cannot_be_edited_is_posted_again(table_world, tmp_path):
    fake, guild, channel, users = table_world
    players = [users["alice"], users["bob"], users["carol"]]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        match, _ = await start_doudizhu(fake, bot, channel, players)
        by_id = {user.id: user for user in players}
        bidder = by_id[match.player(match.state.turn).user_id]
        fake.fail_next("PATCH", rf"/channels/{channel.id}/messages/\d+", 404, 10008,
                       "Unknown Message")  # someone deleted the table
        passed = await fake.slash(bidder, channel, "doudizhu bid", amount="pass")
        (table,) = passed.channel_messages
        match = await bot.service.get(match.id)
        assert "passes" in table.text() and match.row.board_message_id == table.id
        assert mentioned_ids(table.content) == [match.player(match.state.turn).user_id]
        bidder = by_id[match.player(match.state.turn).user_id]
        again = await fake.slash(bidder, channel, "doudizhu bid", amount="pass")
        assert again.ephemeral and again.channel_messages == []
        assert "Bids" in fake.get_message(table.id).text()  # the new table is the live one
