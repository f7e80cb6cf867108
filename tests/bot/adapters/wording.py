"""What the games' wording tests share: the errors a list of actions raises, and a stand-in
match that has only its seats."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from types import SimpleNamespace

import pytest

from games.common import GameError


def raised(actions: Iterable[Callable[[], object]]) -> list[GameError]:
    """The GameError each action raises (each must raise one)."""
    errors = []
    for action in actions:
        with pytest.raises(GameError) as caught:
            action()
        errors.append(caught.value)
    return errors


def seated(names: Iterable[str] = ("alice", "bob")) -> SimpleNamespace:
    """A match as the words see it: people in seats, none away."""
    return SimpleNamespace(seats=[SimpleNamespace(seat=i, name=name, kind="user", away=None)
                                  for i, name in enumerate(names)])
