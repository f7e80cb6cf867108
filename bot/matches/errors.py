"""What the match service refuses, and why: errors whose message is a catalog text (worded
in the reader's language by bot/ui/error_replies.py)."""

from __future__ import annotations

from typing import TYPE_CHECKING


from games.common import GameError, NotYourTurn
from bot.matches.titles import title
from i18n import ENGLISH_VOICE, Words, _



if TYPE_CHECKING:
    from bot.matches.model import Match


class Said(GameError):
    """An error of the bot itself: its `key` is the message (a Text, worded in the reader's
    language by bot/ui/error_replies.py). `str()` gives the English, for logs and tests."""

    def __str__(self) -> str:
        return ENGLISH_VOICE(self.key)


class NoMatchHere(Said):
    def __init__(self, last: Match | None = None) -> None:
        if last is not None and last.status == "finished":  # each game's commands: /<game>
            text = _("The {game} game in this channel is over. Start a new one with "
                     "`/{command} new`, or another game's (`/gamenight help` lists them).",
                     game=title(last.game), command=last.game)
        else:
            text = _("There is no game in this channel. Start one with a game's `new` command, "
                     "like `/reversi new` (`/gamenight help` lists them).")
        super().__init__(text)


class ChannelTaken(Said):
    """A match is already open here; `match` lets the adapter link to it."""

    def __init__(self, match: Match) -> None:
        self.match = match
        if match.status == "lobby":
            text = _("A {game} match is already waiting for players in this channel. Finish or "
                     "cancel it first (`/match cancel`), or open yours in a thread.",
                     game=title(match.game))
        else:
            text = _("A {game} match is already being played in this channel. Finish or "
                     "cancel it first (`/match cancel`), or open yours in a thread.",
                     game=title(match.game))
        super().__init__(text)


class NotSeated(Said):
    def __init__(self, text: Words | None = None) -> None:
        super().__init__(_("You are not playing in this match.") if text is None else text)


class OthersTurn(NotYourTurn):
    """The engine's NotYourTurn (`reason`), said with whose turn it is (`player`, a seat's name
    in words; None once the game is over)."""

    def __init__(self, reason: NotYourTurn, player: Words | None) -> None:
        super().__init__(reason.key, **reason.values)
        self.reason = reason
        self.player = player

    def __str__(self) -> str:
        reason = sentence(str(self.reason))
        if self.player is None:
            return ENGLISH_VOICE(_("The game is over."))
        return ENGLISH_VOICE(_("{reason} It is {player}'s turn.", reason=reason,
                               player=self.player))


def sentence(text: str) -> str:
    """An engine's English reason as a sentence: a capital first, a full stop last."""
    text = text.rstrip(".")
    return f"{text[:1].upper()}{text[1:]}." if text else text


class WrongGame(Said):
    def __init__(self, match: Match, game: str) -> None:
        super().__init__(_("The match in this channel is {game}, not {other}: use its own "
                           "commands (`/gamenight help` lists them).",
                           game=title(match.game), other=title(game)))


class LobbyError(Said):
    """Joining, leaving or starting is not possible right now; the message says why."""


class NotAllowed(Said):
    """The user may not do this (e.g. cancel someone else's match)."""


class OutOfDate(Said):
    """A button or menu built for an earlier version of the match was used."""

    def __init__(self) -> None:
        super().__init__(_("That menu is out of date: the game has moved on since it was sent, "
                           "so nothing happened. Use the newest message, or show your hand "
                           "again."))


class Conflict(Said):
    def __init__(self) -> None:
        super().__init__(_("Someone else acted on this match at the same moment. Look at the "
                           "board and try again."))

