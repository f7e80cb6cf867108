"""The disk fills up while a Reversi game is played through the real bot and the fake Discord:
each move that cannot be saved is answered "could not be saved, try again" to its player alone and
changes nothing in the channel; every move that was acknowledged is in the database; once there
is space again, play goes on without a restart.

A full disk is SQLite's `max_page_count` at the file's size, with the last page of the move log
filled (every new move needs a page the disk does not have); space coming back is the limit
lifted, on the bot's own connection."""

from __future__ import annotations

import time

import pytest

import games.reversi as reversi
from bot.storage.errors import StoreOutage
from bot.storage.store import Store
from tests.e2e_helpers import board_message, fake_world, running_bot

pytestmark = [pytest.mark.e2e, pytest.mark.sqlite_only]

NOT_SAVED = "could not be saved"


@pytest.fixture
async def world():
    async with fake_world("reversi", ("alice", "bob")) as world:
        yield world


async def fill_the_disk(store: Store) -> None:
    """No page left: the file may not grow, and the move log's last page is filled by a
    cancelled match in another channel (the bot itself then gets SQLITE_FULL)."""
    db = store._db
    await db.write("INSERT INTO matches (channel_id, game, status, seed, creator_id, created_at,"
                   " updated_at) VALUES (1, 'reversi', 'cancelled', 0, 1, 'x', 'x')")
    [(filler,)] = await db.fetch("SELECT MAX(id) FROM matches")
    [(pages,)] = await db.fetch("PRAGMA page_count")
    await db.fetch(f"PRAGMA max_page_count = {pages}")
    for ply in range(100_000):
        try:
            await db.write("INSERT INTO moves (match_id, ply, action, created_at) "
                           "VALUES (?, ?, 'filler', 'x')", (filler, ply))
        except StoreOutage:
            return
    raise AssertionError("the disk never filled up")


async def free_space(store: Store) -> None:
    await store._db.fetch("PRAGMA max_page_count = 1073741823")


def seen(fake, channel) -> list[tuple[int, str]]:
    return [(message.id, message.text()) for message in fake.messages(channel)]


async def test_moves_on_a_full_disk_are_refused_without_a_trace_and_play_goes_on_after(
        world, tmp_path):
    fake, guild, channel, users = world
    by_id = {user.id: user for user in users.values()}
    acknowledged: list[str] = []
    tried = answered = 0

    async def move(bot) -> tuple[str, object]:
        nonlocal tried, answered
        match = await bot.service.current(channel.id)
        seat = match.current_seat()
        square = str(reversi.legal_moves(match.state, seat)[0])
        tried += 1
        result = await fake.slash(by_id[match.player(seat).user_id], channel, "reversi move",
                                  square=square)
        answered += result.message is not None
        if not result.ephemeral:
            board_message(result)
            acknowledged.append(square)
        return square, result

    async with running_bot(fake, tmp_path / "gamenight.db", guild.id) as bot:
        lobby = await fake.slash(users["alice"], channel, "reversi new")
        await fake.click(users["bob"], lobby.message, label="Join")
        for _ in range(4):
            await move(bot)
        assert len(acknowledged) == 4

        await fill_the_disk(bot.store)
        refused = 0
        for _ in range(6):  # the same player tries again each time: nothing changed
            before = seen(fake, channel)
            square, result = await move(bot)
            assert result.ephemeral and NOT_SAVED in result.text(), result.text()
            assert "try again" in result.text()
            assert seen(fake, channel) == before  # not a message posted, edited or deleted
            refused += 1
        assert len(acknowledged) == 4

        await free_space(bot.store)
        back = time.monotonic()
        _square, result = await move(bot)
        recovered = time.monotonic() - back
        assert not result.ephemeral  # the first move after space came back is played
        for _ in range(5):
            await move(bot)
        assert len(acknowledged) == 10

    store = await Store.open(tmp_path / "gamenight.db")  # what is on disk
    try:
        [(match_id,)] = await store._db.fetch(
            "SELECT id FROM matches WHERE channel_id = ?", (channel.id,))
        saved = [m.action for m in await store.moves(match_id)]
    finally:
        await store.close()
    lost = [square for square in acknowledged if square not in saved]
    assert saved == acknowledged and lost == []
    print(f"\ndisk full: {tried} moves tried ({refused} while full), {answered} answered, "
          f"{refused} refused 'could not be saved', {len(lost)} acknowledged lost; "
          f"{recovered:.2f} s from space back to the next move saved")


async def test_a_move_saved_just_before_the_database_went_away_is_said_to_count(
        world, tmp_path, monkeypatch):
    """The database answers the move's commit, then not the board's bookkeeping: the player
    hears the move was saved (not "try again"), and it is in the database."""
    fake, guild, channel, users = world
    async with running_bot(fake, tmp_path / "gamenight.db", guild.id) as bot:
        lobby = await fake.slash(users["alice"], channel, "reversi new")
        await fake.click(users["bob"], lobby.message, label="Join")
        match = await bot.service.current(channel.id)
        seat = match.current_seat()
        square = str(reversi.legal_moves(match.state, seat)[0])
        mover = next(u for u in users.values() if u.id == match.player(seat).user_id)

        async def gone(_match_id):
            raise StoreOutage("ConnectionRefusedError: the server went away")

        monkeypatch.setattr(bot.store, "board", gone)
        shown = seen(fake, channel)
        result = await fake.slash(mover, channel, "reversi move", square=square)
        assert result.ephemeral
        assert f"Your move `{square}` was made and saved, but the database went out of reach" \
            in result.text()
        assert seen(fake, channel) == shown
        monkeypatch.undo()
        assert [m.action for m in await bot.store.moves(match.id)] == [square]
