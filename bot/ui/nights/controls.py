"""The night's buttons: **I'm in** and **I'm out** on the sign-up card, **Check in** on the card
and in the check-in pings. Their custom ids carry the night, so they work across restarts."""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.nights.model import CHECKIN, RUNNING, SCHEDULED, Night
from bot.nights.service import NightService
from bot.ui.persistent import PersistentItem
from i18n import ENGLISH_VOICE, Voice, Words, _


class CardAnswerer(Protocol):
    """What the buttons use of the night runner (bot/ui/nights/runner.py)."""

    @property
    def nights(self) -> NightService: ...
    async def answer_on_card(self, interaction: discord.Interaction, night: Night,
                             said: Words) -> None: ...


def runner_of(interaction: discord.Interaction) -> CardAnswerer:
    bot: Any = interaction.client
    return bot.night_runner


class SignButton(PersistentItem[discord.ui.Button],
                 template=r"gn:night:(?P<side>in|out):(?P<night>[0-9]+)"):
    """I'm in / I'm out."""

    def __init__(self, night_id: int, in_: bool, voice: Voice = ENGLISH_VOICE) -> None:
        label = _("I'm in") if in_ else _("I'm out")
        super().__init__(discord.ui.Button(
            label=voice(label), custom_id=f"gn:night:{'in' if in_ else 'out'}:{night_id}",
            style=discord.ButtonStyle.success if in_ else discord.ButtonStyle.secondary))
        self.night_id, self.in_ = night_id, in_

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: Any, /) -> SignButton:
        return cls(int(match["night"]), match["side"] == "in")

    async def use(self, interaction: discord.Interaction) -> None:
        runner = runner_of(interaction)
        night = await runner.nights.sign(self.night_id, interaction.user.id,
                                         interaction.user.display_name, in_=self.in_)
        await runner.answer_on_card(interaction, night, _("You are in.") if self.in_ else
                                    _("You are out."))


class CheckInButton(PersistentItem[discord.ui.Button],
                    template=r"gn:night:checkin:(?P<night>[0-9]+)"):
    def __init__(self, night_id: int, voice: Voice = ENGLISH_VOICE) -> None:
        super().__init__(discord.ui.Button(
            label=voice(_("Check in")), custom_id=f"gn:night:checkin:{night_id}",
            style=discord.ButtonStyle.primary, emoji="\N{WHITE HEAVY CHECK MARK}"))
        self.night_id = night_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match: Any, /) -> CheckInButton:
        return cls(int(match["night"]))

    async def use(self, interaction: discord.Interaction) -> None:
        runner = runner_of(interaction)
        night = await runner.nights.check_in(self.night_id, interaction.user.id,
                                             interaction.user.display_name)
        said = (_("You are back in: you play from round {round}.", round=night.row.round + 1)
                if night.row.status == RUNNING else
                _("You are checked in. Your table will be posted when the night starts."))
        await runner.answer_on_card(interaction, night, said)


def card_view(night: Night, voice: Voice) -> discord.ui.View | None:
    """The sign-up card's buttons, for as long as they do something."""
    view = discord.ui.View(timeout=None)
    if night.row.status in (SCHEDULED, CHECKIN):
        view.add_item(SignButton(night.id, True, voice))
        view.add_item(SignButton(night.id, False, voice))
    if night.row.status == CHECKIN or (night.row.status == RUNNING
                                       and night.row.round <= night.rounds // 2):
        view.add_item(CheckInButton(night.id, voice))
    return view if view.children else None


CONTROLS = (SignButton, CheckInButton)
