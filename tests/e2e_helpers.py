"""Helpers for end-to-end tests: the real Gamenight bot against the fake Discord."""

from __future__ import annotations

import asyncio
import io
from collections.abc import Iterable
from concurrent.futures import Executor, Future
from contextlib import asynccontextmanager
from pathlib import Path

from PIL import Image

from bot.app.client import GamenightBot
from bot.matches.deadlines import Clock
from bot.app.config import Settings
from tests import stores
from tests.fakediscord import FakeDiscord, Perm, run_bot


class InlineExecutor(Executor):
    """Runs each computer decision at once in this process: quick tests with no workers."""

    def submit(self, fn, /, *args, **kwargs) -> Future:
        future: Future = Future()
        try:
            future.set_result(fn(*args, **kwargs))
        except Exception as error:
            future.set_exception(error)
        return future


class FakeClock(Clock):
    """A clock the test moves forward (`advance`); nothing in a test waits for real time."""

    def __init__(self, start: float = 1_800_000_000.0) -> None:
        self.time = start
        self._moved = asyncio.Event()

    def now(self) -> float:
        return self.time

    async def sleep_until(self, when: float) -> None:
        while self.time < when:
            self._moved.clear()
            await self._moved.wait()  # an Event: the fake Discord counts the bot as idle

    def advance(self, seconds: float) -> None:
        self.time += seconds
        self._moved.set()


def make_bot(fake: FakeDiscord, db_path: Path, guild_id: int | None, *,
             metrics_port: str = "", computer_delay: str = "0", computer_workers: str = "1",
             computer_executor: Executor | None = None, render_workers: str = "0",
             clock: Clock | None = None, shards: str = "", shard_ids: str = "",
             backup_dir: str = "", web_port: str = "", activity: bool = False,
             reviews: str = "off") -> GamenightBot:
    """The bot as configured from the environment; `metrics_port` "0" serves metrics on any
    free port (`bot.metrics.port`). Computers act at once (no pause) unless told otherwise,
    in a process pool of `computer_workers` unless `computer_executor` is given; pictures are
    drawn in threads unless `render_workers` says how many processes; `shards` and
    `shard_ids` as GAMENIGHT_SHARDS and GAMENIGHT_SHARD_IDS; `backup_dir` as
    GAMENIGHT_BACKUP_DIR (backups every 24 hours of `clock`); `web_port` "0" serves the match
    pages on any free port (`bot.web.port`); `activity` serves the Discord Activity there too
    (DISCORD_CLIENT_SECRET: the fake's); `reviews` as GAMENIGHT_REVIEWS (off: the tests that
    finish matches judge no turn unasked)."""
    settings = Settings.from_mapping({
        "DISCORD_TOKEN": fake.token,
        "GAMENIGHT_DB": str(db_path),
        "DISCORD_API_BASE": fake.api_base,
        "GAMENIGHT_GUILD": "" if guild_id is None else str(guild_id),
        "GAMENIGHT_METRICS_PORT": metrics_port,
        "GAMENIGHT_COMPUTER_DELAY": computer_delay,
        "GAMENIGHT_COMPUTER_WORKERS": computer_workers,
        "GAMENIGHT_RENDER_WORKERS": render_workers,
        "GAMENIGHT_SHARDS": shards,
        "GAMENIGHT_SHARD_IDS": shard_ids,
        "GAMENIGHT_BACKUP_DIR": backup_dir,
        "GAMENIGHT_WEB_PORT": web_port,
        "GAMENIGHT_PUBLIC_URL": "http://127.0.0.1:8080" if web_port else "",
        "DISCORD_CLIENT_SECRET": fake.client_secret if activity else "",
        "GAMENIGHT_REVIEWS": reviews,
    })
    return GamenightBot(settings, computer_executor=computer_executor, clock=clock)


@asynccontextmanager
async def running_bot(fake: FakeDiscord, db_path: Path, guild_id: int | None, **settings):
    """The bot against `fake` while the block runs; `settings` as for `make_bot`. On
    PostgreSQL (tests/stores.py) the path names the test's schema instead of a file."""
    db_path = await stores.location(db_path)
    async with run_bot(make_bot(fake, db_path, guild_id, **settings), fake) as bot:
        yield bot


@asynccontextmanager
async def fake_world(channel_name: str, names: Iterable[str], *, dms_closed: Iterable[str] = (),
                     moderators: Iterable[str] = ()):
    """A started fake Discord with one server, one channel and the named members.

    Yields (fake, guild, channel, users by name); `moderators` get Manage Messages.
    """
    fake = FakeDiscord()
    await fake.start()
    closed, mods = set(dms_closed), set(moderators)
    try:
        guild = fake.add_guild("Game Night Club")
        channel = fake.add_channel(guild, channel_name)
        users = {name: fake.add_user(name, dms_open=name not in closed) for name in names}
        for name, user in users.items():
            fake.add_member(guild, user,
                            permissions=Perm.MANAGE_MESSAGES if name in mods else None)
        yield fake, guild, channel, users
    finally:
        await fake.stop()


def board_message(result):
    """The board post an interaction produced: a public message with an image in its embed,
    or without one when the picture is the same as the one above (it says so)."""
    for message in result.all_messages:
        if message.attachments and message.embeds and not message.ephemeral:
            return message
    for message in result.all_messages:
        if "Unchanged: the picture above shows it." in message.text() and not message.ephemeral:
            return message
    raise AssertionError(f"no board message in {result.text()!r}")


def png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(b"\x89PNG\r\n\x1a\n"), "not a PNG"
    image = Image.open(io.BytesIO(data))
    image.verify()
    return Image.open(io.BytesIO(data)).size


def mentioned_ids(text: str | None) -> list[int]:
    import re

    return [int(i) for i in re.findall(r"<@!?(\d+)>", text or "")]


def fix_match_seeds(monkeypatch, seed: int) -> None:
    """Make every new match use `seed`, so a test's deal or draw is the same on every run."""
    from types import SimpleNamespace

    import bot.matches.lobbies

    monkeypatch.setattr(bot.matches.lobbies, "secrets",
                        SimpleNamespace(randbits=lambda bits: seed))


# -- two processes, each on one of two shards ------------------------------------------------

SHARDS = 2


def shard_of(guild) -> int:
    return (guild.id >> 22) % SHARDS


def guild_on_shard(fake: FakeDiscord, name: str, shard: int):
    """A server on `shard` of two: the fake's ids are moved on to a time that lands there."""
    import time

    from tests.fakediscord.building import DISCORD_EPOCH

    step = max(fake._last_id >> 22, int(time.time() * 1000) - DISCORD_EPOCH) + 1000
    step += (shard - step) % SHARDS
    fake._last_id = (step << 22) - 1
    guild = fake.add_guild(name)
    assert shard_of(guild) == shard
    return guild


@asynccontextmanager
async def sharded_world(channels_per_server: int = 2):
    """A started fake Discord with alice and bob in two servers, one on each of two shards,
    each with `channels_per_server` channels. Yields (fake, channels by shard, users by name)."""
    fake = FakeDiscord()
    await fake.start()
    try:
        users = {name: fake.add_user(name) for name in ("alice", "bob")}
        channels = {}
        for shard in range(SHARDS):
            guild = guild_on_shard(fake, f"Club {shard}", shard)
            for user in users.values():
                fake.add_member(guild, user)
            channels[shard] = [fake.add_channel(guild, f"reversi-{shard}-{n}")
                               for n in range(channels_per_server)]
        yield fake, channels, users
    finally:
        await fake.stop()


def sharded_bot(fake: FakeDiscord, db, shard: int, clock: Clock | None = None) -> GamenightBot:
    """The bot of one of two shards, its commands synced globally (both servers see them)."""
    return make_bot(fake, db, None, computer_executor=InlineExecutor(), clock=clock,
                    shards=str(SHARDS), shard_ids=str(shard))


class ReversiLedger:
    """Reversi moves made between alice and bob through the fake Discord, with what each player
    was told: `acknowledged` (the board was posted: the move counts), `refused` (answered
    "could not be saved"). Each channel's next move is worked out while the database answers
    and tried again, unchanged, after a refusal (nothing changed)."""

    NOT_SAVED = "could not be saved"

    def __init__(self, fake: FakeDiscord, users: dict) -> None:
        self.fake = fake
        self.by_id = {user.id: user for user in users.values()}
        self.acknowledged: dict[int, list[str]] = {}
        self.tried = self.answered = self.refused = 0
        self._next: dict[int, tuple[int, str]] = {}

    async def open(self, bot: GamenightBot, channel) -> None:
        alice, bob = self.by_id.values()
        lobby = await self.fake.slash(alice, channel, "reversi new")
        joined = await self.fake.click(bob, lobby.message, label="Join")
        board_message(joined)
        self.acknowledged[channel.id] = []
        await self.plan(bot, channel)

    async def plan(self, bot: GamenightBot, channel) -> None:
        """Work out the channel's next move (reads the database)."""
        import games.reversi as reversi

        match = await bot.service.current(channel.id)
        seat = match.current_seat()
        square = str(reversi.legal_moves(match.state, seat)[0])
        self._next[channel.id] = (match.player(seat).user_id, square)

    async def move(self, bot: GamenightBot, channel):
        """Try the channel's next move; the result of the interaction."""
        user_id, square = self._next[channel.id]
        self.tried += 1
        result = await self.fake.slash(self.by_id[user_id], channel, "reversi move",
                                       square=square)
        self.answered += result.message is not None
        if result.ephemeral:
            assert self.NOT_SAVED in result.text() and "try again" in result.text(), \
                result.text()
            self.refused += 1
        else:
            board_message(result)
            self.acknowledged[channel.id].append(square)
            await self.plan(bot, channel)  # while the database answers
        return result

    async def lost(self, store) -> list[str]:
        """Acknowledged moves the database does not hold, in every channel played."""
        missing = []
        for channel_id, squares in self.acknowledged.items():
            rows = await store._db.fetch(
                "SELECT id FROM matches WHERE channel_id = ? ORDER BY id DESC", (channel_id,))
            saved = [move.action for move in await store.moves(rows[0][0])]
            missing += [square for square in squares if square not in saved]
            assert saved == squares, (channel_id, saved, squares)  # and nothing refused kept
        return missing
