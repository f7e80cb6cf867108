"""The Scrabble coach (games/scrabble/review.py): how long a whole match's review takes in one
worker, and whether it tells the computer levels apart.

1. **Time**: `--games` matches played by hard computers (2 players by default; `--players`,
   `--tiles 9`), each reviewed turn by turn as the bot's worker does it (`judge_turn`,
   bot/workers/reviews.py, on each step's state as plain data). Prints the CPU seconds of
   one match's review (median, p99, max), the judged turns, the slowest turn, and the turns
   whose rack held two blanks (the move generator's dearest). `--two-blanks` times the
   same matches again as if the mover held both blanks on every turn (each swapped in from
   the bag or another rack while not yet on the board): the worst case.
2. **Accuracy**: `--games` 2-player matches of easy against hard, the seats alternating, each
   reviewed; prints each level's accuracy (games/review.py) averaged over the matches.

    python benchmarks/bench_review_scrabble.py [--games 20] [--players 2] [--tiles 7]
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from dataclasses import replace
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import games.scrabble as engine  # noqa: E402
from bot.workers.reviews import judge_turn  # noqa: E402
from games.replay import steps  # noqa: E402
from games.review import Judged, accuracy  # noqa: E402
from games.scrabble.tiles import sort_tiles  # noqa: E402

Log = list[tuple[int, str]]


def play(players: int, seed: int, levels: tuple[str, ...], options: dict | None) -> Log:
    """A match played to its end by computers (`levels` by seat): its move log."""
    state = engine.new_game(players, seed=seed, options=options)
    log: Log = []
    while engine.outcome(state) is None:
        seat = engine.current_seat(state)
        action = str(engine.choose_move(state, seat, levels[seat], seed=seed * 1000 + len(log)))
        log.append((seat, action))
        state = engine.apply(state, seat, action)
    return log


def review(players: int, seed: int, options: dict | None, log: Log, *,
           two_blanks: bool = False) -> tuple[list[Judged], float, list[tuple[float, str]]]:
    """Every turn judged as the worker judges it: the turns, the CPU seconds in all, and each
    judged turn's (seconds, rack)."""
    started = time.process_time()
    judged: list[Judged] = []
    turns: list[tuple[float, str]] = []
    for step in steps(engine, players, seed, options, log):
        before = step.before
        if two_blanks and step.action != "challenge":
            before = with_both_blanks(before, step.seat, step.action)
        found, seconds = judge_turn("scrabble", before.to_dict(), step.seat, step.action,
                                    seed + step.ply)
        if found is not None:
            judged.append(Judged.from_dict({**found, "ply": step.ply}))
            turns.append((seconds, before.racks[step.seat]))
    return judged, time.process_time() - started, turns


def with_both_blanks(state: engine.State, seat: int, action: str) -> engine.State:
    """`state` with each blank not yet on the board swapped onto `seat`'s rack for one of
    its letters that `action` does not use."""
    move = engine.parse_move(action)
    used = Counter(engine.score_play(state, seat, move).rack_tiles
                   if isinstance(move, engine.Play) else
                   move.tiles if isinstance(move, engine.Exchange) else "")
    spare = Counter(t for t in state.racks[seat] if t != "?")
    spare.subtract(used)
    racks = [list(r) for r in state.racks]
    bag = list(state.bag)
    on_board = sum(ch.islower() for _, _, ch in state.board.tiles())
    for _ in range(2 - on_board - racks[seat].count("?")):
        letter = next((t for t, n in sorted(spare.items()) if n > 0), None)
        if letter is None:
            break
        spare[letter] -= 1
        holder = bag if "?" in bag else next(r for s, r in enumerate(racks)
                                                 if s != seat and "?" in r)
        holder[holder.index("?")] = letter
        racks[seat][racks[seat].index(letter)] = "?"
    return replace(state, racks=tuple(sort_tiles("".join(r)) for r in racks),
                   bag="".join(bag))


def percentile(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(len(ordered) * q))]


def timing(games: int, players: int, tiles: int, first: int, two_blanks: bool) -> None:
    options = {"tiles": tiles} if tiles != 7 else None
    per_game: list[float] = []
    turns: list[tuple[float, str]] = []
    for game in range(games):
        seed = first + game
        log = play(players, seed, ("hard",) * players, options)
        _, seconds, timed = review(players, seed, options, log, two_blanks=two_blanks)
        per_game.append(seconds)
        turns += timed
    two = [s for s, rack in turns if rack.count("?") == 2]
    slowest = max(turns)
    held = ", the mover holding both blanks every turn" if two_blanks else ""
    print(f"review time, {games} matches of {players} hard computers, {tiles}-tile racks{held} "
          f"({len(turns)} turns judged):")
    print(f"  CPU per match: median {statistics.median(per_game):.2f} s, "
          f"p99 {percentile(per_game, 0.99):.2f} s, max {max(per_game):.2f} s")
    print(f"  per turn: median {statistics.median(s for s, _ in turns) * 1000:.0f} ms, "
          f"slowest {slowest[0] * 1000:.0f} ms (rack {slowest[1]})")
    if two:
        print(f"  two-blank racks: {len(two)} turns, median {statistics.median(two) * 1000:.0f}"
              f" ms, max {max(two) * 1000:.0f} ms")


def levels(games: int, first: int) -> None:
    scores: dict[str, list[int]] = {"easy": [], "hard": []}
    for game in range(games):
        seed = first + game
        seats = ("easy", "hard") if game % 2 == 0 else ("hard", "easy")
        log = play(2, seed, seats, None)
        judged, _, _ = review(2, seed, None, log)
        for seat, level in enumerate(seats):
            value = accuracy(judged, seat)
            if value is not None:
                scores[level].append(value)
    print(f"accuracy, {games} matches of easy against hard (seats alternating):")
    for level, values in scores.items():
        print(f"  {level}: mean {statistics.mean(values):.1f} (min {min(values)}, "
              f"max {max(values)}, {len(values)} matches)")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--players", type=int, default=2, choices=(2, 3, 4))
    parser.add_argument("--tiles", type=int, default=7, choices=(7, 9))
    parser.add_argument("--seed", type=int, default=1, help="first seed")
    parser.add_argument("--skip-levels", action="store_true", help="time only")
    parser.add_argument("--two-blanks", action="store_true",
                        help="also time every turn with both blanks on the mover's rack")
    args = parser.parse_args()
    engine.default_lexicon().dawg  # loaded once, as in a worker that has judged before
    timing(args.games, args.players, args.tiles, args.seed, False)
    if args.two_blanks:
        timing(args.games, args.players, args.tiles, args.seed, True)
    if not args.skip_levels:
        levels(args.games, args.seed)


if __name__ == "__main__":
    main()
