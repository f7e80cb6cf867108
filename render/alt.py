"""What each image shows, in words: the alt text screen readers read out for a board, a rack
or a hand (Discord's attachment description). Pure text from the same views the images are
drawn from; `names` are the players' names by seat."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.patchwork import PatchInfo, PatchworkView
from games.reversi import View as ReversiView
from games.reversi import square_name
from games.scrabble import View as ScrabbleView
from games.scrabble import COLUMNS
from i18n import ENGLISH_VOICE, Voice, Words, _
from render.doudizhu import cards_words
from render.patchwork import drawn_to_start

LIMIT = 1024  # characters Discord keeps of an attachment description


def fit(text: str) -> str:
    return text if len(text) <= LIMIT else text[:LIMIT - 1] + "…"


def count(number: int, thing: str) -> str:
    return f"{number} {thing}" + ("" if number == 1 else "s")


def reversi_board(view: ReversiView, names: Sequence[str]) -> str:
    colours = {"B": ("Black", view.black_seat), "W": ("White", 1 - view.black_seat)}
    parts = ["Reversi board."]
    for code, (colour, seat) in colours.items():
        squares = [square_name(i) for i, cell in enumerate(view.cells) if cell == code]
        parts.append(f"{colour}, {names[seat]}, {count(len(squares), 'disc')}: {', '.join(squares)}.")
    if view.last_move is not None:
        parts.append(f"Last move {square_name(view.last_move)}.")
    if view.to_move is not None:
        legal = ", ".join(square_name(i) for i in view.legal)
        parts.append(f"{names[view.to_move]} to move as {view.to_move_colour}: {legal}.")
    return fit(" ".join(parts))


def _runs(line: str) -> Iterable[tuple[int, str]]:
    """(start, word) for every run of two or more tiles in a row or column of the board."""
    start = None
    for index, char in enumerate(line + "."):
        if char != "." and start is None:
            start = index
        elif char == "." and start is not None:
            if index - start >= 2:
                yield start, line[start:index]
            start = None


def scrabble_board(view: ScrabbleView) -> str:
    rows = view.board
    words = [f"{COLUMNS[col]}{row + 1} across {word}"
             for row, line in enumerate(rows) for col, word in _runs(line)]
    columns = ["".join(line[col] for line in rows) for col in range(len(rows))]
    words += [f"{COLUMNS[col]}{row + 1} down {word}"
              for col, line in enumerate(columns) for row, word in _runs(line)]
    if not words:
        return "Scrabble board, empty: the first word must cover the centre star, H8."
    return fit("Scrabble board; words by first square (lower case: a blank): "
               + ", ".join(words) + ".")


def scrabble_rack(tiles: str) -> str:
    letters = " ".join("blank" if tile == "?" else tile for tile in tiles)
    return f"Your rack, {count(len(tiles), 'tile')}: {letters}."


def _patch(patch: PatchInfo) -> str:
    return (f"{count(patch.size, 'square')}, costs {count(patch.cost, 'button')} and "
            f"{patch.time} time, income {patch.income}")


def patchwork_table(view: PatchworkView, names: Sequence[str]) -> str:
    parts = ["Patchwork table."]
    for player in view.players:
        bonus = ", holds the 7x7 bonus" if view.bonus_seat == player.seat else ""
        parts.append(f"{names[player.seat]}: {count(player.buttons, 'button')}, income "
                     f"{player.income}, time track {player.position} of {view.track_end}, "
                     f"{count(player.quilt.empty, 'empty square')}, score now {player.score}{bonus}.")
    if view.turn is not None:
        why = "drawn to start" if drawn_to_start(view) else view.turn_reason
        parts.append(f"{names[view.turn]} to move ({why}).")
    offer = "; ".join(f"{number}: {_patch(patch)}"
                      for number, patch in enumerate(view.offer, start=1))
    if offer:
        parts.append(f"On offer: {offer}.")
    parts.append(f"{len(view.circle)} patches left in the circle.")
    return fit(" ".join(parts))


def doudizhu_cards(cards: Iterable[str], whose: Words | str,
                   voice: Voice = ENGLISH_VOICE) -> str:
    """Dou Dizhu cards read out low to high after `whose` they are (`Your hand`)."""
    return fit(voice(_("{whose}: {cards}.", whose=whose, cards=cards_words(cards))))
