"""Patchwork in words: the engine's events and refusals, which it gives as keys and plain
values, worded here in any language (see i18n); the board's lines on whose move it is and on the
result; and why a purchase or a kind of move would be refused, for previews and commands."""

from __future__ import annotations

from collections.abc import Callable, Mapping
from typing import Any

import games.patchwork as patchwork
from bot.matches.model import Match, player_name
from games.common import Event, GameError, quoted, shown
from i18n import Text, Words, _, lines, listed, n_
from render.patchwork import drawn_to_start

PLACE_FIRST = _("you must place your leather patch first: use `/patchwork place` and a free "
                "square, e.g. `/patchwork place e5`")
NOT_YOUR_TURN = {  # why the other player moves (the engine's `why`), as a sentence
    patchwork.TURN_LEATHER: _("It is not your turn: the other player must place a leather "
                              "patch first."),
    patchwork.TURN_BEHIND: _("It is not your turn: the other player's time token is behind "
                             "yours, so they move."),
    "start": _("It is not your turn: the other player was drawn to start."),
    patchwork.TURN_ON_TOP: _("It is not your turn: your tokens share a space and the other "
                             "player's arrived last, so it is on top and moves."),
}


def orientation_words(name: str) -> Words | str:
    """An orientation as players read it: `90`, or `90 mirrored` in the reader's words."""
    degrees, _space, mirrored = name.partition(" ")
    return _("{degrees} mirrored", degrees=degrees) if mirrored else degrees


def _cannot_go(values: Mapping[str, object]) -> Text | None:
    """A purchase that does not fit the quilt (`patchwork.sticks_out` or `.overlap`)."""
    where = {"patch": values["patch"], "square": values["square"],
             "orientation": orientation_words(str(values["orientation"]))}
    past = values.get("past")
    if past == "column":
        return _("patch {patch} can't go on {square} turned {orientation}: it sticks out past "
                 "column i", **where)
    if past == "row":
        return _("patch {patch} can't go on {square} turned {orientation}: it sticks out past "
                 "row 9", **where)
    if past == "both":
        return _("patch {patch} can't go on {square} turned {orientation}: it sticks out past "
                 "column i and row 9", **where)
    if "squares" in values:
        return _("patch {patch} can't go on {square} turned {orientation}: it would cover "
                 "{squares}, already filled", squares=listed(values["squares"]), **where)
    return None


def error_words(error: GameError) -> Words | None:
    """A Patchwork engine error in words (None: not one of Patchwork's keys). Most are clauses
    that also fit in a preview's sentence; whose turn it is and the end are sentences."""
    key, values = error.key, error.values
    if not isinstance(key, str) or not key.startswith("patchwork."):
        return None
    what = key.partition(".")[2]
    typed = quoted(values.get("text", ""))
    if what == "not_your_turn":
        return NOT_YOUR_TURN.get(values.get("why"), NOT_YOUR_TURN[patchwork.TURN_ON_TOP])
    if what in ("sticks_out", "overlap"):
        return _cannot_go(values)
    if what == "place_first":
        return n_("you must place a leather patch first: write 'place' and a free square, "
                  "e.g. 'place e5'",
                  "you must place {n} leather patches first: write 'place' and a free square, "
                  "e.g. 'place e5'", values.get("count", 1))
    if what == "few_left":
        return n_("only {n} patch is left on offer; choose 1",
                  "only {n} patches are left on offer; choose 1-{n}", values.get("left", 1))
    words: dict[str, Callable[[], Words]] = {
        "over": lambda: _("The game is over."),
        "not_playing": lambda: _("seat {seat} is not playing in this game",
                                 seat=str(values.get("seat"))),
        "seats": lambda: _("Patchwork is a game for exactly 2 players, not {seats}",
                           seats=values.get("seats", 0)),
        "no_options": lambda: _("Patchwork has no options (got {options})",
                                options=shown(", ".join(values.get("options", ())))),
        "no_leather": lambda: _("you have no leather patch to place: buy a patch "
                                "('buy 1 0 a1') or 'pass'"),
        "not_a_move": lambda: _("{move} is not a Patchwork move: use 'buy 2 90m c4', 'pass' or "
                                "'place e5'", move=str(values.get("move", ""))),
        "finished": lambda: _("your time token is on the final space: you have no turns left "
                              "to buy with"),
        "place_yours_first": lambda: _("you must place your leather patch first"),
        "none_left": lambda: _("every patch has been bought: pass instead"),
        "too_dear": lambda: _("that patch costs {cost} buttons, you have {have}",
                              cost=values.get("cost", 0), have=values.get("have", 0)),
        "filled": lambda: _("{square} is already filled: place the leather patch on an empty "
                            "square", square=str(values.get("square", ""))),
        "bad_orientation": lambda: _("I can't read the orientation {text}: use 0, 90, 180 or 270 "
                                     "(clockwise turns), with m for the mirror image, e.g. 90m",
                                     text=typed),
        "bad_square": lambda: _("{text} is not a square of the quilt: use a column a-i and a row "
                                "1-9 (row 1 at the top), e.g. c4", text=typed),
        "bad_choice": lambda: _("you can only buy patch 1, 2 or 3 of those on offer, not "
                                "{choice}", choice=str(values.get("text", ""))),
        "not_a_buy": lambda: _("a purchase starts with 'buy', like 'buy 2 90m c4', not {text}",
                               text=typed),
        "short_buy": lambda: _("write a purchase as 'buy <1-3> <orientation> <square>', e.g. "
                               "'buy 2 90m c4' (patch 2 on offer, turned 90 degrees clockwise "
                               "and mirrored, top-left on c4)"),
        "choose_patch": lambda: _("choose patch 1, 2 or 3 of those on offer, not {text}",
                                  text=typed),
        "not_a_pass": lambda: _("to pass, write 'pass', not {text}", text=typed),
        "not_a_place": lambda: _("place a leather patch like 'place e5', not {text}", text=typed),
        "no_move": lambda: _("write a move: 'buy 2 90m c4', 'pass' or 'place e5'"),
        "unreadable": lambda: _("I can't read {text}: write 'buy 2 90m c4' (patch, orientation, "
                                "top-left square), 'pass', or 'place e5' for a leather patch",
                                text=typed),
    }
    word = words.get(what)
    return None if word is None else word()


def event_words(event: Event, names: Mapping[str, str]) -> Words | None:
    """A Patchwork engine event in words; `names` are the players' names as `seat0`, `seat1`
    (None: not one of Patchwork's kinds of event)."""
    values = event.values
    player = names.get(f"seat{event.seat}", "")
    kind = event.kind
    if kind == "start":
        return _("{player} was drawn to start.", player=player)
    if kind == "buy":
        return n_("{player} bought a {size}-square patch ({n} button, {time} time, {income} "
                  "income) and placed it on {square} (turned {orientation}).",
                  "{player} bought a {size}-square patch ({n} buttons, {time} time, {income} "
                  "income) and placed it on {square} (turned {orientation}).",
                  values["cost"], player=player, size=values["size"], time=values["time"],
                  income=values["income"], square=str(values["square"]),
                  orientation=orientation_words(str(values["orientation"])))
    if kind == "pass":
        return n_("{player} passed, moving {n} space and taking {n} button.",
                  "{player} passed, moving {n} spaces and taking {n} buttons.",
                  values["moved"], player=player)
    if kind == "income":
        return _income_words(player, values["space"], values["income"], values["final"])
    if kind == "leather":
        return _("{player} reached space {space} first and takes its leather patch.",
                 player=player, space=values["space"])
    if kind == "finish":
        return _("{player} reached the final space.", player=player)
    if kind == "place":
        return _("{player} placed a leather patch on {square}.", player=player,
                 square=str(values["square"]))
    if kind == "bonus":
        return _("{player} filled a 7x7 square first and takes the bonus tile (+{points}).",
                 player=player, points=values["points"])
    if kind == "lost":
        return _("{player}'s quilt is full, so the leather patch is set aside.", player=player)
    if kind == "end":
        a, b = values["scores"]
        scores = {"player0": names.get("seat0", ""), "score0": a,
                  "player1": names.get("seat1", ""), "score1": b, "winner": player}
        if values.get("tie_break"):
            return _("The game is over: {player0} {score0}, {player1} {score1}. {winner} wins "
                     "(tie broken: first to reach the final space).", **scores)
        return _("The game is over: {player0} {score0}, {player1} {score1}. {winner} wins.",
                 **scores)
    if kind == "again":
        if values.get("why") == patchwork.TURN_BEHIND:
            return _("{player} is still behind and moves again.", player=player)
        return _("{player} arrived last on the shared space and moves again.", player=player)
    if kind == "resign":
        return _("{player} resigned; {winner} wins.", player=player,
                 winner=names.get(f"seat{values.get('winner')}", ""))
    return None


def _income_words(player: str, space: int, income: int, final: bool) -> Words:
    if final and income:
        return n_("{player} crossed the final income space {space} and took {n} button of "
                  "income.",
                  "{player} crossed the final income space {space} and took {n} buttons of "
                  "income.", income, player=player, space=space)
    if final:
        return _("{player} crossed the final income space {space} and took no income (no "
                 "buttons on their quilt yet).", player=player, space=space)
    if income:
        return n_("{player} crossed the income space {space} and took {n} button of income.",
                  "{player} crossed the income space {space} and took {n} buttons of income.",
                  income, player=player, space=space)
    return _("{player} crossed the income space {space} and took no income (no buttons on "
             "their quilt yet).", player=player, space=space)


def to_move_words(view: patchwork.PatchworkView, player: str) -> Words:
    """Who moves and why, for the board's "To move" field."""
    if drawn_to_start(view):
        return _("{player}: they were drawn to start.", player=player)
    if view.turn_reason == patchwork.TURN_BEHIND:
        return _("{player}: their time token is behind.", player=player)
    if view.turn_reason == patchwork.TURN_LEATHER:
        return _("{player}: they reached a leather patch first and must place it.",
                 player=player)
    return _("{player}: both tokens share a space and theirs arrived last.", player=player)


def outcome_words(result, winner: str) -> Words:
    """The board's last words on a game won on points: `winner` (a mention) and the score."""
    scores = {"winner": winner, "score": result.scores[result.winners[0]],
              "other": result.scores[1 - result.winners[0]]}
    if result.reason == patchwork.TIE_BREAK:
        return _("**Game over.** {winner} wins {score} to {other} (tied score: the first to "
                 "reach the final space wins).", **scores)
    return _("**Game over.** {winner} wins {score} to {other} (highest score).", **scores)

def score_breakdown(match: Match, result: Any) -> Words:
    """The final score of each player, item by item, for the board's "Final score" field."""
    details = result.details
    rows: list[Words] = []
    for seat, row in enumerate(match.seats):
        rows.append(_("**{player}**: {buttons} buttons + {bonus} bonus − 2 × {empty} empty "
                      "= **{score}**", player=player_name(row), buttons=details["buttons"][seat],
                      bonus=details["bonus"][seat], empty=details["empty_squares"][seat],
                      score=result.scores[seat]))
    if details.get("tie_break"):
        rows.append(_("Tied: the first to reach the final space wins."))
    return lines(rows)


def preview_problem(state: patchwork.State, seat: int, move: patchwork.Buy) -> Words | None:
    """Why `seat` could not make this purchase on their turn, now or (while the other player
    moves) the next one, as a clause; None if it would work."""
    if state.pending_seat == seat:
        return PLACE_FIRST
    problem = patchwork.buy_problem(state, seat, move, any_turn=True)
    if problem is None:
        return None
    words = error_words(problem)
    return str(problem) if words is None else words


def phase_problem(state: patchwork.State, seat: int, *, placing: bool) -> Words | None:
    """On the caller's turn, why a buy or pass (or a `place`) is the wrong kind of move now,
    in a sentence that names the commands; None otherwise (the engine has the last word)."""
    if patchwork.current_seat(state) != seat:
        return None
    if state.pending_seat == seat and not placing:
        return _("You must place your leather patch first: use `/patchwork place` and a free "
                 "square, e.g. `/patchwork place e5`.")
    if state.pending_seat is None and placing:
        return _("You have no leather patch to place: `/patchwork buy` a patch or "
                 "`/patchwork pass`.")
    return None
