"""A Dou Dizhu series of a fixed number of rounds (a game night's table) in the match service:
the option reaches the engine, `stop` is refused, and a turn clock that runs out between rounds
deals the next round instead of ending the series, so the table never hangs."""

import pytest

import games.doudizhu as ddz
from bot.matches.model import Match
from games.common import IllegalMove
from tests.bot.conftest import ALICE, BOB, CAROL

pytestmark = pytest.mark.store  # also run on PostgreSQL (tests/project/test_postgres_run.py)

CHANNEL = 888


async def table(service, **options) -> Match:
    lobby = await service.open_lobby("doudizhu", guild_id=1, channel_id=CHANNEL, creator=ALICE,
                                     options={"players": 3, "turn_time": "10m", **options},
                                     seed=5)
    await service.join(lobby.id, BOB)
    return await service.join(lobby.id, CAROL)


async def play_round(service, match: Match) -> Match:
    """The players act as the normal computer would, through the service, until the round is
    paid."""
    while match.state.phase in (ddz.AUCTION, ddz.PLAY):
        seat = match.current_seat()
        move = ddz.choose_move(match.state, seat, "normal", seed=match.row.version)
        match = (await service.act(CHANNEL, match.player(seat).user_id, str(move))).match
    return match


async def test_the_clock_between_rounds_deals_the_next_round_of_a_fixed_series(service):
    match = await table(service, deals=2)
    assert match.engine_options == {"deals": 2} and match.state.deals == 2
    match = await play_round(service, match)
    assert match.status == "active" and match.state.phase == ddz.ROUND_OVER
    with pytest.raises(IllegalMove) as refused:
        await service.act(CHANNEL, BOB.user_id, "stop")
    assert refused.value.key == "doudizhu.fixed_deals"

    due = match.turn_due
    assert due is not None and await service.time_out(match.id, due - 1) is None
    timeout = await service.time_out(match.id, due)
    assert timeout is not None and timeout.kind == "deal" and timeout.result.action == "next"
    dealt = timeout.result.match
    assert dealt.status == "active" and dealt.state.phase == ddz.AUCTION
    assert dealt.state.round_no == 2 and dealt.state.ledger == match.state.ledger
    last = (await service.store.moves(match.id))[-1]
    assert (last.seat, last.action, last.actor) == (timeout.seat, "next", "clock")
    assert dealt.current_seat() == dealt.state.face_up_seat and dealt.turn_due is not None

    over = await play_round(service, dealt)
    assert over.status == "finished"
    result = over.outcome()
    assert result.reason == "deals" and result.scores == over.state.ledger
    assert result.details["rounds"] == 2 and sum(result.scores) == 0
    assert await service.replay(over.id) == over.state
    assert await service.time_out(over.id, due + 10 ** 6) is None  # nothing is due any more


async def test_the_clock_between_rounds_still_ends_an_open_series(service):
    match = await play_round(service, await table(service))
    assert match.engine_options is None and match.state.deals is None
    timeout = await service.time_out(match.id, match.turn_due)
    assert timeout is not None and timeout.kind == "stop" and timeout.result.action == "stop"
    assert timeout.result.match.status == "finished"
    assert timeout.result.match.outcome().reason == "stopped"

