"""Dou Dizhu (Fight the Landlord) for 3 or 4 players: a series of rounds with a ledger.

`games.doudizhu.combinations` (classify, beats, legal_plays) is usable on its own; what an
adapter needs from it (the combination types and their names) is exported here.
"""

from games.doudizhu.ai import LEVELS, choose_move
from games.doudizhu.combinations import (
    BOMB,
    RANKS,
    ROCKET,
    THREE_PLAYER_ONLY,
    TYPE_NAMES,
    TYPES,
    Combination,
    beats,
    classify,
    legal_plays,
)
from games.doudizhu.engine import (
    AUCTION,
    MAX_SEATS,
    MIN_SEATS,
    NAME,
    OPTIONS,
    OVER,
    PLAY,
    ROUND_OVER,
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
    payment_text,
    resign,
    sort_cards,
    view,
)

__all__ = [
    "AUCTION", "BOMB", "MAX_SEATS", "MIN_SEATS", "NAME", "OPTIONS", "OVER", "PLAY", "RANKS",
    "LEVELS", "ROCKET", "ROUND_OVER", "THREE_PLAYER_ONLY", "TYPE_NAMES", "TYPES",
    "Bid", "Combination", "Move", "Next", "Pass", "Play", "State", "Stop", "TrickEntry", "View",
    "apply", "beats", "card_text", "choose_move", "classify", "current_seat", "forfeit",
    "full_deck", "legal_combinations",
    "legal_moves", "legal_plays", "new_game", "outcome", "parse_move", "payment_text", "resign",
    "sort_cards", "view",
]
