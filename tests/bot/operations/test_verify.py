"""`gamenight verify`: a sound database passes (status 0); copies damaged in several ways are
each named, one line a problem, with status 1."""

from __future__ import annotations

import shutil
import sqlite3
from contextlib import closing

import pytest

from bot.app.main import main

pytestmark = pytest.mark.sqlite_only


def damaged(played_db, tmp_path, *statements: str):
    """A copy of the database with `statements` run on it by hand, past the store's rules."""
    copy = tmp_path / "copy.db"
    shutil.copy(played_db, copy)
    with closing(sqlite3.connect(copy)) as conn:
        for statement in statements:
            conn.execute(statement)
        conn.commit()
    return copy


def verify(path, capsys) -> tuple[int, list[str]]:
    status = main(["verify", str(path)])
    return status, capsys.readouterr().out.splitlines()


def test_a_sound_database_passes(played_db, capsys):
    status, lines = verify(played_db, capsys)
    assert status == 0
    assert lines == [f"checked {played_db}: integrity, 4 matches replayed from their moves, "
                     "ratings rebuilt from the results: no problem"]


def test_a_missing_file_is_said_in_one_line(tmp_path, capsys):
    status = main(["verify", str(tmp_path / "missing.db")])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert err == f"gamenight verify: there is no SQLite database at {tmp_path / 'missing.db'}\n"
    assert not (tmp_path / "missing.db").exists()


def test_an_older_schema_is_left_unchanged(played_db, tmp_path, capsys):
    older = damaged(played_db, tmp_path, "PRAGMA user_version = 5")
    before = older.read_bytes()
    status = main(["verify", str(older)])
    out, err = capsys.readouterr()
    assert status == 2 and out == ""
    assert "is at schema version 5, older than this Gamenight's" in err
    assert err.count("\n") == 1
    assert older.read_bytes() == before  # not migrated


def test_a_truncated_file_is_named(played_db, tmp_path, capsys):
    copy = tmp_path / "truncated.db"
    data = played_db.read_bytes()
    copy.write_bytes(data[: len(data) // 2])
    status, lines = verify(copy, capsys)
    assert status == 1
    assert any(line.startswith("integrity:") for line in lines)
    assert "the file is damaged" in lines[-1]


def test_a_changed_move_is_named(played_db, tmp_path, capsys):
    copy = damaged(played_db, tmp_path, "DROP TRIGGER moves_are_append_only_update",
                   "UPDATE moves SET action = 'pass' WHERE match_id = 1 AND ply = 3")
    status, lines = verify(copy, capsys)
    assert status == 1
    assert any(line.startswith("match 1 (reversi, finished): ") for line in lines), lines
    assert "1 problem(s)" in lines[-1] or "problem(s)" in lines[-1]


def test_a_deleted_seat_is_named(played_db, tmp_path, capsys):
    copy = damaged(played_db, tmp_path, "DELETE FROM seats WHERE match_id = 2 AND seat = 1")
    status, lines = verify(copy, capsys)
    assert status == 1
    assert ("match 2 (scrabble, finished): its seats are numbered [0, 2]: a seat is missing"
            in lines), lines


def test_a_changed_state_and_a_changed_rating_are_named(played_db, tmp_path, capsys):
    copy = damaged(played_db, tmp_path,
                   "UPDATE matches SET state = json_set(state, '$.black', 1) WHERE id = 4",
                   "UPDATE ratings SET mu = mu + 1 WHERE user_id = 201 AND game = 'reversi'")
    status, lines = verify(copy, capsys)
    assert status == 1
    assert any(line.startswith("match 4 (reversi, active): the stored state differs from its "
                               "move log replayed, in ") for line in lines), lines
    assert any(line.startswith("rating of 201 in reversi, server 7") for line in lines), lines


def test_a_long_check_says_how_far_it_is_on_stderr(played_db, capsys, monkeypatch):
    from bot.operations import audit

    monkeypatch.setattr(audit, "PROGRESS_EVERY", 2)
    status = main(["verify", str(played_db)])
    out, err = capsys.readouterr()
    assert status == 0 and out.count("\n") == 1  # the summary alone, as before
    assert err.splitlines() == ["gamenight verify: 2 of 4 matches replayed",
                                "gamenight verify: 4 of 4 matches replayed"]
