"""A Reversi turn judged by the hard computer's search (games/reversi/ai.py): the best move it
sees, and the final disc margin (mover's discs less the opponent's) each move leads to.

- In the endgame (at most EXACT_EMPTIES empty squares, or at most TRY_EXACT within
  EXACT_NODES solver nodes) the margins are exact: the game solved to its end with best play
  by both sides, and the win chance is 1, 0.5 or 0 by the margin's sign.
- Before that the hard search runs (its evaluation, iterative deepening within MIDGAME_NODES
  nodes), the played move first at the root so its value comes from the same search as the
  best move's. A value the search proved to be the end of the game is that exact margin; a
  heuristic value `v` predicts a margin of `v / PER_DISC` (at most 64 either way), and a win
  chance of `logistic(margin / WIN_SCALE)` (exactly 1 or 0 for a proved win or loss).

Where exact solving stops was measured on 20 games between computers (benchmarks/
bench_review_reversi_patchwork.py --only exact): solving the best move and the move played
took at most 0.37 s of CPU at 12 empties (195,077 solver nodes); at 13 every solve stayed within
EXACT_NODES (about 0.4 s), at 14 12 of 20 did, at 15 6 of 20 (the slowest 5 s), at 16 none.
So 12 empties are always solved, 13-14 within EXACT_NODES, and beyond that the search decides.

PER_DISC and WIN_SCALE were fitted on 2,760 positions of 60 games between normal computers
(same benchmark, --only fit): the least-squares slope of the exact margin once 14 squares are
left (best play from there) against the search's value at each earlier turn (10.1; 8 to 11 in
each quarter of the game), and the logistic scale that best predicts who wins from the
predicted margin (13 discs).

Budgets are counts of nodes, never the clock, so a judgement is the same on any machine; they
were sized so that judging every turn of a game stays within 10 s of CPU: 5.3 s at the median
and 5.8 s at most over 20 games between computers (same benchmark, on a loaded machine).
"""

from __future__ import annotations

from games.common import seeded_rng
from games.replay import SPECIAL_ACTIONS
from games.reversi import bitboard as bb
from games.reversi import engine
from games.reversi.ai import INFINITY, WEIGHTS, WIN, Search, _OutOfNodes
from games.reversi.engine import State
from games.review import Judged, logistic

UNIT = "discs"
EXACT_EMPTIES = 12      # solve exactly, however many nodes it takes
TRY_EXACT = 14          # ... and up to this many empties within EXACT_NODES solver nodes
EXACT_NODES = 250_000
MIDGAME_NODES = 12_000  # the midgame search's budget for one turn
PER_DISC = 10.0         # search value per disc of final margin (fitted: 10.1)
WIN_SCALE = 13.0        # discs of predicted margin that make a win e (2.7) times likelier
CORNERS = (0, 7, 56, 63)
CORNER_MASK = sum(1 << sq for sq in CORNERS)


def judge(before: State, seat: int, played: str, *, seed: int) -> Judged | None:
    """The turn `seat` took from `before` by playing `played` (a square, `d3`), judged; None
    for an action that is not a move (resign, forfeit) or a turn that was not the seat's."""
    if played in SPECIAL_ACTIONS or before.to_move != seat:
        return None
    square = engine.parse_move(played).square
    engine.apply(before, seat, engine.Move(square))  # an illegal move raises here
    own = before.discs(seat)
    opp = before.white if own == before.black else before.black
    choices = bb.legal_squares(own, opp).bit_count()
    values = _exact(own, opp, square)
    exact = values is not None
    if values is None:
        values = _searched(own, opp, square, seed)
    played_value, best_value, best = values
    if played_value >= best_value:
        best, best_value = square, played_value
    if exact:
        played_margin, best_margin = float(played_value), float(best_value)
        win_played, win_best = _sign_chance(played_value), _sign_chance(best_value)
    else:
        played_margin, best_margin = margin(played_value), margin(best_value)
        win_played, win_best = win_chance(played_value), win_chance(best_value)
    reason, reason_values = (None, {}) if best == square else _reason(own, opp, square, best)
    return Judged(seat, str(engine.Move(square)), str(engine.Move(best)), played_margin,
                  best_margin, win_played, win_best, choices, UNIT, reason, reason_values)


def _child(own: int, opp: int, square: int) -> tuple[int, int]:
    """The position after `own` plays `square`, from the opponent's side (who moves next or
    passes back)."""
    flipped = bb.flips(own, opp, square)
    return opp & ~flipped, own | flipped | (1 << square)


def _exact(own: int, opp: int, square: int) -> tuple[int, int, int] | None:
    """(played margin, best margin, best square) solved exactly, or None when the position
    has too many empties for the solver's budget."""
    empties = (~(own | opp) & bb.FULL).bit_count()
    if empties > TRY_EXACT:
        return None
    search = Search(INFINITY if empties <= EXACT_EMPTIES else EXACT_NODES)
    try:
        best_value, best = search.solve_root(own, opp)
        played_value = best_value if best == square else -search.solve(
            *_child(own, opp, square), -INFINITY, INFINITY)
    except _OutOfNodes:
        return None
    return played_value, best_value, best


def _searched(own: int, opp: int, square: int, seed: int) -> tuple[int, int, int]:
    """(played value, best value, best square) by the hard search, deepened while the budget
    lasts: each iteration values the played move first (a full window), then the rest; an
    iteration that runs out of nodes is discarded."""
    order = bb.squares(bb.legal_squares(own, opp))
    seeded_rng(seed, "reversi-review", own, opp).shuffle(order)  # equal moves: by the seed
    order.sort(key=lambda sq: (sq != square, -WEIGHTS[sq]))
    empties = (~(own | opp) & bb.FULL).bit_count()
    search = Search(MIDGAME_NODES)
    child_own, child_opp = _child(own, opp, square)
    found = (0, 0, square)
    for depth in range(1, empties + 1):
        try:
            played_value = -search.negamax(child_own, child_opp, depth - 1, -INFINITY, INFINITY)
            best_value, best = search.root(own, opp, order, depth)
        except _OutOfNodes:
            break
        found = (played_value, max(best_value, played_value), best)
        order = [square] + [best] * (best != square) + [
            sq for sq in order if sq not in (square, best)]
    return found


def margin(value: int) -> float:
    """A search value as a predicted final disc margin: exact for a proved end of the game."""
    if abs(value) >= WIN:
        return float(value // WIN)
    return round(max(-64.0, min(64.0, value / PER_DISC)), 1)


def win_chance(value: int) -> float:
    """A search value as the mover's chance to win: 1 or 0 for a proved win or loss."""
    if abs(value) >= WIN:
        return _sign_chance(value)
    return logistic(margin(value) / WIN_SCALE)


def _sign_chance(value: int) -> float:
    return 1.0 if value > 0 else 0.0 if value < 0 else 0.5


def _reason(own: int, opp: int, played: int, best: int) -> tuple[str | None, dict]:
    """Why the best move is better, where a plain fact says it: a corner it takes (the played
    move takes none), a corner the played move hands the opponent (the best move does not),
    a wipe-out, or the opponent made to pass."""
    played_theirs, played_mine = _child(own, opp, played)  # the opponent's discs, then own
    best_theirs, best_mine = _child(own, opp, best)
    name = engine.square_name
    if not best_theirs:
        return "wipeout", {"square": name(best)}
    if best in CORNERS and played not in CORNERS:
        return "corner_missed", {"square": name(best)}
    given = bb.legal_squares(played_theirs, played_mine) & CORNER_MASK
    if given and not bb.legal_squares(best_theirs, best_mine) & CORNER_MASK:
        return "corner_given", {"square": name(bb.squares(given)[0])}
    if (not bb.legal_squares(best_theirs, best_mine) and bb.legal_squares(best_mine, best_theirs)
            and bb.legal_squares(played_theirs, played_mine)):
        return "pass_forced", {"square": name(best)}
    return None, {}
