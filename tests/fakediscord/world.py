"""The Discord world the fake keeps in memory: users, roles, members, channels (text, DM and
thread) and guilds, each with the JSON payload Discord sends for it."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import TYPE_CHECKING, Any

from tests.fakediscord.flags import Perm

if TYPE_CHECKING:
    from tests.fakediscord.events import FakeScheduledEvent
    from tests.fakediscord.messages import FakeMessage


def _now_iso() -> str:
    return datetime.now(timezone.utc).isoformat()


def _id_of(obj: Any) -> int:
    return int(getattr(obj, "id", obj))


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
            "primary_guild": None,
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
    # a thread's members: user id -> when they joined (ISO 8601)
    thread_members: dict[int, str] = field(default_factory=dict, repr=False)

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
                    "member_count": len(self.thread_members),
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
    scheduled_events: dict[int, "FakeScheduledEvent"] = field(default_factory=dict, repr=False)
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
                    "guild_scheduled_events": [e.payload() for e in self.scheduled_events.values()],
                    "soundboard_sounds": [],
                }
            )
        return d
