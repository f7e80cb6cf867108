"""A table's result from its finished match, and the night's standings from its tables (pure).

A result is stored with the table as plain data: `places` (1 best, per seat), `scores` (the
game's own final points), `margins` (each seat's score less the mean of the others': Scrabble
spread, Reversi discs, Patchwork score; Dou Dizhu's ledger is already one), `forfeits` (who
lost by not showing), and `note` (a host's override, with its reason).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import replace
from typing import Any

from bot.nights.rounds import is_computer
from bot.nights.standings import Bye, Result, Standing, standings
from bot.storage.rows import NightTable
from games.common import Outcome
from games.contests import standing as outcome_places

DONE, BYE, OUT = "done", "bye", "out"


def table_result(outcome: Outcome, players: int, game: str,
                 forfeits: Sequence[int] = ()) -> dict[str, Any]:
    """The stored result of a table whose match ended with `outcome`."""
    places = [p + 1 for p in outcome_places(outcome, players)]
    scores = [float(s) for s in outcome.scores]
    if game == "doudizhu":
        margins = scores
    else:
        total = sum(scores)
        margins = [s - (total - s) / max(1, players - 1) for s in scores]
    return {"places": places, "scores": scores, "margins": margins,
            "forfeits": list(forfeits)}


def drawn_result(players: int) -> dict[str, Any]:
    """An unfinished table closed by its round's deadline or the host: everyone shares the
    place, with no margin."""
    return {"places": [1] * players, "scores": [0.0] * players, "margins": [0.0] * players,
            "forfeits": [], "unfinished": True}


def as_results(tables: Iterable[NightTable]) -> list[Result | Bye]:
    """What the standings count: finished tables and byes. A computer that filled a table
    counts as a player of its own there (`computer_id`), so the people at its table earn
    their places' points."""
    found: list[Result | Bye] = []
    for table in tables:
        if table.status in (BYE, OUT):
            found.append(Bye(table.round, table.players[0]))
        elif table.status == DONE and table.result:
            ids = tuple(computer_id(table, p) if is_computer(p) else p for p in table.players)
            found.append(Result(table.round, ids, tuple(table.result["places"]),
                                tuple(table.result["margins"])))
    return found


def computer_id(table: NightTable, seat_id: int) -> int:
    """A computer's id, unique in the night (a table's computers are -1, -2...)."""
    return -(table.round * 10_000 + table.number * 10 - seat_id)


def night_standings(players: Iterable[int], tables: Sequence[NightTable], seed: int,
                    bye_points: float, late: dict[int, int] | None = None) -> list[Standing]:
    """The standings of `players` after `tables` (ranks among them only); `late`: players
    who joined late, with the rounds they missed (each worth `bye_points`)."""
    results = as_results(tables)
    for player, missed in (late or {}).items():
        results += [Bye(0, player)] * missed
    ids = set(players)
    everyone = ids | {p for r in results if isinstance(r, Result) for p in r.players}
    everyone |= {r.player for r in results if isinstance(r, Bye)}
    ranked = [s for s in standings(everyone, results, seed, bye_points) if s.player in ids]
    return [replace(s, rank=i + 1) for i, s in enumerate(ranked)]
