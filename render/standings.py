"""A game night's standings as a phone-sized picture (render/phone.py), and its alt text.

Posted after each round and at the end. The picture is 600 px wide and at most 900 tall: a
header (the night's title, the round, how many play), at the end a podium for the first three
(medals drawn, not taken from an emoji font), then the table: rank, name, games played, match
points and the tiebreaks of the night's kind (bot/nights/standings.py): Buchholz cut-1,
Sonneborn-Berger and the game's margin for two-player games, the margin alone for tables of
three or four. As many rows as fit are shown (about 21 after a round, 13 under the podium),
then a line says how many more there are; the alt text names as many as Discord keeps.

Every word comes through `i18n` and the `Voice` given; names and words are measured and
shrunk, condensed or cut with an ellipsis to fit their column in any script.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

from PIL import Image, ImageDraw

from i18n import Text, Voice, Words, _, lines, n_
from render.alt import LIMIT, fit
from render.fonts import draw_text, text_length, wrap
from render.phone import MAX_ASPECT, WIDTH
from render.png import SCALE, finish

MAX_HEIGHT = round(WIDTH * MAX_ASPECT)  # 900

# Font sizes in final pixels (a phone shows them at half): few sizes, as each size of the
# Chinese font costs memory once opened.
TITLE, LARGE, TEXT, SMALL = 30, 26, 22, 20

PAD = 16
HEADER_H = 88
PODIUM_H = 236
COLUMN_HEAD_H = 34
ROW_H = 30
MORE_H = 32
LEGEND_LINE = 24
BOTTOM = 12

BACKGROUND = (27, 30, 38)
HEADER_BG = (18, 20, 27)
STRIPE = (34, 38, 48)
COLUMN_HEAD_BG = (42, 47, 60)
PEDESTAL = (50, 56, 71)
PEDESTAL_EDGE = (68, 75, 94)
INK = (238, 240, 245)
SOFT = (166, 173, 189)
FAINT = (122, 130, 148)
DARK_INK = (34, 30, 24)
METALS = {  # rank: (face, rim)
    1: ((240, 192, 64), (180, 134, 24)),
    2: ((204, 211, 222), (136, 146, 162)),
    3: ((214, 138, 72), (148, 88, 40)),
}
RIBBONS = ((58, 104, 196), (200, 58, 72))
ACCENTS = {
    "scrabble": (196, 64, 64),
    "reversi": (52, 160, 92),
    "doudizhu": (222, 66, 58),
    "patchwork": (228, 140, 52),
}
ACCENT = (88, 150, 240)

# The header of the column that sums each game's margin, as each game counts it.
MARGIN_WORDS: dict[str, Text] = {
    # TRANSLATORS: a column of a game night's standings: the sum of a player's Scrabble
    # spreads (own score less the opponent's). Keep it short.
    "scrabble": _("Spread"),
    # TRANSLATORS: a column of a game night's standings: the sum of a player's Reversi disc
    # margins. Keep it short.
    "reversi": _("Discs"),
    "patchwork": _("Score"),
    "doudizhu": _("Score"),
}


@dataclass(frozen=True)
class StandingsLine:
    """One player's line. `tiebreaks`: for a two-player night (Buchholz cut-1,
    Sonneborn-Berger, margin), for a night of tables (margin,)."""

    rank: int
    name: str
    points: float
    tiebreaks: tuple[float, ...]
    played: int
    is_computer: bool = False


@dataclass(frozen=True)
class StandingsView:
    """The standings after round `round` of `rounds`, best first; `final` once the night is
    over (the podium is drawn). `title`: the night's name, already worded or to be worded."""

    game: str
    title: Words | str
    round: int
    rounds: int
    rows: tuple[StandingsLine, ...]
    final: bool = False
    two_player: bool = True

    def __post_init__(self) -> None:
        wanted = 3 if self.two_player else 1
        for row in self.rows:
            if len(row.tiebreaks) != wanted:
                raise ValueError(f"{row.name!r} has {len(row.tiebreaks)} tiebreaks, not "
                                 f"{wanted}")


@dataclass(frozen=True)
class _Column:
    header: Words | str
    width: int
    value: int  # index into the numbers of a row: points, tiebreaks..., played


# -- words -----------------------------------------------------------------------------------


def round_line(view: StandingsView) -> Text:
    if view.final:
        return n_("Final standings after {n} round", "Final standings after {n} rounds",
                  view.rounds)
    if view.round == 0:
        return n_("Before the first round, {n} round to play",
                  "Before the first round, {n} rounds to play", view.rounds)
    return _("Standings after round {round} of {rounds}", round=view.round, rounds=view.rounds)


def number(value: float, voice: Voice) -> str:
    """A value to two decimals at most, as the reader's language writes numbers."""
    rounded = round(value, 2)
    return voice.number(int(rounded) if rounded == int(rounded) else rounded)


def signed(value: float, voice: Voice) -> str:
    """A margin with its sign: +120, −35, 0."""
    text = number(abs(value), voice)
    if round(value, 2) == 0:
        return text
    return ("+" if value > 0 else "\u2212") + text


def points_words(points: float) -> Text:
    rounded = round(points, 2)
    if rounded == int(rounded):
        return n_("{n} point", "{n} points", int(rounded))
    return _("{points} points", points=rounded)


def who(row: StandingsLine) -> Words | str:
    """The player as the alt text says them: a computer is said to be one."""
    if row.is_computer:
        # TRANSLATORS: a computer player in a game night's standings, read by screen readers.
        return _("{name} (computer)", name=row.name)
    return row.name


def _columns(view: StandingsView) -> list[_Column]:
    # TRANSLATORS: a column of a game night's standings: the sum of the game's margins.
    margin = MARGIN_WORDS.get(view.game, _("Margin"))
    # TRANSLATORS: column headers of a game night's standings picture, each explained in the
    # line under the table; keep them to a few letters. Games played:
    played = _Column(_("G"), 40, -1)
    # TRANSLATORS: a column of a game night's standings: match points (short).
    points = _Column(_("Pts"), 56, 0)
    if view.two_player:
        # TRANSLATORS: a column of a game night's standings: Buchholz cut 1 (short).
        buchholz = _Column(_("BH-1"), 56, 1)
        # TRANSLATORS: a column of a game night's standings: Sonneborn-Berger (short).
        sonneborn = _Column(_("SB"), 56, 2)
        return [played, points, buchholz, sonneborn, _Column(margin, 72, 3)]
    return [played, points, _Column(margin, 72, 1)]


def _legend(view: StandingsView) -> Text:
    if view.two_player:
        # TRANSLATORS: under a game night's standings: the column headers explained, with
        # the same short headers as the columns.
        return _("G: games played. BH-1: Buchholz cut 1, the opponents' points less the "
                 "lowest. SB: Sonneborn-Berger.")
    # TRANSLATORS: under a game night's standings at tables of 3 or 4: the column headers
    # explained, with the same short headers as the columns.
    return _("G: games played. Pts: 1 for first place at a table, 0 for last, evenly "
             "between.")


# -- fitting text ----------------------------------------------------------------------------


def _width(text: str, size: int, *, bold: bool, condensed: bool = False) -> float:
    return text_length(text, size * SCALE, bold=bold, condensed=condensed) / SCALE


def fitted(text: str, size: int, room: float, *, bold: bool = True,
           smallest: int = SMALL) -> tuple[str, int, bool]:
    """`text` at `size` if it fits `room` px, else at `smallest`, then condensed (the third
    value), then cut short with an ellipsis."""
    for px, condensed in ((size, False), (smallest, False), (smallest, True)):
        if _width(text, px, bold=bold, condensed=condensed) <= room:
            return text, px, condensed
    while text and _width(text + "…", smallest, bold=bold, condensed=True) > room:
        text = text[:-1]
    return text.rstrip() + "…", smallest, True


def wrapped(text: str, size: int, room: float, *, bold: bool = False) -> list[str]:
    """`text` in lines at most `room` px wide (render/fonts.py `wrap`)."""
    return wrap(text, lambda part: _width(part, size, bold=bold), room)


class _Pen:
    """Draws in final pixels on a SCALE-times canvas."""

    def __init__(self, height: int) -> None:
        self.image = Image.new("RGB", (WIDTH * SCALE, height * SCALE), BACKGROUND)
        self.draw = ImageDraw.Draw(self.image)

    def rect(self, box: tuple[float, float, float, float], fill: tuple[int, int, int],
             radius: float = 0, corners: tuple[bool, bool, bool, bool] | None = None) -> None:
        scaled = tuple(round(v * SCALE) for v in box)
        if radius:
            self.draw.rounded_rectangle(scaled, radius=round(radius * SCALE), fill=fill,
                                        corners=corners)
        else:
            self.draw.rectangle(scaled, fill=fill)

    def circle(self, x: float, y: float, r: float, fill: tuple[int, int, int]) -> None:
        self.draw.ellipse([round(v * SCALE) for v in (x - r, y - r, x + r, y + r)], fill=fill)

    def polygon(self, points: Sequence[tuple[float, float]],
                fill: tuple[int, int, int]) -> None:
        self.draw.polygon([(round(x * SCALE), round(y * SCALE)) for x, y in points], fill=fill)

    def text(self, x: float, y: float, text: str, size: int, fill: tuple[int, int, int], *,
             anchor: str = "lm", bold: bool = True, condensed: bool = False) -> None:
        draw_text(self.draw, (x * SCALE, y * SCALE), text, size * SCALE, fill=fill,
                  anchor=anchor, bold=bold, condensed=condensed)

    def fit(self, x: float, y: float, text: str, size: int, room: float,
            fill: tuple[int, int, int], *, anchor: str = "lm", bold: bool = True,
            smallest: int = SMALL) -> None:
        """One line of `text` fitted into `room` px (see `fitted`)."""
        text, px, condensed = fitted(text, size, room, bold=bold, smallest=smallest)
        self.text(x, y, text, px, fill, anchor=anchor, bold=bold, condensed=condensed)


# -- the picture -----------------------------------------------------------------------------


@dataclass(frozen=True)
class Layout:
    """What the picture holds, in final pixels."""

    podium: int
    legend: list[str]
    shown: int  # rows drawn
    more: int  # rows left out

    @property
    def table_top(self) -> int:
        return HEADER_H + self.podium

    @property
    def height(self) -> int:
        rows = COLUMN_HEAD_H + self.shown * ROW_H if self.shown else ROW_H + 8
        legend = len(self.legend) * LEGEND_LINE + 12 if self.legend else 0
        return self.table_top + rows + (MORE_H if self.more else 0) + legend + BOTTOM


def layout(view: StandingsView, voice: Voice) -> Layout:
    """How much of the night fits: every row if it can, else as many as fit with a line
    saying how many more."""
    podium = PODIUM_H if view.final and view.rows else 0
    legend = wrapped(voice(_legend(view)), SMALL, WIDTH - 2 * PAD) if view.rows else []
    whole = Layout(podium, legend, len(view.rows), 0)
    if whole.height <= MAX_HEIGHT:
        return whole
    shown = (MAX_HEIGHT - Layout(podium, legend, 1, 1).height) // ROW_H + 1
    return Layout(podium, legend, shown, len(view.rows) - shown)


def render_standings(view: StandingsView, voice: Voice) -> bytes:
    """The standings as PNG bytes, 600 px wide and at most 900 tall, worded by `voice`."""
    plan = layout(view, voice)
    pen = _Pen(plan.height)
    _header(pen, view, voice)
    if plan.podium:
        _podium(pen, view.rows[:3], HEADER_H, voice)
    y = plan.table_top
    if view.rows:
        y = _table(pen, view, plan, y, voice)
    else:
        pen.text(WIDTH / 2, y + (ROW_H + 8) / 2, voice(_("No results yet.")), TEXT, SOFT,
                 anchor="mm", bold=False)
        y += ROW_H + 8
    if plan.more:
        pen.fit(WIDTH / 2, y + MORE_H / 2, voice(_more(plan.more)), TEXT, WIDTH - 2 * PAD,
                SOFT, anchor="mm", bold=False)
        y += MORE_H
    y += 8
    for line in plan.legend:
        pen.text(PAD, y + LEGEND_LINE / 2, line, SMALL, FAINT, bold=False)
        y += LEGEND_LINE
    return finish(pen.image)


def _header(pen: _Pen, view: StandingsView, voice: Voice) -> None:
    pen.rect((0, 0, WIDTH, HEADER_H), HEADER_BG)
    pen.rect((0, HEADER_H - 4, WIDTH, HEADER_H), ACCENTS.get(view.game, ACCENT))
    pen.fit(PAD, 30, voice(view.title), TITLE, WIDTH - 2 * PAD, INK, smallest=TEXT)
    count = voice(n_("{n} player", "{n} players", len(view.rows)))
    count_width = _width(count, SMALL, bold=False)
    pen.text(WIDTH - PAD, 64, count, SMALL, SOFT, anchor="rm", bold=False)
    pen.fit(PAD, 64, voice(round_line(view)), TEXT, WIDTH - 3 * PAD - count_width,
            SOFT if not view.final else METALS[1][0], bold=view.final)


# The podium: second, first, third from left to right, each on a pedestal of its height.
_PODIUM_X = {2: WIDTH / 2 - 188, 1: WIDTH / 2, 3: WIDTH / 2 + 188}
_PEDESTAL_H = {1: 84, 2: 60, 3: 44}
_PEDESTAL_W = 176


def _podium(pen: _Pen, top: Sequence[StandingsLine], y0: int, voice: Voice) -> None:
    base = y0 + PODIUM_H - 12
    for place, row in enumerate(top, start=1):
        _podium_place(pen, place, row, base, voice)
    pen.rect((PAD, base, WIDTH - PAD, base + 2), PEDESTAL_EDGE)


def _podium_place(pen: _Pen, place: int, row: StandingsLine, base: int, voice: Voice) -> None:
    """One place: its pedestal with the points on it, the name above, the medal on top."""
    x, height = _PODIUM_X[place], _PEDESTAL_H[place]
    left, right, top = x - _PEDESTAL_W / 2, x + _PEDESTAL_W / 2, base - height
    pen.rect((left, top, right, base), PEDESTAL, radius=8, corners=(True, True, False, False))
    pen.rect((left, top, right, top + 6), METALS[place][0], radius=3,
             corners=(True, True, False, False))
    pen.fit(x, top + 6 + min(height - 6, 44) / 2, voice(points_words(row.points)), TEXT,
            _PEDESTAL_W - 12, INK, anchor="mm")
    names = _podium_name(row.name)
    y = top - 10 - 26 * len(names)
    _medal(pen, x, y - 24, place, voice)
    for line, size, condensed in names:
        pen.text(x, y + 13, line, size, SOFT if row.is_computer else INK, anchor="mm",
                 condensed=condensed)
        y += 26


def _podium_name(name: str) -> list[tuple[str, int, bool]]:
    """A name on the podium: one line large if it fits, else up to two lines smaller."""
    room = _PEDESTAL_W - 4
    if _width(name, LARGE, bold=True) <= room:
        return [(name, LARGE, False)]
    parts = wrapped(name, TEXT, room, bold=True)
    if len(parts) == 1:
        return [(parts[0], TEXT, False)]
    first = parts[0]
    rest = fitted(name[len(first):].strip(), TEXT, room)
    return [(first, TEXT, False), rest]


def _medal(pen: _Pen, x: float, y: float, place: int, voice: Voice) -> None:
    """A medal on its ribbon, the place's number on it."""
    face, rim = METALS[place]
    r = 19
    top = y - r - 18
    pen.polygon([(x - 17, top), (x - 7, top), (x + 3, y - r + 4), (x - 7, y - r + 4)],
                RIBBONS[0])
    pen.polygon([(x + 7, top), (x + 17, top), (x + 7, y - r + 4), (x - 3, y - r + 4)],
                RIBBONS[1])
    pen.circle(x, y, r, rim)
    pen.circle(x, y, r - 3, face)
    shine = (min(255, face[0] + 30), min(255, face[1] + 30), min(255, face[2] + 30))
    pen.circle(x - 6, y - 6, 4, shine)
    pen.text(x, y + 1, voice.number(place), TEXT, DARK_INK, anchor="mm")


def _values(row: StandingsLine, voice: Voice) -> list[str]:
    """A row's numbers as drawn: points, the tiebreaks (the margin signed), games played."""
    margin = signed(row.tiebreaks[-1], voice)
    tiebreaks = [number(t, voice) for t in row.tiebreaks[:-1]] + [margin]
    return [number(row.points, voice), *tiebreaks, voice.number(row.played)]


def _column_font(values: Sequence[str], room: float, *, bold: bool) -> tuple[int, bool]:
    """One size for a whole column: the largest at which every value shown fits."""
    for size, condensed in ((TEXT, False), (SMALL, False), (SMALL, True)):
        if all(_width(v, size, bold=bold, condensed=condensed) <= room for v in values):
            return size, condensed
    return SMALL, True


NAME_ROOM = 180  # px the names keep at least, whatever the columns' headers need
COLUMN_GAP = 14


def _widths(columns: list[_Column], headers: list[str], values: list[list[str]]) -> list[int]:
    """Each column as wide as its header and its values need at their usual size (a long
    header in another language takes room from the names); if the names would keep less
    than NAME_ROOM that way, only as wide as they need at the smallest size, condensed."""
    roomy, tight = [], []
    for column, header in zip(columns, headers):
        bold = column.value == 0
        shown = [v[column.value] for v in values]
        usual = max([_width(header, SMALL, bold=True)]
                    + [_width(v, TEXT, bold=bold) for v in shown])
        least = max([_width(header, SMALL, bold=True, condensed=True)]
                    + [_width(v, SMALL, bold=bold, condensed=True) for v in shown])
        roomy.append(max(column.width, math.ceil(usual) + COLUMN_GAP))
        tight.append(math.ceil(least) + COLUMN_GAP)
    return roomy if WIDTH - 2 * PAD - 60 - sum(roomy) >= NAME_ROOM else tight


def _table(pen: _Pen, view: StandingsView, plan: Layout, y: int, voice: Voice) -> int:
    columns = _columns(view)
    shown = view.rows[:plan.shown]
    values = [_values(row, voice) for row in shown]
    headers = [voice(c.header) for c in columns]
    widths = _widths(columns, headers, values)
    rights: list[float] = []
    x = WIDTH - PAD
    for width in reversed(widths):
        rights.insert(0, x)
        x -= width
    name_left = PAD + 50
    name_box = (name_left, x - name_left - COLUMN_GAP)
    pen.rect((0, y, WIDTH, y + COLUMN_HEAD_H), COLUMN_HEAD_BG)
    middle = y + COLUMN_HEAD_H / 2
    pen.text(PAD + 36, middle, "#", SMALL, SOFT, anchor="rm")
    pen.fit(name_left, middle, voice(_("Player")), SMALL, name_box[1], SOFT)
    for header, width, right in zip(headers, widths, rights):
        pen.fit(right, middle, header, SMALL, width - COLUMN_GAP, SOFT, anchor="rm")
    y += COLUMN_HEAD_H
    fonts = [_column_font([v[c.value] for v in values], width - COLUMN_GAP, bold=c.value == 0)
             for c, width in zip(columns, widths)]
    for index, (row, numbers) in enumerate(zip(shown, values)):
        if index % 2:
            pen.rect((0, y, WIDTH, y + ROW_H), STRIPE)
        middle = y + ROW_H / 2
        _rank_and_name(pen, row, middle, view.final, name_box, voice)
        for column, right, (size, condensed) in zip(columns, rights, fonts):
            bold = column.value == 0
            pen.text(right, middle, numbers[column.value], size, INK if bold else SOFT,
                     anchor="rm", bold=bold, condensed=condensed)
        y += ROW_H
    return y


def _rank_and_name(pen: _Pen, row: StandingsLine, middle: float, final: bool,
                   name_box: tuple[float, float], voice: Voice) -> None:
    rank = voice.number(row.rank)
    if final and row.rank in METALS:
        pen.circle(PAD + 24, middle, 13, METALS[row.rank][0])
        pen.text(PAD + 24, middle, rank, SMALL, DARK_INK, anchor="mm")
    else:
        pen.fit(PAD + 36, middle, rank, SMALL, 36, SOFT, anchor="rm")
    left, room = name_box
    if row.is_computer:
        _chip(pen, left + 9, middle)
        left, room = left + 24, room - 24
    pen.fit(left, middle, row.name, TEXT, room, SOFT if row.is_computer else INK, bold=False)


def _chip(pen: _Pen, x: float, y: float) -> None:
    """A small computer chip: the mark of a computer player."""
    for offset in (-4, 0, 4):
        pen.rect((x + offset - 1, y - 10, x + offset + 1, y + 10), FAINT)
        pen.rect((x - 10, y + offset - 1, x + 10, y + offset + 1), FAINT)
    pen.rect((x - 7, y - 7, x + 7, y + 7), SOFT, radius=2)
    pen.rect((x - 3, y - 3, x + 3, y + 3), BACKGROUND)


# -- the alt text ----------------------------------------------------------------------------

def _place_words(place: int, player: Words | str, points: Text) -> Text:
    if place == 1:
        return _("First: {player}, {points}.", player=player, points=points)
    if place == 2:
        return _("Second: {player}, {points}.", player=player, points=points)
    return _("Third: {player}, {points}.", player=player, points=points)


def _more(n: int) -> Text:
    return n_("…and {n} more player", "…and {n} more players", n)


def standings_alt(view: StandingsView, voice: Voice) -> str:
    """What the picture shows, in words, at most 1,024 characters (Discord's limit): the
    title and round, at the end the podium, then every player by rank with their points, as
    many as fit, and how many more there are."""
    head: list[Words | str] = [_("{title}. {what}, {players}.", title=view.title,
                                 what=round_line(view),
                                 players=n_("{n} player", "{n} players", len(view.rows)))]
    rows = list(view.rows)
    if view.final:
        head += [_place_words(place, who(row), points_words(row.points))
                 for place, row in enumerate(rows[:3], start=1)]
        rows = rows[3:]
    text = voice(lines(head, " "))
    if len(text) > LIMIT:
        return fit(text)
    entries = [voice(_("{rank}. {player}, {points}", rank=row.rank, player=who(row),
                       points=points_words(row.points))) for row in rows]
    listed: list[str] = []
    for shown, entry in enumerate(entries):
        more = len(entries) - shown - 1
        tail = " " + voice(_more(more)) + "." if more else ""
        if len(_alt_text(text, [*listed, entry], tail)) > LIMIT:
            return fit(_alt_text(text, listed, " " + voice(_more(more + 1)) + "."))
        listed.append(entry)
    return _alt_text(text, listed, "")


def _alt_text(start: str, entries: list[str], tail: str) -> str:
    return start + (" " + "; ".join(entries) + "." if entries else "") + tail
