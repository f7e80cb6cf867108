"""Each seat's highlights of one Dou Dizhu series, read from its steps (see games/replay.py).

Per seat, plain numbers (stored as JSON with the match's record):

- `rounds`: rounds paid in the series (played to the end, forfeited or resigned; a deal
  everyone passed on is not a round);
- `landlord_rounds`: those the seat played as landlord; `landlord_wins`: those it won;
- `peasant_wins`: rounds its side won as peasants;
- `bombs`: bombs and rockets the seat played (whether or not they doubled the stake: in the
  4-player game bombs of four or five cards do not);
- `springs`: rounds the seat won with a spring, as the common rule has it (the project's rules
  document does not name it): as landlord, a spring (春天) is going out before any peasant
  played a card; as a peasant, an anti-spring (反春) is the peasants going out after the
  landlord played only their first lead. Every peasant of the winning side counts
  it. Only rounds played to the end count (not a forfeit or a resignation);
- `best_round`: the most the seat was paid in one round (0 if it never won one).
"""

from __future__ import annotations

from collections.abc import Sequence

from games.replay import Step

KEYS = ("rounds", "landlord_rounds", "landlord_wins", "peasant_wins", "bombs", "springs",
        "best_round")
BOMB_TYPES = ("bomb", "rocket")


def highlights(steps: Sequence[Step], players: int) -> list[dict[str, int | str]]:
    """One dict per seat for the series played out in `steps`."""
    seats: list[dict[str, int | str]] = [dict.fromkeys(KEYS, 0) for _ in range(players)]
    played = [0] * players  # plays (not passes) of each seat in the round under way
    for step in steps:
        for event in step.after.events:
            if event.kind == "landlord":
                played = [0] * players
            elif event.kind == "play":
                played[event.seat] += 1
                if event.values["type"] in BOMB_TYPES:
                    _add(seats[event.seat], "bombs")
            elif event.kind == "round_end" and event.values:
                _round(seats, event.values, step.after.payments, played)
    return seats


def _round(seats: list[dict[str, int | str]], paid: dict, payments: Sequence[int] | None,
           played: list[int]) -> None:
    """Count one paid round: roles, wins, springs and what each seat was paid."""
    landlord, won = paid["landlord"], bool(paid["won"])
    peasants = [seat for seat in range(len(seats)) if seat != landlord]
    for seat, record in enumerate(seats):
        _add(record, "rounds")
        if payments is not None and payments[seat] > int(record["best_round"]):
            record["best_round"] = int(payments[seat])
    _add(seats[landlord], "landlord_rounds")
    if won:
        _add(seats[landlord], "landlord_wins")
    else:
        for seat in peasants:
            _add(seats[seat], "peasant_wins")
    if paid.get("went_out") is None:  # forfeited or resigned: no spring
        return
    if won and not any(played[seat] for seat in peasants):
        _add(seats[landlord], "springs")
    elif not won and played[landlord] == 1:
        for seat in peasants:
            _add(seats[seat], "springs")


def _add(record: dict[str, int | str], key: str) -> None:
    record[key] = int(record[key]) + 1
