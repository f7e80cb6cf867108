"""A Scrabble match as a .gcg file (John Chew's "generic crossword game" format, poslfit.com).

One event line per thing that changed a score or took a turn, in the order it happened:

- a play: `>nick: RACK 8D WORD +score total` (horizontal plays give the row then the column,
  vertical ones the column then the row; a blank is a lower-case letter, a tile already on
  the board is `.`);
- an exchange `>nick: RACK -TILES +0 total`, a pass `>nick: RACK - +0 total`; a turn lost to a
  failed double challenge is written as the pass it amounts to, with a `#note`;
- a play challenged off the board: `>nick: RACK -- -score total`;
- the end: each rack left loses its value (`>nick: RACK (RACK) -value total`) and a player who
  went out gains the others' tiles (`>nick: (TILES) +value total`), as our rules score them.

Resignations and finish-line wins have no event of their own in the format: a `#note` says so.
A match still in play shows no rack: a play's rack field holds only the tiles it put down, an
exchange gives the number of tiles (`-3`), and a pass or lost turn has no rack field.
Pure: the replayed steps and the players' names go in, the text comes out.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from games.replay import Step

from .moves import ACROSS, Play, parse_move
from .tiles import COLUMNS

_NOT_IN_NICK = re.compile(r"[\s:#>]+")


def nicknames(players: Sequence[str]) -> list[str]:
    """One GCG nickname per player: no white space or colon, and no two alike."""
    nicks: list[str] = []
    for number, name in enumerate(players, start=1):
        nick = _NOT_IN_NICK.sub("_", name).strip("_") or f"player{number}"
        while nick in nicks:
            nick = f"{nick}_{number}"
        nicks.append(nick)
    return nicks


def position(play: Play) -> str:
    """`8D` for a play across from D8, `D8` for one down from it."""
    row, column = str(play.row + 1), COLUMNS[play.col]
    return row + column if play.direction == ACROSS else column + row


def laid(play: Play, board: Any) -> str:
    """The play's word as GCG writes it: tiles already on `board` (before the play) as `.`."""
    return "".join("." if board[r, c] is not None else ch
                   for (r, c), ch in zip(play.squares(), play.word))


def rules_line(state: Any) -> str | None:
    """The rules that differ from the standard game, for `#description` (None: standard)."""
    parts = []
    if state.rack_size != 7:
        parts.append(f"{state.rack_size}-tile racks")
    if state.finish is not None:
        parts.append(f"finish line at {state.finish} points")
    if state.challenge != "double":
        parts.append(f"{state.challenge} challenge")
    return ", ".join(parts) if parts else None


def to_gcg(steps: Sequence[Step], players: Sequence[str], *, over: bool,
           title: str | None = None, first: Any = None) -> str:
    """The .gcg text of a match from its steps (games/replay.py) and the players' names in
    seat order. `over`: the match has ended, so every rack may be shown. `first`: the state
    the match started from, needed only when there are no steps."""
    writer = _Writer(nicknames(players), over)
    start = steps[0].before if steps else first
    lines = ["#character-encoding UTF-8"]
    lines += [f"#player{number} {nick} {' '.join(name.split()) or nick}"
              for number, (nick, name) in enumerate(zip(writer.nicks, players), start=1)]
    if title:
        lines.append(f"#title {' '.join(title.split())}")
    rules = rules_line(start) if start is not None else None
    if rules:
        lines.append(f"#description Scrabble, {rules}")
    for step in steps:
        writer.step(step)
    return "\n".join(lines + writer.lines) + "\n"


class _Writer:
    """Event lines, with each player's running total as the file states it."""

    def __init__(self, nicks: list[str], over: bool) -> None:
        self.nicks = nicks
        self.over = over
        self.totals = [0] * len(nicks)
        self.lines: list[str] = []
        self.played_from: dict[int, str] = {}  # seat -> the rack field of its last play

    def event(self, seat: int, rack: str, middle: str, change: int, *,
              lost: bool = False) -> None:
        """One event line; `lost`: points taken away, written `-n` (even `-0`)."""
        self.totals[seat] += change
        score = f"-{-change}" if lost else f"+{change}"
        fields = [f">{self.nicks[seat]}:", *([rack] if rack else []), middle, score,
                  str(self.totals[seat])]
        self.lines.append(" ".join(fields))

    def note(self, text: str) -> None:
        self.lines.append(f"#note {text}")

    def rack(self, state: Any, seat: int) -> str:
        """A seat's rack as the file may show it: only once the match is over."""
        return state.racks[seat] if self.over else ""

    def step(self, step: Step) -> None:
        move = None if step.action in ("resign", "forfeit") else parse_move(step.action)
        for event in step.after.events:
            self.on(event, step, move)

    def on(self, event: Any, step: Step, move: Any) -> None:
        kind, seat, values = event.kind, event.seat, event.values
        before = step.before
        if kind == "play":
            rack = before.racks[seat] if self.over else step.after.last_play.tiles
            self.played_from[seat] = rack
            self.event(seat, rack, f"{position(move)} {laid(move, before.board)}",
                       values["score"])
        elif kind == "exchange":
            tiles = move.tiles if self.over else str(values["tiles"])
            self.event(seat, self.rack(before, seat), f"-{tiles}", 0)
        elif kind == "pass":
            self.event(seat, self.rack(before, seat), "-", 0)
        elif kind == "lost_turn":
            self.event(seat, self.rack(step.after, seat), "-", 0)
            self.note(f"{self.nicks[seat]} loses this turn for a challenge of valid words")
        elif kind == "withdrawn":
            score = before.pending.score
            self.event(seat, self.played_from.get(seat, before.pending.tiles), "--", -score,
                       lost=True)
            self.note(f"challenged off: {', '.join(w.upper() for w in values['words'])}")
        elif kind == "challenge_failed":
            self.note(f"{self.nicks[seat]} challenged, and every word is valid")
        elif kind == "resign":
            self.note(f"{self.nicks[seat]} resigns")
        elif kind == "play_goes_on":
            self.note(f"{self.nicks[seat]} draws again: tiles went back into the bag")
        elif kind == "end":
            self.end(values)

    def end(self, values: dict[str, Any]) -> None:
        """The racks' values at the end: lost by whoever holds tiles, won by who went out.
        A finish-line win or a resignation ends the game with no rack scored."""
        racks, adjustments = values["racks"], values["adjustments"]
        reason, player = values["reason"], values["player"]
        if reason == "finish":
            self.note(f"{self.nicks[player]} reaches the finish line of {values['target']} points")
        if reason not in ("out", "passes", "blocked"):
            return
        out = player if reason == "out" else None
        for seat, rack in enumerate(racks):
            if seat != out and rack:
                self.event(seat, rack, f"({rack})", adjustments[seat], lost=True)
        others = "".join(rack for seat, rack in enumerate(racks) if seat != out)
        if out is not None and others:
            self.event(out, "", f"({others})", adjustments[out])
