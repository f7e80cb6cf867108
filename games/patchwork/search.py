"""Buy/pass search for the Patchwork computer: a quick model of the game and UCT tree search.

The search decides *which* patch to buy (or to pass); where a patch goes is the placement
heuristic's job (placement.py). So the model drops the geometry: a quilt is its count of
covered squares, and a patch "fits" when the quilt has that many empty squares. Everything
else follows the rules (engine.py): the circle and spool, buttons, income spaces, leather
patches (each covers one square), the final space, the tie-break. The 7x7 bonus goes to the
first quilt to reach `BONUS_AT` covered squares: a rough stand-in (in 20 games between two
normal players the bonus was taken in 6, with 61-70 squares covered), which a finer model of
the quilt could replace. The real game is consulted where it matters: at the root only patches that really fit
are searched.

The search is UCT (Monte Carlo tree search) with play-outs by a noisy greedy policy, bounded
by a number of iterations (deterministic for a given seed, whatever the machine's speed).
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field

from .patches import (
    BONUS_POINTS,
    CELLS,
    EMPTY_PENALTY,
    INCOME_SPACES,
    PATCHES,
    TRACK_END,
)

BONUS_AT = 56
PASS = -1  # the pass action; a buy is the index 0-2 of the patch on offer
INCOMES_AHEAD = tuple(sum(1 for s in INCOME_SPACES if s > p) for p in range(TRACK_END + 1))
"""INCOMES_AHEAD[p]: income spaces a token on space p has still to cross."""
_COST = tuple(p.cost for p in PATCHES)
_TIME = tuple(p.time for p in PATCHES)
_INCOME = tuple(p.income for p in PATCHES)
_SIZE = tuple(len(p.cells) for p in PATCHES)


@dataclass
class Sim:
    """A Patchwork position without geometry (mutable: the search copies it)."""

    circle: list[int]
    positions: list[int]
    buttons: list[int]
    income: list[int]
    filled: list[int]
    top: int
    leather: list[int]
    bonus: int | None
    finished: list[int] = field(default_factory=list)

    def copy(self) -> Sim:
        return Sim(self.circle[:], self.positions[:], self.buttons[:], self.income[:],
                   self.filled[:], self.top, self.leather[:], self.bonus, self.finished[:])

    @property
    def over(self) -> bool:
        return len(self.finished) == 2

    def to_move(self) -> int:
        a, b = self.positions
        if a != b:
            return 0 if a < b else 1
        return self.top

    def actions(self, seat: int) -> list[int]:
        """The buys this seat can afford and fit (offer index), then PASS."""
        room = CELLS - self.filled[seat]
        money = self.buttons[seat]
        out = [k for k, pid in enumerate(self.circle[:3]) if _COST[pid] <= money and _SIZE[pid] <= room]
        out.append(PASS)
        return out

    def play(self, seat: int, action: int) -> None:
        here = self.positions[seat]
        if action == PASS:
            target = min(self.positions[1 - seat] + 1, TRACK_END)
            self.buttons[seat] += target - here
        else:
            pid = self.circle[action]
            self.circle = self.circle[action + 1:] + self.circle[:action]
            self.buttons[seat] -= _COST[pid]
            self.income[seat] += _INCOME[pid]
            self._cover(seat, _SIZE[pid])
            target = here + _TIME[pid]
        self._advance(seat, min(target, TRACK_END))

    def _cover(self, seat: int, squares: int) -> None:
        self.filled[seat] = min(CELLS, self.filled[seat] + squares)
        if self.bonus is None and self.filled[seat] >= BONUS_AT:
            self.bonus = seat

    def _advance(self, seat: int, end: int) -> None:
        start = self.positions[seat]
        crossed = INCOMES_AHEAD[start] - INCOMES_AHEAD[end]
        self.buttons[seat] += crossed * self.income[seat]
        if self.leather and self.leather[0] <= end:
            taken = [s for s in self.leather if start < s <= end]
            self.leather = [s for s in self.leather if s not in taken]
            self._cover(seat, len(taken))
        self.positions[seat] = end
        self.top = seat
        if end == TRACK_END and seat not in self.finished:
            self.finished.append(seat)

    def score(self, seat: int) -> int:
        bonus = BONUS_POINTS if self.bonus == seat else 0
        return self.buttons[seat] + bonus - EMPTY_PENALTY * (CELLS - self.filled[seat])

    def result(self, seat: int) -> float:
        """1 for a win, 0 for a loss, nudged by the margin so bigger wins rank higher."""
        margin = self.score(seat) - self.score(1 - seat)
        won = margin > 0 or (margin == 0 and self.finished[0] == seat)
        return 0.9 * won + 0.1 * (0.5 + 0.5 * math.tanh(margin / 20))


def buy_value(sim: Sim, seat: int, pid: int, time_rate: float = 1.0) -> float:
    """A patch's worth in buttons now: income still to come, squares covered (2 points each),
    less its price and the time it takes (a pass earns a button per space, so time is worth
    `time_rate` buttons per space)."""
    here = sim.positions[seat]
    time = min(_TIME[pid], TRACK_END - here)
    return (_INCOME[pid] * INCOMES_AHEAD[here] + EMPTY_PENALTY * _SIZE[pid] - _COST[pid]
            - time_rate * time)


def reply_value(sim: Sim, seat: int, action: int) -> float:
    """What the opponent's best buy (by `buy_value`, passing = 0) is worth if `action`
    hands them the next turn; 0 if the seat moves again or the game ends."""
    after = sim.copy()
    after.play(seat, action)
    if after.over or after.to_move() == seat:
        return 0.0
    other = 1 - seat
    return max([0.0, *(buy_value(after, other, after.circle[k])
                       for k in after.actions(other) if k != PASS)])


def greedy_action(sim: Sim, seat: int, actions: list[int]) -> int:
    """The best buy by `buy_value`, or PASS when none is worth more than passing (0)."""
    best, best_value = PASS, 0.0
    for k in actions:
        if k != PASS:
            value = buy_value(sim, seat, sim.circle[k])
            if value > best_value:
                best, best_value = k, value
    return best


def playout(sim: Sim, rng: random.Random, epsilon: float) -> None:
    """Play to the end: greedy moves, a random one with probability `epsilon`."""
    while not sim.over:
        seat = sim.to_move()
        actions = sim.actions(seat)
        if rng.random() < epsilon:
            action = rng.choice(actions)
        else:
            action = greedy_action(sim, seat, actions)
        sim.play(seat, action)


@dataclass
class Node:
    seat: int  # who acts here (meaningless at the end of the game)
    actions: list[int]
    children: dict[int, Node] = field(default_factory=dict)
    visits: int = 0
    value: float = 0.0  # sum of results for the seat that chose the action leading here


def _node(sim: Sim, actions: list[int] | None = None) -> Node:
    if sim.over:
        return Node(-1, [])
    seat = sim.to_move()
    return Node(seat, actions if actions is not None else sim.actions(seat))


def _select(node: Node, c: float) -> int:
    log_n = math.log(node.visits)
    return max(node.children, key=lambda a: node.children[a].value / node.children[a].visits
               + c * math.sqrt(log_n / node.children[a].visits))


def mcts(root: Sim, root_actions: list[int], *, iterations: int, rng: random.Random,
         epsilon: float = 0.15, exploration: float = 0.7) -> int:
    """The root action with the most visits after `iterations` UCT iterations."""
    if len(root_actions) == 1:
        return root_actions[0]
    tree = _node(root, root_actions)
    for _ in range(iterations):
        sim = root.copy()
        path = [tree]
        node = tree
        while node.actions and len(node.children) == len(node.actions):
            action = _select(node, exploration)
            sim.play(node.seat, action)
            node = node.children[action]
            path.append(node)
        if node.actions:
            action = node.actions[len(node.children)]
            sim.play(node.seat, action)
            node.children[action] = _node(sim)
            path.append(node.children[action])
        playout(sim, rng, epsilon)
        results = (sim.result(0), sim.result(1))
        for parent, child in zip(path, path[1:]):
            child.visits += 1
            child.value += results[parent.seat]
        tree.visits += 1
    return max(root_actions, key=lambda a: (tree.children[a].visits, -root_actions.index(a)))
