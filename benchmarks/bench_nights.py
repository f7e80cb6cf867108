"""Game nights' pairing and standings: how long a Swiss round and a night's standings take.
A report, never a test threshold. Run from the repository root:

    python benchmarks/bench_nights.py [--repeat 5]

Goals: a Swiss round of 64 players <= 100 ms and of 256 players <= 2 s, after a few rounds of
history; standings of a 256-player night <= 50 ms. Past log2 N rounds, rematches push pairs far
apart, the near search steps aside and the whole graph is searched (reported, not a goal).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import networkx as nx  # noqa: E402

from bot.nights.pairing import (Seating, _graph, entrants, record_tables,  # noqa: E402
                                seat_tables, swiss_round)
from bot.nights.standings import standings  # noqa: E402
from tests.bot.nights.night import swiss_night  # noqa: E402


def timed(work, repeat: int) -> tuple[float, float]:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        work()
        times.append((time.perf_counter() - start) * 1000)
    return statistics.median(times), max(times)


def swiss(players: int, history: int, repeat: int) -> None:
    rounds, results = swiss_night(players, history, seed=players)
    ids = list(range(100, 100 + players))
    table = standings(ids, results, seed=players)
    before = entrants([s.player for s in table], {s.player: s.points for s in table}, rounds)
    median, worst = timed(lambda: swiss_round(before), repeat)
    plain = nx.Graph(_graph(before))  # the same edges in networkx's own graph, for comparison
    on_plain, _ = timed(lambda: nx.max_weight_matching(plain, maxcardinality=True), 1)
    print(f"Swiss round of {players} after {history} rounds: median {median:.0f} ms, "
          f"worst {worst:.0f} ms (its matching on a plain networkx graph: {on_plain:.0f} ms)")


def night_standings(players: int, played: int, repeat: int) -> None:
    _, results = swiss_night(players, played, seed=7)
    ids = list(range(100, 100 + players))
    median, worst = timed(lambda: standings(ids, results, seed=7), repeat)
    print(f"standings of {players} players after {played} rounds ({len(results)} results): "
          f"median {median:.1f} ms, worst {worst:.1f} ms")


def tables(players: int, rounds: int, size: tuple[int, int]) -> None:
    seating, times = Seating(), []
    for number in range(rounds):
        ranked = list(range(players))[number:] + list(range(players))[:number]
        start = time.perf_counter()
        seated = seat_tables(ranked, *size, seating)
        times.append((time.perf_counter() - start) * 1000)
        record_tables(seating, seated)
    print(f"tables of {size[0]}-{size[1]} for {players} players, {rounds} rounds: "
          f"worst round {max(times):.0f} ms")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    swiss(64, 4, args.repeat)
    swiss(256, 4, max(1, args.repeat // 2))
    swiss(256, 8, 1)  # log2 256 rounds, still searched among near pairs
    swiss(256, 10, 1)  # more rounds than Swiss needs: the whole graph
    night_standings(256, 8, args.repeat)
    tables(64, 6, (3, 4))
    tables(64, 6, (4, 4))
    return 0


if __name__ == "__main__":
    sys.exit(main())
