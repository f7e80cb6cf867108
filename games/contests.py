"""What a finished match says about who beat whom, for ratings: contests between teams of seats.

A contest is one rated result: `teams` (tuples of seats) and each team's `rank` (0 is first,
equal ranks are a tie). Most games are one contest of single-seat teams ranked by the outcome;
Dou Dizhu is one contest per round, the landlord against the peasants, so each round moves a
seat by the role it played. Pure: steps and the outcome in, contests out.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from games.common import Outcome
from games.replay import Step


@dataclass(frozen=True)
class Contest:
    teams: tuple[tuple[int, ...], ...]
    ranks: tuple[int, ...]


def standing(outcome: Outcome, players: int) -> list[int]:
    """Each seat's place (0 first; ties share a place): the winners first, then by final score;
    seats that resigned last, the earliest to resign lowest (a resignation is a loss)."""
    resigned = list(outcome.details.get("resigned_seats") or ())

    def key(seat: int) -> tuple[int, int, int]:
        gave_up = len(resigned) - resigned.index(seat) if seat in resigned else 0
        if seat in outcome.winners:  # the winners share first place (a draw), whatever the score
            return (0, 0, 0)
        return (1, gave_up, -outcome.scores[seat])

    keys = [key(seat) for seat in range(players)]
    return [sum(other < keys[seat] for other in keys) for seat in range(players)]


def contests(game: str, steps: Sequence[Step], outcome: Outcome, players: int) -> list[Contest]:
    """The rated results of a finished match, in the order they happened."""
    if game == "doudizhu":
        return round_contests(steps, players)
    places = standing(outcome, players)
    return [Contest(tuple((seat,) for seat in range(players)), tuple(places))]


def round_contests(steps: Sequence[Step], players: int) -> list[Contest]:
    """Dou Dizhu: each paid round, the landlord's team against the peasants'."""
    found = []
    for step in steps:
        for event in step.after.events:
            if event.kind != "round_end" or not event.values:
                continue
            landlord = event.values["landlord"]
            peasants = tuple(seat for seat in range(players) if seat != landlord)
            won = bool(event.values["won"])
            found.append(Contest(((landlord,), peasants), (0, 1) if won else (1, 0)))
    return found
