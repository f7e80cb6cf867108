"""Reversi: two players, an 8x8 board, outflank and flip."""

from games.reversi.ai import LEVELS, choose_move
from games.reversi.engine import (
    BLACK,
    BOARD_FULL,
    MAX_SEATS,
    MIN_SEATS,
    NAME,
    NO_MOVES,
    OPTIONS,
    REASONS,
    RESIGNED,
    WHITE,
    Move,
    State,
    View,
    apply,
    current_seat,
    legal_moves,
    new_game,
    outcome,
    parse_move,
    position,
    resign,
    square_name,
    view,
)

__all__ = [
    "BLACK", "BOARD_FULL", "LEVELS", "MAX_SEATS", "MIN_SEATS", "NAME", "NO_MOVES", "OPTIONS",
    "REASONS", "RESIGNED", "WHITE", "Move", "State",
    "View", "apply", "choose_move", "current_seat", "legal_moves", "new_game", "outcome",
    "parse_move", "position", "resign", "square_name", "view",
]

# Records: highlights of a finished match and its export formats.
from .records import highlights  # noqa: E402
from .transcript import to_ggf, transcript  # noqa: E402
__all__ += ['highlights', 'to_ggf', 'transcript']
