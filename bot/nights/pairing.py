"""Pairing a game night's rounds: pure functions of the standings, the history and a stored seed.

Swiss (two-player games) is a maximum-weight matching over all pairs (networkx, integer weights,
maximum cardinality). Each edge's weight is built in tiers, each tier worth more than everything
below it can add up to, so the matching decides in this order:

1. nobody has a second bye while a player without one remains, even at the cost of a rematch;
2. fewest rematches (a penalty, not an exclusion: a forced rematch still pairs);
3. the bye to the lowest-ranked player who has not had one;
4. players with close scores meet (the squared score difference is what it costs);
5. first-move balance (pairs whose wishes to move first or second fit).

Most rounds are searched among near pairs only, where that provably loses no best round
(`_near_matching`, `swiss_near`); a round then may differ from the whole graph's among rounds
of equal weight, never in weight.

Round robin is the circle method; tables of three or four are seated by a small search.
"""

from __future__ import annotations

import random
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

import networkx as nx

from bot.nights.swiss_near import LineBound, near_pairs

BYE = -1  # the matching's node for the bye; player ids are never negative


@dataclass(frozen=True)
class Entrant:
    """One player as the pairing sees them. Entrants are passed best-ranked first."""

    player: int
    score: float = 0.0
    opponents: frozenset[int] = frozenset()
    firsts: int = 0  # games in which they moved first
    seconds: int = 0
    last_first: bool | None = None  # whether they moved first in their last game
    byes: int = 0


@dataclass(frozen=True)
class Pair:
    first: int  # moves first (black in Reversi, the first player elsewhere)
    second: int
    rematch: bool = False


@dataclass(frozen=True)
class Round:
    pairs: tuple[Pair, ...]
    bye: int | None = None


def first_round(players: Sequence[int], seed: int,
                ratings: Mapping[int, float] | None = None) -> Round:
    """Round 1: by rating when given (top half against bottom half), else in a seeded random
    order. With an odd count the last in that order has the bye."""
    order = sorted(players)
    random.Random(seed).shuffle(order)
    if ratings is not None:
        order.sort(key=lambda p: -ratings.get(p, 0.0))  # stable: the seeded order breaks ties
    bye = order.pop() if len(order) % 2 else None
    half = len(order) // 2
    pairs = []
    for board, (top, bottom) in enumerate(zip(order[:half], order[half:])):
        pairs.append(Pair(top, bottom) if board % 2 == 0 else Pair(bottom, top))
    return Round(tuple(pairs), bye)


def swiss_round(entrants: Sequence[Entrant]) -> Round:
    """A later Swiss round; `entrants` in standings order, best first."""
    weights = _Weights.of(entrants)
    matching = _near_matching(entrants, weights)
    if matching is None:
        matching = nx.max_weight_matching(_graph(entrants, weights), maxcardinality=True)
    return _round(entrants, matching)


class _Graph(nx.Graph):
    """A graph whose `graph[u]` is the plain adjacency dict rather than a read-only view. The
    matching reads an edge's weight through it millions of times in a round of 256 players,
    and the views took a third to a half of its time. Same nodes, edges and order: same matching."""

    def __getitem__(self, node: int) -> dict[int, dict[str, int]]:
        return self._adj[node]


@dataclass(frozen=True)
class _Weights:
    """Each pair's weight in the tiers of the module's docstring."""

    entrants: Sequence[Entrant]
    units: list[int]  # scores in half points
    wishes: list[int]
    closest: int
    score_unit: int
    bye_unit: int
    no_repeat: int
    first_bye: int

    @classmethod
    def of(cls, entrants: Sequence[Entrant]) -> _Weights:
        n = len(entrants)
        units = [round(e.score * 2) for e in entrants]
        spread = max(units, default=0) - min(units, default=0)
        score_unit = 2 * n + 1  # more than all first-move terms of a round
        closest = spread * spread + 1
        bye_unit = score_unit * closest * n + 1  # more than all score terms of a round
        no_repeat = bye_unit * (n + 1) + 1  # more than everything below
        first_bye = no_repeat * (n + 2) + 1  # more than all rematch terms of a round
        return cls(entrants, units, [_wish(e) for e in entrants], closest, score_unit,
                   bye_unit, no_repeat, first_bye)

    def rematch(self, i: int, j: int) -> bool:
        return self.entrants[j].player in self.entrants[i].opponents

    def pair(self, i: int, j: int) -> int:
        diff = self.units[i] - self.units[j]
        return (self.no_repeat * (not self.rematch(i, j))
                + self.score_unit * (self.closest - diff * diff)
                + _fit(self.wishes[i], self.wishes[j]))

    def bye(self, rank: int) -> int:
        return (self.first_bye * (self.entrants[rank].byes == 0) + self.bye_unit * (rank + 1)
                + self.score_unit * self.closest)


def _graph(entrants: Sequence[Entrant], weights: _Weights | None = None) -> nx.Graph:
    """Every pair weighed in the tiers of the module's docstring, and every player's bye when
    the count is odd."""
    weights = weights or _Weights.of(entrants)
    n = len(entrants)
    edges = [(entrants[i].player, entrants[j].player, weights.pair(i, j))
             for i in range(n) for j in range(i + 1, n)]
    if n % 2:
        edges += [(e.player, BYE, weights.bye(rank)) for rank, e in enumerate(entrants)]
    graph = _Graph()
    graph.add_nodes_from(e.player for e in entrants)
    graph.add_weighted_edges_from(edges)
    return graph


def _near_matching(entrants: Sequence[Entrant], weights: _Weights) -> set[tuple[int, int]] | None:
    """A best matching found among near pairs only, or None where that proves nothing.

    When the bye (with an odd count) can go to the player the tiers want first and everyone
    else can be paired without a rematch, a best round does both, and then its score cost is
    at most that of any such pairing found. Pairs that cannot fit within that cost
    (`near_pairs`) are left out of the graph: its best matching is a best one of all pairs.
    Where no rematch-free pairing is found among the near pairs, the allowed cost doubles,
    until the near pairs are half of all pairs (the whole graph is then as quick) or a rematch
    is seen to be forced."""
    n = len(entrants)
    bye = _bye_wanted(entrants) if n % 2 else None
    order = sorted((i for i in range(n) if i != bye), key=weights.units.__getitem__)
    values = [weights.units[i] for i in order]
    allowed = LineBound(values).lowest
    most = (values[-1] - values[0]) ** 2 * len(order) // 2 if order else 0  # any pairing's cost
    rank = {e.player: i for i, e in enumerate(entrants)}
    while True:
        pairs = near_pairs(weights.units, order, weights.rematch, allowed)
        if len(pairs) * 4 > n * n:
            return None
        graph = _Graph()
        graph.add_nodes_from(entrants[i].player for i in order)
        graph.add_weighted_edges_from((entrants[i].player, entrants[j].player, weights.pair(i, j))
                                      for i, j in pairs)
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if len(matching) * 2 < len(order):
            if allowed >= most:
                return None  # a rematch is forced
            allowed = allowed * 2 + 4  # no rematch-free pairing this near: look further
            continue
        cost = sum((weights.units[rank[u]] - weights.units[rank[v]]) ** 2 for u, v in matching)
        if cost <= allowed:
            return matching | ({(entrants[bye].player, BYE)} if bye is not None else set())
        allowed = cost  # every pair a pairing this cheap could use: the next one is proved


def _bye_wanted(entrants: Sequence[Entrant]) -> int:
    """The rank of the bye the tiers want: the lowest-ranked without one (else the lowest)."""
    without = [rank for rank, e in enumerate(entrants) if e.byes == 0]
    return without[-1] if without else len(entrants) - 1


def _round(entrants: Sequence[Entrant], matching: set[tuple[int, int]]) -> Round:
    rank = {e.player: i for i, e in enumerate(entrants)}
    by_id = {e.player: e for e in entrants}
    bye = None
    pairs = []
    for u, v in matching:
        if BYE in (u, v):
            bye = u if v == BYE else v
            continue
        a, b = sorted((by_id[u], by_id[v]), key=lambda e: rank[e.player])
        pairs.append(_order(a, b))
    pairs.sort(key=lambda p: min(rank[p.first], rank[p.second]))
    return Round(tuple(pairs), bye)


def _wish(e: Entrant) -> int:
    """+1 wants to move first, -1 second, 0 either: the less frequent side, then alternation."""
    if e.firsts != e.seconds:
        return 1 if e.firsts < e.seconds else -1
    if e.last_first is None:
        return 0
    return -1 if e.last_first else 1


def _fit(wa: int, wb: int) -> int:
    """2 when both wishes (`_wish`) can be met (or one has none), 0 when both want the same
    side."""
    return 0 if wa == wb != 0 else 2


def _order(a: Entrant, b: Entrant) -> Pair:
    """Who moves first: who has moved first less often, then who did not move first last
    time, then the better-ranked `a`."""
    rematch = b.player in a.opponents
    balance_a, balance_b = a.firsts - a.seconds, b.firsts - b.seconds
    if balance_a != balance_b:
        first_a = balance_a < balance_b
    elif a.last_first != b.last_first and None not in (a.last_first, b.last_first):
        first_a = not a.last_first
    else:
        first_a = True
    return Pair(a.player, b.player, rematch) if first_a else Pair(b.player, a.player, rematch)


def entrants(ranked: Sequence[int], scores: Mapping[int, float],
             rounds: Sequence[Round]) -> list[Entrant]:
    """The pairing's view of each player from the rounds played so far, in `ranked` order."""
    opponents: dict[int, set[int]] = {p: set() for p in ranked}
    firsts = dict.fromkeys(ranked, 0)
    seconds = dict.fromkeys(ranked, 0)
    last: dict[int, bool | None] = dict.fromkeys(ranked, None)
    byes = dict.fromkeys(ranked, 0)
    for rnd in rounds:
        for pair in rnd.pairs:
            for me, them, first in ((pair.first, pair.second, True),
                                    (pair.second, pair.first, False)):
                if me in opponents:
                    opponents[me].add(them)
                    (firsts if first else seconds)[me] += 1
                    last[me] = first
        if rnd.bye in byes:
            byes[rnd.bye] += 1
    return [Entrant(p, scores.get(p, 0.0), frozenset(opponents[p]), firsts[p], seconds[p],
                    last[p], byes[p]) for p in ranked]


def round_robin(players: Sequence[int], seed: int) -> list[Round]:
    """Every round of a round robin by the circle method (odd counts: one bye a round), players
    in a seeded order. Of two players at places x < y in that order, x moves first when x + y
    is odd: everyone moves first about as often as second."""
    if len(players) > 12:
        raise ValueError("a round robin takes at most 12 players")
    shuffled = sorted(players)
    random.Random(seed).shuffle(shuffled)
    place = {p: i for i, p in enumerate(shuffled)}
    order: list[int | None] = list(shuffled)
    if len(order) % 2:
        order.append(None)
    n = len(order)
    rounds = []
    for _ in range(n - 1):
        pairs, bye = [], None
        for i in range(n // 2):
            a, b = order[i], order[n - 1 - i]
            if a is None or b is None:
                bye = b if a is None else a
                continue
            x, y = sorted((a, b), key=place.__getitem__)
            pairs.append(Pair(x, y) if (place[x] + place[y]) % 2 else Pair(y, x))
        rounds.append(Round(tuple(pairs), bye))
        order = [order[0], order[-1], *order[1:-1]]
    return rounds


@dataclass(frozen=True)
class Tables:
    tables: tuple[tuple[int, ...], ...]  # each in seat order
    sitting_out: tuple[int, ...] = ()
    shared_again: int = 0  # pairs at a table who had already shared one (0 unless forced)


@dataclass
class Seating:
    """What the seating needs to know of the night so far."""

    met: set[frozenset[int]] = field(default_factory=set)  # pairs who shared a table
    sat_first: dict[int, int] = field(default_factory=dict)
    sat_out: dict[int, int] = field(default_factory=dict)


def table_sizes(n: int, smallest: int, largest: int) -> list[int]:
    """The most players that can be seated at tables of `smallest`..`largest`, as few tables as
    that takes, sizes as even as possible (largest first)."""
    for seated in range(n, smallest - 1, -1):
        count = -(-seated // largest)
        if count * smallest <= seated:
            base, extra = divmod(seated, count)
            return [base + 1] * extra + [base] * (count - extra)
    return []


def seat_tables(ranked: Sequence[int], smallest: int, largest: int, seating: Seating,
                budget: int = 5_000) -> Tables:
    """Tables filled from the top of the standings (`ranked`, best first), avoiding pairs who
    already shared a table. Who sits out (too few for a table) is the lowest-ranked among those
    who sat out least.

    A greedy pass (each player in rank order into the first table with room where they meet the
    fewest again) gives a seating with some repeated pairs. A depth-first search with
    backtracking (players in rank order, each into the first table with room that keeps within
    the repeats allowed) then looks for one with no repeat, then one, and so on up to the
    greedy's count, each within `budget` steps; the first found is taken, else the greedy's. So a pair meets again
    only when no seating without it was found (on small nights the search is exhaustive).
    Seat order: who sat first least goes first, then by rank."""
    sizes = table_sizes(len(ranked), smallest, largest)
    out_count = len(ranked) - sum(sizes)
    by_outs = sorted(range(len(ranked)), key=lambda i: (seating.sat_out.get(ranked[i], 0), -i))
    out = {ranked[i] for i in by_outs[:out_count]}
    playing = [p for p in ranked if p not in out]
    tables, repeats = _greedy(playing, sizes, seating.met)
    for allowed in range(repeats + 1):
        found = _search(playing, sizes, seating.met, allowed, budget)
        if found is not None:
            tables, repeats = found
            break
    seated = tuple(_seat_order(t, seating, ranked) for t in tables)
    return Tables(seated, tuple(p for p in ranked if p in out), repeats)


def _greedy(players: Sequence[int], sizes: Sequence[int],
            met: set[frozenset[int]]) -> tuple[list[list[int]], int]:
    tables: list[list[int]] = [[] for _ in sizes]
    total = 0
    for p in players:
        open_ = [t for t in range(len(sizes)) if len(tables[t]) < sizes[t]]
        costs = {t: sum(frozenset((p, q)) in met for q in tables[t]) for t in open_}
        best = min(open_, key=lambda t: (costs[t], t))
        tables[best].append(p)
        total += costs[best]
    return tables, total


def _search(players: Sequence[int], sizes: Sequence[int], met: set[frozenset[int]],
            allowed: int, budget: int) -> tuple[list[list[int]], int] | None:
    tables: list[list[int]] = [[] for _ in sizes]
    steps = 0

    def place(i: int, repeats: int) -> int | None:
        nonlocal steps
        if i == len(players):
            return repeats
        steps += 1
        if steps > budget:
            return None
        p = players[i]
        for t, table in enumerate(tables):
            if len(table) == sizes[t]:
                continue
            cost = sum(frozenset((p, q)) in met for q in table)
            if repeats + cost <= allowed:
                table.append(p)
                done = place(i + 1, repeats + cost)
                if done is not None:
                    return done
                table.pop()
            if not table:
                break  # empty tables of the same size are alike: try only the first
        return None

    total = place(0, 0)
    return None if total is None else (tables, total)


def _seat_order(table: Sequence[int], seating: Seating, ranked: Sequence[int]) -> tuple[int, ...]:
    rank = {p: i for i, p in enumerate(ranked)}
    return tuple(sorted(table, key=lambda p: (seating.sat_first.get(p, 0), rank[p])))


def record_tables(seating: Seating, tables: Tables) -> None:
    """Adds a round's tables to the night's seating history."""
    for table in tables.tables:
        seating.sat_first[table[0]] = seating.sat_first.get(table[0], 0) + 1
        for i, a in enumerate(table):
            for b in table[i + 1:]:
                seating.met.add(frozenset((a, b)))
    for p in tables.sitting_out:
        seating.sat_out[p] = seating.sat_out.get(p, 0) + 1
