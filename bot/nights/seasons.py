"""Seasons of game nights (pure): a server's own (`/gamenight season start|end`), else the
calendar quarters that records use; a season's standings add up each night's match points.
The lifetime openskill rating is not touched by any of this."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime

from bot.matches.ratings import season_of
from bot.storage.rows import Season


@dataclass(frozen=True)
class Span:
    """A season as its standings read it: its name and [start, end) in epoch seconds."""

    name: str
    start: float
    end: float | None


@dataclass(frozen=True)
class SeasonLine:
    rank: int
    player: int
    points: float
    nights: int
    wins: int  # nights won


def quarter(at: float) -> Span:
    when = datetime.fromtimestamp(at, UTC)
    first = (when.month - 1) // 3 * 3 + 1
    start = datetime(when.year, first, 1, tzinfo=UTC)
    end = (datetime(when.year + 1, 1, 1, tzinfo=UTC) if first == 10
           else datetime(when.year, first + 3, 1, tzinfo=UTC))
    return Span(season_of(when), start.timestamp(), end.timestamp())


def current_span(seasons: Sequence[Season], at: float) -> Span:
    """The server's season open at `at` (or the last one that began before it), else the
    calendar quarter."""
    for season in reversed(seasons):
        if season.started_at <= at and (season.ended_at is None or at < season.ended_at):
            return Span(season.name, season.started_at, season.ended_at)
    return quarter(at)


def season_table(nights: Iterable[tuple[dict[int, float], int | None]]) -> list[SeasonLine]:
    """Each night's points per player (and its winner) added up, best first; ties by nights
    won, then by fewer nights played, then by id."""
    points: dict[int, float] = {}
    played: dict[int, int] = {}
    wins: dict[int, int] = {}
    for night_points, winner in nights:
        for player, earned in night_points.items():
            points[player] = points.get(player, 0.0) + earned
            played[player] = played.get(player, 0) + 1
        if winner is not None:
            wins[winner] = wins.get(winner, 0) + 1
    order = sorted(points, key=lambda p: (-points[p], -wins.get(p, 0), played[p], p))
    return [SeasonLine(i + 1, p, points[p], played[p], wins.get(p, 0))
            for i, p in enumerate(order)]
