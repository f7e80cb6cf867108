"""Reversi in words: the engine's events, refusals and outcomes, which it gives as keys and
plain values, worded here for a reader's voice."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import games.reversi as reversi
from bot.matches.model import Match, player_name
from bot.ui.present import mention
from games.common import Event, GameError, quoted
from i18n import Text, Words, _, n_

COLOUR_NAME = {reversi.BLACK: _("Black"), reversi.WHITE: _("White")}


def your_move(colour: str, passed: bool, **values: object) -> Text:
    """The line that asks the seat to move (after the other seat was made to pass)."""
    if passed:
        if colour == reversi.BLACK:
            return _("{player}, {other} has no legal move, so it is your move as black: "
                     "`/reversi move`.", **values)
        return _("{player}, {other} has no legal move, so it is your move as white: "
                 "`/reversi move`.", **values)
    if colour == reversi.BLACK:
        return _("{player}, your move as black: `/reversi move`.", **values)
    return _("{player}, your move as white: `/reversi move`.", **values)


def result_line(match: Match, view: reversi.View) -> Text:
    """The board's last words on a game: who won, and how."""
    result = view.outcome
    tally = {"black": view.black_count, "white": view.white_count}
    if result.draw:
        return _("**Game over.** A draw, {black}-{white} (black-white).", **tally)
    winner = mention(match, result.winners[0])
    if result.reason == reversi.RESIGNED:
        return _("**Game over.** {winner} wins: {loser} resigned.", winner=winner,
                 loser=player_name(match.player(1 - result.winners[0])))
    if result.reason == reversi.BOARD_FULL:
        return _("**Game over.** {winner} wins {black}-{white} (black-white): the board is "
                 "full.", winner=winner, **tally)
    return _("**Game over.** {winner} wins {black}-{white} (black-white): neither player "
             "can move.", winner=winner, **tally)


def event_words(event: Event, names: Mapping[str, Words]) -> Words | None:
    """A Reversi event in words; `names` are the players' names as `seat0`, `seat1` (None:
    not one of Reversi's kinds of event)."""
    values = event.values
    if event.kind == "start":
        return _("{black} plays black and moves first; {white} plays white.",
                 black=names[f"seat{values['black']}"], white=names[f"seat{values['white']}"])
    player = names.get(f"seat{event.seat}", "")
    if event.kind == "move":
        if values["colour"] == reversi.BLACK:
            return n_("{player} (black) played {square}, flipping {n} disc.",
                      "{player} (black) played {square}, flipping {n} discs.",
                      values["flipped"], player=player, square=values["square"])
        return n_("{player} (white) played {square}, flipping {n} disc.",
                  "{player} (white) played {square}, flipping {n} discs.",
                  values["flipped"], player=player, square=values["square"])
    if event.kind == "pass":
        return _("{player} has no legal move and passes.", player=player)
    if event.kind == "resign":
        return _("{player} resigned.", player=player)
    if event.kind == "end":
        return end_text(names, values)
    return None


def end_text(names: Mapping[str, Words], values: Mapping[str, Any]) -> Text:
    """The `end` event: why the game ended, the counts, and who won with which colour."""
    full = values["reason"] == reversi.BOARD_FULL
    tally = {"black": values["black"], "white": values["white"]}
    if values["winner"] is None:
        if full:
            return _("Game over, the board is full: a draw, {black}-{white} (black-white).",
                     **tally)
        return _("Game over, neither player can move: a draw, {black}-{white} "
                 "(black-white).", **tally)
    winner = names[f"seat{values['winner']}"]
    if values["colour"] == reversi.BLACK:
        if full:
            return _("Game over, the board is full: {winner} (black) wins {black}-{white} "
                     "(black-white).", winner=winner, **tally)
        return _("Game over, neither player can move: {winner} (black) wins "
                 "{black}-{white} (black-white).", winner=winner, **tally)
    if full:
        return _("Game over, the board is full: {winner} (white) wins {black}-{white} "
                 "(black-white).", winner=winner, **tally)
    return _("Game over, neither player can move: {winner} (white) wins {black}-{white} "
             "(black-white).", winner=winner, **tally)


def error_words(error: GameError) -> Words | None:
    """The engine's errors (`reversi.<what>`) in words (None: not one of Reversi's)."""
    values = error.values
    key = error.key
    if key == "reversi.not_a_square":
        return _("{text} is not a square: give a column a-h and a row 1-8, like d3.",
                 text=quoted(values["text"]))
    if key == "reversi.off_board":
        return _("{text} is off the board: squares run from a1 to h8.",
                 text=quoted(values["text"]))
    if key == "reversi.off_board_index":
        return _("{square} is off the board: squares run from 0 (a1) to 63 (h8).",
                 square=quoted(values["square"]))
    if key == "reversi.occupied":
        if values["colour"] == reversi.BLACK:
            return _("{square} is already taken by a black disc: play on an empty square.",
                     square=values["square"])
        return _("{square} is already taken by a white disc: play on an empty square.",
                 square=values["square"])
    if key == "reversi.no_flip":
        legal = ", ".join(values["legal"])
        if values["colour"] == reversi.BLACK:
            return _("A disc on {square} would not outflank any black disc: it must close a "
                     "straight line of black discs against one of yours. Your legal "
                     "squares: {legal}.", square=values["square"], legal=legal)
        return _("A disc on {square} would not outflank any white disc: it must close a "
                 "straight line of white discs against one of yours. Your legal squares: "
                 "{legal}.", square=values["square"], legal=legal)
    if key == "reversi.not_your_turn":
        if values.get("colour") == reversi.BLACK:
            return _("It is not your turn: you play black.")
        if values.get("colour") == reversi.WHITE:
            return _("It is not your turn: you play white.")
        return _("It is not your turn.")
    if key == "reversi.not_a_move":
        return _("{move} is not a Reversi move: name a square, like d3.",
                 move=values["move"])
    if key == "reversi.no_seat":
        return _("There is no seat {seat} in this game.", seat=values["seat"])
    if key == "reversi.over":
        return _("The game is over.")
    if key == "reversi.no_legal_move":
        return _("You have no legal move, so the game passes for you.")
    return None
