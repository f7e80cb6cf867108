"""Opening a lobby: with a game's `/<game> new` in this channel or, where a match is open
already, in a thread the bot creates (the offer's button), and as a rematch of a finished match
(the Rematch button under its last board). Every game opens its lobbies the same way.

Both buttons are persistent `DynamicItem`s. The offer's custom id carries the game, the invited
player and the lobby options; the Rematch button's the finished match's id. Either works the
same after a restart and keeps nothing in memory.
"""

from __future__ import annotations

from typing import Any, Protocol

import discord

from bot.matches.errors import ChannelTaken, LobbyError
from bot.matches.model import Match, Player
from bot.matches.titles import title
from bot.ui.dms import place_of
from bot.ui.error_replies import MISSING_ACCESS, MISSING_PERMISSIONS, explain, jump_url
from bot.ui.gone import GoneStore, edit_stored
from bot.ui.lobby import LobbyHost, lobby_card, player_of
from bot.ui.persistent import PersistentItem
from bot.ui.present import Reply, in_turn, send_reply
from bot.ui.review import with_review_button
from bot.ui.threads import (
    NO_THREAD_PERMISSION, THREAD_DAY, can_thread, decode_options, encode_options,
    thread_permissions_missing,
)
from bot.ui.unreadable import voice_of
from bot.ui.watch import WatchHost, with_watch_button
from i18n import ENGLISH_VOICE, Text, Voice, Words, _, listed


class LobbyStore(GoneStore, Protocol):
    """The slice of the store opening a lobby writes: which message is its card (and what
    bot/ui/gone.py's helpers forget)."""

    async def set_message(self, match_id: int, *, lobby: int | None = None,
                          board: int | None = None) -> None: ...


class OpeningHost(LobbyHost, WatchHost, Protocol):
    """What opening a lobby uses of the bot: what the lobby cards use (bot/ui/lobby.py), the
    slice of the store above, and the client, to fetch the channel a thread opens in."""

    @property
    def store(self) -> LobbyStore: ...
    async def fetch_channel(self, channel_id: int, /) -> Any: ...


async def open_lobby(bot: OpeningHost, interaction: discord.Interaction, game: str, *,
                     invited: discord.User | discord.Member | None = None,
                     options: dict[str, Any] | None = None) -> Match | None:
    """A lobby of `game` in this channel; if a match is open here, an offer to open it in a
    thread."""
    if invited is not None and invited.bot:
        raise LobbyError(_("Bots cannot take a seat: invite a person, or leave `opponent` "
                           "empty so anyone can join."))
    guest = None if invited is None else Player(invited.id, invited.display_name)
    previous = await bot.service.latest(interaction.channel_id)
    try:
        match = await bot.service.open_lobby(
            game, guild_id=interaction.guild_id, channel_id=interaction.channel_id,
            creator=player_of(interaction), invited=guest, options=options,
            place=place_of(interaction),
        )
    except ChannelTaken as taken:
        await offer_thread(interaction, taken, game, guest, options)
        return None
    await post_lobby(bot, interaction, match, invite_text(interaction, guest, match),
                     () if invited is None else (invited.id,))
    await retire_rematch(bot, previous)
    return match


def invite_text(interaction: discord.Interaction, invited: Player | None,
                match: Match) -> Text | None:
    """The invitation above a lobby card (to be worded in the server's voice)."""
    if invited is None:
        return None
    return _("{invited}, **{player}** invites you to a game of {game}: press **Join** to "
             "play.", invited=f"<@{invited.user_id}>", player=interaction.user.display_name,
             game=title(match.game))


async def post_lobby(bot: OpeningHost, interaction: discord.Interaction, match: Match,
                     content: Words | None, mentions: tuple[int, ...]) -> None:
    """The lobby card with `content` above it, in the server's voice, as the interaction's
    answer."""
    voice = await bot.languages.server(interaction.guild_id)
    reply = Reply(content=None if content is None else voice(content),
                  **await lobby_card(bot, match), mentions=mentions)
    async with in_turn(match, interaction):
        message = await send_reply(interaction, reply)
        if message is not None:
            await bot.store.set_message(match.id, lobby=message.id)
        if match.status == "active":  # a rematch whose computers filled the table
            await bot.presenters[match.game].announce_start(interaction, match)


# -- in a thread ----------------------------------------------------------------------------

async def offer_thread(interaction: discord.Interaction, taken: ChannelTaken, game: str,
                       invited: Player | None, options: dict[str, Any] | None) -> None:
    """Answer `/<game> new` in a taken channel: where the match is, and (in a text channel) a
    button to open the new lobby in a thread instead (in the asker's language: only they see
    it)."""
    voice = await voice_of(interaction)
    text = voice(explain(taken) or taken.key)
    view = None
    if can_thread(interaction) and thread_permissions_missing(interaction):
        text += "\n" + voice(NO_THREAD_PERMISSION)
    elif can_thread(interaction):
        text += "\n" + voice(_("Or press **Open it in a thread**: I start a thread here with "
                               "your lobby in it."))
        view = discord.ui.View(timeout=None)
        view.add_item(ThreadButton(game, None if invited is None else invited.user_id, options,
                                   voice))
    kwargs: dict[str, Any] = {"ephemeral": True}
    if view is not None:
        kwargs["view"] = view
    await interaction.response.send_message(text, **kwargs)


class ThreadButton(
    PersistentItem[discord.ui.Button],
    template=r"gn:thread:(?P<game>[a-z]+):(?P<invited>[0-9]+):(?P<options>[a-z0-9_=,]*)",
):
    """On the ephemeral "a match is already here" answer: open the lobby in a new thread."""

    def __init__(self, game: str, invited: int | None, options: dict[str, Any] | None,
                 voice: Voice = ENGLISH_VOICE) -> None:
        custom_id = f"gn:thread:{game}:{invited or 0}:{encode_options(options)}"
        super().__init__(discord.ui.Button(label=voice(_("Open it in a thread")),
                                           style=discord.ButtonStyle.primary,
                                           custom_id=custom_id))
        self.game, self.invited, self.options = game, invited, options

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match, /) -> ThreadButton:
        invited = int(match["invited"]) or None
        return cls(match["game"], invited, decode_options(match["options"]) or None)

    async def use(self, interaction: discord.Interaction) -> None:
        bot: OpeningHost = interaction.client  # type: ignore[assignment]
        if self.game not in bot.presenters:
            raise LobbyError(_("That button is from an older version of the bot: use the "
                               "game's `new` command again."))
        invited = await _player(interaction, self.invited)
        await open_in_thread(bot, interaction, self.game, invited, self.options)


async def _player(interaction: discord.Interaction, user_id: int | None) -> Player | None:
    if user_id is None or interaction.guild is None:
        return None
    member = interaction.guild.get_member(user_id)
    if member is None:
        try:
            member = await interaction.guild.fetch_member(user_id)
        except discord.HTTPException:
            raise LobbyError(_("{mention}, whom you invited, is no longer in this server: open "
                               "the lobby again with someone else.",
                               mention=f"<@{user_id}>")) from None
    return Player(member.id, member.display_name)


async def open_in_thread(bot: OpeningHost, interaction: discord.Interaction, game: str,
                         invited: Player | None, options: dict[str, Any] | None) -> None:
    """Create a public thread in this channel, open the lobby there and say where it is."""
    reader = await bot.languages.reader(interaction)
    if thread_permissions_missing(interaction):
        await interaction.response.send_message(reader(NO_THREAD_PERMISSION), ephemeral=True)
        return
    creator = player_of(interaction)
    bot.service.check_lobby(game, creator=creator, invited=invited, options=options)
    parent = interaction.channel
    if not isinstance(parent, discord.TextChannel):
        parent = await bot.fetch_channel(interaction.channel_id)
    server = await bot.languages.server(interaction.guild_id)  # what the channel sees
    try:
        thread = await parent.create_thread(
            name=server(_("{game} · {player}", game=title(game),
                          player=interaction.user.display_name))[:100],
            type=discord.ChannelType.public_thread, auto_archive_duration=THREAD_DAY,
            reason=server(_("{game} lobby opened by {user}", game=title(game),
                            user=str(interaction.user))))
    except discord.Forbidden as error:
        if error.code not in (MISSING_ACCESS, MISSING_PERMISSIONS):
            raise
        await interaction.response.send_message(reader(NO_THREAD_PERMISSION), ephemeral=True)
        return
    match = await bot.service.open_lobby(  # checked above: a new thread has no match yet
        game, guild_id=interaction.guild_id, channel_id=thread.id,
        creator=creator, invited=invited, options=options,
        place=place_of(interaction, thread))
    mentions = () if invited is None else (invited.user_id,)
    invite = invite_text(interaction, invited, match)
    reply = Reply(content=None if invite is None else server(invite),
                  **await lobby_card(bot, match), mentions=mentions)
    message = await thread.send(**reply.kwargs())
    await bot.store.set_message(match.id, lobby=message.id)
    link = jump_url(interaction.guild_id, thread.id, message.id)
    await interaction.response.edit_message(content=reader(_(
        "Your {game} lobby (match #{id}) is open in {thread}: [go to it]({link}). Players "
        "join it there.", game=title(match.game), id=str(match.id), thread=thread.mention,
        link=link)), view=None)


# -- as a rematch ---------------------------------------------------------------------------

class RematchButton(
    PersistentItem[discord.ui.Button],
    template=r"gn:rematch:(?P<match_id>[0-9]+)",
):
    """Under a finished match's last board: a new lobby with the same game and options."""

    def __init__(self, match_id: int, voice: Voice = ENGLISH_VOICE) -> None:
        super().__init__(discord.ui.Button(label=voice(_("Rematch")),
                                           style=discord.ButtonStyle.success,
                                           custom_id=f"gn:rematch:{match_id}"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match, /) -> RematchButton:
        return cls(int(match["match_id"]))

    async def use(self, interaction: discord.Interaction) -> None:
        bot: OpeningHost = interaction.client  # type: ignore[assignment]
        finished = await bot.service.get_or_fail(self.match_id)
        await open_rematch(bot, interaction, finished)


def rematch_view(match: Match, voice: Voice = ENGLISH_VOICE) -> discord.ui.View:
    """The Rematch button under a finished match's board, in the channel's `voice`, and the
    Review button where the game has a coach."""
    view = discord.ui.View(timeout=None)
    view.add_item(RematchButton(match.id, voice))
    return with_review_button(view, match, voice)


async def open_rematch(bot: OpeningHost, interaction: discord.Interaction,
                       finished: Match) -> Match:
    """A new lobby with the same game and options, asked for by a player of `finished`."""
    match = await bot.service.rematch(finished.id, player_of(interaction))
    others = tuple(seat.user_id for seat in finished.seats
                   if seat.kind == "user" and seat.user_id != interaction.user.id)
    await post_lobby(bot, interaction, match, rematch_text(interaction, match, finished, others),
                     others)
    await retire_rematch(bot, finished)
    return match


def rematch_text(interaction: discord.Interaction, match: Match, finished: Match,
                 others: tuple[int, ...]) -> Text:
    """The call for a rematch above its lobby card, naming the other players (`others`);
    whether they must press Join depends on whether the table is already full."""
    values = {"players": listed(f"<@{user_id}>" for user_id in others),
              "player": interaction.user.display_name, "game": title(match.game),
              "id": str(finished.id)}
    if match.status == "lobby":
        if others:
            return _("{players}, **{player}** asks for a rematch of {game} match #{id}: "
                     "press **Join** to play.", **values)
        return _("**{player}** asks for a rematch of {game} match #{id}: press **Join** to "
                 "play.", **values)
    if others:
        return _("{players}, **{player}** asks for a rematch of {game} match #{id}.",
                 **values)
    return _("**{player}** asks for a rematch of {game} match #{id}.", **values)


async def retire_rematch(bot: OpeningHost, match: Match | None) -> None:
    """Take the Rematch button off a finished match's last board once a new match opened in
    its channel: a rematch there could only be refused now (best effort). Its link to the
    replay stays."""
    if match is not None and match.status == "finished":
        voice = await bot.languages.server(match.guild_id)
        view = with_review_button(discord.ui.View(timeout=None), match, voice)
        await edit_stored(bot, match, match.row.board_message_id, "the Rematch button",
                          view=await with_watch_button(bot, match, view, voice))
