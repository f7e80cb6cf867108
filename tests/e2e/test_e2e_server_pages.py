"""A server's pages through the real bot and the fake Discord: `/gamenight settings
web_pages:on` (Manage Server) answers only the asker with the server page's link; the page lists
the channel's match and a move wakes its event stream; `web_pages:off` takes the server page
and the match's page away at once."""

from __future__ import annotations

import asyncio
import re

import aiohttp

from tests.e2e_helpers import board_message, fake_world, mentioned_ids, running_bot
from tests.fakediscord import Perm

PUBLIC = "http://127.0.0.1:8080"  # the tests' GAMENIGHT_PUBLIC_URL


async def next_stamp(stream: aiohttp.ClientResponse) -> str:
    while True:
        line = (await stream.content.readline()).decode().strip()
        if line.startswith("data: "):
            return line.removeprefix("data: ")


async def test_the_settings_give_the_server_page_and_take_it_away(tmp_path):
    async with fake_world("reversi", ("alice", "bob")) as (fake, guild, channel, users):
        alice, bob = users["alice"], users["bob"]
        admin = fake.add_user("owner")
        fake.add_member(guild, admin, permissions=Perm.MANAGE_GUILD)
        async with running_bot(fake, tmp_path / "g.db", guild.id, web_port="0") as bot:
            shown = await fake.slash(alice, channel, "gamenight settings")
            assert shown.ephemeral and "this server has none of its own" in shown.content
            refused = await fake.slash(alice, channel, "gamenight settings", web_pages="on")
            assert (await bot.store.guild_settings(guild.id)).web_pages is None
            assert "Manage Server" in refused.content

            lobby = await fake.slash(alice, channel, "reversi new")
            joined = await fake.click(bob, lobby.message, label="Join")
            black = alice if mentioned_ids(board_message(joined).content)[0] == alice.id else bob

            saved = await fake.slash(admin, channel, "gamenight settings", web_pages="on")
            assert saved.ephemeral and "Web pages are **on**" in saved.content
            link = re.search(rf"<({re.escape(PUBLIC)}/s/[A-Za-z0-9_-]+)>", saved.content)[1]
            assert len(link.rsplit("/", 1)[1]) >= 22
            base = f"http://127.0.0.1:{bot.web.port}"
            path = link.removeprefix(PUBLIC)
            match = await bot.service.current(channel.id)
            live = (await bot.web.live_link(match.id)).removeprefix(PUBLIC)
            async with aiohttp.ClientSession() as http:
                async with http.get(base + path + "?lang=en") as page:
                    html = await page.text()
                    assert page.status == 200 and "Games on Game Night Club" in html
                    assert f"..{live}?lang=en" in html
                    assert str(alice.id) not in html and str(bob.id) not in html
                async with http.get(base + path + "/events") as stream:
                    first = await asyncio.wait_for(next_stamp(stream), 10)
                    await fake.slash(black, channel, "reversi move", square="d3")
                    assert await asyncio.wait_for(next_stamp(stream), 10) != first

                off = await fake.slash(admin, channel, "gamenight settings", web_pages="off")
                assert off.ephemeral and "Web pages are **off**" in off.content
                for gone in (path, live, live + "/live"):
                    async with http.get(base + gone) as answer:
                        assert answer.status == 404, gone

                again = await fake.slash(admin, channel, "gamenight settings", web_pages="on")
                new = re.search(rf"<({re.escape(PUBLIC)}/s/[A-Za-z0-9_-]+)>", again.content)[1]
                assert new != link  # a new token: the old link stays dead
                async with http.get(base + path) as answer:
                    assert answer.status == 404
                async with http.get(base + new.removeprefix(PUBLIC)) as answer:
                    assert answer.status == 200
