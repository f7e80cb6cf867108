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


def link_button(message, label: str) -> str | None:
    """The address of the message's link button labelled `label` (style 5), if it has one."""
    found = message.find_component(label=label)
    return None if found is None else (found["style"] == 5 and found["url"])


async def test_boards_link_their_page_and_a_finished_one_its_replay(tmp_path):
    async with fake_world("reversi", ("alice", "bob")) as (fake, guild, channel, users):
        alice, bob = users["alice"], users["bob"]
        async with running_bot(fake, tmp_path / "g.db", guild.id, web_port="0") as bot:
            lobby = await fake.slash(alice, channel, "reversi new")
            board = board_message(await fake.click(bob, lobby.message, label="Join"))
            match = await bot.service.current(channel.id)
            live = link_button(board, "Watch live")
            assert live == await bot.web.live_link(match.id)
            shown = board_message(await fake.slash(alice, channel, "match status"))
            assert link_button(shown, "Watch live") == live

            final = board_message(await fake.slash(bob, channel, "match resign"))
            replay = link_button(final, "Replay")
            assert replay == await bot.web.replay_link(match.id)
            assert final.find_component(label="Rematch") is not None  # the game's button first
            base = f"http://127.0.0.1:{bot.web.port}"
            async with aiohttp.ClientSession() as http:
                async with http.get(base + replay.removeprefix("http://127.0.0.1:8080")) as page:
                    assert page.status == 200 and 'type="range"' in await page.text()

            # A new match in the channel takes the Rematch button off; the replay link stays.
            await fake.slash(alice, channel, "reversi new")
            final = next(m for m in fake.messages(channel) if m.id == final.id)
            assert final.find_component(label="Rematch") is None
            assert link_button(final, "Replay") == replay

            asked = await fake.slash(alice, channel, "match replay", id=match.id)
            assert link_button(asked.all_messages[-1], "Replay") == replay


async def test_no_link_buttons_without_the_pages(tmp_path):
    async with fake_world("reversi", ("alice", "bob")) as (fake, guild, channel, users):
        async with running_bot(fake, tmp_path / "g.db", guild.id):
            lobby = await fake.slash(users["alice"], channel, "reversi new")
            board = board_message(await fake.click(users["bob"], lobby.message, label="Join"))
            assert not [b for b in board.buttons if b.get("style") == 5]


async def test_a_players_dm_links_the_page_with_their_own_rack(tmp_path):
    async with fake_world("words", ("alice", "bob")) as (fake, guild, channel, users):
        alice, bob = users["alice"], users["bob"]
        async with running_bot(fake, tmp_path / "g.db", guild.id, web_port="0") as bot:
            lobby = await fake.slash(alice, channel, "scrabble new", players=2)
            await fake.click(bob, lobby.message, label="Join")
            match = await bot.service.current(channel.id)
            base = f"http://127.0.0.1:{bot.web.port}"
            links = {}
            for user in (alice, bob):
                dm = fake.dm_messages(user)[-1]
                links[user.id] = link_button(dm, "Watch live")
                assert links[user.id] and str(user.id) not in links[user.id]
            assert links[alice.id] != links[bob.id]
            async with aiohttp.ClientSession() as http:
                for user in (alice, bob):
                    path = links[user.id].removeprefix("http://127.0.0.1:8080")
                    async with http.get(base + path) as page:
                        html = await page.text()
                        mine = html[html.index('class="mine"'):html.index("</section>")]
                        assert f"Your seat: {user.name}" in mine
                        rack = match.state.racks[match.seat_of(user.id)]
                        assert f"Your rack: {' '.join(rack)}" in mine
