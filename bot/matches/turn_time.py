"""Turn-clock choices and how they are said: the values `/<game> new turn_time` and
`/gamenight settings` accept, and durations in words."""

from __future__ import annotations

from games.common import counted

TURN_OPTION = "turn_time"  # match option: the lobby's turn time (not an engine option)
TURN_TIMES = {"2m": 120, "10m": 600, "1h": 3600, "12h": 43200, "24h": 86400, "72h": 259200}
LOBBY_TIMES = {"10m": 600, "30m": 1800, "1h": 3600, "6h": 21600, "24h": 86400}
ON_TIMEOUT = ("computer", "skip", "forfeit")
DEFAULT_TURN_TIME, DEFAULT_LOBBY_TIME, DEFAULT_ON_TIMEOUT = "24h", "30m", "computer"


def turn_seconds(turn_time: str) -> int | None:
    """`off` -> None (no clock), `10m` -> 600."""
    return None if turn_time == "off" else TURN_TIMES[turn_time]


def duration(seconds: float) -> str:
    """A whole duration in English: 2 minutes, 1 hour, 3 days. Only for the names of slash
    command choices, which are plain strings the catalogs translate; a message says a duration
    with `i18n.Duration(seconds)`, which each voice words (2 minutes, 2 分鐘, 2 મિનિટ)."""
    for unit, size in (("day", 86400), ("hour", 3600), ("minute", 60)):
        if seconds >= size:
            return counted(round(seconds / size), unit)
    return counted(int(seconds), "second")
