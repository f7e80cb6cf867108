"""A server page's token (bot/storage/server_links.py): none until the server turns its pages
on, unguessable, gone when they are turned off, a new one when they are turned on again."""

from __future__ import annotations

from dataclasses import replace

from bot.storage.links import TOKEN_BYTES
from bot.storage.rows import GuildSettings

GUILD = 7


async def test_a_server_has_no_page_until_it_turns_its_pages_on(store):
    assert (await store.guild_settings(GUILD)).web_pages is None
    assert await store.server_token(GUILD) is None
    await store.set_guild_settings(GUILD, GuildSettings(language="gu"))
    assert await store.server_token(GUILD) is None
    await store.set_guild_settings(GUILD, GuildSettings(language="gu", web_pages=True))
    token = await store.server_token(GUILD)
    assert token is not None and len(token) >= 22 and TOKEN_BYTES * 8 >= 128
    assert await store.server_token(GUILD) == token  # made once
    assert await store.server_of_token(token) == GUILD
    assert await store.server_of_token(token[:-1] + ("A" if token[-1] != "A" else "B")) is None
    assert (await store.guild_settings(GUILD)).web_pages is True


async def test_turning_the_pages_off_drops_the_token_and_on_again_makes_a_new_one(store):
    settings = GuildSettings(turn_time="1h", web_pages=True)
    await store.set_guild_settings(GUILD, settings)
    old = await store.server_token(GUILD)
    await store.set_guild_settings(GUILD, replace(settings, web_pages=False))
    assert await store.server_of_token(old) is None
    assert await store.server_token(GUILD) is None
    assert (await store.guild_settings(GUILD)).web_pages is False
    await store.set_guild_settings(GUILD, settings)
    new = await store.server_token(GUILD)
    assert new != old and await store.server_of_token(old) is None
    assert await store.server_of_token(new) == GUILD


async def test_another_servers_token_is_its_own(store):
    for guild in (1, 2):
        await store.set_guild_settings(guild, GuildSettings(web_pages=True))
    one, two = await store.server_token(1), await store.server_token(2)
    assert one != two
    assert (await store.server_of_token(one), await store.server_of_token(two)) == (1, 2)
