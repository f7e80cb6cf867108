"""A Patchwork turn under review, as a picture and in words: the mover's quilt before the turn
and what they could do (the three patches on offer and passing), drawn with the table's own
pieces (render/patchwork.py), the move played marked in orange and the better move in green
(a solid frame and a dashed one, for colour-blind eyes), each where it goes on the quilt,
and a legend saying which is which. 600 px wide, under 800 tall (render/phone.py)."""

from __future__ import annotations

from collections.abc import Sequence

from PIL import Image, ImageDraw

from games.patchwork import (
    TURN_LEATHER,
    Buy,
    Move,
    PatchInfo,
    PatchworkView,
    Place,
    oriented_cells,
    parse_move,
    square_index,
)
from i18n import ENGLISH_VOICE, Voice, Words, _, n_
from render.review import played_words
from render.alt import fit, patchwork_table
from render.patchwork import (
    HEADER,
    HEADER_TEXT,
    INK,
    ITEM_H,
    PAD,
    PANEL,
    PAPER,
    PLAYER_COLOURS,
    TEXT,
    Pen,
    _button,
    _draw_item,
    _quilt,
    fit_text,
    text_width,
)
from render.phone import WIDTH
from render.png import SCALE

Colour = tuple[int, int, int]
PLAYED = (230, 100, 20)   # orange: the move played
BETTER = (30, 150, 70)    # green: the better move
HEADER_H = 66
SLOT_GAP = 8
SLOT_W = (WIDTH - 2 * PAD - 3 * SLOT_GAP) / 4   # the three patches on offer, and passing
OFFER_Y = HEADER_H + 14
CELL = 46
QUILT_Y = OFFER_Y + ITEM_H + 46      # the a1 square's top (the labels are above it)
QUILT_X = (WIDTH - 9 * CELL) / 2 + 10
LEGEND_Y = QUILT_Y + 9 * CELL + 20
ROW_H = 36
NAME_W = 280  # px a name may take in the header or the legend
HEIGHT = LEGEND_Y + 2 * ROW_H + 10


def review_png(view: PatchworkView, seat: int, played: str, best: str,
               voice: Voice = ENGLISH_VOICE, names: Sequence[str] | None = None) -> bytes:
    """The turn `seat` took from the table `view` (`engine.view(before, seat)`): `played` and
    `best` (`buy 2 90m c4`, `pass`, `place e5`) marked on the offer and on the quilt."""
    pen = Pen(WIDTH, HEIGHT)
    _header(pen, view, seat, voice, names)
    moves = [(parse_move(best), BETTER)]
    if played != best:
        moves.append((parse_move(played), PLAYED))
    _offer(pen, view, seat, moves, voice)
    _quilt(pen, view.players[seat].quilt.patches, QUILT_X, QUILT_Y, CELL, label_size=TEXT,
           background=PAPER)
    for move, colour in moves:
        _ghost(pen, view, move, colour)
    _legend(pen, view, seat, played, best, voice, names)
    return pen.png()


def _header(pen: Pen, view: PatchworkView, seat: int, voice: Voice,
            names: Sequence[str] | None) -> None:
    pen.rect(0, 0, WIDTH, HEADER_H, fill=HEADER)
    pen.circle(PAD + 14, HEADER_H / 2, 14, fill=PLAYER_COLOURS[seat], outline=(255, 255, 255),
               width=2)
    pen.text(PAD + 14, HEADER_H / 2 + 1, str(seat + 1), TEXT, (255, 255, 255), anchor="mm",
             condensed=True)
    purse = voice(n_("{n} button", "{n} buttons", view.players[seat].buttons))
    room = WIDTH - 2 * PAD - 38 - text_width(purse, TEXT) - 16
    player = _name(seat, names, voice)
    if view.turn_reason == TURN_LEATHER:
        title = voice(n_("{player}: place a leather patch", "{player}: place {n} leather patches",
                         view.pending_leather, player=player))
    else:
        title = voice(_("{player} to move", player=player))
    pen.text(PAD + 38, HEADER_H / 2, fit_text(title, TEXT + 4, room), TEXT + 4, HEADER_TEXT,
             anchor="lm")
    pen.text(WIDTH - PAD, HEADER_H / 2, purse, TEXT, HEADER_TEXT, anchor="rm")


def _name(seat: int, names: Sequence[str] | None, voice: Voice) -> str:
    """The seat's name, cut to leave room for the words round it (a review is read by the
    whole table: no "(you)")."""
    name = names[seat] if names else voice(_("Player {number}", number=seat + 1))
    return fit_text(name, TEXT + 4, NAME_W)


def _slot_x(slot: int) -> float:
    return PAD + slot * (SLOT_W + SLOT_GAP)


def _offer(pen: Pen, view: PatchworkView, seat: int, moves: list[tuple[Move, Colour]],
           voice: Voice) -> None:
    """The patches on offer (1-3, faded when too dear) and passing, the moves' slots framed."""
    buttons = view.players[seat].buttons
    for k, patch in enumerate(view.offer):
        item = _draw_item(patch, k + 1, patch.cost > buttons, SLOT_W, voice)
        pen.paste(item, _slot_x(k), OFFER_Y)
    _pass_slot(pen, view, seat, _slot_x(3), OFFER_Y)
    slots = [_slot(move) for move, _ in moves]
    for (move, colour), slot in zip(moves, slots):
        if slot is None:
            continue
        shared = slots.count(slot) > 1  # one patch, two placements: one frame inside the other
        out = 8 if shared and colour == BETTER else 3
        x, y = _slot_x(slot) - out, OFFER_Y - out
        _outline(pen, (x, y, x + SLOT_W + 2 * out, y + ITEM_H + 2 * out), colour)


def _slot(move: Move) -> int | None:
    """Which slot a move takes: 0-2 a patch on offer, 3 passing, None placing leather."""
    return move.choice - 1 if isinstance(move, Buy) else None if isinstance(move, Place) else 3


def _outline(pen: Pen, box: tuple[float, float, float, float], colour,
             radius: float = 12) -> None:
    """A frame round a slot: solid for the move played, dashed for the better move."""
    x0, y0, x1, y1 = box
    if colour == PLAYED:
        pen.rect(x0, y0, x1, y1, outline=colour, width=4, radius=radius)
        return
    for seg in ((x0, y0, x1, y0), (x0, y1, x1, y1), (x0, y0, x0, y1), (x1, y0, x1, y1)):
        _thick_dashes(pen, seg, colour)


def _pass_slot(pen: Pen, view: PatchworkView, seat: int, x: float, y: float) -> None:
    """Passing, as a slot beside the offer: `pass` and the buttons it would earn."""
    here, there = view.players[seat].position, view.players[1 - seat].position
    earned = min(there + 1, view.track_end) - here
    pen.rect(x, y, x + SLOT_W, y + ITEM_H, fill=PANEL, outline=INK, width=1, radius=10)
    pen.text(x + SLOT_W / 2, y + 38, "pass", TEXT + 4, INK, anchor="mm")
    _button(pen, x + SLOT_W / 2 - 22, y + 80, 9)
    pen.text(x + SLOT_W / 2 - 8, y + 80, f"+{max(0, earned)}", TEXT + 2, INK, anchor="lm")


def _cells(view: PatchworkView, move) -> list[tuple[int, int]]:
    """The quilt squares (row, column) a move covers (none for a pass)."""
    if isinstance(move, Place):
        return [divmod(square_index(move.square), 9)]
    if isinstance(move, Buy):
        top, left = divmod(square_index(move.square), 9)
        patch: PatchInfo = view.offer[move.choice - 1]
        return [(top + r, left + c) for r, c in oriented_cells(patch.id, move.orientation)]
    return []


def _ghost(pen: Pen, view: PatchworkView, move, colour) -> None:
    """Where a move puts its patch: its squares tinted, its outline solid (played) or dashed
    (better)."""
    cells = _cells(view, move)
    if not cells:
        return
    layer = Image.new("RGBA", pen.image.size, (0, 0, 0, 0))
    draw = ImageDraw.Draw(layer)
    for r, c in cells:
        draw.rectangle([(QUILT_X + c * CELL) * SCALE, (QUILT_Y + r * CELL) * SCALE,
                        (QUILT_X + (c + 1) * CELL) * SCALE, (QUILT_Y + (r + 1) * CELL) * SCALE],
                       fill=(*colour, 120))
    pen.image.paste(layer, (0, 0), layer)
    cellset = set(cells)
    segments = []
    for r, c in cells:
        left, top = QUILT_X + c * CELL, QUILT_Y + r * CELL
        for (dr, dc), seg in (((-1, 0), (left, top, left + CELL, top)),
                              ((1, 0), (left, top + CELL, left + CELL, top + CELL)),
                              ((0, -1), (left, top, left, top + CELL)),
                              ((0, 1), (left + CELL, top, left + CELL, top + CELL))):
            if (r + dr, c + dc) not in cellset:
                segments.append(seg)
    for seg in segments:
        if colour == PLAYED:
            pen.line(list(seg), colour, 4)
        else:
            _thick_dashes(pen, seg, colour)


def _thick_dashes(pen: Pen, seg: tuple[float, float, float, float], colour) -> None:
    x0, y0, x1, y1 = seg
    length = abs(x1 - x0) + abs(y1 - y0)
    steps = max(1, int(length // 12))
    for k in range(steps):
        t0, t1 = k / steps, (k + 0.6) / steps
        pen.line([x0 + (x1 - x0) * t0, y0 + (y1 - y0) * t0, x0 + (x1 - x0) * t1,
                  y0 + (y1 - y0) * t1], colour, 5)


def _legend(pen: Pen, view: PatchworkView, seat: int, played: str, best: str, voice: Voice,
            names: Sequence[str] | None) -> None:
    player = _name(seat, names, voice)
    if played == best:
        rows: list[tuple[tuple[int, int, int], Words]] = [
            (BETTER, _("{player} played {move}: the best move", player=player, move=played))]
    else:
        rows = [(PLAYED, _("{player} played {move}", player=player, move=played)),
                (BETTER, _("Better: {move}", move=best))]
    for index, (colour, words) in enumerate(rows):
        y = LEGEND_Y + index * ROW_H
        _outline(pen, (PAD + 2, y + 4, PAD + 30, y + 30), colour, radius=4)
        text = fit_text(voice(words), TEXT + 2, WIDTH - 2 * PAD - 44)
        pen.text(PAD + 44, y + 17, text, TEXT + 2, INK if index == 0 else colour, anchor="lm")


def review_alt(view: PatchworkView, seat: int, played: str, best: str,
               voice: Voice = ENGLISH_VOICE, names: Sequence[str] | None = None) -> str:
    """What the review picture shows, for screen readers: the moves, then the table."""
    seats = list(names) if names else [voice(_("Player {number}", number=n + 1)) for n in (0, 1)]
    player = seats[seat]
    said = played_words(player, played, best, played == best)
    return fit(f"{voice(said)} {patchwork_table(view, seats, voice)}")


def reason_words(reason: str | None, values: dict) -> Words:
    """Why the better move is better, in one line (games/patchwork/review.py's reasons)."""
    if reason == "bonus_missed":
        return _("The better move completes a 7x7 square: the bonus is worth {points} points.",
                 points=values.get("points", 7))
    if reason == "blocks_7x7":
        return _("This placement leaves a one-square hole in every 7x7 area of the quilt; "
                 "the better move keeps the 7x7 bonus within reach.")
    if reason == "holes":
        return n_("This placement leaves {n} more one-square hole, which only a leather "
                  "patch can fill.", "This placement leaves {n} more one-square holes, which "
                  "only leather patches can fill.", int(values.get("holes", 1)))
    if reason == "placement":
        return _("The same patch, placed where the empty squares stay easier to fill.")
    if reason == "pass_better":
        return n_("Passing was better: it earns {n} button.",
                  "Passing was better: it earns {n} buttons.", int(values.get("buttons", 0)))
    if reason == "buttons":
        return n_("The better patch earns {n} more button at each income space.",
                  "The better patch earns {n} more buttons at each income space.",
                  int(values.get("more", 0)))
    if reason == "time":
        return n_("The better patch moves you {n} space less along the time track.",
                  "The better patch moves you {n} spaces less along the time track.",
                  int(values.get("spaces", 0)))
    if reason == "squares":
        return n_("The better patch covers {n} more square of the quilt.",
                  "The better patch covers {n} more squares of the quilt.",
                  int(values.get("squares", 0)))
    return _("The better move leads to a better final score.")


__all__ = ["reason_words", "review_alt", "review_png"]
