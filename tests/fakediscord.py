"""A fake Discord (REST + gateway) on 127.0.0.1 for end-to-end tests of a real discord.py bot.

The whole "Discord world" (users, guilds, channels, roles, messages with attachment bytes,
synced application commands) lives in memory in a :class:`FakeDiscord`.  The bot under test
is the real discord.py client running in the *same event loop*, pointed at the fake through
``discord.http.Route.BASE``.  Nothing leaves 127.0.0.1.

Typical use::

    fake = FakeDiscord()                      # or: async with FakeDiscord() as fake:
    await fake.start()                        # fake.api_base == "http://127.0.0.1:PORT/api/v10"
    guild = fake.add_guild("Game Night Club")
    chan = fake.add_channel(guild, "games")
    alice = fake.add_user("alice")
    bob = fake.add_user("bob", dms_open=False)            # DMs to bob -> 403, code 50007
    mod = fake.add_user("mod")
    fake.add_member(guild, alice); fake.add_member(guild, bob)
    fake.add_member(guild, mod, permissions=Perm.MANAGE_MESSAGES)

    async with run_bot(make_bot(), fake) as bot:          # start, wait READY+guilds+idle, stop
        res = await fake.slash(alice, chan, "reversi move", square="d3")
        res.response_type, res.content, res.embeds, res.files, res.ephemeral, res.components
        res.followups, res.new_messages, res.dms, res.errors
        choices = await fake.autocomplete(alice, chan, "reversi move", "square", square="d")
        msg = fake.messages(chan)[-1]
        res = await fake.click(alice, msg, "reversi:join:42")  # or fake.click(alice, msg, label="Join")
        res = await fake.select(alice, msg, "pick", ["a", "b"])
        fake.dm_messages(alice)
    await fake.stop()

Driving API (all ``await``-able ones wait until the bot is idle again, see below):

* ``add_user(name, *, dms_open=True, bot=False, global_name=None, locale="en-US") -> FakeUser``
* ``add_guild(name, *, owner=None) -> FakeGuild`` (the bot is a member automatically)
* ``add_channel(guild, name, *, topic=None) -> FakeChannel`` (text channel)
* ``add_role(guild, name, permissions=0) -> FakeRole``
* ``add_member(guild, user, *, roles=(), nick=None, permissions=None) -> FakeMember``
  (``permissions`` = int / ``discord.Permissions`` / ``Perm`` flags; a personal role is made for it)
* ``dm_channel(user) -> FakeChannel``
* ``set_bot_overwrite(channel, *, allow=0, deny=0)``: a channel permission overwrite for the bot
  (its threads inherit it); channel posts, thread creation, ``app_permissions`` in interactions
  and the channel's ``permission_overwrites`` (CHANNEL_UPDATE) all follow it
* ``await slash(user, channel, "group sub cmd", **options) -> InteractionResult``
  Builds an APPLICATION_COMMAND interaction from the commands the bot *synced*.  Options are
  typed per the synced definition (user/member options get ``resolved`` data; pass FakeUser,
  FakeChannel, FakeRole, FakeAttachment from ``fake.make_attachment``).  ``channel`` may be a
  FakeUser for a DM-channel invocation.  Option names that are Python keywords:
  ``**{"from": "a1"}``.
* ``await autocomplete(user, channel, "cmd", focused_name, **options) -> list[dict]`` (choices)
* ``await click(user, message, custom_id=None, *, label=None) -> InteractionResult``
* ``await select(user, message, custom_id, values) -> InteractionResult``
* ``await submit_modal(user, result, values: {custom_id: str}) -> InteractionResult``
* ``await raw_component(user, message, data, *, components=None)`` and
  ``await raw_command(user, channel, data, *, autocomplete=False)``: interactions with any data,
  unchecked (for fuzzing the bot with what stale clients or old messages send);
  ``await dispatch_raw(type, user, channel, data, *, message=None, components=None)`` sends one
  without waiting (many at once, then ``wait_idle()``) and returns the FakeInteraction;
  ``await slash_nowait(user, channel, "cmd", **options)`` likewise sends a slash command (for a
  bot in another process: ``await interaction.answered.wait()``, ``interaction.answered_at``)
* ``await send(user, channel, content) -> FakeMessage`` (a user message, dispatched as MESSAGE_CREATE)
* ``messages(channel_or_user, *, include_ephemeral=False)``, ``dm_messages(user)``,
  ``get_message(id)``, ``commands(guild=None)``, ``search(text)`` (where a string appears)
* ``requests`` -> ``[(method, path), ...]`` (path without ``/api/v10``); ``request_log`` full records
* ``await wait_idle()``; ``expect_errors()`` context manager; ``raise_bot_errors`` flag;
  ``await disconnect_bot(code=4000)`` (drop the gateway; the bot RESUMEs, events are replayed).
* Result objects: :class:`InteractionResult` (``.response_type .message .content .embeds .files
  .attachments .components .buttons .ephemeral .followups .choices .modal .new_messages .edited
  .deleted .dms .channel_messages .all_messages .errors .requests``) and :class:`FakeMessage`
  (``.content .embeds .attachments .files .components .buttons .selects .flags .ephemeral
  .author .channel .find_component() .attachment(name) .text()``); attachments keep their bytes
  (``.data .is_png .image_size``) and are downloadable from their ``.url``.

Waiting for the bot: after dispatching a gateway event the fake waits until (1) the bot's
websocket has processed every event sent (checked via the bot's ``ws.sequence`` when the bot
was started with :func:`run_bot` / ``fake.attach(bot)``), (2) no HTTP request is in flight, and
(3) every asyncio task created since ``fake.start()`` is finished or *idle*: waiting on a
queue/event/lock/view, reading the gateway, or sleeping longer than ``fake.busy_sleep_limit``
(1 s; a turn timer or a view timeout counts as idle, a 0.3 s "thinking" pause does not).
Timeouts (``fake.idle_timeout``) are only failure guards; they raise with the busy task stacks.
A long-lived bot task waiting on something else (e.g. a bare future) can be declared idle with
``fake.idle_predicates.append(lambda task: task.get_name() == "my-worker")``.

Errors: any log record at ERROR or above (e.g. discord.py's "Ignoring exception in command")
and any unretrieved task exception during an interaction is put in ``result.errors`` and, with
``fake.raise_bot_errors`` (default True), raised as :class:`BotError`.  Unknown REST routes
answer 404 JSON, are logged at ERROR and therefore also fail the interaction.

Starting the bot: ``async with run_bot(bot, fake) as bot:`` sets ``Route.BASE`` and the default
gateway URL, starts ``bot.start(fake.token)`` as a task, waits for on_ready, all guilds and
idleness, and on exit closes the bot and restores the globals.  A second bot instance can be
run against the same fake afterwards (restart tests): the world, messages and commands persist.
``Route.BASE`` is process-global: run one bot per process at a time.

Behaviour modelled on Discord: DM to a user with ``dms_open=False`` -> 403 code 50007; sending
without SEND_MESSAGES/ATTACH_FILES (after the bot's channel overwrite) -> 403 50013, while
interaction responses and follow-ups need no channel permission; a second interaction callback -> 400 40060;
every request body is checked against Discord's OpenAPI document and the limits it lacks
(``tests/discord_schema.py``): a refused body -> 400 50035 and a failed test (``tests/conftest.py``;
``expect_invalid_requests()`` for a test that means to send one); the first followup
after a "thinking" defer replaces the loading message; ephemeral messages are invisible to the
channel routes; commands keep their ids across bulk overwrites; MESSAGE_CONTENT intent respected.

Shards: each IDENTIFY names its shard ``[id, count]``; a session hears of the guilds on its shard
(``(guild_id >> 22) % count == id``) and of their events and interactions, and shard 0 also of
everything in DMs, so several bots (processes) may share one fake, each on some shards.

Per-route rate limits (X-RateLimit-* headers, 429 when a client ignores them) only with
``FakeDiscord(rate_limits=RateLimits(limit, per))``; off by default.

Not covered: overwrites other than the bot's own, voice, user reactions, polls, the global rate
limit, ETF encoding, the 3-second / 15-minute interaction deadlines,
user-installed-app contexts.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hashlib
import json
import logging
import math
import mimetypes
import re
import secrets
import struct
import time
import traceback
import weakref
import zlib
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any, Iterable, Iterator
from urllib.parse import unquote

from aiohttp import WSMsgType, web

from tests import discord_schema, pseudo

__all__ = [
    "BotError",
    "FakeAttachment",
    "FakeChannel",
    "FakeDiscord",
    "FakeGuild",
    "FakeMember",
    "FakeMessage",
    "FakeRole",
    "FakeUser",
    "InteractionResult",
    "Perm",
    "RateLimits",
    "run_bot",
]

log = logging.getLogger("fakediscord")

DISCORD_EPOCH = 1420070400000
ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


class Perm:
    """Permission bits (same values as discord.Permissions)."""

    CREATE_INSTANT_INVITE = 1 << 0
    KICK_MEMBERS = 1 << 1
    BAN_MEMBERS = 1 << 2
    ADMINISTRATOR = 1 << 3
    MANAGE_CHANNELS = 1 << 4
    MANAGE_GUILD = 1 << 5
    ADD_REACTIONS = 1 << 6
    VIEW_CHANNEL = 1 << 10
    SEND_MESSAGES = 1 << 11
    MANAGE_MESSAGES = 1 << 13
    EMBED_LINKS = 1 << 14
    ATTACH_FILES = 1 << 15
    READ_MESSAGE_HISTORY = 1 << 16
    MENTION_EVERYONE = 1 << 17
    USE_EXTERNAL_EMOJIS = 1 << 18
    CONNECT = 1 << 20
    SPEAK = 1 << 21
    CHANGE_NICKNAME = 1 << 26
    MANAGE_ROLES = 1 << 28
    USE_APPLICATION_COMMANDS = 1 << 31
    CREATE_PUBLIC_THREADS = 1 << 35
    SEND_MESSAGES_IN_THREADS = 1 << 38
    ALL = (1 << 53) - 1

    EVERYONE_DEFAULT = (
        CREATE_INSTANT_INVITE | ADD_REACTIONS | VIEW_CHANNEL | SEND_MESSAGES | EMBED_LINKS | ATTACH_FILES
        | READ_MESSAGE_HISTORY | USE_EXTERNAL_EMOJIS | CONNECT | SPEAK | CHANGE_NICKNAME
        | USE_APPLICATION_COMMANDS | SEND_MESSAGES_IN_THREADS
    )
    BOT_DEFAULT = EVERYONE_DEFAULT | MANAGE_MESSAGES | CREATE_PUBLIC_THREADS


class Intent:
    GUILDS = 1 << 0
    GUILD_MEMBERS = 1 << 1
    GUILD_MESSAGES = 1 << 9
    DIRECT_MESSAGES = 1 << 12
    MESSAGE_CONTENT = 1 << 15


class BotError(AssertionError):
    """The bot logged an error / leaked a task exception while handling something."""


class IdleTimeout(AssertionError):
    """The bot did not become idle within the guard timeout."""


class _HTTPError(Exception):
    def __init__(self, status: int, code: int, message: str, errors: Any = None) -> None:
        super().__init__(f"{status} {code} {message}")
        self.status, self.code, self.message, self.errors = status, code, message, errors


def _now_iso() -> str:
    return datetime.now(timezone.utc).isoformat()


def _perm_value(p: Any) -> int:
    return int(getattr(p, "value", p) or 0)


def _id_of(obj: Any) -> int:
    return int(getattr(obj, "id", obj))


# --------------------------------------------------------------------------------------------
# World model
# --------------------------------------------------------------------------------------------


@dataclass(eq=False)
class FakeUser:
    id: int
    name: str
    bot: bool = False
    dms_open: bool = True
    global_name: str | None = None
    locale: str = "en-US"
    dm_channel: "FakeChannel | None" = field(default=None, repr=False)

    @property
    def mention(self) -> str:
        return f"<@{self.id}>"

    def payload(self) -> dict:
        return {
            "id": str(self.id),
            "username": self.name,
            "discriminator": "0",
            "global_name": self.global_name,
            "avatar": None,
            "bot": self.bot,
            "system": False,
            "public_flags": 0,
            "flags": 0,
            "banner": None,
            "accent_color": None,
            "avatar_decoration_data": None,
        }


@dataclass(eq=False)
class FakeRole:
    id: int
    guild: "FakeGuild" = field(repr=False)
    name: str
    permissions: int = 0
    position: int = 0
    managed: bool = False
    color: int = 0

    @property
    def mention(self) -> str:
        return f"<@&{self.id}>"

    def payload(self) -> dict:
        return {
            "id": str(self.id),
            "name": self.name,
            "color": self.color,
            "colors": {"primary_color": self.color, "secondary_color": None, "tertiary_color": None},
            "hoist": False,
            "icon": None,
            "unicode_emoji": None,
            "position": self.position,
            "permissions": str(self.permissions),
            "managed": self.managed,
            "mentionable": False,
            "flags": 0,
        }


@dataclass(eq=False)
class FakeMember:
    guild: "FakeGuild" = field(repr=False)
    user: FakeUser
    roles: list[FakeRole] = field(default_factory=list)
    nick: str | None = None
    joined_at: str = field(default_factory=_now_iso)

    @property
    def id(self) -> int:
        return self.user.id

    def permissions(self) -> int:
        if self.guild.owner_id == self.user.id:
            return Perm.ALL
        perms = self.guild.everyone.permissions
        for r in self.roles:
            perms |= r.permissions
        if perms & Perm.ADMINISTRATOR:
            return Perm.ALL
        return perms

    def payload(self, *, with_user: bool = True, with_permissions: bool = False) -> dict:
        d = {
            "roles": [str(r.id) for r in self.roles],
            "nick": self.nick,
            "avatar": None,
            "banner": None,
            "joined_at": self.joined_at,
            "premium_since": None,
            "deaf": False,
            "mute": False,
            "pending": False,
            "flags": 0,
            "communication_disabled_until": None,
        }
        if with_user:
            d["user"] = self.user.payload()
        if with_permissions:
            d["permissions"] = str(self.permissions())
        return d


@dataclass(eq=False)
class FakeChannel:
    id: int
    name: str
    type: int = 0  # 0 guild text, 1 DM, 11 public thread
    guild: "FakeGuild | None" = field(default=None, repr=False)
    parent: "FakeChannel | None" = field(default=None, repr=False)  # a thread's channel
    owner_id: int | None = None  # who created a thread
    auto_archive_duration: int = 1440
    recipient: FakeUser | None = field(default=None, repr=False)
    position: int = 0
    topic: str | None = None
    messages: list["FakeMessage"] = field(default_factory=list, repr=False)
    bot_overwrite: tuple[int, int, int] | None = None  # (bot user id, allow, deny)

    @property
    def mention(self) -> str:
        return f"<#{self.id}>"

    @property
    def is_dm(self) -> bool:
        return self.type == 1

    @property
    def is_thread(self) -> bool:
        return self.parent is not None

    def last_message_id(self) -> str | None:
        return str(self.messages[-1].id) if self.messages else None

    def payload(self, *, permissions: int | None = None) -> dict:
        if self.type == 1:
            d = {
                "id": str(self.id),
                "type": 1,
                "recipients": [self.recipient.payload()] if self.recipient else [],
                "last_message_id": self.last_message_id(),
                "flags": 0,
            }
        else:
            d = {
                "id": str(self.id),
                "type": self.type,
                "guild_id": str(self.guild.id) if self.guild else None,
                "name": self.name,
                "position": self.position,
                "permission_overwrites": [] if self.bot_overwrite is None else [{
                    "id": str(self.bot_overwrite[0]), "type": 1,
                    "allow": str(self.bot_overwrite[1]), "deny": str(self.bot_overwrite[2])}],
                "nsfw": False,
                "topic": self.topic,
                "last_message_id": self.last_message_id(),
                "rate_limit_per_user": 0,
                "parent_id": None,
                "flags": 0,
            }
            if self.is_thread:
                d.update({
                    "parent_id": str(self.parent.id),
                    "owner_id": str(self.owner_id),
                    "message_count": len(self.messages),
                    "member_count": 1,
                    "thread_metadata": {
                        "archived": False, "locked": False,
                        "auto_archive_duration": self.auto_archive_duration,
                        "archive_timestamp": _now_iso(), "create_timestamp": _now_iso(),
                    },
                })
                for key in ("position", "permission_overwrites", "topic", "nsfw"):
                    d.pop(key)
        if permissions is not None:
            d["permissions"] = str(permissions)
        return d


@dataclass(eq=False)
class FakeGuild:
    id: int
    name: str
    owner_id: int
    roles: list[FakeRole] = field(default_factory=list, repr=False)
    channels: list[FakeChannel] = field(default_factory=list, repr=False)
    threads: list[FakeChannel] = field(default_factory=list, repr=False)  # active threads
    members: dict[int, FakeMember] = field(default_factory=dict, repr=False)
    created_at: str = field(default_factory=_now_iso, repr=False)

    @property
    def everyone(self) -> FakeRole:
        return self.roles[0]

    def member(self, user: Any) -> FakeMember | None:
        return self.members.get(_id_of(user))

    def channel(self, name: str) -> FakeChannel:
        for c in self.channels:
            if c.name == name:
                return c
        raise LookupError(f"no channel {name!r} in guild {self.name!r}")

    def payload(self, *, full: bool = False) -> dict:
        d = {
            "id": str(self.id),
            "name": self.name,
            "icon": None,
            "splash": None,
            "discovery_splash": None,
            "banner": None,
            "description": None,
            "owner_id": str(self.owner_id),
            "afk_channel_id": None,
            "afk_timeout": 300,
            "verification_level": 0,
            "default_message_notifications": 0,
            "explicit_content_filter": 0,
            "roles": [r.payload() for r in self.roles],
            "emojis": [],
            "stickers": [],
            "features": [],
            "mfa_level": 0,
            "system_channel_id": None,
            "system_channel_flags": 0,
            "rules_channel_id": None,
            "public_updates_channel_id": None,
            "vanity_url_code": None,
            "premium_tier": 0,
            "premium_subscription_count": 0,
            "preferred_locale": "en-US",
            "nsfw_level": 0,
            "premium_progress_bar_enabled": False,
        }
        if full:
            d.update(
                {
                    "joined_at": self.created_at,
                    "large": False,
                    "unavailable": False,
                    "member_count": len(self.members),
                    "members": [m.payload() for m in self.members.values()],
                    "channels": [c.payload() for c in self.channels],
                    "threads": [t.payload() for t in self.threads],
                    "presences": [],
                    "voice_states": [],
                    "stage_instances": [],
                    "guild_scheduled_events": [],
                    "soundboard_sounds": [],
                }
            )
        return d


@dataclass(eq=False)
class FakeAttachment:
    id: int
    filename: str
    data: bytes = field(repr=False)
    url: str = ""
    content_type: str | None = None
    description: str | None = None
    ephemeral: bool = False

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def is_png(self) -> bool:
        return self.data.startswith(PNG_SIGNATURE)

    @property
    def image_size(self) -> tuple[int, int] | None:
        if self.is_png and len(self.data) >= 24:
            return struct.unpack(">II", self.data[16:24])
        return None

    def payload(self) -> dict:
        d = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "ephemeral": self.ephemeral,
        }
        if self.description is not None:
            d["description"] = self.description
        dims = self.image_size
        if dims:
            d["width"], d["height"] = dims
        return d


def walk_components(components: Iterable[dict]) -> Iterator[dict]:
    """Every component in a (nested) component list: rows, buttons, selects, sections, ..."""
    for c in components or ():
        yield c
        yield from walk_components(c.get("components") or ())
        for key in ("accessory", "component"):
            if isinstance(c.get(key), dict):
                yield from walk_components([c[key]])


@dataclass(eq=False)
class FakeMessage:
    id: int
    channel: FakeChannel = field(repr=False)
    author: FakeUser
    content: str = ""
    embeds: list[dict] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    components: list[dict] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    created_at: str = field(default_factory=_now_iso, repr=False)
    edited_at: str | None = field(default=None, repr=False)
    deleted: bool = False
    webhook_id: int | None = field(default=None, repr=False)
    interaction: "FakeInteraction | None" = field(default=None, repr=False)
    message_reference: dict | None = field(default=None, repr=False)
    reactions: dict[str, set[int]] = field(default_factory=dict, repr=False)
    pinned: bool = False
    tts: bool = False

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & 64)

    @property
    def loading(self) -> bool:
        return bool(self.flags & 128)

    @property
    def guild(self) -> FakeGuild | None:
        return self.channel.guild

    @property
    def files(self) -> list[tuple[str, bytes]]:
        return [(a.filename, a.data) for a in self.attachments]

    def attachment(self, filename: str) -> FakeAttachment:
        for a in self.attachments:
            if a.filename == filename:
                return a
        raise LookupError(f"no attachment {filename!r}; have {[a.filename for a in self.attachments]}")

    def all_components(self) -> list[dict]:
        return list(walk_components(self.components))

    @property
    def buttons(self) -> list[dict]:
        return [c for c in walk_components(self.components) if c.get("type") == 2]

    @property
    def selects(self) -> list[dict]:
        return [c for c in walk_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    def find_component(self, custom_id: str | None = None, *, label: str | None = None) -> dict | None:
        for c in walk_components(self.components):
            if custom_id is not None and c.get("custom_id") == custom_id:
                return c
            if label is not None and c.get("label") == label:
                return c
        return None

    def text(self) -> str:
        """Content plus embed texts and attachment descriptions (alt text), for loose assertions."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            for f in e.get("fields") or ():
                parts += [f.get("name") or "", f.get("value") or ""]
            parts.append((e.get("footer") or {}).get("text") or "")
            parts.append((e.get("author") or {}).get("name") or "")
        for c in walk_components(self.components):
            if c.get("type") in (10,):  # text display (components v2)
                parts.append(c.get("content") or "")
        parts += [a.description or "" for a in self.attachments]
        return "\n".join(p for p in parts if p)

    def mentions(self) -> list[int]:
        return [int(m) for m in re.findall(r"<@!?(\d+)>", self.content or "")]

    def payload(self, fake: "FakeDiscord | None" = None) -> dict:
        d: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.created_at,
            "edited_timestamp": self.edited_at,
            "tts": self.tts,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "mention_channels": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "reactions": [
                {"emoji": _emoji_payload(e), "count": len(u), "me": (fake is not None and fake.bot_user.id in u),
                 "me_burst": False, "burst_count": 0, "burst_colors": [],
                 "count_details": {"burst": 0, "normal": len(u)}}
                for e, u in self.reactions.items() if u
            ],
            "pinned": self.pinned,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
        }
        if fake is not None:
            d["mentions"] = [fake.users[m].payload() for m in self.mentions() if m in fake.users]
        if self.channel.guild is not None:
            d["guild_id"] = str(self.channel.guild.id)
        if self.webhook_id is not None:
            d["webhook_id"] = str(self.webhook_id)
            d["application_id"] = str(self.webhook_id)
        if self.message_reference:
            d["message_reference"] = self.message_reference
        it = self.interaction
        if it is not None:
            meta: dict[str, Any] = {
                "id": str(it.id),
                "type": it.type,
                "user": it.user.payload(),
                "authorizing_integration_owners": it.integration_owners(),
            }
            if it.message is not None:
                meta["interacted_message_id"] = str(it.message.id)
            if it.original is not None and it.original is not self:
                meta["original_response_message_id"] = str(it.original.id)
            d["interaction_metadata"] = meta
            if it.type == 2:
                d["interaction"] = {"id": str(it.id), "type": 2, "name": it.command_name, "user": it.user.payload()}
        return d


def _emoji_payload(e: str) -> dict:
    m = re.fullmatch(r"<?a?:?(\w+):(\d+)>?", e)
    if m:
        return {"id": m.group(2), "name": m.group(1)}
    return {"id": None, "name": e}


@dataclass(eq=False)
class FakeInteraction:
    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    data: dict
    fake: "FakeDiscord" = field(repr=False)
    message: FakeMessage | None = None  # the message a component was on
    command_name: str = ""
    response_type: int | None = None
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    choices: list[dict] | None = None
    modal: dict | None = None
    locale: str = "en-US"
    # set when the bot's first callback arrives (time.perf_counter()): a bot in another
    # process cannot be waited for with wait_idle(), its answer can
    answered_at: float | None = None
    answered: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @property
    def guild(self) -> FakeGuild | None:
        return self.channel.guild

    def integration_owners(self) -> dict:
        return {"0": str(self.guild.id)} if self.guild else {"1": str(self.user.id)}

    def payload(self) -> dict:
        fake = self.fake
        d: dict[str, Any] = {
            "id": str(self.id),
            "application_id": str(fake.application_id),
            "type": self.type,
            "data": self.data,
            "token": self.token,
            "version": 1,
            "channel_id": str(self.channel.id),
            "locale": self.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": self.integration_owners(),
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        g = self.guild
        if g is not None:
            member = g.member(self.user)
            assert member is not None
            d["guild_id"] = str(g.id)
            d["guild"] = {"id": str(g.id), "locale": "en-US", "features": []}
            d["guild_locale"] = "en-US"
            d["member"] = member.payload(with_permissions=True)
            d["channel"] = self.channel.payload(permissions=member.permissions())
            d["app_permissions"] = str(fake._bot_perms_in(self.channel))
            d["context"] = 0
        else:
            d["user"] = self.user.payload()
            d["channel"] = self.channel.payload()
            d["app_permissions"] = str(Perm.EVERYONE_DEFAULT)
            d["context"] = 1
        if self.message is not None:
            d["message"] = self.message.payload(fake)
        return d


@dataclass
class SchemaViolation:
    """A request body the fake refused because Discord would (tests/discord_schema.py)."""

    method: str
    path: str
    body: Any
    problems: list
    expected: bool = False

    def __str__(self) -> str:
        return f"{self.method} {self.path}: " + "; ".join(map(str, self.problems))


# Every unexpected violation of any fake in this process; tests/conftest.py fails the test that
# caused one and empties the list, so no test that drives the bot can skip the check.
UNEXPECTED_VIOLATIONS: list[SchemaViolation] = []


@dataclass
class RequestRecord:
    method: str
    path: str
    query: dict
    payload: Any = None
    files: list[str] = field(default_factory=list)
    status: int | None = None


@dataclass(eq=False)
class InteractionResult:
    """What happened while the bot handled one interaction (until it was idle again)."""

    interaction: FakeInteraction
    new_messages: list[FakeMessage]
    edited: list[FakeMessage]
    deleted: list[FakeMessage]
    errors: list[str]
    requests: list[RequestRecord]

    @property
    def response_type(self) -> int | None:
        return self.interaction.response_type

    @property
    def message(self) -> FakeMessage | None:
        """The original response: the message created (type 4/5) or updated (6/7)."""
        return self.interaction.original

    @property
    def content(self) -> str | None:
        return self.message.content if self.message else None

    @property
    def embeds(self) -> list[dict]:
        return self.message.embeds if self.message else []

    @property
    def files(self) -> list[tuple[str, bytes]]:
        return self.message.files if self.message else []

    @property
    def attachments(self) -> list[FakeAttachment]:
        return self.message.attachments if self.message else []

    @property
    def components(self) -> list[dict]:
        return self.message.components if self.message else []

    @property
    def buttons(self) -> list[dict]:
        return self.message.buttons if self.message else []

    @property
    def ephemeral(self) -> bool:
        return bool(self.message and self.message.ephemeral)

    @property
    def followups(self) -> list[FakeMessage]:
        return self.interaction.followups

    @property
    def choices(self) -> list[dict] | None:
        return self.interaction.choices

    @property
    def modal(self) -> dict | None:
        return self.interaction.modal

    @property
    def dms(self) -> list[FakeMessage]:
        return [m for m in self.new_messages if m.channel.is_dm]

    @property
    def channel_messages(self) -> list[FakeMessage]:
        """New, non-ephemeral messages in guild channels (including a public response)."""
        return [m for m in self.new_messages if not m.channel.is_dm and not m.ephemeral]

    @property
    def all_messages(self) -> list[FakeMessage]:
        """Original response (if any) followed by the followups, without duplicates."""
        out: list[FakeMessage] = []
        for m in ([self.message] if self.message else []) + self.followups:
            if m not in out:
                out.append(m)
        return out

    def text(self) -> str:
        return "\n".join(m.text() for m in self.all_messages)


# --------------------------------------------------------------------------------------------
# Gateway
# --------------------------------------------------------------------------------------------


class _GatewayConn:
    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self.compress = compress
        self.lock = asyncio.Lock()
        self.session: _Session | None = None
        self.client_seq = 0  # highest seq the client reported in a heartbeat
        self.heartbeat_event = asyncio.Event()
        if compress == "zlib-stream":
            self._z = zlib.compressobj()
        elif compress == "zstd-stream":
            import zstandard  # noqa: F401  (only if discord.py picked zstd; we can then answer it)

            self._z = zstandard.ZstdCompressor().compressobj()
        elif compress:
            raise ValueError(f"unsupported gateway compression {compress!r}")

    @property
    def closed(self) -> bool:
        return self.ws.closed

    async def send(self, payload: dict) -> None:
        raw = json.dumps(payload, separators=(",", ":"))
        async with self.lock:
            if self.ws.closed:
                return
            if self.compress == "zlib-stream":
                data = self._z.compress(raw.encode()) + self._z.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)
            elif self.compress == "zstd-stream":
                import zstandard

                data = self._z.compress(raw.encode()) + self._z.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
                await self.ws.send_bytes(data)
            else:
                await self.ws.send_str(raw)


class _Session:
    def __init__(self, sid: str, intents: int, shard: list[int]) -> None:
        self.id = sid
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.buffer: list[dict] = []
        self.conn: _GatewayConn | None = None
        self.lock = asyncio.Lock()
        self.heartbeat_requested_for = -1

    @property
    def live(self) -> bool:
        return self.conn is not None and not self.conn.closed

    def serves(self, guild: "FakeGuild | int | None") -> bool:
        """Whether Discord sends this session what happens in `guild` (None: in DMs)."""
        shard_id, count = self.shard
        if guild is None:
            return shard_id == 0
        return (_id_of(guild) >> 22) % count == shard_id

    async def dispatch(self, event: str, data: Any) -> int:
        async with self.lock:
            self.seq += 1
            msg = {"op": 0, "t": event, "s": self.seq, "d": data}
            self.buffer.append(msg)
            del self.buffer[:-1000]
            if self.live:
                await self.conn.send(msg)  # type: ignore[union-attr]
            return self.seq


# --------------------------------------------------------------------------------------------
# Task idleness (which asyncio tasks still have work to do)
# --------------------------------------------------------------------------------------------

_IDLE_WAITS = {
    ("asyncio/locks.py", "Event.wait"),
    ("asyncio/locks.py", "Condition.wait"),
    ("asyncio/locks.py", "Lock.acquire"),
    ("asyncio/locks.py", "Semaphore.acquire"),
    ("asyncio/locks.py", "Barrier.wait"),
    ("asyncio/queues.py", "Queue.get"),
    ("asyncio/queues.py", "Queue.put"),
    ("asyncio/queues.py", "Queue.join"),
    ("discord/ui/view.py", "BaseView.wait"),
    ("discord/ui/view.py", "View.wait"),
    ("discord/ui/modal.py", "Modal.wait"),
    ("discord/ext/tasks/__init__.py", "Loop._loop"),
}


_THIS_FILE = __file__


def _norm(filename: str) -> str:
    return filename.replace("\\", "/")


def _coro_chain(coro: Any) -> list[tuple[Any, Any]]:
    out = []
    c = coro
    while c is not None and len(out) < 200:
        code = getattr(c, "cr_code", None) or getattr(c, "gi_code", None) or getattr(c, "ag_code", None)
        if code is None:
            break
        frame = getattr(c, "cr_frame", None) or getattr(c, "gi_frame", None) or getattr(c, "ag_frame", None)
        out.append((code, frame))
        if hasattr(c, "cr_await"):
            c = c.cr_await
        elif hasattr(c, "gi_yieldfrom"):
            c = c.gi_yieldfrom
        else:
            c = getattr(c, "ag_await", None)
    return out


def _code_key(code: Any) -> tuple[str, str]:
    fn = _norm(code.co_filename)
    parts = fn.rsplit("/", 4)
    qual = getattr(code, "co_qualname", code.co_name)
    for n in (4, 3, 2):
        suffix = "/".join(parts[-n:])
        if any(suffix == k[0] for k in _IDLE_WAITS):
            return suffix, qual
    return "/".join(parts[-2:]), qual


# --------------------------------------------------------------------------------------------
# The fake
# --------------------------------------------------------------------------------------------


_GC_NOISE = ("Task was destroyed but it is pending", "Unclosed client session", "Unclosed connector")


# ---------------------------------------------------------------- rate limits
#
# Discord limits each route per bucket: the method and route, per top-level resource (channel id,
# guild id, webhook id + token), and tells the client in X-RateLimit-* headers how much is left
# and when the bucket refills; going over answers 429. Interaction callbacks are not limited
# here (Discord does not hold them to the bot's limits; each token answers once anyway).
# Off by default: without `rate_limits` the fake sends no such headers, as before.

@dataclass(frozen=True)
class RateLimits:
    """Every bucket allows `limit` requests per `per` seconds (a fixed window from its first)."""

    limit: int = 5
    per: float = 1.0


_MAJOR_PARAMETERS = ("channel", "guild", "app", "token")


@dataclass
class _Bucket:
    name: str
    used: int = 0
    resets_at: float = 0.0


class _RateLimiter:
    """Per-bucket windows on the monotonic clock; counts the 429s it answers in `refused`."""

    def __init__(self, limits: RateLimits, clock: Any = time.monotonic) -> None:
        self.limits, self.clock = limits, clock
        self.refused: list[tuple[str, str]] = []
        self.exhausted = 0  # answers that said Remaining: 0, i.e. the client had to wait
        self._buckets: dict[tuple, _Bucket] = {}

    def _bucket(self, method: str, pattern: str, params: dict[str, str]) -> _Bucket:
        major = tuple(params.get(name) for name in _MAJOR_PARAMETERS)
        key = (method, pattern, major)
        if key not in self._buckets:
            name = hashlib.sha1(f"{method} {pattern}".encode()).hexdigest()[:16]
            self._buckets[key] = _Bucket(name)
        return self._buckets[key]

    def take(self, method: str, sub: str, pattern: str, params: dict[str, str]
             ) -> tuple[dict[str, str], web.Response | None]:
        """Spend one request of its bucket: the headers to send, and a 429 if none was left."""
        bucket, now = self._bucket(method, pattern, params), self.clock()
        if now >= bucket.resets_at:
            bucket.used, bucket.resets_at = 0, now + self.limits.per
        reset_after = math.ceil((bucket.resets_at - now) * 1000) / 1000
        headers = {
            "X-RateLimit-Limit": str(self.limits.limit),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket.name,
        }
        if bucket.used >= self.limits.limit:
            self.refused.append((method, sub))
            log.warning("fakediscord: 429 on %s %s (bucket %s)", method, sub, bucket.name)
            body = {"message": "You are being rate limited.", "retry_after": reset_after,
                    "global": False}
            headers.update({"X-RateLimit-Remaining": "0", "X-RateLimit-Scope": "user",
                            "Retry-After": str(math.ceil(reset_after))})
            response = web.Response(body=json.dumps(body).encode(), status=429,
                                    content_type="application/json", headers=headers)
            return headers, response
        bucket.used += 1
        left = self.limits.limit - bucket.used
        self.exhausted += left == 0
        headers["X-RateLimit-Remaining"] = str(left)
        return headers, None


class _ErrorCollector(logging.Handler):
    def __init__(self, fake: "FakeDiscord") -> None:
        super().__init__(level=logging.ERROR)
        self.fake = fake

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = f"{record.name}: {record.getMessage()}"
            if record.name == "asyncio" and any(n in text for n in _GC_NOISE):
                self.fake.gc_noise.append(text)  # teardown hygiene, reported at GC time
                return
            if record.exc_info:
                text += "\n" + "".join(traceback.format_exception(*record.exc_info))
        except Exception:  # pragma: no cover
            text = repr(record)
        self.fake.errors.append(text)


class FakeDiscord:
    def __init__(
        self,
        *,
        token: str | None = None,
        bot_name: str = "Gamenight",
        bot_permissions: Any = Perm.BOT_DEFAULT,
        host: str = "127.0.0.1",
        rate_limits: RateLimits | None = None,
    ) -> None:
        self.token = token or f"fake.{secrets.token_urlsafe(24)}"
        self.rate_limiter = _RateLimiter(rate_limits) if rate_limits else None
        self.host = host
        self._last_id = 0
        self.users: dict[int, FakeUser] = {}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self._messages: dict[int, FakeMessage] = {}
        self._attachments: dict[int, FakeAttachment] = {}
        self.bot_user = self.add_user(bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.bot_permissions = _perm_value(bot_permissions)
        self.global_commands: list[dict] = []
        self.guild_commands: dict[int, list[dict]] = {}
        self.request_log: list[RequestRecord] = []
        self.errors: list[str] = []
        self.unknown_routes: list[tuple[str, str]] = []
        self.raise_bot_errors = True
        self.idle_timeout = 30.0
        self.busy_sleep_limit = 1.0
        # extra "this task is idle" rules: callables taking an asyncio.Task
        self.idle_predicates: list[Any] = []
        self.gc_noise: list[str] = []
        self._expect_errors = 0
        self._events: list[tuple[str, FakeMessage]] = []  # (create|edit|delete, message)
        self._interactions: dict[int, FakeInteraction] = {}
        self._interactions_by_token: dict[str, FakeInteraction] = {}
        self._sessions: dict[str, _Session] = {}
        self._conns: set[_GatewayConn] = set()
        self._inflight = 0
        self._bots: list[Any] = []
        self._tracked: "weakref.WeakSet[asyncio.Task]" = weakref.WeakSet()
        self._own_tasks: set[asyncio.Task] = set()
        self._runner: web.AppRunner | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._prev_factory: Any = None
        self._handler = _ErrorCollector(self)
        self.port: int | None = None
        self._routes = self._build_routes()
        self._failures: list[dict[str, Any]] = []
        self.schema_violations: list[SchemaViolation] = []
        self._expect_invalid = 0

    def fail_next(self, method: str, path: str, status: int, code: int = 0,
                  message: str = "injected failure", *, times: int = 1) -> dict[str, Any]:
        """Answer the next `times` requests `method path` (a regex on the path after the API
        base, e.g. ``/channels/123/messages``) with an error, as Discord would. Returns the
        failure; its ``left`` counts down as requests hit it."""
        failure = {"method": method, "rx": re.compile(path + "$"), "left": times,
                   "error": _HTTPError(status, code, message)}
        self._failures.append(failure)
        return failure

    def _injected_failure(self, method: str, sub: str) -> "_HTTPError | None":
        for failure in self._failures:
            if failure["left"] and failure["method"] == method and failure["rx"].search(sub):
                failure["left"] -= 1
                return failure["error"]
        return None

    # ---------------------------------------------------------------- lifecycle

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    async def start(self) -> "FakeDiscord":
        self._loop = asyncio.get_running_loop()
        self._prev_factory = self._loop.get_task_factory()
        self._loop.set_task_factory(self._task_factory)
        logging.getLogger().addHandler(self._handler)
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/{tail:.*}", self._http)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        for conn in list(self._conns):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        logging.getLogger().removeHandler(self._handler)
        if self._loop is not None and self._loop.get_task_factory() == self._task_factory:
            self._loop.set_task_factory(self._prev_factory)

    async def __aenter__(self) -> "FakeDiscord":
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop()

    def attach(self, bot: Any) -> None:
        """Let the fake see ``bot``'s websocket sequence (exact, rate-limit free gateway sync)."""
        if bot not in self._bots:
            self._bots.append(bot)

    def detach(self, bot: Any) -> None:
        with contextlib.suppress(ValueError):
            self._bots.remove(bot)

    def _task_factory(self, loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Future:
        if self._prev_factory is not None:
            task = self._prev_factory(loop, coro, **kwargs)
        else:
            task = asyncio.Task(coro, loop=loop, **kwargs)
        self._tracked.add(task)
        return task

    # ---------------------------------------------------------------- ids & world building

    def new_id(self) -> int:
        cand = (int(time.time() * 1000) - DISCORD_EPOCH) << 22
        if cand <= self._last_id:
            cand = self._last_id + 1
        self._last_id = cand
        return cand

    def add_user(
        self, name: str, *, dms_open: bool = True, bot: bool = False, global_name: str | None = None,
        locale: str = "en-US",
    ) -> FakeUser:
        u = FakeUser(self.new_id(), name, bot=bot, dms_open=dms_open, global_name=global_name, locale=locale)
        self.users[u.id] = u
        return u

    def add_guild(self, name: str, *, owner: FakeUser | None = None) -> FakeGuild:
        gid = self.new_id()
        if owner is None:
            owner = self.add_user(f"{name} owner")
        g = FakeGuild(gid, name, owner.id)
        g.roles.append(FakeRole(gid, g, "@everyone", Perm.EVERYONE_DEFAULT, 0))
        bot_role = FakeRole(self.new_id(), g, self.bot_user.name, self.bot_permissions, 1, managed=True)
        g.roles.append(bot_role)
        g.members[self.bot_user.id] = FakeMember(g, self.bot_user, [bot_role])
        self.guilds[gid] = g
        self._dispatch_soon("GUILD_CREATE", lambda: g.payload(full=True), guild=g)
        return g

    def add_channel(self, guild: FakeGuild, name: str, *, topic: str | None = None) -> FakeChannel:
        c = FakeChannel(self.new_id(), name, 0, guild, position=len(guild.channels), topic=topic)
        guild.channels.append(c)
        self.channels[c.id] = c
        self._dispatch_soon("CHANNEL_CREATE", lambda: c.payload(), guild=guild)
        return c

    def set_bot_overwrite(self, channel: FakeChannel, *, allow: Any = 0, deny: Any = 0) -> None:
        """The bot's permission overwrite in `channel` (and its threads), as a moderator sets
        it: what the channel routes allow and what interactions report as `app_permissions`."""
        channel.bot_overwrite = (self.bot_user.id, _perm_value(allow), _perm_value(deny))
        self._dispatch_soon("CHANNEL_UPDATE", lambda: channel.payload(), guild=channel.guild)

    def add_role(self, guild: FakeGuild, name: str, permissions: Any = 0) -> FakeRole:
        r = FakeRole(self.new_id(), guild, name, _perm_value(permissions), len(guild.roles))
        guild.roles.append(r)
        self._dispatch_soon(
            "GUILD_ROLE_CREATE", lambda: {"guild_id": str(guild.id), "role": r.payload()}, guild=guild
        )
        return r

    def add_member(
        self, guild: FakeGuild, user: FakeUser, *, roles: Iterable[FakeRole] = (), nick: str | None = None,
        permissions: Any = None,
    ) -> FakeMember:
        roles = list(roles)
        if permissions is not None:
            roles.append(self.add_role(guild, f"perms:{user.name}", permissions))
        m = FakeMember(guild, user, roles, nick)
        guild.members[user.id] = m
        self._dispatch_soon(
            "GUILD_MEMBER_ADD", lambda: {**m.payload(), "guild_id": str(guild.id)}, guild=guild,
            intent=Intent.GUILD_MEMBERS,
        )
        return m

    def bot_member(self, guild: FakeGuild) -> FakeMember:
        return guild.members[self.bot_user.id]

    def threads(self, channel: FakeChannel) -> list[FakeChannel]:
        """The threads created in `channel`, oldest first."""
        return [c for c in self.channels.values() if c.parent is channel]

    def dm_channel(self, user: FakeUser) -> FakeChannel:
        if user.dm_channel is None:
            c = FakeChannel(self.new_id(), f"dm-{user.name}", 1, None, recipient=user)
            user.dm_channel = c
            self.channels[c.id] = c
        return user.dm_channel

    def make_attachment(self, filename: str, data: bytes, *, content_type: str | None = None) -> FakeAttachment:
        """An uploaded file a user can pass as an attachment option."""
        return self._new_attachment(filename, data, content_type, 0)

    # ---------------------------------------------------------------- queries

    def messages(self, channel: FakeChannel | FakeUser, *, include_ephemeral: bool = False) -> list[FakeMessage]:
        if isinstance(channel, FakeUser):
            channel = self.dm_channel(channel)
        return [m for m in channel.messages if not m.deleted and (include_ephemeral or not m.ephemeral)]

    def dm_messages(self, user: FakeUser) -> list[FakeMessage]:
        return self.messages(self.dm_channel(user))

    def visible_messages(self, channel: FakeChannel, user: FakeUser) -> list[FakeMessage]:
        """What ``user`` sees in ``channel``: public messages plus ephemerals addressed to them."""
        return [
            m for m in channel.messages
            if not m.deleted and (not m.ephemeral or (m.interaction is not None and m.interaction.user is user))
        ]

    def get_message(self, message_id: int | FakeMessage) -> FakeMessage:
        return self._messages[_id_of(message_id)]

    def commands(self, guild: FakeGuild | None = None) -> list[dict]:
        return self.global_commands if guild is None else self.guild_commands.get(guild.id, [])

    @property
    def requests(self) -> list[tuple[str, str]]:
        return [(r.method, r.path) for r in self.request_log]

    def search(self, needle: str) -> list[str]:
        """Where ``needle`` shows up in stored messages, attachments, embeds, components, commands."""
        hits = []
        nb = needle.encode()
        for m in self._messages.values():
            if needle in json.dumps(m.payload()):
                hits.append(f"message {m.id} in {m.channel.name}")
            for a in m.attachments:
                if nb in a.data or needle in a.filename:
                    hits.append(f"attachment {a.filename} of message {m.id}")
        for cmds in [self.global_commands, *self.guild_commands.values()]:
            if needle in json.dumps(cmds):
                hits.append("application commands")
        return hits

    @contextlib.contextmanager
    def expect_errors(self) -> Iterator[None]:
        """Within this block bot errors are reported in ``result.errors`` but not raised."""
        self._expect_errors += 1
        try:
            yield
        finally:
            self._expect_errors -= 1

    # ---------------------------------------------------------------- gateway plumbing

    def _live_sessions(self) -> list[_Session]:
        return [s for s in self._sessions.values() if s.live]

    def _session(self, guild: "FakeGuild | None" = None) -> _Session:
        """The newest live session on the shard of `guild` (None: DMs, shard 0)."""
        live = self._live_sessions()
        if not live:
            raise RuntimeError("the bot is not connected to the fake gateway (use run_bot)")
        serving = [s for s in live if s.serves(guild)]
        if not serving:
            raise RuntimeError(f"no bot connected to the fake gateway runs the shard of "
                               f"{'the DMs' if guild is None else guild.name}")
        return serving[-1]

    def _wants(self, s: _Session, intent: int | None) -> bool:
        return intent is None or bool(s.intents & intent)

    async def _dispatch(self, event: str, data: Any, *, intent: int | None = None,
                        guild: FakeGuild | None = None) -> None:
        """To every live session that wants `intent` and (when given) serves `guild`."""
        for s in self._live_sessions():
            if self._wants(s, intent) and (guild is None or s.serves(guild)):
                await s.dispatch(event, data)

    def _dispatch_soon(self, event: str, make: Any, *, guild: FakeGuild | None = None, intent: int | None = None) -> None:
        if not self._live_sessions():
            return

        async def go() -> None:
            await self._dispatch(event, make(), intent=intent, guild=guild)

        t = asyncio.get_running_loop().create_task(go(), name=f"fakediscord: {event}")
        self._own_tasks.add(t)
        t.add_done_callback(self._own_tasks.discard)

    async def _flush_own(self) -> None:
        while self._own_tasks:
            await asyncio.gather(*list(self._own_tasks), return_exceptions=True)

    def _bot_ws_for(self, session: _Session) -> Any:
        for bot in self._bots:
            shards = getattr(bot, "_AutoShardedClient__shards", None)
            wss = [getattr(s, "ws", None) for s in shards.values()] if shards else [getattr(bot, "ws", None)]
            for ws in wss:
                if ws is not None and getattr(ws, "session_id", None) == session.id:
                    return ws
        return None

    def _session_lagging(self, s: _Session) -> bool:
        if not s.live:
            return False
        ws = self._bot_ws_for(s)
        if ws is not None:
            return (ws.sequence or 0) < s.seq
        if s.conn.client_seq >= s.seq:  # type: ignore[union-attr]
            return False
        if s.heartbeat_requested_for < s.seq:
            # Not attached: ask the client for a heartbeat (it reports its sequence).  Note that
            # discord.py rate-limits its own gateway sends (110/min), so prefer fake.attach(bot).
            s.heartbeat_requested_for = s.seq
            self._dispatch_raw_soon(s, {"op": 1, "d": None})
        return True

    def _dispatch_raw_soon(self, s: _Session, payload: dict) -> None:
        conn = s.conn
        if conn is None:
            return
        t = asyncio.get_running_loop().create_task(conn.send(payload), name="fakediscord: raw")
        self._own_tasks.add(t)
        t.add_done_callback(self._own_tasks.discard)

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        self.request_log.append(RequestRecord("WS", "/gateway", dict(request.query)))
        if request.query.get("encoding", "json") != "json":
            log.error("fakediscord: gateway encoding %r not supported", request.query.get("encoding"))
            await ws.close(code=4002)
            return ws
        conn = _GatewayConn(ws, request.query.get("compress"))
        self._conns.add(conn)
        try:
            await conn.send({"op": 10, "d": {"heartbeat_interval": 41250, "_trace": ["fakediscord"]}})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._gateway_op(conn, json.loads(msg.data))
                elif msg.type == WSMsgType.BINARY:
                    log.error("fakediscord: unexpected binary frame from client")
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            self._conns.discard(conn)
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
        return ws

    async def _gateway_op(self, conn: _GatewayConn, msg: dict) -> None:
        op, d = msg.get("op"), msg.get("d")
        if op == 1:  # heartbeat
            if isinstance(d, int):
                conn.client_seq = max(conn.client_seq, d)
            await conn.send({"op": 11})
        elif op == 2:  # identify
            if d.get("token") != self.token:
                log.error("fakediscord: IDENTIFY with a wrong token")
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            s = _Session(secrets.token_hex(16), int(d.get("intents") or 0), list(d.get("shard") or [0, 1]))
            self._sessions[s.id] = s
            conn.session = s
            s.conn = conn
            await s.dispatch("READY", self._ready_payload(s))
            for g in self.guilds.values():
                if s.serves(g):
                    await s.dispatch("GUILD_CREATE", g.payload(full=True))
        elif op == 6:  # resume
            s = self._sessions.get(d.get("session_id"))
            if s is None or d.get("token") != self.token:
                await conn.send({"op": 9, "d": False})
                return
            conn.session = s
            async with s.lock:
                s.conn = conn
                for ev in s.buffer:
                    if ev["s"] > (d.get("seq") or 0):
                        await conn.send(ev)
                s.seq += 1
                await conn.send({"op": 0, "t": "RESUMED", "s": s.seq, "d": {"_trace": ["fakediscord"]}})
        elif op == 8:  # request guild members
            s = conn.session
            g = self.guilds.get(int(d.get("guild_id")))
            if s is None or g is None:
                return
            members = list(g.members.values())
            if d.get("user_ids"):
                ids = {int(x) for x in d["user_ids"]}
                members = [m for m in members if m.user.id in ids]
            elif d.get("query"):
                members = [m for m in members if m.user.name.lower().startswith(d["query"].lower())]
            if d.get("limit"):
                members = members[: d["limit"]]
            chunk = {
                "guild_id": str(g.id),
                "members": [m.payload() for m in members],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
            }
            if d.get("nonce") is not None:
                chunk["nonce"] = d["nonce"]
            await s.dispatch("GUILD_MEMBERS_CHUNK", chunk)
        elif op in (3, 4):  # presence / voice state: ignored
            pass
        else:
            log.error("fakediscord: unknown gateway op %r: %r", op, msg)

    def _ready_payload(self, s: _Session) -> dict:
        return {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g), "unavailable": True} for g in self.guilds if s.serves(g)],
            "session_id": s.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "shard": s.shard,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "guild_join_requests": [],
            "user_settings": {},
            "_trace": ["fakediscord"],
        }

    # ---------------------------------------------------------------- idleness

    def _task_busy(self, task: asyncio.Task, depth: int = 0) -> bool:
        if task.done():
            return False
        if any(p(task) for p in self.idle_predicates):
            return False
        if depth > 20:
            return True
        leaf = getattr(task, "_fut_waiter", None)
        if leaf is None:
            return True  # runnable
        if isinstance(leaf, asyncio.Task):
            return not self._ignored_task(leaf) and self._task_busy(leaf, depth + 1)
        children = getattr(leaf, "_children", None)
        if children is not None:  # gather()
            return any(
                self._task_busy(c, depth + 1) for c in children if isinstance(c, asyncio.Task) and not self._ignored_task(c)
            )
        chain = _coro_chain(task.get_coro())
        if not chain:
            return True
        keys = [_code_key(code) for code, _ in chain]
        inner_key, inner_frame = keys[-1], chain[-1][1]
        if inner_key == ("asyncio/tasks.py", "sleep"):
            delay = inner_frame.f_locals.get("delay", 0) if inner_frame else 0
            return not (delay and delay > self.busy_sleep_limit)
        if inner_key in (("asyncio/tasks.py", "wait_for"), ("asyncio/tasks.py", "_wait")):
            timeout = inner_frame.f_locals.get("timeout") if inner_frame else 0
            return not (timeout is None or timeout > self.busy_sleep_limit)
        if inner_key in _IDLE_WAITS:
            return False
        quals = [q for _, q in keys]
        if "DiscordWebSocket.poll_event" in quals and "DiscordWebSocket.received_message" not in quals:
            return False  # reading the gateway; unprocessed events are covered by the seq check
        return True

    def _ignored_task(self, task: asyncio.Task) -> bool:
        if task is asyncio.current_task() or task.get_name().startswith("fakediscord"):
            return True
        chain = _coro_chain(task.get_coro())
        if chain and _norm(chain[0][0].co_filename).endswith(("aiohttp/web_protocol.py",)):
            return True  # server side of our own HTTP; covered by the in-flight counter
        # test drivers (tasks inside fake.slash()/wait_idle()/run_bot()...) are not the bot
        return any(code.co_filename == _THIS_FILE for code, _ in chain)

    def _busy_tasks(self) -> list[asyncio.Task]:
        return [t for t in list(self._tracked) if not t.done() and not self._ignored_task(t) and self._task_busy(t)]

    def _busy_reasons(self) -> list[str]:
        reasons = []
        if self._inflight:
            reasons.append(f"{self._inflight} HTTP request(s) in flight")
        if self._own_tasks:
            reasons.append(f"{len(self._own_tasks)} fake dispatch task(s) pending")
        for s in self._live_sessions():
            if self._session_lagging(s):
                reasons.append(f"gateway session {s.id[:8]} has unprocessed events (seq {s.seq})")
        for t in self._busy_tasks():
            reasons.append(f"busy task {t.get_name()!r}: " + " > ".join(q for _, q in map(
                _code_key, [c for c, _ in _coro_chain(t.get_coro())])))
        return reasons

    async def wait_idle(self, timeout: float | None = None) -> None:
        """Wait until the bot has processed everything and has nothing left to do."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (timeout or self.idle_timeout)
        stable = busy = 0
        while True:
            reasons = self._busy_reasons()
            if not reasons:
                busy = 0
                stable += 1
                if stable >= 4:
                    return
            else:
                stable = 0
                busy += 1
                if loop.time() > deadline:
                    stacks = []
                    for t in self._busy_tasks():
                        stacks.append("".join(traceback.format_stack(t.get_stack()[-1])) if t.get_stack() else repr(t))
                    raise IdleTimeout("bot not idle:\n  " + "\n  ".join(reasons) + "\n" + "\n".join(stacks))
            if stable:
                await asyncio.sleep(0 if stable < 2 else 0.002)
            else:  # back off so a spinning check does not starve a rendering thread of the GIL
                await asyncio.sleep(0 if busy < 20 else min(0.01, 0.0005 * busy))

    async def disconnect_bot(self, code: int = 4000, *, timeout: float | None = None) -> None:
        """Drop the bot's gateway connection(s) like Discord sometimes does, then wait until the
        bot has RESUMEd (discord.py resumes on codes other than 1000/4004/4010-4014) and is idle."""
        sessions = self._live_sessions()
        for s in sessions:
            await s.conn.ws.close(code=code)  # type: ignore[union-attr]
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (timeout or self.idle_timeout)
        while not all(s.live for s in sessions):
            if loop.time() > deadline:
                raise IdleTimeout("the bot did not reconnect to the fake gateway")
            await asyncio.sleep(0.005)
        await self.wait_idle()

    def _unretrieved_task_errors(self, since: set) -> list[str]:
        out = []
        for t in list(self._tracked):
            if t.done() and not t.cancelled() and getattr(t, "_log_traceback", False) and id(t) not in since:
                exc = t.exception()  # marks it retrieved
                out.append(f"task {t.get_name()!r} died: " + "".join(traceback.format_exception(exc)))
        return out

    # ---------------------------------------------------------------- interactions (driving API)

    async def slash(self, user: FakeUser, channel: FakeChannel | FakeUser, command: str, /, **options: Any) -> InteractionResult:
        channel = self._resolve_channel(channel)
        data, name = self._command_data(user, channel, command, options, focused=None)
        return await self._interact(2, user, channel, data, command_name=name)

    async def autocomplete(
        self, user: FakeUser, channel: FakeChannel | FakeUser, command: str, focused: str, /, **options: Any
    ) -> list[dict]:
        channel = self._resolve_channel(channel)
        data, name = self._command_data(user, channel, command, options, focused=focused)
        res = await self._interact(4, user, channel, data, command_name=name)
        if res.choices is None:
            raise AssertionError(f"bot did not answer the autocomplete (response type {res.response_type})")
        return res.choices

    async def click(
        self, user: FakeUser, message: FakeMessage | int, custom_id: str | None = None, /, *, label: str | None = None
    ) -> InteractionResult:
        msg = self._resolve_message(message)
        comp = msg.find_component(custom_id, label=label)
        if comp is None or comp.get("type") != 2:
            raise LookupError(
                f"no button {custom_id or label!r} on message {msg.id}; buttons: "
                f"{[(b.get('label'), b.get('custom_id')) for b in msg.buttons]}"
            )
        if comp.get("disabled"):
            raise ValueError(f"button {comp.get('label') or comp.get('custom_id')!r} is disabled")
        if "custom_id" not in comp:
            raise ValueError("link/premium buttons do not create interactions")
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        if "id" in comp:
            data["id"] = comp["id"]
        return await self._interact(3, user, msg.channel, data, message=msg)

    async def select(
        self, user: FakeUser, message: FakeMessage | int, custom_id: str, values: list[Any], /
    ) -> InteractionResult:
        msg = self._resolve_message(message)
        comp = msg.find_component(custom_id)
        if comp is None or comp.get("type") not in (3, 5, 6, 7, 8):
            raise LookupError(f"no select {custom_id!r} on message {msg.id}")
        if comp.get("disabled"):
            raise ValueError(f"select {custom_id!r} is disabled")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise ValueError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": comp["type"]}
        if comp["type"] == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValueError(f"values {bad} not among the options {allowed}")
            data["values"] = list(values)
        else:
            resolved: dict[str, dict] = {}
            data["values"] = [str(_id_of(v)) for v in values]
            for v in values:
                self._resolve_into(resolved, v, msg.channel)
            data["resolved"] = resolved
        return await self._interact(3, user, msg.channel, data, message=msg)

    async def submit_modal(self, user: FakeUser, result: InteractionResult, values: dict[str, str]) -> InteractionResult:
        """Submit the modal the bot answered ``result``'s interaction with."""
        modal = result.modal
        if modal is None:
            raise AssertionError("that interaction was not answered with a modal")
        rows = []
        for comp in modal.get("components", []):
            if comp.get("type") == 1:
                rows.append({"type": 1, "components": [
                    {"type": c["type"], "custom_id": c["custom_id"], "value": values.get(c["custom_id"], c.get("value", ""))}
                    for c in comp.get("components", []) if c.get("type") == 4
                ]})
            elif comp.get("type") == 18 and isinstance(comp.get("component"), dict):
                c = comp["component"]
                sub = {"type": c["type"], "custom_id": c.get("custom_id")}
                if c["type"] == 4:
                    sub["value"] = values.get(c["custom_id"], c.get("value", ""))
                else:
                    sub["values"] = values.get(c["custom_id"], [])
                rows.append({"type": 18, "id": comp.get("id", 0), "component": sub})
        data = {"custom_id": modal["custom_id"], "components": rows}
        it = result.interaction
        return await self._interact(5, user, it.channel, data, message=it.message)

    # ---------------------------------------------------------------- raw interactions (fuzzing)

    async def raw_component(self, user: FakeUser, message: FakeMessage | int, data: dict, /, *,
                            components: list[dict] | None = None) -> InteractionResult:
        """A component interaction with any ``data`` (custom_id, component_type, values...), not
        checked against the message: what a forged or very old client sends. With
        ``components`` the interaction's message carries those instead of its own, as a message
        an older version of the bot posted would (the stored message is left as it is)."""
        msg = self._resolve_message(message)
        if components is not None:
            msg = dataclasses.replace(msg, components=components)
        return await self._interact(3, user, msg.channel, dict(data), message=msg)

    async def dispatch_raw(self, itype: int, user: FakeUser, channel: FakeChannel | FakeUser,
                           data: dict, /, *, message: FakeMessage | None = None,
                           components: list[dict] | None = None) -> FakeInteraction:
        """Send one interaction of type ``itype`` with any ``data`` and return at once, so many
        can be in flight together (``raw_component`` for ``components``). ``await wait_idle()``
        afterwards, then read its ``response_type``, ``original``, ``followups``, ``choices``."""
        if message is not None and components is not None:
            message = dataclasses.replace(message, components=components)
        channel = message.channel if message is not None else self._resolve_channel(channel)
        iid = self.new_id()
        it = FakeInteraction(iid, f"itoken.{iid}.{secrets.token_urlsafe(16)}", itype, user,
                             channel, dict(data), self, message=message, locale=user.locale,
                             command_name=str(data.get("name", "")) if itype in (2, 4) else "")
        self._interactions[iid] = it
        self._interactions_by_token[it.token] = it
        await self._session(channel.guild).dispatch("INTERACTION_CREATE", it.payload())
        return it

    async def slash_nowait(self, user: FakeUser, channel: FakeChannel | FakeUser, command: str, /,
                           **options: Any) -> FakeInteraction:
        """``slash`` without waiting for the bot: send the command and return the
        FakeInteraction at once. For bots in other processes, whose work the fake cannot see:
        ``await interaction.answered.wait()`` (its first callback; ``answered_at``), then read
        ``response_type``, ``original``, ``followups`` as they arrive."""
        channel = self._resolve_channel(channel)
        data, _ = self._command_data(user, channel, command, options, focused=None)
        return await self.dispatch_raw(2, user, channel, data)

    async def raw_command(self, user: FakeUser, channel: FakeChannel | FakeUser, data: dict, /, *,
                          autocomplete: bool = False) -> InteractionResult:
        """A slash command (or, with ``autocomplete``, an autocomplete) interaction with any
        ``data``: names, option types and values Discord would build from commands synced long
        ago, or from no command at all."""
        channel = self._resolve_channel(channel)
        return await self._interact(4 if autocomplete else 2, user, channel, dict(data),
                                    command_name=str(data.get("name", "")))

    async def send(self, user: FakeUser, channel: FakeChannel | FakeUser, content: str) -> FakeMessage:
        """A user posts a plain message (dispatched as MESSAGE_CREATE)."""
        channel = self._resolve_channel(channel)
        msg = FakeMessage(self.new_id(), channel, user, content=content)
        self._store_message(msg)
        await self._flush_own()
        await self._dispatch_message_event("MESSAGE_CREATE", msg)
        await self.wait_idle()
        return msg

    def _resolve_channel(self, channel: FakeChannel | FakeUser) -> FakeChannel:
        return self.dm_channel(channel) if isinstance(channel, FakeUser) else channel

    def _resolve_message(self, message: FakeMessage | int) -> FakeMessage:
        msg = self._messages.get(_id_of(message))
        if msg is None or msg.deleted:
            raise LookupError(f"message {_id_of(message)} does not exist (or was deleted)")
        return msg

    def _find_command(self, channel: FakeChannel, name: str) -> dict | None:
        pools = []
        if channel.guild is not None:
            pools.append(self.guild_commands.get(channel.guild.id, []))
        pools.append(self.global_commands)
        for pool in pools:
            for c in pool:
                if c["name"] == name and c.get("type", 1) == 1:
                    return c
        return None

    def _command_data(self, user: FakeUser, channel: FakeChannel, command: str, options: dict, *, focused: str | None) -> tuple[dict, str]:
        parts = command.split()
        cmd = self._find_command(channel, parts[0])
        if cmd is None:
            names = sorted({c["name"] for c in self.global_commands} | {
                c["name"] for c in self.guild_commands.get(channel.guild.id if channel.guild else 0, [])})
            raise LookupError(f"no synced slash command {parts[0]!r} here; synced: {names}")
        container: dict = cmd
        path: list[dict] = []
        for part in parts[1:]:
            sub = next((o for o in container.get("options", []) if o["name"] == part and o["type"] in (1, 2)), None)
            if sub is None:
                raise LookupError(f"{command!r}: no subcommand {part!r}")
            path.append(sub)
            container = sub
        if any(o["type"] in (1, 2) for o in container.get("options", [])):
            raise LookupError(f"{command!r} needs a subcommand: {[o['name'] for o in container['options']]}")
        if focused is not None and focused not in {o["name"] for o in container.get("options", [])}:
            raise LookupError(f"{command!r} has no option {focused!r}")
        resolved: dict[str, dict] = {}
        built = []
        defs = {o["name"]: o for o in container.get("options", [])}
        unknown = set(options) - set(defs)
        if unknown:
            raise TypeError(f"{command!r} has no option(s) {sorted(unknown)}; options: {sorted(defs)}")
        for name, o in defs.items():
            if name == focused:
                built.append({"name": name, "type": o["type"], "value": str(options.get(name, "")), "focused": True})
                continue
            if name not in options:
                if o.get("required") and focused is None:
                    raise TypeError(f"{command!r}: required option {name!r} missing")
                continue
            built.append({"name": name, "type": o["type"], "value": self._option_value(o, options[name], resolved, channel, focused is None)})
        for sub in reversed(path):
            built = [{"name": sub["name"], "type": sub["type"], "options": built}]
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": built}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data, " ".join(parts)

    def _option_value(self, o: dict, value: Any, resolved: dict, channel: FakeChannel, validate: bool) -> Any:
        t = o["type"]
        name = o["name"]
        if t == 3:
            value = str(value)
            if validate and o.get("min_length") is not None and len(value) < o["min_length"]:
                raise ValueError(f"option {name!r}: shorter than {o['min_length']}")
            if validate and o.get("max_length") is not None and len(value) > o["max_length"]:
                raise ValueError(f"option {name!r}: longer than {o['max_length']}")
        elif t == 4:
            if isinstance(value, bool) or int(value) != value:
                raise TypeError(f"option {name!r} is an integer, got {value!r}")
            value = int(value)
        elif t == 5:
            if not isinstance(value, bool):
                raise TypeError(f"option {name!r} is a boolean, got {value!r}")
        elif t == 10:
            value = float(value)
        elif t in (6, 7, 8, 9, 11):
            self._resolve_into(resolved, value, channel, expect=t)
            return str(_id_of(value))
        if validate and t in (4, 10):
            if o.get("min_value") is not None and value < o["min_value"]:
                raise ValueError(f"option {name!r}: below {o['min_value']}")
            if o.get("max_value") is not None and value > o["max_value"]:
                raise ValueError(f"option {name!r}: above {o['max_value']}")
        if validate and o.get("choices"):
            allowed = [c["value"] for c in o["choices"]]
            if value not in allowed:
                raise ValueError(f"option {name!r}: {value!r} is not one of the choices {allowed}")
        return value

    def _resolve_into(self, resolved: dict, value: Any, channel: FakeChannel, expect: int | None = None) -> None:
        guild = channel.guild
        if isinstance(value, FakeMember):
            value = value.user
        if isinstance(value, int) and value in self.users:
            value = self.users[value]
        if isinstance(value, FakeUser) and expect in (None, 6, 9):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            m = guild.member(value) if guild else None
            if m is not None:
                resolved.setdefault("members", {})[str(value.id)] = m.payload(with_user=False, with_permissions=True)
        elif isinstance(value, FakeRole) and expect in (None, 8, 9):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        elif isinstance(value, FakeChannel) and expect in (None, 7):
            p = value.payload()
            m = guild.member(self.bot_user) if guild else None
            entry = {"id": p["id"], "name": value.name, "type": value.type,
                     "permissions": str(m.permissions() if m else 0), "flags": 0}
            if value.guild is not None:
                entry["guild_id"] = str(value.guild.id)
            resolved.setdefault("channels", {})[str(value.id)] = entry
        elif isinstance(value, FakeAttachment) and expect in (None, 11):
            resolved.setdefault("attachments", {})[str(value.id)] = value.payload()
        else:
            raise TypeError(f"cannot use {value!r} for an option/select of type {expect}")

    async def _interact(
        self, itype: int, user: FakeUser, channel: FakeChannel, data: dict, *, message: FakeMessage | None = None,
        command_name: str = "",
    ) -> InteractionResult:
        if channel.guild is not None and channel.guild.member(user) is None:
            raise ValueError(f"{user.name} is not a member of {channel.guild.name}")
        await self._flush_own()
        session = self._session(channel.guild)
        iid = self.new_id()
        it = FakeInteraction(
            iid, f"itoken.{iid}.{secrets.token_urlsafe(16)}", itype, user, channel, data, self,
            message=message, command_name=command_name, locale=user.locale,
        )
        self._interactions[iid] = it
        self._interactions_by_token[it.token] = it
        ev0, rq0, er0 = len(self._events), len(self.request_log), len(self.errors)
        failed_before = {id(t) for t in self._tracked if t.done()}
        await session.dispatch("INTERACTION_CREATE", it.payload())
        await self.wait_idle()
        errors = self.errors[er0:] + self._unretrieved_task_errors(failed_before)
        events = self._events[ev0:]
        res = InteractionResult(
            it,
            new_messages=_uniq(m for k, m in events if k == "create"),
            edited=_uniq(m for k, m in events if k == "edit"),
            deleted=_uniq(m for k, m in events if k == "delete"),
            errors=errors,
            requests=self.request_log[rq0:],
        )
        if errors and self.raise_bot_errors and not self._expect_errors:
            raise BotError("the bot reported errors while handling the interaction:\n" + "\n".join(errors))
        return res

    # ---------------------------------------------------------------- messages

    def _new_attachment(self, filename: str, data: bytes, content_type: str | None, channel_id: int,
                        description: str | None = None, ephemeral: bool = False) -> FakeAttachment:
        aid = self.new_id()
        ctype = content_type if content_type not in (None, "application/octet-stream") else None
        ctype = ctype or mimetypes.guess_type(filename)[0] or "application/octet-stream"
        a = FakeAttachment(aid, filename, data, f"{self.base_url}/attachments/{channel_id}/{aid}/{filename}",
                           ctype, description, ephemeral)
        self._attachments[aid] = a
        return a

    def _store_message(self, msg: FakeMessage) -> None:
        self._messages[msg.id] = msg
        msg.channel.messages.append(msg)
        self._events.append(("create", msg))

    async def _dispatch_message_event(self, event: str, msg: FakeMessage) -> None:
        if msg.ephemeral:
            return
        intent = Intent.DIRECT_MESSAGES if msg.channel.is_dm else Intent.GUILD_MESSAGES
        for s in self._live_sessions():
            if not self._wants(s, intent) or not s.serves(msg.guild):
                continue
            if event == "MESSAGE_DELETE":
                d = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
            else:
                d = msg.payload(self)
                if msg.guild is not None:
                    m = msg.guild.member(msg.author)
                    if m is not None:
                        d["member"] = m.payload(with_user=False)
                if (
                    not s.intents & Intent.MESSAGE_CONTENT and not msg.channel.is_dm
                    and msg.author is not self.bot_user and self.bot_user.id not in msg.mentions()
                ):
                    d.update(content="", embeds=[], attachments=[], components=[])
            if msg.guild is not None:
                d["guild_id"] = str(msg.guild.id)
            await s.dispatch(event, d)

    def _attachments_from(self, payload: dict, files: list, channel: FakeChannel, existing: list[FakeAttachment],
                          ephemeral: bool, editing: bool) -> list[FakeAttachment]:
        by_index = {idx: (fn, data, ct) for idx, fn, data, ct in files}
        if "attachments" in payload and payload["attachments"] is not None:
            out = []
            old = {a.id: a for a in existing}
            for ent in payload["attachments"]:
                aid = int(ent["id"])
                if aid in by_index:
                    fn, data, ct = by_index.pop(aid)
                    out.append(self._new_attachment(ent.get("filename") or fn, data, ct, channel.id,
                                                    ent.get("description"), ephemeral))
                elif aid in old:
                    out.append(old[aid])
                else:
                    raise _HTTPError(400, 50035, "Invalid Form Body", {"attachments": f"unknown attachment id {aid}"})
            for idx, (fn, data, ct) in sorted(by_index.items()):  # files not listed: still uploaded
                out.append(self._new_attachment(fn, data, ct, channel.id, None, ephemeral))
        else:
            out = list(existing) if editing else []
            for idx, (fn, data, ct) in sorted(by_index.items()):
                out.append(self._new_attachment(fn, data, ct, channel.id, None, ephemeral))
        for a in out:
            if a.size > ATTACHMENT_SIZE_LIMIT:
                raise _HTTPError(413, 40005, "Request entity too large")
        return out

    def _resolve_embeds(self, embeds: list[dict], attachments: list[FakeAttachment]) -> list[dict]:
        out = []
        by_name = {a.filename: a for a in attachments}
        for e in embeds or []:
            e = json.loads(json.dumps(e))
            e.setdefault("type", "rich")
            for key in ("image", "thumbnail"):
                sub = e.get(key)
                if isinstance(sub, dict) and str(sub.get("url", "")).startswith("attachment://"):
                    a = by_name.get(sub["url"][len("attachment://"):])
                    if a is not None:
                        sub.update(url=a.url, proxy_url=a.url)
                        if a.image_size:
                            sub["width"], sub["height"] = a.image_size
            out.append(e)
        return out

    def _new_message_from(self, channel: FakeChannel, author: FakeUser, payload: dict, files: list, *,
                          interaction: FakeInteraction | None = None, ephemeral: bool = False, mtype: int = 0) -> FakeMessage:
        flags = int(payload.get("flags") or 0) & ((1 << 2) | (1 << 12) | (1 << 15))
        if ephemeral:
            flags |= 64
        atts = self._attachments_from(payload, files, channel, [], ephemeral, editing=False)
        embeds = self._resolve_embeds(payload.get("embeds") or [], atts)
        content = payload.get("content") or ""
        comps = payload.get("components") or []
        if not (content or embeds or atts or comps or payload.get("sticker_ids") or payload.get("poll")):
            raise _HTTPError(400, 50006, "Cannot send an empty message")
        msg = FakeMessage(
            self.new_id(), channel, author, content=str(content), embeds=embeds, attachments=atts,
            components=comps, flags=flags, type=mtype, tts=bool(payload.get("tts")),
            webhook_id=self.application_id if interaction is not None else None, interaction=interaction,
            message_reference=payload.get("message_reference"),
        )
        if msg.message_reference:
            msg.type = 19
        return msg

    def _edit_message(self, msg: FakeMessage, payload: dict, files: list) -> None:
        if "attachments" in payload or files:
            msg.attachments = self._attachments_from(payload, files, msg.channel, msg.attachments, msg.ephemeral, editing=True)
        if "content" in payload:
            msg.content = payload["content"] or ""
        if "embeds" in payload:
            msg.embeds = self._resolve_embeds(payload["embeds"] or [], msg.attachments)
        if "components" in payload:
            msg.components = payload["components"] or []
        if payload.get("flags") is not None:
            msg.flags = (msg.flags & ~4) | (int(payload["flags"]) & 4)
        msg.flags &= ~128
        msg.edited_at = _now_iso()
        self._events.append(("edit", msg))

    # ---------------------------------------------------------------- HTTP plumbing

    def _build_routes(self) -> list[tuple[str, re.Pattern, Any, bool]]:
        S = r"(?P<{}>\d+)"
        raw = [
            ("GET", "/users/@me", self._r_me, True),
            ("GET", f"/users/{S.format('user_id')}", self._r_user, True),
            ("POST", "/users/@me/channels", self._r_open_dm, True),
            ("GET", "/gateway", self._r_gateway, False),
            ("GET", "/gateway/bot", self._r_gateway_bot, True),
            ("GET", "/oauth2/applications/@me", self._r_app, True),
            ("GET", "/applications/@me", self._r_app, True),
            ("GET", f"/applications/{S.format('app')}/commands", self._r_cmds_get, True),
            ("PUT", f"/applications/{S.format('app')}/commands", self._r_cmds_put, True),
            ("POST", f"/applications/{S.format('app')}/commands", self._r_cmd_post, True),
            ("GET", f"/applications/{S.format('app')}/commands/{S.format('cmd')}", self._r_cmd_get, True),
            ("PATCH", f"/applications/{S.format('app')}/commands/{S.format('cmd')}", self._r_cmd_patch, True),
            ("DELETE", f"/applications/{S.format('app')}/commands/{S.format('cmd')}", self._r_cmd_delete, True),
            ("GET", f"/applications/{S.format('app')}/guilds/{S.format('guild')}/commands", self._r_cmds_get, True),
            ("PUT", f"/applications/{S.format('app')}/guilds/{S.format('guild')}/commands", self._r_cmds_put, True),
            ("POST", f"/applications/{S.format('app')}/guilds/{S.format('guild')}/commands", self._r_cmd_post, True),
            ("GET", f"/applications/{S.format('app')}/guilds/{S.format('guild')}/commands/permissions", self._r_empty_list, True),
            ("GET", f"/applications/{S.format('app')}/guilds/{S.format('guild')}/commands/{S.format('cmd')}", self._r_cmd_get, True),
            ("PATCH", f"/applications/{S.format('app')}/guilds/{S.format('guild')}/commands/{S.format('cmd')}", self._r_cmd_patch, True),
            ("DELETE", f"/applications/{S.format('app')}/guilds/{S.format('guild')}/commands/{S.format('cmd')}", self._r_cmd_delete, True),
            ("GET", f"/channels/{S.format('channel')}", self._r_channel, True),
            ("GET", f"/channels/{S.format('channel')}/messages", self._r_history, True),
            ("POST", f"/channels/{S.format('channel')}/messages", self._r_post_message, True),
            ("GET", f"/channels/{S.format('channel')}/messages/{S.format('message')}", self._r_get_message, True),
            ("PATCH", f"/channels/{S.format('channel')}/messages/{S.format('message')}", self._r_edit_message, True),
            ("DELETE", f"/channels/{S.format('channel')}/messages/{S.format('message')}", self._r_delete_message, True),
            ("POST", f"/channels/{S.format('channel')}/messages/bulk-delete", self._r_bulk_delete, True),
            ("POST", f"/channels/{S.format('channel')}/typing", self._r_no_content, True),
            ("POST", f"/channels/{S.format('channel')}/threads", self._r_create_thread, True),
            ("PUT", f"/channels/{S.format('channel')}/messages/{S.format('message')}/reactions/(?P<emoji>[^/]+)/@me", self._r_react, True),
            ("DELETE", f"/channels/{S.format('channel')}/messages/{S.format('message')}/reactions/(?P<emoji>[^/]+)/@me", self._r_unreact, True),
            ("DELETE", f"/channels/{S.format('channel')}/messages/{S.format('message')}/reactions", self._r_clear_reactions, True),
            ("GET", f"/guilds/{S.format('guild')}", self._r_guild, True),
            ("GET", f"/guilds/{S.format('guild')}/channels", self._r_guild_channels, True),
            ("GET", f"/guilds/{S.format('guild')}/roles", self._r_guild_roles, True),
            ("GET", f"/guilds/{S.format('guild')}/members", self._r_guild_members, True),
            ("GET", f"/guilds/{S.format('guild')}/members/{S.format('user_id')}", self._r_guild_member, True),
            ("POST", f"/interactions/{S.format('iid')}/(?P<token>[^/]+)/callback", self._r_callback, False),
            ("POST", f"/webhooks/{S.format('app')}/(?P<token>[^/]+)", self._r_followup, False),
            ("GET", f"/webhooks/{S.format('app')}/(?P<token>[^/]+)/messages/(?P<message>@original|\\d+)", self._r_wh_get, False),
            ("PATCH", f"/webhooks/{S.format('app')}/(?P<token>[^/]+)/messages/(?P<message>@original|\\d+)", self._r_wh_edit, False),
            ("DELETE", f"/webhooks/{S.format('app')}/(?P<token>[^/]+)/messages/(?P<message>@original|\\d+)", self._r_wh_delete, False),
        ]
        return [(m, re.compile(p + "$"), h, auth) for m, p, h, auth in raw]

    @staticmethod
    def _json(data: Any, status: int = 200) -> web.Response:
        # body= (not text=) so aiohttp does not append "; charset=utf-8": discord.py only parses
        # JSON when Content-Type is exactly "application/json".
        return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json")

    async def _http(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        if request.method == "GET" and path.startswith("/attachments/"):
            m = re.match(r"^/attachments/\d+/(\d+)/", path)
            a = self._attachments.get(int(m.group(1))) if m else None
            if a is None:
                return web.Response(status=404)
            return web.Response(body=a.data, content_type=a.content_type or "application/octet-stream")
        api = re.match(r"^/api/v\d+(/.*)$", path)
        sub = api.group(1) if api else path
        rec = RequestRecord(request.method, sub, dict(request.query))
        self.request_log.append(rec)
        self._inflight += 1
        try:
            resp = await self._route(request, sub, rec)
        finally:
            self._inflight -= 1
        rec.status = resp.status
        return resp

    async def _route(self, request: web.Request, sub: str, rec: RequestRecord) -> web.StreamResponse:
        for method, rx, handler, auth in self._routes:
            if method != request.method:
                continue
            m = rx.match(sub)
            if not m:
                continue
            if auth and request.headers.get("Authorization") != f"Bot {self.token}":
                return self._json({"message": "401: Unauthorized", "code": 0}, 401)
            headers: dict[str, str] = {}
            if self.rate_limiter and handler != self._r_callback:
                headers, refused = self.rate_limiter.take(request.method, sub, rx.pattern,
                                                          m.groupdict())
                if refused is not None:
                    return refused
            response = await self._answer(request, sub, rec, handler, m)
            response.headers.update(headers)
            return response
        self.unknown_routes.append((request.method, sub))
        log.error("fakediscord: UNKNOWN ROUTE %s %s (not implemented by the fake)", request.method, sub)
        return self._json({"message": f"404: Not Found (fakediscord has no route {request.method} {sub})", "code": 0}, 404)

    async def _answer(self, request: web.Request, sub: str, rec: RequestRecord, handler: Any,
                      m: re.Match) -> web.StreamResponse:
        """Run the handler; an error it raises becomes Discord's JSON error answer."""
        try:
            payload, files = await self._read_body(request)
            rec.payload, rec.files = pseudo.plain(payload), [f[1] for f in files]
            self._check_schema(request.method, sub, payload)
            payload = rec.payload  # tests read English; the markers were checked
            injected = self._injected_failure(request.method, sub)
            if injected is not None:
                raise injected
            result = await handler(request, payload, files, **m.groupdict())
        except _HTTPError as e:
            body: dict[str, Any] = {"message": e.message, "code": e.code}
            if e.errors is not None:
                body["errors"] = e.errors
                log.warning("fakediscord: %s %s -> %s %s", request.method, sub, e.status, body)
            return self._json(body, e.status)
        except Exception:
            log.exception("fakediscord: internal error handling %s %s", request.method, sub)
            return self._json({"message": "fakediscord internal error", "code": 0}, 400)
        if result is None:
            return web.Response(status=204)
        if isinstance(result, web.StreamResponse):
            return result
        return self._json(result)

    def _check_schema(self, method: str, sub: str, payload: Any) -> None:
        """Refuse, record and report a body Discord would refuse (see tests/discord_schema.py)."""
        problems = discord_schema.check_request(method, sub, payload)
        if not problems:
            pseudo.check(method, sub, payload, self._names())
            return
        violation = SchemaViolation(method, sub, payload, problems, expected=bool(self._expect_invalid))
        self.schema_violations.append(violation)
        if not violation.expected:
            UNEXPECTED_VIOLATIONS.append(violation)
            log.error("fakediscord: Discord would refuse %s", violation)
        raise _HTTPError(400, 50035, "Invalid Form Body", discord_schema.form_errors(problems))

    def _names(self) -> list[str]:
        """The names a message may show as they are: people's, servers' and channels'."""
        names = [n for u in self.users.values() for n in (u.name, u.global_name) if n]
        names += [m.nick for g in self.guilds.values() for m in g.members.values()
                  if getattr(m, "nick", None)]
        names += [g.name for g in self.guilds.values()] + [c.name for c in self.channels.values()]
        return names

    @contextlib.contextmanager
    def expect_invalid_requests(self) -> Iterator[list["SchemaViolation"]]:
        """Within this block a body Discord would refuse is still refused and recorded (in the
        yielded list, filled when the block ends) but neither logged as a bot error nor failing
        the test."""
        self._expect_invalid += 1
        first = len(self.schema_violations)
        seen: list[SchemaViolation] = []
        try:
            yield seen
        finally:
            self._expect_invalid -= 1
            seen.extend(self.schema_violations[first:])

    @staticmethod
    async def _read_body(request: web.Request) -> tuple[Any, list]:
        files: list[tuple[int, str, bytes, str | None]] = []
        if not request.can_read_body:
            return None, files
        ctype = request.content_type
        if ctype == "application/json":
            return await request.json(), files
        if ctype.startswith("multipart/"):
            payload = None
            reader = await request.multipart()
            async for part in reader:  # type: ignore[union-attr]
                data = await part.read()  # type: ignore[union-attr]
                if part.name == "payload_json":
                    payload = json.loads(data)
                    continue
                m = re.fullmatch(r"files\[(\d+)\]|file(\d*)", part.name or "")
                if m is None:
                    log.error("fakediscord: unexpected multipart field %r", part.name)
                    continue
                idx = int(m.group(1) or m.group(2) or 0)
                files.append((idx, part.filename or f"file{idx}", bytes(data), part.headers.get("Content-Type")))
            return payload, files
        body = await request.read()
        return (json.loads(body) if body else None), files

    def _channel_or_404(self, channel: str) -> FakeChannel:
        c = self.channels.get(int(channel))
        if c is None:
            raise _HTTPError(404, 10003, "Unknown Channel")
        return c

    def _message_or_404(self, channel: FakeChannel, message: str) -> FakeMessage:
        m = self._messages.get(int(message))
        if m is None or m.deleted or m.channel is not channel or m.ephemeral:
            raise _HTTPError(404, 10008, "Unknown Message")
        return m

    def _bot_perms_in(self, channel: FakeChannel) -> int:
        if channel.guild is None:
            return Perm.EVERYONE_DEFAULT
        perms = self.bot_member(channel.guild).permissions()
        overwrite = (channel.parent or channel).bot_overwrite
        if overwrite is not None:
            perms = (perms & ~overwrite[2]) | overwrite[1]
        return perms

    # ---- users / app / gateway

    async def _r_me(self, request, payload, files):
        return {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "locale": "en-US", "email": None}

    async def _r_user(self, request, payload, files, user_id):
        u = self.users.get(int(user_id))
        if u is None:
            raise _HTTPError(404, 10013, "Unknown User")
        return u.payload()

    async def _r_open_dm(self, request, payload, files):
        u = self.users.get(int(payload["recipient_id"]))
        if u is None:
            raise _HTTPError(400, 50035, "Invalid Form Body", {"recipient_id": "unknown user"})
        return self.dm_channel(u).payload()

    async def _r_gateway(self, request, payload, files):
        return {"url": self.gateway_url}

    async def _r_gateway_bot(self, request, payload, files):
        return {
            "url": self.gateway_url,
            "shards": 1,
            "session_start_limit": {"total": 1000, "remaining": 999, "reset_after": 14400000, "max_concurrency": 1},
        }

    async def _r_app(self, request, payload, files):
        owner = self.users[next(iter(self.guilds.values())).owner_id] if self.guilds else self.bot_user
        return {
            "id": str(self.application_id),
            "name": self.bot_user.name,
            "icon": None,
            "description": "",
            "summary": "",
            "type": None,
            "bot_public": True,
            "bot_require_code_grant": False,
            "verify_key": "0" * 64,
            "flags": 0,
            "owner": owner.payload(),
            "team": None,
            "bot": self.bot_user.payload(),
            "redirect_uris": [],
            "interactions_endpoint_url": None,
            "integration_types_config": {"0": {}},
        }

    async def _r_empty_list(self, request, payload, files, **kw):
        return []

    async def _r_no_content(self, request, payload, files, **kw):
        return None

    # ---- application commands

    def _cmd_pool(self, app: str, guild: str | None) -> list[dict]:
        if int(app) != self.application_id:
            raise _HTTPError(403, 50001, "Missing Access")
        if guild is None:
            return self.global_commands
        if int(guild) not in self.guilds:
            raise _HTTPError(404, 10004, "Unknown Guild")
        return self.guild_commands.setdefault(int(guild), [])

    def _store_command(self, pool: list[dict], c: dict, guild: str | None, keep_id: str | None = None) -> dict:
        t = c.get("type", 1)
        existing = next((x for x in pool if x["name"] == c["name"] and x.get("type", 1) == t), None)
        cid = keep_id or (existing["id"] if existing else str(self.new_id()))
        stored = {
            "id": cid,
            "application_id": str(self.application_id),
            "version": str(self.new_id()),
            "type": t,
            "name": c["name"],
            "name_localizations": c.get("name_localizations"),
            "description": c.get("description", ""),
            "description_localizations": c.get("description_localizations"),
            "options": c.get("options") or [],
            "default_member_permissions": c.get("default_member_permissions"),
            "dm_permission": c.get("dm_permission", True),
            "contexts": c.get("contexts"),
            "integration_types": c.get("integration_types", [0]),
            "nsfw": c.get("nsfw", False),
        }
        if guild is not None:
            stored["guild_id"] = str(guild)
        if existing is not None:
            pool[pool.index(existing)] = stored
        else:
            pool.append(stored)
        return stored

    async def _r_cmds_get(self, request, payload, files, app, guild=None):
        return self._cmd_pool(app, guild)

    async def _r_cmds_put(self, request, payload, files, app, guild=None):
        pool = self._cmd_pool(app, guild)
        if len(payload) > 100:
            raise _HTTPError(400, 30032, "Maximum number of application commands reached (100)")
        old = list(pool)
        new: list[dict] = []
        for c in payload:
            prev = next((x for x in old if x["name"] == c["name"] and x.get("type", 1) == c.get("type", 1)), None)
            self._store_command(new, c, guild, keep_id=prev["id"] if prev else None)
        pool[:] = new
        return pool

    async def _r_cmd_post(self, request, payload, files, app, guild=None):
        return self._store_command(self._cmd_pool(app, guild), payload, guild)

    def _cmd_or_404(self, pool: list[dict], cmd: str) -> dict:
        c = next((x for x in pool if x["id"] == cmd), None)
        if c is None:
            raise _HTTPError(404, 10063, "Unknown application command")
        return c

    async def _r_cmd_get(self, request, payload, files, app, cmd, guild=None):
        return self._cmd_or_404(self._cmd_pool(app, guild), cmd)

    async def _r_cmd_patch(self, request, payload, files, app, cmd, guild=None):
        pool = self._cmd_pool(app, guild)
        c = self._cmd_or_404(pool, cmd)
        return self._store_command(pool, {**c, **payload}, guild, keep_id=c["id"])

    async def _r_cmd_delete(self, request, payload, files, app, cmd, guild=None):
        pool = self._cmd_pool(app, guild)
        pool.remove(self._cmd_or_404(pool, cmd))
        return None

    # ---- channels & messages

    async def _r_channel(self, request, payload, files, channel):
        c = self._channel_or_404(channel)
        return c.payload()

    async def _r_history(self, request, payload, files, channel):
        c = self._channel_or_404(channel)
        q = request.query
        msgs = [m for m in c.messages if not m.deleted and not m.ephemeral]
        if "before" in q:
            msgs = [m for m in msgs if m.id < int(q["before"])]
        if "after" in q:
            msgs = [m for m in msgs if m.id > int(q["after"])]
        if "around" in q:
            msgs = [m for m in msgs if m.id == int(q["around"])] or msgs
        msgs.sort(key=lambda m: m.id, reverse=True)
        limit = int(q.get("limit", 50))
        if "after" in q:
            msgs = sorted(msgs, key=lambda m: m.id)[:limit]
            msgs.reverse()
        else:
            msgs = msgs[:limit]
        return [m.payload(self) for m in msgs]

    async def _r_post_message(self, request, payload, files, channel):
        c = self._channel_or_404(channel)
        payload = payload or {}
        if c.is_dm:
            if c.recipient is None or not c.recipient.dms_open or c.recipient.bot:
                raise _HTTPError(403, 50007, "Cannot send messages to this user")
        else:
            perms = self._bot_perms_in(c)
            send = Perm.SEND_MESSAGES_IN_THREADS if c.is_thread else Perm.SEND_MESSAGES
            if not perms & Perm.VIEW_CHANNEL or not perms & send:
                raise _HTTPError(403, 50013, "Missing Permissions")
            if files and not perms & Perm.ATTACH_FILES:
                raise _HTTPError(403, 50013, "Missing Permissions")
        msg = self._new_message_from(c, self.bot_user, payload, files)
        self._store_message(msg)
        await self._dispatch_message_event("MESSAGE_CREATE", msg)
        return msg.payload(self)

    async def _r_create_thread(self, request, payload, files, channel):
        """A public thread without a starter message (POST /channels/{id}/threads)."""
        parent = self._channel_or_404(channel)  # the body was checked against the schema
        if parent.is_dm or parent.is_thread or parent.type != 0:
            raise _HTTPError(400, 50024, "Cannot execute action on this channel type")
        if payload.get("type") not in (None, 11):
            raise _HTTPError(400, 50035, "Invalid Form Body", {"type": "only public threads"})
        perms = self._bot_perms_in(parent)
        if not perms & Perm.VIEW_CHANNEL or not perms & Perm.CREATE_PUBLIC_THREADS:
            raise _HTTPError(403, 50013, "Missing Permissions")
        thread = FakeChannel(self.new_id(), payload["name"], 11, parent.guild, parent=parent,
                             owner_id=self.bot_user.id,
                             auto_archive_duration=payload.get("auto_archive_duration") or 1440)
        self.channels[thread.id] = thread
        parent.guild.threads.append(thread)
        data = thread.payload()
        await self._dispatch("THREAD_CREATE", {**data, "newly_created": True}, guild=parent.guild)
        return self._json(data, 201)

    async def _r_get_message(self, request, payload, files, channel, message):
        return self._message_or_404(self._channel_or_404(channel), message).payload(self)

    async def _r_edit_message(self, request, payload, files, channel, message):
        msg = self._message_or_404(self._channel_or_404(channel), message)
        if msg.author is not self.bot_user:
            raise _HTTPError(403, 50005, "Cannot edit a message authored by another user")
        self._edit_message(msg, payload or {}, files)
        await self._dispatch_message_event("MESSAGE_UPDATE", msg)
        return msg.payload(self)

    async def _delete(self, msg: FakeMessage) -> None:
        msg.deleted = True
        self._events.append(("delete", msg))
        await self._dispatch_message_event("MESSAGE_DELETE", msg)

    async def _r_delete_message(self, request, payload, files, channel, message):
        c = self._channel_or_404(channel)
        msg = self._message_or_404(c, message)
        if msg.author is not self.bot_user and (c.is_dm or not self._bot_perms_in(c) & Perm.MANAGE_MESSAGES):
            raise _HTTPError(403, 50013, "Missing Permissions")
        await self._delete(msg)
        return None

    async def _r_bulk_delete(self, request, payload, files, channel):
        c = self._channel_or_404(channel)
        if c.is_dm or not self._bot_perms_in(c) & Perm.MANAGE_MESSAGES:
            raise _HTTPError(403, 50013, "Missing Permissions")
        for mid in payload.get("messages", []):
            await self._delete(self._message_or_404(c, mid))
        return None

    async def _r_react(self, request, payload, files, channel, message, emoji):
        msg = self._message_or_404(self._channel_or_404(channel), message)
        msg.reactions.setdefault(unquote(emoji), set()).add(self.bot_user.id)
        return None

    async def _r_unreact(self, request, payload, files, channel, message, emoji):
        msg = self._message_or_404(self._channel_or_404(channel), message)
        msg.reactions.get(unquote(emoji), set()).discard(self.bot_user.id)
        return None

    async def _r_clear_reactions(self, request, payload, files, channel, message):
        msg = self._message_or_404(self._channel_or_404(channel), message)
        msg.reactions.clear()
        return None

    # ---- guilds

    def _guild_or_404(self, guild: str) -> FakeGuild:
        g = self.guilds.get(int(guild))
        if g is None:
            raise _HTTPError(404, 10004, "Unknown Guild")
        return g

    async def _r_guild(self, request, payload, files, guild):
        g = self._guild_or_404(guild)
        d = g.payload()
        if request.query.get("with_counts") in ("1", "true"):
            d.update(approximate_member_count=len(g.members), approximate_presence_count=0)
        return d

    async def _r_guild_channels(self, request, payload, files, guild):
        return [c.payload() for c in self._guild_or_404(guild).channels]

    async def _r_guild_roles(self, request, payload, files, guild):
        return [r.payload() for r in self._guild_or_404(guild).roles]

    async def _r_guild_members(self, request, payload, files, guild):
        g = self._guild_or_404(guild)
        after = int(request.query.get("after", 0))
        limit = int(request.query.get("limit", 1))
        ms = sorted((m for m in g.members.values() if m.user.id > after), key=lambda m: m.user.id)
        return [m.payload() for m in ms[:limit]]

    async def _r_guild_member(self, request, payload, files, guild, user_id):
        m = self._guild_or_404(guild).members.get(int(user_id))
        if m is None:
            raise _HTTPError(404, 10007, "Unknown Member")
        return m.payload()

    # ---- interactions

    _ALLOWED_CALLBACKS = {2: {4, 5, 9}, 3: {4, 5, 6, 7, 9}, 4: {8}, 5: {4, 5, 6, 7}}

    async def _r_callback(self, request, payload, files, iid, token):
        it = self._interactions.get(int(iid))
        if it is None or it.token != token:
            raise _HTTPError(404, 10062, "Unknown interaction")
        if it.response_type is not None:
            raise _HTTPError(400, 40060, "Interaction has already been acknowledged.")
        t = int(payload["type"])
        data = payload.get("data") or {}
        if t not in self._ALLOWED_CALLBACKS.get(it.type, set()) or (t in (6, 7) and it.message is None):
            raise _HTTPError(400, 50035, "Invalid Form Body", {"type": f"callback type {t} not valid for interaction type {it.type}"})
        ephemeral = bool(int(data.get("flags") or 0) & 64)
        if t == 4:
            msg = self._new_message_from(it.channel, self.bot_user, data, files, interaction=it, ephemeral=ephemeral,
                                         mtype=20 if it.type == 2 else 0)
            self._store_message(msg)
            it.original = msg
        elif t == 5:
            msg = FakeMessage(self.new_id(), it.channel, self.bot_user, flags=128 | (64 if ephemeral else 0),
                              type=20 if it.type == 2 else 0, webhook_id=self.application_id, interaction=it)
            self._store_message(msg)
            it.original = msg
        elif t in (6, 7):
            it.original = it.message
            if t == 7:
                self._edit_message(it.message, data, files)  # type: ignore[arg-type]
        elif t == 8:
            it.choices = data.get("choices") or []
        elif t == 9:
            it.modal = data
        it.response_type = t
        it.answered_at = time.perf_counter()
        it.answered.set()
        if t in (4, 5):
            await self._dispatch_message_event("MESSAGE_CREATE", it.original)  # type: ignore[arg-type]
        elif t == 7:
            await self._dispatch_message_event("MESSAGE_UPDATE", it.original)  # type: ignore[arg-type]
        if request.query.get("with_response") not in ("1", "true", "True"):
            return None
        inter: dict[str, Any] = {"id": str(it.id), "type": it.type}
        out: dict[str, Any] = {"interaction": inter}
        if it.original is not None and t in (4, 5, 6, 7):
            inter.update(
                response_message_id=str(it.original.id),
                response_message_loading=t == 5,
                response_message_ephemeral=it.original.ephemeral,
            )
        if t in (4, 5, 7):
            out["resource"] = {"type": t, "message": it.original.payload(self)}  # type: ignore[union-attr]
        return out

    def _webhook_interaction(self, app: str, token: str) -> FakeInteraction:
        it = self._interactions_by_token.get(token)
        if it is None or int(app) != self.application_id or it.response_type is None:
            raise _HTTPError(404, 10015, "Unknown Webhook")
        return it

    def _webhook_message(self, it: FakeInteraction, message: str) -> FakeMessage:
        if message == "@original":
            msg = it.original
        else:
            msg = self._messages.get(int(message))
            if msg is not None and msg.interaction is not it and msg is not it.original:
                msg = None
        if msg is None or msg.deleted:
            raise _HTTPError(404, 10008, "Unknown Message")
        return msg

    async def _r_followup(self, request, payload, files, app, token):
        it = self._webhook_interaction(app, token)
        payload = payload or {}
        orig = it.original
        if orig is not None and orig.loading and it.response_type == 5:
            # Discord: the first followup after a deferred ("thinking") response replaces it
            self._edit_message(orig, {k: v for k, v in payload.items() if k != "flags"}, files)
            it.followups.append(orig)
            await self._dispatch_message_event("MESSAGE_UPDATE", orig)
            msg = orig
        else:
            ephemeral = bool(int(payload.get("flags") or 0) & 64)
            msg = self._new_message_from(it.channel, self.bot_user, payload, files, interaction=it, ephemeral=ephemeral,
                                         mtype=20 if it.type == 2 else 0)
            self._store_message(msg)
            it.followups.append(msg)
            await self._dispatch_message_event("MESSAGE_CREATE", msg)
        if request.query.get("wait") in ("1", "true", "True"):
            return msg.payload(self)
        return None

    async def _r_wh_get(self, request, payload, files, app, token, message):
        return self._webhook_message(self._webhook_interaction(app, token), message).payload(self)

    async def _r_wh_edit(self, request, payload, files, app, token, message):
        msg = self._webhook_message(self._webhook_interaction(app, token), message)
        self._edit_message(msg, payload or {}, files)
        await self._dispatch_message_event("MESSAGE_UPDATE", msg)
        return msg.payload(self)

    async def _r_wh_delete(self, request, payload, files, app, token, message):
        msg = self._webhook_message(self._webhook_interaction(app, token), message)
        await self._delete(msg)
        return None


def _uniq(items: Iterable[FakeMessage]) -> list[FakeMessage]:
    out: list[FakeMessage] = []
    for m in items:
        if m not in out:
            out.append(m)
    return out


# --------------------------------------------------------------------------------------------
# Running a discord.py bot against the fake
# --------------------------------------------------------------------------------------------


@contextlib.asynccontextmanager
async def run_bot(bot: Any, fake: FakeDiscord, *, token: str | None = None, timeout: float = 30.0,
                  fast_ready: bool = True):
    """Start ``bot`` (a discord.py Client/Bot, not yet started) against ``fake``; stop it on exit.

    Waits until on_ready fired, every fake guild is available in the bot's cache and the bot is
    idle (so commands synced in setup_hook/on_ready are stored).  ``fast_ready`` lowers
    discord.py's ``guild_ready_timeout`` (2 s of waiting for more GUILD_CREATEs) to 0.05 s; the fake
    sends all GUILD_CREATEs right after READY and a late one would still arrive as guild_available.
    """
    import yarl
    from discord.gateway import DiscordWebSocket
    from discord.http import Route

    old_base, old_gateway = Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY
    Route.BASE = fake.api_base
    DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(fake.gateway_url)
    if fast_ready:
        bot._connection.guild_ready_timeout = min(bot._connection.guild_ready_timeout, 0.05)
    fake.attach(bot)
    er0 = len(fake.errors)
    task = asyncio.create_task(bot.start(token or fake.token), name="bot.start")
    try:
        ready = asyncio.create_task(bot.wait_until_ready(), name="fakediscord: wait_until_ready")
        done, _ = await asyncio.wait({task, ready}, timeout=timeout, return_when=asyncio.FIRST_COMPLETED)
        if task in done:
            ready.cancel()
            task.result()
            raise RuntimeError("bot.start() returned before the bot became ready")
        if ready not in done:
            ready.cancel()
            raise IdleTimeout(f"bot not ready after {timeout}s; errors: {fake.errors[er0:]}")
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        shards = getattr(bot, "shard_ids", None) or range(getattr(bot, "shard_count", None) or 1)
        count = getattr(bot, "shard_count", None) or 1
        ours = [g for g in fake.guilds if (g >> 22) % count in shards]  # the bot's shards' guilds
        while any(bot.get_guild(g) is None or bot.get_guild(g).unavailable for g in ours):
            if loop.time() > deadline:
                raise IdleTimeout("bot did not receive all guilds")
            await asyncio.sleep(0.005)
        await fake.wait_idle()
        if fake.errors[er0:] and fake.raise_bot_errors and not fake._expect_errors:
            raise BotError("the bot reported errors during startup:\n" + "\n".join(fake.errors[er0:]))
        yield bot
    finally:
        with contextlib.suppress(Exception):
            await bot.close()
        try:
            await asyncio.wait_for(task, timeout)
        except (asyncio.CancelledError, Exception) as e:  # noqa: BLE001
            if not isinstance(e, asyncio.CancelledError):
                log.warning("fakediscord: bot.start() ended with %r", e)
        fake.detach(bot)
        Route.BASE, DiscordWebSocket.DEFAULT_GATEWAY = old_base, old_gateway
