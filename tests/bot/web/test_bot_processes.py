"""Two real bot processes (`python -m bot`, one Discord shard each) on one PostgreSQL database,
each serving the pages: a move made by slash command in the process whose shard has the
server reaches a viewer of the other process's page (LISTEN/NOTIFY), its live part shows it,
and turning the server's pages off there ends the other's open stream and takes its pages
away."""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import aiohttp

from tests.bot.web.test_processes import next_version
from tests.fakediscord import FakeDiscord, Perm

ROOT = Path(__file__).resolve().parents[3]
WAIT = 60.0  # seconds for a process to answer (it starts, connects and syncs its commands)


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


@contextlib.contextmanager
def bot_processes(fake: FakeDiscord, location: str, guild_id: int, logs: Path
                  ) -> Iterator[list[str]]:
    """Two bot processes, shards 0 and 1 of 2; the base address of each one's pages."""
    bases, processes = [], []
    try:
        for shard in (0, 1):
            port = free_port()
            bases.append(f"http://127.0.0.1:{port}")
            env = {**os.environ, "DISCORD_TOKEN": fake.token, "DISCORD_API_BASE": fake.api_base,
                   "GAMENIGHT_DB": location, "GAMENIGHT_GUILD": str(guild_id),
                   "GAMENIGHT_SHARDS": "2", "GAMENIGHT_SHARD_IDS": str(shard),
                   "GAMENIGHT_WEB_PORT": str(port), "GAMENIGHT_PUBLIC_URL": bases[-1],
                   "GAMENIGHT_COMPUTER_WORKERS": "1", "GAMENIGHT_RENDER_WORKERS": "0"}
            with open(logs / f"bot{shard}.log", "w") as log:
                processes.append(subprocess.Popen([sys.executable, "-m", "bot"], cwd=ROOT,
                                                  env=env, stdout=log, stderr=subprocess.STDOUT))
        yield bases
    finally:
        for process in processes:
            process.send_signal(signal.SIGINT)
        for process in processes:
            try:
                process.wait(20)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


async def until(what: str, check: Any, wait: float = WAIT) -> Any:
    """`check()`'s first true result, polled (the bots are other processes)."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        found = await check()
        if found:
            return found
        await asyncio.sleep(0.1)
    raise AssertionError(f"no {what} within {wait:.0f} s")


async def command(fake: FakeDiscord, user: Any, channel: Any, name: str, **options: Any) -> Any:
    """A slash command, sent again until a bot answers it (it may still be syncing)."""
    async def answered() -> Any:
        with contextlib.suppress(LookupError, RuntimeError):  # commands not synced yet
            sent = await fake.slash_nowait(user, channel, name, **options)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(sent.answered.wait(), 5)
                return sent
        return None
    return await until(f"answer to /{name}", answered)


async def settled(sent: Any) -> Any:
    """The interaction's first finished message (not "thinking")."""
    async def done() -> Any:
        for message in (sent.original, *sent.followups):
            if message is not None and not message.loading:
                return message
        return None
    return await until("a finished answer", done)


async def first_board(fake: FakeDiscord, channel: Any) -> Any:
    """The channel's board: a public picture with a "Watch live" link."""
    for message in fake.messages(channel):
        if message.attachments and message.find_component(label="Watch live") is not None:
            return message
    return None


def guild_on_shard(fake: FakeDiscord, shard: int) -> Any:
    """A new server whose shard, of two, is `shard` ((id >> 22) % 2)."""
    while True:
        guild = fake.add_guild("Game Night Club")
        if (guild.id >> 22) % 2 == shard:
            return guild
        fake._last_id += 1 << 22  # the next id on the other shard


async def test_a_move_in_one_bot_process_reaches_the_pages_of_the_other(pg_location, tmp_path):
    from tests.e2e_helpers import mentioned_ids

    fake = FakeDiscord()
    await fake.start()
    guild = guild_on_shard(fake, 0)
    channel = fake.add_channel(guild, "reversi")
    alice, bob, admin = fake.add_user("alice"), fake.add_user("bob"), fake.add_user("owner")
    for user in (alice, bob):
        fake.add_member(guild, user)
    fake.add_member(guild, admin, permissions=Perm.MANAGE_GUILD)
    try:
        with bot_processes(fake, pg_location, guild.id, tmp_path) as (near, far):
            lobby = await settled(await command(fake, alice, channel, "reversi new"))
            join = lobby.find_component(label="Join")
            joined = await fake.dispatch_raw(3, bob, channel, {"custom_id": join["custom_id"],
                                                               "component_type": 2},
                                             message=lobby)
            await asyncio.wait_for(joined.answered.wait(), WAIT)
            board = await until("the first board", lambda: first_board(fake, channel))
            black = alice if mentioned_ids(board.text())[0] == alice.id else bob
            live = board.find_component(label="Watch live")["url"]
            assert live.startswith(near + "/m/")
            path = live.removeprefix(near)

            async with aiohttp.ClientSession() as http:
                async with http.get(far + path + "/events") as stream:
                    first = await asyncio.wait_for(next_version(stream), WAIT)
                    moved = await settled(await command(fake, black, channel, "reversi move",
                                                        square="d3"))
                    assert moved.attachments and not moved.ephemeral, moved.text()
                    assert await asyncio.wait_for(next_version(stream), WAIT) > first
                    async with http.get(far + path + "/live?lang=en") as part:
                        assert part.status == 200 and "played d3" in await part.text()

                    off = await settled(await command(fake, admin, channel,
                                                      "gamenight settings", web_pages="off"))
                    assert "Web pages are **off**" in off.text()
                    rest = await asyncio.wait_for(stream.content.read(), WAIT)  # it ended
                    assert b"event: version" not in rest
                async with http.get(far + path + "/live") as part:
                    assert part.status == 404
    finally:
        await fake.stop()
