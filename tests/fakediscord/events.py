"""Guild scheduled events as Discord keeps them: the event and its payload, and the rules
Discord applies to a new or changed one (times, EXTERNAL events' place and end, the status
transitions, the cap of 100 events to come, who may create and change them)."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any

from tests.fakediscord.errors import _HTTPError, form_error
from tests.fakediscord.flags import Perm
from tests.fakediscord.world import FakeGuild, FakeMember, FakeUser

# Statuses (GuildScheduledEventStatuses) and entity types (GuildScheduledEventEntityTypes).
SCHEDULED, ACTIVE, COMPLETED, CANCELED = 1, 2, 3, 4
STAGE_INSTANCE, VOICE, EXTERNAL = 1, 2, 3
GUILD_ONLY = 2

# The only changes of status Discord accepts; COMPLETED and CANCELED are final.
TRANSITIONS = {(SCHEDULED, ACTIVE), (SCHEDULED, CANCELED), (ACTIVE, COMPLETED)}
FINISHED = (COMPLETED, CANCELED)
UNCOMPLETED_MAX = 100  # SCHEDULED or ACTIVE events a guild may hold


@dataclass(eq=False)
class FakeScheduledEvent:
    id: int
    guild: FakeGuild = field(repr=False)
    name: str
    start: datetime
    end: datetime | None
    location: str | None
    creator: FakeUser | None = field(default=None, repr=False)
    entity_type: int = EXTERNAL
    description: str | None = None
    status: int = SCHEDULED
    privacy_level: int = GUILD_ONLY
    image: str | None = None
    interested: dict[int, FakeUser] = field(default_factory=dict, repr=False)  # by user id

    @property
    def finished(self) -> bool:
        return self.status in FINISHED

    @property
    def user_count(self) -> int:
        return len(self.interested)

    def payload(self, *, with_user_count: bool = False) -> dict:
        """The event as REST answers and gateway events carry it (the gateway's has no
        ``user_count``: Discord counts only when asked, ``with_user_count``)."""
        d: dict[str, Any] = {
            "id": str(self.id),
            "guild_id": str(self.guild.id),
            "name": self.name,
            "description": self.description,
            "channel_id": None,
            "creator_id": str(self.creator.id) if self.creator else None,
            "image": self.image,
            "scheduled_start_time": _iso(self.start),
            "scheduled_end_time": _iso(self.end) if self.end else None,
            "status": self.status,
            "entity_type": self.entity_type,
            "entity_id": None,
            "entity_metadata": {"location": self.location},
            "recurrence_rule": None,
            "privacy_level": self.privacy_level,
            "guild_scheduled_event_exceptions": [],
        }
        if self.creator is not None:
            d["creator"] = self.creator.payload()
        if with_user_count:
            d["user_count"] = self.user_count
        return d

    def user_payload(self, user: FakeUser, *, with_member: bool) -> dict:
        """One interested user, as the users route lists them."""
        d = {"guild_scheduled_event_id": str(self.id), "user_id": str(user.id),
             "user": user.payload(), "response": 1}
        member = self.guild.member(user)
        if with_member and member is not None:
            d["member"] = member.payload()
        return d


def _iso(moment: datetime) -> str:
    return moment.astimezone(timezone.utc).isoformat()


def parse_time(value: Any, where: str) -> datetime:
    """An ISO 8601 moment from a body (no offset: UTC), or Discord's 50035."""
    try:
        moment = datetime.fromisoformat(str(value))
    except ValueError:
        raise form_error(where, "DATE_TIME_TYPE_PARSE",
                         f"Could not parse {value}. Should be ISO8601.") from None
    return moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc)


def check_may_create(member: FakeMember) -> None:
    """Creating needs Create Events or Manage Events."""
    if not member.permissions() & (Perm.CREATE_EVENTS | Perm.MANAGE_EVENTS):
        raise _HTTPError(403, 50013, "Missing Permissions")


def check_may_change(member: FakeMember, event: FakeScheduledEvent) -> None:
    """Changing or deleting needs Manage Events, or Create Events for one's own event."""
    perms = member.permissions()
    own = event.creator is not None and event.creator.id == member.id
    if not (perms & Perm.MANAGE_EVENTS or own and perms & Perm.CREATE_EVENTS):
        raise _HTTPError(403, 50013, "Missing Permissions")


def check_room_for_one_more(guild: FakeGuild) -> None:
    uncompleted = sum(1 for e in guild.scheduled_events.values() if e.status in (SCHEDULED, ACTIVE))
    if uncompleted >= UNCOMPLETED_MAX:
        raise _HTTPError(400, 30038, "Maximum number of uncompleted guild scheduled events "
                                     f"reached ({UNCOMPLETED_MAX})")


def check_transition(old: int, new: int) -> None:
    if (old, new) not in TRANSITIONS:
        raise form_error("status", "GUILD_SCHEDULED_EVENT_INVALID_STATUS_TRANSITION",
                         f"Cannot change the status of an event from {old} to {new}.")


def check_kind(entity_type: int, location: str | None, end: datetime | None,
               channel_id: Any = None) -> None:
    """An EXTERNAL event needs a place and an end, and no channel; the fake has no voice or
    stage channels, so an event in one cannot be made."""
    if entity_type != EXTERNAL:
        raise form_error("channel_id", "GUILD_SCHEDULED_EVENT_INVALID_CHANNEL",
                         "A voice or stage event needs a voice or stage channel.")
    if channel_id is not None:
        raise form_error("channel_id", "GUILD_SCHEDULED_EVENT_EXTERNAL_CHANNEL",
                         "An external event has no channel: channel_id must be null.")
    if not location:
        raise form_error("entity_metadata.location", "BASE_TYPE_REQUIRED", "This field is required")
    if end is None:
        raise form_error("scheduled_end_time", "BASE_TYPE_REQUIRED", "This field is required")


def check_times(start: datetime, end: datetime | None, now: datetime, *, start_given: bool) -> None:
    """A start (when set now) may not be in the past; an end comes after the start."""
    if start_given and start < now:
        raise form_error("scheduled_start_time", "GUILD_SCHEDULED_EVENT_SCHEDULE_PAST",
                         "Cannot schedule event in the past.")
    if end is not None and end <= start:
        raise form_error("scheduled_end_time", "GUILD_SCHEDULED_EVENT_END_BEFORE_START",
                         "Cannot schedule event to end before starting.")


def event_from_body(event_id: int, guild: FakeGuild, creator: FakeUser, body: dict,
                    now: datetime) -> FakeScheduledEvent:
    """A new event from a create body that passed the schema, checked as Discord does."""
    start = parse_time(body["scheduled_start_time"], "scheduled_start_time")
    end = body.get("scheduled_end_time")
    end = parse_time(end, "scheduled_end_time") if end is not None else None
    location = (body.get("entity_metadata") or {}).get("location")
    check_kind(body["entity_type"], location, end, body.get("channel_id"))
    check_times(start, end, now, start_given=True)
    return FakeScheduledEvent(event_id, guild, body["name"], start, end, location, creator,
                              description=body.get("description"),
                              privacy_level=body["privacy_level"],
                              image=_image_hash(body.get("image")))


def apply_changes(event: FakeScheduledEvent, body: dict, now: datetime) -> None:
    """Apply a modify body that passed the schema, or refuse it whole as Discord does."""
    if event.finished:
        raise _HTTPError(400, 180000, "Cannot update a finished event")
    status = body.get("status")
    if status is not None:
        check_transition(event.status, status)
    entity_type = body.get("entity_type") or event.entity_type
    start = event.start
    if "scheduled_start_time" in body:
        start = parse_time(body["scheduled_start_time"], "scheduled_start_time")
    end = event.end
    if "scheduled_end_time" in body:
        raw = body["scheduled_end_time"]
        end = parse_time(raw, "scheduled_end_time") if raw is not None else None
    location = event.location
    if "entity_metadata" in body:
        location = (body["entity_metadata"] or {}).get("location")
    check_kind(entity_type, location, end, body.get("channel_id"))
    check_times(start, end, now, start_given="scheduled_start_time" in body)
    event.entity_type, event.start, event.end, event.location = entity_type, start, end, location
    event.status = status if status is not None else event.status
    for key in ("name", "description", "privacy_level"):
        if key in body:
            setattr(event, key, body[key])
    if "image" in body:
        event.image = _image_hash(body["image"])


def _image_hash(data: str | None) -> str | None:
    """Discord keeps an uploaded cover and answers with its hash."""
    if not data:
        return None
    return hashlib.md5(data.encode()).hexdigest()
