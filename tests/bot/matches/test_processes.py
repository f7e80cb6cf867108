"""Several processes on one database: the timekeeper lease, commits heard across processes,
and racing writes from two services (each with its own store, as two processes have)."""

from __future__ import annotations

import asyncio

import pytest

from bot.matches.errors import Conflict, OutOfDate
from bot.matches.model import Player
from bot.matches.service import MatchService
from bot.storage.store import Store
from games import reversi

pytestmark = pytest.mark.store  # also run on PostgreSQL (tests/project/test_postgres_run.py)

CHANNEL, GUILD = 500, 1


async def test_a_lease_is_held_by_one_owner_until_it_lapses(store):
    now = [1000.0]
    store.clock = lambda: now[0]
    assert await store.lease("timekeeper") is None
    assert await store.take_lease("timekeeper", "a", 30)
    assert not await store.take_lease("timekeeper", "b", 30)  # a's until 1030
    assert await store.take_lease("timekeeper", "a", 30)  # renewed
    now[0] = 1029.0
    assert not await store.take_lease("timekeeper", "b", 30)
    assert await store.lease("timekeeper") == ("a", 1030.0)
    now[0] = 1030.0  # lapsed: b takes it, and a no longer renews it
    assert await store.take_lease("timekeeper", "b", 30)
    assert not await store.take_lease("timekeeper", "a", 30)
    await store.release_lease("timekeeper", "a")  # not a's to release
    assert await store.lease("timekeeper") == ("b", 1060.0)
    await store.release_lease("timekeeper", "b")
    assert await store.lease("timekeeper") is None
    assert await store.take_lease("timekeeper", "a", 30)  # free again at once


async def test_two_processes_racing_for_a_lapsed_lease_one_gets_it(pg_location):
    first, second = await Store.open(pg_location), await Store.open(pg_location)
    try:
        for round_ in range(20):
            name = f"lease {round_}"
            won = await asyncio.gather(first.take_lease(name, "first", 30),
                                       second.take_lease(name, "second", 30))
            assert sorted(won) == [False, True]
    finally:
        await first.close()
        await second.close()


async def test_a_commit_is_heard_by_the_other_processes_not_its_own(pg_location):
    first, second = await Store.open(pg_location), await Store.open(pg_location)
    heard_first: asyncio.Queue[int] = asyncio.Queue()
    heard_second: asyncio.Queue[int] = asyncio.Queue()
    listeners = [await first.listen(heard_first.put_nowait),
                 await second.listen(heard_second.put_nowait)]
    try:
        match = await MatchService(first).open_lobby(
            "reversi", guild_id=GUILD, channel_id=CHANNEL, creator=Player(1, "Ada"))
        assert await asyncio.wait_for(heard_second.get(), 10) == match.id
        await MatchService(second).join(match.id, Player(2, "Bo"))
        assert await asyncio.wait_for(heard_first.get(), 10) == match.id
        assert heard_first.empty() and heard_second.empty()  # nobody hears their own
    finally:
        for listener in listeners:
            await listener.close()
        await first.close()
        await second.close()


async def test_two_processes_racing_on_one_match_one_wins_each_time(pg_location):
    """Two services on two connections (as two processes: no shared lock in memory) make the
    same move at once, round after round: exactly one wins each time, the other is told it
    lost, and the move log has every ply once, in order."""
    stores_ = [await Store.open(pg_location), await Store.open(pg_location)]
    services = [MatchService(s) for s in stores_]
    try:
        match = await services[0].open_lobby("reversi", guild_id=GUILD, channel_id=CHANNEL,
                                              creator=Player(1, "Ada"))
        match = await services[1].join(match.id, Player(2, "Bo"))
        rounds, losses = 0, set()
        while match.status == "active" and rounds < 40:
            seat = match.current_seat()
            user = match.player(seat).user_id
            move = str(reversi.legal_moves(match.state, seat)[0])
            results = await asyncio.gather(
                *(service.act(CHANNEL, user, move, version=match.row.version)
                  for service in services), return_exceptions=True)
            won = [r for r in results if not isinstance(r, BaseException)]
            lost = [r for r in results if isinstance(r, BaseException)]
            assert len(won) == 1, results
            assert len(lost) == 1 and isinstance(lost[0], (Conflict, OutOfDate)), results
            losses.add(type(lost[0]))
            match = won[0].match
            rounds += 1
        assert Conflict in losses  # the database's version check, not a lock, decided
        moves = await stores_[0].moves(match.id)
        assert [m.ply for m in moves] == list(range(1, rounds + 1))
        assert match.row.version == 1 + rounds  # the lobby 0, joined and started 1, a move each
        replayed = await services[1].replay(match.id)
        assert replayed.to_dict() == match.state.to_dict()
    finally:
        for store in stores_:
            await store.close()


async def test_a_language_chosen_through_one_process_reaches_the_other(store, monkeypatch):
    import bot.ui.language as language

    now = [100.0]
    monkeypatch.setattr(language.time, "monotonic", lambda: now[0])
    monkeypatch.setattr(language.Languages, "pseudo", False)  # the languages, not the markers
    here, there = language.Languages(None, store), language.Languages(None, store)
    assert await there.person(7, None) == language.voice("en")  # read, and kept a while
    await here.choose(7, "gu")
    assert await here.person(7, None) == language.voice("gu")
    now[0] += language.KEEP_SECONDS  # the other process reads it again
    assert await there.person(7, None) == language.voice("gu")


async def test_processes_starting_together_on_an_empty_database_all_open_it(pg_location):
    """Several processes started at once (compose, a deploy) migrate an empty database
    together: one brings it up to date, none fails on the other's tables."""
    from bot.storage.migrations import MIGRATIONS

    opened = await asyncio.gather(*(Store.open(pg_location) for _ in range(4)))
    try:
        for store in opened:
            assert await store.schema_version() == len(MIGRATIONS)
    finally:
        for store in opened:
            await store.close()


async def test_processes_starting_together_after_a_downtime_one_takes_it_out_of_the_clocks(
        pg_location):
    """After the whole bot was down, of the processes starting at once exactly one pushes the
    clocks back (once) and is told which boards are owed: the others find it alive."""
    now = [1000.0]
    stores_ = [await Store.open(pg_location) for _ in range(3)]
    try:
        for store in stores_:
            store.clock = lambda: now[0]
        service = MatchService(stores_[0])
        lobby = await service.open_lobby("reversi", guild_id=GUILD, channel_id=CHANNEL,
                                         creator=Player(1, "alice"))
        match = await service.join(lobby.id, Player(2, "bob"))
        await stores_[0].mark_alive(now[0])
        now[0] += 100  # everything dies, then all start again together
        downtimes = await asyncio.gather(*(s.resume_clocks(now[0], 6.0, 3600.0)
                                           for s in stores_))
        found = [d for d in downtimes if d is not None]
        assert len(found) == 1 and found[0].seconds == pytest.approx(100.0)
        assert found[0].owed == (lobby.id,)  # started, its first board never shown
        after = await MatchService(stores_[1]).get(match.id)
        assert after.row.turn_since == pytest.approx(match.row.turn_since + 100.0)
    finally:
        for store in stores_:
            await store.close()
