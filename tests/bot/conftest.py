"""The bot's tests share a fresh store (SQLite, or PostgreSQL: tests/stores.py) and match
service per test, and the players they seat."""

from __future__ import annotations

import pytest

from bot.matches.model import Player
from bot.matches.service import MatchService
from bot.storage.store import Store
from tests import stores


@pytest.fixture
async def db_path(tmp_path):
    """The test's database: a SQLite file, or a PostgreSQL schema's URL."""
    return await stores.location(tmp_path / "gamenight.db")


@pytest.fixture
async def store(db_path):
    store = await Store.open(db_path)
    yield store
    await store.close()


@pytest.fixture
async def service(store):
    return MatchService(store)


ALICE = Player(101, "alice")
BOB = Player(102, "bob")
CAROL = Player(103, "carol")
