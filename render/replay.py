"""A match replayed as one animated GIF: a frame per logged action, each the public table after
it (the game's own picture of `engine.view(state, None)`: never a hand or a rack, whatever the
match's status) under a caption saying which move it was, who took it and what it did.

GIF, not animated WebP: Discord's phone apps play animated GIFs everywhere, while animated
WebP attachments are recent and not played in every client. Frames are written as they are
drawn (only the rectangle that changed, with its own palette), so a series of hundreds of
actions never holds more than two frames in memory and stays a few megabytes.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

from PIL import GifImagePlugin, Image, ImageChops, ImageDraw

from games.replay import Step
from i18n import Voice, Words, _, lines
from render.fonts import draw_text, text_length
from render.phone import SHOWN_WIDTH, WIDTH
from render.replay_words import DOT, move_line, scores_line, stake_words

MAX_BYTES = 10_000_000   # Discord's upload limit for a bot (10 MB), with no margin taken
FRAME_MS = 1200          # how long a move stays on screen in a short game
SHORTEST_MS = 500        # ... and in a long one, where the whole replay would last too long
WHOLE_MS = 120_000       # what a replay lasts at most before frames get shorter than FRAME_MS
LAST_MS = 5000           # the final position stays longer before the replay loops
CAPTION_H = 62           # the caption strip above a board: two lines
TITLE = 24               # px: the caption's first line (12 px on a phone, render/phone.py)
TEXT = 20                # px: the smallest text (10 px on a phone)
CAPTION_INK = (246, 244, 236)
CAPTION_SOFT = (196, 206, 198)
ELLIPSIS = "\N{HORIZONTAL ELLIPSIS}"


def frame_ms(frames: int) -> int:
    """How long each frame but the last is shown: long replays play faster, never below
    SHORTEST_MS (a move must stay readable)."""
    return max(SHORTEST_MS, min(FRAME_MS, WHOLE_MS // max(1, frames)))


def frames(engine: Any, steps: Sequence[Step], names: Sequence[str],
           voice: Voice) -> Iterator[Image.Image]:
    """One RGB picture per step: the public table after it under its caption."""
    table = TABLES[engine.NAME]
    for step in steps:
        view = engine.view(step.after, None)  # the public view only: nothing hidden leaks
        caption = voice(move_line(engine.NAME, step, view, len(steps), names))
        yield table(view, caption, names, voice)


class ReplayTooLarge(ValueError):
    """Even drawn as narrow as a phone shows it, the replay would not fit in `max_bytes`."""


def animation(engine: Any, steps: Sequence[Step], names: Sequence[str], voice: Voice, *,
              max_bytes: int = MAX_BYTES) -> bytes:
    """The replay as GIF bytes: one frame per step, the last one held longer. A replay over
    `max_bytes` is drawn again smaller: a phone shows it 300 px wide either way (text as
    large, a little less sharp), so it may shrink down to that."""
    if not steps:
        raise ValueError("a replay needs at least one step")
    scale = 1.0
    while True:
        gif = write_gif(frames(engine, steps, names, voice), len(steps), scale=scale)
        if len(gif) <= max_bytes:
            return gif
        if scale * WIDTH <= SHOWN_WIDTH:
            raise ReplayTooLarge(f"{len(steps)} frames take {len(gif)} bytes at the smallest")
        scale = max(SHOWN_WIDTH / WIDTH, scale * 0.9 * (max_bytes / len(gif)) ** 0.5)


# -- the tables ------------------------------------------------------------------------------


def _open(png: bytes) -> Image.Image:
    return Image.open(io.BytesIO(png)).convert("RGB")


def fitted(text: str, size: int, room: float, smallest: int = TEXT) -> tuple[str, int, bool]:
    """`text` at `size` if it fits `room` px, else at `smallest`, then condensed (the third
    value), then cut short with an ellipsis. Few sizes: each size of the Chinese font costs
    tens of megabytes once loaded."""
    for px, condensed in ((size, False), (smallest, False), (smallest, True)):
        if text_length(text, px, condensed=condensed) <= room:
            return text, px, condensed
    while text and text_length(text + ELLIPSIS, smallest, condensed=True) > room:
        text = text[:-1]
    return text.rstrip() + ELLIPSIS, smallest, True


def line(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, size: int,
         room: float, *, fill: tuple[int, int, int], anchor: str = "lm",
         bold: bool = True) -> None:
    """One line of `text` fitted into `room` px (see `fitted`)."""
    text, size, condensed = fitted(text, size, room)
    draw_text(draw, xy, text, size, fill=fill, anchor=anchor, bold=bold, condensed=condensed)


def caption_strip(first: str, second: str, background: tuple[int, int, int],
                  width: int = WIDTH) -> Image.Image:
    """Two lines over a board: the move, then how the game stands."""
    strip = Image.new("RGB", (width, CAPTION_H), background)
    draw = ImageDraw.Draw(strip)
    line(draw, (12, 20), first, TITLE, width - 24, fill=CAPTION_INK)
    line(draw, (12, 46), second, TEXT, width - 24, fill=CAPTION_SOFT, bold=False)
    return strip


def stacked(top: Image.Image, *rest: Image.Image,
            background: tuple[int, int, int]) -> Image.Image:
    """Pictures one under the other, centred, on `background`."""
    parts = (top, *rest)
    width = max(part.width for part in parts)
    out = Image.new("RGB", (width, sum(part.height for part in parts)), background)
    y = 0
    for part in parts:
        out.paste(part, ((width - part.width) // 2, y))
        y += part.height
    return out


def _reversi(view: Any, caption: str, names: Sequence[str], voice: Voice) -> Image.Image:
    from render.reversi import BACKGROUND, render_board

    black, white = view.black_seat, 1 - view.black_seat
    standing = voice(_("Reversi: {black} vs {white}", black=names[black], white=names[white]))
    return stacked(caption_strip(caption, standing, BACKGROUND),
                   _open(render_board(view, voice)), background=BACKGROUND)


def _scrabble(view: Any, caption: str, names: Sequence[str], voice: Voice) -> Image.Image:
    from i18n import n_
    from render.scrabble import FRAME, render_board

    order = view.order
    standing = voice(scores_line([names[seat] for seat in order],
                                 [view.scores[seat] for seat in order],
                                 n_("{n} tile left", "{n} tiles left", view.bag)))
    return stacked(caption_strip(caption, standing, FRAME),
                   _open(render_board(view, voice)), background=FRAME)


def _patchwork(view: Any, caption: str, names: Sequence[str], voice: Voice) -> Image.Image:
    """The table with its own header's second line (why that player moves) given to the
    caption: a caption strip above it would make the picture too tall for a phone."""
    from render.patchwork import HEADER, HEADER_H, HEADER_TEXT, render_game

    image = _open(render_game(view, list(names), voice))
    draw = ImageDraw.Draw(image)
    draw.rectangle((0, 34, image.width, HEADER_H - 1), fill=HEADER)
    line(draw, (12, 47), caption, TEXT, image.width - 24, fill=HEADER_TEXT)
    return image


SEAT_H = 36     # a player's row at the Dou Dizhu table
PLAY_H = 254    # two rows of played cards (20): every Dou Dizhu frame is as tall
TURN = "\N{BLACK RIGHT-POINTING TRIANGLE}"


def _doudizhu(view: Any, caption: str, names: Sequence[str], voice: Voice) -> Image.Image:
    """The players (cards left, the landlord, who is to act, the ledger) over the last cards
    played: the public table of the live post."""
    from render.doudizhu import FELT, render_play

    if view.deals is None:
        title = _("Dou Dizhu \N{MIDDLE DOT} round {round}", round=view.round_no)
    else:  # a series of a fixed number of rounds
        title = _("Dou Dizhu \N{MIDDLE DOT} deal {deal} of {deals}", deal=view.round_no,
                  deals=view.deals)
    standing = voice(lines((title, stake_words(view)), DOT))
    shown = next((entry for entry in reversed(view.trick) if entry.cards), None)
    play = _open(render_play(shown.cards if shown else (), voice))
    room = Image.new("RGB", (WIDTH, max(PLAY_H, play.height)), FELT)  # every frame as tall
    room.paste(play, ((WIDTH - play.width) // 2, 0))
    return stacked(caption_strip(caption, standing, (20, 70, 45)), _seats(view, names, voice),
                   room, background=FELT)


def _seats(view: Any, names: Sequence[str], voice: Voice) -> Image.Image:
    from render.doudizhu import CARD, FELT, RED

    panel = Image.new("RGB", (WIDTH, SEAT_H * view.players + 8), FELT)
    draw = ImageDraw.Draw(panel)
    for seat in range(view.players):
        y = 4 + seat * SEAT_H + SEAT_H / 2
        if seat == view.turn:
            draw_text(draw, (14, y), TURN, TEXT, fill=CARD, anchor="lm")
        name: Words | str = names[seat]
        if seat == view.landlord:
            name = _("{player} (landlord)", player=names[seat])
        line(draw, (40, y), voice(name), TEXT, WIDTH - 200, fill=CARD)
        left = WIDTH - 150  # the cards left, on a small card
        draw.rounded_rectangle((left, y - 14, left + 44, y + 14), radius=5, fill=CARD)
        draw_text(draw, (left + 22, y), str(view.hand_counts[seat]), TEXT, fill=RED
                  if view.hand_counts[seat] <= 2 else (28, 28, 34), anchor="mm")
        draw_text(draw, (WIDTH - 14, y), f"{view.ledger[seat]:+d}", TEXT, fill=CARD,
                  anchor="rm")
    return panel


TABLES: dict[str, Callable[[Any, str, Sequence[str], Voice], Image.Image]] = {
    "reversi": _reversi, "scrabble": _scrabble, "patchwork": _patchwork,
    "doudizhu": _doudizhu,
}


# -- the GIF ---------------------------------------------------------------------------------


def write_gif(pictures: Iterable[Image.Image], count: int, *, scale: float = 1.0) -> bytes:
    """`count` RGB pictures as a looping GIF, written as they come: the first whole, then
    each as the rectangle that changed (disposal 1 keeps the rest), its unchanged pixels
    transparent, with its own palette; a frame of another size is fitted to the first's.
    With `scale` below 1 every picture is shrunk first."""
    out = io.BytesIO()
    previous: Image.Image | None = None
    ms = frame_ms(count)
    for index, picture in enumerate(pictures):
        if scale < 1.0:
            picture = picture.resize((round(picture.width * scale),
                                      round(picture.height * scale)), Image.Resampling.BOX)
        if previous is not None and picture.size != previous.size:
            picture = _padded(picture, previous)
        patch, box, clear = _patch(picture, previous)
        if previous is None:
            header, _used = GifImagePlugin.getheader(patch, info={"loop": 0, "duration": ms})
            out.write(b"".join(header))
        params = {"duration": LAST_MS if index == count - 1 else ms, "disposal": 1,
                  "include_color_table": True}
        if clear is not None:
            params["transparency"] = clear
        out.writelines(GifImagePlugin.getdata(patch, offset=box[:2], **params))
        previous = picture
    out.write(b";")
    return out.getvalue()


def _patch(picture: Image.Image, previous: Image.Image | None,
           ) -> tuple[Image.Image, tuple[int, int, int, int], int | None]:
    """What a frame adds to the one before: the changed rectangle in at most 255 colours and
    the palette index of its unchanged pixels (None: the first frame, drawn whole)."""
    if previous is None:
        return _quantized(picture, 256), (0, 0, *picture.size), None
    difference = ImageChops.difference(picture, previous)
    box = difference.getbbox() or (0, 0, 1, 1)  # an unchanged frame still counts as one
    patch = _quantized(picture.crop(box), 255)
    palette = patch.getpalette() or []
    clear = len(palette) // 3
    patch.putpalette(palette + [0, 0, 0])
    red, green, blue = difference.crop(box).split()
    changed = ImageChops.lighter(ImageChops.lighter(red, green), blue)
    patch.paste(clear, mask=changed.point([255] + [0] * 255, "L"))
    return patch, box, clear


def _quantized(image: Image.Image, colours: int) -> Image.Image:
    return image.quantize(colours, method=Image.Quantize.FASTOCTREE, dither=Image.Dither.NONE)


def _padded(picture: Image.Image, like: Image.Image) -> Image.Image:
    """`picture` on a canvas the size of `like` (the first frame's, the largest but for a
    rare outsize play): shrunk first if it is larger, then padded with its bottom colour."""
    if picture.width > like.width or picture.height > like.height:
        picture = picture.copy()
        picture.thumbnail(like.size, Image.Resampling.LANCZOS)
    canvas = Image.new("RGB", like.size, picture.getpixel((0, picture.height - 1)))
    canvas.paste(picture, ((like.width - picture.width) // 2, 0))
    return canvas
