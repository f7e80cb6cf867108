"""The night service's rounds: the start, seating each round, opening its tables as matches,
their results, and the next round or the end."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from bot.matches.model import Match
from bot.matches.ratings import ALL_TIME
from bot.nights.model import (
    CANCELLED, CHECKIN, DROPPED, DROPPING, FINISHED, PLAYING, RUNNING, SCHEDULED, SIGNED,
    WITHDRAWN, Night,
)
from bot.nights.results import drawn_result, table_result
from bot.nights.rounds import (
    DONE, PENDING, PLAYING as TABLE_PLAYING, is_computer, next_tables,
)
from bot.nights.signup import NightSignUp
from bot.storage.rows import NightTable, PlaceNames, SeatRow
from games.common import Outcome

MIN_PLAYERS = 2


class NightRounds(NightSignUp):
    """A night from its start to its podium."""

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
        seats = {m.seat for m in moves if m.seat is not None and m.actor == "clock"
                 and m.action in ("resign", "forfeit")}
        return [table.players[s] for s in sorted(seats) if not is_computer(table.players[s])]

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
