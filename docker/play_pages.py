"""The container image played with the match pages on: the fake Discord (tests/fakediscord) runs
in this process, the image in a container on the host's network pointed at it; a Reversi match
is opened and played by slash commands and the Join button, then its live page, served by the
container, is opened in headless Chromium. Run from the repository root, after
`docker build -t gamenight .`:

    python docker/play_pages.py [--image gamenight] [--moves 6]

It checks that the board's "Watch live" link serves the live page with the board picture drawn
and every move in the list, that a move made while the page is open shows on it without a
reload, and that `docker inspect` reports the container healthy (the image's HEALTHCHECK, first
run 30 s after the start). It prints how long after `docker run` the pages' port first answered,
the first slash command was answered, the live page was shown and the container was healthy;
exits 1 when a check fails, printing the container's log. Needs Docker, the test extra
(Playwright, aiohttp) and Debian's chromium (README, "Tests").
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import socket
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import aiohttp

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from games.replay import first_state  # noqa: E402
from bot.matches.engines import engine_for  # noqa: E402
from tests.fakediscord import FakeDiscord  # noqa: E402

WAIT = 60.0  # seconds for one answer, page or state before the play fails
HEALTHY_WAIT = 150.0  # the HEALTHCHECK's first run is 30 s after the start


class PlayFailed(Exception):
    """A check failed; the message says which."""


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def docker(*args: str) -> str:
    return subprocess.run(["docker", *args], check=True, capture_output=True,
                          text=True).stdout.strip()


async def until(what: str, check: Any, wait: float = WAIT, every: float = 0.05) -> Any:
    """`check()`'s first true result (awaited if it is a coroutine function), polled."""
    deadline = time.monotonic() + wait
    while time.monotonic() < deadline:
        found = check()
        if asyncio.iscoroutine(found):
            found = await found
        if found:
            return found
        await asyncio.sleep(every)
    raise PlayFailed(f"no {what} within {wait:.0f} s")


def link(message: Any, label: str) -> str | None:
    found = message.find_component(label=label)
    return found["url"] if found is not None and found.get("style") == 5 else None


def latest_board(fake: FakeDiscord, channel: Any, after: int) -> Any:
    """The newest public board in the channel posted or edited after message id `after`: a
    picture with a "Watch live" link."""
    for message in reversed(fake.messages(channel)):
        if message.id > after and message.attachments and link(message, "Watch live"):
            return message
    return None


async def command(fake: FakeDiscord, user: Any, channel: Any, name: str, **options: Any) -> Any:
    """A slash command, sent again until the bot answers it (it may still be connecting or
    syncing its commands)."""
    async def answered() -> Any:
        with contextlib.suppress(LookupError, RuntimeError):  # commands not synced yet
            sent = await fake.slash_nowait(user, channel, name, **options)
            with contextlib.suppress(asyncio.TimeoutError):
                await asyncio.wait_for(sent.answered.wait(), 5)
                return sent
        return None
    return await until(f"answer to /{name}", answered, every=0.5)


async def click(fake: FakeDiscord, user: Any, message: Any, label: str) -> None:
    button = message.find_component(label=label)
    if button is None:
        raise PlayFailed(f"no {label} button on {message.text()!r}")
    sent = await fake.dispatch_raw(3, user, message.channel,
                                   {"custom_id": button["custom_id"], "component_type": 2},
                                   message=message)
    await asyncio.wait_for(sent.answered.wait(), WAIT)


class Reversi:
    """The match as the bot plays it, followed here to choose each legal move."""

    def __init__(self) -> None:
        self.engine = engine_for("reversi")
        self.state = first_state(self.engine, 2, 0, None)

    def next_square(self) -> str:
        seat = self.engine.current_seat(self.state)
        move = self.engine.legal_moves(self.state, seat)[0]
        self.state = self.engine.apply(self.state, seat, move)
        return str(move)


async def move(fake: FakeDiscord, channel: Any, users: dict[int, Any], board: Any,
               game: Reversi) -> tuple[str, Any]:
    """The player the board names makes the next legal move by /reversi move; the new board."""
    player = users[board.mentions()[0]]
    square = game.next_square()
    sent = await command(fake, player, channel, "reversi move", square=square)
    answers = lambda: [m for m in (sent.original, *sent.followups)  # noqa: E731
                       if m is not None and not m.loading and (m.attachments or m.ephemeral)]
    newer = await until(f"board after {square}", answers)
    if newer[0].ephemeral:
        raise PlayFailed(f"{square} was refused: {newer[0].text()!r}")
    return square, newer[0]


async def page_answers(http: aiohttp.ClientSession, base: str) -> bool:
    with contextlib.suppress(aiohttp.ClientError):
        async with http.get(base + "/") as answer:
            return answer.status > 0
    return False


async def play(image: str, moves: int) -> dict[str, float]:
    from playwright.async_api import async_playwright, expect

    from tests.browser.harness import CHROMIUM

    times: dict[str, float] = {}
    fake = FakeDiscord()
    await fake.start()
    guild = fake.add_guild("Game Night Club")
    channel = fake.add_channel(guild, "reversi")
    alice, bob = fake.add_user("alice"), fake.add_user("bob")
    for user in (alice, bob):
        fake.add_member(guild, user)
    users = {alice.id: alice, bob.id: bob}
    web_port, metrics_port = free_port(), free_port()
    base = f"http://127.0.0.1:{web_port}"
    settings = {
        "DISCORD_TOKEN": fake.token, "DISCORD_API_BASE": fake.api_base,
        "GAMENIGHT_GUILD": str(guild.id), "GAMENIGHT_METRICS_PORT": str(metrics_port),
        "GAMENIGHT_WEB_PORT": str(web_port), "GAMENIGHT_WEB_HOST": "0.0.0.0",
        "GAMENIGHT_PUBLIC_URL": base, "GAMENIGHT_COMPUTER_WORKERS": "1",
    }
    env = [arg for name, value in settings.items() for arg in ("-e", f"{name}={value}")]
    started = time.monotonic()
    container = docker("run", "-d", "--network", "host", *env, image)

    def since() -> float:
        return round(time.monotonic() - started, 2)

    try:
        async with aiohttp.ClientSession() as http:
            await until("answer on the pages' port", lambda: page_answers(http, base))
            times["pages' port answers"] = since()
            lobby = await command(fake, alice, channel, "reversi new")
            times["first slash command answered"] = since()
            await click(fake, bob, lobby.original, "Join")
            board = await until("first board", lambda: latest_board(fake, channel, 0))
            live = link(board, "Watch live")
            if not live or not live.startswith(f"{base}/m/"):
                raise PlayFailed(f"the board's Watch live link is {live!r}")
            game, played = Reversi(), []
            for _ in range(moves):
                square, board = await move(fake, channel, users, board, game)
                played.append(square)
            async with async_playwright() as playwright:
                browser = await playwright.chromium.launch(executable_path=CHROMIUM,
                                                           args=["--no-sandbox"])
                page = await browser.new_page()
                answer = await page.goto(live)
                if answer is None or answer.status != 200:
                    raise PlayFailed(f"the live page answered {answer and answer.status}")
                picture = page.locator(".board img")
                await expect(picture).to_have_count(1)
                await page.wait_for_function(
                    "() => { const i = document.querySelector('.board img');"
                    " return i && i.complete && i.naturalWidth > 0; }")
                times["live page shown"] = since()
                listed = page.locator(".moves li")
                await expect(listed).to_have_count(moves)
                for n, square in enumerate(played):
                    await expect(listed.nth(n)).to_contain_text(f"played {square}")
                square, board = await move(fake, channel, users, board, game)
                await expect(listed).to_have_count(moves + 1, timeout=WAIT * 1000)
                await expect(listed.nth(moves)).to_contain_text(f"played {square}")
                await browser.close()
            await until("healthy container", lambda: health(container) == "healthy",
                        wait=HEALTHY_WAIT, every=1)
            times["healthy"] = since()
        docker("stop", container)
        code = docker("inspect", "-f", "{{.State.ExitCode}}", container)
        if code != "0":
            raise PlayFailed(f"the bot exited with {code} on docker stop")
    except BaseException:
        print(subprocess.run(["docker", "logs", "--tail", "60", container], text=True,
                             capture_output=True).stderr, file=sys.stderr)
        raise
    finally:
        subprocess.run(["docker", "rm", "-f", "-v", container], capture_output=True)
        await fake.stop()
    return times


def health(container: str) -> str:
    status = docker("inspect", "-f", "{{.State.Health.Status}}", container)
    if status == "unhealthy":
        raise PlayFailed("the container is unhealthy")
    return status


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--image", default="gamenight")
    parser.add_argument("--moves", type=int, default=6, help="moves before the page is opened")
    options = parser.parse_args()
    os.chdir(ROOT)
    try:
        times = asyncio.run(play(options.image, options.moves))
    except PlayFailed as failed:
        sys.exit(f"FAILED: {failed}")
    for what, seconds in times.items():
        print(f"{what}: {seconds:.2f} s after docker run")
    print(f"ok: {options.moves + 1} moves by slash command, each on the live page; healthy")


if __name__ == "__main__":
    main()
