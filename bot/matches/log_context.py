"""What a log line is about: the ids of the match, server (guild) and channel being handled.

Set where an interaction arrives (bot/app/client.py) and where the match service reads or
saves a channel's match; held in a context variable, so every task started meanwhile (the
command's handler, its replies, a computer's turn) carries them too. `LOG_FORMAT=json` writes
them as fields (bot/app/logs.py); ids only, never what a match holds."""

from __future__ import annotations

from contextvars import ContextVar, Token
from types import MappingProxyType
from typing import Mapping

FIELDS = ("match_id", "guild_id", "channel_id")
_EMPTY: Mapping[str, int] = MappingProxyType({})
_ids: ContextVar[Mapping[str, int]] = ContextVar("gamenight_log_ids", default=_EMPTY)


def about(*, match_id: int | None = None, guild_id: int | None = None,
          channel_id: int | None = None) -> Token[Mapping[str, int]]:
    """Note the ids given (others stay as they were) for what this task logs from now on."""
    given = {"match_id": match_id, "guild_id": guild_id, "channel_id": channel_id}
    merged = {**_ids.get(), **{k: v for k, v in given.items() if v is not None}}
    return _ids.set(MappingProxyType(merged))


def only(*, match_id: int | None = None, guild_id: int | None = None,
         channel_id: int | None = None) -> Token[Mapping[str, int]]:
    """Note these ids alone, forgetting any noted before (a new interaction)."""
    given = {"match_id": match_id, "guild_id": guild_id, "channel_id": channel_id}
    return _ids.set(MappingProxyType({k: v for k, v in given.items() if v is not None}))


def forget(token: Token[Mapping[str, int]]) -> None:
    _ids.reset(token)


def current() -> Mapping[str, int]:
    return _ids.get()
