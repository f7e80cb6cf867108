"""The Discord Activity's side of the Discord line: the board's **Open board** button (its
press answers with LAUNCH_ACTIVITY, so Discord opens the Activity in the channel), and the
moves made from inside it, through the slash commands' own path: the match service's `act`,
then the game's presenter posts the board. The Activity's pages are bot/web/activity.py."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any, Protocol

import discord

from bot.matches.service import MatchService
from bot.ui.error_replies import APOLOGY, explain
from bot.ui.persistent import PersistentItem
from bot.ui.presenter import Presenter
from bot.ui.turn_clocks import TurnClocks
from i18n import ENGLISH_VOICE, Voice, Words, _

log = logging.getLogger(__name__)

OPEN_BOARD = _("Open board")


class ActivityHost(Protocol):
    """What the Activity's moves use of the bot."""

    @property
    def service(self) -> MatchService: ...

    @property
    def presenters(self) -> Mapping[str, Presenter]: ...

    @property
    def clocks(self) -> TurnClocks: ...


class ActivityMoves:
    """Moves from the Activity (bot/web/activity.py's `ActivityMover`)."""

    def __init__(self, bot: ActivityHost) -> None:
        self.bot = bot

    @property
    def service(self) -> MatchService:
        return self.bot.service

    async def act(self, channel_id: int, user_id: int, text: str) -> Words | None:
        """As `/<game> move` does (GameCommands.act): the service applies and commits the
        move with every check, then the game's presenter shows it in the channel. A refusal
        comes back in words; anything unexpected is logged and apologised for. A player a
        computer plays for (away) has their turns back first, as after any slash command."""
        try:
            await self.bot.clocks.back_by_acting(channel_id, user_id)
            result = await self.service.act(channel_id, user_id, text)
        except Exception as error:
            said = explain(error, self.bot.presenters)
            if said is None:
                log.exception("a move from the activity failed")
                return APOLOGY
            return said
        await self.bot.presenters[result.match.game].announce(result)
        return None


class OpenBoardButton(PersistentItem[discord.ui.Button], template=r"gn:board"):
    """On a board: open the Activity (Discord's LAUNCH_ACTIVITY answer)."""

    def __init__(self, voice: Voice = ENGLISH_VOICE) -> None:
        super().__init__(discord.ui.Button(label=voice(OPEN_BOARD),
                                           style=discord.ButtonStyle.primary,
                                           custom_id="gn:board"))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: Any, /) -> OpenBoardButton:
        return cls()

    async def use(self, interaction: discord.Interaction) -> None:
        await interaction.response.launch_activity()
