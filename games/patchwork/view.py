"""What a seat sees. Everything in Patchwork is public, so every seat sees the same thing;
the only difference is the `you` marker (`PlayerView.you`, `PatchworkView.seat`)."""

from __future__ import annotations

from dataclasses import dataclass

from games.common import Event, Outcome

from .engine import State, current_seat, outcome, turn_reason
from .patches import (
    INCOME_SPACES,
    LEATHER_SPACES,
    SIZE,
    TRACK_END,
    Cell,
    oriented_buttons,
    oriented_cells,
    patch,
    square_index,
)


@dataclass(frozen=True)
class PatchInfo:
    """A patch as printed: cells and button cells as (row, column) from the top-left."""

    id: int
    cost: int
    time: int
    income: int
    cells: tuple[Cell, ...]
    button_cells: tuple[Cell, ...]
    leather: bool = False

    @property
    def size(self) -> int:
        return len(self.cells)


@dataclass(frozen=True)
class PlacedView:
    """A patch on a quilt; `cells` and `button_cells` are (row, column) on the 9x9 quilt."""

    index: int
    patch: PatchInfo
    orientation: str
    square: str
    cells: tuple[Cell, ...]
    button_cells: tuple[Cell, ...]


@dataclass(frozen=True)
class QuiltView:
    """`cells[row][col]` is the index into `patches` of the patch covering it, or None."""

    cells: tuple[tuple[int | None, ...], ...]
    patches: tuple[PlacedView, ...]
    filled: int
    empty: int


@dataclass(frozen=True)
class PlayerView:
    seat: int
    you: bool
    buttons: int
    position: int
    income: int  # buttons this quilt pays at each income space
    next_income_space: int | None  # the next income space ahead of this token
    quilt: QuiltView
    has_bonus: bool
    score: int  # buttons + bonus - 2 per empty square, as things stand
    finished: bool  # token on the final space
    on_top: bool  # shares the space with the other token and arrived last


@dataclass(frozen=True)
class PatchworkView:
    """Everything on the table.

    - `circle`: every patch not yet bought, clockwise from the spool; `offer` its first three
      (numbered 1-3 in `buy` moves).
    - `turn`, `turn_reason`: who acts and why (TURN_BEHIND `behind`, TURN_ON_TOP `on_top`:
      same space, arrived last, TURN_LEATHER `leather`: a leather patch to place); None when
      the game is over.
    - `leather_spaces`: the track spaces still holding a leather patch; `income_spaces` all
      income spaces (53, the final space, included); `track_end` the final space.
    - `last_placed`: the patch the last action put on a quilt, to highlight it.
    """

    seat: int | None
    players: tuple[PlayerView, PlayerView]
    circle: tuple[PatchInfo, ...]
    offer: tuple[PatchInfo, ...]
    bonus_seat: int | None
    turn: int | None
    turn_reason: str | None
    pending_leather: int
    income_spaces: tuple[int, ...]
    leather_spaces: tuple[int, ...]
    all_leather_spaces: tuple[int, ...]
    track_end: int
    start_seat: int
    finished: tuple[int, ...]
    move_count: int
    last_placed: tuple[int, int] | None  # (seat, index in its quilt.patches) placed by the last action
    over: bool
    outcome: Outcome | None
    events: tuple[Event, ...]


def patch_info(patch_id: int) -> PatchInfo:
    p = patch(patch_id)
    return PatchInfo(p.id, p.cost, p.time, p.income, p.cells, p.button_cells, p.leather)


def _quilt_view(state: State, seat: int) -> QuiltView:
    grid: list[list[int | None]] = [[None] * SIZE for _ in range(SIZE)]
    placed = []
    for index, p in enumerate(state.quilts[seat]):
        row, col = divmod(square_index(p.square), SIZE)
        cells = tuple((row + r, col + c) for r, c in oriented_cells(p.patch, p.orientation))
        buttons = tuple((row + r, col + c) for r, c in oriented_buttons(p.patch, p.orientation))
        for r, c in cells:
            grid[r][c] = index
        placed.append(PlacedView(index, patch_info(p.patch), p.orientation, p.square, cells, buttons))
    filled = sum(len(p.cells) for p in placed)
    return QuiltView(tuple(tuple(r) for r in grid), tuple(placed), filled, SIZE * SIZE - filled)


def _player_view(state: State, seat: int, viewer: int | None) -> PlayerView:
    pos = state.positions[seat]
    ahead = [s for s in INCOME_SPACES if s > pos]
    return PlayerView(
        seat=seat,
        you=viewer == seat,
        buttons=state.buttons[seat],
        position=pos,
        income=state.income(seat),
        next_income_space=ahead[0] if ahead else None,
        quilt=_quilt_view(state, seat),
        has_bonus=state.bonus_seat == seat,
        score=state.score(seat),
        finished=seat in state.finished,
        on_top=state.positions[0] == state.positions[1] and state.top_seat == seat,
    )


def _last_placed(state: State) -> tuple[int, int] | None:
    for event in state.events:
        if event.kind in ("buy", "place") and event.seat is not None:
            return event.seat, len(state.quilts[event.seat]) - 1
    return None


def view(state: State, seat: int | None = None) -> PatchworkView:
    """The table as `seat` sees it (None: a spectator). All of it is public."""
    circle = tuple(patch_info(pid) for pid in state.circle)
    return PatchworkView(
        seat=seat,
        players=(_player_view(state, 0, seat), _player_view(state, 1, seat)),
        circle=circle,
        offer=circle[:3],
        bonus_seat=state.bonus_seat,
        turn=current_seat(state),
        turn_reason=turn_reason(state),
        pending_leather=state.pending_leather,
        income_spaces=INCOME_SPACES,
        leather_spaces=state.leather_spaces,
        all_leather_spaces=LEATHER_SPACES,
        track_end=TRACK_END,
        start_seat=state.start_seat,
        finished=state.finished,
        move_count=state.turn,
        last_placed=_last_placed(state),
        over=state.over,
        outcome=outcome(state),
        events=state.events,
    )


View = PatchworkView  # the name every engine package exports
