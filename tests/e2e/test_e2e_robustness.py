"""When Discord fails or players collide: a saved move is always announced (or the player is
told it was saved), a lobby's Cancel cannot kill a started game, `/match status` never posts
an older turn last, a short table's card describes the game dealt (a cancelled lobby's card
the game it was opened for), a deferred reply is never left "thinking", and a bystander hears
about the game before the notation."""

from __future__ import annotations

import asyncio
import time

import pytest

import bot.adapters.reversi.presenter as reversi_presenter
from bot.ui.boards import Boards
from bot.ui.present import DEFER_AFTER
from tests.e2e_helpers import fake_world, mentioned_ids, running_bot

pytestmark = pytest.mark.e2e


@pytest.fixture
async def world():
    async with fake_world("games", ("alice", "bob", "carol", "dave")) as world:
        yield world


async def doudizhu_in_play(fake, channel, bot, players):
    """A 3-player Dou Dizhu round where the first bidder bid 3: returns the match and the
    landlord, who leads."""
    lobby = await fake.slash(players[0], channel, "doudizhu new", players=3)
    for user in players[1:]:
        await fake.click(user, lobby.message, label="Join")
    match = await bot.service.current(channel.id)
    by_id = {user.id: user for user in players}
    landlord = by_id[match.player(match.state.turn).user_id]
    bid = await fake.slash(landlord, channel, "doudizhu bid", amount="3")
    assert not bid.ephemeral, bid.content
    return await bot.service.current(channel.id), landlord


def lowest_rank(match, user) -> str:
    hand = match.state.hands[match.seat_of(user.id)]
    return min(hand, key=lambda card: "3456789TJQKA2BR".index(card[0]))[0]


def next_player(match, players):
    return next(u for u in players if u.id == match.player(match.state.turn).user_id)


async def reversi_started(fake, channel, bot, alice, bob):
    """A Reversi game between alice and bob: returns the match and the player of black."""
    lobby = await fake.slash(alice, channel, "reversi new")
    await fake.click(bob, lobby.message, label="Join")
    match = await bot.service.current(channel.id)
    black = alice if match.player(match.state.black_seat).user_id == alice.id else bob
    return match, black


def boards(fake, channel):
    return [m for m in fake.messages(channel) if m.attachments]


def expire_interactions(fake):
    """Discord has forgotten the interaction: the 3-second window was missed."""
    return fake.fail_next("POST", r"/interactions/\d+/[^/]+/callback", 404, 10062,
                          "Unknown interaction", times=5)


async def test_a_move_whose_reply_expired_is_posted_in_the_channel(world, tmp_path):
    fake, guild, channel, users = world
    players = [users["alice"], users["bob"], users["carol"]]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        before, landlord = await doudizhu_in_play(fake, channel, bot, players)
        card = lowest_rank(before, landlord)
        expired = expire_interactions(fake)
        with fake.expect_errors():
            result = await fake.slash(landlord, channel, "doudizhu play", cards=card)
        after = await bot.service.current(channel.id)
        assert expired["left"] < 5 and after.row.version == before.row.version + 1
        [post] = result.channel_messages
        assert f"**{card}** by {landlord.name}" in post.text()
        assert mentioned_ids(post.content) == [next_player(after, players).id]
        assert [dm for dm in result.dms
                if fake.dm_channel(next_player(after, players)) is dm.channel]


async def test_a_menu_play_is_announced_even_when_the_channel_refuses_the_post(
        world, tmp_path):
    fake, guild, channel, users = world
    players = [users["alice"], users["bob"], users["carol"]]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        before, landlord = await doudizhu_in_play(fake, channel, bot, players)
        menu = fake.dm_messages(landlord)[-1]
        (select,) = menu.selects
        if ":kind:" in select["custom_id"]:  # a lead: choose a kind of play first
            step = await fake.select(landlord, menu, select["custom_id"],
                                     [select["options"][0]["value"]])
            select = step.message.selects[0]
        value = select["options"][0]["value"]
        busy = fake.fail_next("POST", rf"/channels/{channel.id}/messages", 503, 0,
                              "Service Unavailable")
        with fake.expect_errors():
            result = await fake.select(landlord, menu, select["custom_id"], [value])
        after = await bot.service.current(channel.id)
        assert busy["left"] == 0 and after.row.version == before.row.version + 1
        told = [m for m in result.all_messages if m.ephemeral]
        assert told and f"Your move `{value}` was made and saved" in told[-1].content
        assert "Discord refused it (503)." in told[-1].content and "Try again" not in (
            told[-1].content)
        upcoming = next_player(after, players)
        fresh = [dm for dm in result.dms if fake.dm_channel(upcoming) is dm.channel]
        assert fresh and fresh[-1].components  # the next player still gets their controls
        status = await fake.slash(upcoming, channel, "match status")
        assert f"by {landlord.name}" in status.text() or "you lead" in status.content


async def test_the_lobby_cancel_cannot_end_a_game_the_last_join_started(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        for _ in range(3):
            lobby = await fake.slash(alice, channel, "reversi new")
            joined, cancelled = await asyncio.gather(
                fake.click(bob, lobby.message, label="Join"),
                fake.click(alice, lobby.message, label="Cancel"))
            latest = await bot.service.store.latest_match_in(channel.id)
            announced = any("your move" in (m.content or "") for m in joined.all_messages)
            if latest.status == "active":
                assert announced and cancelled.ephemeral
                assert "`/match cancel` stops the game" in cancelled.content
                await fake.slash(alice, channel, "match cancel")
            else:
                assert latest.status == "cancelled" and not announced


async def test_status_during_a_move_never_posts_the_older_turn_last(
        world, tmp_path, monkeypatch):
    fake, guild, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    real = reversi_presenter.render_board
    slow = {"first": True}

    def render_slowly_once(view, *args):
        if slow.pop("first", False):
            time.sleep(0.5)  # the status board happens to be drawn slowly
        return real(view, *args)

    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        match, black = await reversi_started(fake, channel, bot, alice, bob)
        monkeypatch.setattr(reversi_presenter, "render_board", render_slowly_once)

        async def move_meanwhile():
            await asyncio.sleep(0.1)
            return await fake.slash(black, channel, "reversi move", square="d3")

        await asyncio.gather(fake.slash(carol, channel, "match status"), move_meanwhile())
        match = await bot.service.current(channel.id)
        newest = boards(fake, channel)[-1]
        assert mentioned_ids(newest.content) == [match.player(match.current_seat()).user_id]


async def test_a_short_table_card_describes_the_game_dealt(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        lobby = await fake.slash(alice, channel, "doudizhu new", players=4)
        assert "Seats (1/4)" in lobby.message.text() and "25 cards each" in lobby.message.text()
        await fake.click(bob, lobby.message, label="Join")
        await fake.click(carol, lobby.message, label="Join")
        await fake.click(alice, lobby.message, label="Start")
        match = await bot.service.current(channel.id)
        assert len(match.state.hands[0]) == 17
        card = fake.get_message(lobby.message.id).text()
        assert "Seats (3/3)" in card and "*open*" not in card
        assert "3 players, one deck (54 cards): 17 cards each" in card


async def test_a_bystander_hears_about_the_game_before_the_notation(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        lobby = await fake.slash(alice, channel, "reversi new")
        await fake.click(bob, lobby.message, label="Join")
        play = await fake.slash(carol, channel, "scrabble play", word="Q", square="H8",
                                direction="across")
        swap = await fake.slash(carol, channel, "scrabble exchange", tiles="1")
        buy = await fake.slash(carol, channel, "patchwork buy", patch=1, square="z9",
                               orientation="sideways")
        for reply in (play, swap, buy):
            assert reply.ephemeral and "is Reversi, not" in reply.content, reply.content


async def test_a_start_whose_board_reply_fails_is_posted_in_the_channel(world, tmp_path,
                                                                       monkeypatch):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    fallbacks = []
    real = Boards.post_board_in_channel

    async def spy(self, match, events, *newest):
        fallbacks.append(match.id)
        return await real(self, match, events, *newest)

    monkeypatch.setattr(Boards, "post_board_in_channel", spy)
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        lobby = await fake.slash(alice, channel, "reversi new")
        refused = fake.fail_next("POST", r"/webhooks/\d+/[^/]+", 400, 50035, "Invalid Form Body")
        with fake.expect_errors():
            started = await fake.click(bob, lobby.message, label="Join")
        assert refused["left"] == 0
        assert fallbacks  # the follow-up was refused, so the channel post showed the board
        assert (await bot.service.current(channel.id)).status == "active"
        [board] = boards(fake, channel)
        assert "your move as black" in board.content
        assert not [m for m in started.all_messages if m.ephemeral]  # nothing went unsaid


async def test_a_join_that_starts_the_game_on_an_expired_click_still_posts_the_board(
        world, tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        lobby = await fake.slash(alice, channel, "reversi new")
        expire_interactions(fake)
        with fake.expect_errors():
            await fake.click(bob, lobby.message, label="Join")
        assert (await bot.service.current(channel.id)).status == "active"
        [board] = boards(fake, channel)
        assert "your move as black" in board.content


async def test_a_resignation_on_an_expired_command_still_posts_the_final_board(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        match, _ = await reversi_started(fake, channel, bot, alice, bob)
        before = len(boards(fake, channel))
        expire_interactions(fake)
        with fake.expect_errors():
            await fake.slash(bob, channel, "match resign")
        assert (await bot.service.get(match.id)).status == "finished"
        posted = boards(fake, channel)
        assert len(posted) == before + 1
        assert any(c.get("label") == "Rematch" for c in posted[-1].buttons)


async def test_a_slow_board_whose_follow_up_is_refused_does_not_leave_the_reply_thinking(
        world, tmp_path, monkeypatch):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        match, black = await reversi_started(fake, channel, bot, alice, bob)
        real = reversi_presenter.render_board

        def slow(view, *args):
            time.sleep(DEFER_AFTER + 0.3)  # the reply is deferred before the board is ready
            return real(view, *args)

        monkeypatch.setattr(reversi_presenter, "render_board", slow)
        fake.fail_next("POST", r"/webhooks/\d+/[^/]+", 400, 50035, "Invalid Form Body")
        with fake.expect_errors():
            moved = await fake.slash(black, channel, "reversi move", square="d3")
        assert (await bot.service.current(channel.id)).row.version == match.row.version + 1
        assert [m for m in moved.channel_messages if m.attachments]  # the channel post
        assert not moved.message.loading
        assert "board is posted below" in moved.message.content


async def test_a_cancelled_lobby_card_keeps_the_table_it_was_opened_for(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        lobby = await fake.slash(alice, channel, "doudizhu new", players=4)
        await fake.click(bob, lobby.message, label="Join")
        await fake.click(alice, lobby.message, label="Cancel")
        card = fake.get_message(lobby.message.id).text()
        assert "lobby closed" in card
        assert "Seats (2/4)" in card and "4 players, two decks" in card, card
