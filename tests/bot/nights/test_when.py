"""Reading a night's start as people write it, in the server's time zone."""

from __future__ import annotations

from datetime import datetime
from zoneinfo import ZoneInfo

import pytest

from bot.nights.when import BadTime, read_start, valid_zone

PARIS = "Europe/Paris"
NOW = datetime(2026, 11, 28, 18, 0, tzinfo=ZoneInfo(PARIS)).timestamp()


def at(*parts: int, zone: str = PARIS) -> float:
    return datetime(*parts, tzinfo=ZoneInfo(zone)).timestamp()


@pytest.mark.parametrize(("text", "expected"), [
    ("2026-12-05 19:30", at(2026, 12, 5, 19, 30)),
    ("2026-12-05T19:30", at(2026, 12, 5, 19, 30)),
    ("05.12.2026 19:30", at(2026, 12, 5, 19, 30)),
    ("12-05 19:30", at(2026, 12, 5, 19, 30)),
    ("01-10 20:00", at(2027, 1, 10, 20, 0)),  # already past this year: next year's
    ("19:30", at(2026, 11, 28, 19, 30)),  # later today
    ("17:00", at(2026, 11, 29, 17, 0)),  # already past today: tomorrow's
    ("in 2h", NOW + 7200),
    ("in 90m", NOW + 5400),
    ("in 1h30m", NOW + 5400),
    ("In  1d", NOW + 86400),
])
def test_starts_are_read_in_the_servers_zone(text, expected):
    assert read_start(text, NOW, PARIS) == expected


def test_summer_time_is_the_zones_own():
    # Paris is UTC+2 in July, UTC+1 in November
    assert read_start("2027-07-01 20:00", NOW, PARIS) == at(2027, 7, 1, 18, 0, zone="UTC")


def test_without_a_zone_utc():
    assert read_start("2026-12-05 19:30", NOW, None) == at(2026, 12, 5, 19, 30, zone="UTC")


@pytest.mark.parametrize("text", ["tomorrow", "25:00", "in", "in 2 weeks", "2026-13-01 10:00",
                                  "", "12:61"])
def test_unreadable_starts_are_refused(text):
    with pytest.raises(BadTime):
        read_start(text, NOW, PARIS)


def test_zones():
    assert valid_zone("Asia/Taipei") and valid_zone("UTC")
    assert not valid_zone("Mars/Olympus") and not valid_zone("../etc/passwd") and not valid_zone("")
