"""A match as the service hands it out: its seats, players, options and what an action did."""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass, field, replace
from typing import Any

from games.common import Event, Outcome
from games.engine import Engine
from bot.matches.commit_order import Ticket
from bot.storage.rows import (
    MatchRow, SeatRow,
)
from bot.matches.turn_time import (
    TURN_OPTION,
)
from i18n import Text, Words, _




def renumbered(seats: Iterable[SeatRow]) -> list[SeatRow]:
    """The seats in order, numbered from 0 again (after one left)."""
    return [replace(seat, seat=i) for i, seat in enumerate(seats)]


def game_title(game: str) -> str:
    """`doudizhu` -> `Dou Dizhu`: a game's name as players read it."""
    return game.replace("doudizhu", "dou dizhu").title()



SEATS_OPTION = "players"  # match option: the number of seats a lobby opens with
UNRATED_OPTION = "unrated"  # match option: why it moves no rating (a night that is not rated)
NIGHT_OPTION = "night"  # match option: the game night whose table it is (a no-show forfeits)
HINTS_OPTION = "hints"  # match option: "on" lets players ask for hints (`/match hint`)
BOT_OPTIONS = (SEATS_OPTION, TURN_OPTION, UNRATED_OPTION, NIGHT_OPTION, HINTS_OPTION)

LEVELS = ("easy", "normal", "hard")  # a computer player's levels (each game's `ai.LEVELS`)
LEVEL_NAMES: dict[str, Text] = {"easy": _("easy"), "normal": _("normal"), "hard": _("hard")}
COMPUTER_NAME = re.compile(r"Computer(?: (?P<number>[0-9]+))? \((?P<level>[a-z]+)\)")


def player_name(seat: SeatRow) -> Words:
    """A seat's name as players read it: a person's as it is; a computer's (stored in English,
    `Computer 2 (hard)`) in the reader's words."""
    if seat.kind == "user" and not seat.name:  # forgotten (`/gamenight forget-me`)
        return _("a former player")
    found = COMPUTER_NAME.fullmatch(seat.name) if seat.kind == "computer" else None
    if found is None or found["level"] not in LEVEL_NAMES:
        return seat.name
    level = LEVEL_NAMES[found["level"]]
    if found["number"] is None:
        return _("Computer ({level})", level=level)
    return _("Computer {number} ({level})", number=found["number"], level=level)


@dataclass(frozen=True)
class Player:
    """Who sits in a seat: `kind` is `user` for a Discord user, `computer` for a computer."""

    user_id: int | None
    name: str
    kind: str = "user"


@dataclass(frozen=True)
class Match:
    """A match row with its engine state decoded."""

    row: MatchRow
    engine: Engine
    state: Any | None
    # the announcement order of the commit that produced this match (see bot/matches/commit_order.py)
    ticket: Ticket | None = field(default=None, compare=False, repr=False)

    id = property(lambda self: self.row.id)
    game = property(lambda self: self.row.game)
    status = property(lambda self: self.row.status)
    channel_id = property(lambda self: self.row.channel_id)
    guild_id = property(lambda self: self.row.guild_id)
    seats = property(lambda self: self.row.seats)

    @property
    def title(self) -> str:
        """The game's name in English (logs); a message words it with
        `bot.titles.title(match.game)`."""
        return game_title(self.game)

    @property
    def is_open(self) -> bool:
        return self.status in ("lobby", "active")

    def seat_of(self, user_id: int) -> int | None:
        for seat in self.seats:
            if seat.kind == "user" and seat.user_id == user_id:
                return seat.seat
        return None

    def player(self, seat: int) -> SeatRow:
        return self.seats[seat]

    def computer_to_act(self) -> int | None:
        """The seat to act, if the match is on and a computer plays it (a computer's seat, or
        a person's who is away)."""
        seat = self.current_seat() if self.status == "active" else None
        if seat is None or not self.computer_plays(seat):
            return None
        return seat

    def computer_plays(self, seat: int) -> bool:
        row = self.player(seat)
        return row.kind == "computer" or row.away is not None

    @property
    def turn_due(self) -> float | None:
        """When the turn clock of the seat to act runs out (None: no clock)."""
        row = self.row
        if self.status != "active" or row.turn_seconds is None or row.turn_since is None:
            return None
        return row.turn_since + row.turn_seconds

    def current_seat(self) -> int | None:
        return None if self.state is None else self.engine.current_seat(self.state)

    def outcome(self) -> Outcome | None:
        return None if self.state is None else self.engine.outcome(self.state)

    @property
    def seat_target(self) -> int:
        """How many seats this lobby fills before starting by itself (option `players`)."""
        return int(self.row.options.get(SEATS_OPTION, self.engine.MAX_SEATS))

    @property
    def hints_allowed(self) -> bool:
        """Hints may be asked for: the lobby was opened with hints on, or it is practice (one
        person against computers only)."""
        if self.row.options.get(HINTS_OPTION) == "on":
            return True
        people = [seat for seat in self.seats if seat.kind != "computer"]
        return len(people) == 1 and len(self.seats) > 1

    @property
    def table_size(self) -> int:
        """The players the game is for: the seats taken once it was dealt, else the target."""
        return self.seat_target if self.state is None else len(self.seats)

    @property
    def engine_options(self) -> dict[str, Any] | None:
        """The options for the engine: everything but the lobby's seat target."""
        options = {k: v for k, v in self.row.options.items()
                   if k not in BOT_OPTIONS}
        return options or None

    @property
    def is_full(self) -> bool:
        return len(self.seats) >= self.seat_target


AWAY, AWAY_ONCE = "away", "once"  # a seat a computer plays: until its person is back; one turn
ABANDONED_AFTER = 7 * 24 * 3600  # seconds without any person acting: the match is closed


@dataclass(frozen=True)
class ActionResult:
    """What an accepted action did: the match after it and the engine's events."""

    match: Match
    seat: int
    action: str
    events: tuple[Event, ...]

    @property
    def finished(self) -> bool:
        return self.match.status == "finished"


@dataclass(frozen=True)
class Timeout:
    """What a turn clock running out did: `kind` is `away` (a computer plays the seat until its
    person is back), `once` (a computer plays this turn), `skip` (a pass), `forfeit`, `stop`
    (a series waiting between rounds ends) or `deal` (a series that may not stop there deals
    its next round)."""

    kind: str
    before: Match
    seat: int
    result: ActionResult | None  # the pass or the resignation
    match: Match | None = None  # the match after marking the seat away

    @property
    def after(self) -> Match:
        """The match once the timeout was dealt with."""
        if self.result is not None:
            return self.result.match
        assert self.match is not None
        return self.match

