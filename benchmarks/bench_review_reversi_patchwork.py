"""Reviewing Reversi and Patchwork matches (games/reversi/review.py, games/patchwork/review.py):
what judging a whole game costs, and whether the review tells the levels apart.

    python benchmarks/bench_review_reversi_patchwork.py [--games 20] [--only time,accuracy]
    python benchmarks/bench_review_reversi_patchwork.py --only fit [--fit-games 60]
    python benchmarks/bench_review_reversi_patchwork.py --only exact --game reversi

- time: the CPU time of this process to judge every turn of a full game (both seats), for
  `--games` games per game between computers of mixed levels (easy-normal, normal-hard,
  hard-easy, normal-normal in turn; Reversi games open with 4 random plies so they differ):
  median, p99 and max per game. The goal is p99 <= 10 s.
- accuracy: easy plays hard (`--games` games per game, seats alternating); each game is
  reviewed and each level's accuracy (games.review.accuracy) averaged over the games. Easy
  must come out lower than hard.
- exact: what solving a Reversi turn exactly costs (best move and move played, CPU and
  solver nodes) at 9-16 empty squares, in the games of `time`: where solving stops.
- fit: the constants the reviews' value-to-win-chance curves use. Reversi: positions of games
  between normal computers (6 random opening plies), each valued by the review's midgame
  search, against the exact margin once 14 squares are left (solved: best play from there);
  PER_DISC is the least-squares slope and WIN_SCALE the logistic scale that best predicts who
  wins from the predicted margin. Patchwork: PLACEMENT_POINTS, the least-squares slope of the
  mover's final score difference against the difference in quilt cost when a patch is placed
  where the heuristic puts it or at random (the game then played on by normal computers), and
  WIN_SCALE from each turn's expected difference in games between computers of mixed levels.

The machine is shared: CPU time (not the wall clock) is what is reported.

Measured 2026-11-28 on the 2-core machine shared with other jobs (load 3-4), 20 games each:
- time: Patchwork median 2.57 s, p99 2.95 s, max 2.95 s (43 turns judged a game); Reversi
  median 5.28 s, p99 5.78 s, max 5.78 s (60 turns a game). Goal p99 <= 10 s: met.
- accuracy, easy vs hard: Patchwork easy 83.0 (57-94), hard 97.2 (86-100), hard higher in
  20/20 games; Reversi easy 87.8 (82-92), hard 99.2 (98-100), hard higher in 20/20.
- exact (Reversi, best move and move played solved): 12 empties median 0.042 s, max 0.373 s;
  13 median 0.119 s, max 0.369 s, all within 250,000 nodes; 14 median 0.277 s, max 1.619 s,
  12/20 within; 15 median 0.745 s, max 5.165 s, 6/20; 16 median 1.784 s, 0/20.
- fit: Reversi PER_DISC 10.1 (2,760 positions, 60 games), WIN_SCALE 13.0 discs; Patchwork
  PLACEMENT_POINTS 0.058 (standard error 0.044; 661 pairs, --fit-games 120), WIN_SCALE 8.75
  points (2,456 turns, 60 games).
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections.abc import Callable, Sequence
from importlib import import_module
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.replay import apply_logged  # noqa: E402
from games.review import Judged, accuracy  # noqa: E402

MIXED = (("easy", "normal"), ("normal", "hard"), ("hard", "easy"), ("normal", "normal"))
Log = list[tuple[int, str]]


def play(game: str, levels: Sequence[str], seed: int, opening: int = 0) -> tuple[object, Log]:
    """A game between computers of `levels` (by seat), the first `opening` plies random:
    the first state and the move log."""
    engine = import_module(f"games.{game}")
    state = first = engine.new_game(2, seed=seed)
    rng = random.Random(seed)
    log: Log = []
    while engine.outcome(state) is None:
        seat = engine.current_seat(state)
        if len(log) < opening:
            move = rng.choice(engine.legal_moves(state, seat))
        else:
            move = engine.choose_move(state, seat, levels[seat], seed=seed * 1000 + len(log))
        log.append((seat, str(move)))
        state = apply_logged(engine, state, seat, str(move))
    return first, log


def review(game: str, first: object, log: Log, seed: int) -> list[Judged]:
    """Every turn of the log judged, as the worker does it."""
    engine = import_module(f"games.{game}")
    judge = import_module(f"games.{game}.review").judge
    state, turns = first, []
    for seat, action in log:
        judged = judge(state, seat, action, seed=seed)
        if judged is not None:
            turns.append(judged)
        state = apply_logged(engine, state, seat, action)
    return turns


def percentile(values: Sequence[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, math.ceil(share * len(ordered)) - 1)]


def timing(game: str, games: int) -> None:
    seconds, turns = [], 0
    for index in range(games):
        levels = MIXED[index % len(MIXED)]
        first, log = play(game, levels, seed=100 + index, opening=4 if game == "reversi" else 0)
        start = time.process_time()
        turns += len(review(game, first, log, seed=index))
        seconds.append(time.process_time() - start)
    print(f"{game:<9} review of a full game, CPU: median {percentile(seconds, 0.5):5.2f} s  "
          f"p99 {percentile(seconds, 0.99):5.2f} s  max {max(seconds):5.2f} s  "
          f"({games} games, {turns / games:.0f} turns judged a game)", flush=True)


def accuracies(game: str, games: int) -> None:
    easy, hard = [], []
    for index in range(games):
        easy_seat = index % 2
        levels = ("easy", "hard") if easy_seat == 0 else ("hard", "easy")
        first, log = play(game, levels, seed=500 + index)
        turns = review(game, first, log, seed=index)
        easy.append(accuracy(turns, easy_seat))
        hard.append(accuracy(turns, 1 - easy_seat))
    print(f"{game:<9} accuracy over {games} games of easy vs hard: easy {mean(easy):.1f} "
          f"(min {min(easy)}, max {max(easy)})  hard {mean(hard):.1f} "
          f"(min {min(hard)}, max {max(hard)})  hard higher in "
          f"{sum(h > e for e, h in zip(easy, hard))}/{games}", flush=True)


def mean(values: Sequence[float | None]) -> float:
    kept = [v for v in values if v is not None]
    return sum(kept) / len(kept)


def best_scale(samples: Sequence[tuple[float, float]]) -> float:
    """The s that maximises the likelihood of the results (1, 0.5, 0) given
    logistic(x / s) for each (x, result)."""
    from games.review import logistic

    def loglik(scale: float) -> float:
        total = 0.0
        for x, result in samples:
            p = min(1 - 1e-9, max(1e-9, logistic(x / scale)))
            total += result * math.log(p) + (1 - result) * math.log(1 - p)
        return total
    return max((s / 4 for s in range(4, 400)), key=loglik)


def exact_costs(games: int) -> None:
    """What solving a Reversi turn exactly costs (the best move and the move played), by the
    number of empty squares: where to stop solving and search instead."""
    import games.reversi as reversi
    from games.reversi import ai
    from games.reversi import review as rv

    costs: dict[int, list[tuple[float, int]]] = {}
    for index in range(games):
        first, log = play("reversi", MIXED[index % len(MIXED)], seed=300 + index, opening=4)
        state = first
        for seat, action in log:
            own = state.discs(seat)
            opp = state.white if own == state.black else state.black
            empties = 64 - (own | opp).bit_count()
            move = reversi.parse_move(action)
            if 9 <= empties <= 16:
                start, search = time.process_time(), ai.Search(ai.INFINITY)
                search.solve_root(own, opp)
                search.solve(*rv._child(own, opp, move.square), -ai.INFINITY, ai.INFINITY)
                costs.setdefault(empties, []).append((time.process_time() - start,
                                                      search.nodes))
            state = reversi.apply(state, seat, move)
    for empties, found in sorted(costs.items()):
        seconds, nodes = [c for c, _ in found], [n for _, n in found]
        within = sum(n <= rv.EXACT_NODES for n in nodes)
        print(f"reversi exact solve, {empties:2} empties: CPU median {percentile(seconds, 0.5):.3f}"
              f" s  max {max(seconds):.3f} s; nodes median {percentile(nodes, 0.5):,}  max "
              f"{max(nodes):,}; within {rv.EXACT_NODES:,} nodes: {within}/{len(found)}",
              flush=True)


def fit_reversi(games: int) -> None:
    import games.reversi as reversi
    from games.reversi import ai
    from games.reversi import review as rv

    values: list[tuple[int, int, int]] = []  # (search value, exact margin, empties)
    for index in range(games):
        first, log = play("reversi", ("normal", "normal"), seed=900 + index, opening=6)
        state, seen = first, []
        for seat, action in log:
            own = state.discs(seat)
            opp = state.white if own == state.black else state.black
            empties = 64 - (own | opp).bit_count()
            if empties <= rv.TRY_EXACT:
                exact, _ = ai.Search(ai.INFINITY).solve_root(own, opp)
                values += [(v, exact if s == seat else -exact, e) for v, s, e in seen]
                break
            _, best_value, _ = rv._searched(own, opp, reversi.parse_move(action).square, index)
            if abs(best_value) < ai.WIN:
                seen.append((best_value, seat, empties))
            state = reversi.apply(state, seat, reversi.parse_move(action))
    slope = sum(v * m for v, m, _ in values) / sum(v * v for v, _, _ in values)
    print(f"reversi fit: {len(values)} positions of {games} games: PER_DISC = {1 / slope:.1f}")
    for low, high in ((15, 24), (25, 34), (35, 44), (45, 60)):
        part = [(v, m) for v, m, e in values if low <= e <= high]
        if part:
            per_disc = sum(v * v for v, _ in part) / sum(v * m for v, m in part)
            print(f"  {low}-{high} empties: PER_DISC {per_disc:.1f}  (n={len(part)})")
    samples = [(v / rv.PER_DISC, 1.0 if m > 0 else 0.0 if m < 0 else 0.5) for v, m, _ in values]
    print(f"  WIN_SCALE = {best_scale(samples):.2f} discs (with PER_DISC {rv.PER_DISC})",
          flush=True)


def fit_patchwork(games: int) -> None:
    placement_points(games)
    win_scale_patchwork(games)


def placement_points(games: int, pairs_per_game: int = 6) -> None:
    """Points a unit of quilt cost is worth: at turns of games between normal computers, the
    patch placed where the heuristic puts it and somewhere else at random, each game then
    played on by normal computers; the least-squares slope of the mover's final score
    difference against the placements' difference in quilt cost."""
    import games.patchwork as pw
    from games.patchwork.placement import quilt_cost

    pairs = []  # (difference in cost, difference in final score difference)
    for index in range(games):
        rng = random.Random(index)
        first, log = play("patchwork", ("normal", "normal"), seed=700 + index)
        state, turns = first, []
        for seat, action in log:
            turns.append((state, seat, pw.parse_move(action)))
            state = pw.apply(state, seat, pw.parse_move(action))
        placing = [t for t in turns if isinstance(t[2], (pw.Buy, pw.Place))]
        for state, seat, move in rng.sample(placing, min(pairs_per_game, len(placing))):
            if isinstance(move, pw.Buy):
                others = [m for m in pw.legal_moves(state, seat)
                          if isinstance(m, pw.Buy) and m.choice == move.choice]
            else:
                others = pw.legal_moves(state, seat)
            other = rng.choice(others)
            bonus_free = state.bonus_seat is None
            costs, finals = [], []
            for placed in (move, other):
                after = pw.apply(state, seat, placed)
                costs.append(quilt_cost(after.quilt_mask(seat), bonus_free=bonus_free))
                final = play_on(after, seed=index)
                finals.append((final.score(seat) - final.score(1 - seat),
                               final.score(seat) - final.buttons[seat]))
            if costs[0] != costs[1]:
                pairs.append((costs[1] - costs[0], finals[1][0] - finals[0][0],
                              finals[1][1] - finals[0][1]))
    squares = sum(c * c for c, _, _ in pairs)
    for column, what in ((1, "the final score difference"),
                         (2, "the quilt's own points (bonus less 2 per empty square)")):
        slope = sum(pair[0] * pair[column] for pair in pairs) / squares
        error = math.sqrt(sum((pair[column] - slope * pair[0]) ** 2 for pair in pairs)
                          / (len(pairs) - 1) / squares)
        print(f"patchwork fit: {len(pairs)} pairs of placements, by {what}: PLACEMENT_POINTS"
              f" = {-slope:.3f} (standard error {error:.3f}) points per unit of quilt cost",
              flush=True)


def play_on(state, seed: int):
    """The game played to its end from `state` by normal computers."""
    import games.patchwork as pw

    while not state.over:
        seat = pw.current_seat(state)
        state = pw.apply(state, seat, pw.choose_move(state, seat, "normal", seed=seed))
    return state


def win_scale_patchwork(games: int) -> None:
    import games.patchwork as pw
    from games.patchwork import review as rv

    samples = []
    for index in range(games):
        levels = MIXED[index % len(MIXED)]
        first, log = play("patchwork", levels, seed=900 + index)
        state, seen = first, []
        for seat, action in log:
            move = pw.parse_move(action)
            after = pw.apply(state, seat, move)
            if not after.over:
                value, _ = rv._value(state, seat, move, rv._draws(index, state))
                seen.append((value, seat))
            state = after
        result = pw.outcome(state)
        samples += [(v, 1.0 if result.winners == (s,) else 0.0) for v, s in seen]
    print(f"patchwork fit: {len(samples)} turns of {games} games: WIN_SCALE = "
          f"{best_scale(samples):.2f} points", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=20, help="games per game and part")
    parser.add_argument("--fit-games", type=int, default=60)
    parser.add_argument("--only", default="time,accuracy", help="time, accuracy, fit, exact")
    parser.add_argument("--game", default="reversi,patchwork")
    args = parser.parse_args()
    parts, chosen = set(args.only.split(",")), args.game.split(",")
    parts_run: dict[str, Callable[[str], None]] = {
        "time": lambda g: timing(g, args.games),
        "accuracy": lambda g: accuracies(g, args.games),
        "fit": lambda g: (fit_reversi if g == "reversi" else fit_patchwork)(args.fit_games),
        "exact": lambda g: exact_costs(args.games) if g == "reversi" else None,
    }
    for part in ("exact", "fit", "time", "accuracy"):
        if part in parts:
            for game in chosen:
                parts_run[part](game)


if __name__ == "__main__":
    main()
