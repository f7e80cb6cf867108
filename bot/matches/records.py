"""A finished match's record: places, scores, highlights, time per turn, and its contests.

Built from the move log when the last action is about to be saved (and written in the same
transaction, bot/storage/records.py), or later for matches that finished before records were
kept.
`recompute` rebuilds every rating from the move logs alone: the stored ratings must agree.
"""

from __future__ import annotations

import logging
from collections.abc import Sequence
from datetime import datetime
from typing import Any

from bot.matches.model import UNRATED_OPTION
from bot.matches.ratings import ALL_TIME, Skill, rate, season_of
from bot.storage.rows import FinishRecord, MoveRow, SeatResult
from bot.storage.store import Store
from games.common import Outcome
from games.contests import contests, standing
from games.engine import Engine
from games.replay import Step, steps

log = logging.getLogger(__name__)

COMPUTER, AWAY, NO_SERVER = "computer", "away", "no_server"  # why a match is unrated
HINTED = "hint"  # unrated: someone was shown a hint (`/match hint`)


def unrated_reason(match: Any, moves: Sequence[MoveRow]) -> str | None:
    """Why a match moves no rating, or None: a computer sat at the table, or played a turn
    of a person's seat (it was away), or the match was not in a server."""
    if match.guild_id is None:
        return NO_SERVER
    if match.row.options.get(UNRATED_OPTION):
        return str(match.row.options[UNRATED_OPTION])
    if any(seat.kind == "computer" for seat in match.seats):
        return COMPUTER
    if any(move.actor == "computer" for move in moves):
        return AWAY
    return None


def turn_times(moves: Sequence[MoveRow], players: int) -> list[tuple[int, float]]:
    """Per seat: how many moves its person made and the seconds they took in all (from the
    previous move; a match's first move is not timed)."""
    times = [[0, 0.0] for _ in range(players)]
    previous = None
    for move in moves:
        at = datetime.fromisoformat(move.created_at)
        if move.seat is not None and move.actor in ("person", None):
            times[move.seat][0] += 1
            if previous is not None:
                times[move.seat][1] += max(0.0, (at - previous).total_seconds())
        previous = at
    return [(count, seconds) for count, seconds in times]


def highlights(game: str, engine: Engine, match_steps: Sequence[Step],
               players: int) -> list[dict[str, Any]]:
    """Each seat's highlights of the match, from the game's engine (`highlights`). A fault
    there never stops a match from finishing: the record is kept without them."""
    if not match_steps:  # the log did not read back
        return [{} for _ in range(players)]
    try:
        return engine.highlights(match_steps, players)
    except Exception:
        log.exception("the highlights of a %s match could not be computed", game)
        return [{} for _ in range(players)]


def build_record(match: Any, match_steps: Sequence[Step], moves: Sequence[MoveRow],
                 outcome: Outcome) -> FinishRecord:
    """The record of `match` (its seats, engine, server) once `outcome` ended it."""
    players = len(match.seats)
    places = standing(outcome, players)
    lights = highlights(match.game, match.engine, match_steps, players)
    times = turn_times(moves, players)
    results = tuple(
        SeatResult(seat=seat.seat, user_id=seat.user_id if seat.kind == "user" else None,
                   name=seat.name, place=places[seat.seat], score=int(outcome.scores[seat.seat]),
                   won=seat.seat in outcome.winners, turns=times[seat.seat][0],
                   seconds=round(times[seat.seat][1], 3), highlights=lights[seat.seat])
        for seat in match.seats)
    return FinishRecord(unrated_reason(match, moves), results,
                        tuple(contests(match.game, match_steps, outcome, players)))


def match_steps(match: Any, moves: Sequence[MoveRow]) -> list[Step]:
    return list(steps(match.engine, len(match.seats), match.row.seed, match.engine_options,
                      ((move.seat, move.action) for move in moves)))


async def backfill(service: Any) -> int:
    """Record the matches that finished before records were kept, oldest first; how many."""
    done = 0
    for match_id in await service.store.unrecorded_finished():
        match = await service.get(match_id)
        moves = await service.store.moves(match_id)
        try:
            found = match_steps(match, moves)
        except Exception as error:
            log.warning("match %s is not recorded: its move log does not read back (%r)",
                        match_id, error)
            continue
        outcome = found[-1].after if found else None
        outcome = None if outcome is None else match.engine.outcome(outcome)
        if outcome is None:
            continue
        if await service.store.write_record(match_id, build_record(match, found, moves,
                                                                   outcome)):
            done += 1
    return done


async def recompute(service: Any) -> dict[tuple[int, str, str], dict[int, Skill]]:
    """Every rating rebuilt from the move logs, in the order the matches finished:
    {(server, game, season): {person: skill}}."""
    store: Store = service.store
    ratings: dict[tuple[int, str, str], dict[int, Skill]] = {}
    for match_id, game, guild_id, finished_at in await store.recorded():
        match = await service.get(match_id)
        moves = await store.moves(match_id)
        found = match_steps(match, moves)
        outcome = match.engine.outcome(found[-1].after)
        record = build_record(match, found, moves, outcome)
        if record.unrated is not None or not record.contests:
            continue
        users = [result.user_id for result in record.results]
        for season in (ALL_TIME, season_of(datetime.fromisoformat(finished_at))):
            table = ratings.setdefault((guild_id, game, season), {})
            table.update(rate(table, users, record.contests))
    return ratings
