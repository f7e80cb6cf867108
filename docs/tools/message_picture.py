"""Pictures of the bot's messages for the README, drawn the way Discord's dark theme shows them:
the author line, the content, embeds (colour bar, title, description, fields, image, footer)
and buttons, from the message's JSON as the fake Discord stores it (content, embeds,
components). Embed Markdown is drawn as Discord draws it: **bold**, <@id> and <#id> as mention
pills, <t:...> timestamps worded for the reader, emoji as small pictures.

`python -m docs.tools.message_picture` plays a short game night through the real bot and the
fake Discord and writes docs/night-card.png (the sign-up card with check-in open). The
standings picture beside it in the README is render/standings.py's own (docs/make_images.py).
"""

from __future__ import annotations

import asyncio
import io
import math
import re
import tempfile
import time
from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Protocol
from zoneinfo import ZoneInfo

from babel.dates import format_datetime
from PIL import Image, ImageDraw

from render import fonts

# Discord's dark theme, in CSS pixels (the picture is drawn at SCALE times and scaled down).
BACKGROUND = "#313338"
EMBED_BACKGROUND = "#2b2d31"
TEXT = "#dbdee1"
HEADING = "#f2f3f5"
MUTED = "#949ba4"
FOOTER = "#b5bac1"
LINK = "#00a8fc"
MENTION = "#c9cdfb"
MENTION_TINT = ((88, 101, 242), 0.3)
TIME_TINT = ((255, 255, 255), 0.07)
CODE_BACKGROUND = "#1e1f22"
BLURPLE = "#5865f2"
BUTTON_COLOURS = {1: BLURPLE, 2: "#4e5058", 3: "#248046", 4: "#da373c", 5: "#4e5058",
                  6: BLURPLE}
SCALE = 2
WIDTH = 640
GUTTER = 72  # the message's left edge: the avatar sits in it
EMBED_MAX = 520
INNER = EMBED_MAX - 4 - 12 - 16  # an embed's text: its bar and padding taken off
# DejaVu Sans is wider than Discord's own face: one size smaller reads the same.
CONTENT = (15, 22)  # (font size, line height)
EMBED_TEXT = (13, 18)
TITLE = (15, 21)
FOOTER_TEXT = (11, 16)


@dataclass(frozen=True)
class Reader:
    """Who reads the message: the names mentions show, their clock and their time zone."""

    names: Mapping[int, str] = field(default_factory=dict)
    channels: Mapping[int, str] = field(default_factory=dict)
    roles: Mapping[int, str] = field(default_factory=dict)
    now: float = field(default_factory=time.time)
    zone: str = "UTC"
    locale: str = "en_GB"


# -- Timestamps ------------------------------------------------------------------------------

ABSOLUTE = {"t": "HH:mm", "T": "HH:mm:ss", "d": "dd/MM/y", "D": "d MMMM y",
            "f": "d MMMM y HH:mm", "F": "EEEE, d MMMM y HH:mm"}
HOUR, DAY = 3600, 86400
# A relative time's words: the first whose limit (in seconds) the time is under, {n} counted
# in the unit.
RELATIVE: tuple[tuple[float, str, float], ...] = (
    (45, "a few seconds", 1), (90, "a minute", 1), (45 * 60, "{n} minutes", 60),
    (90 * 60, "an hour", 1), (22 * HOUR, "{n} hours", HOUR), (36 * HOUR, "a day", 1),
    (26 * DAY, "{n} days", DAY), (45 * DAY, "a month", 1), (320 * DAY, "{n} months", 30.4 * DAY),
    (548 * DAY, "a year", 1), (math.inf, "{n} years", 365 * DAY))


def discord_time(stamp: int, style: str, reader: Reader) -> str:
    """A `<t:stamp:style>` as Discord shows it to `reader`."""
    if style == "R":
        return relative_time(stamp - reader.now)
    when = datetime.fromtimestamp(stamp, ZoneInfo(reader.zone))
    return format_datetime(when, ABSOLUTE.get(style, ABSOLUTE["f"]), locale=reader.locale)


def half_up(x: float) -> int:
    return math.floor(x + 0.5)


def relative_time(seconds: float) -> str:
    """`in 15 minutes`, `an hour ago`: the words Discord uses for a relative timestamp."""
    span = abs(seconds)
    words, unit = next((words, unit) for limit, words, unit in RELATIVE if span < limit)
    words = words.format(n=half_up(span / unit))
    return f"in {words}" if seconds > 0 else f"{words} ago"


# -- Markdown --------------------------------------------------------------------------------

@dataclass(frozen=True)
class Span:
    """A stretch of text with one look: plain, bold, a mention or time pill, a link, code."""

    text: str
    bold: bool = False
    kind: str = "text"  # text, mention, time, link, code


INLINE = re.compile(
    r"\*\*(?P<bold>.+?)\*\*"
    r"|<@!?(?P<user>\d+)>|<@&(?P<role>\d+)>|<#(?P<channel>\d+)>"
    r"|<t:(?P<time>-?\d+)(?::(?P<style>[tTdDfFR]))?>"
    r"|\[(?P<label>[^\]]+)\]\((?P<url>[^)\s]+)\)"
    r"|`(?P<code>[^`]+)`"
    r"|\\(?P<escaped>[^\w\s])", re.S)


def spans(text: str, reader: Reader, bold: bool = False) -> list[Span]:
    """Discord's inline Markdown in `text`, as spans to draw."""
    found: list[Span] = []
    at = 0
    for match in INLINE.finditer(text):
        if match.start() > at:
            found.append(Span(text[at:match.start()], bold))
        found.extend(markup(match, reader, bold))
        at = match.end()
    if at < len(text):
        found.append(Span(text[at:], bold))
    return found


def markup(match: re.Match[str], reader: Reader, bold: bool) -> list[Span]:
    """One piece of Markdown as spans."""
    part = match.groupdict()
    if part["bold"] is not None:
        return spans(part["bold"], reader, bold=True)
    if part["user"]:
        return [Span("@" + reader.names.get(int(part["user"]), "Unknown User"), kind="mention")]
    if part["role"]:
        return [Span("@" + reader.roles.get(int(part["role"]), "unknown-role"), kind="mention")]
    if part["channel"]:
        return [Span("#" + reader.channels.get(int(part["channel"]), "unknown"), kind="mention")]
    if part["time"]:
        return [Span(discord_time(int(part["time"]), part["style"] or "f", reader), kind="time")]
    if part["label"]:
        return [Span(part["label"], bold, kind="link")]
    if part["code"]:
        return [Span(part["code"], kind="code")]
    return [Span(part["escaped"], bold)]


# -- Drawing at scale ------------------------------------------------------------------------

Colour = str | tuple[int, int, int]


def rgb(colour: Colour) -> tuple[int, int, int]:
    if isinstance(colour, tuple):
        return colour
    value = int(colour.lstrip("#"), 16)
    return value >> 16, value >> 8 & 255, value & 255


def tint(tinted: tuple[tuple[int, int, int], float], under: Colour) -> tuple[int, int, int]:
    """A translucent colour over `under`, as the browser blends it."""
    colour, alpha = tinted
    r, g, b = (round(c * alpha + u * (1 - alpha)) for c, u in zip(colour, rgb(under)))
    return r, g, b


class Painter:
    """Draws in CSS pixels on an image `scale` times larger."""

    def __init__(self, width: float, height: float, scale: int = SCALE) -> None:
        self.scale = scale
        self.image = Image.new("RGB", (round(width * scale), round(height * scale)),
                               rgb(BACKGROUND))
        self.draw = ImageDraw.Draw(self.image)

    def box(self, x: float, y: float, w: float, h: float, fill: Colour,
            radius: float = 0) -> None:
        s = self.scale
        self.draw.rounded_rectangle((x * s, y * s, (x + w) * s - 1, (y + h) * s - 1),
                                    radius=radius * s, fill=rgb(fill))

    def circle(self, x: float, y: float, d: float, fill: Colour) -> None:
        s = self.scale
        self.draw.ellipse((x * s, y * s, (x + d) * s - 1, (y + d) * s - 1), fill=rgb(fill))

    def polygon(self, points: Iterable[tuple[float, float]], fill: Colour) -> None:
        self.draw.polygon([(x * self.scale, y * self.scale) for x, y in points], fill=rgb(fill))

    def line(self, points: Iterable[tuple[float, float]], fill: Colour, width: float) -> None:
        self.draw.line([(x * self.scale, y * self.scale) for x, y in points], fill=rgb(fill),
                       width=round(width * self.scale), joint="curve")

    def text(self, x: float, baseline: float, text: str, size: float, fill: Colour,
             bold: bool = False) -> None:
        fonts.draw_text(self.draw, (x * self.scale, baseline * self.scale), text,
                        round(size * self.scale), fill=rgb(fill), anchor="ls", bold=bold)

    def paste(self, picture: Image.Image, x: float, y: float, w: float, h: float,
              radius: float = 4) -> None:
        s = self.scale
        size = (round(w * s), round(h * s))
        mask = Image.new("L", size)
        ImageDraw.Draw(mask).rounded_rectangle((0, 0, size[0] - 1, size[1] - 1),
                                               radius=radius * s, fill=255)
        self.image.paste(picture.convert("RGB").resize(size, Image.Resampling.LANCZOS),
                         (round(x * s), round(y * s)), mask)

    def png(self) -> bytes:
        small = self.image.resize((round(self.image.width / self.scale),
                                   round(self.image.height / self.scale)),
                                  Image.Resampling.BOX)  # each pixel the mean of its own
        out = io.BytesIO()
        small.save(out, "PNG", optimize=True)
        return out.getvalue()


def length(text: str, size: float, bold: bool = False, scale: int = SCALE) -> float:
    return fonts.text_length(text, round(size * scale), bold=bold) / scale


def baseline(top: float, line_height: float, size: float) -> float:
    """Where text of `size` sits in a line: its capitals centred in the line."""
    return top + line_height / 2 + 0.36 * size


# -- Emoji -----------------------------------------------------------------------------------

MEDALS = {"\N{FIRST PLACE MEDAL}": ("#f4b400", "1"), "\N{SECOND PLACE MEDAL}": ("#c5ccd3", "2"),
          "\N{THIRD PLACE MEDAL}": ("#d9874c", "3")}
CIRCLES = {"\N{MEDIUM WHITE CIRCLE}": "#e6e7e8", "\N{MEDIUM BLACK CIRCLE}": "#31373d"}
SHOWN_AS_EMOJI = {"\N{WHITE HEAVY CHECK MARK}", "\N{TROPHY}", "\N{ROBOT FACE}",
                  "\N{LEFTWARDS BLACK ARROW}", *MEDALS, *CIRCLES}
VARIATION = "\N{VARIATION SELECTOR-16}"


def is_emoji(char: str) -> bool:
    return char in SHOWN_AS_EMOJI or ord(char) >= 0x1F000


@dataclass
class Square:
    """Drawing in a square of side `d` at (x, y), in fractions of its side."""

    p: Painter
    x: float
    y: float
    d: float

    def at(self, *uv: float) -> list[tuple[float, float]]:
        return [(self.x + self.d * u, self.y + self.d * v) for u, v in zip(uv[::2], uv[1::2])]

    def box(self, u: float, v: float, w: float, h: float, fill: Colour, r: float = 0) -> None:
        (x, y), = self.at(u, v)
        self.p.box(x, y, w * self.d, h * self.d, fill, radius=r * self.d)

    def circle(self, u: float, v: float, w: float, fill: Colour) -> None:
        (x, y), = self.at(u, v)
        self.p.circle(x, y, w * self.d, fill)


def draw_emoji(p: Painter, char: str, x: float, y: float, d: float) -> None:
    """A small colour picture of `char` in the square (x, y, d)."""
    sq = Square(p, x, y, d)
    if char == "\N{WHITE HEAVY CHECK MARK}":
        sq.box(0, 0, 1, 1, "#4fa33c", .18)
        p.line(sq.at(.24, .52, .43, .71, .77, .3), "#ffffff", d * .14)
    elif char in MEDALS:
        colour, number = MEDALS[char]
        p.polygon(sq.at(.2, 0, .42, 0, .56, .45, .34, .45), "#3b88c3")
        p.polygon(sq.at(.58, 0, .8, 0, .66, .45, .44, .45), "#dd2e44")
        sq.circle(.17, .34, .66, colour)
        p.text(x + d / 2 - length(number, d * .42, True) / 2, y + d * .83, number, d * .42,
               "#7a4a12" if number != "2" else "#5b6670", bold=True)
    elif char == "\N{TROPHY}":
        p.polygon(sq.at(.18, .08, .82, .08, .72, .5, .5, .62, .28, .5), "#f4b400")
        sq.box(.42, .58, .16, .2, "#f4b400")
        sq.box(.28, .76, .44, .16, "#c1694f", .04)
    elif char == "\N{ROBOT FACE}":
        sq.box(.1, .22, .8, .68, "#99aab5", .14)
        sq.box(.46, .04, .08, .2, "#99aab5")
        sq.circle(.26, .42, .16, "#292f33")
        sq.circle(.58, .42, .16, "#292f33")
        sq.box(.3, .7, .4, .08, "#292f33")
    elif char == "\N{LEFTWARDS BLACK ARROW}":
        sq.box(0, 0, 1, 1, "#3b88c3", .18)
        p.polygon(sq.at(.18, .5, .48, .2, .48, .4, .82, .4, .82, .6, .48, .6, .48, .8), "#ffffff")
    elif char in CIRCLES:
        sq.circle(.08, .08, .84, CIRCLES[char])
    else:
        sq.box(.1, .1, .8, .8, MUTED, .2)


# -- Flowing text into lines -----------------------------------------------------------------

PILL_PADDING = 2


@dataclass(frozen=True)
class Piece:
    """Something drawn on a line: a run of text in one look, or an emoji."""

    text: str
    size: float
    bold: bool
    colour: Colour
    kind: str = "text"  # text, mention, time, link, code, emoji, space

    @property
    def width(self) -> float:
        if self.kind == "emoji":
            return self.size * 1.375 + 1
        pad = 2 * PILL_PADDING if self.kind in PILLS else 0
        return length(self.text, self.size, self.bold) + pad


PILLS = {"mention", "time", "code"}
Word = list[Piece]  # pieces drawn without a break between them


@dataclass
class Line:
    pieces: list[tuple[float, Piece]] = field(default_factory=list)
    width: float = 0.0

    def add(self, word: Word) -> None:
        for piece in word:
            self.pieces.append((self.width, piece))
            self.width += piece.width


def words(line_spans: Iterable[Span], size: float, colour: Colour) -> Iterator[Word]:
    """The spans of one line cut where the line may break: at spaces; pills stay whole."""
    word: Word = []
    for span in line_spans:
        if span.kind in PILLS:
            yield from ([word] if word else [])
            word = []
            yield [Piece(span.text, size, span.kind == "mention", MENTION if span.kind ==
                         "mention" else colour, span.kind)]
            continue
        look = LINK if span.kind == "link" else colour
        for chunk in re.findall(r"\s+|\S+", span.text.replace(VARIATION, "")):
            if chunk.isspace():
                yield from ([word] if word else [])
                yield [Piece(" ", size, span.bold, look, "space")]
                word = []
            else:
                word.extend(chunk_pieces(chunk, size, span.bold, look))
    if word:
        yield word


def chunk_pieces(chunk: str, size: float, bold: bool, colour: Colour) -> Word:
    """A word's pieces: its text, and each emoji on its own."""
    pieces: Word = []
    text = ""
    for char in chunk + " ":
        if is_emoji(char) or char == " ":
            pieces += [Piece(text, size, bold, colour)] if text else []
            pieces += [Piece(char, size, bold, colour, "emoji")] if char != " " else []
            text = ""
        else:
            text += char
    return pieces


def flow(text_spans: list[Span], width: float, size: float, colour: Colour) -> list[Line]:
    """Spans laid out in lines no wider than `width`, as Discord wraps them."""
    lines: list[Line] = []
    for line_spans in split_lines(text_spans):
        line = Line()
        lines.append(line)
        for word in words(line_spans, size, colour):
            if word[0].kind == "space" and not line.pieces:
                continue
            wide = sum(piece.width for piece in word)
            if line.width + wide > width and line.pieces:
                if word[0].kind == "space":
                    continue
                line = Line()
                lines.append(line)
            for part in fit(word, width):
                if line.pieces and line.width + sum(p.width for p in part) > width:
                    line = Line()
                    lines.append(line)
                line.add(part)
    return lines


def fit(word: Word, width: float) -> list[Word]:
    """A word wider than a whole line cut into words that fit (Chinese has no spaces)."""
    if sum(piece.width for piece in word) <= width:
        return [word]
    return [[Piece(char, piece.size, piece.bold, piece.colour, piece.kind)]
            for piece in word for char in (piece.text if piece.kind == "text" else [piece.text])]


def split_lines(text_spans: list[Span]) -> list[list[Span]]:
    """Spans cut at the text's line breaks."""
    lines: list[list[Span]] = [[]]
    for span in text_spans:
        for i, part in enumerate(span.text.split("\n") if span.kind == "text" else [span.text]):
            if i:
                lines.append([])
            if part:
                lines[-1].append(Span(part, span.bold, span.kind))
    return lines


@dataclass
class Paragraph:
    """Text flowed into lines, ready to draw."""

    lines: list[Line]
    size: float
    line_height: float

    @classmethod
    def of(cls, text_spans: list[Span], width: float, look: tuple[int, int],
           colour: Colour = TEXT) -> Paragraph:
        size, line_height = look
        return cls(flow(text_spans, width, size, colour), size, line_height)

    @property
    def height(self) -> float:
        return len(self.lines) * self.line_height

    @property
    def width(self) -> float:
        return max((line.width for line in self.lines), default=0.0)

    def draw(self, p: Painter, x: float, y: float, under: Colour) -> None:
        for n, line in enumerate(self.lines):
            top = y + n * self.line_height
            for offset, piece in line.pieces:
                draw_piece(p, piece, x + offset, top, self.line_height, under)


def draw_piece(p: Painter, piece: Piece, x: float, top: float, line_height: float,
               under: Colour) -> None:
    if piece.kind == "emoji":
        d = piece.size * 1.375
        draw_emoji(p, piece.text, x, top + (line_height - d) / 2, d)
        return
    if piece.kind in PILLS:
        tinted = {"mention": tint(MENTION_TINT, under), "time": tint(TIME_TINT, under),
                  "code": rgb(CODE_BACKGROUND)}[piece.kind]
        high = min(line_height, piece.size * 1.4)
        p.box(x, top + (line_height - high) / 2, piece.width, high, tinted, radius=3)
        x += PILL_PADDING
    p.text(x, baseline(top, line_height, piece.size), piece.text, piece.size, piece.colour,
           piece.bold)


# -- Blocks: the header, embeds, components --------------------------------------------------

class Block(Protocol):
    """A part of the message: its size, and drawing it at a place."""

    @property
    def width(self) -> float: ...
    @property
    def height(self) -> float: ...
    def draw(self, p: Painter, x: float, y: float) -> None: ...


@dataclass
class Stack:
    """Blocks one under another, each with the gap above it."""

    parts: list[tuple[float, Block]]

    @property
    def height(self) -> float:
        return sum(gap + part.height for gap, part in self.parts)

    @property
    def width(self) -> float:
        return max((part.width for _, part in self.parts), default=0.0)

    def draw(self, p: Painter, x: float, y: float) -> None:
        for gap, part in self.parts:
            y += gap
            part.draw(p, x, y)
            y += part.height


@dataclass
class Text:
    paragraph: Paragraph
    under: Colour = BACKGROUND

    @property
    def height(self) -> float:
        return self.paragraph.height

    @property
    def width(self) -> float:
        return self.paragraph.width

    def draw(self, p: Painter, x: float, y: float) -> None:
        self.paragraph.draw(p, x, y, self.under)


@dataclass
class Row:
    """Blocks side by side (inline fields), each `column` wide."""

    cells: list[Block]
    column: float
    gap: float = 8
    width: float = field(init=False)
    height: float = field(init=False)

    def __post_init__(self) -> None:
        self.height = max(cell.height for cell in self.cells)
        self.width = len(self.cells) * (self.column + self.gap) - self.gap

    def draw(self, p: Painter, x: float, y: float) -> None:
        for n, cell in enumerate(self.cells):
            cell.draw(p, x + n * (self.column + self.gap), y)


@dataclass
class Picture:
    image: Image.Image
    most: tuple[float, float]
    width: float = field(init=False)
    height: float = field(init=False)

    def __post_init__(self) -> None:
        w, h = self.image.size
        shrink = min(1.0, self.most[0] / w, self.most[1] / h)
        self.width, self.height = w * shrink, h * shrink

    def draw(self, p: Painter, x: float, y: float) -> None:
        p.paste(self.image, x, y, self.width, self.height)


def picture(url: str | None, files: Mapping[str, bytes], most: tuple[float, float]
            ) -> Picture | None:
    """An `attachment://name` image, when its bytes are at hand."""
    name = (url or "").removeprefix("attachment://")
    if name not in files:
        return None
    return Picture(Image.open(io.BytesIO(files[name])), most)


@dataclass
class Embed:
    """Discord's rich embed: a card with a colour bar on its left."""

    body: Stack
    colour: Colour
    width: float = field(init=False)
    height: float = field(init=False)
    PADDING = (8, 16, 16, 12)  # top, right, bottom, left: each part has 8 more above it

    def __post_init__(self) -> None:
        top, right, bottom, left = self.PADDING
        self.width = min(EMBED_MAX, self.body.width + 4 + left + right)
        self.height = self.body.height + top + bottom

    def draw(self, p: Painter, x: float, y: float) -> None:
        p.box(x, y, self.width, self.height, self.colour, radius=4)
        p.box(x + 4, y, self.width - 4, self.height, EMBED_BACKGROUND, radius=4)
        p.box(x + 4, y, 4, self.height, EMBED_BACKGROUND)  # square where it meets the bar
        self.body.draw(p, x + 4 + self.PADDING[3], y + self.PADDING[0])


def embed_text(text_spans: list[Span], look: tuple[int, int], colour: Colour = TEXT) -> Text:
    return Text(Paragraph.of(text_spans, INNER, look, colour), EMBED_BACKGROUND)


def embed_block(embed: dict, reader: Reader, files: Mapping[str, bytes]) -> Embed:
    parts: list[tuple[float, Block]] = []
    author = (embed.get("author") or {}).get("name")
    if author:
        parts.append((8, embed_text([Span(author, bold=True)], (12, 18), HEADING)))
    if embed.get("title"):
        parts.append((8, embed_text(spans(embed["title"], reader, bold=True), TITLE,
                                    LINK if embed.get("url") else HEADING)))
    if embed.get("description"):
        parts.append((8, embed_text(spans(embed["description"], reader), EMBED_TEXT)))
    parts += [(8, row) for row in field_rows(embed.get("fields") or [], reader)]
    image = picture((embed.get("image") or {}).get("url"), files, (INNER, 400))
    if image:
        parts.append((16, image))
    footer = footer_text(embed, reader)
    if footer:  # a footer shows no Markdown
        parts.append((8, embed_text([Span(footer)], FOOTER_TEXT, FOOTER)))
    colour = embed.get("color")
    return Embed(Stack(parts), EMBED_BACKGROUND if colour is None else f"#{colour:06x}")


def field_rows(fields: list[dict], reader: Reader) -> list[Block]:
    """Fields in rows: an inline field shares its row with up to two more."""
    rows: list[list[dict]] = []
    for f in fields:
        if f.get("inline") and rows and rows[-1][0].get("inline") and len(rows[-1]) < 3:
            rows[-1].append(f)
        else:
            rows.append([f])
    found: list[Block] = []
    for row in rows:
        column = (INNER - 8 * (len(row) - 1)) / len(row)
        cells: list[Block] = [field_block(f, reader, column) for f in row]
        found.append(cells[0] if len(cells) == 1 else Row(cells, column))
    return found


def field_block(f: dict, reader: Reader, width: float) -> Stack:
    name = Paragraph.of(spans(f.get("name", ""), reader, bold=True), width, EMBED_TEXT, HEADING)
    value = Paragraph.of(spans(f.get("value", ""), reader), width, EMBED_TEXT)
    return Stack([(0, Text(name, EMBED_BACKGROUND)), (2, Text(value, EMBED_BACKGROUND))])


def footer_text(embed: dict, reader: Reader) -> str:
    text = (embed.get("footer") or {}).get("text") or ""
    if embed.get("timestamp"):
        when = datetime.fromisoformat(embed["timestamp"]).timestamp()
        text = " • ".join(filter(None, (text, calendar_time(when, reader))))
    return text


def calendar_time(when: float, reader: Reader) -> str:
    """`Today at 19:15`, `Yesterday at 23:02` or the date, as the author line shows it."""
    zone = ZoneInfo(reader.zone)
    day = datetime.fromtimestamp(when, zone).date()
    today = datetime.fromtimestamp(reader.now, zone).date()
    clock = format_datetime(datetime.fromtimestamp(when, zone), "HH:mm", locale=reader.locale)
    if day == today:
        return f"Today at {clock}"
    if (today - day).days == 1:
        return f"Yesterday at {clock}"
    return format_datetime(datetime.fromtimestamp(when, zone), "dd/MM/y HH:mm",
                           locale=reader.locale)


@dataclass
class Button:
    label: str
    style: int
    emoji: str | None = None
    disabled: bool = False
    height: float = 32
    width: float = field(init=False)
    inner: float = field(init=False)  # the emoji and the label
    SIZE = 13

    def __post_init__(self) -> None:
        self.inner = length(self.label, self.SIZE, True)
        if self.emoji:
            self.inner += 20 + (4 if self.label else 0)
        self.width = max(60.0, self.inner + 32)

    def draw(self, p: Painter, x: float, y: float) -> None:
        colour: Colour = BUTTON_COLOURS.get(self.style, BUTTON_COLOURS[2])
        if self.disabled:
            colour = tint((rgb(colour), 0.5), BACKGROUND)
        p.box(x, y, self.width, self.height, colour, radius=8)
        at = x + (self.width - self.inner) / 2
        if self.emoji and is_emoji(self.emoji):
            draw_emoji(p, self.emoji, at, y + (self.height - 20) / 2, 20)
        elif self.emoji:
            p.text(at + 2, baseline(y, self.height, 16), self.emoji, 16, "#ffffff")
        at += 24 if self.emoji else 0
        if self.label:
            p.text(at, baseline(y, self.height, self.SIZE), self.label, self.SIZE,
                   "#ffffff" if not self.disabled else "#a0a2a8", bold=True)


@dataclass
class Select:
    placeholder: str
    width: float = 400
    height: float = 40

    def draw(self, p: Painter, x: float, y: float) -> None:
        p.box(x, y, self.width, self.height, CODE_BACKGROUND, radius=8)
        p.text(x + 12, baseline(y, self.height, 13), self.placeholder, 13, MUTED)
        cx, cy = x + self.width - 22, y + self.height / 2
        p.line([(cx - 5, cy - 2.5), (cx, cy + 2.5), (cx + 5, cy - 2.5)], TEXT, 1.6)


def component_rows(components: list[dict]) -> list[Block]:
    """Each action row's buttons side by side; a select on a row of its own."""
    rows: list[Block] = []
    for row in components:
        cells: list[Block] = []
        for c in row.get("components") or [row]:
            if c.get("type") == 2:
                emoji = (c.get("emoji") or {}).get("name")
                cells.append(Button(c.get("label") or "", c.get("style", 2),
                                    emoji.replace(VARIATION, "") if emoji else None,
                                    bool(c.get("disabled"))))
            elif c.get("type") in (3, 5, 6, 7, 8):
                cells.append(Select(c.get("placeholder") or "Make a selection"))
        if cells:
            rows.append(Inline(cells))
    return rows


@dataclass
class Inline:
    """Blocks of their own widths side by side, 8 apart (a row of buttons)."""

    cells: list[Block]
    gap: float = 8
    width: float = field(init=False)
    height: float = field(init=False)

    def __post_init__(self) -> None:
        self.height = max(cell.height for cell in self.cells)
        self.width = sum(cell.width for cell in self.cells) + self.gap * (len(self.cells) - 1)

    def draw(self, p: Painter, x: float, y: float) -> None:
        for cell in self.cells:
            cell.draw(p, x, y)
            x += cell.width + self.gap


@dataclass
class Header:
    """The author line: the name, the APP tag, the time."""

    author: str
    when: str
    height: float = 22

    def places(self) -> tuple[float, float, float]:
        """Where the tag starts, how wide it is, where the time starts."""
        tag_at, tag = length(self.author, 15, True) + 6, length("APP", 9, True) + 9
        return tag_at, tag, tag_at + tag + 6

    @property
    def width(self) -> float:
        return self.places()[2] + length(self.when, 11)

    def draw(self, p: Painter, x: float, y: float) -> None:
        tag_at, tag, when_at = self.places()
        p.text(x, baseline(y, self.height, 15), self.author, 15, HEADING, bold=True)
        p.box(x + tag_at, y + 4, tag, 15, BLURPLE, radius=4)
        p.text(x + tag_at + 4.5, baseline(y + 4, 15, 9), "APP", 9, "#ffffff", bold=True)
        p.text(x + when_at, baseline(y, self.height, 11), self.when, 11, MUTED)


def draw_avatar(p: Painter, x: float, y: float, colour: Colour, letter: str) -> None:
    p.circle(x, y, 40, colour)
    p.text(x + 20 - length(letter, 20, True) / 2, baseline(y, 40, 20), letter, 20, "#ffffff",
           bold=True)


def message_stack(message: dict, author: str, reader: Reader,
                  files: Mapping[str, bytes]) -> Stack:
    parts: list[tuple[float, Block]] = [(0, Header(author, calendar_time(reader.now, reader)))]
    if message.get("content"):
        parts.append((0, Text(Paragraph.of(spans(message["content"], reader), EMBED_MAX,
                                            CONTENT))))
    shown = {(e.get("image") or {}).get("url") for e in message.get("embeds") or ()}
    for attachment in message.get("attachments") or ():
        url = f"attachment://{attachment.get('filename')}"
        image = None if url in shown else picture(url, files, (EMBED_MAX, 350))
        if image:
            parts.append((6, image))
    parts += [(6, embed_block(e, reader, files)) for e in message.get("embeds") or ()]
    parts += [(8, row) for row in component_rows(message.get("components") or [])]
    return Stack(parts)


def draw_message(message_json: dict, author: str = "Gamenight", *,
                 reader: Reader | None = None, files: Mapping[str, bytes] | None = None,
                 avatar: Colour = BLURPLE, width: float = WIDTH) -> bytes:
    """A PNG of the message as Discord's dark theme shows it to `reader` (the names behind
    mentions, the reader's clock and time zone). `files` holds the bytes of attachments
    an embed shows as `attachment://name`."""
    reader = reader or Reader()
    stack = message_stack(message_json, author, reader, files or {})
    top = 16
    height = top + max(stack.height, 44) + 18
    p = Painter(width, height)
    draw_avatar(p, 16, top, avatar, author[:1].upper())
    stack.draw(p, GUTTER, top - 1)
    return p.png()


# -- The README's pictures -------------------------------------------------------------------

DOCS = Path(__file__).resolve().parents[1]
PLAYERS = ("ada", "maya", "jonas", "王小明", "પ્રિયા", "leo", "sam")  # ada hosts
EVENING = datetime(2026, 12, 5, 18, 30, tzinfo=ZoneInfo("UTC")).timestamp()


async def play_night() -> dict[str, bytes]:
    """A Reversi night through the real bot and the fake Discord: the sign-up card once
    check-in is open and two have checked in."""
    from tests.e2e_helpers import FakeClock, InlineExecutor, fake_world, running_bot
    from tests.fakediscord import Perm

    clock = FakeClock(EVENING)
    async with fake_world("game-nights", PLAYERS) as (fake, guild, channel, users):
        guild.members[users["ada"].id].roles.append(
            fake.add_role(guild, "hosts", Perm.MANAGE_EVENTS))
        fake.set_bot_permissions(guild, Perm.BOT_DEFAULT | Perm.CREATE_EVENTS)
        with tempfile.TemporaryDirectory() as folder:
            async with running_bot(fake, Path(folder) / "night.db", guild.id, clock=clock,
                                   computer_executor=InlineExecutor()):
                card = await sign_up(fake, channel, users, clock)
                return {"night-card.png": picture_of(fake, card, clock.now())}


async def sign_up(fake: Any, channel: Any, users: Mapping[str, Any], clock: Any) -> Any:
    """ada schedules the night for an hour later, six more press I'm in, check-in opens and
    ada and maya check in: the card as it is then."""
    await fake.slash(users["ada"], channel, "gamenight night schedule", game="reversi",
                     start="in 1h", rounds=3)
    card = next(m for m in fake.messages(channel) if m.embeds)
    for name in PLAYERS[1:]:
        await fake.click(users[name], card, label="I'm in")
    clock.advance(45 * 60)  # check-in opens 15 minutes before the start
    await fake.wait_idle()
    for name in PLAYERS[:2]:
        await fake.click(users[name], fake.get_message(card.id), label="Check in")
    return fake.get_message(card.id)


def picture_of(fake: Any, message: Any, now: float) -> bytes:
    """A message of the fake Discord as a member of its server sees it at `now`."""
    stored = {"content": message.content, "embeds": message.embeds,
              "components": message.components,
              "attachments": [{"filename": a.filename} for a in message.attachments]}
    return draw_message(stored, reader=reader_of(fake, now), files=dict(message.files))


def reader_of(fake: Any, now: float) -> Reader:
    """A member of the fake's server, reading at `now`."""
    names = {user.id: user.global_name or user.name for user in fake.users.values()}
    channels = {channel.id: channel.name for channel in fake.channels.values()}
    return Reader(names=names, channels=channels, now=now)


def main() -> None:
    for name, png in asyncio.run(play_night()).items():
        (DOCS / name).write_bytes(png)
        print("wrote", DOCS / name)


if __name__ == "__main__":
    main()
