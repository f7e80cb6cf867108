"""A night's host controls and a player's leaving: drop, remove, substitute, override a
result, pause, resume and re-pair (the last part of `NightService`). Each override is logged."""

from __future__ import annotations

from typing import Any

from bot.matches.errors import LobbyError, NotSeated
from bot.nights.model import DROPPED, DROPPING, PLAYING, REMOVED, RUNNING, SIGNED, Night
from bot.nights.playing import NightRounds
from bot.nights.results import table_result
from bot.nights.rounds import DONE, PENDING, PLAYING as TABLE_PLAYING
from games.common import Outcome
from i18n import _


class NightHosting(NightRounds):
    """Host controls, and a player's drop."""

    async def drop(self, night_id: int, user_id: int) -> Night:
        """Leave the night at the end of the current game (at once between games)."""
        async with self.lock(night_id):
            night = await self.require(night_id)
            player = night.player(user_id)
            if player is None or player.state not in (PLAYING, DROPPING, SIGNED):
                raise NotSeated(_("You are not playing in game night #{id}.", id=str(night_id)))
            table = night.table_of(user_id)
            busy = table is not None and table.status in (PENDING, TABLE_PLAYING)
            state = DROPPING if busy and night.row.status == RUNNING else DROPPED
            await self.store.put_player(night_id, user_id, player.name, state=state,
                                        **({} if night.row.status == RUNNING
                                           else {"opted_out": True, "signed_card": False}))
            return await self._committed(night_id)

    async def remove(self, night_id: int, host_id: int, user_id: int) -> Night:
        """The host takes a player out of the coming rounds (their game in play goes on,
        a computer playing their turns)."""
        async with self.lock(night_id):
            night = await self.require(night_id)
            player = night.player(user_id)
            if player is None or player.state == REMOVED:
                raise NotSeated(_("{mention} is not in game night #{id}.",
                                  mention=f"<@{user_id}>", id=str(night_id)))
            await self.store.put_player(night_id, user_id, player.name, state=REMOVED)
            await self._log(night_id, host_id, "remove", {"player": user_id})
            return await self._committed(night_id)

    async def sub(self, night_id: int, host_id: int, out_id: int, in_id: int,
                  name: str) -> Night:
        """`in_id` takes `out_id`'s seat at their table in the round in play, and their place
        in the rounds to come; the game goes on."""
        async with self.lock(night_id):
            night = await self.require(night_id)
            table = night.table_of(out_id)
            leaving = night.player(out_id)
            if table is None or leaving is None or table.status not in (PENDING, TABLE_PLAYING):
                raise NotSeated(_("{mention} has no game in this round to hand over.",
                                  mention=f"<@{out_id}>"))
            coming = night.player(in_id)
            if coming is not None and coming.state in (PLAYING, DROPPING):
                raise LobbyError(_("{mention} already plays in this night.",
                                   mention=f"<@{in_id}>"))
            if table.match_id is not None:
                await self.matches.substitute(table.match_id, out_id, in_id, name)
            players = tuple(in_id if p == out_id else p for p in table.players)
            await self.store.set_table(night_id, table.round, table.number, players=players)
            await self.store.put_player(night_id, out_id, leaving.name, state=DROPPED)
            await self.store.put_player(night_id, in_id, name, state=PLAYING, checked_in=True,
                                        signed_card=True, joined_round=night.row.round)
            await self._log(night_id, host_id, "sub", {"out": out_id, "in": in_id,
                                                       "round": table.round,
                                                       "table": table.number})
            return await self._committed(night_id)

    async def override(self, night_id: int, host_id: int, round_: int, number: int,
                       winner_ids: list[int], reason: str) -> Night:
        """The host sets a table's result: `winner_ids` share first place, the others share
        the next (its game in play, if any, ends). Logged with the reason."""
        async with self.lock(night_id):
            night = await self.require(night_id)
            table = next((t for t in night.tables if (t.round, t.number) == (round_, number)),
                         None)
            if table is None or len(table.players) < 2:
                raise LobbyError(_("Round {round} has no table {table} with players.",
                                   round=round_, table=number))
            if not winner_ids or any(w not in table.players for w in winner_ids):
                raise LobbyError(_("The winners must be players at that table."))
            if table.status == TABLE_PLAYING and table.match_id is not None:
                await self.matches.end_for_night(table.match_id, "result set by the host")
            winners = tuple(i for i, p in enumerate(table.players) if p in winner_ids)
            outcome = Outcome(scores=tuple(0 for _ in table.players), winners=winners,
                              reason="host", draw=len(winners) == len(table.players))
            result = {**table_result(outcome, len(table.players), night.row.game),
                      "note": reason}
            await self.store.set_table(night_id, round_, number, status=DONE, result=result)
            await self._log(night_id, host_id, "result", {"round": round_, "table": number,
                                                          "winners": winner_ids,
                                                          "reason": reason})
            return await self._committed(night_id)

    async def pause(self, night_id: int, host_id: int, paused: bool) -> Night:
        """Pause: no new round starts (games in play go on); resume lets it."""
        async with self.lock(night_id):
            night = await self.require(night_id)
            if night.row.status != RUNNING:
                raise LobbyError(_("Game night #{id} is not in play.", id=str(night_id)))
            if night.row.paused == paused:
                raise LobbyError(_("Game night #{id} is already paused.", id=str(night_id))
                                 if paused else
                                 _("Game night #{id} is not paused.", id=str(night_id)))
            await self._write(self.store.update_night(night_id, night.row.version,
                                                      paused=paused))
            await self._log(night_id, host_id, "pause" if paused else "resume", {})
            return await self._committed(night_id)

    async def repair(self, night_id: int, host_id: int) -> Night:
        """Pair the current round again (only before any of its games has started), with
        the players in play now."""
        async with self.lock(night_id):
            night = await self.require(night_id)
            tables = night.round_tables()
            if night.row.status != RUNNING or any(t.match_id is not None for t in tables):
                raise LobbyError(_("This round's games have started: it can no longer be "
                                   "paired again."))
            earlier = Night(night.row, night.players,
                            tuple(t for t in night.tables if t.round < night.row.round))
            await self._log(night_id, host_id, "repair", {"round": night.row.round})
            return await self._seat_round(earlier, night.row.round)

    async def _log(self, night_id: int, user_id: int | None, action: str,
                   detail: dict[str, Any]) -> None:
        await self.store.log_night(night_id, self.clock.now(), user_id, action, detail)


