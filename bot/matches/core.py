"""What every part of the match service stands on: the store, the per-channel locks, reading
matches, and saving an action with the move log, in commit order."""

from __future__ import annotations

import asyncio
import logging
import time
import weakref
from collections.abc import Callable
from dataclasses import replace
from typing import Any

from games.common import Outcome
from games.replay import Step, final_state, steps as replay_steps
from bot.matches import log_context
from bot.matches.errors import Conflict, LobbyError, NoMatchHere, NotSeated, WrongGame
from bot.matches.model import ActionResult, Match
from bot.matches.engines import engine_for
from bot.matches.commit_order import ChannelOrder
from bot.matches.records import HINTED, build_record, match_steps
from bot.storage.errors import StaleVersion
from bot.storage.rows import FinishRecord, MatchRow, MoveRow, now_iso
from bot.storage.store import Store
from i18n import Text, _


log = logging.getLogger(__name__)


class ServiceCore:
    """The store, the per-channel locks, reading matches and saving actions."""

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

    @staticmethod
    def _about(match: Match) -> Match:
        """Log lines from here on in this task are about `match` (LOG_FORMAT=json)."""
        log_context.about(match_id=match.id, guild_id=match.row.guild_id,
                          channel_id=match.row.channel_id)
        return match

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
        return self._about(match)

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
        self._about(match)
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
        record = build_record(match, found, moves, outcome)
        if record.unrated is None and await self.store.hinted(match.id):
            record = replace(record, unrated=HINTED)  # the coach helped someone
        return record

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

    async def in_order(self, match_id: int) -> Match | None:
        """The match as saved now, with a place in its channel's announcement order after
        every change committed so far: to show it again (a board owed since a crash, a
        moved deadline) without a new change, never above the board of a later one."""
        match = await self.get(match_id)
        if match is None:
            return None
        async with self._lock(match.channel_id):
            match = await self.get(match_id)
            return None if match is None else replace(
                match, ticket=self.order.take(match.channel_id))

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
