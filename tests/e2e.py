"""Helpers for end-to-end tests: the real Gamenight bot against the fake Discord."""

from __future__ import annotations

import io
from collections.abc import Iterable
from contextlib import asynccontextmanager
from pathlib import Path

from PIL import Image

from bot.client import GamenightBot
from bot.config import Settings
from tests.fakediscord import FakeDiscord, Perm, run_bot


def make_bot(fake: FakeDiscord, db_path: Path, guild_id: int | None, *,
             metrics_port: str = "") -> GamenightBot:
    """The bot as configured from the environment; `metrics_port` "0" serves metrics on any
    free port (`bot.metrics.port`)."""
    settings = Settings.from_mapping({
        "DISCORD_TOKEN": fake.token,
        "GAMENIGHT_DB": str(db_path),
        "DISCORD_API_BASE": fake.api_base,
        "GAMENIGHT_GUILD": "" if guild_id is None else str(guild_id),
        "GAMENIGHT_METRICS_PORT": metrics_port,
    })
    return GamenightBot(settings)


@asynccontextmanager
async def running_bot(fake: FakeDiscord, db_path: Path, guild_id: int | None, *,
                      metrics_port: str = ""):
    async with run_bot(make_bot(fake, db_path, guild_id, metrics_port=metrics_port), fake) as bot:
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

    import bot.service

    monkeypatch.setattr(bot.service, "secrets", SimpleNamespace(randbits=lambda bits: seed))
