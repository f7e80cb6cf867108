"""Scrabble: 2-4 players, a 15x15 board, 100 tiles; 9-tile and finish-line variants.

Plays are written `H8 across QUIZ` (first square, direction, the whole word as it will read,
lower case for a blank); other actions are `exchange ABC?`, `pass` and `challenge`.
Positions have a FEN-like text form (`Board.parse`, `str(board)`).
"""

from games.scrabble.ai import LEVELS, choose_move, will_challenge
from games.scrabble.board import Board
from games.scrabble.engine import (
    EXCHANGE_MIN_BAG,
    FINISH_TARGETS,
    MAX_SEATS,
    MIN_SEATS,
    NAME,
    OPTIONS,
    AnswerFinalPlay,
    BadOption,
    CannotChallenge,
    CannotExchange,
    PlayRecord,
    State,
    View,
    apply,
    can_challenge,
    current_seat,
    legal_moves,
    new_game,
    outcome,
    position,
    resign,
    score_play,
    scored_plays,
    view,
)
from games.scrabble.lexicon import ENV_VAR as LEXICON_ENV
from games.scrabble.lexicon import Lexicon, default_lexicon, load_lexicon
from games.scrabble.moves import ACROSS, DOWN, Challenge, Exchange, Move, Pass, Play, parse_move
from games.scrabble.scoring import (
    InvalidPlacement,
    MissingTiles,
    ScoredPlay,
    UnknownWord,
    evaluate,
    unknown_words,
)
from games.scrabble.tiles import (
    COLUMNS,
    COUNTS,
    PREMIUMS,
    SIZE,
    VALUES,
    parse_square,
    premium,
    square_name,
)

__all__ = [
    "ACROSS", "COLUMNS", "COUNTS", "DOWN", "EXCHANGE_MIN_BAG", "FINISH_TARGETS", "LEVELS",
    "LEXICON_ENV",
    "MAX_SEATS", "MIN_SEATS", "NAME", "OPTIONS", "PREMIUMS", "SIZE", "VALUES", "AnswerFinalPlay", "BadOption", "Board", "CannotChallenge",
    "CannotExchange", "Challenge", "Exchange", "InvalidPlacement", "Lexicon", "MissingTiles",
    "Move", "Pass", "Play", "PlayRecord", "ScoredPlay", "State", "UnknownWord", "View", "apply",
    "can_challenge", "choose_move", "current_seat", "default_lexicon", "evaluate", "legal_moves",
    "load_lexicon", "new_game", "outcome", "parse_move", "parse_square", "position", "premium",
    "resign",
    "score_play", "scored_plays", "square_name", "unknown_words", "view", "will_challenge",
]

# Records: highlights of a finished match and its export formats.
from .analysis import analyse, missed_plays  # noqa: E402 (they use the package)
from .gcg import to_gcg  # noqa: E402
from .records import highlights  # noqa: E402
__all__ += ['analyse', 'missed_plays', 'to_gcg', 'highlights']
