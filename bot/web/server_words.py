"""Every sentence a server's page says (bot/web/server_pages.py), through the catalogs."""

from __future__ import annotations

from i18n import _

SERVER_WORDS = {
    "open_matches": _("Open matches"),
    "no_open_matches": _("No match is being played here right now."),
    "night_tables": _("This round's tables"),
    "standings": _("Standings"),
    "place": _("Place"),
    "player": _("Player"),
    "points": _("Points"),
    "leaderboards": _("Leaderboards"),
    "no_leaderboards": _("No rated games yet. Games between people count; games with a "
                         "computer do not."),
    "rating": _("Rating"),
    "games": _("Games"),
    "wins": _("Wins"),
    "recent": _("Recent results"),
    "no_recent": _("No finished match yet."),
    "replay": _("Replay"),
    "updates": _("This page updates by itself as the server's games go on."),
}
TITLE_UNNAMED = _("This server's games")
NOT_FOUND_TITLE = _("No page here")
NOT_FOUND = _("This link opens no page: it may be mistyped, or the server turned its web "
              "pages off. Ask in the server for a fresh link.")
COMPUTER = _("a computer")
SOMEONE = _("a player")
WAITING = _("waiting to start")
PLAYING = _("playing")
FINISHED_TABLE = _("finished")
SHARED = _("not finished: a shared place")
PAUSED = _(" (paused by the host)")
ALL_TIME = _("all time")
