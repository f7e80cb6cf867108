"""The Patchwork computer player: `choose_move(state, seat, level, *, seed)`.

Everything in Patchwork is public (the circle's order too), so the computer reads the state
itself; it sees nothing a player at the table could not.

A level is a way to choose between buying one of the three patches on offer and passing;
where a bought patch goes is always the placement heuristic's choice (placement.py), and so
is where a leather patch goes.

- easy: a simple value per patch (`search.buy_value`) plus seeded noise, and a placement
  picked among the heuristic's three best.
- normal: the same value without noise, less how much worse the patch leaves the quilt
  (placement cost), less what the best patch left for the opponent is worth to them when
  the move hands them the turn (`search.reply_value`). After a pass the reply counts half
  (PASS_REPLY_WEIGHT): counted in full, normal won 97 of 120 games against easy and 194 of
  200 against random; at half, 108 and 196; not at all, two normal players passed in turn
  until the end (6 of 20 games ended with 40+ empty squares, 0 of 30 at half).
- hard: UCT tree search over buy/pass (`search.mcts`) for `HARD_ITERATIONS` iterations;
  a bound on iterations, not on time, so the same state, seat, level and seed always give
  the same move. 1,500 iterations cost 88 ms of CPU at p50 and 279 ms at p99 (470
  decisions, 20 games, benchmarks/bench_ai_patchwork.py), so a decision stays under 2 s even
  when eight computers think at once on this machine's two cores.
"""

from __future__ import annotations

import random

from games.common import NotYourTurn

from .engine import TURN_LEATHER, State, current_seat, turn_reason
from .moves import Buy, Move, Pass, Place
from .patches import CELLS, PATCHES
from .placement import best_square, quilt_cost, ranked_placements
from .search import PASS, Sim, buy_value, mcts, reply_value

LEVELS = ("easy", "normal", "hard")
HARD_ITERATIONS = 1500
EASY_NOISE = 5.0  # standard deviation, in buttons, added to each option's value
PLACEMENT_WEIGHT = 0.5  # buttons per unit of quilt cost a purchase adds (normal level)
REPLY_WEIGHT = 1.0  # how much the opponent's best reply counts against a purchase (normal)
PASS_REPLY_WEIGHT = 0.5  # ... and against a pass


def to_sim(state: State) -> Sim:
    """The search's model of a position (see search.py)."""
    return Sim(
        circle=list(state.circle),
        positions=list(state.positions),
        buttons=list(state.buttons),
        income=[state.income(0), state.income(1)],
        filled=[CELLS - state.empty_squares(0), CELLS - state.empty_squares(1)],
        top=state.top_seat,
        leather=list(state.leather_spaces),
        bonus=state.bonus_seat,
        finished=list(state.finished),
    )


def _options(state: State, seat: int) -> dict[int, list[tuple[float, str, str]]]:
    """For each patch on offer the seat can afford and fit: its best placements."""
    quilt = state.quilt_mask(seat)
    bonus_free = state.bonus_seat is None
    out = {}
    for k, pid in enumerate(state.offer):
        if PATCHES[pid].cost <= state.buttons[seat]:
            ranked = ranked_placements(quilt, pid, bonus_free=bonus_free)
            if ranked:
                out[k] = ranked
    return out


def _easy(state: State, seat: int, options: dict, rng: random.Random) -> tuple[int, int]:
    sim = to_sim(state)
    values = {k: buy_value(sim, seat, state.circle[k]) for k in options}
    values[PASS] = 0.0
    noisy = {k: v + rng.gauss(0.0, EASY_NOISE) for k, v in values.items()}
    choice = max(noisy, key=lambda k: (noisy[k], -k))
    pick = rng.randrange(min(3, len(options[choice]))) if choice != PASS else 0
    return choice, pick


def _normal(state: State, seat: int, options: dict) -> int:
    sim = to_sim(state)
    before = quilt_cost(state.quilt_mask(seat), bonus_free=state.bonus_seat is None)
    best, best_value = PASS, -PASS_REPLY_WEIGHT * reply_value(sim, seat, PASS)
    for k, ranked in options.items():
        value = (buy_value(sim, seat, state.circle[k]) - PLACEMENT_WEIGHT * (ranked[0][0] - before)
                 - REPLY_WEIGHT * reply_value(sim, seat, k))
        if value > best_value:
            best, best_value = k, value
    return best


def choose_move(state: State, seat: int, level: str, *, seed: int,
                iterations: int | None = None) -> Move:
    """The move `seat` plays at `level` (one of LEVELS); same arguments, same move.

    `iterations` overrides the hard level's search size (HARD_ITERATIONS), e.g. for tests.
    """
    if level not in LEVELS:
        raise ValueError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
    if current_seat(state) != seat:
        raise NotYourTurn(f"seat {seat} is not the one to move")
    quilt = state.quilt_mask(seat)
    if turn_reason(state) == TURN_LEATHER:
        return Place(best_square(quilt, bonus_free=state.bonus_seat is None))
    rng = random.Random(seed)
    options = _options(state, seat)
    pick = 0
    if not options:
        choice = PASS
    elif level == "easy":
        choice, pick = _easy(state, seat, options, rng)
    elif level == "normal":
        choice = _normal(state, seat, options)
    else:
        budget = HARD_ITERATIONS if iterations is None else iterations
        choice = mcts(to_sim(state), [*options, PASS], iterations=budget, rng=rng)
    if choice == PASS:
        return Pass()
    _, orientation, square = options[choice][pick]
    return Buy(choice + 1, orientation, square)


__all__ = ["LEVELS", "choose_move"]
