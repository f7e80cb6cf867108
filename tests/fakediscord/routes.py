"""The REST routes the bot uses, as Discord answers them: users and the application, application
commands, channels and messages (with the bot's permissions), guilds and members."""

from __future__ import annotations

from urllib.parse import unquote

from tests.fakediscord.errors import _HTTPError
from tests.fakediscord.flags import Perm
from tests.fakediscord.messages import FakeMessage
from tests.fakediscord.world import FakeChannel, FakeGuild, _now_iso


class Routes:
    """The route handlers (`_r_*`) and the lookups that answer 404 as Discord does."""

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
        oauth_user = self._bearer_me(request)
        if oauth_user is not None:
            return oauth_user
        if request.headers.get("Authorization") != f"Bot {self.token}":
            raise _HTTPError(401, 0, "401: Unauthorized")
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
        thread.thread_members[self.bot_user.id] = _now_iso()  # its creator is its first member
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
