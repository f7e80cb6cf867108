"""A finished match reviewed turn by turn: what each turn played, the better move the reviewer
saw, what the difference was worth, and an accuracy per player.

Each game's `games/<game>/review.py` has `judge(before, seat, played, *, seed) -> Judged | None`:
the turn `seat` took from the state `before` (its action as the move log keeps it), judged by
that game's hard computer, seeing only what the seat could see then (None: the action was no
decision, such as dealing the next round). Values are in the game's own terms, from the
mover's side, and each is also said as the mover's side's chance to win, so one formula gives
every game's accuracy:

- a turn's **loss** is the win chance the played move gave up against the best move, in
  percentage points: `max(0, 100 * (win_best - win_played))`;
- a turn's **accuracy** is `100 * 2 ** (-loss / 10)`: best play is 100, and every 10 points of
  win chance given away halve it (5 points: 71; 10: 50; 20: 25);
- a player's accuracy for the match is the mean over their turns that had a choice (a forced
  move says nothing of skill), rounded to a whole number.

Pure: no clock, no global random (`seed` seeds whatever sampling a judge does).
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

HALF_LIFE = 10.0  # percentage points of win chance lost that halve a turn's accuracy


@dataclass(frozen=True)
class Judged:
    """One turn, judged. `played`/`best` are actions as the move log writes them (`best` equals
    `played` when nothing better was seen); values are in the game's units (`unit`), from the
    mover's side; `win_*` the mover's side's chance to win after each (0 to 1)."""

    seat: int
    played: str
    best: str
    played_value: float
    best_value: float
    win_played: float
    win_best: float
    choices: int  # legal moves the seat had (1: forced)
    unit: str  # "discs", "equity", "points" or "win chance"
    reason: str | None = None  # a key the game's words say (`corner`, `bingo_missed`...)
    reason_values: dict[str, Any] = field(default_factory=dict)
    ply: int = 0  # its place in the move log (0: the first action), set by `review`

    @property
    def loss(self) -> float:
        """Win chance given away, in percentage points."""
        return max(0.0, 100.0 * (self.win_best - self.win_played))

    @property
    def accuracy(self) -> float:
        return turn_accuracy(self.loss)

    def to_dict(self) -> dict[str, Any]:
        return {"ply": self.ply, "seat": self.seat, "played": self.played, "best": self.best,
                "played_value": self.played_value, "best_value": self.best_value,
                "win_played": self.win_played, "win_best": self.win_best,
                "choices": self.choices, "unit": self.unit, "reason": self.reason,
                "reason_values": dict(self.reason_values)}

    @classmethod
    def from_dict(cls, data: dict[str, Any]) -> Judged:
        return cls(**{**data, "reason_values": dict(data.get("reason_values") or {})})


def turn_accuracy(loss: float) -> float:
    """A turn's accuracy from its loss in percentage points of win chance (module doc)."""
    return 100.0 * 2.0 ** (-max(0.0, loss) / HALF_LIFE)


def accuracy(turns: Iterable[Judged], seat: int) -> int | None:
    """The seat's accuracy for the match: the mean of its turns that had a choice, 0 to 100
    (None: it had no such turn)."""
    scored = [turn.accuracy for turn in turns if turn.seat == seat and turn.choices > 1]
    return round(sum(scored) / len(scored)) if scored else None


def costliest(turns: Sequence[Judged], seat: int, count: int = 3) -> list[Judged]:
    """The seat's `count` turns that gave away the most (those that gave away something), in
    the order they were played."""
    lost = [turn for turn in turns if turn.seat == seat and turn.loss > 0.05
            and turn.best != turn.played]
    worst = sorted(lost, key=lambda turn: (-turn.loss, turn.ply))[:count]
    return sorted(worst, key=lambda turn: turn.ply)


def logistic(x: float) -> float:
    """1 / (1 + e^-x), safe for any x: the games' value-to-win-chance curves use it."""
    import math
    if x >= 0:
        return 1.0 / (1.0 + math.exp(-x))
    e = math.exp(x)
    return e / (1.0 + e)
