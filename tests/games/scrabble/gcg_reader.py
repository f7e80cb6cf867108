"""A small .gcg reader written from the format's specification (poslfit.com/scrabble/gcg/),
for the tests to read our exports back independently of the code that writes them.

What it reads: pragmata (`#character-encoding` first if present, `#playerN nick full name`,
`#title`, `#description`, `#note`...) and event lines `>nick: ...`:

- a play: `RACK POS WORD +score total`, POS `8D` (row then column: across) or `D8` (column
  then row: down); in WORD a lower-case letter is a blank and `.` a tile already on the board;
- an exchange `RACK -TILES +0 total` (or `-N`: N unknown tiles), a pass `RACK - +0 total`;
- tiles taken back after a challenge: `RACK -- -score total`;
- points for the racks left at the end: `(TILES) +score total` (to who went out) and
  `RACK (RACK) -score total` (lost by who holds them).

A rack field may be left out where the rack is unknown. Every event's total must be the
player's previous total plus the change; the reader checks it, and replays the plays on a
board to check their squares (letters on empty squares, `.` on filled ones).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

COLUMNS = "ABCDEFGHIJKLMNO"
SIZE = 15
_POSITION = re.compile(r"(?:(?P<row>\d{1,2})(?P<col>[A-Oa-o])|(?P<col2>[A-Oa-o])(?P<row2>\d{1,2}))")
_SCORE = re.compile(r"[+-]\d+")
_TILES = re.compile(r"[A-Z?]+")


class GCGError(AssertionError):
    """The text does not follow the format."""


@dataclass
class GCGEvent:
    nick: str
    kind: str  # play, exchange, pass, withdrawn, end_bonus, end_penalty
    rack: str | None
    change: int
    total: int
    position: str | None = None
    word: str | None = None
    across: bool | None = None
    exchanged: str | None = None
    tiles: str | None = None  # the tiles of a play taken from the rack (blanks as ?)


@dataclass
class GCGGame:
    players: dict[int, tuple[str, str]] = field(default_factory=dict)  # number -> nick, name
    pragmata: list[tuple[str, str]] = field(default_factory=list)
    events: list[GCGEvent] = field(default_factory=list)
    totals: dict[str, int] = field(default_factory=dict)
    board: list[list[str | None]] = field(
        default_factory=lambda: [[None] * SIZE for _ in range(SIZE)])

    @property
    def nicks(self) -> list[str]:
        return [self.players[n][0] for n in sorted(self.players)]

    def plays(self) -> list[GCGEvent]:
        return [e for e in self.events if e.kind == "play"]


def read_gcg(text: str) -> GCGGame:
    game = GCGGame()
    last_play: dict[str, list[tuple[int, int]]] = {}
    for number, line in enumerate(re.split(r"[\r\n]+", text), start=1):
        if not line.strip():
            continue
        if line.startswith("#"):
            keyword, _, rest = line[1:].partition(" ")
            if keyword == "character-encoding" and number != 1:
                raise GCGError("#character-encoding must be the first line")
            if keyword.startswith("player") and keyword[6:].isdigit():
                nick, _, name = rest.strip().partition(" ")
                if not nick or not name or nick in game.totals:
                    raise GCGError(f"bad player line {line!r}")
                game.players[int(keyword[6:])] = (nick, name.strip())
                game.totals[nick] = 0
            game.pragmata.append((keyword, rest))
            continue
        if not line.startswith(">"):
            raise GCGError(f"line {number} is neither a pragma nor an event: {line!r}")
        event = _event(line, game)
        _check_total(event, game)
        if event.kind == "play":
            last_play[event.nick] = _lay(event, game.board)
        elif event.kind == "withdrawn":
            for r, c in last_play.pop(event.nick):
                game.board[r][c] = None
        game.events.append(event)
    return game


def _event(line: str, game: GCGGame) -> GCGEvent:
    head, *tokens = line.split()
    if not head.endswith(":") or head[1:-1] not in game.totals:
        raise GCGError(f"unknown player in {line!r}")
    nick = head[1:-1]
    if len(tokens) < 2 or not _SCORE.fullmatch(tokens[-2]) or not re.fullmatch(r"-?\d+", tokens[-1]):
        raise GCGError(f"an event ends with the score change and the total: {line!r}")
    change, total = int(tokens[-2]), int(tokens[-1])
    body = tokens[:-2]
    rack = None
    if body and (body[0].startswith("(") or len(body) == 2 and body[1].startswith("(")):
        if len(body) == 1:  # (TILES) +n: the others' racks, to who went out
            return GCGEvent(nick, "end_bonus", None, change, total, tiles=body[0][1:-1])
        rack, shown = body
        if shown != f"({rack})" or change > 0 or not tokens[-2].startswith("-"):
            raise GCGError(f"bad end-of-game rack line {line!r}")
        return GCGEvent(nick, "end_penalty", rack, change, total, tiles=rack)
    if body and not body[0].startswith("-") and not _POSITION.fullmatch(body[0]) or len(body) == 3:
        rack, body = body[0], body[1:]
        if not _TILES.fullmatch(rack):
            raise GCGError(f"bad rack {rack!r}")
    if body == ["-"]:
        _zero(line, change)
        return GCGEvent(nick, "pass", rack, change, total)
    if body == ["--"]:
        if change > 0 or not tokens[-2].startswith("-"):
            raise GCGError(f"tiles taken back lose points: {line!r}")
        return GCGEvent(nick, "withdrawn", rack, change, total)
    if len(body) == 1 and body[0].startswith("-"):
        _zero(line, change)
        exchanged = body[0][1:]
        if not (exchanged.isdigit() or _TILES.fullmatch(exchanged)):
            raise GCGError(f"bad exchange {line!r}")
        return GCGEvent(nick, "exchange", rack, change, total, exchanged=exchanged)
    if len(body) == 2 and _POSITION.fullmatch(body[0]):
        position, word = body
        if not re.fullmatch(r"[A-Za-z.]{2,15}", word) or not tokens[-2].startswith("+"):
            raise GCGError(f"bad play {line!r}")
        across = position[0].isdigit()
        tiles = "".join("?" if ch.islower() else ch for ch in word if ch != ".")
        return GCGEvent(nick, "play", rack, change, total, position=position, word=word,
                        across=across, tiles=tiles)
    raise GCGError(f"unreadable event {line!r}")


def _zero(line: str, change: int) -> None:
    if change != 0:
        raise GCGError(f"a pass or exchange scores +0: {line!r}")


def _check_total(event: GCGEvent, game: GCGGame) -> None:
    expected = game.totals[event.nick] + event.change
    if event.total != expected:
        raise GCGError(f"{event.nick}'s total should be {expected}, not {event.total}")
    game.totals[event.nick] = expected


def _lay(event: GCGEvent, board: list[list[str | None]]) -> list[tuple[int, int]]:
    match = _POSITION.fullmatch(event.position)
    row = int(match["row"] or match["row2"]) - 1
    col = COLUMNS.index((match["col"] or match["col2"]).upper())
    dr, dc = (0, 1) if event.across else (1, 0)
    laid = []
    for i, ch in enumerate(event.word):
        r, c = row + i * dr, col + i * dc
        if not (0 <= r < SIZE and 0 <= c < SIZE):
            raise GCGError(f"{event.word} runs off the board")
        if ch == ".":
            if board[r][c] is None:
                raise GCGError(f"'.' on an empty square in {event.word} at {event.position}")
            continue
        if board[r][c] is not None:
            raise GCGError(f"{event.word} at {event.position} covers a tile")
        board[r][c] = ch
        laid.append((r, c))
    if event.rack is not None and Counter(event.tiles) - Counter(event.rack):
        raise GCGError(f"{event.tiles} are not all on the rack {event.rack}")
    return laid
