"""The match service's part for game nights (bot/nights/): a table's match opened with its
players already seated, ended when its round closes, and a seat handed to a substitute."""

from __future__ import annotations

import secrets
from typing import Any

from bot.matches.errors import LobbyError, NotSeated
from bot.matches.engines import engine_for
from bot.matches.lobbies import LobbyActions
from bot.matches.model import BOT_OPTIONS, NIGHT_OPTION, Match
from bot.storage.rows import PlaceNames, SeatRow
from i18n import _


class NightTableActions(LobbyActions):
    """Matches that are a game night's tables."""

    async def open_table(self, game: str, *, guild_id: int, channel_id: int,
                         seats: list[SeatRow], options: dict[str, Any], place: PlaceNames,
                         table: tuple[int, int, int]) -> Match:
        """A started match in `channel_id` (the table's thread), linked to its night's table
        (night, round, number) in the same commit."""
        clocks = await self._clocks(guild_id, options)
        seed = secrets.randbits(62)
        match_options = {k: v for k, v in options.items()}
        match_options[NIGHT_OPTION] = table[0]
        engine_options = {k: v for k, v in options.items()
                          if k not in BOT_OPTIONS} or None
        state = engine_for(game).new_game(len(seats), seed=seed, options=engine_options)
        async with self._lock(channel_id):
            match_id = await self.store.create_table_match(
                guild_id=guild_id, channel_id=channel_id, game=game, options=match_options,
                seed=seed, seats=seats, state=state.to_dict(), clocks=clocks, place=place,
                table=table)
            return await self._committed(match_id)

    async def no_show(self, match: Match, seat: int) -> bool:
        """Whether `seat` is a game night's player who has not acted yet: when their clock runs
        out, they forfeit (a walkover) instead of a computer playing for them."""
        if not match.row.options.get(NIGHT_OPTION) or match.player(seat).kind != "user":
            return False
        return not any(m.seat == seat and m.actor == "person"
                       for m in await self.store.moves(match.id))

    async def end_for_night(self, match_id: int, reason: str) -> Match | None:
        """End a table's match without a result (its round closed, or the night was called
        off); None when it was no longer open."""
        match = await self.get_or_fail(match_id)
        async with self._lock(match.channel_id):
            match = await self.get_or_fail(match_id)
            if not match.is_open:
                return None
            await self._write(self.store.close_match(match.id, match.row.version, "cancelled",
                                                     {"reason": reason}))
            return await self._committed(match.id)

    async def substitute(self, match_id: int, out_id: int, in_id: int, name: str) -> Match:
        """`in_id` takes `out_id`'s seat in the match in play; the game goes on."""
        match = await self.get_or_fail(match_id)
        async with self._lock(match.channel_id):
            match = await self.get_or_fail(match_id)
            if match.status != "active":
                raise LobbyError(self._closed_text(match))
            seat = match.seat_of(out_id)
            if seat is None:
                raise NotSeated(_("{mention} is not playing in this match.",
                                  mention=f"<@{out_id}>"))
            if match.seat_of(in_id) is not None:
                raise LobbyError(_("{mention} already plays at this table.",
                                   mention=f"<@{in_id}>"))
            await self._write(self.store.replace_seat(match.id, match.row.version, seat, in_id,
                                                      name))
            return await self._committed(match.id)

