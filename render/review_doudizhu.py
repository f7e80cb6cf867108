"""A Dou Dizhu turn under review, as a picture and in words (render/review.py).

The picture, 600 px wide and at most 1.5 times as tall (render/phone.py): what the turn was
(who was to bid, lead or beat what) and the stake; the players with their cards left; the play
to beat, if any; the mover's hand before the turn, drawn as render/doudizhu.py draws cards,
with the cards of the move played outlined in orange with a dot under each, and those of the
better move outlined in green with a square under each (shapes as well as colours, for
colour-blind eyes); and a legend saying which is which. A bid or a pass marks no card: the
legend says it.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from PIL import Image, ImageDraw

import games.doudizhu as dd
from games.doudizhu import View
from i18n import ENGLISH_VOICE, Voice, Words, _, lines, p_
from render.alt import doudizhu_cards, fit
from render.doudizhu import CARD, FELT, FELT_EDGE, card_size, draw_card
from render.doudizhu_words import describe
from render.fonts import draw_text
from render.phone import WIDTH
from render.png import SCALE, finish
from render.replay import CAPTION_H, TEXT, TITLE, fitted
from render.replay_words import stake_words

PLAYED = (255, 140, 40)   # the move played: orange outline, a dot under each card
BETTER = (90, 230, 120)   # the better move: green outline, a square under each card
INK = (246, 244, 236)
SOFT = (196, 206, 198)
MARGIN = 14
SEAT_H = 28               # a player's line
HAND_CARD, HAND_STEP = 72, (44, 60)   # the hand: card width, closest and widest overlap
BEAT_CARD, BEAT_STEP = 68, (34, 52)   # the play to beat (its corner text still 20 px)
BAND = 22                 # under each row of the hand: the marks
MARK = 16                 # a mark's size
LEGEND_ROW = 36
LABEL_H = 34              # the hand's label
TURN = "\N{BLACK RIGHT-POINTING TRIANGLE}"


def review_png(view: View, seat: int, played: str, best: str, voice: Voice = ENGLISH_VOICE,
               names: Sequence[str] | None = None) -> bytes:
    """The turn (`view`: `engine.view(before, seat)`) with `played` and `best` (actions as
    the move log writes them) marked in the hand, and the legend, worded by `voice`."""
    who = _names(view, names, voice)
    parts = [_caption(voice(situation_words(view, who)), voice(stake_words(view))),
             _seats(view, seat, who, voice)]
    if view.to_beat is not None:
        parts.append(_to_beat(view, voice))
    same = played == best
    marks = {PLAYED: () if same else _cards_of(view, played), BETTER: _cards_of(view, best)}
    parts.append(_hand(view.hand, marks, voice, voice(_("Hand before the turn"))))
    parts.append(_legend(view, played, best, voice))
    picture = Image.new("RGB", (WIDTH * SCALE, sum(part.height for part in parts)), FELT)
    y = 0
    for part in parts:
        picture.paste(part, (0, y))
        y += part.height
    return finish(picture)


def review_alt(view: View, seat: int, played: str, best: str, voice: Voice = ENGLISH_VOICE,
               names: Sequence[str] | None = None) -> str:
    """What the picture shows, for screen readers: the moves, the turn, the hand."""
    who = _names(view, names, voice)
    player = who[seat]
    if played == best:
        said: Words = _("Review of {player}'s turn: {move}, the best move.", player=player,
                        move=move_words(view, played))
    else:
        said = _("Review of {player}'s turn: {move}; better: {best}.", player=player,
                 move=move_words(view, played), best=move_words(view, best))
    turn = lines((situation_words(view, who), stake_words(view)), "; ")
    hand = doudizhu_cards(view.hand, _("{player}'s hand", player=player), voice)
    return fit(f"{voice(said)} {voice(turn)}. {hand}")


def reason_words(reason: str | None, values: dict[str, Any]) -> Words:
    """Why the better move is better, in one line (games/doudizhu/review.py's reasons)."""
    play = values.get("play", "")
    if reason == "pass_could_win":
        return _("Playing {play} would have taken the last cards and won the round.",
                 play=play)
    if reason == "out_missed":
        return _("{play} would have taken the last cards and won the round at once.",
                 play=play)
    if reason == "bomb_early":
        if values.get("type") == dd.ROCKET:
            return _("The rocket was spent too early: the better move keeps it.")
        return _("The bomb {play} was spent too early: the better move keeps it.", play=play)
    if reason == "partner_beaten":
        return _("This beat the partner's play, which was winning the trick: letting it "
                 "stand was better.")
    if reason == "broke_chain":
        return _("This broke up {chain} in the hand; the better move keeps it whole.",
                 chain=values.get("chain", ""))
    if reason == "bid_too_high":
        if not values.get("bid"):
            return _("The hand was not strong enough to bid: passing was better.")
        return _("Bidding {best} was better than bidding {played}.", best=values["bid"],
                 played=values.get("played", ""))
    if reason == "bid_too_low":
        if not values.get("played"):
            return _("The hand was strong enough to bid {best}.", best=values.get("bid", ""))
        return _("Bidding {best} was better than bidding {played}.", best=values.get("bid", ""),
                 played=values["played"])
    return _("The better move wins the round more often.")


# -- words ---------------------------------------------------------------------------------


def move_words(view: View, text: str) -> Words | str:
    """An action as the move log writes it, in words: `33344 (trio with a pair)`, `pass`,
    `bid 2`, `no bid`."""
    move = dd.parse_move(text)
    if isinstance(move, dd.Bid) or (isinstance(move, dd.Pass) and view.phase == dd.AUCTION):
        amount = move.amount if isinstance(move, dd.Bid) else 0
        return _("bid {amount}", amount=amount) if amount else _("no bid")
    if isinstance(move, dd.Play):
        combo = dd.classify(move.ranks, view.players)
        if combo is not None:
            return _("{play} ({what})", play=str(combo), what=describe(combo.type, combo.size))
        return str(move)
    return p_("trick", "pass")


def situation_words(view: View, who: Sequence[str]) -> Words:
    """What the turn was: to bid, to lead, or to beat a play (the mover is marked in the
    list of players: long names would crowd out the play)."""
    if view.phase == dd.AUCTION:
        return _("Turn to bid")
    if view.to_beat is None:
        return _("Turn to lead")
    return _("Turn to beat {play}, played by {other}", play=view.to_beat.text,
             other=who[view.to_beat.seat])


def _names(view: View, names: Sequence[str] | None, voice: Voice) -> list[str]:
    given = list(names or ())
    return [given[seat] if seat < len(given) else voice(_("Player {number}", number=seat + 1))
            for seat in range(view.players)]


# -- the cards of a move -------------------------------------------------------------------


def _cards_of(view: View, text: str) -> tuple[str, ...]:
    """The cards of the hand a play takes (as the engine picks them: the first of each rank
    in the sorted hand); none for a bid or a pass."""
    move = dd.parse_move(text)
    if not isinstance(move, dd.Play):
        return ()
    wanted = list(move.ranks)
    picked = []
    for card in view.hand:
        if card[0] in wanted:
            wanted.remove(card[0])
            picked.append(card)
    return tuple(picked)


# -- the parts of the picture, each drawn at SCALE times its final size ----------------------


def _canvas(height: int, colour: tuple[int, int, int] = FELT) -> tuple[Image.Image,
                                                                        ImageDraw.ImageDraw]:
    image = Image.new("RGB", (WIDTH * SCALE, height * SCALE), colour)
    return image, ImageDraw.Draw(image)


def _write(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
           room: float, *, fill: tuple[int, int, int], anchor: str = "lm",
           bold: bool = True) -> None:
    """One line of `text` fitted into `room` (render/replay.py's `fitted`: smaller, then
    condensed, then cut short), in final pixels."""
    text, px, condensed = fitted(text, size * SCALE, room * SCALE, smallest=TEXT * SCALE)
    draw_text(draw, (xy[0] * SCALE, xy[1] * SCALE), text, px, fill=fill, anchor=anchor,
              bold=bold, condensed=condensed)


def _caption(first: str, second: str) -> Image.Image:
    """What the turn was, and the stake."""
    image, draw = _canvas(CAPTION_H, FELT_EDGE)
    _write(draw, (12, 20), first, TITLE, WIDTH - 24, fill=INK)
    _write(draw, (12, 46), second, TEXT, WIDTH - 24, fill=SOFT, bold=False)
    return image


def _seats(view: View, seat: int, who: Sequence[str], voice: Voice) -> Image.Image:
    """A line a player: the mover marked, the landlord named, the cards left on a card."""
    image, draw = _canvas(SEAT_H * view.players + 8)
    for other in range(view.players):
        y = 4 + other * SEAT_H + SEAT_H / 2
        if other == seat:
            _write(draw, (MARGIN, y), TURN, TEXT, 30, fill=INK)
        name: Words | str = who[other]
        if other == view.landlord:
            name = _("{player} (landlord)", player=who[other])
        _write(draw, (40, y), voice(name), TEXT, WIDTH - 150, fill=INK)
        left = WIDTH - MARGIN - 60
        draw.rounded_rectangle([v * SCALE for v in (left, y - 12, left + 60, y + 12)],
                               radius=5 * SCALE, fill=CARD)
        _write(draw, (left + 30, y), str(view.hand_counts[other]), TEXT, 56,
               fill=(28, 28, 34), anchor="mm")
    return image


def _to_beat(view: View, voice: Voice) -> Image.Image:
    """The play to beat under its label, in one row or two (the longest play, 30 cards,
    takes two)."""
    assert view.to_beat is not None
    cards = dd.sort_cards(list(view.to_beat.cards))
    room = WIDTH - 2 * MARGIN
    per_row = min(len(cards), (room - BEAT_CARD) // BEAT_STEP[0] + 1)
    rows = -(-len(cards) // per_row)
    step = _step(per_row, BEAT_CARD, BEAT_STEP, room)
    size = card_size(BEAT_CARD, step, voice)
    row_gap = round(size.height * 0.56)  # a later row covers the lower part of the one above
    image, draw = _canvas(LABEL_H + size.height + row_gap * (rows - 1) + 10)
    _write(draw, (MARGIN, LABEL_H / 2 + 2), voice(_("To beat")), TEXT, room, fill=INK)
    for row in range(rows):
        line_cards = cards[row * per_row:(row + 1) * per_row]
        left = (WIDTH - BEAT_CARD - step * (len(line_cards) - 1)) // 2
        for index, card in enumerate(line_cards):
            draw_card(draw, card, left + index * step, LABEL_H + row * row_gap, size,
                      last=row == rows - 1 and index == len(line_cards) - 1)
    return image


def _step(count: int, width: int, steps: tuple[int, int], room: int) -> int:
    """The overlap that fits `count` cards in `room` px (never closer than the least)."""
    least, most = steps
    if count <= 1:
        return most
    return max(least, min(most, (room - width) // (count - 1)))


def _hand(hand: Sequence[str], marks: Mapping[tuple[int, int, int], Sequence[str]],
          voice: Voice, label: str) -> Image.Image:
    """The hand under its `label`, in rows that do not overlap (three at most: 33 cards),
    each marked card outlined in its move's colour and its mark under it."""
    cards = dd.sort_cards(list(hand))
    room = WIDTH - 2 * MARGIN
    rows = 1
    while rows < 4 and HAND_CARD + (-(-len(cards) // rows) - 1) * HAND_STEP[0] > room:
        rows += 1
    per_row = max(1, -(-len(cards) // rows))
    step = _step(per_row, HAND_CARD, HAND_STEP, room)
    size = card_size(HAND_CARD, step, voice)
    row_h = size.height + BAND + 6
    image, draw = _canvas(LABEL_H + row_h * rows)
    _write(draw, (MARGIN, LABEL_H / 2 + 2), label, TEXT, room, fill=INK)
    left_over = {colour: list(chosen) for colour, chosen in marks.items()}
    for row in range(rows):
        line_cards = cards[row * per_row:(row + 1) * per_row]
        left = (WIDTH - HAND_CARD - step * (len(line_cards) - 1)) // 2
        top = LABEL_H + row * row_h
        for index, card in enumerate(line_cards):
            x = left + index * step
            draw_card(draw, card, x, top, size, last=index == len(line_cards) - 1)
            found = [colour for colour, chosen in left_over.items() if card in chosen]
            for colour in found:
                left_over[colour].remove(card)
            _outline(draw, x, top, size, found)
            _marks(draw, x, top + size.height + 4, found)
    return image


def _outline(draw: ImageDraw.ImageDraw, left: int, top: int, size: Any,
             colours: list[tuple[int, int, int]]) -> None:
    """Each move's colour round the card, one inside the other (a later card covers the
    right of it)."""
    for ring, colour in enumerate(colours):
        inset = ring * 4
        box = [(left + inset) * SCALE, (top + inset) * SCALE,
               (left + size.width - inset) * SCALE, (top + size.height - inset) * SCALE]
        draw.rounded_rectangle(box, radius=size.radius * SCALE, outline=colour, width=4 * SCALE)


def _marks(draw: ImageDraw.ImageDraw, left: int, top: float,
           colours: list[tuple[int, int, int]]) -> None:
    """Under a marked card's visible edge: a dot for the move played, a square for the
    better move."""
    x = left + 4
    for colour in colours:
        box = [x * SCALE, top * SCALE, (x + MARK) * SCALE, (top + MARK) * SCALE]
        if colour == PLAYED:
            draw.ellipse(box, fill=colour)
        else:
            draw.rectangle(box, fill=colour)
        x += MARK + 4


def _legend(view: View, played: str, best: str, voice: Voice) -> Image.Image:
    """What the marks mean: the move played, and the better move."""
    if played == best:
        rows = [(BETTER, _("Played: {move}, the best move", move=move_words(view, played)))]
    else:
        rows = [(PLAYED, _("Played: {move}", move=move_words(view, played))),
                (BETTER, _("Better: {move}", move=move_words(view, best)))]
    image, draw = _canvas(6 + LEGEND_ROW * len(rows) + 2, FELT_EDGE)
    for index, (colour, words) in enumerate(rows):
        y = 6 + index * LEGEND_ROW + LEGEND_ROW / 2
        _marks(draw, MARGIN - 4, y - MARK / 2, [colour])
        _write(draw, (MARGIN + MARK + 12, y), voice(words), TITLE if index == 0 else TEXT + 2,
               WIDTH - 2 * MARGIN - MARK - 12, fill=INK if index == 0 else colour)
    return image
