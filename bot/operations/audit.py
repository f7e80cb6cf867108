"""What `gamenight verify` checks beyond the file: every match rebuilt from its seed and move
log by its engine and compared with what is stored (the state, with its board and scores, the
seats, the status and result), and every rating rebuilt from the results. Each problem is one
line naming the match or rating."""

from __future__ import annotations

import json
from collections.abc import AsyncIterator, Callable
from typing import Any

from bot.matches.model import Match
from bot.matches.records import recompute
from bot.matches.service import MatchService
from games.replay import final_state

PROGRESS_EVERY = 5000  # matches between two progress lines of a long check
CLOSE = 1e-6  # ratings are floats: rebuilt in another order of additions, they may differ a hair


async def match_problems(service: MatchService,
                         progress: Callable[[int, int], None] | None = None
                         ) -> AsyncIterator[str]:
    """One line per problem, match by match; `progress(done, all)` every `PROGRESS_EVERY`."""
    ids = await service.store.table_rows("matches", ["id"])
    for done, (match_id,) in enumerate(ids, 1):
        if progress is not None and done % PROGRESS_EVERY == 0:
            progress(done, len(ids))
        try:
            match = await service.get(match_id)
        except Exception as error:
            yield f"match {match_id}: what is stored does not read ({error!r})"
            continue
        if match is not None:
            for problem in await check_match(service, match):
                yield f"match {match_id} ({match.game}, {match.status}): {problem}"


async def check_match(service: MatchService, match: Match) -> list[str]:
    numbers = [seat.seat for seat in match.seats]
    if numbers != list(range(len(numbers))):
        return [f"its seats are numbered {numbers}: a seat is missing"]
    moves = await service.store.moves(match.id)
    if match.state is None:
        return [f"it has {len(moves)} moves but no state"] if moves else []
    if [move.ply for move in moves] != list(range(1, len(moves) + 1)):
        return ["its move log has a gap"]
    try:
        rebuilt = final_state(match.engine, len(match.seats), match.row.seed,
                              match.engine_options, ((m.seat, m.action) for m in moves))
    except Exception as error:
        return [f"its move log does not replay: {error}"]
    problems = []
    differ = differences(json.loads(json.dumps(rebuilt.to_dict())), match.row.state or {})
    if differ:
        problems.append("the stored state differs from its move log replayed, in "
                        + ", ".join(differ))
    outcome = match.engine.outcome(rebuilt)
    if match.status == "active" and outcome is not None:
        problems.append("it is stored as active, but its moves finished it")
    if match.status == "finished":
        if outcome is None:
            problems.append("it is stored as finished, but its moves do not finish it")
        elif match.row.result != outcome.to_dict():
            problems.append("its stored result (scores, places) differs from its moves' result")
    return problems


def differences(rebuilt: dict[str, Any], stored: dict[str, Any]) -> list[str]:
    """The top-level keys (board, scores, hands...) where two states differ."""
    keys = sorted(set(rebuilt) | set(stored))
    return [key for key in keys if rebuilt.get(key) != stored.get(key)]


async def rating_problems(service: MatchService) -> AsyncIterator[str]:
    """Every stored rating against the ratings rebuilt from the recorded matches."""
    try:
        rebuilt = await recompute(service)
    except Exception as error:
        yield f"ratings: the recorded matches do not rebuild them ({error!r})"
        return
    stored: dict[tuple[Any, ...], tuple[float, float]] = {}
    for guild, game, season, user, mu, sigma in await service.store.table_rows(
            "ratings", ["guild_id", "game", "season", "user_id", "mu", "sigma"]):
        stored[(guild, game, season, user)] = (mu, sigma)
    wanted = {(*key, user): (skill.mu, skill.sigma)  # not a forgotten person's (negative id)
              for key, skills in rebuilt.items() for user, skill in skills.items()
              if user is None or user >= 0}
    for key in sorted(set(stored) | set(wanted), key=str):
        guild, game, season, user = key
        where = f"rating of {user} in {game}, server {guild}, season {season}"
        if key not in stored:
            yield f"{where}: missing (its matches give one)"
        elif key not in wanted:
            yield f"{where}: stored, but no recorded match gives it"
        elif any(abs(a - b) > CLOSE for a, b in zip(stored[key], wanted[key])):
            yield (f"{where}: stored μ {stored[key][0]:.4f} σ {stored[key][1]:.4f}, its "
                   f"matches give μ {wanted[key][0]:.4f} σ {wanted[key][1]:.4f}")
