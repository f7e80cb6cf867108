"""The match service's lobbies: opening one (or a rematch), joining, leaving, computer seats,
starting and cancelling."""

from __future__ import annotations

import secrets
from typing import Any

from bot.matches.core import ServiceCore
from bot.matches.errors import ChannelTaken, LobbyError, NotAllowed, NotSeated, OutOfDate
from bot.matches.model import LEVELS, SEATS_OPTION, Match, Player, renumbered
from bot.matches.engines import engine_for
from bot.storage.errors import ChannelBusy
from bot.storage.rows import Clocks, GuildSettings, PlaceNames, SeatRow
from bot.matches.turn_time import (
    DEFAULT_LOBBY_TIME, DEFAULT_ON_TIMEOUT, DEFAULT_TURN_TIME, LOBBY_TIMES, TURN_OPTION,
    TURN_TIMES, turn_seconds,
)
from bot.matches.titles import title
from i18n import _



class LobbyActions(ServiceCore):
    """Lobbies, from opening one to its start or its cancelling."""

    async def open_lobby(self, game: str, *, guild_id: int | None, channel_id: int,
                         creator: Player, invited: Player | None = None,
                         options: dict[str, Any] | None = None, seed: int | None = None,
                         place: PlaceNames = PlaceNames()) -> Match:
        """A lobby; its clocks come from its `turn_time` option, else the server's settings.
        `place`: the server's and channel's names, for DMs about it."""
        self.check_lobby(game, creator=creator, invited=invited, options=options)
        clocks = await self._clocks(guild_id, options or {})
        async with self._lock(channel_id):
            existing = await self.current(channel_id)
            if existing is not None:
                raise ChannelTaken(existing)
            try:
                match_id = await self.store.create_match(
                    guild_id=guild_id, channel_id=channel_id, game=game,
                    options=options or {}, seed=secrets.randbits(62) if seed is None else seed,
                    creator=SeatRow(0, creator.kind, creator.user_id, creator.name),
                    invited_id=None if invited is None else invited.user_id, clocks=clocks,
                    place=place,
                )
            except ChannelBusy:
                raise ChannelTaken(await self.require(channel_id)) from None
            return await self._committed(match_id)

    async def _clocks(self, guild_id: int | None, options: dict[str, Any]) -> Clocks:
        server = GuildSettings() if guild_id is None else await self.store.guild_settings(guild_id)
        turn = options.get(TURN_OPTION) or server.turn_time or DEFAULT_TURN_TIME
        lobby = server.lobby_time or DEFAULT_LOBBY_TIME
        return Clocks(turn_seconds(turn), server.on_timeout or DEFAULT_ON_TIMEOUT,
                      LOBBY_TIMES[lobby])

    @staticmethod
    def check_lobby(game: str, *, creator: Player, invited: Player | None = None,
                    options: dict[str, Any] | None = None) -> None:
        """Raise LobbyError if such a lobby could not be opened anywhere (seats, invitation)."""
        engine = engine_for(game)
        turn = (options or {}).get(TURN_OPTION)
        if turn is not None and turn != "off" and turn not in TURN_TIMES:
            raise LobbyError(_("A turn lasts one of: off, {times}.", times=", ".join(TURN_TIMES)))
        seats = (options or {}).get(SEATS_OPTION, engine.MAX_SEATS)
        if not isinstance(seats, int) or not engine.MIN_SEATS <= seats <= engine.MAX_SEATS:
            raise LobbyError(_("{game} is for {least} to {most} players.", game=title(game),
                               least=engine.MIN_SEATS, most=engine.MAX_SEATS))
        if invited is not None and invited.user_id == creator.user_id:
            raise LobbyError(_("You cannot invite yourself: leave `opponent` empty to let anyone "
                               "join, or name someone else."))
        if invited is not None and engine.MAX_SEATS == 1:
            raise LobbyError(_("This game has no seat for an opponent."))

    async def rematch(self, match_id: int, creator: Player) -> Match:
        """A new lobby for a finished match's game, options and channel, opened by one of its
        players, with its computers seated again. With two seats the other player is invited,
        so the seat waits for them."""
        old = await self.get_or_fail(match_id)
        if old.status != "finished":
            raise LobbyError(_("Match #{id} is not over, so there is nothing to replay.",
                               id=str(old.id)) if old.is_open else self._closed_text(old))
        if old.seat_of(creator.user_id) is None:
            raise NotSeated(_("Only the players of match #{id} can ask for a rematch. Open a new "
                              "game with `/{command} new`.", id=str(old.id), command=old.game))
        others = [seat for seat in old.seats
                  if seat.kind == "user" and seat.user_id != creator.user_id]
        invited = None
        if old.seat_target == 2 and len(others) == 1:
            invited = Player(others[0].user_id, others[0].name)
        match = await self.open_lobby(old.game, guild_id=old.guild_id,
                                      channel_id=old.channel_id, creator=creator,
                                      invited=invited, options=dict(old.row.options),
                                      place=old.row.place)
        for seat in old.seats:  # the computers sit again (they may fill the table: it starts)
            if seat.kind == "computer" and match.status == "lobby":
                match = await self.add_computer(match.id, creator.user_id, seat.level or "normal")
        return match

    async def join(self, match_id: int, player: Player) -> Match:
        """Take a seat; the match starts by itself once every seat is taken."""
        match = await self.get_or_fail(match_id)
        async with self._lock(match.channel_id):
            match = await self.get_or_fail(match_id)
            self._check_can_join(match, player)
            seats = [*match.seats, SeatRow(len(match.seats), player.kind, player.user_id,
                                           player.name)]
            if len(seats) >= match.seat_target:  # the last seat: seat and start in one commit
                return await self._start(match, seats)
            await self._write(self.store.set_seats(match.id, match.row.version, seats))
            return await self._committed(match_id)

    def _check_can_join(self, match: Match, player: Player) -> None:
        if match.status != "lobby":
            raise LobbyError(self._closed_text(match))
        if match.seat_of(player.user_id) is not None:
            raise LobbyError(_("You already have a seat in this match."))
        if match.is_full:
            raise LobbyError(_("Every seat is taken."))
        invited = match.row.invited_id
        if invited is not None and player.user_id != invited and (
            len(match.seats) + 1 >= match.seat_target
        ):
            raise LobbyError(_("This seat is reserved for {mention}, who was invited.",
                               mention=f"<@{invited}>"))

    async def leave(self, match_id: int, user_id: int) -> Match:
        """Give up a lobby seat. If the creator leaves, the lobby closes."""
        match = await self.get_or_fail(match_id)
        async with self._lock(match.channel_id):
            match = await self.get_or_fail(match_id)
            if match.status == "active":
                raise LobbyError(_("The game has started: use `/match resign` to concede."))
            if match.status != "lobby":
                raise LobbyError(self._closed_text(match))
            seat = match.seat_of(user_id)
            if seat is None:
                raise NotSeated(_("You do not have a seat in this lobby."))
            if user_id == match.row.creator_id:
                await self._write(self.store.close_match(
                    match.id, match.row.version, "cancelled", {"reason": "the creator left"}))
            else:
                seats = renumbered(s for s in match.seats if s.seat != seat)
                await self._write(self.store.set_seats(match.id, match.row.version, seats))
            return await self._committed(match_id)

    async def add_computer(self, match_id: int, user_id: int, level: str, *,
                           version: int | None = None) -> Match:
        """The lobby's creator seats a computer player; the last seat starts the match. With
        `version` (a lobby card's menu), only if the lobby has not changed since."""
        if level not in LEVELS:
            raise LobbyError(_("A computer plays at one of these levels: easy, normal, hard."))
        match = await self.get_or_fail(match_id)
        async with self._lock(match.channel_id):
            match = await self._own_lobby(match_id, user_id, version)
            if match.is_full:
                raise LobbyError(_("Every seat is taken."))
            invited = match.row.invited_id
            if invited is not None and len(match.seats) + 1 >= match.seat_target:
                raise LobbyError(_("The last seat is reserved for {mention}, who was invited.",
                                   mention=f"<@{invited}>"))
            computers = sum(seat.kind == "computer" for seat in match.seats)
            number = f" {computers + 1}" if computers else ""
            seat = SeatRow(len(match.seats), "computer", None, f"Computer{number} ({level})",
                           level)
            seats = [*match.seats, seat]
            if len(seats) >= match.seat_target:
                return await self._start(match, seats)
            await self._write(self.store.set_seats(match.id, match.row.version, seats))
            return await self._committed(match_id)

    async def remove_computer(self, match_id: int, user_id: int, *,
                              version: int | None = None) -> Match:
        """The lobby's creator takes out the computer seated last."""
        match = await self.get_or_fail(match_id)
        async with self._lock(match.channel_id):
            match = await self._own_lobby(match_id, user_id, version)
            computers = [seat.seat for seat in match.seats if seat.kind == "computer"]
            if not computers:
                raise LobbyError(_("No computer has a seat in this lobby."))
            seats = renumbered(s for s in match.seats if s.seat != computers[-1])
            await self._write(self.store.set_seats(match.id, match.row.version, seats))
            return await self._committed(match_id)

    async def _own_lobby(self, match_id: int, user_id: int, version: int | None) -> Match:
        """The lobby, re-read under its lock, if `user_id` opened it (and it is still at
        `version`, when given)."""
        match = await self.get_or_fail(match_id)
        if match.status != "lobby":
            raise LobbyError(self._closed_text(match))
        if version is not None and match.row.version != version:
            raise OutOfDate()
        if user_id != match.row.creator_id:
            raise NotAllowed(_("Only the player who opened the lobby can add or remove computer "
                               "players."))
        return match

    async def start(self, match_id: int, user_id: int) -> Match:
        """The creator starts the match with the seats taken so far."""
        match = await self.get_or_fail(match_id)
        async with self._lock(match.channel_id):
            match = await self.get_or_fail(match_id)
            if match.status != "lobby":
                raise LobbyError(self._closed_text(match))
            if user_id != match.row.creator_id:
                raise NotAllowed(_("Only the player who opened the lobby can start the match."))
            need = match.engine.MIN_SEATS
            if len(match.seats) < need:
                raise LobbyError(_("{game} needs at least {need} players; {seated} seated so "
                                   "far.", game=title(match.game), need=need,
                                   seated=len(match.seats)))
            return await self._start(match)

    async def _start(self, match: Match, seats: list[SeatRow] | None = None) -> Match:
        """Store the seats (by default those taken) and the first state: the match is on."""
        seats = list(match.seats) if seats is None else seats
        state = match.engine.new_game(len(seats), seed=match.row.seed,
                                      options=match.engine_options)
        await self._write(self.store.start(match.id, match.row.version, seats, state.to_dict()))
        return await self._committed(match.id)

    async def cancel(self, channel_id: int, user_id: int, *, moderator: bool,
                     match_id: int | None = None) -> Match:
        """Cancel the open match here (with `match_id`: only the lobby of that match)."""
        async with self._lock(channel_id):
            match = await self.require(channel_id)
            if match_id is not None and match.id != match_id:
                raise LobbyError(_("That lobby is closed; this message belongs to an old match."))
            if match_id is not None and match.status != "lobby":
                raise LobbyError(_("The game has started, so this lobby card's Cancel no longer "
                                   "applies: `/match cancel` stops the game."))
            if user_id != match.row.creator_id and not moderator:
                raise NotAllowed(_("Only the player who opened this match, or a member with "
                                   "Manage Messages, can cancel it."))
            await self._write(self.store.close_match(
                match.id, match.row.version, "cancelled", {"reason": "cancelled", "by": user_id}))
            return await self._committed(match.id)

    async def cancel_by_id(self, match_id: int, user_id: int, *, moderator: bool) -> Match:
        """The lobby card's Cancel: closes that match's lobby, and only while it is one."""
        match = await self.get_or_fail(match_id)
        if not match.is_open:
            raise LobbyError(self._closed_text(match))
        return await self.cancel(match.channel_id, user_id, moderator=moderator,
                                 match_id=match_id)
