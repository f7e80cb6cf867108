"""A whole Reversi game played by slash commands through the real discord.py bot and a fake
Discord server, with a restart of the bot in the middle."""

from __future__ import annotations

import asyncio
import random

import pytest

from tests import pseudo
from tests.e2e_helpers import board_message, fake_world, mentioned_ids, png_size, running_bot

pytestmark = pytest.mark.e2e


@pytest.fixture
async def world():
    async with fake_world("reversi", ("alice", "bob", "carol", "mod"),
                          moderators=("mod",)) as world:
        yield world


async def test_commands_are_synced_to_the_dev_guild(world, tmp_path):
    fake, guild, channel, users = world
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        names = {c["name"] for c in fake.commands(guild)}
        assert {"reversi", "match", "gamenight"} <= names
        reversi = next(c for c in fake.commands(guild) if c["name"] == "reversi")
        assert {o["name"] for o in reversi["options"]} == {"new", "move"}
        help_result = await fake.slash(users["carol"], channel, "gamenight help")
        assert help_result.ephemeral and "Reversi" in help_result.text()


async def test_whole_game_with_errors_and_a_restart(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    db = tmp_path / "gamenight.db"
    rng = random.Random(5)
    boards = []

    async with running_bot(fake, db, guild.id):
        lobby = await fake.slash(alice, channel, "reversi new")
        assert not lobby.ephemeral
        assert [b["label"] for b in lobby.buttons] == ["Join", "Cancel"]  # Start cannot apply

        early = await fake.slash(carol, channel, "reversi move", square="d3")
        assert early.ephemeral and "not playing" in early.content

        taken = await fake.slash(bob, channel, "reversi new")
        assert taken.ephemeral and "already waiting for players" in taken.content

        joined = await fake.click(bob, lobby.message, label="Join")
        assert joined.response_type == 7 and joined.message.buttons == []
        assert "Reversi: started" in joined.message.text()  # true for as long as it stands
        board = board_message(joined)
        boards.append(board)
        assert png_size(board.attachments[0].data)[0] in range(600, 801)
        players = {alice.id: alice, bob.id: bob}
        black = players[mentioned_ids(board.content)[0]]
        white = bob if black is alice else alice
        assert "your move as black" in board.content
        alt = board.attachments[0].description  # what a screen reader says for the image
        assert alt.startswith("Reversi board. ") and "d4, e5" in alt and "d3, c4, f5, e6." in alt

        wrong_turn = await fake.slash(white, channel, "reversi move", square="d3")
        assert wrong_turn.ephemeral and "not your turn" in wrong_turn.content
        outsider = await fake.slash(carol, channel, "reversi move", square="d3")
        assert outsider.ephemeral and "not playing" in outsider.content
        illegal = await fake.slash(black, channel, "reversi move", square="a1")
        assert illegal.ephemeral and "would not outflank" in illegal.content
        off_board = await fake.slash(black, channel, "reversi move", square="z9")
        assert off_board.ephemeral and "off the board" in off_board.content
        occupied = await fake.slash(black, channel, "reversi move", square="d4")
        assert occupied.ephemeral and "already taken" in occupied.content

        choices = await fake.autocomplete(black, channel, "reversi move", "square", square="")
        assert [c["value"] for c in choices] == ["d3", "c4", "f5", "e6"]
        assert await fake.autocomplete(white, channel, "reversi move", "square", square="") == []
        narrowed = await fake.autocomplete(black, channel, "reversi move", "square", square="c")
        assert [c["value"] for c in narrowed] == ["c4"]

        to_move = black
        for _ in range(20):
            to_move = await play_one(fake, channel, to_move, rng, players, boards)

    # A new bot process on the same database carries on as if nothing happened.
    async with running_bot(fake, db, guild.id):
        status = await fake.slash(carol, channel, "match status")
        assert status.attachments[0].data == boards[-1].attachments[0].data
        assert mentioned_ids(status.content) == [to_move.id]
        while to_move is not None:
            to_move = await play_one(fake, channel, to_move, rng, players, boards)
        final = boards[-1]
        assert "Game over" in final.content
        assert set(mentioned_ids(final.content)) <= {alice.id, bob.id}
        late = await fake.slash(alice, channel, "reversi move", square="a1")
        assert late.ephemeral and "is over" in late.content
        hand = await fake.slash(alice, channel, "match status")
        assert hand.ephemeral and "over" in hand.content

    for board in boards:
        png_size(board.attachments[0].data)
    assert fake.search(fake.token) == []


async def play_one(fake, channel, user, rng, players, boards):
    """The user plays a random legal square offered by autocomplete; returns who moves next."""
    choices = await fake.autocomplete(user, channel, "reversi move", "square", square="")
    assert choices, "autocomplete offered no square to the player to move"
    move = await fake.slash(user, channel, "reversi move", square=rng.choice(choices)["value"])
    assert not move.ephemeral, move.content
    board = board_message(move)
    boards.append(board)
    if "Game over" in board.content:
        return None
    return players[mentioned_ids(board.content)[0]]


async def test_lobby_buttons_survive_a_restart(world, tmp_path):
    fake, guild, channel, users = world
    db = tmp_path / "gamenight.db"
    async with running_bot(fake, db, guild.id):
        lobby = await fake.slash(users["alice"], channel, "reversi new",
                                 opponent=users["bob"].id)
        assert mentioned_ids(lobby.content) == [users["bob"].id]
    async with running_bot(fake, db, guild.id):
        reserved = await fake.click(users["carol"], lobby.message, label="Join")
        assert reserved.ephemeral and "reserved" in reserved.content
        started = await fake.click(users["bob"], lobby.message, label="Join")
        assert board_message(started).attachments


async def test_cancel_needs_the_creator_or_manage_messages(world, tmp_path):
    fake, guild, channel, users = world
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        await fake.slash(users["alice"], channel, "reversi new")
        refused = await fake.slash(users["carol"], channel, "match cancel")
        assert refused.ephemeral and "Manage Messages" in refused.content
        done = await fake.slash(users["mod"], channel, "match cancel")
        assert not done.ephemeral and "cancelled" in done.content
        nothing = await fake.slash(users["alice"], channel, "match status")
        assert nothing.ephemeral and "no game in this channel" in nothing.content
        await fake.slash(users["alice"], channel, "reversi new")
        joined = await fake.slash(users["bob"], channel, "match join")
        assert board_message(joined).attachments
        hand = await fake.slash(users["bob"], channel, "match hand")
        assert hand.ephemeral and "no hidden information" in hand.content
        resigned = await fake.slash(users["bob"], channel, "match resign")
        assert "resigned" in board_message(resigned).content


async def start_bot_process(tmp_path, **env: str) -> tuple[int, str, str]:
    """Run `python -m bot` with these settings until it exits: (status, the line it said
    starting with `gamenight:`, everything it printed)."""
    import os
    import sys

    process = await asyncio.create_subprocess_exec(
        sys.executable, "-m", "bot", cwd=tmp_path, env={**os.environ, **env},
        stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.PIPE)
    out, err = await asyncio.wait_for(process.communicate(), timeout=60)
    printed = (out + err).decode()
    lines = [line for line in err.decode().splitlines() if line.strip()]
    said = [line for line in lines if line.startswith("gamenight:")]
    assert len(said) == 1, printed
    assert not [line for line in lines if " ERROR " in line or " CRITICAL " in line]
    assert "Traceback" not in printed
    return process.returncode, said[0], printed


async def test_a_rejected_token_exits_2_with_one_line_and_no_secret(world, tmp_path):
    fake = world[0]
    bad_token = "MTIz.not-the-right.token"
    status, said, printed = await start_bot_process(
        tmp_path, DISCORD_TOKEN=bad_token, DISCORD_API_BASE=fake.api_base,
        GAMENIGHT_DB=str(tmp_path / "g.db"))
    assert status == 2 and "rejected DISCORD_TOKEN" in said
    assert bad_token not in printed


async def test_a_database_it_cannot_use_exits_2_with_one_line(world, tmp_path):
    fake = world[0]
    broken = tmp_path / "broken.db"
    broken.write_bytes(b"this is not an SQLite database " * 40)
    status, said, printed = await start_bot_process(
        tmp_path, DISCORD_TOKEN=fake.token, DISCORD_API_BASE=fake.api_base,
        GAMENIGHT_DB=str(broken))
    assert status == 2 and f"cannot use the database {broken}" in said and "GAMENIGHT_DB" in said
    assert fake.token not in printed


async def test_discord_out_of_reach_exits_1_with_one_line(tmp_path):
    import socket

    with socket.socket() as probe:  # a port nobody listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}/api/v10"
    status, said, _ = await start_bot_process(
        tmp_path, DISCORD_TOKEN="MTIz.a.token", DISCORD_API_BASE=base,
        GAMENIGHT_DB=str(tmp_path / "g.db"))
    assert status == 1 and f"cannot reach the Discord API at {base}" in said


async def test_global_sync_and_no_token_in_debug_logs(world, tmp_path, caplog):
    import logging

    fake, guild, channel, users = world
    caplog.set_level(logging.DEBUG)
    async with running_bot(fake, tmp_path / "g.db", None):
        assert {"reversi", "match", "gamenight"} <= {c["name"] for c in fake.commands()}
        assert fake.commands(guild) == []
        lobby = await fake.slash(users["alice"], channel, "reversi new")
        assert lobby.buttons
    assert "restored 0 open match(es)" in caplog.text
    assert fake.token not in caplog.text


async def test_a_game_command_in_a_channel_playing_another_game(world, tmp_path):
    fake, guild, channel, users = world
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        lobby = await fake.slash(users["alice"], channel, "patchwork new")
        await fake.click(users["bob"], lobby.message, label="Join")
        wrong = await fake.slash(users["alice"], channel, "reversi move", square="d3")
        assert wrong.ephemeral and "is Patchwork, not Reversi" in wrong.content
        assert await fake.autocomplete(users["alice"], channel, "reversi move", "square",
                                       square="") == []


async def test_joining_and_leaving_by_command(world, tmp_path):
    fake, guild, channel, users = world
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        lobby = await fake.slash(users["alice"], channel, "reversi new")
        not_in = await fake.slash(users["bob"], channel, "match leave")
        assert not_in.ephemeral and "do not have a seat" in not_in.content
        early = await fake.slash(users["alice"], channel, "match start")
        assert early.ephemeral and "needs at least 2 players" in early.content
        gone = await fake.slash(users["alice"], channel, "match leave")
        assert not gone.ephemeral and "closed the Reversi lobby" in gone.content
        card = fake.get_message(lobby.message.id)
        assert card.buttons == [] and "lobby closed" in card.text()


async def test_rematch_button_under_the_final_board(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    db = tmp_path / "gamenight.db"
    async with running_bot(fake, db, guild.id):
        lobby = await fake.slash(alice, channel, "reversi new")
        started = await fake.click(bob, lobby.message, label="Join")
        assert board_message(started).buttons == []  # no rematch while playing
        resigned = await fake.slash(bob, channel, "match resign")
        final = board_message(resigned)
        assert "Game over" in final.content
        assert [b["label"] for b in final.buttons] == ["Rematch", "Review"]
        outsider = await fake.click(carol, final, label="Rematch")
        assert outsider.ephemeral and "Only the players of match #1" in outsider.content

    async with running_bot(fake, db, guild.id):  # the button outlives a restart
        asked = await fake.click(bob, final, label="Rematch")
        assert not asked.ephemeral and "asks for a rematch of Reversi match #1" in asked.content
        assert mentioned_ids(asked.content) == [alice.id]
        assert [b["label"] for b in asked.buttons] == ["Join", "Cancel"]  # Start cannot apply
        # the rematch is open: a second one could only be refused; the review stays
        assert [b["label"] for b in final.buttons] == ["Review"]
        reserved = await fake.click(carol, asked.message, label="Join")
        assert reserved.ephemeral and "reserved" in reserved.content
        replay = await fake.click(alice, asked.message, label="Join")
        board = board_message(replay)
        assert "Match #2" in board.text() and mentioned_ids(board.content)[0] in (alice.id, bob.id)


@pytest.mark.skipif(pseudo.ENABLED,
                    reason="the pseudo-locale run gives every reader the pseudo voice")
async def test_the_board_in_the_servers_language_and_errors_in_the_players(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    bob.locale = "zh-CN"  # bob's Discord client is in simplified Chinese
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        bot.languages.server_changed(guild.id, "zh-TW")  # the server reads traditional Chinese
        lobby = await fake.slash(alice, channel, "reversi new")
        board = board_message(await fake.click(bob, lobby.message, label="加入"))
        embed = board.embeds[0]
        black = {alice.id: alice, bob.id: bob}[mentioned_ids(board.content)[0]]
        white = bob if black is alice else alice
        assert embed["title"] == f"黑白棋：{black.name} 對 {white.name}"
        assert "執黑先下" in embed["description"]
        assert [f["name"] for f in embed["fields"]] == [
            "\N{MEDIUM BLACK CIRCLE} 黑方", "\N{MEDIUM WHITE CIRCLE} 白方", "輪到"]
        assert embed["fields"][0]["value"].endswith("\n2 枚棋子")
        assert "有 4 個位置可下（棋盤上的圓點）" in embed["fields"][2]["value"]
        assert embed["footer"]["text"] == "對局 #1"
        assert board.content.startswith("<@") and "輪到你下黑棋：`/reversi move`。" in board.content
        assert board.attachments[0].description.startswith("黑白棋棋盤。")
        wrong = await fake.slash(white, channel, "reversi move", square="a1")
        said = "还没轮到你：你执白。" if white is bob else "It is not your turn: you play white."
        assert wrong.ephemeral and said in wrong.content  # then whose turn it is
        occupied = await fake.slash(black, channel, "reversi move", square="d4")
        said = "d4 已经有白棋了" if black is bob else "d4 is already taken by a white disc"
        assert occupied.ephemeral and occupied.content.startswith(said)
        moved = board_message(await fake.slash(black, channel, "reversi move", square="d3"))
        assert "（黑）下在 d3，翻轉了 1 枚棋子。" in moved.embeds[0]["description"]
        assert moved.embeds[0]["footer"]["text"] == "對局 #1 · 上一手 d3"
