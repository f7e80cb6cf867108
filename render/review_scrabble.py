"""A Scrabble turn under review, as a picture and in words (render/review.py calls these).

The picture is the board before the turn, drawn by the board's own renderer
(render/scrabble.py, without the last play's highlight), with the better move's tiles as
violet ghosts (white letters; a blank's letter in yellow) and the tiles played as real tiles
framed in thick orange: dark and light as well as two colours, so the two can be told apart
without colour. A square both moves use shows the ghost inside the orange frame, or, if their
letters differ, split corner to corner: the better move's letter top left, the played one
bottom right. Under the board: the mover's rack as it was (a bar under each tile an exchange
puts back, in the move's colour), then a legend, one row per move with what it scores.
600 px wide, at most 872 tall (Gujarati, whose premium labels need a legend under the board):
within the phone rule (render/phone.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import cache

from PIL import Image, ImageDraw

from games.scrabble import (
    Board, Exchange, Move, Play, View, default_lexicon, evaluate, parse_move, unknown_words,
)
from i18n import ENGLISH_VOICE, Voice, Words, _, listed, n_, p_
from render.review import played_words
from render.alt import fit, scrabble_board
from render.fonts import draw_text, font
from render.png import SCALE, encode, shrink
from render.replay import TEXT, TITLE, fitted
from render.scrabble import (
    BLANK_LABEL, BLANK_LETTER, CELL, FRAME, GAP, LABEL, LETTER, MARGIN, MIN_FONT, TILE,
    board_image,
    rack_image,
    rack_layout,
)

WIDTH = 600
PLAYED = (255, 140, 40)     # the frame round each tile played
BETTER = (124, 58, 196)     # the ghost of each tile of the better move
GHOST_ALPHA = 235
GHOST_LETTER = (255, 255, 255)
GHOST_BLANK = (255, 214, 102)  # a blank's letter on a ghost
ROW_H = 38                  # a legend row
RACK_GAP = 4


def review_png(view: View, seat: int, played: str, best: str, voice: Voice = ENGLISH_VOICE,
               names: Sequence[str] | None = None) -> bytes:
    """The board before the turn (`view`: `engine.view(before, seat)`) with `played` and
    `best` marked, the mover's rack and the legend, worded by `voice` (`names` are for the
    alt text: the picture names no one)."""
    board = board_image(view, voice, highlight_last=False).convert("RGBA")
    layer = Image.new("RGBA", (board.width * SCALE, board.height * SCALE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    shown_best = best if best != played else None
    ghosts = _squares(view, shown_best)
    tiles = _squares(view, played)
    for (row, col), char in ghosts.items():
        if tiles.get((row, col), char) == char:
            _ghost(draw, row, col, char)
    for (row, col), char in tiles.items():
        other = ghosts.get((row, col), char)
        if other != char:
            _split(draw, row, col, other, char)
        elif (row, col) not in ghosts:
            _tile(draw, row, col, char)
        _frame(draw, _box(row, col, 1), PLAYED, 4)
    board.alpha_composite(layer.reduce(SCALE))
    rack = _marked_rack(view.rack or "", played, shown_best, voice)
    rows = _legend_rows(view, played, shown_best, voice)
    top = board.height + RACK_GAP
    picture = Image.new("RGB", (WIDTH, top + rack.height + len(rows) * ROW_H + 6), FRAME)
    picture.paste(board.convert("RGB"), (0, 0))
    picture.paste(rack, ((WIDTH - rack.width) // 2, top))
    picture.paste(_legend(rows), (0, top + rack.height))
    return encode(picture)


# -- the marks ---------------------------------------------------------------------------------

def _squares(view: View, move: str | None) -> dict[tuple[int, int], str]:
    """The squares a play would cover on the board, with their tiles (none for the rest)."""
    parsed = None if move is None else parse_move(move)
    if not isinstance(parsed, Play):
        return {}
    return {(r, c): char for r, c, char in evaluate(Board(view.board), parsed).placements}


def _box(row: int, col: int, inset: float = 0) -> tuple[float, float, float, float]:
    """A square's box on the board, in drawing pixels (SCALE times the final size)."""
    left = (MARGIN + col * CELL + GAP / 2 + inset) * SCALE
    top = (MARGIN + row * CELL + GAP / 2 + inset) * SCALE
    side = (CELL - GAP - 2 * inset) * SCALE
    return left, top, left + side, top + side


def _letter(draw: ImageDraw.ImageDraw, row: int, col: int, char: str,
            fill: tuple[int, int, int]) -> None:
    left, top, right, bottom = _box(row, col)
    draw.text(((left + right) / 2, (top + bottom) / 2 + 1), char.upper(),
              font=font(round((right - left) * 0.66)), fill=fill, anchor="mm")


def _ghost(draw: ImageDraw.ImageDraw, row: int, col: int, char: str) -> None:
    draw.rounded_rectangle(_box(row, col, 2), radius=5 * SCALE, fill=(*BETTER, GHOST_ALPHA))
    _letter(draw, row, col, char, GHOST_BLANK if char.islower() else GHOST_LETTER)


def _tile(draw: ImageDraw.ImageDraw, row: int, col: int, char: str) -> None:
    draw.rounded_rectangle(_box(row, col, 2), radius=5 * SCALE, fill=TILE)
    _letter(draw, row, col, char, BLANK_LETTER if char.islower() else LETTER)


def _split(draw: ImageDraw.ImageDraw, row: int, col: int, ghost: str, char: str) -> None:
    """A square both moves use with different letters: the ghost's corner (top left) and
    the tile played (bottom right), each with its letter at the smallest readable size."""
    left, top, right, bottom = _box(row, col, 2)
    draw.rounded_rectangle((left, top, right, bottom), radius=5 * SCALE, fill=TILE)
    draw.polygon([(left, top), (right, top), (left, bottom)], fill=(*BETTER, GHOST_ALPHA))
    size = MIN_FONT * SCALE
    third = (right - left) / 3.4
    draw.text((left + third, top + third), ghost.upper(), font=font(size),
              fill=GHOST_BLANK if ghost.islower() else GHOST_LETTER, anchor="mm")
    draw.text((right - third, bottom - third), char.upper(), font=font(size),
              fill=BLANK_LETTER if char.islower() else LETTER, anchor="mm")


def _frame(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
           colour: tuple[int, int, int], width: float) -> None:
    draw.rounded_rectangle(box, radius=6 * SCALE, outline=colour, width=round(width * SCALE))


def _marked_rack(rack: str, played: str, best: str | None, voice: Voice) -> Image.Image:
    """The rack, with a bar in the wood under each tile an exchange puts back: orange for
    the move played, violet for the better move (half each under a tile both put back)."""
    image = rack_image(rack, voice)
    marks: list[list[tuple[int, int, int]]] = [[] for _ in rack]
    for move, colour in ((played, PLAYED), (best, BETTER)):
        parsed = None if move is None else parse_move(move)
        if isinstance(parsed, Exchange):
            for index in _indices(rack, parsed.tiles):
                marks[index].append(colour)
    if not any(marks):
        return image
    layout = rack_layout(len(rack))
    draw = ImageDraw.Draw(image)
    bottom = layout.places[0][1] + layout.tile
    for (left, _top), colours in zip(layout.places, marks):
        share = layout.tile / max(1, len(colours))
        for k, colour in enumerate(colours):
            draw.rectangle((left + k * share + 2, bottom + 4, left + (k + 1) * share - 2,
                            bottom + 10), fill=colour)
    return image


def _indices(rack: str, tiles: str) -> list[int]:
    """Which of the rack's tiles (by place) `tiles` are: the first of each letter."""
    free = list(enumerate(rack))
    found = []
    for tile in tiles:
        place = next(i for i, (_, t) in enumerate(free) if t == tile)
        found.append(free.pop(place)[0])
    return found


# -- the legend --------------------------------------------------------------------------------

def _legend_rows(view: View, played: str, best: str | None,
                 voice: Voice) -> list[tuple[str, str]]:
    """(mark, words) per row: the move played, then the better move. No name: a long one
    would crowd the moves out, and the review's message names the player above."""
    if best is None:
        return [("played", voice(_("Played: {move}, the best move",
                                   move=_scored_move(view, played))))]
    return [("played", voice(_("Played: {move}", move=_scored_move(view, played)))),
            ("best", voice(_("Better: {move}", move=_scored_move(view, best))))]


def _legend(rows: list[tuple[str, str]]) -> Image.Image:
    """The rows under the rack, each with its mark: drawn twice the size and shrunk."""
    strip = Image.new("RGB", (WIDTH * SCALE, (len(rows) * ROW_H + 6) * SCALE), FRAME)
    draw = ImageDraw.Draw(strip)
    mark, left = 30, 16
    room = (WIDTH - 2 * left - mark - 12) * SCALE
    for index, (kind, words) in enumerate(rows):
        y = 2 + index * ROW_H
        box = (left * SCALE, (y + 2) * SCALE, (left + mark) * SCALE, (y + 2 + mark) * SCALE)
        if kind == "played":
            draw.rounded_rectangle(box, radius=5 * SCALE, fill=TILE)
            _frame(draw, box, PLAYED, 4)
        else:
            draw.rounded_rectangle(box, radius=5 * SCALE, fill=BETTER)
        text, size, condensed = fitted(words, TITLE * SCALE,
                                       room, smallest=TEXT * SCALE)
        draw_text(draw, ((left + mark + 12) * SCALE, (y + 2 + mark / 2) * SCALE), text, size,
                  fill=LABEL, anchor="lm", condensed=condensed)
    return shrink(strip)


def _name(seat: int, names: Sequence[str] | None, voice: Voice) -> str:
    return names[seat] if names and seat < len(names) else voice(
        _("Player {number}", number=seat + 1))


# -- in words ----------------------------------------------------------------------------------

def move_words(move: str) -> Words:
    """A move as the board's alt text words it: `H8 across QUIz`, `exchange QV`, `pass`."""
    parsed: Move = parse_move(move)
    if isinstance(parsed, Play):
        if parsed.across:
            return _("{square} across {word}", square=parsed.square, word=parsed.word)
        return _("{square} down {word}", square=parsed.square, word=parsed.word)
    if isinstance(parsed, Exchange):
        # TRANSLATORS: a Scrabble move in a review: putting these tiles back in the bag
        # (`?` is a blank).
        return _("exchange {tiles}", tiles=parsed.tiles)
    # TRANSLATORS: a Scrabble move in a review: passing the turn.
    return p_("scrabble move", "pass")


def _scored_move(view: View, move: str) -> Words:
    """The move with what it scores on this board (a word not in the dictionary: nothing)."""
    parsed = parse_move(move)
    if not isinstance(parsed, Play):
        return move_words(move)
    scored = evaluate(Board(view.board), parsed)
    if unknown_words(scored, _lexicon()):
        return _("{move}, not in the dictionary", move=move_words(move))
    return _("{move}, {points}", move=move_words(move),
             points=n_("{n} point", "{n} points", scored.score))


@cache
def _lexicon():  # loaded once per process, where a review picture is first drawn
    return default_lexicon()


def review_alt(view: View, seat: int, played: str, best: str, voice: Voice = ENGLISH_VOICE,
               names: Sequence[str] | None = None) -> str:
    """What the review picture shows, for screen readers: the moves, the rack, the board."""
    player = _name(seat, names, voice)
    said = played_words(player, _scored_move(view, played), _scored_move(view, best),
                        played == best)
    rack = view.rack or ""
    letters = listed(voice(BLANK_LABEL) if tile == "?" else tile for tile in rack)
    held = n_("{player}'s rack, {n} tile: {letters}.", "{player}'s rack, {n} tiles: {letters}.",
              len(rack), player=player, letters=letters)
    return fit(f"{voice(said)} {voice(held)} {scrabble_board(view, voice)}")


def reason_words(reason: str, values: dict) -> Words:
    """Why the better move is better, in one line (games/scrabble/review.py's reasons)."""
    if reason == "phony":
        words = list(values.get("words") or [])
        return n_("{words} is not in the dictionary: a challenge takes the play off, and it "
                  "scores nothing.", "{words} are not in the dictionary: a challenge takes the "
                  "play off, and it scores nothing.", len(words), words=listed(words))
    if reason == "finish_missed":
        return _("{move} reaches the target of {target} points: it wins the game at once.",
                 move=move_words(values["move"]), target=values["target"])
    if reason == "bingo_missed":
        return _("There was a bingo: {move}, {points} with the 50-point bonus.",
                 move=move_words(values["move"]),
                 points=n_("{n} point", "{n} points", int(values["score"])))
    if reason == "exchange_better":
        if values.get("kept"):
            return _("Exchanging {tiles} and keeping {kept} was worth more than any play.",
                     tiles=values["tiles"], kept=values["kept"])
        return _("Exchanging every tile was worth more than any play.")
    if reason == "bad_leave":
        return _("About the same score, but it kept {kept}; the better play keeps {better}.",
                 kept=_tiles(values.get("kept", "")), better=_tiles(values.get("better_kept", "")))
    return _("The better move has more equity: its score and the value of the tiles it keeps.")


def _tiles(tiles: str) -> Words | str:
    # TRANSLATORS: in a Scrabble review, the tiles a play keeps on the rack, when it keeps none.
    return tiles if tiles else _("no tiles kept")
