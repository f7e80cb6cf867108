"""What every folder shares: the database the tests run on (SQLite, or PostgreSQL:
tests/stores.py), and the checks every test passes (no request Discord would refuse, no words
shown without the catalogs). The store and match service fixtures are in tests/bot/conftest.py."""

from __future__ import annotations

import pytest

from tests import stores


@pytest.fixture
async def pg_location(tmp_path):
    """For the tests of several processes, each with its own store: a schema of its own on
    the PostgreSQL server, whichever database the run is on (or a skip, saying why)."""
    await stores.require_postgresql("the tests of several processes")
    return await stores.fresh_schema(tmp_path / "shared")


@pytest.fixture(scope="session", autouse=True)
def postgresql_schemas_dropped():
    yield
    stores.drop_created()


def pytest_collection_modifyitems(config, items):
    """The suites run again in a child pytest go first (pytest-xdist hands out tests in this
    order: they start at once and the rest runs beside them). On PostgreSQL, tests of the
    SQLite file itself do not apply."""
    items.sort(key=lambda item: not item.get_closest_marker("child_run"))
    if not stores.ON_POSTGRESQL:
        return
    skip = pytest.mark.skip(reason="a test of the SQLite file itself")
    for item in items:
        if item.get_closest_marker("sqlite_only"):
            item.add_marker(skip)


@pytest.fixture(autouse=True)
def discord_accepts_every_request():
    """Fail any test in which the bot sent a body Discord would refuse
    (tests/fakediscord/discord_schema.py)."""
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
    from bot.ui.language import Languages
    from tests import pseudo

    Languages.pseudo = pseudo.ENABLED
    pseudo.UNWORDED.clear()
    yield
    found, pseudo.UNWORDED[:] = list(pseudo.UNWORDED), []
    if found:
        pytest.fail("Words reached Discord without the catalogs:\n" + "\n".join(found[:20]),
                    pytrace=False)
