"""Draw Dou Dizhu cards as PNGs: a player's hand and a played combination, overlapped in rows
at most 600 px wide (render/phone.py), each card's corner index at least 20 px so it stays
readable when a phone shows the picture 300 px wide. Cards are the engine's strings: `7H`, `TS`,
`BJ`, `RJ`; they are sorted by rank, low to high, left to right.

The jokers' corner word ("JOKER" down the card) is worded in the reader's voice, one letter,
character or Gujarati syllable a line, shrunk to fit the corner. `card_words` says a card the
way the bot's messages and alt texts do (`7♥`, `10♠`, the jokers by name).
"""

from __future__ import annotations

import unicodedata
from collections.abc import Iterable
from functools import lru_cache

from PIL import Image, ImageDraw

from games.doudizhu import card_text, sort_cards
from i18n import ENGLISH_VOICE, Joined, Voice, Words, _, lines
from render.fonts import chain, draw_text, font, runs, text_length
from render.phone import WIDTH as MAX_WIDTH
from render.png import SCALE, finish

MIN_FONT = 20  # px: 10 px on the phone
PLAY_MIN_WIDTH = 300  # a lone card still sits on a strip of table

FELT = (28, 92, 60)
FELT_EDGE = (20, 70, 45)
CARD = (252, 251, 247)
CARD_EDGE = (150, 150, 150)
SHADOW = (14, 50, 32)
RED = (206, 32, 48)
BLACK = (28, 28, 34)
SUIT_COLOUR = {"S": BLACK, "C": BLACK, "H": RED, "D": RED}
SUIT_SYMBOL = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}
JOKER_FACE = {"B": (226, 230, 238), "R": (255, 236, 214)}
JOKER_INK = {"B": BLACK, "R": RED}
STAR = "\u2605"
VIRAMA = "\u0acd"  # Gujarati: joins the next consonant into one syllable

JOKER_NAMES = {"BJ": _("black joker"), "RJ": _("red joker")}
# TRANSLATORS: written down the corner of both joker cards, one letter (character, syllable)
# a line, like "JOKER" on real cards; the card's colour tells the red joker from the black.
JOKER_CORNER = _("JOKER")


def card_words(card: str) -> Words | str:
    """A card as the messages say it: `7♥`, `10♠`, or a joker by name."""
    return JOKER_NAMES.get(card) or card_text(card)


def cards_words(cards: Iterable[str]) -> Joined:
    """Cards sorted low to high, said one after the other: `3♠ 10♦ black joker`."""
    return lines((card_words(card) for card in sort_cards(list(cards))), " ")


def stacked(text: str) -> list[str]:
    """`text` cut into what is written one a line down a card: letters, characters, and
    Gujarati syllables kept whole (a vowel sign or virama stays with its consonant)."""
    out: list[str] = []
    for char in text.replace(" ", ""):
        if out and (unicodedata.category(char).startswith("M") or out[-1].endswith(VIRAMA)):
            out[-1] += char
        else:
            out.append(char)
    return out


@lru_cache(maxsize=256)
def _sized(width: int, step: int, voice: Voice) -> _Size:
    """The metrics of one card size in one language, worked out once (fitting the corner
    word measures text, which would cost every picture)."""
    return _Size(width, step, voice)


class _Size:
    """Card metrics for one drawing, in final pixels, and the jokers' corner word."""

    def __init__(self, width: int, step: int, voice: Voice) -> None:
        self.width = width
        self.height = round(width * 1.42)
        self.step = step                      # horizontal distance between overlapped cards
        self.radius = max(4, width // 10)
        self.rank_font = font(round(width * 0.36) * SCALE)
        self.ten_font = font(round(width * 0.34) * SCALE, condensed=True)
        self.suit_font = font(round(width * 0.30) * SCALE)
        self.pip_font = font(round(width * 0.62) * SCALE)
        self.joker_size = max(MIN_FONT, round(width * 0.2))  # five letters down the corner
        self.joker_lines = stacked(voice(JOKER_CORNER))
        self.corner_x = min(round(step * 0.48), round(width * 0.26))  # from the card's left
        self.joker_line_size = self._joker_fit(2 * self.corner_x - 4)
        self.joker_latin = True  # drawn as "JOKER" always was (`_joker_layout` says)
        self.joker_steps, self.joker_right = self._joker_layout()

    def _joker_fit(self, room: int) -> int:
        """The corner word's size: that of "JOKER" for five lines, larger for fewer (up to
        twice), smaller for more, and shrunk until each line fits the corner's `room`."""
        size = round(self.joker_size * min(2.0, 5 / max(1, len(self.joker_lines))))
        while size > 8 and max(text_length(line, size * SCALE, condensed=True)
                               for line in self.joker_lines or [""]) > room * SCALE:
            size -= 1
        return size

    def _joker_layout(self) -> tuple[list[int], dict[int, int]]:
        """How far down each line of the corner word starts, and how far right of the corner
        it reaches from each line's top on. Latin letters are spaced as "JOKER" always was;
        other scripts (taller, with vowel signs) by the height they are drawn."""
        size = self.joker_line_size
        latin = chain(size * SCALE, condensed=True)[0]
        steps, right, y = [], {}, round(self.width * 0.06)
        for line in self.joker_lines:
            parts = runs(line, size * SCALE, condensed=True)
            boxes = [face.getbbox(part, anchor="lt") for part, face in parts]
            steps.append(y)
            right[y] = round(sum(box[2] for box in boxes) / 2 / SCALE)
            if all(face is latin for _part, face in parts):
                y += round(size * 0.92)
            else:
                self.joker_latin = False
                y += round(max(box[3] for box in boxes) / SCALE + size * 0.1)
        return steps, right

    def star_x(self, centre: int, half: int) -> int:
        """Where the last joker's star goes (from the card's left): beside narrow Latin
        letters as always; right of a wider word where it reaches down beside the star, but
        inside the card."""
        if self.joker_latin:
            return centre
        top = self.height // 2 - half
        reach = max((self.corner_x + right for y, right in self.joker_right.items()
                     if y + self.joker_line_size > top), default=0)
        return min(max(centre, reach + half + 3), self.width - half - 3)


def _rows(count: int, width: int, max_step: int, min_step: int) -> tuple[int, int]:
    """How many rows and what step fit `count` cards of `width` into the page."""
    room = MAX_WIDTH - 2 * _margin(width)
    rows = 1
    while True:
        per_row = -(-count // rows)
        step = max_step if per_row == 1 else min(max_step, (room - width) // (per_row - 1))
        if step >= min_step or rows >= 4:
            return rows, step
        rows += 1


def _margin(width: int) -> int:
    return max(10, width // 6)


def render_hand(cards: Iterable[str], voice: Voice = ENGLISH_VOICE) -> bytes:
    """A hand as PNG bytes: cards overlapped left to right by rank, a second row if needed."""
    ordered = sort_cards(list(cards))
    width = 88
    rows, step = _rows(len(ordered), width, max_step=60, min_step=44)
    return _render(ordered, _sized(width, step, voice), rows)


def render_play(cards: Iterable[str], voice: Voice = ENGLISH_VOICE) -> bytes:
    """A played combination as a PNG strip of larger cards, at least 300 px wide."""
    ordered = sort_cards(list(cards))
    width = 100
    rows, step = _rows(len(ordered), width, max_step=66, min_step=50)
    return _render(ordered, _sized(width, step, voice), rows, min_width=PLAY_MIN_WIDTH)


def card_size(width: int, step: int, voice: Voice = ENGLISH_VOICE) -> _Size:
    """The metrics of cards `width` px wide overlapped every `step` px, for pictures that
    lay cards out themselves (render/review_doudizhu.py)."""
    return _sized(width, step, voice)


def draw_card(draw: ImageDraw.ImageDraw, card: str, left: int, top: int, size: _Size, *,
              last: bool = False) -> None:
    """One card at (`left`, `top`) in final pixels, on a drawing SCALE times the final size;
    `last`: the card no other covers (its centre pip drawn)."""
    _card(draw, card, left, top, size, last=last)


def _render(cards: tuple[str, ...], size: _Size, rows: int, min_width: int = 0) -> bytes:
    margin = _margin(size.width)
    per_row = max(1, -(-len(cards) // rows))
    lines = [cards[i:i + per_row] for i in range(0, len(cards), per_row)] or [()]
    widest = max(len(line) for line in lines)
    row_gap = round(size.height * 0.56)       # later rows cover the lower part of earlier ones
    cards_width = size.width + size.step * (widest - 1) if widest else size.width
    width = max(2 * margin + cards_width, min_width)
    margin_x = (width - cards_width) // 2
    height = 2 * margin + size.height + row_gap * (len(lines) - 1)
    image = Image.new("RGB", (width * SCALE, height * SCALE), FELT)
    draw = ImageDraw.Draw(image)
    draw.rounded_rectangle((0, 0, width * SCALE - 1, height * SCALE - 1), radius=14 * SCALE,
                           outline=FELT_EDGE, width=3 * SCALE)
    if not cards:
        _empty(draw, margin_x, margin, size)
    for row, line in enumerate(lines):
        left = margin_x + (size.step * (widest - len(line))) // 2
        top = margin + row * row_gap
        for index, card in enumerate(line):
            last = row == len(lines) - 1 and index == len(line) - 1
            _card(draw, card, left + index * size.step, top, size, last=last)
    return finish(image)


def _empty(draw: ImageDraw.ImageDraw, left: int, top: int, size: _Size) -> None:
    box = [v * SCALE for v in (left, top, left + size.width, top + size.height)]
    draw.rounded_rectangle(box, radius=size.radius * SCALE, outline=FELT_EDGE, width=2 * SCALE)


def _card(draw: ImageDraw.ImageDraw, card: str, left: int, top: int, size: _Size, *, last: bool) -> None:
    s = SCALE
    box = (left * s, top * s, (left + size.width) * s, (top + size.height) * s)
    shadow = (box[0] - 2 * s, box[1] + 2 * s, box[2] - 2 * s, box[3] + 2 * s)
    draw.rounded_rectangle(shadow, radius=size.radius * s, fill=SHADOW)
    rank = card[0]
    joker = rank in "BR"
    face = JOKER_FACE[rank] if joker else CARD
    draw.rounded_rectangle(box, radius=size.radius * s, fill=face, outline=CARD_EDGE, width=s + 1)
    corner_x = box[0] + size.corner_x * s
    if joker:
        ink = JOKER_INK[rank]
        for line, y in zip(size.joker_lines, size.joker_steps):
            draw_text(draw, (corner_x, box[1] + y * s), line, size.joker_line_size * s,
                      fill=ink, anchor="mt", condensed=True)
        if last:
            half = round(size.pip_font.getbbox(STAR, anchor="mm")[2] / s)
            x = size.star_x(size.width // 2 + round(size.width * 0.1), half)
            draw.text((box[0] + x * s, (box[1] + box[3]) // 2), STAR, font=size.pip_font,
                      fill=ink, anchor="mm")
        return
    suit = card[1]
    ink = SUIT_COLOUR[suit]
    label = "10" if rank == "T" else rank
    rank_font = size.ten_font if rank == "T" else size.rank_font
    y = box[1] + round(size.width * 0.07) * s
    draw.text((corner_x, y), label, font=rank_font, fill=ink, anchor="mt")
    y += round(size.width * 0.40) * s
    draw.text((corner_x, y), SUIT_SYMBOL[suit], font=size.suit_font, fill=ink, anchor="mt")
    if last:
        centre = ((box[0] + box[2]) // 2 + round(size.width * 0.1) * s, (box[1] + box[3]) // 2 + 6 * s)
        draw.text(centre, SUIT_SYMBOL[suit], font=size.pip_font, fill=ink, anchor="mm")
