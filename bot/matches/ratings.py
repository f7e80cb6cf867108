"""Ratings with openskill's Plackett-Luce model: per server, per game, per season.

A skill is openskill's (μ, σ). What players see is conservative: 1000 + 40 × (μ − 3σ), so a
newcomer shows 1000 and a rating only climbs once the games show it is deserved. Seasons are
calendar quarters (UTC); every rated match moves both the all-time and the season's rating.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import NamedTuple

from openskill.models import PlackettLuce

from games.contests import Contest

MODEL = PlackettLuce()
ALL_TIME = "all"


class Skill(NamedTuple):
    mu: float
    sigma: float


START = Skill(MODEL.mu, MODEL.sigma)


def display(skill: Skill) -> int:
    """The rating players read."""
    return round(1000 + 40 * (skill.mu - 3 * skill.sigma))


def season_of(when: datetime) -> str:
    """The season a moment falls in: `2026-Q4`."""
    return f"{when.year}-Q{(when.month - 1) // 3 + 1}"


def rate(skills: Mapping[int, Skill], seat_users: Sequence[int],
         contests: Sequence[Contest]) -> dict[int, Skill]:
    """The players' skills after the contests, played in order. `seat_users[seat]` is the
    person in each seat; `skills` their skills before (missing: a newcomer's)."""
    current = {user: skills.get(user, START) for user in seat_users}
    for contest in contests:
        teams = [[MODEL.rating(*current[seat_users[seat]]) for seat in team]
                 for team in contest.teams]
        rated = MODEL.rate(teams, ranks=list(contest.ranks))
        for team, new in zip(contest.teams, rated):
            for seat, rating in zip(team, new):
                current[seat_users[seat]] = Skill(rating.mu, rating.sigma)
    return current
