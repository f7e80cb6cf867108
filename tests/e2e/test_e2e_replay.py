"""`/match replay id` through the real bot and the fake Discord: a finished Reversi game comes
back privately as an animated GIF with a frame per move, and the matches a person may not
replay (unknown, another server's, in a channel they cannot see, with no moves) are refused."""

from __future__ import annotations

import io
import random

import pytest
from PIL import Image

from tests.e2e_helpers import InlineExecutor, board_message, mentioned_ids, running_bot
from tests.fakediscord import FakeDiscord, Perm

pytestmark = pytest.mark.e2e


@pytest.fixture
async def world():
    """Two servers; in the first, everyone but dave sees the games channel."""
    fake = FakeDiscord()
    await fake.start()
    try:
        guild = fake.add_guild("Game Night Club")
        guild.everyone.permissions = Perm.EVERYONE_DEFAULT & ~Perm.VIEW_CHANNEL
        seeing = fake.add_role(guild, "members", Perm.VIEW_CHANNEL)
        channel = fake.add_channel(guild, "reversi")
        users = {name: fake.add_user(name) for name in ("alice", "bob", "carol", "dave")}
        for name, user in users.items():
            fake.add_member(guild, user, roles=[seeing] if name != "dave" else [])
        other = fake.add_guild("Other Club")
        elsewhere = fake.add_channel(other, "games")
        fake.add_member(other, users["carol"])
        yield fake, guild, channel, elsewhere, users
    finally:
        await fake.stop()


def bot_for(fake, tmp_path):
    return running_bot(fake, tmp_path / "g.db", None, computer_executor=InlineExecutor())


async def play_to_the_end(fake, channel, first, players) -> int:
    """Random legal squares until the game is over; how many moves were played."""
    rng, to_move, moves = random.Random(3), first, 0
    while to_move is not None:
        choices = await fake.autocomplete(to_move, channel, "reversi move", "square", square="")
        move = await fake.slash(to_move, channel, "reversi move",
                                square=rng.choice(choices)["value"])
        moves += 1
        board = board_message(move)
        to_move = None if "Game over" in board.content else players[mentioned_ids(board.content)[0]]
    return moves


async def test_a_finished_game_replayed_with_a_frame_per_move(world, tmp_path):
    fake, guild, channel, elsewhere, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    async with bot_for(fake, tmp_path):
        lobby = await fake.slash(alice, channel, "match replay", id=1)
        assert lobby.ephemeral and "no match #1" in lobby.content  # nothing yet
        lobby = await fake.slash(alice, channel, "reversi new")
        early = await fake.slash(alice, channel, "match replay", id=1)
        assert early.ephemeral and "nothing to replay" in early.content
        started = await fake.click(bob, lobby.message, label="Join")
        first = {alice.id: alice, bob.id: bob}[mentioned_ids(board_message(started).content)[0]]
        moves = await play_to_the_end(fake, channel, first, {alice.id: alice, bob.id: bob})

        replay = await fake.slash(carol, channel, "match replay", id=1)  # anyone who sees it
        assert replay.ephemeral and not replay.errors
        message = replay.all_messages[-1]
        assert message.ephemeral and f"{moves} moves, one frame each" in message.content
        attachment = message.attachments[0]
        assert attachment.filename == "replay-1.gif"
        gif = Image.open(io.BytesIO(attachment.data))
        assert gif.format == "GIF" and gif.n_frames == moves
        assert fake.messages(channel)[-1].id != message.id  # nothing said in the channel


async def test_matches_one_may_not_replay_are_refused_as_unknown(world, tmp_path):
    fake, guild, channel, elsewhere, users = world
    alice, bob, carol, dave = users["alice"], users["bob"], users["carol"], users["dave"]
    async with bot_for(fake, tmp_path):
        lobby = await fake.slash(alice, channel, "reversi new")
        await fake.click(bob, lobby.message, label="Join")
        await fake.slash(alice, channel, "match resign")  # one action in the log
        seen = await fake.slash(alice, channel, "match replay", id=1)
        assert seen.all_messages[-1].attachments

        unknown = await fake.slash(alice, channel, "match replay", id=99)
        hidden = await fake.slash(dave, channel, "match replay", id=1)
        other_server = await fake.slash(carol, elsewhere, "match replay", id=1)
        for refused in (unknown, hidden, other_server):
            assert refused.ephemeral and not refused.attachments
            assert "There is no match #" in refused.content
        assert "#99" in unknown.content and "#1" in hidden.content
        assert hidden.content == other_server.content


async def test_a_replay_too_large_for_one_file_is_answered_after_the_deferral(
        world, tmp_path, monkeypatch):
    import bot.ui.replays
    from render.replay import ReplayTooLarge

    def too_large(*args):
        raise ReplayTooLarge("thousands of frames")

    fake, guild, channel, elsewhere, users = world
    alice, bob = users["alice"], users["bob"]
    monkeypatch.setattr(bot.ui.replays, "animate", too_large)
    async with bot_for(fake, tmp_path):
        lobby = await fake.slash(alice, channel, "reversi new")
        await fake.click(bob, lobby.message, label="Join")
        await fake.slash(alice, channel, "match resign")
        refused = await fake.slash(alice, channel, "match replay", id=1)
        said = refused.all_messages[-1]
        assert said.ephemeral and not said.attachments and not refused.errors
        assert "too long to replay in one picture (1 move)" in said.text()
