"""What each image shows, in words: the alt text screen readers read out for a board, a rack
or a hand (Discord's attachment description). Pure text from the same views the images are
drawn from; `names` are the players' names by seat."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from games.patchwork import TURN_BEHIND, TURN_LEATHER, PatchInfo, PatchworkView
from games.reversi import View as ReversiView
from games.reversi import square_name
from games.scrabble import View as ScrabbleView
from games.scrabble import COLUMNS
from i18n import ENGLISH_VOICE, Text, Voice, Words, _, lines, n_
from render.doudizhu import cards_words
from render.patchwork import drawn_to_start

LIMIT = 1024  # characters Discord keeps of an attachment description


def fit(text: str) -> str:
    return text if len(text) <= LIMIT else text[:LIMIT - 1] + "…"


def count(number: int, thing: str) -> str:
    return f"{number} {thing}" + ("" if number == 1 else "s")


def reversi_board(view: ReversiView, names: Sequence[str],
                  voice: Voice = ENGLISH_VOICE) -> str:
    """Every disc by colour, the last move, and who moves where, worded by `voice`."""
    parts: list[Text] = [_("Reversi board.")]
    for code, seat in (("B", view.black_seat), ("W", 1 - view.black_seat)):
        squares = ", ".join(square_name(i) for i, cell in enumerate(view.cells) if cell == code)
        n = view.cells.count(code)
        if code == "B":
            parts.append(n_("Black, {player}, {n} disc: {squares}.",
                            "Black, {player}, {n} discs: {squares}.", n,
                            player=names[seat], squares=squares))
        else:
            parts.append(n_("White, {player}, {n} disc: {squares}.",
                            "White, {player}, {n} discs: {squares}.", n,
                            player=names[seat], squares=squares))
    if view.last_move is not None:
        parts.append(_("Last move {square}.", square=square_name(view.last_move)))
    if view.to_move is not None:
        legal = ", ".join(square_name(i) for i in view.legal)
        player = names[view.to_move]
        if view.to_move_colour == "black":
            parts.append(_("{player} to move as black: {squares}.", player=player, squares=legal))
        else:
            parts.append(_("{player} to move as white: {squares}.", player=player, squares=legal))
    return fit(voice(lines(parts, " ")))


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


def scrabble_board(view: ScrabbleView, voice: Voice = ENGLISH_VOICE) -> str:
    """Every word on the board by its first square and direction, in `voice`."""
    rows = view.board
    words = [_("{square} across {word}", square=f"{COLUMNS[col]}{row + 1}", word=word)
             for row, line in enumerate(rows) for col, word in _runs(line)]
    columns = ["".join(line[col] for line in rows) for col in range(len(rows))]
    words += [_("{square} down {word}", square=f"{COLUMNS[col]}{row + 1}", word=word)
              for col, line in enumerate(columns) for row, word in _runs(line)]
    if not words:
        return voice(_("Scrabble board, empty: the first word must cover the centre star, H8."))
    return fit(voice(_("Scrabble board; words by first square (lower case: a blank): {words}.",
                       words=lines(words, ", "))))


def scrabble_rack(tiles: str, voice: Voice = ENGLISH_VOICE) -> str:
    """The tiles of a rack, in `voice`."""
    # TRANSLATORS: a blank tile, in the list of the tiles on a Scrabble rack.
    letters = lines((_("blank") if tile == "?" else tile for tile in tiles), " ")
    return voice(n_("Your rack, {n} tile: {letters}.", "Your rack, {n} tiles: {letters}.",
                    len(tiles), letters=letters))


def _patch(number: int, patch: PatchInfo) -> Words:
    return _("{number}: {squares}, costs {buttons} and {time} time, income {income}",
             number=number, squares=n_("{n} square", "{n} squares", patch.size),
             buttons=n_("{n} button", "{n} buttons", patch.cost), time=patch.time,
             income=patch.income)


def _patchwork_turn(view: PatchworkView, name: str) -> Words:
    """Who moves and why, as the table's alt text says it."""
    if drawn_to_start(view):
        return _("{player} to move (drawn to start).", player=name)
    if view.turn_reason == TURN_BEHIND:
        return _("{player} to move (behind).", player=name)
    if view.turn_reason == TURN_LEATHER:
        return _("{player} to move (leather placement).", player=name)
    return _("{player} to move (same space, arrived last).", player=name)


def patchwork_table(view: PatchworkView, names: Sequence[str],
                    voice: Voice = ENGLISH_VOICE) -> str:
    parts: list[Words] = [_("Patchwork table.")]
    for player in view.players:
        said = {"player": names[player.seat], "income": player.income,
                "buttons": n_("{n} button", "{n} buttons", player.buttons),
                "position": player.position, "end": view.track_end,
                "empty": n_("{n} empty square", "{n} empty squares", player.quilt.empty),
                "score": player.score}
        if view.bonus_seat == player.seat:
            parts.append(_("{player}: {buttons}, income {income}, time track {position} of "
                           "{end}, {empty}, score now {score}, holds the 7x7 bonus.", **said))
        else:
            parts.append(_("{player}: {buttons}, income {income}, time track {position} of "
                           "{end}, {empty}, score now {score}.", **said))
    if view.turn is not None:
        parts.append(_patchwork_turn(view, names[view.turn]))
    if view.offer:
        offer = lines((_patch(number, patch) for number, patch in enumerate(view.offer, 1)),
                      "; ")
        parts.append(_("On offer: {offer}.", offer=offer))
    parts.append(n_("{n} patch left in the circle.", "{n} patches left in the circle.",
                    len(view.circle)))
    return fit(voice(lines(parts, " ")))


def doudizhu_cards(cards: Iterable[str], whose: Words | str,
                   voice: Voice = ENGLISH_VOICE) -> str:
    """Dou Dizhu cards read out low to high after `whose` they are (`Your hand`)."""
    return fit(voice(_("{whose}: {cards}.", whose=whose, cards=cards_words(cards))))
