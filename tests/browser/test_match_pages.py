"""The match pages of the real bot (GAMENIGHT_WEB_PORT) against the fake Discord, in Chromium:

- a move made by slash command shows on an open live page without a reload (a new picture,
  one more move in the list), and still does after the bot restarts on the same database: the
  page's EventSource reconnects by itself and catches up;
- for each game: the live page mid-game and the finished match's replay pass axe (no serious
  or critical violation) light and dark, at a phone's width and a desktop's, with no console
  error; the replay steps with the slider, the step links and the arrow keys, the address
  following; the keyboard reaches the step controls and the slider, with a visible focus.

Not marked e2e: the suites re-run on PostgreSQL and in the pseudo-locale (tests/project) are
about what reaches Discord, and each browser test costs seconds.
"""

from __future__ import annotations

import re
import socket
from typing import Any

import pytest

from tests.browser.harness import DESKTOP, PHONE, axe_violations, describe, record_errors
from tests.browser.matches import (
    GAMES, PLAYERS, choose, finish, local, open_match, play, playwright_is_not_the_bot,
)
from tests.e2e_helpers import fake_world, running_bot

LOOKS = [(scheme, size) for scheme in ("light", "dark") for size in (PHONE, DESKTOP)]


def free_port() -> int:
    """A port free now, for a bot that must come back on the same one."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


async def slash_move(fake: Any, bot: Any, channel: Any, users: dict[str, Any]) -> str:
    """The Reversi player to move plays a legal square by slash command; the square."""
    import random

    match = await bot.service.current(channel.id)
    seat = match.current_seat()
    square = choose(match, seat, random.Random(match.row.version))
    user = next(u for u in users.values() if u.id == match.player(seat).user_id)
    await fake.slash(user, channel, "reversi move", square=square)
    return square


async def test_a_slash_command_move_shows_on_the_open_page_and_after_a_restart(page, tmp_path):
    from playwright.async_api import expect

    port = str(free_port())
    errors = record_errors(page)
    board, moves = page.locator(".board img"), page.locator(".moves li")
    async with fake_world("reversi", PLAYERS) as (fake, guild, channel, users):
        playwright_is_not_the_bot(fake)
        async with running_bot(fake, tmp_path / "g.db", guild.id, web_port=port) as bot:
            opened = await open_match(fake, bot, channel, users, "reversi")
            await page.goto(opened.live)
            await page.evaluate("() => { window.notReloaded = true; }")
            first_picture = await board.get_attribute("src")
            await expect(moves).to_have_count(0)

            square = await slash_move(fake, bot, channel, users)

            await expect(moves).to_have_count(1)
            await expect(moves.first).to_contain_text(f"played {square}")
            await expect(board).not_to_have_attribute("src", first_picture)
            version = (await bot.service.current(channel.id)).row.version
            assert f"v={version}&" in await board.get_attribute("src")
            assert not errors, errors

        # The bot is down (the page's stream closed); it comes back on the same database.
        async with running_bot(fake, tmp_path / "g.db", guild.id, web_port=port) as bot:
            square = await slash_move(fake, bot, channel, users)

            await expect(moves).to_have_count(2)
            await expect(moves.nth(1)).to_contain_text(f"played {square}")
            version = (await bot.service.current(channel.id)).row.version
            await expect(board).to_have_attribute("src", re.compile(rf"v={version}&"))
            assert await page.evaluate("() => window.notReloaded === true")


async def no_serious_violations(page: Any, url: str) -> None:
    """axe finds nothing serious on `url` in any of the LOOKS."""
    found = []
    for scheme, size in LOOKS:
        await page.emulate_media(color_scheme=scheme)
        await page.set_viewport_size(size)
        await page.goto(url)
        await page.wait_for_function(
            "() => [...document.images].every(i => i.complete && i.naturalWidth > 0)")
        found += [f"{scheme} {size['width']} px: {describe([v])}"
                  for v in await axe_violations(page)]
    assert not found, "\n".join(found)


async def steps_through(page: Any, url: str, total: int) -> None:
    """The replay's controls move through the match and the address follows."""
    from playwright.async_api import expect

    ply, shown = page.locator("#ply"), page.locator("#ply-number")
    current = page.locator(".moves li.current")

    async def at(n: int) -> None:
        await expect(page).to_have_url(re.compile(rf"[?&]ply={n}(&|$)"))
        await expect(shown).to_have_text(f"{n} / {total}")
        await expect(ply).to_have_value(str(n))
        await expect(page.locator(".board img")).to_have_attribute(
            "src", re.compile(rf"ply={n}&"))
        if n:
            await expect(current).to_have_count(1)
            assert await page.locator(".moves li").nth(n - 1).get_attribute("class") == "current"
        else:
            await expect(current).to_have_count(0)

    await page.goto(url)
    await expect(shown).to_have_text(f"{total} / {total}")  # the end, unless asked
    await page.locator("main").click(position={"x": 1, "y": 1})  # keys to the page, not a link
    await page.keyboard.press("ArrowLeft")
    await at(total - 1)
    await page.keyboard.press("Home")
    await at(0)
    await page.keyboard.press("ArrowRight")
    await at(1)
    await page.locator("#forward").click()
    await at(2)
    await page.locator("#back").click()
    await at(1)
    await page.locator("#last").click()
    await at(total)
    await page.locator("#first").click()
    await at(0)
    await ply.fill("3")
    await at(3)
    await ply.focus()
    await page.keyboard.press("ArrowRight")  # the slider's own keys
    await at(4)

    # Its address opens the same position.
    await page.reload()
    await at(4)


async def keyboard_reaches_the_controls(page: Any) -> None:
    """Tab alone reaches every step control and the slider, each showing its focus."""
    wanted = {"first", "back", "ply", "forward", "last"}
    reached = set()
    await page.locator("h1").click()
    for _ in range(20):
        await page.keyboard.press("Tab")
        focused = await page.evaluate("""() => { const el = document.activeElement;
            const style = getComputedStyle(el);
            return [el.id, el.matches(':focus-visible'), style.outlineStyle, style.outlineWidth]; }""")
        name, visible, outline, width = focused
        if name in wanted:
            assert visible and outline != "none" and width != "0px", focused
            reached.add(name)
        if reached == wanted:
            return
    raise AssertionError(f"Tab did not reach {sorted(wanted - reached)}")


@pytest.mark.parametrize("game", GAMES)
async def test_each_game_live_and_replayed(game, page, tmp_path):
    errors = record_errors(page)
    async with fake_world(game, PLAYERS) as (fake, guild, channel, users):
        playwright_is_not_the_bot(fake)
        async with running_bot(fake, tmp_path / "g.db", guild.id, web_port="0") as bot:
            opened = await open_match(fake, bot, channel, users, game)
            assert await play(bot, channel, 5) == 5
            await no_serious_violations(page, opened.live)

            total = await finish(fake, bot, channel, users)
            assert total >= 6
            await steps_through(page, opened.replay, total)
            await keyboard_reaches_the_controls(page)
            await no_serious_violations(page, opened.replay + "?ply=2")
    assert not errors, errors


async def test_the_language_switch_is_drawn_in_the_pages_own_fonts(page, tmp_path):
    """Chromium here has no Chinese or Gujarati font: the names in the switch come from the
    pages' static fonts (an image of boxes otherwise), and a Chinese page's words too."""
    async with fake_world("reversi", PLAYERS) as (fake, guild, channel, users):
        playwright_is_not_the_bot(fake)
        async with running_bot(fake, tmp_path / "g.db", guild.id, web_port="0") as bot:
            opened = await open_match(fake, bot, channel, users, "reversi")
            await page.goto(opened.live + "?lang=zh-TW")
            await page.evaluate("() => document.fonts.ready")
            loaded = await page.evaluate("""() => [...document.fonts]
                .filter(f => f.status === 'loaded').map(f => f.family.replaceAll('"', ''))""")
            # Both faces of the switch's names (Chinese, Gujarati), and the Chinese words'.
            assert sorted(loaded) == ["Gamenight CJK", "Gamenight Languages",
                                      "Gamenight Languages"], loaded


async def test_turning_the_pages_off_takes_the_open_pages_away(page, browser, tmp_path):
    """A live page and the server's page are open when someone with Manage Server turns the
    pages off: their streams end, and each page shows it is gone, with no reload by hand."""
    from playwright.async_api import expect

    from tests.fakediscord import Perm

    errors = record_errors(page)
    server_page = await browser.new_page()
    async with fake_world("reversi", PLAYERS) as (fake, guild, channel, users):
        playwright_is_not_the_bot(fake)
        admin = fake.add_user("owner")
        fake.add_member(guild, admin, permissions=Perm.MANAGE_GUILD)
        async with running_bot(fake, tmp_path / "g.db", guild.id, web_port="0") as bot:
            opened = await open_match(fake, bot, channel, users, "reversi")
            on = await fake.slash(admin, channel, "gamenight settings", web_pages="on")
            link = re.search(r"<(https?://[^>]+/s/[A-Za-z0-9_-]+)>", on.content)[1]
            await page.goto(opened.live)
            await server_page.goto(local(bot, link))
            await expect(page.locator(".board img")).to_have_count(1)
            await expect(server_page.locator(".server-part")).to_have_count(1)

            await fake.slash(admin, channel, "gamenight settings", web_pages="off")

            for each, gone in ((page, "No match here"), (server_page, "No page here")):
                await expect(each.locator("h1")).to_have_text(gone)
                await expect(each.locator(".board img, .server-part")).to_have_count(0)
    await server_page.close()
    # the refused reconnections (404) are the browser's own console lines, not the page's
    assert all("404" in error for error in errors), errors
