"""A Patchwork turn judged by the hard computer's machinery (ai.py, search.py, placement.py):
the best move it sees, and the final score difference (the mover's score less the
opponent's) each move is expected to lead to.

The best move is the hard computer's own (`ai.choose_move(..., "hard", ...)`: its tree search
decides between buying each patch and passing, the placement heuristic where a patch goes).
It and the move played are each valued as

    mean over PLAYOUTS play-outs of the final score difference after the move
    - PLACEMENT_POINTS * (how much harder the quilt is to fill after it, by `quilt_cost`)

and where the move played is valued at least as high, it is the best (the search and this
valuation of one move now and then disagree: the review then finds nothing better).

The play-outs are the hard search's own (`search.playout`: noisy greedy play to the end, in
its model of the game without geometry), and every move's play-outs share the same random
draws, so two moves differ by what they change, not by luck. Where a patch goes is what that
model cannot see: the placement heuristic's cost stands in for it, at PLACEMENT_POINTS points
per unit. A move that ends the game is valued by the real final scores, its win chance 1 or 0
(the tie-break decides a tie); otherwise the win chance is `logistic(difference / WIN_SCALE)`.

Both constants were fitted on games between computers (benchmarks/bench_review_reversi_
patchwork.py --only fit). PLACEMENT_POINTS: one patch placed two ways (where the heuristic
puts it, and anywhere else at random) at 661 turns of 120 games between normal computers
(--fit-games 120), each game then played on by normal computers; the least-squares slope of
the mover's final score difference against the difference in quilt cost is 0.058 points per
unit (standard error 0.044: where a patch goes matters far less to the result than which
patch, and when). WIN_SCALE: the logistic scale that best predicts who won from each turn's
expected difference, over 2,456 turns of 60 games between computers of mixed levels (8.75).

Budgets are counts of play-outs, so a judgement is the same on any machine; they were sized so
that judging every turn of a game stays within 10 s of CPU: 2.6 s at the median and 3.0 s at
most over 20 games between computers (same benchmark, on a loaded machine).
"""

from __future__ import annotations

import random
from typing import Any

from games.common import seeded_rng
from games.replay import SPECIAL_ACTIONS
from games.review import Judged, logistic

from .ai import choose_move, to_sim
from .engine import State, apply, current_seat, legal_moves, outcome
from .moves import Buy, Move, Pass, parse_move
from .patches import BONUS_POINTS, FULL, PATCHES, SEVEN_SQUARES, TRACK_END
from .placement import _neighbour_sets, quilt_cost
from .search import Sim, playout

UNIT = "points"
PLAYOUTS = 500      # play-outs per move weighed
EPSILON = 0.15      # the play-outs' share of random moves, as in the hard search
WIN_SCALE = 8.75    # points of expected difference that make a win e (2.7) times likelier
PLACEMENT_POINTS = 0.06  # points per unit of quilt cost (fitted: 0.058, standard error 0.044)


def judge(before: State, seat: int, played: str, *, seed: int) -> Judged | None:
    """The turn `seat` took from `before` by playing `played` (`buy 2 90m c4`, `pass`,
    `place e5`), judged; None for an action that is not a move (resign, forfeit) or a turn
    that was not the seat's."""
    if played in SPECIAL_ACTIONS or current_seat(before) != seat:
        return None
    move = parse_move(played)
    apply(before, seat, move)  # an illegal move raises here
    choices = len(legal_moves(before, seat))
    draws = _draws(seed, before)
    hard = choose_move(before, seat, "hard", seed=draws[0])
    played_value, played_chance = _value(before, seat, move, draws)
    best, best_value, best_chance = move, played_value, played_chance
    if str(hard) != str(move):
        hard_value, hard_chance = _value(before, seat, hard, draws)
        if hard_value > played_value:
            best, best_value, best_chance = hard, hard_value, hard_chance
    reason, values = (None, {}) if best is move else _reason(before, seat, move, best)
    return Judged(seat, str(move), str(best), round(played_value, 2), round(best_value, 2),
                  played_chance, best_chance, choices, UNIT, reason, values)


def _draws(seed: int, state: State) -> list[int]:
    """The seed of each play-out: the same for every move weighed at a turn."""
    rng = seeded_rng(seed, "patchwork-review", state.turn)
    return [rng.getrandbits(32) for _ in range(PLAYOUTS)]


def _value(before: State, seat: int, move: Move, draws: list[int]) -> tuple[float, float]:
    """(expected final score difference for `seat`, win chance) after `move`."""
    after = apply(before, seat, move)
    if after.over:
        result = outcome(after)
        assert result is not None
        difference = float(result.scores[seat] - result.scores[1 - seat])
        return difference, 1.0 if result.winners == (seat,) else 0.0
    bonus_free = before.bonus_seat is None
    worse = (quilt_cost(after.quilt_mask(seat), bonus_free=bonus_free)
             - quilt_cost(before.quilt_mask(seat), bonus_free=bonus_free))
    difference = _expected(after, seat, draws) - PLACEMENT_POINTS * worse
    return difference, logistic(difference / WIN_SCALE)


def _expected(state: State, seat: int, draws: list[int]) -> float:
    """The mean final score difference for `seat` over the play-outs from `state`."""
    root = _sim(state)
    total = 0
    for draw in draws:
        sim = root.copy()
        playout(sim, random.Random(draw), EPSILON)
        total += sim.score(seat) - sim.score(1 - seat)
    return total / len(draws)


def _sim(state: State) -> Sim:
    """The search's model of `state`, a leather patch still to place already on the quilt."""
    sim = to_sim(state)
    if state.pending_seat is not None:
        sim._cover(state.pending_seat, state.pending_leather)
    return sim


# --- why -----------------------------------------------------------------------------------------


def _reason(before: State, seat: int, played: Move, best: Move) -> tuple[str | None,
                                                                          dict[str, Any]]:
    """Why the best move is better, where a plain fact says it: the 7x7 bonus, one-square
    holes, the same patch better placed, passing, or the better patch's income, time or size."""
    played_after, best_after = apply(before, seat, played), apply(before, seat, best)
    if best_after.bonus_seat == seat != played_after.bonus_seat:
        return "bonus_missed", {"points": BONUS_POINTS}
    played_quilt, best_quilt = played_after.quilt_mask(seat), best_after.quilt_mask(seat)
    if before.bonus_seat is None and _bonus_open(best_quilt) and not _bonus_open(played_quilt):
        return "blocks_7x7", {}
    holes = _holes(played_quilt).bit_count() - _holes(best_quilt).bit_count()
    if isinstance(best, Pass) and isinstance(played, Buy):
        moved = min(before.positions[1 - seat] + 1, TRACK_END) - before.positions[seat]
        return "pass_better", {"buttons": moved}
    if isinstance(best, Buy) and not (isinstance(played, Buy) and played.choice == best.choice):
        better = PATCHES[before.offer[best.choice - 1]]
        if isinstance(played, Pass):
            return ("buttons", {"more": better.income}) if better.income else (None, {})
        assert isinstance(played, Buy)  # a leather turn's best is a leather patch placed
        worse = PATCHES[before.offer[played.choice - 1]]
        if better.income > worse.income:
            return "buttons", {"more": better.income - worse.income}
        if better.time < worse.time:
            return "time", {"spaces": worse.time - better.time}
        if len(better.cells) > len(worse.cells):
            return "squares", {"squares": len(better.cells) - len(worse.cells)}
    if holes > 0:
        return "holes", {"holes": holes}
    if isinstance(best, Buy) and isinstance(played, Buy) and played.choice == best.choice:
        return "placement", {}
    return None, {}


def _holes(quilt: int) -> int:
    """The quilt's one-square holes (a mask): empty squares with no empty neighbour, which
    only a leather patch can fill."""
    empty = ~quilt & FULL
    right, left, down, up = _neighbour_sets(empty)
    return empty & ~(right | left | down | up)


def _bonus_open(quilt: int) -> bool:
    """Whether some 7x7 area of the quilt has no one-square hole in it (a hole needs a leather
    patch, of which there are few)."""
    holes = _holes(quilt)
    return any(not holes & window for window in SEVEN_SQUARES)


__all__ = ["UNIT", "judge"]
