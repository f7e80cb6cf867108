"""Scheduled events as people and Discord itself change them: a member creates or deletes one
in the client, members mark themselves Interested or not, and Discord starts and ends an
EXTERNAL event at its times (here when the test says so: the fake has no clock of its own).
Each dispatches its gateway event and waits until the bot is idle; reading them back too."""

from __future__ import annotations

from datetime import datetime

from tests.fakediscord.events import (
    ACTIVE, COMPLETED, EXTERNAL, SCHEDULED, FakeScheduledEvent, check_kind, check_may_create,
    check_room_for_one_more, check_times,
)
from tests.fakediscord.world import FakeGuild, FakeUser, _id_of


class ScheduledEventDriving:
    """The scheduled-event half of the driving API."""

    def scheduled_events(self, guild: FakeGuild) -> list[FakeScheduledEvent]:
        """The events ``guild`` holds (finished ones too, until deleted), oldest first."""
        return sorted(guild.scheduled_events.values(), key=lambda e: e.id)

    def scheduled_event(self, event_id: int | FakeScheduledEvent) -> FakeScheduledEvent:
        for guild in self.guilds.values():
            found = guild.scheduled_events.get(_id_of(event_id))
            if found is not None:
                return found
        raise LookupError(f"no scheduled event {_id_of(event_id)}")

    async def add_scheduled_event(self, guild: FakeGuild, creator: FakeUser, name: str, *,
                                  start: datetime, end: datetime, location: str,
                                  description: str | None = None) -> FakeScheduledEvent:
        """``creator`` makes an EXTERNAL event in Discord's client, checked as Discord checks
        the bot's (permissions, times, the cap of events to come)."""
        member = guild.member(creator)
        if member is None:
            raise ValueError(f"{creator.name} is not a member of {guild.name}")
        check_may_create(member)
        check_kind(EXTERNAL, location, end)
        check_times(start, end, self.clock(), start_given=True)
        check_room_for_one_more(guild)
        event = FakeScheduledEvent(self.new_id(), guild, name, start, end, location, creator,
                                   description=description)
        guild.scheduled_events[event.id] = event
        await self._drive_event("GUILD_SCHEDULED_EVENT_CREATE", guild, event.payload())
        return event

    async def remove_scheduled_event(self, event: FakeScheduledEvent) -> None:
        """A moderator deletes ``event`` in the client."""
        del event.guild.scheduled_events[event.id]
        await self._drive_event("GUILD_SCHEDULED_EVENT_DELETE", event.guild, event.payload())

    async def mark_interested(self, user: FakeUser, event: FakeScheduledEvent) -> None:
        """``user`` presses Interested (nothing happens if they already had)."""
        if event.guild.member(user) is None:
            raise ValueError(f"{user.name} is not a member of {event.guild.name}")
        if event.finished:
            raise ValueError(f"event {event.name!r} is over: nobody can be interested any more")
        if user.id in event.interested:
            return
        event.interested[user.id] = user
        await self._drive_event("GUILD_SCHEDULED_EVENT_USER_ADD", event.guild, self._rsvp(user, event))

    async def mark_uninterested(self, user: FakeUser, event: FakeScheduledEvent) -> None:
        """``user`` takes their Interested back (nothing happens if they had not pressed it)."""
        if event.interested.pop(user.id, None) is None:
            return
        await self._drive_event("GUILD_SCHEDULED_EVENT_USER_REMOVE", event.guild, self._rsvp(user, event))

    async def start_scheduled_event(self, event: FakeScheduledEvent) -> None:
        """What Discord does at an EXTERNAL event's start time: SCHEDULED -> ACTIVE."""
        await self._move(event, SCHEDULED, ACTIVE)

    async def end_scheduled_event(self, event: FakeScheduledEvent) -> None:
        """What Discord does at an EXTERNAL event's end time: ACTIVE -> COMPLETED."""
        await self._move(event, ACTIVE, COMPLETED)

    async def _move(self, event: FakeScheduledEvent, old: int, new: int) -> None:
        if event.entity_type != EXTERNAL or event.status != old:
            raise ValueError(f"event {event.name!r} (status {event.status}) cannot go from "
                             f"{old} to {new} by itself")
        event.status = new
        await self._drive_event("GUILD_SCHEDULED_EVENT_UPDATE", event.guild, event.payload())

    @staticmethod
    def _rsvp(user: FakeUser, event: FakeScheduledEvent) -> dict:
        return {"guild_scheduled_event_id": str(event.id), "user_id": str(user.id),
                "guild_id": str(event.guild.id)}

    async def _drive_event(self, name: str, guild: FakeGuild, data: dict) -> None:
        await self._flush_own()
        await self._dispatch_event(name, guild, data)
        await self.wait_idle()
