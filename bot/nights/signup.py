"""The night service's part before the start: scheduling, editing and calling off a night,
signing up (the card, the Discord event), check-in, and joining late."""

from __future__ import annotations

import secrets
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from bot.matches.errors import LobbyError, NotAllowed
from bot.nights.core import NightCore
from bot.nights.model import (
    CANCELLED, CHECKIN, DROPPING, PLAYING, REMOVED, RUNNING, SCHEDULED, WITHDRAWN, Night,
)
from bot.nights.plan import Plan, check_plan
from bot.nights.rounds import PLAYING as TABLE_PLAYING
from i18n import _


class NightSignUp(NightCore):
    """A night from its scheduling to its start."""

    # -- scheduling --------------------------------------------------------------------------

    async def schedule(self, *, guild_id: int, channel_id: int, host_id: int, plan: Plan,
                       start_at: float) -> Night:
        problem = check_plan(plan)
        if problem is not None:
            raise LobbyError(PLAN_PROBLEMS[problem])
        if start_at <= self.clock.now():
            raise LobbyError(_("That time has passed: choose a start in the future."))
        night_id = await self.store.create_night(
            guild_id=guild_id, channel_id=channel_id, host_id=host_id, game=plan.game,
            format=plan.format, options=plan.options(), start_at=start_at,
            seed=secrets.randbits(62))
        return await self._committed(night_id)

    async def set_discord(self, night_id: int, **columns: Any) -> Night:
        """Note the Discord things that show the night (`event_id`, `card_message_id`...)."""
        async with self.lock(night_id):
            night = await self.require(night_id)
            await self._write(self.store.update_night(night_id, night.row.version, **columns))
            return await self._committed(night_id)

    async def edit(self, night_id: int, *, start_at: float | None = None,
                   changes: dict[str, Any] | None = None) -> Night:
        """Change a night's start or plan before it starts."""
        async with self.lock(night_id):
            night = await self.require(night_id)
            if night.row.status not in (SCHEDULED, CHECKIN):
                raise LobbyError(_("Game night #{id} has started: only its start and plan "
                                   "before then can change.", id=str(night_id)))
            plan = replace(night.plan, **(changes or {}))
            problem = check_plan(plan)
            if problem is not None:
                raise LobbyError(PLAN_PROBLEMS[problem])
            columns: dict[str, Any] = {"options": {**night.row.options, **plan.options()}}
            if start_at is not None:
                if start_at <= self.clock.now():
                    raise LobbyError(_("That time has passed: choose a start in the future."))
                columns.update(start_at=start_at, status=SCHEDULED)
            await self._write(self.store.update_night(night_id, night.row.version, **columns))
            return await self._committed(night_id)

    async def cancel(self, night_id: int) -> Night:
        """Call the night off; its games in play end without a result."""
        async with self.lock(night_id):
            night = await self.require(night_id)
            if not night.is_open:
                raise LobbyError(_("Game night #{id} is already over.", id=str(night_id)))
            for table in night.round_tables():
                if table.status == TABLE_PLAYING and table.match_id is not None:
                    await self.matches.end_for_night(table.match_id, "night cancelled")
            await self._write(self.store.update_night(night_id, night.row.version,
                                                      status=CANCELLED, round_due=None))
            return await self._committed(night_id)

    # -- signing up and checking in ----------------------------------------------------------

    async def sign(self, night_id: int, user_id: int, name: str, *, in_: bool) -> Night:
        """I'm in / I'm out on the card."""
        async with self.lock(night_id):
            night = await self.require(night_id)
            if not night.is_open:
                raise LobbyError(_("Game night #{id} is over.", id=str(night_id)))
            player = night.player(user_id)
            if in_:
                if night.row.status == RUNNING:
                    if player is not None and player.state in (PLAYING, DROPPING):
                        raise LobbyError(_("You are checked in and playing."))
                    return await self._late_join(night, user_id, name)
                await self.store.put_player(night_id, user_id, name, signed_card=True,
                                            opted_out=False)
            else:
                if night.row.status == RUNNING and player is not None and player.state in (
                        PLAYING, DROPPING):
                    raise LobbyError(_("You are playing in this night: `/gamenight night drop` "
                                       "leaves it after your current game."))
                await self.store.put_player(night_id, user_id, name, signed_card=False,
                                            opted_out=True, checked_in=False)
            return await self._committed(night_id)

    async def event_interest(self, night_id: int, users: Sequence[tuple[int, str]]) -> Night:
        """Who is Interested on the Discord event now: they are signed up (unless they pressed
        I'm out), and those no longer Interested are not, by the event."""
        async with self.lock(night_id):
            night = await self.require(night_id)
            now = {user_id: name for user_id, name in users}
            for user_id, name in now.items():
                player = night.player(user_id)
                if player is None or not player.signed_event:
                    await self.store.put_player(night_id, user_id, name, signed_event=True)
            for player in night.players:
                if player.signed_event and player.user_id not in now:
                    await self.store.put_player(night_id, player.user_id, player.name,
                                                signed_event=False)
            return await self._committed(night_id)

    async def open_checkin(self, night_id: int) -> Night | None:
        """Check-in opens (None: it already has, or the night is no longer scheduled)."""
        async with self.lock(night_id):
            night = await self.require(night_id)
            if night.row.status != SCHEDULED:
                return None
            await self._write(self.store.update_night(night_id, night.row.version,
                                                      status=CHECKIN))
            return await self._committed(night_id)

    async def mark_pinged(self, night_id: int, user_id: int, name: str) -> None:
        await self.store.put_player(night_id, user_id, name, pinged=True)

    async def check_in(self, night_id: int, user_id: int, name: str) -> Night:
        """Check in (during check-in); once the night runs, join late or come back after
        being withdrawn."""
        async with self.lock(night_id):
            night = await self.require(night_id)
            player = night.player(user_id)
            if night.row.status == SCHEDULED:
                raise LobbyError(_("Check-in for game night #{id} has not opened yet: it opens "
                                   "{minutes} minutes before the start.", id=str(night_id),
                                   minutes=night.plan.checkin_minutes))
            if night.row.status == RUNNING:
                if player is not None and player.state in (PLAYING, DROPPING):
                    raise LobbyError(_("You are checked in and playing."))
                return await self._late_join(night, user_id, name)
            if not night.is_open:
                raise LobbyError(_("Game night #{id} is over.", id=str(night_id)))
            if player is not None and player.state == REMOVED:
                raise NotAllowed(_("The host took you out of this game night."))
            await self.store.put_player(night_id, user_id, name, checked_in=True,
                                        signed_card=True, opted_out=False)
            return await self._committed(night_id)

    async def _late_join(self, night: Night, user_id: int, name: str) -> Night:
        """Join a night in play, or come back: allowed until half its rounds have started (a
        player withdrawn for not showing may always come back)."""
        player = night.player(user_id)
        if player is not None and player.state == REMOVED:
            raise NotAllowed(_("The host took you out of this game night."))
        back = player is not None and player.state == WITHDRAWN
        if not back and night.row.round > night.rounds // 2:
            raise LobbyError(_("Game night #{id} is past half its rounds: it is too late to "
                               "join.", id=str(night.id)))
        if night.plan.format == "round-robin" and not back:
            raise LobbyError(_("A round robin's schedule is made at the start: it is too "
                               "late to join."))
        joined = player.joined_round if back and player is not None else night.row.round + 1
        await self.store.put_player(night.id, user_id, name, checked_in=True, signed_card=True,
                                    opted_out=False, state=PLAYING, joined_round=joined)
        return await self._committed(night.id)


PLAN_PROBLEMS = {
    "format": _("A night's format is one of: swiss, round-robin, casual."),
    "table": _("That game does not seat that many at a table."),
    "round_robin_tables": _("A round robin pairs two players: choose swiss or casual for "
                            "tables of three or four."),
    "rounds": _("A night plays 1 to 20 rounds."),
    "round_minutes": _("A round lasts 5 minutes to a day."),
    "checkin": _("Check-in opens up to a day before the start."),
}
