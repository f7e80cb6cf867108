"""A night's standings, always recomputed from its list of results (pure).

Match points by place: at a table of n, place p earns (n - p) / (n - 1) (a two-player win 1, a
loss 0); tied places share their points (a draw is ½ each). A bye earns `bye_points`.

Tiebreaks, in this fixed order:
1. Buchholz cut-1 (two-player games): the sum of the opponents' points, less the lowest one.
   A bye adds no opponent.
2. Sonneborn-Berger (two-player games): each opponent's points times the points scored against
   them (all of a beaten opponent's, half of a drawn one's).
3. Margin: the sum of the game's own margin given with each result (Scrabble spread, Reversi
   discs, Patchwork score, Dou Dizhu score).
4. Head-to-head: the points scored in games among the players still tied.
5. The stored seed: a seeded random order of the players, so ties always break the same way.
For tables of three or four, Buchholz and Sonneborn-Berger are 0 for everyone.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Result:
    """One finished table: players with their places (1 best; equal places tie) and margins."""

    round: int
    players: tuple[int, ...]
    places: tuple[int, ...]
    margins: tuple[float, ...] = ()


@dataclass(frozen=True)
class Bye:
    round: int
    player: int


@dataclass(frozen=True)
class Standing:
    rank: int  # 1 best
    player: int
    points: float
    buchholz_cut1: float
    sonneborn_berger: float
    margin: float
    head_to_head: float
    seed: int  # the player's place in the seeded order, 0 first


def place_points(places: Sequence[int]) -> list[float]:
    """Match points for each of `places` (tied places share their points)."""
    n = len(places)
    if n < 2:
        return [0.0] * n
    order = sorted(places)
    points = []
    for p in places:
        slots = [i for i, q in enumerate(order) if q == p]  # 0-based places this tie covers
        points.append(sum((n - 1 - s) / (n - 1) for s in slots) / len(slots))
    return points


def standings(players: Iterable[int], results: Sequence[Result | Bye], seed: int,
              bye_points: float = 1.0) -> list[Standing]:
    """The standings of `players` after `results`, best first."""
    ids = sorted(players)
    shuffled = list(ids)
    random.Random(seed).shuffle(shuffled)
    seed_of = {p: i for i, p in enumerate(shuffled)}
    points = dict.fromkeys(ids, 0.0)
    margin = dict.fromkeys(ids, 0.0)
    duels: dict[int, list[tuple[int, float]]] = defaultdict(list)  # two-player: (opponent, scored)
    scored: list[tuple[tuple[int, ...], list[float]]] = []
    for r in results:
        if isinstance(r, Bye):
            points[r.player] += bye_points
            continue
        earned = place_points(r.places)
        scored.append((r.players, earned))
        for i, p in enumerate(r.players):
            points[p] += earned[i]
            margin[p] += r.margins[i] if r.margins else 0.0
        if len(r.players) == 2:
            a, b = r.players
            duels[a].append((b, earned[0]))
            duels[b].append((a, earned[1]))
    buchholz = {p: _cut1([points[o] for o, _ in duels[p]]) for p in ids}
    sb = {p: sum(points[o] * s for o, s in duels[p]) for p in ids}

    def key(p: int) -> tuple[float, float, float, float]:
        return (-points[p], -buchholz[p], -sb[p], -margin[p])

    h2h = dict.fromkeys(ids, 0.0)
    groups: dict[tuple[float, ...], set[int]] = defaultdict(set)
    for p in ids:
        groups[key(p)].add(p)
    for group in groups.values():
        if len(group) > 1:
            for table, earned in scored:
                if all(p in group for p in table):
                    for p, e in zip(table, earned):
                        h2h[p] += e
    order = sorted(ids, key=lambda p: (*key(p), -h2h[p], seed_of[p]))
    return [Standing(i + 1, p, points[p], buchholz[p], sb[p], margin[p], h2h[p], seed_of[p])
            for i, p in enumerate(order)]


def _cut1(scores: list[float]) -> float:
    return sum(scores) - min(scores) if len(scores) > 1 else 0.0
