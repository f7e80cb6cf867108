"""A game night as files (pure): a CSV of every seat at every table, and for a two-player
Scrabble night the player file of John Chew's Tournament Shell (tsh).

`night_csv`: one row per seat per table per round, then the round's byes, under a header row:
the night, game, round, table, seat (1 first), player id and name, whether a computer played,
rating, place, match points (bot/nights/standings.py: a table of n gives place p
(n - p) / (n - 1), tied places share), the game's own score, margin, whether the player
forfeited, the status (played, unfinished, bye) and the table's note. A text cell that a
spreadsheet would run as a formula (starting with =, +, -, @, a tab or a return) is written
after a ' so that it stays text.

`tsh_file`: a division's `.t` file as tsh 3.x reads and writes it (its reader, TFile.pm; its
`addscore` and `forfeitloss` commands for byes and forfeits; TSH::Player for `p12`): one line
a player, in player-number order (by rating, best first; then name; then id):

    Name                   rating opponents; scores; p12 firsts

- the name: the Discord display name kept whole as one name, not split into "Last, First"
  (tsh's convention, which it turns into "First Last" in reports); so a comma, which tsh reads
  as that split, becomes a space, as do `;` (tsh's field separator), `#` (a comment) and
  control characters; white space is collapsed; trailing words that are numbers are joined
  to the name with `_` ("Room 101" -> "Room_101"), as tsh reads the first number after the
  name as its rating; a name of one character gets a `_` (tsh needs two). Names are written
  as UTF-8, not tsh's default ISO-8859-1: read the file as UTF-8.
- the rating: the night's rating rounded, 0 for none (tsh's rating of an unrated player);
- opponents: the 1-based player number of each round's opponent, 0 for none;
- scores: the player's own score each round (not the spread), integers; a round not yet
  scored is `00` (tsh's "no value") where later rounds have scores, and left off at the end;
- `p12` (tsh's record of starts): 1 went first, 2 went second, 0 did not play that round.
  In a table's `players`, the first seat moved first.

Byes and forfeits as tsh records them: a bye is opponent 0 with the spread tsh's `bye_spread`
gives (50 by default): a bye worth a win (`bye_points` 1) scores +50, one worth a loss -50,
a half-point bye 0 (tsh counts a zero-spread bye as neither won nor lost: it has no half-point
bye). A forfeit is what tsh's `forfeitloss` command writes: both players unpaired (opponent
0), the one who forfeited -50 and the other +50 (both -50 if both forfeited). A game whose
places contradict its scores (a resignation while ahead) is written the same way, since tsh
reads the winner from the scores. A round a player sat out after leaving the night is opponent
0 with score 0 (neither won nor lost). All of these have p12 0.
"""

from __future__ import annotations

import csv
import io
import re
import unicodedata
from collections.abc import Iterator, Mapping, Sequence
from dataclasses import dataclass

from bot.nights.standings import place_points

BYE_SPREAD = 50  # tsh's default `bye_spread`: the spread of a bye or a forfeit
CSV_HEADER = ("night", "game", "round", "table", "seat", "player_id", "player", "computer",
              "rating", "place", "points", "score", "margin", "forfeit", "status", "note")
_FORMULA = ("=", "+", "-", "@", "\t", "\r")
_NOT_IN_NAME = re.compile(r"[;#,]")
_NUMBER = re.compile(r"[\d.+]+")


@dataclass(frozen=True)
class ExportTable:
    """One table of one round. `players` in seat order (negative ids are computers; in a
    two-player game the first moved first); `places` None while unfinished; `scores` the
    game's own points per player (a Scrabble score); `forfeits` the players who forfeited."""

    round: int
    number: int
    players: tuple[int, ...]
    places: tuple[int, ...] | None
    scores: tuple[float, ...]
    margins: tuple[float, ...]
    forfeits: tuple[int, ...] = ()
    note: str = ""


@dataclass(frozen=True)
class ExportNight:
    """A night's results: `byes` as (round, player); `bye_points` the match points of a bye."""

    night_id: int
    game: str
    names: Mapping[int, str]
    ratings: Mapping[int, float]
    tables: Sequence[ExportTable]
    byes: Sequence[tuple[int, int]] = ()
    bye_points: float = 1.0


# -- CSV -------------------------------------------------------------------------------------


def night_csv(night: ExportNight) -> str:
    """Every seat of every table, round by round (then the round's byes), as CSV text."""
    out = io.StringIO()
    writer = csv.writer(out)
    writer.writerow(CSV_HEADER)
    writer.writerows(_csv_rows(night))
    return out.getvalue()


def _csv_rows(night: ExportNight) -> Iterator[list[str]]:
    rounds = sorted({t.round for t in night.tables} | {r for r, _ in night.byes})
    for number in rounds:
        for table in sorted((t for t in night.tables if t.round == number),
                            key=lambda t: t.number):
            points = place_points(table.places) if table.places is not None else None
            for seat, player in enumerate(table.players):
                yield _seat_row(night, table, seat, player, points)
        for _, player in sorted(b for b in night.byes if b[0] == number):
            yield _bye_row(night, number, player)


def _player_cells(night: ExportNight, player: int) -> list[str]:
    rating = night.ratings.get(player)
    return [str(player), _text(night.names.get(player, "")), "yes" if player < 0 else "no",
            "" if rating is None else _num(round(rating, 1))]


def _seat_row(night: ExportNight, table: ExportTable, seat: int, player: int,
              points: list[float] | None) -> list[str]:
    place = "" if table.places is None else str(table.places[seat])
    return [str(night.night_id), night.game, str(table.round), str(table.number),
            str(seat + 1), *_player_cells(night, player), place,
            "" if points is None else _num(points[seat]),
            _num(table.scores[seat]) if seat < len(table.scores) else "",
            _num(table.margins[seat]) if seat < len(table.margins) else "",
            "yes" if player in table.forfeits else "no",
            "unfinished" if table.places is None else "played", _text(table.note)]


def _bye_row(night: ExportNight, number: int, player: int) -> list[str]:
    return [str(night.night_id), night.game, str(number), "", "",
            *_player_cells(night, player), "", _num(night.bye_points), "", "", "no", "bye", ""]


def _num(value: float) -> str:
    """A number as a spreadsheet reads it: 3, 2.5, 0.3333."""
    rounded = round(float(value), 4)
    return str(int(rounded)) if rounded == int(rounded) else str(rounded)


def _text(value: str) -> str:
    """A text cell that no spreadsheet runs as a formula."""
    return "'" + value if value.startswith(_FORMULA) else value


# -- tsh -------------------------------------------------------------------------------------


def tsh_name(name: str) -> str:
    """`name` as a tsh player name (see the module's docstring)."""
    cleaned = "".join(" " if unicodedata.category(c).startswith("C") else c for c in name)
    words = _NOT_IN_NAME.sub(" ", cleaned).split() or ["Player"]
    tail = len(words)
    while tail > 0 and _NUMBER.fullmatch(words[tail - 1]):
        tail -= 1
    if tail < len(words):  # join the numbers at the end to the word before them
        joined = "_".join(words[max(tail - 1, 0):])
        words = words[:max(tail - 1, 0)] + [joined]
    text = " ".join(words)
    return text if len(text) >= 2 else text + "_"


@dataclass
class _Card:
    """One player's line as it is built: per round, opponent number, score and p12."""

    opponents: dict[int, int]
    scores: dict[int, int | None]
    firsts: dict[int, int]


def tsh_file(night: ExportNight, bye_spread: int = BYE_SPREAD) -> str:
    """The night as a tsh `.t` file (see the module's docstring). Two-player tables only."""
    if any(len(t.players) != 2 for t in night.tables):
        raise ValueError("a tsh file holds two-player games only")
    order = _tsh_order(night)
    number = {player: i for i, player in enumerate(order, start=1)}
    cards = {player: _Card({}, {}, {}) for player in order}
    for table in night.tables:
        _tsh_table(table, number, cards, bye_spread)
    bye = round(bye_spread * (2 * min(max(night.bye_points, 0.0), 1.0) - 1))
    for rnd, player in night.byes:
        cards[player].opponents[rnd], cards[player].scores[rnd] = 0, bye
        cards[player].firsts[rnd] = 0
    rounds = max((r for card in cards.values() for r in card.opponents), default=0)
    return "".join(_tsh_line(night, player, cards[player], rounds) for player in order)


def _tsh_order(night: ExportNight) -> list[int]:
    """Everyone who sat at a table or had a bye, by rating (best first), then name, then id."""
    players = {p for t in night.tables for p in t.players} | {p for _, p in night.byes}
    return sorted(players, key=lambda p: (-night.ratings.get(p, 0.0),
                                          night.names.get(p, "").casefold(), p))


def _tsh_table(table: ExportTable, number: Mapping[int, int], cards: Mapping[int, _Card],
               bye_spread: int) -> None:
    first, second = table.players
    rnd = table.round
    forfeited = set(table.forfeits) & {first, second}
    if not forfeited and table.places is not None and _contradicts(table):
        forfeited = {table.players[table.places.index(max(table.places))]}
    if forfeited:  # as tsh's forfeitloss writes it: both unpaired, -spread and +spread
        for player in (first, second):
            card = cards[player]
            card.opponents[rnd], card.firsts[rnd] = 0, 0
            card.scores[rnd] = -bye_spread if player in forfeited else bye_spread
        return
    for seat, (player, opponent) in enumerate(((first, second), (second, first))):
        card = cards[player]
        card.opponents[rnd], card.firsts[rnd] = number[opponent], seat + 1
        card.scores[rnd] = round(table.scores[seat]) if table.places is not None else None


def _contradicts(table: ExportTable) -> bool:
    """Whether the places name a winner whom the scores do not."""
    assert table.places is not None
    (a, b), (x, y) = table.places, (round(table.scores[0]), round(table.scores[1]))
    return a != b and (x - y) * (b - a) <= 0


def _tsh_line(night: ExportNight, player: int, card: _Card, rounds: int) -> str:
    opponents, scores, firsts = [], [], []
    for rnd in range(1, rounds + 1):
        opponents.append(str(card.opponents.get(rnd, 0)))
        absent = rnd not in card.opponents
        score = 0 if absent else card.scores[rnd]
        scores.append("00" if score is None else str(score))
        firsts.append(str(card.firsts.get(rnd, 0)))
    while scores and scores[-1] == "00":
        scores.pop()
    rating = max(0, round(night.ratings.get(player, 0.0)))
    line = (f"{tsh_name(night.names.get(player, '')):<22} {rating:>5} {' '.join(opponents)}; "
            f"{' '.join(scores)}")
    return line + (f"; p12 {' '.join(firsts)}" if firsts else "") + "\n"
