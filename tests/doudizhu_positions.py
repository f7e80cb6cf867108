"""Setting up Dou Dizhu positions for tests: concrete cards from rank text, staged rounds."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace

import games.doudizhu as dd


def cards(text: str) -> tuple[str, ...]:
    """Concrete cards for rank text, suits handed out in order (two decks allow repeats)."""
    used: Counter[str] = Counter()
    out = []
    for rank in text:
        if rank in "BR":
            out.append(rank + "J")
            continue
        out.append(rank + "SHDC"[used[rank] % 4])
        used[rank] += 1
    return dd.sort_cards(out)


def staged(hands: list[str], *, landlord: int = 0, bid: int = 1, turn: int | None = None) -> dd.State:
    """A round in the play phase with the given hands (rank text), the landlord to lead."""
    base = dd.new_game(len(hands), seed=0)
    return replace(base, phase=dd.PLAY, hands=tuple(cards(h) for h in hands), kitty=(),
                   bids=((landlord, bid),), landlord=landlord,
                   turn=landlord if turn is None else turn, events=())


def play(state: dd.State, *actions: str) -> dd.State:
    """Apply actions in turn order from the seat to move."""
    for text in actions:
        state = dd.apply(state, dd.current_seat(state), dd.parse_move(text))
    return state
