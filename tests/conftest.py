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


@pytest.fixture(autouse=True)
def discord_accepts_every_request():
    """Fail any test in which the bot sent a body Discord would refuse (tests/discord_schema.py)."""
    from tests.fakediscord import UNEXPECTED_VIOLATIONS

    UNEXPECTED_VIOLATIONS.clear()
    yield
    found, UNEXPECTED_VIOLATIONS[:] = list(UNEXPECTED_VIOLATIONS), []
    if found:
        pytest.fail("Discord would refuse these requests:\n" + "\n".join(map(str, found)), pytrace=False)


@pytest.fixture(autouse=True)
def every_word_from_the_catalogs():
    """In the pseudo-locale run (GAMENIGHT_TEST_PSEUDO=1, tests/pseudo.py), fail any test in
    which the bot showed words that did not pass through the catalogs."""
    from bot.language import Languages
    from tests import pseudo

    Languages.pseudo = pseudo.ENABLED
    pseudo.UNWORDED.clear()
    yield
    found, pseudo.UNWORDED[:] = list(pseudo.UNWORDED), []
    if found:
        pytest.fail("Words reached Discord without the catalogs:\n" + "\n".join(found[:20]),
                    pytrace=False)
