"""Computer seats in the match service: seating them, and their actions, which apply only
while the turn they were thought for is still the match's."""

import pytest

import games.reversi as reversi
from bot.matches.errors import LobbyError, NotAllowed, OutOfDate
from bot.workers.computer_moves import decide, decision_seed
from tests.bot.conftest import ALICE, BOB

pytestmark = pytest.mark.store  # also run on PostgreSQL (tests/project/test_postgres_run.py)

CHANNEL = 777


async def reversi_lobby(service):
    return await service.open_lobby("reversi", guild_id=1, channel_id=CHANNEL, creator=ALICE,
                                    seed=3)


async def test_the_creator_seats_a_computer_and_the_table_starts(service):
    lobby = await reversi_lobby(service)
    with pytest.raises(NotAllowed):
        await service.add_computer(lobby.id, BOB.user_id, "hard")
    with pytest.raises(LobbyError, match="levels"):
        await service.add_computer(lobby.id, ALICE.user_id, "expert")
    with pytest.raises(OutOfDate):
        await service.add_computer(lobby.id, ALICE.user_id, "hard",
                                   version=lobby.row.version + 1)
    match = await service.add_computer(lobby.id, ALICE.user_id, "hard")
    assert match.status == "active"
    computer = match.player(1)
    assert (computer.kind, computer.user_id, computer.name, computer.level) == (
        "computer", None, "Computer (hard)", "hard")
    assert match.seat_of(ALICE.user_id) == 0
    reread = await service.get(match.id)  # the level is stored with the seat
    assert reread.player(1).level == "hard"


async def test_computers_are_numbered_and_removed_last_first(service):
    lobby = await service.open_lobby("doudizhu", guild_id=1, channel_id=CHANNEL, creator=ALICE,
                                     options={"players": 4})
    await service.add_computer(lobby.id, ALICE.user_id, "easy")
    lobby = await service.add_computer(lobby.id, ALICE.user_id, "hard")
    assert [s.name for s in lobby.seats] == ["alice", "Computer (easy)", "Computer 2 (hard)"]
    lobby = await service.remove_computer(lobby.id, ALICE.user_id)
    assert [s.name for s in lobby.seats] == ["alice", "Computer (easy)"]
    joined = await service.join(lobby.id, BOB)
    left = await service.leave(joined.id, BOB.user_id)  # renumbering keeps the level
    assert left.player(1).level == "easy"
    left = await service.remove_computer(left.id, ALICE.user_id)
    with pytest.raises(LobbyError, match="No computer"):
        await service.remove_computer(left.id, ALICE.user_id)


async def test_a_computer_action_applies_only_on_its_own_turn(service):
    match = await service.add_computer((await reversi_lobby(service)).id, ALICE.user_id, "easy")
    if match.computer_to_act() is None:  # alice is black: she moves first
        square = str(reversi.legal_moves(match.state, 0)[0])
        match = (await service.act(CHANNEL, ALICE.user_id, square)).match
    seat, version = match.computer_to_act(), match.row.version
    square = str(reversi.legal_moves(match.state, seat)[0])
    assert await service.act_for_computer(match.id, seat, version + 1, square) is None
    assert await service.act_for_computer(match.id, 1 - seat, version, square) is None
    result = await service.act_for_computer(match.id, seat, version, square)
    assert result is not None and result.action == square and result.seat == seat
    assert await service.act_for_computer(match.id, seat, version, square) is None  # stale
    assert [m.action for m in await service.store.moves(match.id)][-1] == square


async def test_every_commit_is_told_to_the_on_commit_hook(service):
    seen = []
    service.on_commit = seen.append
    lobby = await reversi_lobby(service)
    match = await service.add_computer(lobby.id, ALICE.user_id, "easy")
    assert [(m.id, m.status) for m in seen] == [(lobby.id, "lobby"), (match.id, "active")]


def test_a_decision_depends_on_the_match_seed_version_and_seat_only():
    assert decision_seed(5, 7, 1) == decision_seed(5, 7, 1)
    assert len({decision_seed(5, 7, 1), decision_seed(5, 8, 1), decision_seed(6, 7, 1),
                decision_seed(5, 7, 0)}) == 4
    state = reversi.new_game(seed=1)
    seat = reversi.current_seat(state)
    text, seconds = decide("reversi", state.to_dict(), seat, "easy", 99)
    assert reversi.parse_move(text) in reversi.legal_moves(state, seat) and seconds >= 0
