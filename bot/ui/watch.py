"""Links from Discord to the match pages (GAMENIGHT_WEB_PORT, bot/web/): a board's **Watch live**
button, **Replay** once the match is finished, **Open board** where the Discord Activity is on
(bot/ui/activity.py), and in a player's DM a link to the page with their own hand on it.
Without the pages, nothing is added."""

from __future__ import annotations

from typing import Protocol

import discord

from bot.matches.model import Match
from bot.ui.activity import OpenBoardButton
from bot.web.server import WebPages
from i18n import Voice, _


class WatchHost(Protocol):
    """What the links use of the bot: its pages, if it serves them."""

    @property
    def web(self) -> WebPages | None: ...


async def watch_link(host: WatchHost, match: Match) -> str | None:
    """The page a board links to: the live page, the replay once finished; None without
    the pages."""
    if host.web is None:
        return None
    if match.status == "finished":
        return await host.web.replay_link(match.id)
    return await host.web.live_link(match.id)


async def with_watch_button(host: WatchHost, match: Match, view: discord.ui.View | None,
                            voice: Voice) -> discord.ui.View | None:
    """`view` with the link button to the match's page added (a new view when None); `view`
    as it was when the bot serves no pages or the view has no room left."""
    url = await watch_link(host, match)
    if url is None:
        return view
    linked = with_link(view, url, voice(_("Replay") if match.status == "finished"
                                        else _("Watch live")))
    if linked is None or host.web is None or host.web.activity is None \
            or match.status == "finished":
        return linked
    try:
        linked.add_item(OpenBoardButton(voice))
    except ValueError:  # no room left: the link is enough
        pass
    return linked


async def with_seat_button(host: WatchHost, match: Match, seat: int,
                           view: discord.ui.View | None, voice: Voice) -> discord.ui.View | None:
    """A DM's link to the live page showing the seat's own hand or rack too: a signed link
    that expires (bot/web/seat_links.py), so it is new in every DM."""
    user_id = match.player(seat).user_id
    if host.web is None or match.status != "active" or user_id is None:
        return view
    return with_link(view, await host.web.private_link(match.id, seat, user_id),
                     voice(_("Watch live")))


def with_link(view: discord.ui.View | None, url: str, label: str) -> discord.ui.View | None:
    linked = view if view is not None else discord.ui.View(timeout=None)
    try:
        linked.add_item(discord.ui.Button(style=discord.ButtonStyle.link, url=url, label=label))
    except ValueError:  # every row full: the game's own controls come first
        return view
    return linked
