"""A Reversi turn under review, as a picture and in words: the board before the turn, drawn by
the board's own renderer (render/reversi.py), with the move played ringed in orange and the
better move framed in green (shapes as well as colours, for colour-blind eyes), and a legend
under it saying which is which. 600 x 736 px: a phone shows it whole (render/phone.py)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from games.reversi import Move, View
from i18n import ENGLISH_VOICE, Voice, Words, _
from render.review import played_words
from render.alt import fit, reversi_board
from render.fonts import draw_text, text_length
from render.png import SCALE, encode, shrink
from render.replay import TEXT, TITLE, fitted
from render.reversi import BACKGROUND, BLACK_DISC, CELL, LABEL, MARGIN, WHITE_DISC, WIDTH
from render.reversi import board_image

PLAYED = (255, 140, 40)   # the ring round the move played
BETTER = (90, 230, 120)   # the frame round the better move
LEGEND_H = 76             # two lines under the board
ROW_H = 36
NAME_W = 280              # px a name may take in the legend


def review_png(view: View, seat: int, played: str, best: str, voice: Voice = ENGLISH_VOICE,
               names: Sequence[str] | None = None) -> bytes:
    """The board before the turn (`view`: `engine.view(before, seat)`) with `played` and
    `best` (squares, `d3`) marked, and the legend worded by `voice`."""
    board = board_image(view, voice).convert("RGBA")
    mover = view.to_move_colour or ("black" if seat == view.black_seat else "white")
    layer = Image.new("RGBA", (board.width * SCALE, board.height * SCALE), (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    played_sq, best_sq = _square(played), _square(best)
    _ghost(draw, best_sq, mover)
    _frame(draw, _box(best_sq), BETTER)
    if played_sq != best_sq:
        _ghost(draw, played_sq, mover)
        _ring(draw, _box(played_sq), PLAYED)
    board.alpha_composite(layer.reduce(SCALE))
    picture = Image.new("RGB", (WIDTH, board.height + LEGEND_H), BACKGROUND)
    picture.paste(board.convert("RGB"), (0, 0))
    _legend(picture, board.height, view, seat, played, best, voice, names)
    return encode(picture)


def _square(text: str) -> int:
    return Move.parse(text).square


def _box(square: int, inset: float = 0) -> tuple[float, float, float, float]:
    """A square's box on the board, in drawing pixels (SCALE times the final size)."""
    row, col = divmod(square, 8)
    left, top = (MARGIN + col * CELL + inset) * SCALE, (MARGIN + row * CELL + inset) * SCALE
    side = (CELL - 2 * inset) * SCALE
    return left, top, left + side, top + side


def _ghost(draw: ImageDraw.ImageDraw, square: int, colour: str) -> None:
    """A see-through disc of the mover's colour where the move would go."""
    body = (BLACK_DISC if colour == "black" else WHITE_DISC)[0]
    draw.ellipse(_box(square, 9), fill=(*body, 200))


def _ring(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
          colour: tuple[int, int, int]) -> None:
    left, top, right, bottom = box
    inset = 3 * SCALE
    draw.ellipse((left + inset, top + inset, right - inset, bottom - inset), outline=colour,
                 width=5 * SCALE)


def _frame(draw: ImageDraw.ImageDraw, box: tuple[float, float, float, float],
           colour: tuple[int, int, int]) -> None:
    left, top, right, bottom = box
    inset = 2 * SCALE
    draw.rounded_rectangle((left + inset, top + inset, right - inset, bottom - inset),
                           radius=6 * SCALE, outline=colour, width=5 * SCALE)


def _legend(picture: Image.Image, top: int, view: View, seat: int, played: str, best: str,
            voice: Voice, names: Sequence[str] | None) -> None:
    """The marks and what they mean, under the board: drawn twice the size and shrunk."""
    strip = Image.new("RGB", (WIDTH * SCALE, LEGEND_H * SCALE), BACKGROUND)
    draw = ImageDraw.Draw(strip)
    player = _name(seat, names, voice)
    rows: list[tuple[tuple[int, int, int], Words]] = []
    if played == best:
        rows.append((BETTER, _("{player} played {move}: the best move", player=player,
                               move=played)))
    else:
        rows.append((PLAYED, _("{player} played {move}", player=player, move=played)))
        rows.append((BETTER, _("Better: {move}", move=best)))
    mark = 30
    room = (WIDTH - 2 * MARGIN - mark - 12) * SCALE
    for index, (colour, words) in enumerate(rows):
        y = 4 + index * ROW_H
        box = (MARGIN * SCALE, y * SCALE, (MARGIN + mark) * SCALE, (y + mark) * SCALE)
        (_frame if colour == BETTER else _ring)(draw, box, colour)
        text, size, condensed = fitted(voice(words), (TITLE if index == 0 else TEXT + 2) * SCALE,
                                       room, smallest=TEXT * SCALE)
        draw_text(draw, ((MARGIN + mark + 12) * SCALE, (y + mark / 2) * SCALE), text, size,
                  fill=LABEL if index == 0 else colour, anchor="lm", condensed=condensed)
    picture.paste(shrink(strip), (0, top))


def _name(seat: int, names: Sequence[str] | None, voice: Voice) -> str:
    """The seat's name, cut to leave room for the words round it."""
    name = names[seat] if names and seat < len(names) else voice(_("Player {number}",
                                                                   number=seat + 1))
    if text_length(name, TITLE) <= NAME_W:
        return name
    while name and text_length(name + "…", TITLE) > NAME_W:
        name = name[:-1]
    return name + "…"


def review_alt(view: View, seat: int, played: str, best: str, voice: Voice = ENGLISH_VOICE,
               names: Sequence[str] | None = None) -> str:
    """What the review picture shows, for screen readers: the moves, then the board."""
    seats = list(names) if names else [voice(_("Player {number}", number=n + 1))
                                       for n in (0, 1)]
    player = seats[seat]
    said = played_words(player, played, best, played == best)
    return fit(f"{voice(said)} {reversi_board(view, seats, voice)}")


def reason_words(reason: str | None, values: dict) -> Words:
    """Why the better move is better, in one line (games/reversi/review.py's reasons)."""
    square = values.get("square", "")
    if reason == "wipeout":
        return _("{square} would have taken every one of the opponent's discs: a wipe-out.",
                 square=square)
    if reason == "corner_missed":
        return _("The better move takes the corner {square}.", square=square)
    if reason == "corner_given":
        return _("This move lets the opponent take the corner {square}; the better move "
                 "does not.", square=square)
    if reason == "pass_forced":
        return _("The better move, {square}, leaves the opponent no move: they must pass.",
                 square=square)
    return _("The better move leads to a better final count of discs.")

