"""A damaged database at start-up stops the bot with one line and status 2, pointing at
`gamenight verify` and the newest backup; never a traceback, and Discord is never asked."""

from __future__ import annotations

import subprocess
import sys
from datetime import UTC, datetime, timedelta

import pytest

from bot.operations.backups import take_backup

pytestmark = pytest.mark.sqlite_only


def start_bot(tmp_path, db, **env) -> subprocess.CompletedProcess[str]:
    environ = {"PATH": "/usr/bin:/bin", "DISCORD_TOKEN": "not-a-token", "GAMENIGHT_DB": str(db),
               "DISCORD_API_BASE": "http://127.0.0.1:9/api/v10", **env}  # nothing answers there
    return subprocess.run([sys.executable, "-m", "bot"], cwd=tmp_path, env=environ,
                          capture_output=True, text=True, timeout=60)


def test_a_truncated_database_names_verify_and_the_newest_backup(played_db, tmp_path):
    when = datetime(2026, 11, 28, 6, 50, tzinfo=UTC)
    take_backup(played_db, tmp_path / "backups", now=when - timedelta(days=1))
    newest = take_backup(played_db, tmp_path / "backups", now=when).path
    data = played_db.read_bytes()
    played_db.write_bytes(data[: len(data) // 2])
    done = start_bot(tmp_path, played_db, GAMENIGHT_BACKUP_DIR=str(tmp_path / "backups"))
    assert done.returncode == 2, done.stderr
    line = done.stderr.strip()
    assert "\n" not in line and "Traceback" not in done.stderr
    assert line.startswith(f"gamenight: cannot use the database {played_db}: it is damaged (")
    assert f"`gamenight verify {played_db}`" in line
    assert f"the newest backup is {newest}" in line
    assert f"`gamenight restore {newest} --to {played_db} --force`" in line
    assert "Discord" not in done.stderr  # it stopped before logging in


@pytest.mark.parametrize("backup_dir, says", [
    (None, "GAMENIGHT_BACKUP_DIR is not set"), ("empty", "there is no backup in"),
])
def test_a_file_that_is_no_database_says_where_backups_would_be(tmp_path, backup_dir, says):
    db = tmp_path / "gamenight.db"
    db.write_bytes(b"not a database, just some bytes " * 200)
    env = {} if backup_dir is None else {"GAMENIGHT_BACKUP_DIR": str(tmp_path / backup_dir)}
    done = start_bot(tmp_path, db, **env)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "Traceback" not in done.stderr
    assert "(file is not a database) (or GAMENIGHT_DB names a file" in done.stderr
    assert says in done.stderr
