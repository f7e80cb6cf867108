"""A night's plan: its formats, options and their defaults, and what each game allows at a
table (pure)."""

from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any

SWISS, ROUND_ROBIN, CASUAL = "swiss", "round-robin", "casual"
FORMATS = (SWISS, ROUND_ROBIN, CASUAL)
ROUND_ROBIN_MOST = 12  # players a round robin takes (the circle method's rounds stay few)
CHECKIN_MINUTES = 15  # check-in opens this long before the start
DOUDIZHU_DEALS = 4  # deals a Dou Dizhu table plays, by default
MINUTES_PER_ROUND = {"reversi": 30, "patchwork": 40, "scrabble": 50, "doudizhu": 40}
SEATS = {"reversi": (2, 2), "patchwork": (2, 2), "scrabble": (2, 4), "doudizhu": (3, 4)}


@dataclass(frozen=True)
class Plan:
    """A night's options as stored with it (`NightRow.options`)."""

    game: str
    format: str = SWISS
    rounds: int | None = None  # None: fits the players checked in at the start
    table: int = 2  # players a table seats
    rated: bool = True
    turn_time: str | None = None  # the turn clocks (None: the server's)
    checkin_minutes: int = CHECKIN_MINUTES
    computers: bool = False  # computers may fill a short table
    bye_points: float = 1.0  # for a bye, sitting out, and each round missed by a late joiner
    deals: int = DOUDIZHU_DEALS  # Dou Dizhu: deals a table plays
    round_minutes: int | None = None  # the round's deadline (None: the host's `next`)

    @classmethod
    def from_options(cls, game: str, format_: str, options: dict[str, Any]) -> Plan:
        known = {k: v for k, v in options.items() if k in cls.__dataclass_fields__}
        return cls(game=game, format=format_, **{k: v for k, v in known.items()
                                                 if k not in ("game", "format")})

    def options(self) -> dict[str, Any]:
        return {k: getattr(self, k) for k in self.__dataclass_fields__
                if k not in ("game", "format")}

    @property
    def pairs(self) -> bool:
        """Two players a table: Swiss or round robin pairing (else tables of three or four)."""
        return self.table == 2

    def table_bounds(self) -> tuple[int, int]:
        """The smallest and largest table of a round: Dou Dizhu's three and four are different
        games, so exactly `table`; Scrabble's may be one smaller."""
        if self.pairs or self.game == "doudizhu":
            return self.table, self.table
        return self.table - 1, self.table

    def rounds_for(self, players: int) -> int:
        """The rounds the night plays with `players`: as set, else what fits the format (about
        log2 of the players for Swiss, one round against each for a round robin)."""
        if self.rounds is not None:
            return self.rounds
        if self.format == ROUND_ROBIN and self.pairs:
            return max(1, players - 1 if players % 2 == 0 else players)
        if not self.pairs:
            return max(2, min(4, math.ceil(math.log2(max(players, 2))) - 1))
        return max(1, math.ceil(math.log2(max(players, 2))))

    def planned_minutes(self, players: int = 8) -> int:
        """How long the night is planned to take (the Discord event's end)."""
        per_round = self.round_minutes or MINUTES_PER_ROUND.get(self.game, 40)
        return per_round * self.rounds_for(players)


def check_plan(plan: Plan) -> str | None:
    """What is wrong with a plan, as a key of `bot/ui/nights/words.py`'s refusals; None if
    nothing is."""
    least, most = SEATS[plan.game]
    if plan.format not in FORMATS:
        return "format"
    if not least <= plan.table <= most:
        return "table"
    if plan.format == ROUND_ROBIN and not plan.pairs:
        return "round_robin_tables"
    if plan.rounds is not None and not 1 <= plan.rounds <= 20:
        return "rounds"
    if plan.round_minutes is not None and not 5 <= plan.round_minutes <= 24 * 60:
        return "round_minutes"
    if not 0 <= plan.checkin_minutes <= 24 * 60:
        return "checkin"
    return None
