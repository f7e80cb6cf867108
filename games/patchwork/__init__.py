"""Patchwork (Uwe Rosenberg): two players buy patches from a circle and sew a 9x9 quilt.

Rules: shared/rules/patchwork.md; data: games/patchwork/data/patchwork.json.

Public API:
- `new_game(seats=2, *, seed, options=None) -> State`, `legal_moves(state, seat)`,
  `apply(state, seat, move)`, `current_seat(state)`, `turn_reason(state)`, `outcome(state)`,
  `resign(state, seat)`, `view(state, seat)`, `parse_move(text)`, `buy_problem(state, seat, move, any_turn=False)`.
- Words: events (`State.events`) carry a `kind` and plain `values`, errors a `patchwork.`
  key and values, `Outcome.reason` is RESIGNED, HIGHEST_SCORE or TIE_BREAK; the bot words
  them (bot/adapters/patchwork/).
- Moves: `Buy(choice, orientation, square)` (`buy 2 90m c4`), `Pass()` (`pass`),
  `Place(square)` (`place e5`, a leather patch).
- Computer player: `choose_move(state, seat, level, *, seed)` for a level in `LEVELS`
  (`easy`, `normal`, `hard`); see ai.py.
- Geometry: `orientations(patch_id)` (distinct orientations), `legal_placements(quilt_mask,
  patch_id, orientation) -> list[square]`, squares `a1`..`i9` with row 1 at the top
  (`SQUARES`, `COLUMNS`, `square_index`); `oriented_cells` / `oriented_buttons` give a
  patch's (row, column) cells in an orientation, for drawing it.
"""

from .ai import LEVELS, choose_move
from .engine import (
    HIGHEST_SCORE,
    MAX_SEATS,
    MIN_SEATS,
    NAME,
    OPTIONS,
    RESIGNED,
    TIE_BREAK,
    TURN_BEHIND,
    TURN_LEATHER,
    TURN_ON_TOP,
    BadPlacement,
    NoSuchPatch,
    NotEnoughButtons,
    Placed,
    State,
    WrongPhase,
    apply,
    buy_problem,
    current_seat,
    legal_moves,
    new_game,
    outcome,
    resign,
    turn_reason,
)
from .moves import Buy, Move, Pass, Place, parse_move, parse_orientation, short_orientation
from .patches import (
    COLUMNS,
    LEATHER_ID,
    ORIENTATIONS,
    PATCHES,
    SQUARES,
    Patch,
    legal_placements,
    orientations,
    oriented_buttons,
    oriented_cells,
    patch,
    square_index,
)
from .view import PatchInfo, PatchworkView, PlacedView, PlayerView, QuiltView, View, view

__all__ = [
    "BadPlacement",
    "Buy",
    "COLUMNS",
    "HIGHEST_SCORE",
    "LEATHER_ID",
    "LEVELS",
    "MAX_SEATS",
    "MIN_SEATS",
    "Move",
    "NAME",
    "NoSuchPatch",
    "NotEnoughButtons",
    "OPTIONS",
    "ORIENTATIONS",
    "PATCHES",
    "Pass",
    "Patch",
    "PatchInfo",
    "PatchworkView",
    "Place",
    "PlacedView",
    "Placed",
    "PlayerView",
    "QuiltView",
    "RESIGNED",
    "SQUARES",
    "State",
    "View",
    "TIE_BREAK",
    "TURN_BEHIND",
    "TURN_LEATHER",
    "TURN_ON_TOP",
    "WrongPhase",
    "apply",
    "buy_problem",
    "choose_move",
    "current_seat",
    "legal_moves",
    "legal_placements",
    "new_game",
    "orientations",
    "oriented_buttons",
    "oriented_cells",
    "outcome",
    "parse_move",
    "parse_orientation",
    "patch",
    "resign",
    "short_orientation",
    "square_index",
    "turn_reason",
    "view",
]

# Records: highlights of a finished match and its export formats.
from .record import to_record  # noqa: E402
from .records import highlights  # noqa: E402
__all__ += ['highlights', 'to_record']
