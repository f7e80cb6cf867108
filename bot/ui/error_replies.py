"""Error handling in one place: game errors become friendly ephemeral replies, anything else is
logged with its traceback and answered with a short apology."""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Any

import discord
from discord import app_commands

from bot.matches.errors import ChannelTaken, OthersTurn, Said, sentence
from bot.storage.errors import StoreOutage
from bot.ui.presenter import Presenter
from bot.ui.unreadable import STALE_COMMAND, answer, command_problem, voice_of
from games.common import GameError, quoted
from i18n import Words, _, lines

log = logging.getLogger(__name__)

MAX_REPLY = 2000  # characters Discord accepts in a message
MISSING_ACCESS = 50001  # Discord's error codes for a channel the bot cannot see or post in
MISSING_PERMISSIONS = 50013

APOLOGY = _("Sorry, something went wrong on our side. Nothing was lost: the match is saved. "
            "Try again in a moment.")

NOT_SAVED = _("That could not be saved: the database cannot take it just now. Nothing changed; "
              "try again in a moment.")


def jump_url(guild_id: int | None, channel_id: int, message_id: int | None) -> str:
    where = f"https://discord.com/channels/{guild_id or '@me'}/{channel_id}"
    return f"{where}/{message_id}" if message_id else where


def explain(error: BaseException,
            presenters: Mapping[str, Presenter] | None = None) -> Words | None:
    """The words to show for an expected error, or None for a bug. `presenters` (each game's,
    by its name) word their engines' errors."""
    if isinstance(error, ChannelTaken):
        row = error.match.row
        link = jump_url(row.guild_id, row.channel_id, row.board_message_id or row.lobby_message_id)
        return lines((error.key, _("[Go to the match]({link})", link=link)), " ")
    if isinstance(error, GameError):
        return error_words(error, presenters or {})
    if isinstance(error, StoreOutage):
        return NOT_SAVED
    if isinstance(error, discord.Forbidden) and error.code in (MISSING_ACCESS, MISSING_PERMISSIONS):
        return _("I am missing permissions in this channel: I need View Channel, Send Messages, "
                 "Embed Links and Attach Files (and Send Messages in Threads for threads).")
    if isinstance(error, app_commands.TransformerError):
        if error.type in (discord.AppCommandOptionType.user, discord.AppCommandOptionType.mentionable):
            return _("Pick a member of this server from the list for that option.")
        return _("I could not read {value} for that option.", value=quoted(error.value))
    if isinstance(error, app_commands.CheckFailure):
        return _("You cannot use that command here.")
    if isinstance(error, (app_commands.CommandNotFound, app_commands.CommandSignatureMismatch)):
        return STALE_COMMAND
    return None


def error_words(error: GameError, presenters: Mapping[str, Presenter]) -> Words:
    """A game error in words: the bot's errors carry theirs; an engine's key
    (`reversi.occupied`) is worded by that game's adapter, a `game.` key here."""
    if isinstance(error, OthersTurn):
        if error.player is None:
            return _("The game is over.")
        reason = error_words(error.reason, presenters)
        return _("{reason} It is {player}'s turn.", player=error.player,
                 reason=sentence(reason) if isinstance(reason, str) else reason)
    key = error.key
    if not isinstance(key, str):
        return key  # type: ignore[return-value]  # already words (a Text)
    prefix = key.partition(".")[0]
    presenter = presenters.get(prefix)
    worded = presenter.error_text(error) if presenter is not None else None
    if worded is None and prefix == "game":
        worded = shared_error(key, error.values)
    return str(error) if worded is None else worded


def shared_error(key: str, values: Mapping[str, Any]) -> Words | None:
    """The errors every engine may raise (`game.` keys); None for another key."""
    if key == "game.over":
        return _("The game is over.")
    if key == "game.not_your_turn":
        return _("It is not your turn.")
    if key == "game.no_seat":
        return _("There is no seat {seat} in this game.", seat=str(values.get("seat", "?")))
    return None


class NotAnnounced(Said):
    """An action was saved, but Discord refused part of telling everyone about it. `done` says
    what was saved, as a sentence without its full stop ("The Reversi game started and was
    saved")."""

    def __init__(self, done: Words, error: discord.HTTPException) -> None:
        why = explain(error) or _("Discord refused it ({status}).", status=str(error.status))
        super().__init__(_("{done}, but I could not post all of it: {why} `/match status` shows "
                           "the board again and `/match hand` your hand.", done=done, why=why))


class SavedNotShown(Said):
    """An action was saved, but the database went out of reach before its board was posted:
    the player hears that it counts, not "try again"."""

    def __init__(self, done: Words) -> None:
        super().__init__(_("{done}, but the database went out of reach before its board was "
                           "posted: `/match status` shows it once the database is back.",
                           done=done))


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
    if isinstance(error, StoreOutage):
        log.warning("the database refused interaction %s: %s", interaction.id, error)
    if words is None:
        command = interaction.command.qualified_name if interaction.command else "component"
        log.error("unexpected error in %s (interaction %s)", command, interaction.id,
                  exc_info=error)
        words = APOLOGY
    if interaction.type is discord.InteractionType.autocomplete:
        if not interaction.response.is_done():  # an autocomplete can only show no choices
            await answer(interaction, words)
        return
    text = (await voice_of(interaction))(words)
    if len(text) > MAX_REPLY:  # Discord refuses longer messages; never lose the error with it
        text = text[:MAX_REPLY - 1] + "…"
    try:
        if interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
            # a public "thinking..." would take the first follow-up and show the error to all
            await interaction.delete_original_response()
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
