"""A finished or running match read back from its seed and move log, one step per action.

Records (ratings, stats, exports, replays) all start here: the move log is the truth, and
every state in between is rebuilt by the engine exactly as it was played. Pure: the engine,
the seed and the actions go in, the states come out.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, cast

if TYPE_CHECKING:  # games.engine names Step in the protocol
    from games.engine import Engine

#: Actions the move log keeps that are not moves of the game's notation: each is the engine's
#: function of that name, `function(state, seat)`.
SPECIAL_ACTIONS = ("resign", "forfeit")


@dataclass(frozen=True)
class Step:
    """One action of the log: who took it (`seat`; None for no seat) and the states around it.
    `after.events` are the events it caused."""

    ply: int
    seat: int | None
    action: str
    before: Any
    after: Any


def first_state(engine: Engine, players: int, seed: int,
                options: dict[str, Any] | None) -> Any:
    """The state a match starts from (the deal, the first player), as the engine makes it."""
    return engine.new_game(players, seed=seed, options=options)


def apply_logged(engine: Engine, state: Any, seat: int | None, action: str) -> Any:
    """The state after one logged action. Engines take a seat number; a seat the log left
    empty (no game has an action of no seat) is handed on as it is, for the engine to refuse."""
    if action in SPECIAL_ACTIONS:
        return getattr(engine, action)(state, seat)
    return engine.apply(state, cast(int, seat), engine.parse_move(action))


def steps(engine: Engine, players: int, seed: int, options: dict[str, Any] | None,
          actions: Iterable[tuple[int | None, str]]) -> Iterator[Step]:
    """Each logged action (`(seat, action)`, in order) with the states before and after it."""
    state = first_state(engine, players, seed, options)
    for ply, (seat, action) in enumerate(actions, start=1):
        after = apply_logged(engine, state, seat, action)
        yield Step(ply, seat, action, state, after)
        state = after


def final_state(engine: Engine, players: int, seed: int, options: dict[str, Any] | None,
                actions: Iterable[tuple[int | None, str]]) -> Any:
    """The state after every action (the first state when there is none)."""
    state = first_state(engine, players, seed, options)
    for seat, action in actions:
        state = apply_logged(engine, state, seat, action)
    return state
