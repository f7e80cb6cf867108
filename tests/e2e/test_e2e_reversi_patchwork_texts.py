"""Reversi and Patchwork read well as played: found by playing whole games through the real
bot and the fake Discord (counts in the singular, errors as sentences, a forced pass said to
the player who moves again, a cancelled game's card, /match status without a ping, a
resignation without a score, a new match's first picture)."""

from __future__ import annotations

import re

import pytest

from tests.e2e_helpers import board_message, fake_world, fix_match_seeds, mentioned_ids, running_bot

pytestmark = pytest.mark.e2e

# A Reversi game (colours, not seats) in which black has no legal move after white's f2.
PASS_LINE = ("d3 c3 b3 e3 f3 c5 f6 g2 b5 c6 f4 a5 h1 f5 d6 e7 d7 e6 d8 c4 c7 b7 a8 b6 a4 f8 "
             "g4 b4 e8 a3 a7 g5 g8 c2 h4 g3 a2 h3 c1 d1 d2 e1 f1 f7 a6 h6 e2 b8 g7 c8 h5 g6 "
             "h2 h7 h8 g1 b2 f2").split()


@pytest.fixture
async def world():
    async with fake_world("games", ("alice", "bob", "carol")) as world:
        yield world


def field(message, name: str) -> str:
    [value] = [f["value"] for f in message.embeds[0]["fields"] if name in f["name"]]
    return value


async def started(fake, channel, users, game):
    lobby = await fake.slash(users["alice"], channel, f"{game} new")
    return board_message(await fake.click(users["bob"], lobby.message, label="Join"))


def to_move(users, board):
    by_id = {u.id: u for u in users.values()}
    return by_id[mentioned_ids(board.content)[0]]


async def test_reversi_counts_and_errors_read_as_sentences(world, tmp_path):
    fake, guild, channel, users = world
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        board = await started(fake, channel, users, "reversi")
        black = to_move(users, board)
        white = users["bob"] if black is users["alice"] else users["alice"]
        wrong = await fake.slash(white, channel, "reversi move", square="d3")
        assert wrong.content == f"It is not your turn: you play white. It is {black.name}'s turn."
        illegal = await fake.slash(black, channel, "reversi move", square="a1")
        assert illegal.content.startswith("A disc on a1 would not outflank any white disc")
        moved = board_message(await fake.slash(black, channel, "reversi move", square="d3"))
        assert field(moved, "White").endswith("\n1 disc")
        assert field(moved, "Black").endswith("\n4 discs")


async def test_a_forced_pass_tells_the_player_why_they_move_again(world, tmp_path):
    fake, guild, channel, users = world
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        board = await started(fake, channel, users, "reversi")
        for square in PASS_LINE:
            board = board_message(await fake.slash(to_move(users, board), channel,
                                                   "reversi move", square=square))
        white = to_move(users, board)
        black = users["bob"] if white is users["alice"] else users["alice"]
        assert f"**{black.name}** has no legal move and passes." in board.text()
        turn, clock = board.content.split("\n")  # the turn clock (24 hours by default) last
        assert turn == (f"<@{white.id}>, {black.name} has no legal move, so it is your move as "
                        "white: `/reversi move`.")
        assert re.fullmatch(r"⏱ Time runs out <t:\d+:R>\.", clock)


async def test_a_game_cancelled_after_it_started_is_not_called_a_lobby(world, tmp_path):
    fake, guild, channel, users = world
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        lobby = await fake.slash(users["alice"], channel, "reversi new")
        await fake.click(users["bob"], lobby.message, label="Join")
        await fake.slash(users["alice"], channel, "match cancel")
        card = fake.get_message(lobby.message.id).embeds[0]
        assert card["title"] == "Reversi: cancelled"
        assert card["description"] == "This match was cancelled before it ended."
        second = await fake.slash(users["bob"], channel, "reversi new")  # never started
        await fake.click(users["bob"], second.message, label="Cancel")
        assert fake.get_message(second.message.id).embeds[0]["title"] == "Reversi: lobby closed"


async def test_match_status_shows_the_board_without_pinging_anyone(world, tmp_path):
    fake, guild, channel, users = world
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        board = await started(fake, channel, users, "reversi")
        mover = to_move(users, board)
        status = await fake.slash(users["carol"], channel, "match status")
        assert mentioned_ids(status.content) == [mover.id]  # named, as the board says
        [sent] = [r.payload for r in status.requests
                  if r.method == "POST" and r.path.endswith("/callback")]
        assert sent["data"]["allowed_mentions"]["users"] == []


async def test_a_new_match_shows_its_first_picture(world, tmp_path):
    fake, guild, channel, users = world
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        await started(fake, channel, users, "reversi")
        await fake.slash(users["alice"], channel, "match cancel")
        again = await started(fake, channel, users, "reversi")  # the same opening picture
        assert again.attachments and "Unchanged" not in again.text()


async def test_patchwork_texts_read_well(world, tmp_path, monkeypatch):
    fix_match_seeds(monkeypatch, 4)  # the starting player can buy patch 3 for 4 of 5 buttons
    fake, guild, channel, users = world
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        board = await started(fake, channel, users, "patchwork")
        first = to_move(users, board)
        no_leather = await fake.slash(first, channel, "patchwork place", square="a1")
        assert no_leather.content == ("You have no leather patch to place: `/patchwork buy` a "
                                      "patch or `/patchwork pass`.")
        bought = board_message(await fake.slash(first, channel, "patchwork buy", patch=3,
                                                square="a1", orientation="0"))
        assert field(bought, first.name).split("\n")[1].startswith("1 button · income")

    fix_match_seeds(monkeypatch, 20261123)
    async with running_bot(fake, tmp_path / "g2.db", guild.id):  # a new database
        board = await started(fake, channel, users, "patchwork")
        for _ in range(5):  # each token steps in front of the other: the fifth pass crosses 5
            board = board_message(await fake.slash(to_move(users, board), channel,
                                                   "patchwork pass"))
        assert "crossed the income space 5 and took no income (no buttons on their quilt yet)." \
            in board.text()
        resigned = board_message(await fake.slash(users["bob"], channel, "match resign"))
        assert "wins: bob resigned" in resigned.content
        assert [f for f in resigned.embeds[0]["fields"] if f["name"] == "Final score"] == []
