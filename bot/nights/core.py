"""What every part of the night service stands on: the store, the match service, the clock,
the per-night locks, reading nights, and committing a change of one."""

from __future__ import annotations

import asyncio
import weakref
from collections.abc import Callable
from typing import Any

from bot.matches.deadlines import Clock
from bot.matches.errors import Conflict, LobbyError
from bot.matches.service import MatchService
from bot.nights.model import Night
from bot.nights.seasons import SeasonLine, Span, current_span, season_table
from bot.storage.errors import StaleVersion
from bot.storage.rows import NightSettings, NightTable, Season
from bot.storage.store import Store
from i18n import _


class NightCore:
    """The store, the match service, the clock and the per-night locks; reading nights."""

    def __init__(self, store: Store, matches: MatchService, clock: Clock) -> None:
        self.store = store
        self.matches = matches
        self.clock = clock
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.on_change: Callable[[Night], None] | None = None  # told of every commit

    def lock(self, night_id: int) -> asyncio.Lock:
        lock = self._locks.get(night_id)
        if lock is None:
            lock = self._locks[night_id] = asyncio.Lock()
        return lock

    # -- reading -----------------------------------------------------------------------------

    async def get(self, night_id: int) -> Night | None:
        row = await self.store.get_night(night_id)
        if row is None:
            return None
        return Night(row, tuple(await self.store.night_players(night_id)),
                     tuple(await self.store.night_tables(night_id)))

    async def require(self, night_id: int, guild_id: int | None = None) -> Night:
        night = await self.get(night_id)
        if night is None or (guild_id is not None and night.row.guild_id != guild_id):
            raise LobbyError(_("There is no game night #{id} in this server.", id=str(night_id)))
        return night

    async def open_in(self, guild_id: int) -> list[Night]:
        return [n for row in await self.store.guild_nights(guild_id)
                if (n := await self.get(row.id)) is not None]

    async def open_nights(self) -> list[Night]:
        """Every night to come or in play, in every server."""
        return [n for row in await self.store.open_nights()
                if (n := await self.get(row.id)) is not None]

    async def last_in(self, guild_id: int, channel_id: int) -> Night | None:
        """The newest night held in a channel, open or not."""
        rows = [row for row in await self.store.guild_nights(guild_id, open_only=False)
                if row.channel_id == channel_id]
        return None if not rows else await self.get(rows[0].id)

    async def settings(self, guild_id: int) -> NightSettings:
        return await self.store.night_settings(guild_id)

    async def set_settings(self, guild_id: int, settings: NightSettings) -> None:
        await self.store.set_night_settings(guild_id, settings)

    async def season(self, guild_id: int, at: float) -> tuple[Span, list[SeasonLine],
                                                               dict[int, str]]:
        """The season open at `at`: its span, standings and the players' names."""
        span = current_span(await self.store.seasons(guild_id), at)
        nights = []
        names: dict[int, str] = {}
        for night_id in await self.store.finished_nights(guild_id, span.start, span.end):
            night = await self.get(night_id)
            if night is None:
                continue
            standings = night.standings()
            nights.append(({s.player: s.points for s in standings},
                           standings[0].player if standings else None))
            names.update({p.user_id: p.name for p in night.players})
        return span, season_table(nights), names

    async def start_season(self, guild_id: int, name: str) -> Season:
        return await self.store.start_season(guild_id, name, self.clock.now())

    async def end_season(self, guild_id: int) -> Season | None:
        return await self.store.end_season(guild_id, self.clock.now())

    async def note_thread(self, night_id: int, table: NightTable, thread_id: int) -> None:
        """The table's thread exists (before its match does: a restart reuses it)."""
        await self.store.set_table(night_id, table.round, table.number, thread_id=thread_id)

    async def night_of_match(self, match_id: int) -> tuple[Night, NightTable] | None:
        found = await self.store.table_of_match(match_id)
        if found is None:
            return None
        night = await self.get(found[0])
        if night is None:
            return None
        table = next(t for t in night.tables if (t.round, t.number) == found[1:])
        return night, table

    async def _committed(self, night_id: int) -> Night:
        night = await self.require(night_id)
        if self.on_change is not None:
            self.on_change(night)
        return night

    async def _write(self, operation: Any) -> None:
        try:
            await operation
        except StaleVersion:
            raise Conflict() from None
