"""The fake-Discord suites once more in the pseudo-locale (tests/pseudo.py): every text the bot
sent must have come through the catalogs. Where a PostgreSQL server answers, the PostgreSQL run
(tests/project/test_postgres_run.py) is this pass too, and this one is skipped."""

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
@pytest.mark.skipif(pseudo.ENABLED, reason="this is the pseudo-locale run itself")
def test_the_fake_discord_suites_pass_in_the_pseudo_locale():
    if asyncio.run(stores.reachable()) is None:
        pytest.skip("the PostgreSQL run is in the pseudo-locale too")
    env = {**os.environ, "GAMENIGHT_TEST_PSEUDO": "1"}
    run = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-m", "e2e", "-p", "no:cacheprovider",
         "-n", "2", "-x", "--no-header"],
        cwd=ROOT, env=env, capture_output=True, text=True)
    assert run.returncode == 0, run.stdout[-6000:] + run.stderr[-2000:]
    assert " passed" in run.stdout.splitlines()[-1]
