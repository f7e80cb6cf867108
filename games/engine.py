"""What the bot asks of a game's engine: the `Engine` protocol every engine package satisfies.

An engine is a package (`games/<game>/`), and the protocol is the names that package holds:
mypy checks a module against a protocol member by member. The bot holds engines by name as
`Engine` (bot/matches/engines.py); a test (test_types.py) checks every registered package
against `Engine[State, Move, View]`, of the package's own types.

An engine may also have `forfeit(state, seat) -> State`: a seat that ran out of time leaves
and the others play on (the service falls back to `resign` where there is none).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, Self, TypeVar

from games.common import Event, Outcome
from games.replay import Step


class GameState(Protocol):
    """What the bot does with a state itself: save it, load it, and tell the events of the
    action that made it."""

    @property
    def events(self) -> Sequence[Event]: ...

    def to_dict(self) -> dict[str, Any]: ...

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Self: ...


S = TypeVar("S", bound=GameState)  # the game's State
M = TypeVar("M")  # its Move: what `parse_move` reads and `str(move)` writes to the move log
V_co = TypeVar("V_co", covariant=True)  # its View: what a seat (None: anyone) sees, for pictures


class Engine(Protocol[S, M, V_co]):
    """A game's engine package: its name, its table size and its pure functions of states.

    `apply` and `resign` raise `games.common.GameError` for what the rules refuse.
    """

    __name__: str  # the package, where its computer player is (`<package>.ai`)
    NAME: str  # the game's name in commands and in the database
    MIN_SEATS: int
    MAX_SEATS: int

    @property
    def State(self) -> type[S]: ...

    def new_game(self, seats: int, *, seed: int,
                 options: dict[str, Any] | None = None) -> S: ...

    def current_seat(self, state: S) -> int | None:
        """The seat to move, or None: the game is over, or no one seat is to move."""

    def parse_move(self, text: str) -> M:
        """The move written `text`; raises `games.common.BadNotation` if it does not read."""

    def legal_moves(self, state: S, seat: int) -> list[M]: ...

    def apply(self, state: S, seat: int, move: M) -> S: ...

    def resign(self, state: S, seat: int) -> S: ...

    def outcome(self, state: S) -> Outcome | None:
        """How the game ended; None while it goes on."""

    def view(self, state: S, seat: int | None = None) -> V_co: ...

    def highlights(self, steps: Sequence[Step], players: int) -> list[dict[str, int | str]]:
        """Each seat's highlights of a finished match (its records: bot/matches/records.py)."""
