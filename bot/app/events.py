"""Gateway events the bot cannot read are logged and dropped, never fatal.

discord.py parses each gateway dispatch in the shard's websocket reader; an exception there
(a component click without its `custom_id`, say, which its view store indexes without a
check) ends the shard's worker and with it `bot.start()`: the whole process exits with status
1, and every match with it. Each parser is wrapped so that one bad event is logged (its name
and the error, never its data: an interaction carries a token) and dropped.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from typing import Any

log = logging.getLogger(__name__)


def guard_parsers(state: Any) -> None:
    """Wrap every parser of discord.py's connection `state` (its `parsers`, by event name,
    which the gateway reads) so that an exception drops the event instead of the shard."""
    parsers: dict[str, Callable[[Any], None]] = state.parsers
    for event, parse in list(parsers.items()):
        parsers[event] = _guarded(event, parse)


def _guarded(event: str, parse: Callable[[Any], None]) -> Callable[[Any], None]:
    def guarded(data: Any) -> None:
        try:
            parse(data)
        except Exception as error:  # one bad event must not end the process
            where = _where(data)
            log.warning("dropped a malformed %s event from the gateway%s: %s: %s", event,
                        where, type(error).__name__, error)
            log.debug("the malformed %s event's error", event, exc_info=True)

    guarded.__wrapped__ = parse  # type: ignore[attr-defined]
    return guarded


def _where(data: Any) -> str:
    """The ids an operator can look for (never a token or content)."""
    if not isinstance(data, dict):
        return ""
    ids = [f"{key} {data[key]}" for key in ("id", "guild_id", "channel_id")
           if isinstance(data.get(key), (str, int))]
    return f" ({', '.join(ids)})" if ids else ""
