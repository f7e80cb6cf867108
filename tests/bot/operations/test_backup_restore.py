"""`gamenight backup` and `gamenight restore`: a compressed copy named by time, with a manifest
whose checksums are `gamenight migrate`'s; rotation; a restore that refuses to overwrite and
checks the manifest; pg_dump on PostgreSQL, or one line saying how."""

from __future__ import annotations

import gzip
import json
import re
import shutil
import subprocess
from datetime import UTC, datetime, timedelta

import pytest

from bot.app.main import main
from bot.operations.backups import backups_in, manifest_of, take_backup
from bot.storage.copy import checksum
from bot.storage.errors import StoreUnavailable
from bot.storage.store import Store
from bot.storage.tables import TABLES
from tests import stores

pytestmark = pytest.mark.sqlite_only

WHEN = datetime(2026, 11, 28, 6, 50, tzinfo=UTC)


@pytest.fixture(autouse=True)
def no_settings(monkeypatch, tmp_path):
    """No .env, no DISCORD_TOKEN: the commands need neither."""
    monkeypatch.chdir(tmp_path)
    for name in ("DISCORD_TOKEN", "GAMENIGHT_DB", "GAMENIGHT_BACKUP_DIR", "GAMENIGHT_BACKUP_KEEP"):
        monkeypatch.delenv(name, raising=False)


async def test_a_backup_is_compressed_named_by_time_with_migrates_checksums(played_db, tmp_path):
    backup = take_backup(played_db, tmp_path / "backups", now=WHEN)
    assert backup.path.name == "gamenight-20261128T065000Z.db.gz"
    assert gzip.open(backup.path).read(16) == b"SQLite format 3\x00"
    manifest = json.loads(manifest_of(backup.path).read_text())
    store = await Store.open(played_db)
    try:
        assert manifest["schema_version"] == await store.schema_version()
        for table in TABLES:
            rows = await store.table_rows(table, await store.columns(table))
            assert manifest["tables"][table] == {"rows": len(rows), "checksum": checksum(rows)}
    finally:
        await store.close()
    assert manifest["tables"]["moves"]["rows"] > 50


def test_keep_rotates_the_oldest_away(played_db, tmp_path):
    for hours in range(4):
        take_backup(played_db, tmp_path / "b", keep=2, now=WHEN + timedelta(hours=hours))
    kept = [p.name for p in backups_in(tmp_path / "b")]
    assert kept == ["gamenight-20261128T085000Z.db.gz", "gamenight-20261128T095000Z.db.gz"]
    assert sorted(p.name for p in (tmp_path / "b").iterdir()) == sorted(
        kept + [name.replace(".db.gz", ".json") for name in kept])


def test_the_command_backs_up_gamenight_db_without_a_token(played_db, tmp_path, monkeypatch,
                                                           capsys):
    monkeypatch.setenv("GAMENIGHT_DB", str(played_db))
    assert main(["backup", "--to", "out", "--keep", "1"]) == 0
    assert main(["backup", "--to", "out", "--keep", "1"]) in (0, 2)  # the same second: refused
    out = capsys.readouterr().out
    assert re.search(r"backed up .*gamenight\.db to out/gamenight-\d{8}T\d{6}Z\.db\.gz "
                     r"\(\d+\.\d MB, \d+ rows, schema version \d+\)", out)
    assert len(backups_in(tmp_path / "out")) == 1


def test_a_missing_database_is_one_line_and_status_2(tmp_path, capsys):
    assert main(["backup", "--db", str(tmp_path / "nothing.db")]) == 2
    assert capsys.readouterr().err.strip().count("\n") == 0


def test_restore_refuses_a_database_without_force_then_checks_the_manifest(played_db, tmp_path,
                                                                            capsys):
    backup = take_backup(played_db, tmp_path / "b", now=WHEN).path
    target = tmp_path / "restored.db"
    assert main(["restore", str(backup), "--to", str(target)]) == 0
    assert "counts and checksums agree with the manifest" in capsys.readouterr().out
    assert main(["verify", str(target)]) == 0
    assert main(["restore", str(backup), "--to", str(target)]) == 2
    assert "already holds a database" in capsys.readouterr().err
    assert main(["restore", str(backup), "--to", str(target), "--force"]) == 0


def test_restore_refuses_a_backup_that_differs_from_its_manifest(played_db, tmp_path, capsys):
    backup = take_backup(played_db, tmp_path / "b", now=WHEN).path
    manifest = json.loads(manifest_of(backup).read_text())
    manifest["tables"]["moves"]["checksum"] = "0" * 16
    manifest_of(backup).write_text(json.dumps(manifest))
    target = tmp_path / "restored.db"
    assert main(["restore", str(backup), "--to", str(target)]) == 1
    assert "does not match its manifest: moves" in capsys.readouterr().err
    assert not target.exists()


def test_restore_of_a_damaged_backup_leaves_the_target_alone(played_db, tmp_path, capsys):
    backup = take_backup(played_db, tmp_path / "b", now=WHEN).path
    backup.write_bytes(backup.read_bytes()[:2000])
    assert main(["restore", str(backup), "--to", str(played_db), "--force"]) == 1
    assert "damaged" in capsys.readouterr().err
    assert main(["verify", str(played_db)]) == 0


def test_without_pg_dump_a_postgresql_backup_says_how(tmp_path, monkeypatch, capsys):
    monkeypatch.setenv("PATH", str(tmp_path))  # no pg_dump there
    url = "postgresql://gamenight:secret@db.example/gamenight"
    assert main(["backup", "--db", url, "--to", str(tmp_path / "b")]) == 2
    err = capsys.readouterr().err
    assert "pg_dump is not installed" in err and "pg_dump --format=custom" in err
    assert "secret" not in err and err.count("\n") == 1


@pytest.mark.skipif(shutil.which("pg_dump") is None, reason="pg_dump is not installed")
async def test_a_postgresql_backup_is_pg_dumps_custom_format(tmp_path):
    try:
        store = await Store.open(stores.PG_URL)
    except StoreUnavailable:
        pytest.skip("no PostgreSQL server")
    await store.close()
    backup = take_backup(stores.PG_URL, tmp_path / "b", keep=3, now=WHEN)
    assert backup.path.name == "gamenight-20261128T065000Z.dump"
    listed = subprocess.run(["pg_restore", "--list", str(backup.path)], capture_output=True,
                            text=True)
    assert listed.returncode == 0 and "TABLE public matches" in listed.stdout


@pytest.mark.skipif(shutil.which("pg_dump") is None, reason="pg_dump is not installed")
async def test_a_database_in_a_schema_of_its_own_is_dumped_from_that_schema(tmp_path):
    await stores.require_postgresql("a backup of a schema")
    url = await stores.fresh_schema(tmp_path / "schema")  # ...?search_path=t_...
    await (await Store.open(url)).close()
    backup = take_backup(url, tmp_path / "b", keep=3, now=WHEN)
    listed = subprocess.run(["pg_restore", "--list", str(backup.path)], capture_output=True,
                            text=True)
    schema = stores.schema_for(tmp_path / "schema")
    assert listed.returncode == 0 and f"TABLE {schema} matches" in listed.stdout
    assert "TABLE public" not in listed.stdout
