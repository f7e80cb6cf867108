"""Reading a night's start as people write it: `2026-12-05 19:30`, `12-05 19:30`, `19:30`
(the next such time), `in 2h`, `in 90m`, `in 1h30m`, in the server's time zone (pure)."""

from __future__ import annotations

import re
from datetime import datetime, timedelta
from zoneinfo import ZoneInfo

RELATIVE = re.compile(r"^in\s+(?:(\d+)\s*d)?\s*(?:(\d+)\s*h)?\s*(?:(\d+)\s*m(?:in)?)?$")
CLOCK = re.compile(r"^(\d{1,2})[:.](\d{2})$")
DATE_FORMS = ("%Y-%m-%d %H:%M", "%Y-%m-%dT%H:%M", "%Y/%m/%d %H:%M", "%d.%m.%Y %H:%M")
SHORT_FORMS = ("%m-%d %H:%M", "%m/%d %H:%M")


class BadTime(ValueError):
    """The text is not a time this reads."""


def read_start(text: str, now: float, zone: str | None) -> float:
    """The start `text` names, in seconds since the epoch; `now` is the clock's time."""
    tz = ZoneInfo(zone or "UTC")
    text = " ".join(text.strip().lower().split())
    here = datetime.fromtimestamp(now, tz)
    found = RELATIVE.match(text)
    if found and any(found.groups()):
        days, hours, minutes = (int(g or 0) for g in found.groups())
        return now + timedelta(days=days, hours=hours, minutes=minutes).total_seconds()
    found = CLOCK.match(text)
    if found:
        hour, minute = int(found[1]), int(found[2])
        if hour > 23 or minute > 59:
            raise BadTime(text)
        at = here.replace(hour=hour, minute=minute, second=0, microsecond=0)
        if at.timestamp() <= now:
            at = (at + timedelta(days=1)).replace(hour=hour, minute=minute)
        return at.timestamp()
    for form in DATE_FORMS:
        try:
            return datetime.strptime(text, form).replace(tzinfo=tz).timestamp()
        except ValueError:
            pass
    for form in SHORT_FORMS:
        try:
            at = datetime.strptime(f"{here.year}-{text}", f"%Y-{form}").replace(tzinfo=tz)
        except ValueError:
            continue
        if at.timestamp() <= now:
            at = at.replace(year=here.year + 1)
        return at.timestamp()
    raise BadTime(text)


def valid_zone(name: str) -> bool:
    try:
        ZoneInfo(name)
    except (KeyError, ValueError):
        return False
    return True
