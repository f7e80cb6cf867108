"""Reversi computer players at three levels, searching the bitboards of `games.reversi.bitboard`.

A level is data (`Level`), not a copy of the search: one evaluation, one alpha-beta search
(negamax with principal-variation windows, a transposition table and move ordering) and one
exact endgame solver serve every level. A search is bounded by a count of nodes, never by the
clock, so the same state, seat, level and seed always give the same move; each level's node
budget was sized on the benchmark machine (`benchmarks/bench_ai_reversi.py`) to keep a decision
within its time goal (hard <= 2 s, normal and easy <= 300 ms, p99). Measured there in CPU time:
a midgame node costs about 25 us, so hard's 40,000 nodes take about 1 s; a solver node about
5 us, so an exact solve of 12 empties (tens of thousands of nodes) takes well under 1 s, and
the attempt at 13-16 empties is capped at 150,000 nodes before hard falls back to 20,000
midgame nodes. Normal's 3-ply search stays near 10 ms.

Passes need no move: the engine passes for a seat with no legal move, so the seat to move always
has one. Inside the search a side without moves passes and the search goes on.
"""

from __future__ import annotations

import random
from dataclasses import dataclass

from games.common import GameOver, IllegalMove, NotYourTurn, seeded_rng
from games.reversi import bitboard as bb
from games.reversi.engine import Move, State

LEVELS = ("easy", "normal", "hard")

FULL = bb.FULL
INFINITY = 1 << 30
WIN = 10_000  # a finished game scores its disc difference times this: beyond any heuristic value


@dataclass(frozen=True)
class Level:
    """How hard a computer plays."""

    depth: int  # deepest iteration of the midgame search (1 = look at each move's position only)
    nodes: int  # node budget of the midgame search; an iteration that runs out is discarded
    exact: int  # at or below this many empty squares, solve the game exactly (no node limit)
    try_exact: int = 0  # at or below this many empties, try an exact solve within...
    exact_nodes: int = 0  # ...this many solver nodes, else search with half of `nodes`
    noise: float = 0.0  # standard deviation of seeded noise on each move's value
    slip: float = 0.0  # chance of playing one of the next-best moves instead of the best


LEVEL_SETTINGS: dict[str, Level] = {
    "easy": Level(depth=1, nodes=0, exact=0, noise=60.0, slip=0.3),
    "normal": Level(depth=3, nodes=3_000, exact=8),
    "hard": Level(depth=30, nodes=40_000, exact=12, try_exact=16, exact_nodes=150_000),
}

# Square values, row by row from a1: corners are worth most, the squares that give a corner
# away (X and C squares) least.
WEIGHTS = (
    120, -20, 20, 5, 5, 20, -20, 120,
    -20, -40, -5, -5, -5, -5, -40, -20,
    20, -5, 15, 3, 3, 15, -5, 20,
    5, -5, 3, 3, 3, 3, -5, 5,
    5, -5, 3, 3, 3, 3, -5, 5,
    20, -5, 15, 3, 3, 15, -5, 20,
    -20, -40, -5, -5, -5, -5, -40, -20,
    120, -20, 20, 5, 5, 20, -20, 120,
)
_WEIGHT_MASKS = tuple(
    (weight, sum(1 << sq for sq in range(64) if WEIGHTS[sq] == weight))
    for weight in sorted(set(WEIGHTS))
)
# Once a corner is taken, its X and C squares no longer give it away: their penalty is refunded.
_CORNERS = tuple(
    (1 << corner, sum(1 << sq for sq in near if WEIGHTS[sq] < 0), near)
    for corner, near in ((0, (1, 8, 9)), (7, (6, 14, 15)), (56, (48, 57, 49)), (63, (62, 55, 54)))
)
_QUADRANTS = tuple(
    sum(1 << (row * 8 + col) for row in rows for col in cols)
    for rows in (range(4), range(4, 8)) for cols in (range(4), range(4, 8))
)
_NOT_A, _NOT_H = 0xFEFEFEFEFEFEFEFE, 0x7F7F7F7F7F7F7F7F
MOBILITY, FRONTIER = 12, 5


class _OutOfNodes(Exception):
    """The search spent its node budget."""


def _final(own: int, opp: int) -> int:
    """Disc difference of a finished game for the side `own` (empty squares go to nobody)."""
    return own.bit_count() - opp.bit_count()


def evaluate(own: int, opp: int, own_moves: int | None = None) -> int:
    """Heuristic value for the side to move: square values, mobility and frontier discs."""
    score = 0
    for weight, mask in _WEIGHT_MASKS:
        score += weight * ((own & mask).bit_count() - (opp & mask).bit_count())
    taken = own | opp
    for corner, near, squares in _CORNERS:
        if taken & corner and taken & near:
            for sq in squares:
                if own >> sq & 1:
                    score -= WEIGHTS[sq]
                elif opp >> sq & 1:
                    score += WEIGHTS[sq]
    if own_moves is None:
        own_moves = bb.legal_squares(own, opp)
    score += MOBILITY * (own_moves.bit_count() - bb.legal_squares(opp, own).bit_count())
    empty = ~taken & FULL
    row = empty | ((empty << 1) & _NOT_A) | ((empty >> 1) & _NOT_H)
    near_empty = row | (row << 8) | (row >> 8)
    score += FRONTIER * ((opp & near_empty).bit_count() - (own & near_empty).bit_count())
    return score


def _children(own: int, opp: int, moves: int) -> list[tuple[int, int, int]]:
    """(square, opponent's discs after, own discs after) for each legal square, lowest first."""
    found = []
    while moves:
        low = moves & -moves
        moves ^= low
        flipped = bb.flips(own, opp, low.bit_length() - 1)
        found.append((low.bit_length() - 1, opp & ~flipped, own | flipped | low))
    return found


class Search:
    """One decision's search: a node count against a budget and a transposition table."""

    def __init__(self, limit: int) -> None:
        self.nodes = 0
        self.limit = limit
        self.table: dict[tuple[int, int], tuple[int, int, int, int]] = {}
        self.solved: dict[tuple[int, int], tuple[int, int, int]] = {}
        self.root_best = -1

    def _count(self) -> None:
        self.nodes += 1
        if self.nodes > self.limit:
            raise _OutOfNodes

    # Midgame: heuristic values, WIN per disc once the game is over.
    def negamax(self, own: int, opp: int, depth: int, alpha: int, beta: int) -> int:
        self._count()
        moves = bb.legal_squares(own, opp)
        if not moves:
            if not bb.legal_squares(opp, own):
                return WIN * _final(own, opp)
            return -self.negamax(opp, own, depth, -beta, -alpha)
        if depth <= 0:
            return evaluate(own, opp, moves)
        key = (own, opp)
        entry = self.table.get(key)
        hint = -1
        if entry is not None:
            stored_depth, low, high, hint = entry
            if stored_depth >= depth:
                if low >= beta:
                    return low
                if high <= alpha or low == high:
                    return high
        order = self._ordered(own, opp, moves, depth, hint)
        best, best_sq = self._pvs(own, opp, order, depth, alpha, beta)
        low = best if best > alpha else -INFINITY
        high = best if best < beta else INFINITY
        self.table[key] = (depth, low, high, best_sq)
        return best

    def _ordered(self, own: int, opp: int, moves: int, depth: int, hint: int) -> list[int]:
        """The legal squares, likely best first: the table's move, then (deep enough to pay
        for it) the fewest replies left to the opponent, then the better square."""
        if depth >= 3:
            children = _children(own, opp, moves)
            children.sort(key=lambda c: (bb.legal_squares(c[1], c[2]).bit_count() * 16
                                         - WEIGHTS[c[0]]))
            order = [sq for sq, _, _ in children]
        else:
            order = sorted(bb.squares(moves), key=WEIGHTS.__getitem__, reverse=True)
        if hint >= 0:
            order.sort(key=lambda sq: sq != hint)
        return order

    def _pvs(self, own: int, opp: int, order: list[int], depth: int, alpha: int,
             beta: int, root: bool = False) -> tuple[int, int]:
        """Search the squares in `order` (a full window for the first, null windows after).

        At the root, each square that proves best so far is kept in `root_best`, so an
        iteration that runs out of nodes still tells which move beat the previous choice.
        """
        best, best_sq = -INFINITY, order[0]
        for index, sq in enumerate(order):
            flipped = bb.flips(own, opp, sq)
            child_own, child_opp = opp & ~flipped, own | flipped | (1 << sq)
            if index == 0:
                value = -self.negamax(child_own, child_opp, depth - 1, -beta, -alpha)
            else:
                value = -self.negamax(child_own, child_opp, depth - 1, -alpha - 1, -alpha)
                if alpha < value < beta:
                    value = -self.negamax(child_own, child_opp, depth - 1, -beta, -alpha)
            if value > best:
                best, best_sq = value, sq
                if root:
                    self.root_best = sq
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best, best_sq

    def root(self, own: int, opp: int, order: list[int], depth: int) -> tuple[int, int]:
        """Best (value, square) `depth` plies deep, trying the squares in `order` first."""
        self._count()
        self.root_best = -1
        return self._pvs(own, opp, order, depth, -INFINITY, INFINITY, root=True)

    # Endgame: exact disc differences.
    def solve(self, own: int, opp: int, alpha: int, beta: int) -> int:
        """The final disc difference for the side to move with best play, within (alpha, beta)."""
        empty = ~(own | opp) & FULL
        if empty.bit_count() <= 6:
            return self._solve_few(own, opp, alpha, beta, empty, False)
        self._count()
        moves = bb.legal_squares(own, opp)
        if not moves:
            if not bb.legal_squares(opp, own):
                return _final(own, opp)
            return -self.solve(opp, own, -beta, -alpha)
        key = (own, opp)
        entry = self.solved.get(key)
        hint = -1
        if entry is not None:
            low, high, hint = entry
            if low >= beta:
                return low
            if high <= alpha or low == high:
                return high
        children = _children(own, opp, moves)
        children.sort(key=lambda c: (bb.legal_squares(c[1], c[2]).bit_count() * 16
                                     - WEIGHTS[c[0]]))
        if hint >= 0:
            children.sort(key=lambda c: c[0] != hint)
        best, best_sq = self._solve_children(children, alpha, beta)
        self.solved[key] = (best if best > alpha else -INFINITY,
                            best if best < beta else INFINITY, best_sq)
        return best

    def _solve_children(self, children: list[tuple[int, int, int]], alpha: int,
                        beta: int) -> tuple[int, int]:
        best, best_sq = -INFINITY, children[0][0]
        for index, (sq, child_own, child_opp) in enumerate(children):
            if index == 0:
                value = -self.solve(child_own, child_opp, -beta, -alpha)
            else:
                value = -self.solve(child_own, child_opp, -alpha - 1, -alpha)
                if alpha < value < beta:
                    value = -self.solve(child_own, child_opp, -beta, -alpha)
            if value > best:
                best, best_sq = value, sq
                if value > alpha:
                    alpha = value
                    if alpha >= beta:
                        break
        return best, best_sq

    def _solve_few(self, own: int, opp: int, alpha: int, beta: int, empty: int,
                   passed: bool) -> int:
        """`solve` for the last few empties: try each empty square, odd regions first."""
        self._count()
        if not empty:
            return _final(own, opp)
        odd = 0
        for quadrant in _QUADRANTS:
            if (empty & quadrant).bit_count() & 1:
                odd |= quadrant
        best = -INFINITY
        for group in (empty & odd, empty & ~odd):
            while group:
                low = group & -group
                group ^= low
                flipped = bb.flips(own, opp, low.bit_length() - 1)
                if not flipped:
                    continue
                value = -self._solve_few(opp & ~flipped, own | flipped | low, -beta, -alpha,
                                         empty ^ low, False)
                if value > best:
                    best = value
                    if value > alpha:
                        alpha = value
                        if alpha >= beta:
                            return best
        if best == -INFINITY:  # no move: pass, or the game is over
            if passed:
                return _final(own, opp)
            return -self._solve_few(opp, own, -beta, -alpha, empty, True)
        return best

    def solve_root(self, own: int, opp: int) -> tuple[int, int]:
        """(exact final disc difference, a square that reaches it)."""
        self._count()
        children = _children(own, opp, bb.legal_squares(own, opp))
        children.sort(key=lambda c: (bb.legal_squares(c[1], c[2]).bit_count() * 16
                                     - WEIGHTS[c[0]]))
        return self._solve_children(children, -INFINITY, INFINITY)


def _sides(state: State, seat: int) -> tuple[int, int]:
    if state.to_move is None:
        raise GameOver("reversi.over")
    if seat != state.to_move:
        raise NotYourTurn("reversi.not_your_turn", colour=None)
    own = state.discs(seat)
    opp = state.white if own == state.black else state.black
    if not bb.legal_squares(own, opp):  # a bug: the engine passes for a seat with no move
        raise IllegalMove("reversi.no_legal_move")
    return own, opp


def _easy(own: int, opp: int, settings: Level, rng: random.Random) -> int:
    """One ply: each move's position valued with seeded noise, and now and then a slip."""
    scored = []
    for sq, child_own, child_opp in _children(own, opp, bb.legal_squares(own, opp)):
        if bb.legal_squares(child_own, child_opp) or bb.legal_squares(child_opp, child_own):
            value = -evaluate(child_own, child_opp)
        else:
            value = -WIN * _final(child_own, child_opp)
        scored.append((value + rng.gauss(0.0, settings.noise), sq))
    scored.sort(reverse=True)
    if len(scored) > 1 and rng.random() < settings.slip:
        return scored[rng.randrange(1, min(3, len(scored)))][1]
    return scored[0][1]


def _deepen(own: int, opp: int, settings: Level, order: list[int], limit: int) -> int:
    """Iterative deepening within a node budget. The deepest iteration decides; one cut short
    still does if it searched the previous choice first and found a better move."""
    search = Search(limit)
    best = order[0]
    empties = (~(own | opp) & FULL).bit_count()
    for depth in range(1, settings.depth + 1):
        try:
            _, best = search.root(own, opp, order, depth)
        except _OutOfNodes:
            if search.root_best >= 0:
                best = search.root_best
            break
        order = [best] + [sq for sq in order if sq != best]
        if depth >= empties:
            break
    return best


def best_square(own: int, opp: int, level: str, seed: int, nodes: int | None = None) -> int:
    """The square a computer of `level` plays for `own` (who must have a legal move)."""
    settings = LEVEL_SETTINGS[level]
    rng = seeded_rng(seed, "reversi-ai", level, own, opp)
    if settings.depth <= 1:
        return _easy(own, opp, settings, rng)
    limit = settings.nodes if nodes is None else nodes
    empties = (~(own | opp) & FULL).bit_count()
    exact_limit = (INFINITY if empties <= settings.exact
                   else settings.exact_nodes if empties <= settings.try_exact else 0)
    if nodes is not None:
        exact_limit = min(exact_limit, nodes)
    if exact_limit:
        try:
            return Search(exact_limit).solve_root(own, opp)[1]
        except _OutOfNodes:
            limit //= 2
    order = bb.squares(bb.legal_squares(own, opp))
    rng.shuffle(order)  # equal moves are told apart by the seed
    order.sort(key=lambda sq: -WEIGHTS[sq])
    return _deepen(own, opp, settings, order, limit)


def choose_move(state: State, seat: int, level: str, *, seed: int, _nodes: int | None = None
                ) -> Move:
    """The move a computer of `level` plays for `seat`, who must be to move.

    `_nodes` caps every search of the decision, the exact solver's too (tests use small budgets
    to stay quick; a capped solve that runs out falls back to the heuristic search).
    """
    if level not in LEVEL_SETTINGS:
        raise ValueError(f"unknown level {level!r}: choose one of {', '.join(LEVELS)}")
    own, opp = _sides(state, seat)
    return Move(best_square(own, opp, level, seed, _nodes))
