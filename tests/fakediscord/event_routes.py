"""The REST routes of guild scheduled events, as Discord answers them, with the gateway events
each change sends (to sessions with the GUILD_SCHEDULED_EVENTS intent only)."""

from __future__ import annotations

from typing import Any

from tests.fakediscord.errors import _HTTPError
from tests.fakediscord.events import (
    FakeScheduledEvent, apply_changes, check_may_change, check_may_create, check_room_for_one_more,
    event_from_body,
)
from tests.fakediscord.flags import Intent
from tests.fakediscord.query_params import query_flag, query_limit, query_snowflake
from tests.fakediscord.world import FakeGuild

USERS_PAGE_MAX = 100


class ScheduledEventRoutes:
    """The route handlers (`_r_*`) of /guilds/{id}/scheduled-events."""

    def _scheduled_event_routes(self, S: str) -> list[tuple[str, str, Any, bool]]:
        base = f"/guilds/{S.format('guild')}/scheduled-events"
        one = f"{base}/{S.format('event')}"
        return [
            ("GET", base, self._r_events, True),
            ("POST", base, self._r_event_create, True),
            ("GET", one, self._r_event, True),
            ("PATCH", one, self._r_event_modify, True),
            ("DELETE", one, self._r_event_delete, True),
            ("GET", f"{one}/users", self._r_event_users, True),
        ]

    def _event_or_404(self, guild: FakeGuild, event: str) -> FakeScheduledEvent:
        found = guild.scheduled_events.get(int(event))
        if found is None:
            raise _HTTPError(404, 10070, "Unknown Guild Scheduled Event")
        return found

    async def _dispatch_event(self, name: str, guild: FakeGuild, data: dict) -> None:
        await self._dispatch(name, data, intent=Intent.GUILD_SCHEDULED_EVENTS, guild=guild)

    async def _r_events(self, request, payload, files, guild):
        g = self._guild_or_404(guild)
        counts = query_flag(request.query, "with_user_count")
        return [e.payload(with_user_count=counts) for e in g.scheduled_events.values()]

    async def _r_event(self, request, payload, files, guild, event):
        e = self._event_or_404(self._guild_or_404(guild), event)
        return e.payload(with_user_count=query_flag(request.query, "with_user_count"))

    async def _r_event_create(self, request, payload, files, guild):
        g = self._guild_or_404(guild)
        check_may_create(self.bot_member(g))
        event = event_from_body(self.new_id(), g, self.bot_user, payload, self.clock())
        check_room_for_one_more(g)
        g.scheduled_events[event.id] = event
        await self._dispatch_event("GUILD_SCHEDULED_EVENT_CREATE", g, event.payload())
        return event.payload()

    async def _r_event_modify(self, request, payload, files, guild, event):
        g = self._guild_or_404(guild)
        e = self._event_or_404(g, event)
        check_may_change(self.bot_member(g), e)
        apply_changes(e, payload, self.clock())
        await self._dispatch_event("GUILD_SCHEDULED_EVENT_UPDATE", g, e.payload())
        return e.payload()

    async def _r_event_delete(self, request, payload, files, guild, event):
        g = self._guild_or_404(guild)
        e = self._event_or_404(g, event)
        check_may_change(self.bot_member(g), e)
        del g.scheduled_events[e.id]
        await self._dispatch_event("GUILD_SCHEDULED_EVENT_DELETE", g, e.payload())
        return None

    async def _r_event_users(self, request, payload, files, guild, event):
        """Interested users in ascending order of id: the first ``limit`` after ``after``, or
        the last ``limit`` before ``before`` (which wins when both are given)."""
        e = self._event_or_404(self._guild_or_404(guild), event)
        q = request.query
        limit = query_limit(q, USERS_PAGE_MAX, USERS_PAGE_MAX)
        before, after = query_snowflake(q, "before"), query_snowflake(q, "after")
        users = sorted(e.interested.values(), key=lambda u: u.id)
        if before is not None:
            page = [u for u in users if u.id < before][-limit:]
        else:
            page = [u for u in users if after is None or u.id > after][:limit]
        with_member = query_flag(q, "with_member")
        return [e.user_payload(u, with_member=with_member) for u in page]
