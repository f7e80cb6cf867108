"""Error handling in one place: game errors become friendly ephemeral replies, anything else is
logged with its traceback and answered with a short apology."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from bot.service import ChannelTaken
from bot.unreadable import STALE_COMMAND, answer, command_problem
from games.common import GameError, quoted
from i18n import ENGLISH_VOICE, Words

log = logging.getLogger(__name__)

MAX_REPLY = 2000  # characters Discord accepts in a message
MISSING_ACCESS = 50001  # Discord's error codes for a channel the bot cannot see or post in
MISSING_PERMISSIONS = 50013

APOLOGY = ("Sorry, something went wrong on our side. Nothing was lost: the match is saved. "
           "Try again in a moment.")


def jump_url(guild_id: int | None, channel_id: int, message_id: int | None) -> str:
    where = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return f"{where}/{message_id}" if message_id else where


def explain(error: BaseException, presenters: Mapping[str, Any] | None = None) -> Words | None:
    """The words to show for an expected error, or None for a bug. `presenters` (the game
    cogs by game) word their engines' errors."""
    if isinstance(error, ChannelTaken):
        row = error.match.row
        link = jump_url(row.guild_id, row.channel_id, row.board_message_id or row.lobby_message_id)
        return f"{error} [Go to the match]({link})"
    if isinstance(error, GameError):
        return error_words(error, presenters or {})
    if isinstance(error, discord.Forbidden) and error.code in (MISSING_ACCESS, MISSING_PERMISSIONS):
        return ("I am missing permissions in this channel: I need View Channel, Send Messages, "
                "Embed Links and Attach Files (and Send Messages in Threads for threads).")
    if isinstance(error, app_commands.TransformerError):
        if error.type in (discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable):
            return "Pick a member of this server from the list for that option."
        return f"I could not read {quoted(error.value)} for that option."
    if isinstance(error, app_commands.CheckFailure):
        return "You cannot use that command here."
    if isinstance(error, (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)):
        return STALE_COMMAND
    return None


def error_words(error: GameError, presenters: Mapping[str, Any]) -> Words:
    """A game error in words: bot errors carry theirs; an engine's key (`reversi.occupied`)
    is worded by that game's adapter."""
    key = error.key
    if not isinstance(key, str):
        return key  # type: ignore[return-value]  # already words (a Text)
    presenter = presenters.get(key.partition(".")[0])
    worded = presenter.error_text(error) if presenter is not None else None
    return str(error) if worded is None else worded


class NotAnnounced(GameError):
    """An action was saved, but Discord refused part of telling everyone about it."""

    def __init__(self, done: str, error: discord.HTTPException) -> None:
        why = explain(error) or f"Discord refused it ({error.status})."
        super().__init__(f"{done}, but I could not post all of it: {why} `/match status` shows "
                         "the board again and `/match hand` your hand.")


def unwrap(error: BaseException) -> BaseException:
    """The exception a command raised, without discord.py's wrappers."""
    if isinstance(error, app_commands.CommandInvokeError):
        return error.original
    if isinstance(error, app_commands.TransformerError) and error.__cause__ is not None:
        return error.__cause__
    return error


async def report_error(interaction: discord.Interaction, error: BaseException) -> None:
    error = unwrap(error)
    bot = getattr(interaction, "client", None)
    words = explain(error, getattr(bot, "presenters", None))
    if words is not None:
        languages = getattr(bot, "languages", None)
        voice = ENGLISH_VOICE if languages is None else await languages.reader(interaction)
        text = voice(words)
    else:
        command = interaction.command.qualified_name if interaction.command else "component"
        log.error("unexpected error in %s (interaction %s)", command, interaction.id,
                  exc_info=error)
        text = APOLOGY
    if len(text) > MAX_REPLY:  # Discord refuses longer messages; never lose the error with it
        text = text[:MAX_REPLY - 1] + "…"
    if interaction.type is discord.InteractionType.autocomplete:
        if not interaction.response.is_done():  # an autocomplete can only show no choices
            await answer(interaction, text)
        return
    try:
        if interaction.response.is_done():
            await interaction.followup.send(text, ephemeral=True)
        else:
            await interaction.response.send_message(text, ephemeral=True)
    except discord.HTTPException:
        log.warning("could not deliver an error reply for interaction %s", interaction.id)


class GamenightTree(app_commands.CommandTree):
    async def interaction_check(self, interaction: discord.Interaction) -> bool:
        """Run only commands that fit today's definitions; answer the rest here."""
        problem = command_problem(self, interaction)
        if problem is None:
            return True
        name = (interaction.data or {}).get("name")
        log.info("unreadable command %r from user %s: %s", name, interaction.user.id, problem)
        await answer(interaction, problem)
        return False

    async def on_error(self, interaction: discord.Interaction,
                       error: app_commands.AppCommandError) -> None:
        await report_error(interaction, error)
