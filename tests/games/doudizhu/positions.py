"""Setting up Dou Dizhu positions for tests: concrete cards from rank text, staged rounds; and
what a refusal says in English."""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import replace

import pytest

import games.doudizhu as dd
from games.common import GameError, IllegalMove
from i18n import ENGLISH_VOICE


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


def said(refusal: GameError | tuple[str, dict]) -> str:
    """An engine refusal (an error, or a `(key, values)` explanation) as English players read
    it, worded by the bot's Dou Dizhu adapter."""
    from bot.adapters.doudizhu.words import error_words

    error = refusal if isinstance(refusal, GameError) else GameError(refusal[0], **refusal[1])
    worded = error_words(error)
    assert worded is not None, f"{error.key} is not worded"
    return ENGLISH_VOICE(worded)


@contextmanager
def refused(key: str, english: str | None = None, kind: type[GameError] = IllegalMove,
            **values: object) -> Iterator[pytest.ExceptionInfo]:
    """Like `pytest.raises(kind)`: the engine refuses with `key` (and these `values`), and the
    adapter's English matches the pattern `english`."""
    with pytest.raises(kind) as caught:
        yield caught
    error = caught.value
    assert error.key == key, error.key
    assert {name: error.values.get(name) for name in values} == values
    if english is not None:
        assert re.search(english, said(error)), said(error)
