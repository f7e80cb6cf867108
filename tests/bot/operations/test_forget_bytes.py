"""Forgetting a person leaves no bytes behind while the bot runs: after `forget_person`, neither
the SQLite file nor its WAL holds the name (the store overwrites freed space and checkpoints
the WAL into the file, then truncates it), with the database still open."""

from __future__ import annotations

import sqlite3

import pytest

from bot.matches.model import Player
from bot.matches.service import MatchService
from bot.storage.store import Store
from tests.bot.matches.test_records import PEOPLE, play

pytestmark = pytest.mark.sqlite_only

NAME = "Zebulon-Quixotefield"


def on_disk(path) -> bytes:
    return b"".join(p.read_bytes() for p in path.parent.glob(path.name + "*"))


async def test_no_byte_of_the_name_is_left_in_the_file_or_its_wal(tmp_path):
    path = tmp_path / "gamenight.db"
    store = await Store.open(path)
    try:
        service = MatchService(store)
        person = Player(299, NAME)
        await play(service, "reversi", [person, PEOPLE[1]], channel=50, seed=6)
        await play(service, "scrabble", [PEOPLE[1], person], channel=51, seed=6)
        lobby = await service.open_lobby("reversi", guild_id=7, channel_id=52, creator=person,
                                         seed=1, options={"players": 2})
        await service.cancel(52, person.user_id, moderator=False)
        assert NAME.encode() in on_disk(path)  # in the WAL, until it is checkpointed
        await store.forget_person(person.user_id, -12345)
        assert (tmp_path / "gamenight.db-wal").exists()  # still open: the WAL is there
        assert NAME.encode() not in on_disk(path)
        assert lobby.id  # the cancelled lobby's seat was forgotten too
    finally:
        await store.close()


async def test_a_backup_reading_meanwhile_does_not_hold_up_forgetting(tmp_path, caplog):
    path = tmp_path / "gamenight.db"
    store = await Store.open(path)
    reader = sqlite3.connect(path)
    try:
        await play(MatchService(store), "reversi", [Player(299, NAME), PEOPLE[1]], channel=50,
                   seed=6)
        reader.execute("BEGIN")
        reader.execute("SELECT COUNT(*) FROM moves").fetchone()  # an older snapshot, held
        await store.forget_person(299, -12345)  # done, without waiting for the reader
        assert "stay in the WAL until its next checkpoint" in caplog.text
        reader.rollback()
        assert await store._db.scrub()
        assert NAME.encode() not in on_disk(path)
    finally:
        reader.close()
        await store.close()
