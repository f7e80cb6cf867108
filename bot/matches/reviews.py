"""The coach's reviews of finished matches (games/review.py says what a turn's judgment holds).

Each turn is judged in the computer players' worker pool, one turn per job and one job at a
time (the `gate`): a review never holds more than one worker, nor a worker for long, so the
computers' own turns keep their pace. A review is computed once: it is stored with the
reviewer's version (REVIEWER), and each seat's accuracy beside its result. Asked twice at once,
the two askers share one computation. Finished matches are reviewed in the background, one
after another (`queue`); after a restart, `catch_up` queues those still unreviewed.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Callable
from concurrent.futures import Executor
from dataclasses import dataclass
from functools import cache
from typing import Any

from bot.matches.model import Match
from bot.workers.computer_moves import decision_seed
from bot.workers.reviews import judge_turn, reviewable
from games.replay import steps as replay_steps
from games.review import Judged, accuracy, costliest

log = logging.getLogger(__name__)

REVIEWER = 1  # the reviewers' version: raised when a judge changes, so matches are reviewed anew
NOT_JUDGED = ("resign", "forfeit")  # the bot's own actions, no decision of the game's


@dataclass(frozen=True)
class MatchReview:
    """A finished match's judged turns."""

    match: Match
    turns: tuple[Judged, ...]

    def accuracy(self, seat: int) -> int | None:
        return accuracy(self.turns, seat)

    def costliest(self, seat: int, count: int = 3) -> list[Judged]:
        return costliest(self.turns, seat, count)


@cache
def has_reviewer(game: str) -> bool:
    return reviewable(game)


class Reviews:
    """Reviews over the store, judged in `executor()`'s workers."""

    def __init__(self, store: Any, executor: Callable[[], Executor]) -> None:
        self.store = store
        self.executor = executor
        self.gate = asyncio.Semaphore(1)  # one judging job at a time, bot-wide
        self._computing: dict[int, asyncio.Task[MatchReview]] = {}
        self._queue: asyncio.Queue[Match] = asyncio.Queue()
        self._worker: asyncio.Task[None] | None = None
        self.worker_seconds = 0.0  # judging time spent in the workers (for the metrics, tests)

    async def of(self, match: Match) -> MatchReview:
        """The finished match's review: stored, or computed now (and stored)."""
        if not has_reviewer(match.game):
            raise LookupError(f"no reviewer for {match.game}")
        kept = await self.store.review(match.id, REVIEWER)
        if kept is not None:
            return MatchReview(match, tuple(Judged.from_dict(turn) for turn in kept))
        task = self._computing.get(match.id)
        if task is None:
            task = asyncio.get_running_loop().create_task(self._compute(match))
            self._computing[match.id] = task
            task.add_done_callback(lambda _t: self._computing.pop(match.id, None))
        return await asyncio.shield(task)

    async def _compute(self, match: Match) -> MatchReview:
        moves = await self.store.moves(match.id)
        engine, seed = match.engine, int(match.row.seed)
        steps = await asyncio.to_thread(lambda: list(replay_steps(
            engine, len(match.seats), seed, match.engine_options,
            [(move.seat, move.action) for move in moves])))
        turns = []
        loop = asyncio.get_running_loop()
        for step in steps:
            if step.seat is None or step.action in NOT_JUDGED:
                continue
            async with self.gate:
                found, seconds = await loop.run_in_executor(
                    self.executor(), judge_turn, match.game, step.before.to_dict(), step.seat,
                    step.action, decision_seed(seed, step.ply, step.seat))
            self.worker_seconds += seconds
            if found is not None:
                turns.append(Judged.from_dict({**found, "ply": step.ply}))
        review = MatchReview(match, tuple(turns))
        await self.store.save_review(match.id, REVIEWER, [turn.to_dict() for turn in turns],
                                     {seat: review.accuracy(seat)
                                      for seat in range(len(match.seats))})
        return review

    # -- in the background -------------------------------------------------------------------

    def queue(self, match: Match) -> None:
        """Review a match that just finished, when the ones before it are done."""
        if match.status == "finished" and has_reviewer(match.game):
            self._queue.put_nowait(match)
            if self._worker is None:
                self._worker = asyncio.get_running_loop().create_task(self._work())

    async def catch_up(self, get: Callable[[int], Any]) -> int:
        """Queue the recently finished matches not yet reviewed (a restart dropped the queue);
        how many. `get(match_id)` reads a match."""
        from bot.matches.engines import ENGINES
        games = tuple(game for game in ENGINES if has_reviewer(game))
        waiting = await self.store.unreviewed(REVIEWER, games)
        for match_id in reversed(waiting):  # oldest first
            match = await get(match_id)
            if match is not None:
                self.queue(match)
        return len(waiting)

    async def _work(self) -> None:
        while True:
            match = await self._queue.get()
            try:
                await self.of(match)
            except Exception:  # one match's failure stops no other review
                log.exception("could not review match %s", match.id)

    async def stop(self) -> None:
        if self._worker is not None:
            self._worker.cancel()
            try:
                await self._worker
            except asyncio.CancelledError:
                pass
            self._worker = None
