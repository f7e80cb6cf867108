"""Discord refusals that no retry can fix: the message or the channel no longer exists.

Editing a stored message id that Discord answers with 10008 (Unknown Message) or 10003 (Unknown
Channel) would be refused again on every later action, and each refusal counts against the
bot's budget; so the store forgets the message, or for a gone channel, the match.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING, Any, Protocol

import discord

from i18n import Words

if TYPE_CHECKING:
    from bot.matches.model import Match
    from bot.ui.language import Languages
    from bot.ui.permissions import ChannelPerms


class GoneStore(Protocol):
    """The slice of the store these helpers write: a gone message or match is forgotten."""

    async def abandon_match(self, match_id: int) -> bool: ...
    async def forget_message(self, match_id: int, message_id: int) -> None: ...


class Host(Protocol):
    """What these helpers use of the bot (named here, not imported: the client and the
    computer players import this module)."""

    @property
    def store(self) -> GoneStore: ...
    @property
    def perms(self) -> ChannelPerms: ...
    @property
    def languages(self) -> Languages: ...

    def get_partial_messageable(self, id: int, *, guild_id: int | None = None,  # noqa: A002
                                ) -> discord.PartialMessageable: ...

log = logging.getLogger(__name__)

UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
GONE = (UNKNOWN_CHANNEL, UNKNOWN_MESSAGE)
DMS_CLOSED = 50007  # a DM the user does not accept: remembered, so it is not sent again soon


async def forget_gone(bot: Host, match_id: int, error: discord.HTTPException,
                      message_id: int | None = None) -> bool:
    """Forget what `error` says is gone: the match's stored `message_id`, or the whole match
    when its channel is gone (cancelled quietly: there is nowhere to say so). True if it was."""
    if error.code == UNKNOWN_CHANNEL:
        if await bot.store.abandon_match(match_id):
            log.info("the channel of match %s is gone: the match is cancelled", match_id)
        return True
    if error.code == UNKNOWN_MESSAGE and message_id is not None:
        await bot.store.forget_message(match_id, message_id)
        return True
    return False


async def edit_stored(bot: Host, match: Match, message_id: int | None, what: str,
                      **changes: object) -> bool:
    """Edit a message the store keeps for `match` (best effort; `what` names it in the log).
    A message or channel that is gone is forgotten rather than edited again next time."""
    if message_id is None:
        return False
    channel = bot.get_partial_messageable(match.channel_id, guild_id=match.guild_id)
    try:
        await channel.get_partial_message(message_id).edit(**changes)
    except discord.HTTPException as error:
        log.info("could not update %s of match %s: %s", what, match.id, error)
        await forget_gone(bot, match.id, error, message_id)
        return False
    return True


async def post_notice(bot: Host, match: Match, text: Words | str, *, what: str,
                      **kwargs: Any) -> None:
    """Post `text` in the match's channel, in the server's voice (best effort; `what` names it
    in the log): not where a permission is missing, and a gone channel forgets the match."""
    missing = bot.perms.missing(match.channel_id)
    if missing is not None:  # posting would only be refused
        log.info("no %s for match %s: %s is missing", what, match.id, missing)
        return
    voice = await bot.languages.server(match.guild_id)
    channel = bot.get_partial_messageable(match.channel_id, guild_id=match.guild_id)
    try:
        await channel.send(voice(text), **kwargs)
    except discord.HTTPException as error:
        log.warning("could not post %s for match %s: %s", what, match.id, error)
        await forget_gone(bot, match.id, error)
