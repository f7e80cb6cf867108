"""The Patchwork game state and rules (two players, see shared/rules/patchwork.md).

A state is immutable: `apply` returns a new one. Everything in Patchwork is public.

The circle of patches is stored clockwise *from the spool*: `circle[0:3]` are the three on
offer, and the 1x2 starting patch is last at set-up. Buying patch `k` moves the spool to it,
so the circle becomes `circle[k:] + circle[:k - 1]`.

Time track spaces are numbered 0 (start) .. 53 (the final space). Moving a token from `p` to
`q` crosses the spaces `p+1 .. q`; each income space crossed pays the quilt's button income
(the final space 53 is an income space: that is the final income), each leather space crossed
whose patch is still there gives the mover that 1x1 patch, to be placed at once (`Place`
actions, the "pending placement" phase for that seat).
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from functools import lru_cache
from typing import Any

from games.common import (
    Event,
    GameError,
    GameOver,
    IllegalMove,
    NotYourTurn,
    Outcome,
    seeded_rng,
    shown,
)
from games.serial import Serial, as_row

from .moves import Buy, Move, Pass, Place
from .patches import (
    BONUS_POINTS,
    CELLS,
    EMPTY_PENALTY,
    FULL,
    INCOME_SPACES,
    LEATHER_ID,
    LEATHER_SPACES,
    PATCHES,
    SQUARES,
    START_BUTTONS,
    STARTING_PATCH,
    TRACK_END,
    has_seven_square,
    mask_at,
    orientations,
    patch,
    placement_masks,
    placement_problem,
    square_index,
)

NAME = "patchwork"
MIN_SEATS = 2
MAX_SEATS = 2
OPTIONS: dict[str, Any] = {}
"""Patchwork has no options: the rules document has no variants."""

TURN_BEHIND = "behind"
TURN_ON_TOP = "on_top"  # both tokens on one space: the one that arrived last moves
TURN_LEATHER = "leather"  # a leather patch to place first

# Outcome reasons (`Outcome.reason`), worded by the bot's adapter.
RESIGNED = "resigned"
HIGHEST_SCORE = "highest_score"
TIE_BREAK = "tie_break"  # tied score: the first to reach the final space wins


class NotEnoughButtons(IllegalMove):
    """The patch costs more buttons than the player has."""


class BadPlacement(IllegalMove):
    """The patch would stick out of the quilt or overlap another patch."""


class NoSuchPatch(IllegalMove):
    """Fewer patches are on offer than the one chosen."""


class WrongPhase(IllegalMove):
    """A leather patch must be placed now, or there is none to place."""


@as_row
@dataclass(frozen=True)
class Placed:
    """A patch on a quilt: its id (LEATHER_ID for leather), orientation and top-left square."""

    patch: int
    orientation: str
    square: str


@lru_cache(maxsize=4096)
def _quilt_mask(placements: tuple[Placed, ...]) -> int:
    mask = 0
    for p in placements:
        placed = mask_at(p.patch, p.orientation, square_index(p.square))
        assert placed is not None  # a placed patch fits the quilt
        mask |= placed
    return mask


def _quilt_income(placements: tuple[Placed, ...]) -> int:
    return sum(patch(p.patch).income for p in placements)


@dataclass(frozen=True)
class State(Serial):
    """A Patchwork position.

    - `circle`: patch ids clockwise from the spool; the first three are on offer.
    - `quilts`: per seat, the patches placed, in the order they were placed.
    - `buttons`, `positions`: per seat (positions on the time track, 0..53).
    - `top_seat`: whose token lies on top when both share a space (the last to arrive).
    - `leather_spaces`: time-track spaces whose leather patch has not been taken yet.
    - `pending_seat`, `pending_leather`: who must place how many leather patches right now.
    - `bonus_seat`: who holds the 7x7 bonus tile, if anyone.
    - `finished`: seats in the order their tokens reached the final space (tie-break).
    - `resigned`: the seat that conceded, if any.
    - `turn`: number of actions applied so far.
    """

    seed: int
    start_seat: int
    circle: tuple[int, ...]
    quilts: tuple[tuple[Placed, ...], tuple[Placed, ...]]
    buttons: tuple[int, int]
    positions: tuple[int, int]
    top_seat: int
    leather_spaces: tuple[int, ...] = LEATHER_SPACES
    pending_seat: int | None = None
    pending_leather: int = 0
    bonus_seat: int | None = None
    finished: tuple[int, ...] = ()
    resigned: int | None = None
    turn: int = 0
    events: tuple[Event, ...] = field(default=(), compare=True)

    # --- derived ---------------------------------------------------------------------------

    def quilt_mask(self, seat: int) -> int:
        """The 81-bit mask of the squares covered on that seat's quilt."""
        return _quilt_mask(self.quilts[seat])

    def income(self, seat: int) -> int:
        """The buttons that seat's quilt pays at each income space."""
        return _quilt_income(self.quilts[seat])

    def empty_squares(self, seat: int) -> int:
        return CELLS - self.quilt_mask(seat).bit_count()

    def score(self, seat: int) -> int:
        """Buttons + 7 for the bonus tile - 2 per empty square (the score if the game ended now)."""
        bonus = BONUS_POINTS if self.bonus_seat == seat else 0
        return self.buttons[seat] + bonus - EMPTY_PENALTY * self.empty_squares(seat)

    @property
    def offer(self) -> tuple[int, ...]:
        return self.circle[:3]

    @property
    def over(self) -> bool:
        if self.resigned is not None:
            return True
        return len(self.finished) == 2 and self.pending_seat is None


def _pair(values: tuple[int, int], seat: int, value: int) -> tuple[int, int]:
    return (value, values[1]) if seat == 0 else (values[0], value)


# --- set-up ------------------------------------------------------------------------------------


def new_game(seats: int = 2, *, seed: int, options: dict | None = None) -> State:
    """Shuffle the circle (the 1x2 patch last from the spool), draw the start player."""
    if seats != 2:
        raise GameError("patchwork.seats", seats=seats)
    if options:
        raise GameError("patchwork.no_options", options=sorted(shown(o) for o in options))
    others = [p.id for p in PATCHES if p.id != STARTING_PATCH]
    seeded_rng(seed, "patchwork", "circle").shuffle(others)
    start = seeded_rng(seed, "patchwork", "start").randrange(2)
    return State(
        seed=seed,
        start_seat=start,
        circle=(*others, STARTING_PATCH),
        quilts=((), ()),
        buttons=(START_BUTTONS, START_BUTTONS),
        positions=(0, 0),
        top_seat=start,
        events=(Event("start", seat=start),),
    )


# --- whose turn --------------------------------------------------------------------------------


def current_seat(state: State) -> int | None:
    """The seat to act: the one placing a leather patch, else the one behind, else the one on top."""
    if state.over:
        return None
    if state.pending_seat is not None:
        return state.pending_seat
    a, b = state.positions
    if a != b:
        return 0 if a < b else 1
    return state.top_seat


def turn_reason(state: State) -> str | None:
    """Why `current_seat` moves: TURN_LEATHER, TURN_BEHIND or TURN_ON_TOP (None when over)."""
    if state.over:
        return None
    if state.pending_seat is not None:
        return TURN_LEATHER
    a, b = state.positions
    return TURN_BEHIND if a != b else TURN_ON_TOP


# --- legal moves -------------------------------------------------------------------------------


def legal_moves(state: State, seat: int) -> list[Move]:
    """Every legal action of `seat`, in a fixed order.

    Normally: every affordable patch on offer (choice 1, 2, 3) in each distinct orientation
    (ORIENTATIONS order) at each square where it fits (reading order a1, b1 ... i9), then
    `pass`. While a leather patch is pending: `place` on every free square, in reading order.
    """
    if current_seat(state) != seat:
        return []
    quilt = state.quilt_mask(seat)
    if state.pending_seat is not None:
        free = ~quilt & FULL
        return [Place(SQUARES[i]) for i in range(CELLS) if free >> i & 1]
    moves: list[Move] = []
    buttons = state.buttons[seat]
    for choice, pid in enumerate(state.offer, start=1):
        if PATCHES[pid].cost > buttons:
            continue
        for name in orientations(pid):
            for sq, mask in placement_masks(pid, name):
                if not quilt & mask:
                    moves.append(Buy(choice, name, SQUARES[sq]))
    moves.append(Pass())
    return moves


# --- applying actions --------------------------------------------------------------------------


def _check_turn(state: State, seat: int) -> None:
    """Raise unless `seat` is to act. `patchwork.not_your_turn` says why the other player
    moves: `why` is TURN_LEATHER, TURN_BEHIND, `start` (drawn to start) or TURN_ON_TOP."""
    if state.over:
        raise GameOver("patchwork.over")
    if seat not in (0, 1):
        raise NotYourTurn("patchwork.not_playing", seat=seat)
    current = current_seat(state)
    if seat != current:
        if state.pending_seat is not None:
            why = TURN_LEATHER
        elif state.positions[0] != state.positions[1]:
            why = TURN_BEHIND
        elif state.turn == 0:
            why = "start"
        else:
            why = TURN_ON_TOP
        raise NotYourTurn("patchwork.not_your_turn", why=why)


def apply(state: State, seat: int, move: Move) -> State:
    """Play `move` for `seat` and return the new state (the old one is untouched)."""
    _check_turn(state, seat)
    if state.pending_seat is not None:
        if not isinstance(move, Place):
            raise WrongPhase("patchwork.place_first", count=state.pending_leather)
        return _place_leather(state, seat, move)
    if isinstance(move, Place):
        raise WrongPhase("patchwork.no_leather")
    if isinstance(move, Buy):
        return _buy(state, seat, move)
    if isinstance(move, Pass):
        return _pass(state, seat)
    raise IllegalMove("patchwork.not_a_move", move=shown(repr(move)))


def buy_problem(state: State, seat: int, move: Buy, *,
                any_turn: bool = False) -> GameError | None:
    """Why `apply(state, seat, move)` would reject this purchase, or None if it is legal.

    Handy for previews: the error `apply` raises, returned instead of raised. With `any_turn`
    the turn is not checked: would it work on the seat's turn (a preview while the other
    player moves)?
    """
    try:
        if not any_turn:
            _check_turn(state, seat)
        elif state.over or seat in state.finished:
            raise NotYourTurn("patchwork.finished")
        placing = state.pending_seat == seat if any_turn else state.pending_seat is not None
        if placing:
            raise WrongPhase("patchwork.place_yours_first")
        _buy(state, seat, move)
    except GameError as err:
        return err
    return None


def _buy(state: State, seat: int, move: Buy) -> State:
    offer = state.offer
    if move.choice > len(offer):
        if not offer:
            raise NoSuchPatch("patchwork.none_left")
        raise NoSuchPatch("patchwork.few_left", left=len(offer))
    pid = offer[move.choice - 1]
    p = PATCHES[pid]
    have = state.buttons[seat]
    if p.cost > have:
        raise NotEnoughButtons("patchwork.too_dear", cost=p.cost, have=have)
    square = square_index(move.square)
    quilt = state.quilt_mask(seat)
    problem = placement_problem(quilt, pid, move.orientation, square)
    if problem is not None:
        what, details = problem
        raise BadPlacement(f"patchwork.{what}", patch=move.choice, square=move.square,
                           orientation=move.orientation, **details)
    quilts = list(state.quilts)
    quilts[seat] = (*quilts[seat], Placed(pid, move.orientation, move.square))
    k = move.choice
    events = [
        Event("buy", seat=seat, values={
            "patch": pid, "size": len(p.cells), "cost": p.cost, "time": p.time,
            "income": p.income, "square": move.square, "orientation": move.orientation,
        })
    ]
    new = replace(
        state,
        circle=state.circle[k:] + state.circle[: k - 1],
        quilts=(quilts[0], quilts[1]),
        buttons=_pair(state.buttons, seat, have - p.cost),
        turn=state.turn + 1,
    )
    new = _check_bonus(new, seat, events)
    return _advance(new, seat, new.positions[seat] + p.time, events)


def _pass(state: State, seat: int) -> State:
    here = state.positions[seat]
    target = min(state.positions[1 - seat] + 1, TRACK_END)
    moved = target - here
    events = [Event("pass", seat=seat, values={"moved": moved})]
    new = replace(
        state,
        buttons=_pair(state.buttons, seat, state.buttons[seat] + moved),
        turn=state.turn + 1,
    )
    return _advance(new, seat, target, events)


def _advance(state: State, seat: int, target: int, events: list[Event]) -> State:
    """Move the seat's token to `target` (capped at the final space), paying income and leather."""
    start = state.positions[seat]
    end = min(target, TRACK_END)
    buttons = state.buttons[seat]
    income = state.income(seat)
    for space in INCOME_SPACES:
        if start < space <= end:
            buttons += income
            events.append(Event("income", seat=seat, values={
                "space": space, "income": income, "final": space == TRACK_END}))
    taken = tuple(s for s in state.leather_spaces if start < s <= end)
    for space in taken:
        events.append(Event("leather", seat=seat, values={"space": space}))
    finished = state.finished
    if end == TRACK_END and seat not in finished:
        finished = (*finished, seat)
        events.append(Event("finish", seat=seat, values={"space": TRACK_END}))
    new = replace(
        state,
        positions=_pair(state.positions, seat, end),
        buttons=_pair(state.buttons, seat, buttons),
        top_seat=seat,
        leather_spaces=tuple(s for s in state.leather_spaces if s not in taken),
        pending_seat=seat if taken else None,
        pending_leather=len(taken),
        finished=finished,
    )
    return _settle(new, seat, events)


def _place_leather(state: State, seat: int, move: Place) -> State:
    square = square_index(move.square)
    if state.quilt_mask(seat) >> square & 1:
        raise BadPlacement("patchwork.filled", square=move.square)
    quilts = list(state.quilts)
    quilts[seat] = (*quilts[seat], Placed(LEATHER_ID, "0", move.square))
    left = state.pending_leather - 1
    events = [Event("place", seat=seat, values={"square": move.square})]
    new = replace(
        state,
        quilts=(quilts[0], quilts[1]),
        pending_leather=left,
        pending_seat=seat if left else None,
        turn=state.turn + 1,
    )
    new = _check_bonus(new, seat, events)
    return _settle(new, seat, events)


def _check_bonus(state: State, seat: int, events: list[Event]) -> State:
    if state.bonus_seat is None and has_seven_square(state.quilt_mask(seat)):
        events.append(Event("bonus", seat=seat, values={"points": BONUS_POINTS}))
        return replace(state, bonus_seat=seat)
    return state


def _settle(state: State, seat: int, events: list[Event]) -> State:
    """Drop leather patches that cannot fit, announce the end, record the events."""
    if state.pending_seat is not None and state.quilt_mask(seat) == FULL:
        events.append(Event("lost", seat=seat, values={"count": state.pending_leather}))
        state = replace(state, pending_seat=None, pending_leather=0)
    if state.over:
        result = outcome(state)
        assert result is not None
        events.append(Event("end", seat=result.winners[0], values={
            "scores": list(result.scores), "tie_break": result.details["tie_break"]}))
    else:
        nxt = current_seat(state)
        if nxt == seat and state.pending_seat is None:
            events.append(Event("again", seat=seat, values={"why": turn_reason(state)}))
    return replace(state, events=tuple(events))


# --- end of the game ---------------------------------------------------------------------------


def _details(state: State) -> dict[str, Any]:
    empties = [state.empty_squares(s) for s in (0, 1)]
    return {
        "buttons": list(state.buttons),
        "bonus": [BONUS_POINTS if state.bonus_seat == s else 0 for s in (0, 1)],
        "empty_squares": empties,
        "empty_penalty": [-EMPTY_PENALTY * e for e in empties],
        "finish_order": list(state.finished),
        "tie_break": False,
    }


def outcome(state: State) -> Outcome | None:
    """Scores (buttons + bonus - 2 per empty square), the winner and why (RESIGNED,
    HIGHEST_SCORE or TIE_BREAK); None while playing."""
    if not state.over:
        return None
    scores = (state.score(0), state.score(1))
    details = _details(state)
    if state.resigned is not None:
        winner = 1 - state.resigned
        return Outcome(scores=scores, winners=(winner,), reason=RESIGNED, details=details)
    if scores[0] != scores[1]:
        winner = 0 if scores[0] > scores[1] else 1
        return Outcome(scores=scores, winners=(winner,), reason=HIGHEST_SCORE, details=details)
    details["tie_break"] = True
    return Outcome(scores=scores, winners=(state.finished[0],), reason=TIE_BREAK,
                   details=details)


def resign(state: State, seat: int) -> State:
    """`seat` concedes at once (whoever's turn it is); the other seat wins."""
    if state.over:
        raise GameOver("patchwork.over")
    if seat not in (0, 1):
        raise NotYourTurn("patchwork.not_playing", seat=seat)
    new = replace(state, resigned=seat, pending_seat=None, pending_leather=0, turn=state.turn + 1)
    return replace(
        new,
        events=(Event("resign", seat=seat, values={"winner": 1 - seat}),),
    )


__all__ = [
    "BadPlacement",
    "HIGHEST_SCORE",
    "MAX_SEATS",
    "MIN_SEATS",
    "NAME",
    "NoSuchPatch",
    "NotEnoughButtons",
    "OPTIONS",
    "Placed",
    "RESIGNED",
    "State",
    "TIE_BREAK",
    "TURN_BEHIND",
    "TURN_LEATHER",
    "TURN_ON_TOP",
    "WrongPhase",
    "apply",
    "buy_problem",
    "current_seat",
    "legal_moves",
    "new_game",
    "outcome",
    "resign",
    "turn_reason",
]
