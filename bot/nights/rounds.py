"""The next round's tables from a night's history (pure): who plays whom, who has the bye or
sits out, and where computers fill a short table.

A table is `NightTable` (bot/storage/rows.py): players in seat order; a negative id is a
computer (`-1`, `-2`... within the table). A bye is a table of one with status `bye`; sitting
out (tables of three or four) is status `out`; both earn the plan's `bye_points`.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence

from bot.nights.pairing import (
    Pair, Round, Seating, entrants, first_round, record_tables, round_robin, seat_tables,
    swiss_round, Tables,
)
from bot.nights.plan import CASUAL, ROUND_ROBIN, Plan
from bot.storage.rows import NightTable

PENDING, PLAYING, DONE, BYE, OUT = "pending", "playing", "done", "bye", "out"
COMPUTERS = 9  # a table's computers are -1 ... -9; other negative ids are forgotten people


def is_computer(player: int) -> bool:
    return -COMPUTERS <= player < 0


def played_rounds(tables: Sequence[NightTable]) -> list[Round]:
    """The two-player rounds so far, as the Swiss pairing reads them."""
    rounds: dict[int, list[NightTable]] = {}
    for table in tables:
        rounds.setdefault(table.round, []).append(table)
    found = []
    for number in sorted(rounds):
        pairs = tuple(Pair(t.players[0], t.players[1]) for t in rounds[number]
                      if len(t.players) == 2)
        byes = [t.players[0] for t in rounds[number] if t.status == BYE]
        found.append(Round(pairs, byes[0] if byes else None))
    return found


def seating_so_far(tables: Sequence[NightTable]) -> Seating:
    seating = Seating()
    for round_ in sorted({t.round for t in tables}):
        here = [t for t in tables if t.round == round_]
        record_tables(seating, Tables(
            tuple(tuple(p for p in t.players if not is_computer(p)) for t in here
                  if t.status not in (BYE, OUT)),
            tuple(t.players[0] for t in here if t.status in (BYE, OUT))))
    return seating


def next_tables(plan: Plan, round_: int, ranked: Sequence[int], scores: Mapping[int, float],
                history: Sequence[NightTable], seed: int,
                ratings: Mapping[int, float] | None = None,
                first_players: Sequence[int] = ()) -> list[NightTable]:
    """Round `round_`'s tables for the players `ranked` (standings order, best first).
    `first_players`: who played round 1 (a round robin's schedule is theirs)."""
    if plan.pairs:
        pairs, byes = _pairs(plan, round_, ranked, scores, history, seed, ratings,
                             first_players)
        tables = [NightTable(round_, i + 1, (p.first, p.second), PENDING)
                  for i, p in enumerate(pairs)]
        for bye in byes:
            number = len(tables) + 1
            tables.append(NightTable(round_, number, (bye, -1), PENDING) if plan.computers
                          else NightTable(round_, number, (bye,), BYE))
        return tables
    least, most = plan.table_bounds()
    seated = seat_tables(ranked, least, most, seating_so_far(history))
    tables = [NightTable(round_, i + 1, table, PENDING) for i, table in enumerate(seated.tables)]
    out = list(seated.sitting_out)
    if out and plan.computers:
        fill = tuple(-(i + 1) for i in range(max(least, len(out) + 1) - len(out)))
        tables.append(NightTable(round_, len(tables) + 1, (*out, *fill), PENDING))
        out = []
    tables += [NightTable(round_, len(tables) + i + 1, (p,), OUT) for i, p in enumerate(out)]
    return tables


def _pairs(plan: Plan, round_: int, ranked: Sequence[int], scores: Mapping[int, float],
           history: Sequence[NightTable], seed: int, ratings: Mapping[int, float] | None,
           first_players: Sequence[int]) -> tuple[tuple[Pair, ...], list[int]]:
    if plan.format == ROUND_ROBIN:
        schedule = round_robin(first_players or ranked, seed)
        return _without_absent(schedule[(round_ - 1) % len(schedule)], set(ranked))
    if round_ == 1:
        paired = first_round(ranked, seed, ratings if plan.rated else None)
    elif plan.format == CASUAL:  # no standings to follow: a fresh seeded order, no rematches
        order = list(ranked)
        random.Random(seed * 1_000 + round_).shuffle(order)
        paired = swiss_round(entrants(order, {}, played_rounds(history)))
    else:
        paired = swiss_round(entrants(ranked, scores, played_rounds(history)))
    return paired.pairs, [] if paired.bye is None else [paired.bye]


def _without_absent(planned: Round, present: set[int]) -> tuple[tuple[Pair, ...], list[int]]:
    """A round robin's round for the players still in: one whose opponent left has a bye."""
    pairs, byes = [], []
    for pair in planned.pairs:
        here = [p for p in (pair.first, pair.second) if p in present]
        if len(here) == 2:
            pairs.append(pair)
        else:
            byes += here
    if planned.bye in present:
        byes.append(planned.bye)
    return tuple(pairs), byes
