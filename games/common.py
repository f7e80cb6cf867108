"""What every engine shares: its errors, its outcome and event values, and seeded randomness.

Engines are pure: a state goes in with an action, a new state comes out. Randomness never
comes from the global `random` module; it is derived from the match seed and a label, so the
same seed replays the same match.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from collections.abc import Callable, Iterable
from typing import Any

from games.serial import Serial


class GameError(Exception):
    """An action the game cannot accept.

    `key` names what went wrong, stable and prefixed with the game (`reversi.occupied`) or
    `game.` for what every engine shares; `values` hold the details (squares, counts, cards as
    plain data). The bot's adapter words it in the player's language.
    """

    def __init__(self, key: object, /, **values: Any) -> None:
        super().__init__(key)
        self.key = key
        self.values = values


class IllegalMove(GameError):
    """The move breaks a rule; the message says which and what to do instead."""


class NotYourTurn(IllegalMove):
    """The seat tried to act while another seat is to move."""


class GameOver(GameError):
    """The game has ended; no further moves are accepted."""


class BadNotation(IllegalMove):
    """The text of a move could not be read."""


@dataclass(frozen=True)
class Event(Serial):
    """Something that happened while applying an action, for the players to read.

    `kind` is a stable machine word (`move`, `pass`, `end`, ...); `seat` the seat it concerns,
    if any; `values` the details as plain data (seats as numbers). The bot's adapter words it.
    `text` is only in events saved before the adapters worded them (English, naming seats as
    `{seat0}`...).
    """

    kind: str
    text: str = ""
    seat: int | None = None
    values: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Outcome(Serial):
    """How a game ended: a score per seat, the winning seats, and why it ended."""

    scores: tuple[int, ...]
    winners: tuple[int, ...]
    reason: str
    draw: bool = False
    details: dict[str, Any] = field(default_factory=dict, compare=False)


def shown(text: object, limit: int = 40) -> str:
    """A player's input as an error message may echo it: at most `limit` characters.

    Longer input is cut with "…"; characters that do not print (newlines, control
    characters) become spaces, so `repr` of the result stays short too.
    """
    text = "".join(ch if ch.isprintable() else " " for ch in str(text)[: limit + 1])
    if len(text) <= limit:
        return text
    return text[: limit - 1] + "…"


def quoted(text: object, limit: int = 40) -> str:
    """A player's input quoted in an error exactly as typed (see `shown`), as inline code.

    Unlike `repr` it neither escapes nor re-quotes anything; input holding a backtick is
    wrapped in double backticks, as Discord's markdown wants.
    """
    text = shown(text, limit)
    if "`" not in text:
        return f"`{text}`"
    return f"`` {text} ``"


def unreadable(text: str, readable: Callable[[str], bool]) -> str:
    """The characters of `text` that `readable` refuses, in the order they were typed
    (whitespace is ignored): what an error about them should quote."""
    return "".join(ch for ch in text if not ch.isspace() and not readable(ch))


def join_and(items: Iterable[object], word: str = "and") -> str:
    """`a`, `a and b`, `a, b and c`: names (or anything) listed as a sentence reads them.
    `word` may be "or"."""
    names = [str(item) for item in items]
    if len(names) <= 1:
        return "".join(names)
    return f"{', '.join(names[:-1])} {word} {names[-1]}"


def counted(number: int, noun: str, plural: str | None = None) -> str:
    """`1 tile`, `2 tiles`, `0 tiles`."""
    return f"{number} {noun if number == 1 else plural or noun + 's'}"


def seeded_rng(seed: int, *labels: object) -> random.Random:
    """A private RNG derived from the match seed and labels (e.g. `"deal", round_no`).

    String seeds are hashed with SHA-512 by `random.Random`, so this is stable across
    processes and Python versions that keep seed version 2.
    """
    return random.Random(":".join([str(seed), *map(str, labels)]))
