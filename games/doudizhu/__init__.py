"""Dou Dizhu (Fight the Landlord) for 3 or 4 players: a series of rounds with a ledger.

`games.doudizhu.combinations` (classify, beats, legal_plays) is usable on its own; what an
adapter needs from it (the combination types) is exported here. The engine speaks in keys and
plain data (events' `values`, errors' `key` and `values`, `payment`, the outcome's `reason`);
the bot's adapter words them in each reader's language.
"""

from games.doudizhu.ai import LEVELS, choose_move
from games.doudizhu.combinations import (
    BOMB,
    PAIR,
    PAIR_SEQUENCE,
    QUADPLEX,
    RANKS,
    ROCKET,
    SEQUENCE,
    SINGLE,
    THREE_PLAYER_ONLY,
    TRIO,
    TRIO_PAIR,
    TRIO_SEQUENCE,
    TRIO_SEQUENCE_PAIRS,
    TRIO_SEQUENCE_SINGLES,
    TRIO_SINGLE,
    TYPES,
    Combination,
    Refusal,
    beats,
    classify,
    legal_plays,
)
from games.doudizhu.engine import (
    AUCTION,
    MAX_DEALS,
    MAX_SEATS,
    MIN_SEATS,
    NAME,
    OPTIONS,
    OVER,
    PLAY,
    ROUND_OVER,
    BadOption,
    Bid,
    Move,
    Next,
    Pass,
    Play,
    State,
    Stop,
    TrickEntry,
    View,
    apply,
    card_text,
    current_seat,
    forfeit,
    full_deck,
    legal_combinations,
    legal_moves,
    new_game,
    outcome,
    parse_move,
    payment,
    resign,
    sort_cards,
    view,
)

__all__ = [
    "AUCTION", "MAX_DEALS", "MAX_SEATS", "MIN_SEATS", "NAME", "OPTIONS", "OVER", "PLAY", "RANKS",
    "LEVELS", "ROUND_OVER", "THREE_PLAYER_ONLY", "TYPES",
    "SINGLE", "PAIR", "TRIO", "TRIO_SINGLE", "TRIO_PAIR", "SEQUENCE", "PAIR_SEQUENCE",
    "TRIO_SEQUENCE", "TRIO_SEQUENCE_SINGLES", "TRIO_SEQUENCE_PAIRS", "BOMB", "ROCKET", "QUADPLEX",
    "BadOption", "Bid", "Combination", "Move", "Next", "Pass", "Play", "Refusal", "State", "Stop",
    "TrickEntry", "View",
    "apply", "beats", "card_text", "choose_move", "classify", "current_seat", "forfeit",
    "full_deck", "legal_combinations",
    "legal_moves", "legal_plays", "new_game", "outcome", "parse_move", "payment", "resign",
    "sort_cards", "view",
]

# Records: highlights of a finished match and its export formats.
from .records import highlights  # noqa: E402
__all__ += ['highlights']
