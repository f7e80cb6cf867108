"""Every sentence the web pages say, through the catalogs: templates get them worded."""

from __future__ import annotations

from i18n import _

PAGE_WORDS = {
    "players": _("Players"),
    "moves": _("Moves"),
    "no_moves": _("No moves yet."),
    "rating": _("rating"),
    "score": _("score"),
    "to_act": _("to act"),
    "time_left": _("Time left for this turn:"),
    "language": _("Language"),
    "start": _("Start"),
    "previous": _("Previous move"),
    "next": _("Next move"),
    "end": _("End"),
    "position": _("Position after move"),
    "open_replay": _("Replay this match"),
    "updates_live": _("This page updates by itself after each move."),
    "hands": _("Hands at this point"),
    "scores_after": _("Scores after this move"),
}
NOT_FOUND_TITLE = _("No match here")
NOT_FOUND = _("This link opens no match: it may be mistyped or cut short. Ask for a fresh "
              "link in the match's channel.")
TOO_MANY_TITLE = _("Slow down, please")
TOO_MANY = _("This address asked for pages too quickly. Wait a few seconds and reload.")
NOT_YET_TITLE = _("No replay yet")
NOT_YET = _("The replay opens when the match ends. Until then, watch it live.")
NO_GAME = _("The match has not started yet: it starts when every seat is taken.")
CANCELLED = _("This match was cancelled.")
DRAWN = _("The match ended in a draw.")
NO_CARDS = _("No cards played yet.")
LANDLORD = _("landlord")
BLACK, WHITE = _("Black"), _("White")
START_CAPTION = _("The start of the match")
