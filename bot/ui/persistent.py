"""The base of every persistent control: a button or menu whose custom id carries what it acts
on (a match, a page, a person), so that one posted before a restart keeps working after it.

A control writes only what using it does (`use`); an error, expected or not, is reported to
the person who used it here, in one place, as the command tree does for slash commands.
"""

from __future__ import annotations

from typing import Any, TypeVar

import discord

from bot.ui.error_replies import report_error

ItemT = TypeVar("ItemT", bound=discord.ui.Item[Any], covariant=True)


class PersistentItem(discord.ui.DynamicItem[ItemT], template=r"(?!)"):
    """A `DynamicItem` that reports its errors. Each subclass gives its own `template` (the
    custom ids it answers, registered with `bot.add_dynamic_items`); this one's matches no
    custom id."""

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await self.use(interaction)
        except Exception as error:  # one place decides what the user sees
            await report_error(interaction, error)

    async def use(self, interaction: discord.Interaction) -> None:
        """What using the control does."""
        raise NotImplementedError
