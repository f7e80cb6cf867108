"""Private information (hands, racks) by DM, with an in-channel notice when DMs are closed.

The notice never reveals anything: it tells the player to use the game's private command,
which answers ephemerally and always works.
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Mapping
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import TYPE_CHECKING, Any, Protocol
from weakref import WeakValueDictionary

import discord

from bot.ui.error_replies import jump_url
from bot.ui.gone import DMS_CLOSED, GONE, Host, forget_gone
from bot.ui.persistent import PersistentItem
from bot.ui.present import Reply
from bot.matches.model import Match
from bot.matches.service import MatchService
from bot.storage.rows import ClosedDMs, LiveDM, LiveSwap, PlaceNames
from bot.matches.titles import title
from i18n import ENGLISH_VOICE, Text, Voice, Words, _, lines, listed

if TYPE_CHECKING:
    from bot.ui.dm_channels import DMChannels
    from bot.ui.language import Languages
    from bot.ui.presenter import Presenter

log = logging.getLogger(__name__)

RETRY_AFTER = timedelta(hours=1)  # a closed-DM player is tried again on their turn after this,
RETRY_LONGEST = timedelta(days=1)  # doubled after each refusal in a row, up to this
SWAP_ATTEMPTS = 4  # a live DM replaced by other processes this often in a row is left to them


class DMStore(Protocol):
    """The slice of the store the DMs read and write: each seat's live DM, who refused DMs
    and when, and the channel notices already posted."""

    async def live_dm(self, match_id: int, seat: int) -> LiveDM | None: ...
    async def live_dms(self, match_id: int) -> list[LiveDM]: ...
    async def swap_live_dm(self, dm: LiveDM, *, same_message: bool = False) -> LiveSwap: ...
    async def forget_live_dm(self, match_id: int, seat: int,
                             message_id: int | None = None) -> None: ...
    async def dms_closed(self, user_id: int) -> ClosedDMs | None: ...
    async def dms_closed_at(self, user_id: int) -> datetime | None: ...
    async def mark_dms_closed(self, user_id: int, at: datetime) -> None: ...
    async def take_dm_retry(self, match_id: int, seat: int) -> bool: ...
    async def clear_dms_closed(self, user_id: int) -> None: ...
    async def dm_notice_sent(self, match_id: int, seat: int) -> bool: ...
    async def record_dm_notice(self, match_id: int, seat: int) -> None: ...


class DMHost(Host, Protocol):
    """What the live DMs use of the bot beside the store: the client they send, edit and
    delete through, with its cache of DM channels (and what bot/ui/gone.py's helpers use)."""

    @property
    def dm_channels(self) -> DMChannels: ...
    def get_partial_messageable(
            self, id: int, *, guild_id: int | None = None,
            type: discord.ChannelType | None = None) -> discord.PartialMessageable: ...
    def get_guild(self, id: int, /) -> discord.Guild | None: ...
    def get_channel(self, id: int, /) -> Any: ...


def now() -> datetime:
    """The one clock for DM refusals (tests replace it: they never wait an hour)."""
    return datetime.now(UTC)


async def dm_allowed(store: DMStore, match_id: int, seat: int, user_id: int, *,
                     prompt: bool) -> bool | None:
    """Whether to try a DM: True for a user who never refused one; None (a retry) for a
    closed-DM user whose retry wait has passed, with the user to act (`prompt`), once per
    match; False otherwise. Each refusal counts against the bot's budget of refused requests,
    so a known-closed inbox is not tried on every turn, and one that stays closed is tried
    less and less often: at most twice a match in all, unless the player asks."""
    closed = await store.dms_closed(user_id)
    if closed is None:
        return True
    if not prompt or now() - closed.at < retry_wait(closed.refusals):
        return False
    return None if await store.take_dm_retry(match_id, seat) else False


def retry_wait(refusals: int) -> timedelta:
    """How long after the last of `refusals` refused DMs in a row the bot tries again: an hour,
    then two, four… up to a day."""
    return min(RETRY_AFTER * 2 ** min(refusals - 1, 16), RETRY_LONGEST)


def where(bot: discord.Client, match: Match) -> Text:
    """Which server, channel and match a private message belongs to, with a link (the DM's
    first line, worded in its reader's voice). A process that does not serve the match's
    server (DMs go to shard 0's) has the names the match was opened with."""
    guild = bot.get_guild(match.guild_id) if match.guild_id else None
    channel = bot.get_channel(match.channel_id)
    named = match.row.place
    server: Words | str = guild.name if guild else named.server or _("a server")
    channel_name = getattr(channel, "name", None) or named.channel
    place: Words | str = f"#{channel_name}" if channel_name else _("a channel")
    link = jump_url(match.guild_id, match.channel_id, None)
    return _("**{server}** › [{place}]({link}) · {game} match #{id}", server=server,
             place=place, link=link, game=title(match.game), id=str(match.id))


def place_of(interaction: discord.Interaction,
             channel: discord.abc.GuildChannel | discord.Thread | None = None) -> PlaceNames:
    """The names of the server and channel (or `channel`) an interaction came from."""
    channel = channel or interaction.channel
    return PlaceNames(interaction.guild.name if interaction.guild else None,
                      getattr(channel, "name", None))


async def person_voice(languages: Languages, match: Match, seat: int) -> Voice:
    """The voice of the seat's player, for a DM the bot sends unasked."""
    user_id = match.player(seat).user_id if 0 <= seat < len(match.seats) else None
    if user_id is None:
        return await languages.server(match.guild_id)
    return await languages.person(user_id, match.guild_id)


def newer_below(thing: str) -> Text:
    """What a shrunk live DM says: its `thing` (hand or rack) is in a newer DM."""
    if thing == "rack":
        return _("\N{DOWNWARDS ARROW} Your rack is in a newer message below.")
    return _("\N{DOWNWARDS ARROW} Your hand is in a newer message below.")


def closed_notice(thing: str, mentions: Words, command: str) -> Text:
    """The channel notice for players whose DMs are closed: use `command` instead."""
    if thing == "rack":
        return _("{players}: I could not send you your rack by DM (your DMs are closed to me). "
                 "Use `{command}` here to see it privately; it always works. Opened your DMs? "
                 "Press **Send it by DM again**.", players=mentions, command=command)
    return _("{players}: I could not send you your hand by DM (your DMs are closed to me). "
             "Use `{command}` here to see it privately; it always works. Opened your DMs? "
             "Press **Send it by DM again**.", players=mentions, command=command)


async def told_dms_closed(store: DMStore, match: Match, seat: int) -> bool:
    """Whether the seat was told in the channel that its DMs are closed, and they still are
    (the retry button has not brought a DM through since)."""
    user_id = match.player(seat).user_id
    return (user_id is not None and await store.dm_notice_sent(match.id, seat)
            and await store.dms_closed_at(user_id) is not None)


class LiveDMs:
    """One live DM per player per match: the player's hand or rack with its controls.

    A change the player need not act on edits the live DM in place; when the player must act,
    a new DM is the notification, and the previous one shrinks to one line, so the DM history
    shows a single live hand. Which DM is live, and the match version it shows, is kept in the
    database, so after a restart the bot edits the same DM and takes stale controls off it.
    Announcements may overlap: each seat is updated by one at a time in a process, and one
    that runs late (its version is older than the DM's) leaves the DM alone. Across processes
    the database decides (`Store.swap_live_dm`, a compare-and-swap): a process whose new DM
    lost retires it, one that won retires the DM it replaced, and one whose edit was overtaken
    by another DM retires the message it edited (the edit may have brought an old hand back).
    """

    def __init__(self, store: DMStore, bot: DMHost, thing: str) -> None:
        self.store = store
        self.bot = bot
        self.thing = thing  # "hand", "rack"
        self._locks: WeakValueDictionary[tuple[int, int], asyncio.Lock] = WeakValueDictionary()

    def _lock(self, match_id: int, seat: int) -> asyncio.Lock:
        lock = self._locks.get((match_id, seat))
        if lock is None:
            lock = self._locks[(match_id, seat)] = asyncio.Lock()
        return lock

    async def show(self, match: Match, seat: int, reply: Reply, *, prompt: bool,
                   again: Callable[[], Awaitable[object]] | None = None) -> bool:
        """Show the seat `reply`, a fresh DM when `prompt` (the seat must act) and its live DM
        is not that notice already; False when Discord refuses because its DMs are closed.

        `again` shows the seat its newest view: called when another process claimed the same
        DM for a newer version while this edit was on its way, since Discord may apply this
        older edit last."""
        row = match.player(seat)
        if row.kind != "user" or row.user_id is None:
            return True
        overtaken: list[bool] = []
        async with self._lock(match.id, seat):
            shown = await self._show(match, seat, reply, prompt, overtaken)
        if overtaken and again is not None:
            await again()
        return shown

    async def _show(self, match: Match, seat: int, reply: Reply, prompt: bool,
                    overtaken: list[bool]) -> bool:
        """Edit the live DM, claiming it for this version first and checking after the edit
        that no newer version claimed it meanwhile: of edits racing on one DM, the last to
        land is then always the newest (each older one is followed by a newer one)."""
        version = match.row.version
        live = await self.store.live_dm(match.id, seat)
        for _attempt in range(SWAP_ATTEMPTS):
            if live is not None and live.version > version:
                return True  # a newer announcement already showed this seat its view
            if live is None or not (live.prompt or not prompt):
                break
            swap = await self.store.swap_live_dm(
                replace(live, version=version, prompt=prompt), same_message=True)
            if not swap.won:
                live = swap.before  # replaced or claimed meanwhile: look again
                continue
            if not await self._edit(live, _edit_kwargs(reply)):
                live = None  # gone (deleted, say): a new DM takes its place
                break
            after = await self.store.live_dm(match.id, seat)
            if after is not None and after.message_id != live.message_id:
                await self._retire(match, live, after)  # replaced while this edit landed
            elif after is not None and after.version > version:
                overtaken.append(True)  # claimed at a newer version while this edit landed
            return True
        return await self._send_live(match, seat, reply, prompt, live)

    async def _send_live(self, match: Match, seat: int, reply: Reply, prompt: bool,
                         live: LiveDM | None) -> bool:
        """`show` by a new DM, replacing `live`."""
        row = match.player(seat)
        allowed = await dm_allowed(self.store, match.id, seat, row.user_id, prompt=prompt)
        if allowed is False:
            return False
        try:
            message = await self._send(row.user_id, reply)
        except discord.HTTPException as error:
            if isinstance(error, discord.Forbidden) and error.code == DMS_CLOSED:
                await self.store.mark_dms_closed(row.user_id, now())
                return False
            # Anything else (a deleted account, Discord having a bad moment) must not
            # undo the move's announcement; the private command still shows the hand.
            log.warning("DM to seat %s of match %s failed: %s", seat, match.id, error)
            return True
        if allowed is None:  # the retry went through: their DMs are open again
            await self.store.clear_dms_closed(row.user_id)
        sent = LiveDM(match.id, seat, message.channel.id, message.id, match.row.version, prompt)
        swap = await self.store.swap_live_dm(sent)
        if not swap.won:  # another process showed a newer view meanwhile
            await self._retire(match, sent, swap.before)
        elif swap.before is not None and swap.before.message_id != sent.message_id:
            await self._retire(match, swap.before, sent)
        return True

    async def _retire(self, match: Match, old: LiveDM, live: LiveDM | None) -> None:
        """`old` is no longer live: it shrinks to a line pointing to the newer DM below, or,
        when it came after `live` (two processes sent at once), it is deleted."""
        if live is not None and old.message_id > live.message_id:
            channel = self.bot.get_partial_messageable(old.channel_id,
                                                       type=discord.ChannelType.private)
            try:
                await channel.get_partial_message(old.message_id).delete()
            except discord.HTTPException as error:
                log.info("could not delete the extra DM of seat %s of match %s: %s",
                         old.seat, old.match_id, error)
            return
        voice = await person_voice(self.bot.languages, match, old.seat)
        await self._edit(old, _shrunk(voice(lines((where(self.bot, match),
                                                   newer_below(self.thing))))), forget=False)

    async def _send(self, user_id: int, reply: Reply) -> discord.Message:
        channel = await self.bot.dm_channels.of(user_id)
        return await channel.send(**reply.kwargs())

    async def close(self, match: Match, note: Words, *,
                    seats: Iterable[int] | None = None) -> None:
        """The match is over: every live DM shrinks to `note` (in its reader's voice) and keeps
        the final version, so a late announcement does not bring a hand back. With `seats`,
        only theirs, shrunk again: an older edit landed after the first shrink."""
        again = seats is not None
        chosen = None if seats is None else set(seats)
        for live in await self.store.live_dms(match.id):
            if chosen is None or live.seat in chosen:
                async with self._lock(match.id, live.seat):
                    await self._close(match, live.seat, note, again)

    async def _close(self, match: Match, seat: int, note: Words, again: bool) -> None:
        version = match.row.version
        current = await self.store.live_dm(match.id, seat)
        for _attempt in range(SWAP_ATTEMPTS):
            if current is None or current.version > version or (
                    current.version == version and not again):
                return
            swap = await self.store.swap_live_dm(
                replace(current, version=version, prompt=False), same_message=True)
            if swap.won:
                voice = await person_voice(self.bot.languages, match, seat)
                await self._edit(current, _shrunk(voice(lines((where(self.bot, match), note)))))
                return
            current = swap.before  # another DM is live: shrink that one

    async def _edit(self, live: LiveDM, kwargs: dict, *, forget: bool = True) -> bool:
        """Edit a live DM; False when Discord refuses (e.g. 10008: it was deleted, and then,
        unless not `forget`, it is no longer live)."""
        channel = self.bot.get_partial_messageable(live.channel_id,
                                                   type=discord.ChannelType.private)
        try:
            await channel.get_partial_message(live.message_id).edit(**kwargs)
        except discord.HTTPException as error:
            if forget and error.code in GONE:  # deleted: never edit it again
                await self.store.forget_live_dm(live.match_id, live.seat,
                                                     live.message_id)
            log.info("could not edit the live DM of seat %s of match %s: %s",
                     live.seat, live.match_id, error)
            return False
        return True

    async def notify_closed(self, match: Match, seats: list[int], command: str) -> None:
        """Tell players in the channel (once per match) to use `command` instead of DMs."""
        fresh = [seat for seat in seats if not await self.store.dm_notice_sent(match.id, seat)]
        if not fresh:
            return
        users = [match.player(seat).user_id for seat in fresh]
        mentions = listed(f"<@{user_id}>" for user_id in users)
        missing = self.bot.perms.missing(match.channel_id)
        if missing is not None:  # posting would only be refused
            log.info("no closed-DM notice for match %s: %s is missing", match.id, missing)
            return
        voice = await self.bot.languages.server(match.guild_id)  # said in the channel
        text = voice(closed_notice(self.thing, mentions, command))
        view = discord.ui.View(timeout=None)
        view.add_item(RetryDMButton(match.id, voice))
        channel = self.bot.get_partial_messageable(match.channel_id, guild_id=match.guild_id)
        try:
            await channel.send(text, view=view, allowed_mentions=discord.AllowedMentions(
                everyone=False, roles=False, users=[discord.Object(u) for u in users]))
        except discord.HTTPException as error:
            log.warning("could not post the closed-DM notice for match %s: %s", match.id,
                        error)
            await forget_gone(self.bot, match.id, error)
            return
        for seat in fresh:
            await self.store.record_dm_notice(match.id, seat)


def _edit_kwargs(reply: Reply) -> dict:
    """`reply` as an edit that replaces the whole message: image and controls included."""
    kwargs = reply.kwargs()
    file = kwargs.pop("file", None)
    kwargs["attachments"] = [] if file is None else [file]
    kwargs["view"] = reply.view
    return kwargs


def _shrunk(text: str) -> dict:
    """An edit leaving one short line: no embed, image or controls."""
    return {"content": text, "embed": None, "attachments": [], "view": None}


class RetryDMButton(
    PersistentItem[discord.ui.Button],
    template=r"gn:dmretry:(?P<match_id>[0-9]+)",
):
    """On the closed-DM notice: the player opened their DMs, so the bot may try again now."""

    def __init__(self, match_id: int, voice: Voice = ENGLISH_VOICE) -> None:
        """`voice`: the channel's, for the label (none when Discord's press is read back)."""
        super().__init__(discord.ui.Button(label=voice(_("Send it by DM again")),
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"gn:dmretry:{match_id}"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match, /) -> RetryDMButton:
        return cls(int(match["match_id"]))

    async def use(self, interaction: discord.Interaction) -> None:
        bot: Any = interaction.client  # the GamenightBot
        text = await retry_dm(bot.store, bot.service, bot.presenters, self.match_id,
                              interaction.user.id)
        voice = await bot.languages.reader(interaction)  # only the presser sees it
        await interaction.response.send_message(voice(text), ephemeral=True)


async def retry_dm(store: DMStore, service: MatchService, presenters: Mapping[str, Presenter],
                   match_id: int, user_id: int) -> Text:
    """Clear the user's closed-DM mark and send their private view now; what to tell them."""
    match = await service.get(match_id)
    seat = None if match is None else match.seat_of(user_id)
    if match is None or seat is None:
        return _("This button is for the players of that match.")
    if match.status != "active":
        return _("That match is over: there is nothing to send.")
    presenter = presenters[match.game]
    await store.clear_dms_closed(user_id)
    if await presenter.deliver_private(match, seat):
        return _("Sent: your DMs have it now.")
    return _("I still cannot send you a DM: your DMs are closed to me. Use `{command}` here to "
             "see it privately.", command=presenter.private_command)
