"""Shared fixtures: a fresh SQLite store and match service per test."""

from __future__ import annotations

import pytest

from bot.service import MatchService, Player
from bot.store import Store


@pytest.fixture
def db_path(tmp_path):
    return tmp_path / "gamenight.db"


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
