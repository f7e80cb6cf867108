"""The match pages served by the real bot against the fake Discord: off without
GAMENIGHT_WEB_PORT; with it, a move made by slash command wakes an open event stream, and the
page then shows it."""

from __future__ import annotations

import asyncio

import aiohttp

from tests.e2e_helpers import board_message, fake_world, mentioned_ids, running_bot


async def next_version(stream: aiohttp.ClientResponse) -> int:
    while True:
        line = (await stream.content.readline()).decode().strip()
        if line.startswith("data: "):
            return int(line.removeprefix("data: "))


async def test_no_web_pages_without_the_setting(tmp_path):
    async with fake_world("reversi", ("alice", "bob")) as (fake, guild, channel, users):
        async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
            assert bot.web is None and bot.settings.web_port is None


async def test_a_slash_command_move_reaches_an_open_page(tmp_path):
    async with fake_world("reversi", ("alice", "bob")) as (fake, guild, channel, users):
        alice, bob = users["alice"], users["bob"]
        async with running_bot(fake, tmp_path / "g.db", guild.id, web_port="0") as bot:
            lobby = await fake.slash(alice, channel, "reversi new")
            joined = await fake.click(bob, lobby.message, label="Join")
            black = alice if mentioned_ids(board_message(joined).content)[0] == alice.id else bob
            match = await bot.service.current(channel.id)
            link = await bot.web.live_link(match.id)
            assert link.startswith("http://127.0.0.1:8080/m/")
            assert len(link.removeprefix("http://127.0.0.1:8080/m/")) >= 22  # the token alone
            base = f"http://127.0.0.1:{bot.web.port}"
            path = link.removeprefix("http://127.0.0.1:8080")
            async with aiohttp.ClientSession() as http:
                async with http.get(base + path + "/events") as stream:
                    first = await asyncio.wait_for(next_version(stream), 10)
                    assert first == match.row.version
                    await fake.slash(black, channel, "reversi move", square="d3")
                    moved = await asyncio.wait_for(next_version(stream), 10)
                    assert moved > first
                async with http.get(base + path + "/live") as part:
                    html = await part.text()
                    assert f'data-version="{moved}"' in html and "played d3" in html
