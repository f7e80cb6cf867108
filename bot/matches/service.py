"""The match service: lobbies, seats, turns, locking and persistence, with no Discord in it.

The Discord layer (or any other transport) calls these coroutines with plain ids and names.
Every change is made under a per-channel lock, re-reads the match inside it, and is committed
with a version check, so two racing clicks can never both apply. The lock is this process's
only: two processes sharing a PostgreSQL database (bot/matches/timekeeper.py) are kept apart by the
version check alone, and the one that loses is told `Conflict`; the lock spares the clicks of
one process that answer, and keeps its announcement tickets in commit order. A change is on disk before
the coroutine returns, so the caller only announces what has been saved; the match it returns
carries a ticket taken under the same lock (`Match.ticket`, bot/matches/commit_order.py), so
announcements can follow the commit order.
"""

from __future__ import annotations

import asyncio
import logging
import secrets
import time
import weakref
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from games.common import GameError, NotYourTurn, Outcome
from games.replay import Step, final_state, steps as replay_steps
from bot.matches.errors import (
    ChannelTaken, Conflict, LobbyError, NoMatchHere, NotAllowed, NotSeated, OthersTurn, OutOfDate,
    WrongGame,
)
from bot.matches.model import (
    ABANDONED_AFTER, AWAY, AWAY_ONCE, LEVELS, SEATS_OPTION, ActionResult, Match, Player, Timeout,
    player_name, renumbered,
)
from bot.matches.engines import engine_for
from bot.matches.commit_order import ChannelOrder
from bot.matches.records import build_record, match_steps
from bot.storage.errors import ChannelBusy, StaleVersion
from bot.storage.rows import (
    Clocks, FinishRecord, GuildSettings, MatchRow, MoveRow, PlaceNames, SeatRow, now_iso,
)
from bot.storage.store import Store
from bot.matches.turn_time import (
    DEFAULT_LOBBY_TIME, DEFAULT_ON_TIMEOUT, DEFAULT_TURN_TIME, LOBBY_TIMES, TURN_OPTION,
    TURN_TIMES, turn_seconds,
)
from bot.matches.titles import title
from i18n import Text, _


log = logging.getLogger(__name__)



class MatchService:
    def __init__(self, store: Store) -> None:
        self.store = store
        self._locks: weakref.WeakValueDictionary[int, asyncio.Lock] = weakref.WeakValueDictionary()
        self.order = ChannelOrder()
        self.on_write: Callable[[str, float], None] | None = None
        # told of every commit (the match as committed), e.g. to schedule a computer's turn
        self.on_commit: Callable[[Match], None] | None = None

    def _lock(self, channel_id: int) -> asyncio.Lock:
        lock = self._locks.get(channel_id)
        if lock is None:
            lock = self._locks[channel_id] = asyncio.Lock()
        return lock

    # -- reading -----------------------------------------------------------------------------

    def _decode(self, row: MatchRow) -> Match:
        engine = engine_for(row.game)
        state = None if row.state is None else engine.State.from_dict(row.state)
        return Match(row, engine, state)

    async def get(self, match_id: int) -> Match | None:
        row = await self.store.get_match(match_id)
        return None if row is None else self._decode(row)

    async def current(self, channel_id: int) -> Match | None:
        row = await self.store.open_match_in(channel_id)
        return None if row is None else self._decode(row)

    async def require(self, channel_id: int) -> Match:
        match = await self.current(channel_id)
        if match is None:
            last = await self.store.latest_match_in(channel_id)
            raise NoMatchHere(None if last is None else self._decode(last))
        return match

    async def open_matches(self) -> list[Match]:
        return [self._decode(row) for row in await self.store.open_matches()]

    async def open_in_guild(self, guild_id: int) -> list[Match]:
        """The server's lobbies and games in play, oldest first."""
        return [self._decode(row) for row in await self.store.open_matches_in_guild(guild_id)]

    async def latest(self, channel_id: int) -> Match | None:
        """The newest match in a channel, open or not."""
        row = await self.store.latest_match_in(channel_id)
        return None if row is None else self._decode(row)

    async def seated(self, channel_id: int, user_id: int, *,
                     game: str | None = None) -> tuple[Match, int]:
        """The open match here and the caller's seat in it (errors if either is missing, or if
        `game` is given and the match here is another game)."""
        match = await self.require(channel_id)
        if game is not None and match.game != game:
            raise WrongGame(match, game)
        seat = match.seat_of(user_id)
        if seat is None:
            raise NotSeated()
        return match, seat

    # -- lobby -------------------------------------------------------------------------------

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

    # -- playing -----------------------------------------------------------------------------

    async def act(self, channel_id: int, user_id: int, text: str, *, game: str | None = None,
                  match_id: int | None = None, version: int | None = None) -> ActionResult:
        """Parse and apply one action for the caller, then save it with the move log.

        With `match_id` (a button or menu on an older message, or in a DM) the action only
        applies if that match is still the one open in its channel; with `version`, only if
        nothing has happened in the match since the control was built. With `game` (a game's
        own command), only if the match here is of that game.
        """
        async with self._lock(channel_id):
            match, seat = await self._active_seat(channel_id, user_id, game=game)
            if match_id is not None and match.id != match_id:
                raise LobbyError(_("That match is over; this message belongs to an old game."))
            if version is not None and match.row.version != version:
                raise OutOfDate()
            move = match.engine.parse_move(text)
            try:
                state = match.engine.apply(match.state, seat, move)
            except NotYourTurn as error:
                seat = match.current_seat()
                player = None if seat is None else player_name(match.player(seat))
                raise OthersTurn(error, player) from None
            return await self._record(match, seat, str(move), state, person=True)

    async def act_for_computer(self, match_id: int, seat: int, version: int,
                               text: str) -> ActionResult | None:
        """Apply a computer seat's action like a person's; None (nothing done) when it is
        stale: the match moved on from `version` or is over. The action may come from a seat
        that is not to move where the rules allow it (a Scrabble challenge); `apply` checks."""
        match = await self.get(match_id)
        if match is None:
            return None
        async with self._lock(match.channel_id):
            match = await self.get(match_id)
            if (match is None or match.row.version != version or match.status != "active"
                    or not match.computer_plays(seat)):
                return None
            move = match.engine.parse_move(text)
            state = match.engine.apply(match.state, seat, move)
            once = match.player(seat).away == AWAY_ONCE  # its person has the next turn back
            return await self._record(match, seat, str(move), state, computer=True,
                                      away=(seat, None) if once else None)

    async def resign(self, channel_id: int, user_id: int) -> ActionResult:
        async with self._lock(channel_id):
            match, seat = await self._active_seat(channel_id, user_id)
            state = match.engine.resign(match.state, seat)
            return await self._record(match, seat, "resign", state, person=True)

    # -- clocks ------------------------------------------------------------------------------

    async def time_out(self, match_id: int, now: float) -> Timeout | None:
        """The turn clock of the seat to act ran out: do what the match's `on_timeout` says.
        None when nothing is due (the match moved on, or a computer plays that seat)."""
        match = await self.get_or_fail(match_id)
        async with self._lock(match.channel_id):
            match = await self.get_or_fail(match_id)
            seat = match.current_seat()
            due = match.turn_due
            if due is None or due > now:
                return None
            # Waiting between rounds (any seat may deal the next or stop): the series ends.
            stopper = 0 if seat is None else seat
            stopped = self._try(match, stopper, "stop")
            if stopped is not None:
                return Timeout("stop", match, stopper,
                               await self._record(match, stopper, "stop", stopped))
            if seat is None or match.computer_plays(seat):
                return None
            if match.row.on_timeout == "skip":
                passed = self._try(match, seat, "pass")
                if passed is None:  # no pass here: a computer makes this one move
                    return await self._away(match, seat, AWAY_ONCE)
                return Timeout("skip", match, seat, await self._record(match, seat, "pass", passed))
            if match.row.on_timeout == "forfeit":
                # Where the game has a forfeit the others play on (a computer takes the seat).
                forfeit = getattr(match.engine, "forfeit", None)
                action = "forfeit" if forfeit is not None else "resign"
                state = (forfeit or match.engine.resign)(match.state, seat)
                result = await self._record(match, seat, action, state, away=(seat, AWAY))
                return Timeout("forfeit", match, seat, result)
            return await self._away(match, seat, AWAY)

    @staticmethod
    def _try(match: Match, seat: int, text: str) -> Any | None:
        """The state after `seat` makes the move `text`, or None where the rules refuse it."""
        try:
            return match.engine.apply(match.state, seat, match.engine.parse_move(text))
        except GameError:
            return None

    async def _away(self, match: Match, seat: int, away: str) -> Timeout:
        await self._write(self.store.set_away(match.id, match.row.version, seat, away))
        return Timeout("away" if away == AWAY else "once", match, seat, None,
                       await self._committed(match.id))

    async def come_back(self, match_id: int, user_id: int) -> Match:
        """A person who was away plays their own turns again."""
        match = await self.get_or_fail(match_id)
        async with self._lock(match.channel_id):
            match = await self.get_or_fail(match_id)
            seat = match.seat_of(user_id)
            if seat is None:
                raise NotSeated()
            if match.status != "active":
                raise LobbyError(self._closed_text(match))
            if match.player(seat).away is None:
                raise LobbyError(_("You are not away: your turns are yours."))
            await self._write(self.store.set_away(match.id, match.row.version, seat, None))
            return await self._committed(match.id)

    async def hand_to_computer(self, channel_id: int, user_id: int, target_id: int, *,
                               moderator: bool) -> Match:
        """A computer plays `target_id`'s turns from now on, until they are back: `/match
        leave` during a game (target = the caller), or `/match kick` by the match's creator
        or a moderator."""
        async with self._lock(channel_id):
            match = await self.require(channel_id)
            if match.status != "active":
                raise LobbyError(_("The game has not started: in a lobby, `/match leave` gives "
                                   "up your seat.") if match.status == "lobby" else
                                 self._closed_text(match))
            if user_id != target_id and user_id != match.row.creator_id and not moderator:
                raise NotAllowed(_("Only the player who opened this match, or a member with "
                                   "Manage Server, can hand a seat to a computer."))
            seat = match.seat_of(target_id)
            if seat is None:
                raise NotSeated(None if user_id == target_id else
                                _("{mention} is not playing in this match.",
                                  mention=f"<@{target_id}>"))
            if match.player(seat).away is not None:
                raise LobbyError(_("A computer already plays {player}'s turns.",
                                   player=player_name(match.player(seat))))
            await self._write(self.store.set_away(match.id, match.row.version, seat, AWAY))
            return await self._committed(match.id)

    async def close_idle(self, match_id: int, reason: str, now: float) -> Match | None:
        """Close a lobby that did not fill in time (`lobby`) or a match where no person acted
        for `ABANDONED_AFTER` (`abandoned`); None if it is no longer due."""
        match = await self.get_or_fail(match_id)
        async with self._lock(match.channel_id):
            match = await self.get_or_fail(match_id)
            row = match.row
            if reason == "lobby":
                due = (None if match.status != "lobby" or row.lobby_seconds is None
                       else (row.turn_since or now) + row.lobby_seconds)
            else:
                due = None if match.status != "active" else (row.human_at or now) + ABANDONED_AFTER
            if due is None or due > now:
                return None
            await self._write(self.store.close_match(match.id, row.version, "cancelled",
                                                     {"reason": reason}))
            return await self._committed(match.id)

    async def _active_seat(self, channel_id: int, user_id: int, *,
                           game: str | None = None) -> tuple[Match, int]:
        match, seat = await self.seated(channel_id, user_id, game=game)
        if match.status == "lobby":
            raise LobbyError(_("The match has not started yet: it starts when every seat is "
                               "taken, or when its creator uses `/match start`."))
        return match, seat

    async def _record(self, match: Match, seat: int, action: str, state: Any, *,
                      person: bool = False, computer: bool = False,
                      away: tuple[int, str | None] | None = None) -> ActionResult:
        """Save an action. A person acting for their own seat is back if they were away."""
        result = match.engine.outcome(state)
        if person and not computer and match.player(seat).away is not None:
            away = (seat, None)
        actor = "computer" if computer else "person" if person else "clock"
        record = None if result is None else await self._finish_record(
            match, MoveRow(0, seat, action, now_iso(), actor), result)
        await self._write(self.store.record_action(
            match.id, match.row.version, seat=seat, action=action, state=state.to_dict(),
            status="active" if result is None else "finished",
            result=None if result is None else result.to_dict(), person=person, away=away,
            actor=actor, record=record,
        ))
        return ActionResult(await self._committed(match.id), seat, action, state.events)

    async def _finish_record(self, match: Match, last: MoveRow, outcome: Outcome) -> FinishRecord:
        """The record the last action `last` completes: the log is read back in a thread (the
        event loop keeps answering meanwhile)."""
        moves = [*await self.store.moves(match.id), last]
        try:
            found = await asyncio.to_thread(match_steps, match, moves)
        except Exception as error:  # the game still ends: its record lacks what the log adds
            log.warning("the move log of match %s does not read back (%r): its record is kept "
                        "without highlights", match.id, error)
            found = []
        return build_record(match, found, moves, outcome)

    async def replay(self, match_id: int) -> Any:
        """Rebuild a match's state from its seed and move log (an audit of the log)."""
        match = await self.get_or_fail(match_id)
        moves = await self.store.moves(match_id)
        return final_state(match.engine, len(match.seats), match.row.seed,
                           match.engine_options, ((m.seat, m.action) for m in moves))

    async def steps(self, match: Match) -> list[Step]:
        """Every action of `match` so far with the states around it (see games/replay.py)."""
        moves = await self.store.moves(match.id)
        if match.state is None:  # a lobby: nothing was dealt
            return []
        return list(replay_steps(match.engine, len(match.seats), match.row.seed,
                          match.engine_options, ((m.seat, m.action) for m in moves)))

    # -- helpers -----------------------------------------------------------------------------

    async def get_or_fail(self, match_id: int) -> Match:
        match = await self.get(match_id)
        if match is None:
            raise LobbyError(_("That match no longer exists."))
        return match

    async def _committed(self, match_id: int) -> Match:
        """The match as just committed, with its place in the channel's announcement order
        (call under the channel's lock, so the tickets follow the commit order)."""
        match = await self.get_or_fail(match_id)
        match = replace(match, ticket=self.order.take(match.channel_id))
        if self.on_commit is not None:
            self.on_commit(match)
        return match

    async def _write(self, operation: Any) -> None:
        started = time.perf_counter()
        try:
            await operation
        except StaleVersion:
            raise Conflict() from None
        finally:
            if self.on_write is not None:  # operators' metrics: database time per action
                self.on_write(getattr(operation, "__name__", "write"),
                              time.perf_counter() - started)

    @staticmethod
    def _closed_text(match: Match) -> Text:
        if match.status == "active":
            return _("The match has already started.")
        if match.status == "finished":
            return _("That match is over.")
        if match.status == "cancelled":
            return _("That match was cancelled.")
        return _("That lobby is closed.")
