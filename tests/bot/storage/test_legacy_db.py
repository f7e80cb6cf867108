"""Matches saved by an earlier version still load, replay and play on.

`tests/bot/storage/data/legacy_matches.sql` is the dump of a database written by the code of
commit beab566 (see `tests/bot/storage/data/README.md`). Each test builds the database from it
afresh.
"""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from bot.matches.service import MatchService
from bot.storage.store import Store
from games.common import Outcome

LEGACY = Path(__file__).parent / "data" / "legacy_matches.sql"


def build_legacy(path: Path) -> Path:
    """The old database, rebuilt at `path` from its dump (user_version included)."""
    with sqlite3.connect(path) as db:
        db.executescript(LEGACY.read_text())
    return path


@pytest.fixture
async def legacy(tmp_path):
    store = await Store.open(build_legacy(tmp_path / "legacy.db"))
    yield MatchService(store)
    await store.close()


def saved_rows() -> list[tuple[int, str, str, dict | None, dict | None]]:
    """(id, game, status, state, result) as the old code wrote them, straight from the dump."""
    with sqlite3.connect(":memory:") as db:
        db.executescript(LEGACY.read_text())
        rows = db.execute("SELECT id, game, status, state, result FROM matches ORDER BY id")
        return [(i, g, s, json.loads(st) if st else None, json.loads(r) if r else None)
                for i, g, s, st, r in rows]


def without_event_words(state: dict) -> dict:
    """`state` with its events reduced to what every version saves: kind and seat."""
    events = [{"kind": e["kind"], "seat": e.get("seat")} for e in state.get("events", [])]
    return {**state, "events": events}


def without_words(state: dict) -> dict:
    """`state` without its events' words and without why it ended (a sentence once, now a
    key): the game itself."""
    state = without_event_words(state)
    result = state.get("result")
    if result:
        state["result"] = {key: result[key] for key in ("scores", "winners", "draw")}
    return state


async def test_every_saved_match_loads_and_is_the_replay_of_its_log(legacy):
    rows = saved_rows()
    assert {game for _, game, *_ in rows} == {"reversi", "scrabble", "doudizhu", "patchwork"}
    for match_id, game, status, state, result in rows:
        match = await legacy.get(match_id)
        assert (match.game, match.status) == (game, status)
        if state is None:
            assert match.state is None
            continue
        # Saving it again writes what the old code wrote, except that events now carry
        # values for the adapters to word rather than English sentences.
        saved = json.loads(json.dumps(match.state.to_dict()))
        replayed = json.loads(json.dumps((await legacy.replay(match_id)).to_dict()))
        assert without_words(replayed) == without_words(saved), match_id
        assert without_event_words(saved) == without_event_words(state), match_id
        assert [(e["kind"], e.get("seat")) for e in saved.get("events", [])] == [
            (e["kind"], e.get("seat")) for e in state.get("events", [])], match_id
        if result is not None:  # the reason was a sentence then, a key now (reversi.NO_MOVES)
            saved_outcome, outcome = Outcome.from_dict(result), match.outcome()
            assert (saved_outcome.scores, saved_outcome.winners, saved_outcome.draw) == (
                outcome.scores, outcome.winners, outcome.draw)
            assert saved_outcome.to_dict() == result


async def test_the_saved_matches_stop_at_the_points_worth_loading(legacy):
    states = {}
    for match_id, game, status, *_ in saved_rows():
        match = await legacy.get(match_id)
        states.setdefault(game, []).append((status, match.state))
    scrabble = [s for status, s in states["scrabble"] if status == "active"]
    assert any(s.pending and any(c.islower() for c in s.pending.move.split()[-1])
               for s in scrabble), "a play with a blank open to challenge"
    assert any(any(s.skips) for s in scrabble), "a turn lost to a failed challenge"
    assert any(s.rack_size == 9 and s.finish for s in scrabble), "9 tiles, finish line"
    doudizhu = [s for _, s in states["doudizhu"]]
    assert any(s.to_beat for s in doudizhu), "mid-trick"
    assert any(s.phase == "round_over" for s in doudizhu)
    assert any(s.players == 4 and s.round_no == 2 for s in doudizhu)
    assert any(s.pending_seat is not None for _, s in states["patchwork"]), "leather pending"
    for game in states:
        assert {status for status, _ in states[game]} >= {"active", "finished"}, game


async def test_play_continues_in_every_saved_match_in_progress(legacy):
    active = [row for row in saved_rows() if row[2] == "active"]
    assert len(active) >= 8
    for match_id, *_ in active:
        match = await legacy.get(match_id)
        seat = match.current_seat()
        moves = match.engine.legal_moves(match.state, seat)
        move = next((m for m in moves if str(m) not in ("pass", "challenge")), moves[0])
        result = await legacy.act(match.channel_id, match.player(seat).user_id, str(move))
        assert result.match.row.version == match.row.version + 1
        assert result.match.state == await legacy.replay(match_id)
        assert result.match.state != match.state
