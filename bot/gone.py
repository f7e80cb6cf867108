"""Discord refusals that no retry can fix: the message or the channel no longer exists.

Editing a stored message id that Discord answers with 10008 (Unknown Message) or 10003 (Unknown
Channel) would be refused again on every later action, and each refusal counts against the
bot's budget; so the store forgets the message, or for a gone channel, the match.
"""

from __future__ import annotations

import logging
from typing import TYPE_CHECKING

import discord

if TYPE_CHECKING:
    from bot.client import GamenightBot

log = logging.getLogger(__name__)

UNKNOWN_CHANNEL = 10003
UNKNOWN_MESSAGE = 10008
GONE = (UNKNOWN_CHANNEL, UNKNOWN_MESSAGE)


async def forget_gone(bot: GamenightBot, match_id: int, error: discord.HTTPException,
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
