"""Screenshots of the live match pages for the README: a match of each game mid-game, played
through the real bot and the fake Discord, photographed in headless Chromium at a phone's width
(390 px) and a desktop's.

    python -m docs.tools.web_screenshots [--out docs/web] [--scheme light|dark] [--lang en]

writes OUT/GAME-phone.png and OUT/GAME-desktop.png for the four games. It needs what the browser
tests need (Debian's chromium, the test extra's Playwright: README, "Tests").
"""

from __future__ import annotations

import argparse
import asyncio
import io
import tempfile
from pathlib import Path
from types import SimpleNamespace
from typing import Any

from PIL import Image

ROOT = Path(__file__).resolve().parents[2]
# Moves played before the picture: enough for a table in the middle of a game.
MOVES = {"reversi": 14, "scrabble": 6, "patchwork": 10, "doudizhu": 9}
SEED = 20240611


async def live_pages(scheme: str, lang: str, out: Path) -> list[Path]:
    """Play the four matches and photograph each live page; the files written."""
    from playwright.async_api import async_playwright

    import bot.matches.lobbies
    from tests.browser.harness import CHROMIUM, DESKTOP, PHONE
    from tests.browser.matches import GAMES, PLAYERS, open_match, play, playwright_is_not_the_bot
    from tests.e2e_helpers import fake_world, running_bot

    # Every match dealt from the same seed: the same pictures on every run.
    bot.matches.lobbies.secrets = SimpleNamespace(randbits=lambda bits: SEED)  # type: ignore[attr-defined]
    written = []
    with tempfile.TemporaryDirectory() as folder:
        async with fake_world(GAMES[0], PLAYERS) as (fake, guild, first, users):
            playwright_is_not_the_bot(fake)
            channels = {game: first if game == GAMES[0] else fake.add_channel(guild, game)
                        for game in GAMES}
            async with running_bot(fake, Path(folder) / "g.db", guild.id, web_port="0") as bot, \
                    async_playwright() as playwright:
                browser = await playwright.chromium.launch(
                    executable_path=CHROMIUM, args=["--no-sandbox", "--force-color-profile=srgb",
                                                    "--hide-scrollbars"])
                for game in GAMES:
                    opened = await open_match(fake, bot, channels[game], users, game)
                    await play(bot, channels[game], MOVES[game], seed=SEED)
                    for size, viewport in (("phone", PHONE), ("desktop", DESKTOP)):
                        path = out / f"{game}-{size}.png"
                        await photograph(browser, f"{opened.live}?lang={lang}", viewport,
                                         scheme, path)
                        written.append(path)
                await browser.close()
    return written


async def photograph(browser: Any, url: str, viewport: dict[str, int], scheme: str,
                     path: Path) -> None:
    context = await browser.new_context(viewport=viewport, color_scheme=scheme,
                                        device_scale_factor=1)
    page = await context.new_page()
    await page.goto(url)
    # The board drawn and the fonts loaded (not "network idle": the event stream stays open).
    await page.wait_for_function(
        "() => [...document.images].every(i => i.complete && i.naturalWidth > 0)")
    await page.evaluate("() => document.fonts.ready.then(() => true)")
    shot = await page.screenshot(full_page=True)
    await context.close()
    path.parent.mkdir(parents=True, exist_ok=True)
    small(shot).save(path, optimize=True)


def small(png: bytes) -> Image.Image:
    """The screenshot in 256 colours: a page of flat colours and one board loses nothing
    visible, and the file is a third of the size."""
    image = Image.open(io.BytesIO(png)).convert("RGB")
    return image.quantize(colors=256, method=Image.Quantize.MEDIANCUT, dither=Image.Dither.NONE)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "web")
    parser.add_argument("--scheme", choices=("light", "dark"), default="light")
    parser.add_argument("--lang", default="en", help="en, gu, zh_CN or zh_TW")
    options = parser.parse_args()
    for path in asyncio.run(live_pages(options.scheme, options.lang, options.out)):
        print(f"{path}  {path.stat().st_size // 1024} KiB")


if __name__ == "__main__":
    main()
