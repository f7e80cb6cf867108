"""The match service: lobbies, seats, turns, locking and persistence, with no Discord in it.

The Discord layer (or any other transport) calls these coroutines with plain ids and names.
Every change is made under a per-channel lock, re-reads the match inside it, and is committed
with a version check, so two racing clicks can never both apply. The lock is this process's
only: two processes sharing a PostgreSQL database (bot/matches/timekeeper.py) are kept apart
by the version check alone, and the one that loses is told `Conflict`; the lock spares the
clicks of one process that answer, and keeps its announcement tickets in commit order. A
change is on disk before the coroutine returns, so the caller only announces what has been
saved; the match it returns carries a ticket taken under the same lock (`Match.ticket`,
bot/matches/commit_order.py), so announcements can follow the commit order.
"""

from __future__ import annotations

from typing import Any

from games.common import GameError, NotYourTurn
from bot.matches.night_tables import NightTableActions
from bot.matches.errors import LobbyError, NotAllowed, NotSeated, OthersTurn, OutOfDate
from bot.matches.model import (
    ABANDONED_AFTER, AWAY, AWAY_ONCE, ActionResult, Match, Timeout, player_name,
)
from i18n import _


class MatchService(NightTableActions):
    """The match service: reading and saving (`ServiceCore`, bot/matches/core.py), lobbies
    (`LobbyActions`, bot/matches/lobbies.py), game nights' tables (`NightTableActions`,
    bot/matches/night_tables.py), and here playing and the turn clocks' actions."""

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
            # Waiting between rounds (any seat may deal the next or stop): the series ends,
            # or, where it may not stop (a fixed number of rounds), the next round is dealt.
            actor = 0 if seat is None else seat
            for action, kind in (("stop", "stop"), ("next", "deal")):
                after = self._try(match, actor, action)
                if after is not None:
                    return Timeout(kind, match, actor,
                                   await self._record(match, actor, action, after))
            if seat is None or match.computer_plays(seat):
                return None
            if match.row.on_timeout == "skip":
                passed = self._try(match, seat, "pass")
                if passed is None:  # no pass here: a computer makes this one move
                    return await self._away(match, seat, AWAY_ONCE)
                return Timeout("skip", match, seat, await self._record(match, seat, "pass", passed))
            if match.row.on_timeout == "forfeit" or await self.no_show(match, seat):
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
