"""Pairing over many random nights (properties) and on hand-worked examples."""

from __future__ import annotations

import itertools
import random

import networkx as nx
import pytest

from bot.nights.pairing import (BYE, Entrant, Round, Seating, _graph, _near_matching, _round,
                                _Weights, entrants, first_round, record_tables, round_robin,
                                seat_tables, swiss_round, table_sizes)
from bot.nights.swiss_near import LineBound
from bot.nights.standings import standings
from tests.bot.nights.night import swiss_night

NIGHTS = [(seed, random.Random(seed).randint(5, 40), random.Random(-seed).randint(3, 7))
          for seed in range(200)]


def everyone_once(rnd: Round, players: set[int]) -> None:
    seated = [p for pair in rnd.pairs for p in (pair.first, pair.second)]
    if rnd.bye is not None:
        seated.append(rnd.bye)
    assert sorted(seated) == sorted(players)


def repeats(rnd: Round, before: list[Entrant]) -> int:
    """Rematches and second byes in `rnd`, given what each player had before it."""
    by_id = {e.player: e for e in before}
    count = sum(p.second in by_id[p.first].opponents for p in rnd.pairs)
    return count + (rnd.bye is not None and by_id[rnd.bye].byes > 0)


def fewest_repeats(before: list[Entrant]) -> int:
    """The fewest rematches and second byes of any pairing: everyone not matched in a largest
    matching of the allowed pairs (the bye as a player) must take a repeat."""
    allowed = nx.Graph()
    nodes = [e.player for e in before] + ([BYE] if len(before) % 2 else [])
    allowed.add_nodes_from(nodes)
    for e in before:
        allowed.add_edges_from((e.player, f.player) for f in before
                               if f.player != e.player and f.player not in e.opponents)
        if e.byes == 0 and len(before) % 2:
            allowed.add_edge(e.player, BYE)
    return len(nodes) // 2 - len(nx.max_weight_matching(allowed, maxcardinality=True))


def brute_fewest_repeats(before: list[Entrant]) -> int:
    by_id = {e.player: e for e in before}

    def cost(a: int, b: int) -> int:
        if BYE in (a, b):
            return int(by_id[a if b == BYE else b].byes > 0)
        return int(b in by_id[a].opponents)

    def best(left: list[int]) -> int:
        if not left:
            return 0
        a, rest = left[0], left[1:]
        return min(cost(a, b) + best([c for c in rest if c != b]) for b in rest)

    return best([e.player for e in before] + ([BYE] if len(before) % 2 else []))


def replay(rounds: list[Round], results, players: list[int], seed: int):
    """Each later round with the entrants it was paired from."""
    for number in range(2, len(rounds) + 1):
        earlier = [r for r in results if r.round < number]
        table = standings(players, earlier, seed)
        before = entrants([s.player for s in table], {s.player: s.points for s in table},
                          rounds[:number - 1])
        yield rounds[number - 1], before


@pytest.mark.parametrize("seed,players,count", NIGHTS)
def test_a_random_swiss_night(seed, players, count):
    rounds, results = swiss_night(players, count, seed)
    ids = list(range(100, 100 + players))
    byes: dict[int, int] = {}
    for rnd in rounds:
        everyone_once(rnd, set(ids))
        if rnd.bye is not None:
            if byes.get(rnd.bye):  # a second bye only once everyone has had one
                assert all(byes.get(p) for p in ids)
            byes[rnd.bye] = byes.get(rnd.bye, 0) + 1
    for rnd, before in replay(rounds, results, ids, seed):
        assert swiss_round(before) == rnd  # recomputed from what is stored
        made = repeats(rnd, before)
        assert made == fewest_repeats(before)
        if players <= 9 and made:
            assert made == brute_fewest_repeats(before)
        assert [p.rematch for p in rnd.pairs] == [
            p.second in {e.player: e for e in before}[p.first].opponents for p in rnd.pairs]
        by_id = {e.player: e for e in before}
        for pair in rnd.pairs:  # who moved first less often moves first
            first, second = by_id[pair.first], by_id[pair.second]
            assert first.firsts - first.seconds <= second.firsts - second.seconds
        if rnd.bye is not None and made == 0:  # the lowest-ranked without a bye has it
            assert rnd.bye == [e.player for e in before if e.byes == 0][-1]
    assert swiss_night(players, count, seed) == (rounds, results)  # same seed, same night


def plain_graph_round(before: list[Entrant]) -> Round:
    """The round a plain networkx graph of every pair gives (the pairing reads its graphs
    through its own class, whose `graph[u]` is the bare adjacency dict)."""
    graph = _graph(before)
    plain = nx.Graph()
    plain.add_nodes_from(graph)
    plain.add_edges_from(graph.edges(data=True))
    assert [list(plain.adj[p]) for p in plain] == [list(graph.adj[p]) for p in graph]
    return _round(before, nx.max_weight_matching(plain, maxcardinality=True))


def weight(before: list[Entrant], rnd: Round) -> int:
    """What a round weighs in the tiers of the pairing: the sum of its pairs' and bye's edges."""
    graph = _graph(before)
    total = sum(graph.adj[p.first][p.second]["weight"] for p in rnd.pairs)
    return total + (graph.adj[rnd.bye][BYE]["weight"] if rnd.bye is not None else 0)


# Nights of 5 to 60 players with up to 12 rounds (late rounds force rematches; odd counts give
# byes), and large ones.
PLAIN_NIGHTS = [(seed, random.Random(seed).randint(5, 60), random.Random(-seed).randint(3, 12))
                for seed in range(1000, 1060)] + [(1, 256, 3), (2, 255, 3), (3, 129, 10)]


@pytest.mark.parametrize("seed,players,count", PLAIN_NIGHTS)
def test_swiss_rounds_weigh_what_the_best_matching_of_all_pairs_weighs(seed, players, count):
    """Searching near pairs only (when that proves the best), a round is one of the best of
    the whole graph: it may differ from networkx's choice among equal ones, never in weight."""
    rounds, results = swiss_night(players, count, seed)
    for rnd, before in replay(rounds, results, list(range(100, 100 + players)), seed):
        assert weight(before, rnd) == weight(before, plain_graph_round(before))


def test_the_near_search_proves_most_rounds_and_steps_aside_when_it_cannot():
    """Stepping aside (a rematch forced, or near pairs about half of all) leaves the round to
    the whole graph."""
    proved = aside = 0
    for seed, players, count in PLAIN_NIGHTS[:16]:
        rounds, results = swiss_night(players, count, seed)
        for rnd, before in replay(rounds, results, list(range(100, 100 + players)), seed):
            near = _near_matching(before, _Weights.of(before))
            if near is None:
                aside += 1
                assert rnd == plain_graph_round(before)  # the whole graph's own round
            else:
                proved += 1
                assert _round(before, near) == rnd
    assert proved > 2 * aside > 0  # late rounds of small nights step aside most


@pytest.mark.parametrize("seed", range(300))
def test_the_line_bound_is_the_cheapest_pairing_with_and_without_two(seed):
    rng = random.Random(seed)
    values = sorted(rng.choice((0, 1, 2, 4, 6, 7)) for _ in range(rng.choice((2, 4, 6, 8))))

    def cheapest(left: list[int]) -> int:
        if not left:
            return 0
        return min((left[0] - left[k]) ** 2 + cheapest(left[1:k] + left[k + 1:])
                   for k in range(1, len(left)))

    bound = LineBound(values)
    assert bound.lowest == cheapest(values)
    for x, y in itertools.combinations(range(len(values)), 2):
        assert bound.without(x, y) == cheapest(values[:x] + values[x + 1:y] + values[y + 1:])


def test_small_nights_with_forced_rematches_still_pair_everyone():
    # Four players, five rounds: from round 4 on every pairing is a rematch.
    rounds, results = swiss_night(4, 5, seed=3)
    assert all(len(r.pairs) == 2 for r in rounds)
    assert any(p.rematch for p in rounds[3].pairs)


def test_first_round_by_rating_is_top_half_against_bottom_half():
    ratings = {1: 1900, 2: 1800, 3: 1700, 4: 1600, 5: 1500, 6: 1400, 7: 1300}
    rnd = first_round(list(ratings), seed=9, ratings=ratings)
    # 1 v 4, 2 v 5, 3 v 6 with first moves alternating; 7, the lowest, has the bye.
    assert rnd.pairs == (first_round([1, 2, 3, 4, 5, 6], 0, ratings).pairs)
    assert [(p.first, p.second) for p in rnd.pairs] == [(1, 4), (5, 2), (3, 6)]
    assert rnd.bye == 7


def test_first_round_without_ratings_is_the_seeded_order():
    assert first_round(range(10), seed=4) == first_round(list(range(10)), seed=4)
    assert first_round(range(10), seed=4) != first_round(range(10), seed=5)


def test_a_published_style_swiss_example_by_score_groups():
    """Six players by rating 1..6. Round 1 (top half against bottom half, first moves
    alternating by board): 1-4, 5-2, 3-6. Results: 1 beats 4, 2 beats 5, 3 and 6 draw.

    Round 2 score groups: {1, 2} on 1, {3, 6} on ½, {4, 5} on 0. 3 and 6 have met, so the ½
    group cannot pair inside itself; as in the Dutch system its players float, each to the
    next group: 1-3 with 2-6 (1 against ½ twice) and 1-2, 3-4, 5-6 (½ against 0 twice) are
    equally close (squared differences 1 + 1 in half points), and the first-move wishes decide:
    1, 5 and 3 moved first in round 1, so 1-2 (2 first), 3-4 (4 first), 5-6 (6 first) meets
    every wish, while 1-3 and 2-6 would meet none."""
    r1 = first_round(range(1, 7), seed=0, ratings={p: 10.0 - p for p in range(1, 7)})
    assert [(p.first, p.second) for p in r1.pairs] == [(1, 4), (5, 2), (3, 6)]
    scores = {1: 1.0, 2: 1.0, 3: 0.5, 6: 0.5, 4: 0.0, 5: 0.0}
    r2 = swiss_round(entrants([1, 2, 3, 6, 4, 5], scores, [r1]))
    assert [(p.first, p.second) for p in r2.pairs] == [(2, 1), (4, 3), (6, 5)]
    assert r2.bye is None and not any(p.rematch for p in r2.pairs)


def test_the_bye_goes_to_the_lowest_ranked_without_one():
    scores = dict.fromkeys(range(1, 6), 0.0)
    r1 = Round((), bye=5)
    rnd = swiss_round(entrants([1, 2, 3, 4, 5], scores, [r1]))
    assert rnd.bye == 4


@pytest.mark.parametrize("count", range(2, 13))
def test_round_robin_meets_everyone_once_with_balanced_first_moves(count):
    rounds = round_robin(range(count), seed=count)
    met = [frozenset((p.first, p.second)) for r in rounds for p in r.pairs]
    assert len(met) == len(set(met)) == count * (count - 1) // 2
    for rnd in rounds:
        everyone_once(rnd, set(range(count)))
    firsts = {p: sum(pair.first == p for r in rounds for pair in r.pairs) for p in range(count)}
    seconds = {p: sum(pair.second == p for r in rounds for pair in r.pairs) for p in range(count)}
    assert all(abs(firsts[p] - seconds[p]) <= 1 for p in range(count))
    assert round_robin(range(count), seed=count) == rounds


def test_round_robin_refuses_more_than_twelve():
    with pytest.raises(ValueError):
        round_robin(range(13), seed=0)


@pytest.mark.parametrize("n,smallest,largest,sizes", [
    (7, 3, 4, [4, 3]), (8, 3, 4, [4, 4]), (5, 3, 4, [4]), (2, 3, 4, []), (7, 3, 3, [3, 3]),
    (9, 4, 4, [4, 4]), (10, 3, 4, [4, 3, 3]), (12, 3, 4, [4, 4, 4])])
def test_table_sizes(n, smallest, largest, sizes):
    assert table_sizes(n, smallest, largest) == sizes


def brute_fewest_shared(players: list[int], sizes: list[int], met) -> int:
    def best(left: list[int], sizes: list[int]) -> int:
        if not sizes:
            return 0
        head, rest = left[0], left[1:]
        found = None
        for others in itertools.combinations(rest, sizes[0] - 1):
            table = (head, *others)
            cost = sum(frozenset(pair) in met for pair in itertools.combinations(table, 2))
            remaining = [p for p in rest if p not in others]
            total = cost + best(remaining, sizes[1:])
            found = total if found is None else min(found, total)
        return found or 0

    return min(best(players, list(order)) for order in set(itertools.permutations(sizes)))


@pytest.mark.parametrize("seed", range(200))
def test_a_random_night_of_tables(seed):
    rng = random.Random(seed)
    count = rng.randint(5, 40)
    smallest, largest = rng.choice([(3, 4), (3, 3), (4, 4)])
    ids = list(range(count))
    seating = Seating()
    for _ in range(rng.randint(3, 7)):
        ranked = ids[:]
        rng.shuffle(ranked)
        tables = seat_tables(ranked, smallest, largest, seating)
        assert seat_tables(ranked, smallest, largest, seating) == tables
        assert all(smallest <= len(t) <= largest for t in tables.tables)
        seated = [p for t in tables.tables for p in t] + list(tables.sitting_out)
        assert sorted(seated) == ids
        assert len(tables.sitting_out) == count - sum(table_sizes(count, smallest, largest))
        shared = sum(frozenset(pair) in seating.met
                     for t in tables.tables for pair in itertools.combinations(t, 2))
        assert shared == tables.shared_again
        if shared and count <= 9:
            playing = [p for p in ranked if p not in tables.sitting_out]
            sizes = [len(t) for t in tables.tables]
            assert shared == brute_fewest_shared(playing, sizes, seating.met)
        for t in tables.tables:  # who sat first least goes first
            assert seating.sat_first.get(t[0], 0) == min(seating.sat_first.get(p, 0) for p in t)
        outs = [seating.sat_out.get(p, 0) for p in tables.sitting_out]
        assert all(o <= min(seating.sat_out.get(p, 0) for t in tables.tables for p in t)
                   for o in outs)
        record_tables(seating, tables)


def test_tables_are_filled_from_the_top():
    tables = seat_tables(list(range(1, 8)), 3, 4, Seating())
    assert tables.tables == ((1, 2, 3, 4), (5, 6, 7))
    seating = Seating()
    record_tables(seating, tables)
    again = seat_tables(list(range(1, 8)), 3, 4, seating)
    # 1..4 and 5..7 shared tables. Whichever two of 1..4 sit at the table of four, a pair of
    # them meets again there, and another at the table of three: two of one group at each table
    # is the least, 3 pairs again (one group of three at a table would make 3 alone, plus more).
    assert again.shared_again == 3
    assert 1 in again.tables[0] and 2 in again.tables[0]
    # Seat order: 1 and 5 sat first in round 1, so 2 and 6 go first now.
    assert again.tables[0] == (2, 6, 1, 5)
