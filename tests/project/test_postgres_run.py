"""The store tests and the fake-Discord suites once more, on PostgreSQL (tests/stores.py) and in
the pseudo-locale (tests/pseudo.py) at once: the database and the words are independent, so one
more pass checks both.

Where no PostgreSQL server answers this is skipped, saying so, and tests/project/test_pseudo_run.py
runs the pseudo-locale pass on SQLite instead; `.ci/run` sets GAMENIGHT_REQUIRE_PG, and there a
missing server fails."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests import pseudo, stores

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.child_run
@pytest.mark.skipif(stores.ON_POSTGRESQL, reason="this is the PostgreSQL run itself")
@pytest.mark.skipif(pseudo.ENABLED, reason="this is the pseudo-locale run itself")
def test_the_store_and_fake_discord_suites_pass_on_postgresql_in_the_pseudo_locale():
    asyncio.run(stores.require_postgresql("the store and fake-Discord suites on PostgreSQL"))
    env = {**os.environ, "GAMENIGHT_TEST_STORE": stores.POSTGRESQL, "GAMENIGHT_TEST_PSEUDO": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-m", "e2e or store", "-p", "no:cacheprovider",
         "-n", "3", "-x", "--no-header"],
        cwd=ROOT, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert " passed" in run.stdout.splitlines()[-1]
