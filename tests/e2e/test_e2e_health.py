"""Health checks on the running bot, and the gateway dropping: the fake Discord closes the bot's
gateway connection (resumable) and keeps it down for a while, then once refuses the resume
(Invalid Session). /readyz and gamenight_gateway_connected show the gateway down, then up; the
bot resumes or identifies anew, and play goes on."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from bot.operations import health
from tests.e2e_helpers import board_message, fake_world, mentioned_ids, png_size, running_bot

pytestmark = pytest.mark.e2e


async def get(bot, path: str) -> tuple[int, dict]:
    async with aiohttp.ClientSession() as session:
        async with session.get(f"http://127.0.0.1:{bot.metrics.port}{path}") as response:
            return response.status, await response.json()


def connected(bot, shard: str = "0") -> float | None:
    return bot.metrics.registry.get_sample_value("gamenight_gateway_connected", {"shard": shard})


async def assert_alive(bot) -> None:
    """/healthz answers 200 "alive", unless the loop watch saw the loop a second late (a
    loaded test machine): then 503 says only that."""
    status, body = await get(bot, "/healthz")
    assert "loop_lag_seconds" in body
    if status != 200:
        assert status == 503 and [p.split(" ran ")[0] for p in body["problems"]] == [
            "event loop:"], body
    else:
        assert body["status"] == "alive"


async def until_status(bot, path: str, status: int) -> dict:
    """The endpoint's answer once it is `status` (the bot notices a closed connection when it
    reads it, a moment after the close)."""
    while True:
        got, body = await get(bot, path)
        if got == status:
            return body
        await asyncio.sleep(0.01)


async def test_alive_and_ready_and_the_health_command(tmp_path):
    async with fake_world("reversi", ("alice",)) as (fake, guild, channel, users):
        async with running_bot(fake, tmp_path / "g.db", guild.id, metrics_port="0") as bot:
            await assert_alive(bot)
            assert await get(bot, "/readyz") == (200, {"status": "ready"})
            assert connected(bot) == 1
            url = f"http://127.0.0.1:{bot.metrics.port}"
            # the command blocks; the bot's loop must go on answering meanwhile
            assert await asyncio.to_thread(health.check, url + "/readyz", 5.0) == 0
            assert await asyncio.to_thread(health.check, url + "/healthz", 5.0) in (0, 1)


async def test_the_gateway_drops_twice_and_play_goes_on(tmp_path, capsys):
    async with fake_world("reversi", ("alice", "bob")) as (fake, guild, channel, users):
        alice, bob = users["alice"], users["bob"]
        players = {alice.id: alice, bob.id: bob}
        async with running_bot(fake, tmp_path / "g.db", guild.id, metrics_port="0") as bot:
            lobby = await fake.slash(alice, channel, "reversi new")
            joined = await fake.click(bob, lobby.message, label="Join")
            to_move = players[mentioned_ids(board_message(joined).content)[0]]
            figures = []
            for refuse in (False, True):
                square = (await fake.autocomplete(to_move, channel, "reversi move", "square",
                                                  square=""))[0]["value"]
                sessions = {s.id for s in fake._live_sessions()}
                await fake.drop_gateway(refuse_resume=refuse)
                down = await until_status(bot, "/readyz", 503)
                assert down == {"status": "not ready",
                                "problems": ["gateway: shard 0 not connected"]}
                assert connected(bot) == 0
                await assert_alive(bot)  # alive all the same
                during = await fake.slash_nowait(to_move, channel, "reversi move", square=square)
                loop = asyncio.get_running_loop()
                restored = loop.time()
                await fake.restore_gateway()
                await until_status(bot, "/readyz", 200)
                recovered = loop.time() - restored
                assert connected(bot) == 1
                now = {s.id for s in fake._live_sessions()}
                assert (now != sessions) if refuse else (now == sessions)  # identified / resumed
                if refuse:  # the session and the click in it are gone: Discord never delivers it
                    assert not during.answered.is_set()
                    retried = await fake.slash(to_move, channel, "reversi move", square=square)
                    board = board_message(retried)
                else:  # resumed: the move sent meanwhile is replayed to the bot and answered
                    assert during.answered.is_set() and not during.original.ephemeral
                    board = board_message(await_result(fake, during))
                png_size(board.attachments[0].data)
                to_move = players[mentioned_ids(board.content)[0]]
                after = await next_move(fake, channel, to_move)
                to_move = players[mentioned_ids(board_message(after).content)[0]]
                figures.append((refuse, 1, int(during.answered.is_set()), recovered))
    with capsys.disabled():
        for refuse, tried, answered, seconds in figures:
            print(f"\ngateway dropped ({'resume refused' if refuse else 'resumed'}): "
                  f"{tried} move tried during, {answered} answered by the bot, "
                  f"{tried - answered} never delivered (Discord drops it with the session), "
                  f"0 acknowledged lost; ready again {seconds:.2f} s after the gateway came back")


def await_result(fake, interaction):
    """The interaction's answer as a result, for `board_message`."""
    from tests.fakediscord import InteractionResult

    return InteractionResult(interaction, new_messages=[], edited=[], deleted=[], errors=[],
                             requests=[])


async def next_move(fake, channel, user):
    square = (await fake.autocomplete(user, channel, "reversi move", "square",
                                      square=""))[0]["value"]
    result = await fake.slash(user, channel, "reversi move", square=square)
    assert not result.ephemeral
    return result
