"""Scrabble in words: the engine's events, refusals and outcomes, which it gives as keys and
plain values, worded here for a reader's voice; and the board's lines on whose turn it is, the
last play and the final scores."""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Iterable
from typing import Any

import games.scrabble as scrabble
from bot.matches.model import Match, player_name
from bot.ui.present import legacy_names, mention, seat_names
from games.common import Event, GameError, quoted
from i18n import ENGLISH_VOICE, Joined, Text, Words, _, lines, listed, n_

log = logging.getLogger(__name__)

LEVELS = ("beginner", "intermediate", "expert")
LEVEL_NAMES: dict[str, Text] = {
    # TRANSLATORS: the finish-line levels of Scrabble (the rules' table of target scores).
    "beginner": _("beginner"),
    "intermediate": _("intermediate"),
    "expert": _("expert"),
}
DIRECTIONS: dict[str, Text] = {"across": _("across"), "down": _("down")}
# TRANSLATORS: the player to move, first in the list of those who may challenge a play
# ("You, alice or bob may challenge carol's play ...").
YOU = _("You")
# TRANSLATORS: between the rules of a game listed in one sentence ("This game: 9-tile racks;
# first to 200 points wins.").
RULES_SEPARATOR = _("; ")


def turn_hint(view: scrabble.View) -> Text:
    """The commands the player to move may use now."""
    if view.pending is not None and view.pending.final:
        return _("`/scrabble challenge` the play that ends the game, or `/scrabble pass` to "
                 "accept it")
    if view.bag >= scrabble.EXCHANGE_MIN_BAG:
        return _("`/scrabble play`, `/scrabble exchange` or `/scrabble pass`")
    return _("`/scrabble play` or `/scrabble pass` (too few tiles in the bag to exchange)")


def spaced(tiles: str) -> str:
    """Tiles as the rack text shows them: `A E I ?`."""
    return " ".join(tiles)


def tally(tiles: str) -> str:
    counts = Counter(tiles)
    return " ".join(f"{t}×{n}" if n > 1 else t for t, n in sorted(
        counts.items(), key=lambda item: (item[0] == "?", item[0])))


def separated(parts: Iterable[Words], sep: Words) -> Joined:
    """`parts` one after the other with the worded `sep` between them."""
    out: list[Words] = []
    for part in parts:
        if out:
            out.append(sep)
        out.append(part)
    return lines(out, "")


def racks_text(tiles: int) -> Text:
    return _("{tiles}-tile racks", tiles=tiles)


def first_to(points: int) -> Text:
    return n_("first to {n} point", "first to {n} points", points)


def tile_name(tile: str) -> Words:
    """A tile as an error names it: its letter, or "blank"."""
    return _("blank") if tile == "?" else tile


def scored_words(words: Iterable[Iterable[Any]], bingo: bool) -> Words:
    """`QUIZ 22, ZA 11` (and the bingo): the words a play formed, with their scores."""
    listed_words = lines((f"{word} {score}" for word, score in words), ", ")
    return _("{words} + 50 bingo", words=listed_words) if bingo else listed_words


def reason_text(reason: str, details: dict[str, Any], names: dict[str, Words]) -> Words:
    """Why the game ended, as a sentence (`names`: the players' names by `seatN`)."""
    player = names.get(f"seat{details.get('seat')}", "")
    if reason == "out":
        return _("{player} went out with the bag empty.", player=player)
    if reason == "passes":
        return _("Every player passed twice in a row.")
    if reason == "blocked":
        return _("No more plays are possible.")
    if reason == "finish":
        target = details.get("target") or 0
        return n_("{player} reached {n} point.", "{player} reached {n} points.", target,
                  player=player)
    if reason == "resigned":
        return _("{player} resigned.", player=player)
    # an outcome saved before reasons became keys: English, as it was
    text = reason.format(**{key: ENGLISH_VOICE(name) for key, name in names.items()})
    return f"{text[:1].upper()}{text[1:]}."


def game_over(reason: Words, result: Words) -> Text:
    """The last word on a game: why it ended and who won, each a sentence."""
    # TRANSLATORS: {reason} and {result} are sentences: why the game ended ("Every player
    # passed twice in a row."), then who won ("alice wins with 310.").
    return _("**Game over.** {reason} {result}", reason=reason, result=result)


def winners_text(winners: list[str], score: int, tiebreak: bool) -> Text:
    """Who won, with what score (`winners`: names or mentions)."""
    if len(winners) > 1:
        return _("{players} share the win with {score}.", players=listed(winners), score=score)
    if tiebreak:
        return _("{player} wins with {score} on the tie-break (the higher score before the "
                 "rack adjustments).", player=winners[0], score=score)
    return _("{player} wins with {score}.", player=winners[0], score=score)


def play_line(match: Match, play: scrabble.PlayRecord) -> Text:
    """The last play, for the board's "Last play" field."""
    return _("{player}: `{move}` for **{score}** ({words})",
             player=player_name(match.player(play.seat)), move=play.move, score=play.score,
             words=scored_words(play.words, play.bingo))


def turn_line(match: Match, view: scrabble.View) -> Words:
    """Whose turn, what they may do, and who may challenge the open play."""
    turn = view.turn
    pending = view.pending
    name = match.player
    if pending is None:
        return _("{player}, your turn: {hint}.", player=mention(match, turn),
                 hint=turn_hint(view))
    owner = player_name(name(pending.seat))
    others = [player_name(name(s)) for s in view.order
              if s not in (pending.seat, turn, *view.resigned)]
    if pending.final:
        if others:
            return _("{player}: {owner}'s play ends the game if it stands. Challenge it with "
                     "`/scrabble challenge`, or accept it with `/scrabble pass`. {others} "
                     "may challenge it too.", player=mention(match, turn), owner=owner,
                     others=listed(others))
        return _("{player}: {owner}'s play ends the game if it stands. Challenge it with "
                 "`/scrabble challenge`, or accept it with `/scrabble pass`.",
                 player=mention(match, turn), owner=owner)
    if others:
        # TRANSLATORS: {players} lists "You" (the player to move) and the others who may
        # challenge: "You, alice or bob".
        challenge = _("{players} may challenge {owner}'s play with `/scrabble challenge` "
                      "until you act.", players=listed((YOU, *others), "or"), owner=owner)
    else:
        challenge = _("You may challenge {owner}'s play with `/scrabble challenge` until "
                      "you act.", owner=owner)
    return lines((_("{player}, your turn: {hint}.", player=mention(match, turn),
                    hint=turn_hint(view)), challenge))


def final_lines(match: Match, view: scrabble.View) -> Words:
    """Each player's final score with its rack adjustment, those who resigned last."""
    result = view.outcome
    details = result.details
    before = details.get("before", list(result.scores))
    adjust = details.get("adjustments", [0] * len(result.scores))
    racks = details.get("racks", [""] * len(result.scores))
    out: list[Words] = []
    ranked = sorted(range(len(result.scores)),  # those who resigned last
                    key=lambda s: (s in view.resigned, -result.scores[s], s))
    for seat in ranked:
        name = player_name(match.player(seat))
        final = result.scores[seat]
        if seat in view.resigned:
            out.append(_("~~{player}~~: {score} (resigned)", player=name, score=final))
        elif adjust[seat] < 0:
            out.append(_("{player}: {before} − {minus} (left with {rack}) = **{score}**",
                         player=name, before=before[seat], minus=-adjust[seat],
                         rack=racks[seat], score=final))
        elif adjust[seat] > 0:
            out.append(_("{player}: {before} + {plus} (went out: the others' leftover "
                         "tiles) = **{score}**", player=name, before=before[seat],
                         plus=adjust[seat], score=final))
        else:
            out.append(_("{player}: **{score}**", player=name, score=final))
    return lines(out)


def result_line(match: Match, view: scrabble.View) -> Words:
    """The board's last words on a game: why it ended and who won."""
    result = view.outcome
    reason = reason_text(result.reason, result.details, seat_names(match))
    winners = [mention(match, s) for s in result.winners]
    top = result.scores[result.winners[0]]
    return game_over(reason, winners_text(winners, top, bool(result.details.get("tiebreak"))))


def event_words(match: Match, event: Event) -> Words:
    """A Scrabble engine event in words; the names of the players in bold."""
    names = seat_names(match)
    if event.text:  # saved before events carried values: English, as it was
        return event.text.format(**legacy_names(match))
    values = event.values
    player = names.get(f"seat{event.seat}", "")

    def name(seat: int) -> str:
        return names.get(f"seat{seat}", "")

    kind = event.kind
    if kind == "opening_draw":
        draws = listed(_("{player} drew a blank", player=name(s)) if tile == "?" else
                       _("{player} drew {tile}", player=name(s), tile=tile)
                       for s, tile in values["draws"])
        if values.get("tied"):
            return _("Draw for first turn: {draws}. {tied} tie and draw again.",
                     draws=draws, tied=listed(name(s) for s in values["tied"]))
        return _("Draw for first turn: {draws}.", draws=draws)
    if kind == "order":
        return _("{player} goes first. Turn order: {order}.", player=player,
                 order=listed(name(s) for s in values["order"]))
    if kind == "options":
        rules: list[Words] = []
        if values["rack_size"] != 7:
            rules.append(racks_text(values["rack_size"]))
        if values["finish"] is not None:
            rules.append(n_("first to {n} point wins", "first to {n} points wins",
                            values["finish"]))
        if values["challenge"] == "void":
            rules.append(_("words are checked as they are played"))
        return _("This game: {rules}.", rules=separated(rules, RULES_SEPARATOR))
    if kind == "play":
        play = dict(player=player, square=values["square"], word=values["word"],
                    score=values["score"], words=scored_words(values["words"],
                                                              values["bingo"]))
        if values["direction"] == scrabble.DOWN:
            return _("{player} played {square} down {word} for {score} ({words}).", **play)
        return _("{player} played {square} across {word} for {score} ({words}).", **play)
    if kind == "final_play":
        if values["ends"] == "finish":
            return n_("{player} reached {n} point.", "{player} reached {n} points.",
                      values["target"], player=player)
        return _("{player} went out.", player=player)
    if kind == "accept":
        return _("{player} accepts the play.", player=player)
    if kind == "exchange":
        return n_("{player} exchanged {n} tile.", "{player} exchanged {n} tiles.",
                  values["tiles"], player=player)
    if kind == "pass":
        return _("{player} passed.", player=player)
    if kind == "challenge":
        return _("{player} challenges {owner}'s play.", player=player,
                 owner=name(values["player"]))
    if kind == "withdrawn":
        words = values["words"]
        return n_("{words} is not in the dictionary: {player} takes the tiles back, scores "
                  "nothing and loses the turn.",
                  "{words} are not in the dictionary: {player} takes the tiles back, scores "
                  "nothing and loses the turn.", len(words), words=listed(words),
                  player=player)
    if kind == "challenge_failed":
        if values["later"]:
            return _("Every word stands: {player} loses their next turn.", player=player)
        return _("Every word stands.")
    if kind == "lost_turn":
        return _("{player} loses this turn.", player=player)
    if kind == "resign":
        if values["goes_on"]:
            return n_("{player} resigned: their {n} tile went back into the bag, and the "
                      "others play on.",
                      "{player} resigned: their {n} tiles went back into the bag, and the "
                      "others play on.", values["tiles"], player=player)
        return _("{player} resigned.", player=player)
    if kind == "play_goes_on":
        return n_("The bag is no longer empty: {player} draws {n} and the game goes on.",
                  "The bag is no longer empty: {player} draws {n} and the game goes on.",
                  values["drew"], player=player)
    if kind == "end":
        winners = [name(s) for s in values["winners"]]
        top = values["final"][values["winners"][0]]
        details = {"seat": values["player"], "target": values["target"]}
        return game_over(reason_text(values["reason"], details, names),
                         winners_text(winners, top, values["tiebreak"]))
    log.warning("no words for the Scrabble event %r", kind)  # unknown: nothing to say
    return ""


def error_words(error: GameError) -> Words | None:
    """A Scrabble engine error in words (None: not one of Scrabble's)."""
    key, values = error.key, error.values
    if not isinstance(key, str) or not key.startswith("scrabble."):
        return None
    what = key.removeprefix("scrabble.")
    if what == "not_your_turn":  # said before whose turn it is: whole sentences
        if values.get("can_challenge"):
            return _("It is not your turn (you may challenge the last play).")
        return _("It is not your turn.")
    if what == "unknown_words":
        words = values["words"]
        return n_("{words} is not in the dictionary", "{words} are not in the dictionary",
                  len(words), words=listed(words))
    if what == "runs_off":
        if values["direction"] == scrabble.DOWN:
            return _("{word} does not fit: down from {square} it would run past row 15",
                     word=values["word"], square=values["square"])
        return _("{word} does not fit: across from {square} it would run past column O",
                 word=values["word"], square=values["square"])
    if what == "runs_on":
        return _("the word runs on into {square} ({tile}): write the whole word as it will "
                 "read, e.g. {start} {direction} {whole}", square=values["square"],
                 tile=values["tile"], start=values["start"],
                 direction=DIRECTIONS[values["direction"]], whole=values["whole"])
    if what == "no_tile":
        if values["tile"] != "?":
            return _("you have no {tile}", tile=values["tile"])
        if values.get("exchange"):
            return _("you have no blank")
        return _("you have no blank (a lower-case letter in the word means a blank)")
    if what == "too_few":
        shared = dict(have=values["have"], tile=tile_name(values["tile"]),
                      need=values["need"])
        if values.get("exchange"):
            return _("you have only {have} {tile}, you named {need}", **shared)
        return _("you have only {have} {tile}, the play needs {need}", **shared)
    if what == "exchange_too_many":
        return n_("the bag holds {n} tile: you can exchange at most {n}",
                  "the bag holds {n} tiles: you can exchange at most {n}", values["bag"])
    message = ERRORS.get(what)
    if message is None:
        return None
    worded: dict[str, object] = {}
    for name, value in values.items():
        if isinstance(value, list):
            value = lines(value, ", ")
        elif (what, name) in TYPED:
            value = quoted(value)
        worded[name] = value
    return Text(message.msgid, worded)


# The values of engine errors that are what a player typed: quoted as typed (`H 8`).
TYPED = {("unknown_option", "option"), ("bad_direction", "direction"),
         ("letters_only", "word"), ("unexchangeable", "tiles"), ("not_a_move", "text"),
         ("bad_square", "square")}
# The engine errors worded without more ado: their messages, filled in with their values.
ERRORS: dict[str, Text] = {
    "unknown_option": _("Scrabble has no option {option}: use {options}"),
    "tiles_option": _("the tiles option is 7 or 9"),
    "finish_option": _("finish is a positive target score (a whole number), or beginner, "
                       "intermediate or expert"),
    "finish_too_high": _("the finish target can be at most {most} points"),
    "challenge_option": _("the challenge option is double or void"),
    "over": _("The game is over."),
    "no_seat": _("There is no seat {seat} in this game."),
    "resigned": _("You resigned from this game."),
    "resigned_already": _("You resigned from this game already."),
    "answer_final_play": _("the last play ends the game if it stands: challenge it, or pass to "
                           "accept it"),
    "not_an_action": _("{action} is not a Scrabble action"),
    "exchange_bag_low": _("you can exchange only while the bag holds at least {need} tiles; it "
                          "holds {bag}"),
    "challenges_off": _("challenges are off in this game: every word is checked when it is "
                        "played"),
    "nothing_to_challenge": _("there is no play to challenge: a play can be challenged only "
                              "until the next player acts"),
    "own_play": _("you cannot challenge your own play"),
    "bad_direction": _("{direction} is not a direction: write across or down"),
    "off_board": _("the first square must be on the board, A1 to O15"),
    "short_word": _("write the whole word as it will read on the board: at least two letters"),
    "letters_only": _("{word} must be letters A-Z only (lower case for a blank)"),
    "play_form": _("write a play as square, direction and the whole word, e.g. H8 across QUIZ "
                   "(lower case for a blank)"),
    "exchange_what": _("say which tiles to exchange, e.g. exchange QV? (? is a blank)"),
    "exchange_form": _("write an exchange as: exchange ABC? (? is a blank)"),
    "pass_form": _("write a pass as: pass"),
    "challenge_form": _("write a challenge as: challenge"),
    "unexchangeable": _("{tiles} cannot be exchanged: name tiles A-Z only, ? for a blank"),
    "not_a_move": _("{text} is not a move: write a play like H8 across QUIZ (lower case for a "
                    "blank), exchange ABC? , pass, or challenge"),
    "bad_square": _("{square} is not a square: write the column A-O then the row 1-15, e.g. H8"),
    "taken": _("{square} is already taken by {tile}"),
    "already_on_board": _("{word} is already on the board: a play must place at least one "
                          "tile"),
    "centre": _("the first word must cover the centre square H8"),
    "not_touching": _("the word does not touch any tile on the board"),
}

