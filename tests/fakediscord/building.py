"""Building the world: ids as Discord makes them (snowflakes), users, guilds, channels, roles,
members, the bot's permission overwrites, DM channels and uploaded files; each change is
dispatched to a connected bot as Discord would."""

from __future__ import annotations

import time
from typing import Any, Iterable

from tests.fakediscord.flags import Intent, Perm, _perm_value
from tests.fakediscord.messages import FakeAttachment
from tests.fakediscord.world import FakeChannel, FakeGuild, FakeMember, FakeRole, FakeUser

DISCORD_EPOCH = 1420070400000


class WorldBuilding:
    """The world-building half of the driving API."""

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

    def set_bot_permissions(self, guild: FakeGuild, permissions: Any) -> FakeRole:
        """What the bot's own role in `guild` allows from now on (GUILD_ROLE_UPDATE), as a
        server admin edits it: e.g. ``Perm.BOT_DEFAULT`` without any events permission."""
        role = next(r for r in self.bot_member(guild).roles if r.managed)
        role.permissions = _perm_value(permissions)
        self._dispatch_soon(
            "GUILD_ROLE_UPDATE", lambda: {"guild_id": str(guild.id), "role": role.payload()}, guild=guild
        )
        return role

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
