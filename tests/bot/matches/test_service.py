"""The match service and its SQLite store: lobby, seats, turns, persistence and races."""

import asyncio

import pytest

import games.reversi as reversi
from bot.matches.errors import (
    ChannelTaken, Conflict, LobbyError, NoMatchHere, NotAllowed, NotSeated,
)
from bot.matches.model import Player
from bot.matches.service import MatchService
from bot.storage.errors import StaleVersion
from bot.storage.migrations import MIGRATIONS
from bot.storage.store import Store
from games.common import IllegalMove, NotYourTurn
from tests.bot.conftest import ALICE, BOB, CAROL

pytestmark = pytest.mark.store  # also run on PostgreSQL (tests/project/test_postgres_run.py)

CHANNEL = 555


async def started_reversi(service, seed=11):
    lobby = await service.open_lobby("reversi", guild_id=1, channel_id=CHANNEL, creator=ALICE,
                                     seed=seed)
    match = await service.join(lobby.id, BOB)
    return match


def seat_user(match, seat):
    return match.player(seat).user_id


async def test_lobby_starts_when_the_second_player_joins(service):
    lobby = await service.open_lobby("reversi", guild_id=1, channel_id=CHANNEL, creator=ALICE)
    assert lobby.status == "lobby" and [s.user_id for s in lobby.seats] == [ALICE.user_id]
    match = await service.join(lobby.id, BOB)
    assert match.status == "active"
    assert [s.name for s in match.seats] == ["alice", "bob"]
    assert match.current_seat() == match.state.black_seat


async def test_one_open_match_per_channel(service):
    lobby = await service.open_lobby("reversi", guild_id=1, channel_id=CHANNEL, creator=ALICE)
    with pytest.raises(ChannelTaken) as caught:
        await service.open_lobby("reversi", guild_id=1, channel_id=CHANNEL, creator=BOB)
    assert caught.value.match.id == lobby.id
    other = await service.open_lobby("reversi", guild_id=1, channel_id=CHANNEL + 1, creator=BOB)
    assert other.id != lobby.id


async def test_the_database_refuses_a_second_open_match_in_a_channel(store):
    from bot.storage.errors import ChannelBusy
    from bot.storage.rows import SeatRow

    seat = SeatRow(0, "user", 1, "x")
    await store.create_match(guild_id=1, channel_id=9, game="reversi", options={}, seed=1,
                             creator=seat, invited_id=None)
    with pytest.raises(ChannelBusy):
        await store.create_match(guild_id=1, channel_id=9, game="reversi", options={}, seed=2,
                                 creator=seat, invited_id=None)


async def test_invited_opponent_alone_may_take_the_seat(service):
    lobby = await service.open_lobby("reversi", guild_id=1, channel_id=CHANNEL, creator=ALICE,
                                     invited=BOB)
    with pytest.raises(LobbyError, match="reserved for <@102>"):
        await service.join(lobby.id, CAROL)
    match = await service.join(lobby.id, BOB)
    assert match.status == "active"


async def test_lobby_join_and_leave_rules(service):
    lobby = await service.open_lobby("reversi", guild_id=1, channel_id=CHANNEL, creator=ALICE)
    with pytest.raises(LobbyError, match="already have a seat"):
        await service.join(lobby.id, ALICE)
    with pytest.raises(NotSeated):
        await service.leave(lobby.id, BOB.user_id)
    with pytest.raises(NotAllowed):
        await service.start(lobby.id, BOB.user_id)
    with pytest.raises(LobbyError, match="needs at least 2 players"):
        await service.start(lobby.id, ALICE.user_id)
    closed = await service.leave(lobby.id, ALICE.user_id)
    assert closed.status == "cancelled"
    with pytest.raises(NoMatchHere):
        await service.require(CHANNEL)


async def test_actions_check_seat_turn_and_rules(service):
    match = await started_reversi(service)
    black = match.state.black_seat
    mover, waiter = seat_user(match, black), seat_user(match, 1 - black)
    with pytest.raises(NotSeated):
        await service.act(CHANNEL, CAROL.user_id, "d3")
    with pytest.raises(NotYourTurn) as caught:
        await service.act(CHANNEL, waiter, "d3")
    # the engine's reason (worded by the game's cog), then whose turn it is
    assert isinstance(caught.value.reason, NotYourTurn)
    assert caught.value.player == match.player(black).name
    assert str(caught.value).endswith(f". It is {match.player(black).name}'s turn.")
    with pytest.raises(IllegalMove) as caught:
        await service.act(CHANNEL, mover, "a1")
    assert caught.value.key == "reversi.no_flip"
    unchanged = await service.get(match.id)
    assert unchanged.row.version == match.row.version and unchanged.state == match.state
    result = await service.act(CHANNEL, mover, "d3")
    assert result.action == "d3" and result.events[0].kind == "move"
    assert result.match.current_seat() == 1 - black
    assert [m.action for m in await service.store.moves(match.id)] == ["d3"]


async def play_out(service, match, *, stop_after=None):
    plies = 0
    while (seat := match.current_seat()) is not None:
        if stop_after is not None and plies == stop_after:
            return match
        move = reversi.legal_moves(match.state, seat)[plies % 3 % max(1, len(
            reversi.legal_moves(match.state, seat)))]
        match = (await service.act(CHANNEL, seat_user(match, seat), str(move))).match
        plies += 1
    return match


async def test_a_match_survives_closing_and_reopening_the_database(db_path):
    store = await Store.open(db_path)
    service = MatchService(store)
    match = await play_out(service, await started_reversi(service), stop_after=17)
    await store.close()

    store = await Store.open(db_path)
    reopened = await MatchService(store).current(CHANNEL)
    assert reopened.row == match.row
    assert reopened.state == match.state
    assert await MatchService(store).replay(match.id) == match.state
    await store.close()


async def test_finished_game_is_stored_with_its_result_and_log(service):
    match = await play_out(service, await started_reversi(service))
    assert match.status == "finished"
    assert match.row.result == match.outcome().to_dict()
    assert await service.replay(match.id) == match.state
    with pytest.raises(NoMatchHere, match="game in this channel is over"):
        await service.act(CHANNEL, ALICE.user_id, "a1")
    moves = await service.store.moves(match.id)
    assert [m.ply for m in moves] == list(range(1, len(moves) + 1))


async def test_racing_actions_apply_once(service):
    match = await started_reversi(service)
    mover = seat_user(match, match.state.black_seat)
    results = await asyncio.gather(
        *(service.act(CHANNEL, mover, square) for square in ("d3", "c4", "f5", "e6")),
        return_exceptions=True,
    )
    applied = [r for r in results if not isinstance(r, Exception)]
    assert len(applied) == 1
    assert all(isinstance(r, NotYourTurn) for r in results if isinstance(r, Exception))
    assert len(await service.store.moves(match.id)) == 1


async def test_version_check_refuses_a_stale_write(service, store):
    match = await started_reversi(service)
    state = match.state.to_dict()
    await store.record_action(match.id, match.row.version, seat=0, action="x", state=state)
    with pytest.raises(StaleVersion):
        await store.record_action(match.id, match.row.version, seat=0, action="y", state=state)
    assert [m.action for m in await store.moves(match.id)] == ["x"]


async def test_conflict_from_another_process_is_a_friendly_error(service, db_path):
    match = await started_reversi(service)
    other = await Store.open(db_path)  # a second connection, as another process would have
    await other.record_action(match.id, match.row.version, seat=0, action="x",
                              state=match.state.to_dict())
    await other.close()
    with pytest.raises(Conflict):
        await service._write(service.store.record_action(
            match.id, match.row.version, seat=0, action="y", state=match.state.to_dict()))


async def test_move_log_is_append_only(service, store):
    match = await started_reversi(service)
    await service.act(CHANNEL, seat_user(match, match.state.black_seat), "d3")
    # SQLite and PostgreSQL each refuse with their own error, saying why
    with pytest.raises(Exception, match="append-only"):
        async with store.transaction() as db:
            await db.execute("UPDATE moves SET action = 'c4'")
    with pytest.raises(Exception, match="append-only"):
        async with store.transaction() as db:
            await db.execute("DELETE FROM moves")
    assert [m.action for m in await store.moves(match.id)] == ["d3"]


async def test_resign_and_cancel(service):
    match = await started_reversi(service)
    result = await service.resign(CHANNEL, BOB.user_id)
    assert result.finished
    assert result.match.outcome().winners == (match.seat_of(ALICE.user_id),)
    lobby = await service.open_lobby("reversi", guild_id=1, channel_id=CHANNEL, creator=ALICE)
    with pytest.raises(NotAllowed):
        await service.cancel(CHANNEL, BOB.user_id, moderator=False)
    cancelled = await service.cancel(CHANNEL, BOB.user_id, moderator=True)
    assert cancelled.id == lobby.id and cancelled.status == "cancelled"


async def test_schema_is_versioned(store):
    assert await store.schema_version() == len(MIGRATIONS) == 18


@pytest.mark.sqlite_only
async def test_sqlite_keeps_a_write_ahead_log(store):
    async with store._db.raw.execute("PRAGMA journal_mode") as cursor:
        assert (await cursor.fetchone())[0] == "wal"


async def test_a_lobby_fills_to_its_players_option_and_the_creator_may_start_early(service):
    lobby = await service.open_lobby("scrabble", guild_id=1, channel_id=CHANNEL, creator=ALICE,
                                     options={"players": 3, "challenge": "void"})
    assert lobby.seat_target == 3 and lobby.engine_options == {"challenge": "void"}
    lobby = await service.join(lobby.id, BOB)
    assert lobby.status == "lobby"
    started = await service.join(lobby.id, CAROL)
    assert started.status == "active" and len(started.seats) == 3
    assert started.state.challenge == "void"
    other = await service.open_lobby("scrabble", guild_id=1, channel_id=CHANNEL + 1,
                                     creator=ALICE, options={"players": 4})
    await service.join(other.id, BOB)
    early = await service.start(other.id, ALICE.user_id)
    assert early.status == "active" and len(early.seats) == 2
    with pytest.raises(LobbyError, match="for 3 to 4 players"):
        await service.open_lobby("doudizhu", guild_id=1, channel_id=CHANNEL + 2, creator=ALICE,
                                 options={"players": 2})


async def test_a_control_built_for_an_old_version_is_refused(service):
    from bot.matches.errors import OutOfDate

    match = await started_reversi(service)
    mover = seat_user(match, match.state.black_seat)
    version = match.row.version
    results = await asyncio.gather(
        service.act(CHANNEL, mover, "d3", match_id=match.id, version=version),
        service.act(CHANNEL, mover, "c4", match_id=match.id, version=version),
        return_exceptions=True)
    assert sum(not isinstance(r, Exception) for r in results) == 1
    assert any(isinstance(r, OutOfDate) for r in results)
    assert [m.action for m in await service.store.moves(match.id)] in (["d3"], ["c4"])


@pytest.mark.sqlite_only
async def test_a_version_1_database_is_migrated_with_its_matches(db_path):
    old = await Store.open(db_path)
    match = await started_reversi(MatchService(old))
    async with old.transaction() as db:  # back to version 1: what later migrations added goes
        for statement in ("DROP TABLE dm_notices", "DROP TABLE live_dms", "DROP TABLE dms_closed",
                          "DROP TABLE dm_retries", "ALTER TABLE seats DROP COLUMN level",
                          "ALTER TABLE seats DROP COLUMN away", "DROP TABLE guild_settings",
                          "DROP TABLE user_settings", "DROP TABLE bot_state",
                          "DROP TABLE records", "DROP TABLE results", "DROP TABLE ratings",
                          "DROP TABLE rating_changes", "DROP TABLE leases",
                          *(f"DROP TABLE {table}" for table in (
                              "night_log", "night_tables", "night_players", "nights",
                              "night_settings", "seasons", "match_links", "guild_links",
                              "match_reviews", "match_hints")),
                          "DROP INDEX matches_by_guild",
                          "ALTER TABLE moves DROP COLUMN actor",
                          *(f"ALTER TABLE matches DROP COLUMN {column}" for column in (
                              "turn_seconds", "on_timeout", "lobby_seconds", "turn_since",
                              "human_at", "reminded", "board_version", "server_name",
                              "channel_name", "board_due")),
                          "PRAGMA user_version = 1"):
            await db.execute(statement)
    assert await old.schema_version() == 1
    await old.close()

    store = await Store.open(db_path)
    assert await store.schema_version() == len(MIGRATIONS) == 18
    assert await store.live_dm(match.id, 0) is None  # no live DM is known yet
    reopened = await MatchService(store).get(match.id)
    assert reopened.state == match.state
    assert reopened.row.turn_seconds is None and reopened.row.turn_since is not None  # no clock
    assert await store.dm_notice_sent(match.id, 1) is False
    await store.record_dm_notice(match.id, 1)
    await store.record_dm_notice(match.id, 1)
    assert await store.dm_notice_sent(match.id, 1) is True
    await store.close()


async def test_not_your_turn_keeps_the_engines_reason_and_names_the_player(service):
    lobby = await service.open_lobby("patchwork", guild_id=1, channel_id=CHANNEL, creator=ALICE,
                                     seed=3)
    match = await service.join(lobby.id, BOB)
    waiting = seat_user(match, 1 - match.current_seat())
    name = match.player(match.current_seat()).name
    with pytest.raises(NotYourTurn) as caught:
        await service.act(CHANNEL, waiting, "pass")
    assert isinstance(caught.value.reason, NotYourTurn) and caught.value.player == name
    assert str(caught.value).endswith(f". It is {name}'s turn.")


async def test_the_game_is_checked_before_the_seat(service):
    from bot.matches.errors import WrongGame

    await started_reversi(service)
    with pytest.raises(WrongGame, match="is Reversi, not Patchwork"):
        await service.act(CHANNEL, CAROL.user_id, "pass", game="patchwork")


async def test_a_cancel_button_on_an_old_card_does_not_cancel_a_newer_match(service):
    old = await service.open_lobby("reversi", guild_id=1, channel_id=CHANNEL, creator=ALICE)
    await service.cancel(CHANNEL, ALICE.user_id, moderator=False)
    new = await service.open_lobby("reversi", guild_id=1, channel_id=CHANNEL, creator=BOB)
    with pytest.raises(LobbyError):
        await service.cancel_by_id(old.id, ALICE.user_id, moderator=True)
    assert (await service.current(CHANNEL)).id == new.id


async def test_a_lobby_cancel_does_not_end_the_game_it_became(service):
    match = await started_reversi(service)
    with pytest.raises(LobbyError, match="`/match cancel` stops the game"):
        await service.cancel_by_id(match.id, ALICE.user_id, moderator=True)
    assert (await service.current(CHANNEL)).status == "active"
    stopped = await service.cancel(CHANNEL, ALICE.user_id, moderator=False)
    assert stopped.status == "cancelled"


async def test_a_rematch_reopens_the_game_with_its_options_for_its_players(service):
    lobby = await service.open_lobby("scrabble", guild_id=1, channel_id=CHANNEL, creator=ALICE,
                                     options={"players": 3, "tiles": 9, "challenge": "void"})
    await service.join(lobby.id, BOB)
    finished = await service.join(lobby.id, CAROL)
    with pytest.raises(LobbyError, match="not over"):
        await service.rematch(finished.id, BOB)
    await service.resign(CHANNEL, CAROL.user_id)  # the other two play on
    assert (await service.get(finished.id)).status == "active"
    await service.resign(CHANNEL, ALICE.user_id)  # bob is the last one left
    assert (await service.get(finished.id)).status == "finished"

    outsider = Player(104, "dave")
    with pytest.raises(NotSeated, match=f"Only the players of match #{finished.id}"):
        await service.rematch(finished.id, outsider)
    again = await service.rematch(finished.id, BOB)
    assert again.id != finished.id and again.status == "lobby" and again.game == "scrabble"
    assert again.channel_id == CHANNEL and [s.user_id for s in again.seats] == [BOB.user_id]
    assert again.row.options == {"players": 3, "tiles": 9, "challenge": "void"}
    assert again.row.invited_id is None  # three seats: anyone may join
    with pytest.raises(ChannelTaken):
        await service.rematch(finished.id, CAROL)


async def test_a_two_player_rematch_saves_the_seat_for_the_opponent(service):
    match = await started_reversi(service)
    await service.resign(CHANNEL, ALICE.user_id)
    again = await service.rematch(match.id, ALICE)
    assert again.row.invited_id == BOB.user_id
    with pytest.raises(LobbyError, match="reserved"):
        await service.join(again.id, CAROL)
    started = await service.join(again.id, BOB)
    assert started.status == "active"
    cancelled = await service.open_lobby("reversi", guild_id=1, channel_id=CHANNEL + 1,
                                         creator=ALICE)
    await service.cancel(CHANNEL + 1, ALICE.user_id, moderator=False)
    with pytest.raises(LobbyError, match="cancelled"):
        await service.rematch(cancelled.id, ALICE)
