"""A thread's members as Discord keeps them: adding and removing them (the bot itself with
``@me``), listing them, and the THREAD_MEMBERS_UPDATE each change sends."""

from __future__ import annotations

from typing import Any

from tests.fakediscord.errors import _HTTPError
from tests.fakediscord.query_params import query_flag, query_limit, query_snowflake
from tests.fakediscord.flags import Intent, Perm
from tests.fakediscord.world import FakeChannel, FakeMember, FakeUser, _now_iso

MEMBERS_PAGE_MAX = 100


class ThreadMembers:
    """The route handlers (`_r_*`) of /channels/{id}/thread-members, and reading them back."""

    def thread_members(self, thread: FakeChannel) -> list[FakeUser]:
        """Who is in ``thread``, in ascending order of id."""
        return [self.users[uid] for uid in sorted(thread.thread_members)]

    def _thread_member_routes(self, S: str) -> list[tuple[str, str, Any, bool]]:
        base = f"/channels/{S.format('channel')}/thread-members"
        return [
            ("GET", base, self._r_thread_members, True),
            ("PUT", f"{base}/@me", self._r_thread_join, True),
            ("DELETE", f"{base}/@me", self._r_thread_leave, True),
            ("GET", f"{base}/{S.format('user_id')}", self._r_thread_member, True),
            ("PUT", f"{base}/{S.format('user_id')}", self._r_thread_member_add, True),
            ("DELETE", f"{base}/{S.format('user_id')}", self._r_thread_member_remove, True),
        ]

    def _thread_or_error(self, channel: str) -> FakeChannel:
        thread = self._channel_or_404(channel)
        if not thread.is_thread:
            raise _HTTPError(400, 50024, "Cannot execute action on this channel type")
        return thread

    def _guild_member_or_404(self, thread: FakeChannel, user_id: str) -> FakeMember:
        if int(user_id) not in self.users:
            raise _HTTPError(404, 10013, "Unknown User")
        member = thread.guild.member(int(user_id))  # type: ignore[union-attr]
        if member is None:
            raise _HTTPError(404, 10007, "Unknown Member")
        return member

    def _thread_member_payload(self, thread: FakeChannel, user_id: int, *, with_member: bool) -> dict:
        d: dict[str, Any] = {"id": str(thread.id), "user_id": str(user_id),
                             "join_timestamp": thread.thread_members[user_id], "flags": 0}
        member = thread.guild.member(user_id) if with_member else None  # type: ignore[union-attr]
        if member is not None:
            d["member"] = member.payload()
        return d

    async def _members_changed(self, thread: FakeChannel, user_id: int, *, added: bool) -> None:
        """THREAD_MEMBERS_UPDATE: to every session when the bot itself came or went, else only
        to sessions with the GUILD_MEMBERS intent."""
        data: dict[str, Any] = {"id": str(thread.id), "guild_id": str(thread.guild.id),  # type: ignore[union-attr]
                                "member_count": len(thread.thread_members)}
        if added:
            data["added_members"] = [self._thread_member_payload(thread, user_id, with_member=True)]
        else:
            data["removed_member_ids"] = [str(user_id)]
        intent = None if user_id == self.bot_user.id else Intent.GUILD_MEMBERS
        await self._dispatch("THREAD_MEMBERS_UPDATE", data, intent=intent, guild=thread.guild)

    async def _add_to_thread(self, thread: FakeChannel, user_id: int) -> None:
        if user_id in thread.thread_members:
            return  # already in: 204 all the same, and nothing sent
        thread.thread_members[user_id] = _now_iso()
        await self._members_changed(thread, user_id, added=True)

    async def _remove_from_thread(self, thread: FakeChannel, user_id: int) -> None:
        if thread.thread_members.pop(user_id, None) is not None:
            await self._members_changed(thread, user_id, added=False)

    async def _r_thread_member_add(self, request, payload, files, channel, user_id):
        """Adding someone needs the right to send messages in the thread."""
        thread = self._thread_or_error(channel)
        perms = self._bot_perms_in(thread)
        if not perms & Perm.VIEW_CHANNEL or not perms & Perm.SEND_MESSAGES_IN_THREADS:
            raise _HTTPError(403, 50013, "Missing Permissions")
        await self._add_to_thread(thread, self._guild_member_or_404(thread, user_id).id)
        return None

    async def _r_thread_join(self, request, payload, files, channel):
        thread = self._thread_or_error(channel)
        if not self._bot_perms_in(thread) & Perm.VIEW_CHANNEL:
            raise _HTTPError(403, 50001, "Missing Access")
        await self._add_to_thread(thread, self.bot_user.id)
        return None

    async def _r_thread_member_remove(self, request, payload, files, channel, user_id):
        """Removing someone else from a public thread needs Manage Threads."""
        thread = self._thread_or_error(channel)
        if not self._bot_perms_in(thread) & Perm.MANAGE_THREADS:
            raise _HTTPError(403, 50013, "Missing Permissions")
        await self._remove_from_thread(thread, self._guild_member_or_404(thread, user_id).id)
        return None

    async def _r_thread_leave(self, request, payload, files, channel):
        await self._remove_from_thread(self._thread_or_error(channel), self.bot_user.id)
        return None

    async def _r_thread_member(self, request, payload, files, channel, user_id):
        thread = self._thread_or_error(channel)
        if int(user_id) not in thread.thread_members:
            raise _HTTPError(404, 10007, "Unknown Member")
        return self._thread_member_payload(thread, int(user_id),
                                           with_member=query_flag(request.query, "with_member"))

    async def _r_thread_members(self, request, payload, files, channel):
        """In ascending order of id; paged (``after``, ``limit``) only ``with_member``, as in
        API v10 (v11 pages always)."""
        thread = self._thread_or_error(channel)
        ids = sorted(thread.thread_members)
        with_member = query_flag(request.query, "with_member")
        if with_member:
            after = query_snowflake(request.query, "after") or 0
            limit = query_limit(request.query, MEMBERS_PAGE_MAX, MEMBERS_PAGE_MAX)
            ids = [uid for uid in ids if uid > after][:limit]
        return [self._thread_member_payload(thread, uid, with_member=with_member) for uid in ids]
