"""The store tests and the fake-Discord suites once more on PostgreSQL (tests/stores.py).

Where no PostgreSQL server answers they are skipped, saying so; `.ci/run` sets
GAMENIGHT_REQUIRE_PG, and there a missing server fails instead."""

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
@pytest.mark.skipif(pseudo.ENABLED, reason="the pseudo-locale run is on SQLite")
def test_the_store_and_fake_discord_suites_pass_on_postgresql():
    asyncio.run(stores.require_postgresql("the store and fake-Discord suites on PostgreSQL"))
    env = {**os.environ, "GAMENIGHT_TEST_STORE": stores.POSTGRESQL}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-m", "e2e or store", "-p", "no:cacheprovider",
         "-n", "2", "-x", "--no-header"],
        cwd=ROOT, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert " passed" in run.stdout.splitlines()[-1]
