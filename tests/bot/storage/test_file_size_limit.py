"""A real write refused by the operating system: a process whose file-size limit (RLIMIT_FSIZE,
SIGXFSZ ignored) stops the SQLite file and its WAL from growing, as a full disk does. Each move
that cannot be written is a `StoreOutage` (answered "could not be saved, try again" by the bot),
the moves saved before and after are all on disk, and once the limit is lifted the same store
goes on writing."""

from __future__ import annotations

import json
import sqlite3
import subprocess
import sys

import pytest

pytestmark = pytest.mark.sqlite_only

CHILD = r"""
import asyncio, json, os, resource, signal, sys
signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG
import games.reversi as reversi
from bot.matches.model import Player
from bot.matches.service import MatchService
from bot.storage.errors import StoreOutage
from bot.storage.store import Store

async def main(path):
    store = await Store.open(path)
    service = MatchService(store)
    lobby = await service.open_lobby("reversi", guild_id=1, channel_id=7, creator=Player(1, "a"))
    match = await service.join(lobby.id, Player(2, "b"))
    saved, refused, errors = [], 0, set()

    async def move():
        nonlocal refused
        current = await service.get(match.id)
        seat = current.current_seat()
        square = str(reversi.legal_moves(current.state, seat)[0])
        try:
            await service.act(7, current.player(seat).user_id, square)
            saved.append(square)
        except StoreOutage as error:
            refused += 1
            errors.add(str(error))

    for _ in range(3):
        await move()
    _soft, hard = resource.getrlimit(resource.RLIMIT_FSIZE)
    full = max(os.path.getsize(path), os.path.getsize(path + "-wal"))
    resource.setrlimit(resource.RLIMIT_FSIZE, (full, hard))  # the disk is full
    for _ in range(5):
        await move()
    resource.setrlimit(resource.RLIMIT_FSIZE, (hard, hard))  # space is back
    for _ in range(5):
        await move()
    await store.close()
    print(json.dumps({"match": match.id, "saved": saved, "refused": refused,
                      "errors": sorted(errors)}))

asyncio.run(main(sys.argv[1]))
"""


def test_writes_past_a_file_size_limit_are_refused_and_the_store_goes_on_once_lifted(tmp_path):
    path = tmp_path / "gamenight.db"
    run = subprocess.run([sys.executable, "-c", CHILD, str(path)], capture_output=True,
                         text=True, timeout=120)
    assert run.returncode == 0, run.stderr
    told = json.loads(run.stdout.strip().splitlines()[-1])
    assert told["refused"] == 5  # every move while the file could not grow
    assert len(told["saved"]) == 8  # 3 before, 5 after
    assert all("disk" in error or "full" in error for error in told["errors"]), told["errors"]

    conn = sqlite3.connect(path)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        on_disk = [action for (action,) in conn.execute(
            "SELECT action FROM moves WHERE match_id = ? ORDER BY ply", (told["match"],))]
    finally:
        conn.close()
    assert on_disk == told["saved"]  # nothing acknowledged lost, nothing refused kept
