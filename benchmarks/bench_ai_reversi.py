"""Reversi computer players: strength, endgame exactness and time per decision.

    python benchmarks/bench_ai_reversi.py [--games N] [--endgames N] [--only NAMES]

Matches (each game starts from a seeded random opening of a few plies; the two sides swap
colours every game): easy vs random, normal vs greedy (most discs flipped), hard vs normal.
A draw counts half a win; intervals are 95% Wilson score intervals. The endgame check takes
positions with at most 12 empty squares (seeded random playouts) and checks that hard's move
reaches the best final disc difference, computed by a separate plain alpha-beta search
(no table, no ordering: it returns the minimax value) and, where at most `--brute` squares are
empty, by brute-force minimax as well. Time per decision is measured on every decision of the
matches and of the endgame check.
"""

from __future__ import annotations

import argparse
import math
import random
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games.reversi as reversi  # noqa: E402
from games.reversi import bitboard as bb  # noqa: E402

Player = Callable[[reversi.State, int, int], reversi.Move]
TIMES: dict[str, list[float]] = defaultdict(list)  # wall-clock seconds per decision
CPU: dict[str, list[float]] = defaultdict(list)  # CPU seconds of this process per decision


def wilson(score: float, n: int, z: float = 1.96) -> tuple[float, float]:
    """95% Wilson score interval of a proportion (a short formula: no statistics library)."""
    if n == 0:
        return 0.0, 1.0
    p = score / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def computer(level: str) -> Player:
    def play(state: reversi.State, seat: int, seed: int) -> reversi.Move:
        start, cpu = time.perf_counter(), time.process_time()
        move = reversi.choose_move(state, seat, level, seed=seed)
        TIMES[level].append(time.perf_counter() - start)
        CPU[level].append(time.process_time() - cpu)
        return move
    return play


def random_player(state: reversi.State, seat: int, seed: int) -> reversi.Move:
    return random.Random(seed).choice(reversi.legal_moves(state, seat))


def greedy_player(state: reversi.State, seat: int, seed: int) -> reversi.Move:
    """The move that flips the most discs (ties: the first square)."""
    own = state.discs(seat)
    opp = state.white if own == state.black else state.black
    return max(reversi.legal_moves(state, seat),
               key=lambda m: (bb.flips(own, opp, m.square).bit_count(), -m.square))


def play_game(players: dict[int, Player], seed: int, opening: int = 4) -> reversi.State:
    """One game; the first `opening` plies are random from the seed."""
    rng = random.Random(seed)
    state = reversi.new_game(2, seed=seed)
    ply = 0
    while (seat := reversi.current_seat(state)) is not None:
        if ply < opening:
            move = rng.choice(reversi.legal_moves(state, seat))
        else:
            move = players[seat](state, seat, rng.randrange(1 << 30))
        state = reversi.apply(state, seat, move)
        ply += 1
    return state


def match(name: str, first: Player, second: Player, games: int, seed: int) -> None:
    wins = draws = losses = 0
    margin = 0
    start = time.perf_counter()
    for game in range(games):
        # The pair of games with the same opening swaps which side plays black.
        game_seed = seed * 100_003 + game // 2
        state = reversi.new_game(2, seed=game_seed)
        first_seat = state.black_seat if game % 2 == 0 else 1 - state.black_seat
        final = play_game({first_seat: first, 1 - first_seat: second}, game_seed)
        result = reversi.outcome(final)
        assert result is not None
        margin += result.scores[first_seat] - result.scores[1 - first_seat]
        if result.draw:
            draws += 1
        elif result.winners == (first_seat,):
            wins += 1
        else:
            losses += 1
    score = wins + draws / 2
    low, high = wilson(score, games)
    print(f"{name:<22} {score / games:6.1%}  95% [{low:.1%}, {high:.1%}]  "
          f"W/D/L {wins}/{draws}/{losses} of {games} games, mean margin {margin / games:+.1f} "
          f"discs  ({time.perf_counter() - start:.0f} s)", flush=True)


def brute_force(own: int, opp: int) -> int:
    """Minimax final disc difference for `own` to move, visiting every line."""
    moves = bb.legal_squares(own, opp)
    if not moves:
        if not bb.legal_squares(opp, own):
            return own.bit_count() - opp.bit_count()
        return -brute_force(opp, own)
    best = -64
    for sq in bb.squares(moves):
        flipped = bb.flips(own, opp, sq)
        best = max(best, -brute_force(opp & ~flipped, own | flipped | (1 << sq)))
    return best


def alpha_beta(own: int, opp: int, alpha: int = -65, beta: int = 65) -> int:
    """Plain fail-hard alpha-beta in square order: the minimax value, without brute force's cost."""
    moves = bb.legal_squares(own, opp)
    if not moves:
        if not bb.legal_squares(opp, own):
            return max(alpha, min(beta, own.bit_count() - opp.bit_count()))
        return -alpha_beta(opp, own, -beta, -alpha)
    for sq in bb.squares(moves):
        flipped = bb.flips(own, opp, sq)
        value = -alpha_beta(opp & ~flipped, own | flipped | (1 << sq), -beta, -alpha)
        if value >= beta:
            return beta
        alpha = max(alpha, value)
    return alpha


def endgame_positions(count: int, seed: int, most: int = 12,
                      least: int = 4) -> list[reversi.State]:
    rng = random.Random(seed)
    found = []
    while len(found) < count:
        empties = least + len(found) % (most - least + 1)
        state = reversi.new_game(2, seed=rng.randrange(1 << 30))
        while (seat := reversi.current_seat(state)) is not None:
            if 64 - (state.black | state.white).bit_count() <= empties:
                found.append(state)
                break
            state = reversi.apply(state, seat, rng.choice(reversi.legal_moves(state, seat)))
    return found


def endgame_check(count: int, brute_limit: int, seed: int) -> None:
    exact = brute_checked = 0
    start = time.perf_counter()
    for index, state in enumerate(endgame_positions(count, seed)):
        seat = reversi.current_seat(state)
        own = state.discs(seat)
        opp = state.white if own == state.black else state.black
        empties = 64 - (own | opp).bit_count()
        move = computer("hard")(state, seat, index)
        flipped = bb.flips(own, opp, move.square)
        after_own, after_opp = opp & ~flipped, own | flipped | (1 << move.square)
        best, reached = alpha_beta(own, opp), -alpha_beta(after_own, after_opp)
        if empties <= brute_limit:
            brute_checked += 1
            assert brute_force(own, opp) == best
            assert -brute_force(after_own, after_opp) == reached
        exact += reached == best
    print(f"hard endgame exact      {exact}/{count} positions with 4-12 empties "
          f"({brute_checked} also by brute force, <= {brute_limit} empties)  "
          f"({time.perf_counter() - start:.0f} s)", flush=True)


def percentile(values: list[float], share: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(share * (len(ordered) - 1)))]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__,
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=200, help="games per match")
    parser.add_argument("--hard-games", type=int, default=None,
                        help="games of hard vs normal (default: --games)")
    parser.add_argument("--endgames", type=int, default=100)
    parser.add_argument("--brute", type=int, default=9,
                        help="also brute-force positions with at most this many empties")
    parser.add_argument("--only", default="easy,normal,hard,endgame")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    parts = set(args.only.split(","))
    if "easy" in parts:
        match("easy vs random", computer("easy"), random_player, args.games, args.seed)
    if "normal" in parts:
        match("normal vs greedy", computer("normal"), greedy_player, args.games, args.seed)
    if "hard" in parts:
        games = args.games if args.hard_games is None else args.hard_games
        match("hard vs normal", computer("hard"), computer("normal"), games, args.seed)
    if "endgame" in parts:
        endgame_check(args.endgames, args.brute, args.seed)
    # CPU time shows the cost where other work shares the cores; wall time is what a player waits.
    for level in reversi.LEVELS:
        for label, times in (("wall", TIMES[level]), ("cpu", CPU[level])):
            if times:
                ms = [t * 1000 for t in times]
                print(f"time per decision {level:<6} {label:<4} p50 {percentile(ms, 0.5):7.1f} ms"
                      f"   p99 {percentile(ms, 0.99):7.1f} ms   max {max(ms):7.1f} ms   "
                      f"(n={len(ms)})")


if __name__ == "__main__":
    main()
