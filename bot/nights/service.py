"""The night service: a game night from its scheduling to its podium, with no Discord in it.

The Discord side (bot/ui/nights/) calls these coroutines with plain ids and names, and shows
what they return. Every change of a night is made under the night's lock, re-reads it inside,
and is committed only if its version is unchanged (across processes, the loser is told
`Conflict`). Tables become matches through the match service, so a night's games are normal
Gamenight matches, with their move log, clocks and computers.
"""

from __future__ import annotations

import asyncio
import secrets
import weakref
from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import Any

from bot.matches.deadlines import Clock
from bot.matches.errors import Conflict, LobbyError, NotAllowed
from bot.matches.model import Match
from bot.matches.ratings import ALL_TIME
from bot.matches.service import MatchService
from bot.nights.hosting import NightHosting
from bot.nights.model import (
    CANCELLED, CHECKIN, DROPPED, DROPPING, FINISHED, GONE, PLAYING, REMOVED, RUNNING,
    SCHEDULED, SIGNED, WITHDRAWN, Night,
)
from bot.nights.plan import Plan, check_plan
from bot.nights.results import drawn_result, table_result
from bot.nights.seasons import SeasonLine, Span, current_span, season_table
from bot.nights.rounds import (
    BYE, DONE, OUT, PENDING, PLAYING as TABLE_PLAYING, is_computer, next_tables,
)
from bot.storage.errors import StaleVersion
from bot.storage.rows import NightSettings, NightTable, PlaceNames, Season, SeatRow
from i18n import _

MIN_PLAYERS = 2


class NightService(NightHosting):
    def __init__(self, store: Any, matches: MatchService, clock: Clock) -> None:
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

    # -- rounds ------------------------------------------------------------------------------

    async def begin(self, night_id: int) -> Night | None:
        """The start: those checked in play round 1 (a night with fewer than two is
        cancelled). None when it already began or was called off."""
        async with self.lock(night_id):
            night = await self.require(night_id)
            if night.row.status not in (SCHEDULED, CHECKIN):
                return None
            players = [p for p in night.players if p.checked_in and p.state == SIGNED]
            if len(players) < MIN_PLAYERS:
                await self._write(self.store.update_night(night_id, night.row.version,
                                                          status=CANCELLED))
                return await self._committed(night_id)
            for player in players:  # round 1 is paired by rating on a rated night
                found = await self.store.rating(night.row.guild_id, night.row.game, ALL_TIME,
                                                player.user_id)
                await self.store.put_player(night_id, player.user_id, player.name,
                                            state=PLAYING, joined_round=1,
                                            rating=None if found is None else found.display)
            for player in night.players:
                if player not in players and player.state == SIGNED:
                    await self.store.put_player(night_id, player.user_id, player.name,
                                                state=WITHDRAWN)
            options = {**night.row.options, "planned_rounds": night.plan.rounds_for(
                len(players))}
            await self._write(self.store.update_night(night_id, night.row.version,
                                                      options=options, status=RUNNING))
            night = await self.require(night_id)
            return await self._seat_round(night, 1)

    async def _seat_round(self, night: Night, round_: int) -> Night:
        ranked = [s.player for s in night.standings()]
        playing = {p.user_id for p in night.in_play}
        ranked = [p for p in ranked if p in playing] + sorted(playing - set(ranked))
        first = [pid for t in night.round_tables(1) for pid in t.players if not is_computer(pid)]
        scores = {s.player: s.points for s in night.standings()}
        ratings = {p.user_id: p.rating for p in night.in_play if p.rating is not None}
        tables = next_tables(night.plan, round_, ranked, scores, night.tables, night.row.seed,
                             ratings or None, first)
        due = (None if night.plan.round_minutes is None
               else self.clock.now() + night.plan.round_minutes * 60)
        await self._write(self.store.start_round(night.id, night.row.version, tables,
                                                 round=round_, round_due=due,
                                                 round_message_id=None))
        return await self._committed(night.id)

    async def open_table(self, night_id: int, table: NightTable, thread_id: int,
                         place: PlaceNames) -> Match | None:
        """The table's match, in its thread: started at once with its players seated. None
        when the table already has its match or is no longer to be played."""
        async with self.lock(night_id):
            night = await self.require(night_id)
            current = next((t for t in night.tables
                            if (t.round, t.number) == (table.round, table.number)), None)
            if current is None or current.status != PENDING or night.row.paused:
                return None
            seats = [self._seat(night, i, pid) for i, pid in enumerate(current.players)]
            plan = night.plan
            options: dict[str, Any] = {"players": len(seats)} if plan.game == "scrabble" else {}
            if plan.game == "doudizhu":
                options["deals"] = plan.deals
            if plan.turn_time:
                options["turn_time"] = plan.turn_time
            if not plan.rated:
                options["unrated"] = "night"
            return await self.matches.open_table(
                night.row.game, guild_id=night.row.guild_id, channel_id=thread_id, seats=seats,
                options=options, place=place, table=(night_id, table.round, table.number))

    @staticmethod
    def _seat(night: Night, seat: int, player_id: int) -> SeatRow:
        if is_computer(player_id):
            number = f" {-player_id}" if player_id < -1 else ""
            return SeatRow(seat, "computer", None, f"Computer{number} (normal)", "normal")
        return SeatRow(seat, "user", player_id, night.name(player_id))

    async def match_ended(self, match: Match) -> Night | None:
        """A table's match finished (or was cancelled): its result is stored; the night (or
        None, if the match is no night's table or nothing changed)."""
        found = await self.night_of_match(match.id)
        if found is None:
            return None
        night, table = found
        async with self.lock(night.id):
            night = await self.require(night.id)
            table = next(t for t in night.tables if t.match_id == match.id)
            if table.status != TABLE_PLAYING:
                return None
            if match.status == "finished" and match.row.result is not None:
                from games.common import Outcome
                outcome = Outcome.from_dict(match.row.result)
                forfeits = await self._forfeits(match, table)
                result = table_result(outcome, len(table.players), night.row.game, forfeits)
            else:
                forfeits = []
                result = drawn_result(len(table.players))
            await self.store.set_table(night.id, table.round, table.number, status=DONE,
                                       result=result)
            await self._after_game(night, table, forfeits)
            return await self._committed(night.id)

    async def _forfeits(self, match: Match, table: NightTable) -> list[int]:
        """Who lost by walkover: the seats the clock resigned or forfeited (a no-show)."""
        moves = await self.store.moves(match.id)
        seats = {m.seat for m in moves if m.actor == "clock" and m.action in ("resign",
                                                                             "forfeit")}
        return [table.players[s] for s in sorted(seats) if s is not None
                and table.players[s] > 0]

    async def _after_game(self, night: Night, table: NightTable,
                          forfeits: Sequence[int] = ()) -> None:
        """Who dropped during this game leaves the night now; who did not show up is
        withdrawn until they check in again."""
        for pid in table.players:
            player = night.player(pid)
            if player is None:
                continue
            if player.state == DROPPING:
                await self.store.put_player(night.id, pid, player.name, state=DROPPED)
            elif pid in forfeits and player.state == PLAYING:
                await self.store.put_player(night.id, pid, player.name, state=WITHDRAWN)

    async def advance(self, night_id: int, *, force: bool = False) -> Night | None:
        """The round is over (every table done, or `force`: the host's `next` or the round's
        deadline, which end the games still playing with a shared place): seat the next round,
        or finish the night. None when the round is not over. A paused night's next round is
        seated, but its tables open only once it resumes."""
        async with self.lock(night_id):
            night = await self.require(night_id)
            if night.row.status != RUNNING:
                return None
            if not night.round_done:
                if not force:
                    return None
                await self._close_round(night)
                night = await self.require(night_id)
            if night.row.round >= night.rounds or len(night.in_play) < MIN_PLAYERS:
                await self._write(self.store.update_night(night_id, night.row.version,
                                                          status=FINISHED, round_due=None))
                return await self._committed(night_id)
            return await self._seat_round(night, night.row.round + 1)

    async def _close_round(self, night: Night) -> None:
        for table in night.round_tables():
            if table.status == PENDING:
                await self.store.set_table(night.id, table.round, table.number, status=DONE,
                                           result=drawn_result(len(table.players)))
            elif table.status == TABLE_PLAYING and table.match_id is not None:
                await self.matches.end_for_night(table.match_id, "round over")
                await self.store.set_table(night.id, table.round, table.number, status=DONE,
                                           result=drawn_result(len(table.players)))
                await self._after_game(night, table)


PLAN_PROBLEMS = {
    "format": _("A night's format is one of: swiss, round-robin, casual."),
    "table": _("That game does not seat that many at a table."),
    "round_robin_tables": _("A round robin pairs two players: choose swiss or casual for "
                            "tables of three or four."),
    "rounds": _("A night plays 1 to 20 rounds."),
    "round_minutes": _("A round lasts 5 minutes to a day."),
    "checkin": _("Check-in opens up to a day before the start."),
}

__all__ = ["NightService", "MIN_PLAYERS", "BYE", "OUT", "DROPPED"]
