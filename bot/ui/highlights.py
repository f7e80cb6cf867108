"""What the games' wording of highlights shares (`stats_lines`, `card_lines` in each game's
presenter): totals, bests and averages over the dicts the games' `records.highlights` keep.

A dict may lack a key (a match recorded before the key existed, or whose highlights could not
be computed): it counts as 0 here.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any


def number(row: dict[str, Any], key: str) -> int:
    """The row's value of `key` as an int (0 when it is missing or not a number)."""
    value = row.get(key, 0)
    return value if isinstance(value, int) and not isinstance(value, bool) else 0


def total(rows: Sequence[dict[str, Any]], key: str) -> int:
    return sum(number(row, key) for row in rows)


def best(rows: Sequence[dict[str, Any]], key: str) -> dict[str, Any] | None:
    """The row with the highest `key` (the first of equals), or None when no row has it."""
    having = [row for row in rows if key in row]
    return max(having, key=lambda row: number(row, key), default=None)


def best_seat(highlights: Sequence[dict[str, Any]], key: str) -> int | None:
    """The seat with the highest positive `key` (the first of equals), or None."""
    top = max((number(row, key) for row in highlights), default=0)
    if top <= 0:
        return None
    return next(seat for seat, row in enumerate(highlights) if number(row, key) == top)


def average(amount: int, count: int) -> str:
    """`amount / count` with one decimal, as every language here writes it (Western digits)."""
    return f"{amount / count:.1f}" if count else "0.0"
