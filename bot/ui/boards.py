"""A match's public board on Discord, as every game's presenter posts it: drawn by the game
(`board_reply`), with the line that asks a person to act (or says a computer thinks), the turn
clock, the Rematch button and the result card; posted as a new message or by editing the live
table, and recorded so that, across processes, the newest board is the one left in the channel.
"""

from __future__ import annotations

import abc
import asyncio
import logging
from collections.abc import Awaitable, Iterable
from typing import TYPE_CHECKING, Protocol

import discord

from bot.matches.model import ActionResult, Match, player_name
from bot.matches.service import MatchService
from bot.storage.rows import Board, BoardSwap
from bot.ui.error_replies import jump_url
from bot.ui.gone import edit_stored
from bot.ui.opening import rematch_view
from bot.ui.permissions import ATTACH, drop_picture, permission_words
from bot.ui.present import Reply, ShownImages, answer_privately, send_reply, settle_deferred
from bot.ui.records import result_card
from bot.ui.watch import with_watch_button
from games.common import Event
from i18n import Voice, Words, _, lines

if TYPE_CHECKING:
    from bot.app.client import GamenightBot

log = logging.getLogger(__name__)


class BoardStore(Protocol):
    """The slice of the store the boards read and write: which message shows a match's
    newest board, claimed across processes."""

    async def board(self, match_id: int) -> Board: ...
    async def record_board(self, match_id: int, message_id: int, version: int, *,
                           seen: Board | None = None) -> BoardSwap: ...


class Boards(abc.ABC):
    """The boards of one game's matches. A game's presenter (through `GamePresenter`) draws
    its board in `board_reply`; it may say which computer is to act (`computer_to_act`),
    find slow result-card lines after the end (`late_card_lines`) and choose which boards
    are new posts rather than edits of the live table (`posts_anew`).

    It takes the bot: boards use many of its parts (the service, the store, the languages,
    the channel permissions, the client that posts, edits and deletes)."""

    def __init__(self, bot: GamenightBot) -> None:
        self.bot = bot
        self.images = ShownImages()  # never the same picture twice in a row in a channel
        self.late_lines: dict[int, list[Words]] = {}  # finished match -> its slow card lines
        self.final_events: dict[int, tuple[Event, ...]] = {}  # what its final board said
        self._late: set[asyncio.Task[None]] = set()

    @property
    def service(self) -> MatchService:
        return self.bot.service

    @property
    def store(self) -> BoardStore:
        return self.bot.store

    @abc.abstractmethod
    async def board_reply(self, match: Match, events: Iterable[Event], voice: Voice) -> Reply:
        """The game's public board post after `events`, in the channel's `voice`."""

    def computer_to_act(self, match: Match) -> int | None:
        """The computer seat the bot plays for now, if any (a game may leave some choices,
        such as whether to play on, to the people)."""
        return match.computer_to_act()

    async def board_post(self, match: Match, events: tuple[Event, ...]) -> Reply:
        """The game's board reply; once the match is over, with a Rematch button under it.
        When a computer is to act, the line that would ask a person to act says it thinks."""
        voice = await self.bot.languages.server(match.guild_id)
        reply = await self.board_reply(match, events, voice)
        reply.voice = voice
        computer = self.computer_to_act(match)
        if computer is not None and computer == match.current_seat():  # not a challenger
            reply.content = voice(_("**{player}** is thinking...",
                                    player=player_name(match.player(computer))))
            reply.mentions = ()
        elif match.turn_due is not None and reply.content and match.current_seat() is not None:
            reply.content += "\n" + voice(_("⏱ Time runs out {when}.",
                                            when=f"<t:{int(match.turn_due)}:R>"))
        if match.status == "finished" and reply.view is None:
            reply.view = rematch_view(match, voice)
        if match.status == "finished":
            await self.add_result_card(match, reply, voice)
        reply.view = await with_watch_button(self.bot, match, reply.view, voice)
        return reply

    # -- the result card ---------------------------------------------------------------------

    async def add_result_card(self, match: Match, reply: Reply, voice: Voice) -> None:
        """A finished match's board carries its result card: rating changes and highlights."""
        card = await result_card(self.bot.store, self.bot.presenters, match)
        said = [*card, *self.late_lines.get(match.id, ())]
        if not said:
            return
        text = voice(lines(said))[:1024]
        if reply.embed is None:
            reply.content = f"{reply.content}\n{text}" if reply.content else text
        else:
            reply.embed.add_field(name=voice(_("Records")), value=text, inline=False)

    async def late_card_lines(self, match: Match) -> list[Words]:
        """Result-card lines that take a while to find (run after the final board is up)."""
        return []

    @property
    def has_late_card(self) -> bool:
        return type(self).late_card_lines is not Boards.late_card_lines

    def find_late_card(self, result: ActionResult) -> None:
        """Once an action finished the match, find its slow result-card lines in the
        background (for a game that has any) and edit them into its final board."""
        if not (result.finished and self.has_late_card):
            return
        self.final_events[result.match.id] = tuple(result.events)
        task = asyncio.get_running_loop().create_task(
            self.add_late_card(result.match), name=f"gamenight: card of {result.match.id}")
        self._late.add(task)
        task.add_done_callback(self._late.discard)

    async def add_late_card(self, match: Match) -> None:
        """Find the slow result-card lines, then edit them into the final board."""
        try:
            found = await self.late_card_lines(match)
        except Exception:
            log.exception("the late result card of match %s failed", match.id)
            return
        if not found:
            return
        self.late_lines[match.id] = found
        latest = await self.service.get(match.id)
        if latest is None or latest.row.board_message_id is None:
            return
        reply = await self.board_post(latest, self.final_events.pop(match.id, ()))
        if self.bot.perms.missing(match.channel_id, files=reply.png is not None) == ATTACH:
            drop_picture(reply)
        await edit_stored(self.bot, match, latest.row.board_message_id, "the result card",
                          **reply.edit_kwargs())

    # -- posting, editing and recording ------------------------------------------------------

    async def _show_board(self, match: Match, events: tuple[Event, ...],
                          interaction: discord.Interaction | None, newest: Board) -> None:
        """`newest`: the match's newest board (whichever process posted it), just read."""
        edited = None if await self.posts_anew(match, events) else await self.edit_table(
            match, events, newest)
        if edited is not None:
            if interaction is not None:
                await self.answer_edit(interaction, match, edited)
            return
        if interaction is not None:
            try:
                await self.post_board(interaction, match, events, newest)
                return
            except discord.HTTPException as error:
                log.warning("could not answer with the board of match %s (%s); posting it in "
                            "the channel", match.id, error)
        posted = await self.post_board_in_channel(match, events, newest)
        if interaction is None:
            return
        voice = await self.bot.languages.server(match.guild_id)  # a deferral is public
        if posted:
            await settle_deferred(interaction, voice(_("Saved: the board is posted below.")))
        elif not await self.tell_missing(interaction, match.channel_id):
            await settle_deferred(interaction, voice(_("Saved.")))

    async def posts_anew(self, match: Match, events: tuple[Event, ...]) -> bool:
        """Whether this board is a new channel post (something new to see, or someone to
        ping) rather than an edit of the live table message. Boards are always new here."""
        return True

    async def post_board(self, interaction: discord.Interaction, match: Match,
                         events: Iterable[Event], newest: Board) -> None:
        async def fresh() -> tuple[Reply, int]:
            reply = await self.board_post(match, tuple(events))
            voice = await self.bot.languages.server(match.guild_id)
            self.images.drop_repeat(match.channel_id, reply, voice, newest.message_id)
            return reply, match.row.version

        await self._send_board(interaction, match, fresh(), newest)

    async def repost_board(self, interaction: discord.Interaction, match: Match) -> None:
        """`/match status`: the board as it stands when posted, even if a move lands while it
        is drawn (then it is drawn again, so the newest post never shows an older turn)."""
        async def newest() -> tuple[Reply, int]:
            current = match
            for _attempt in range(3):
                reply = await self.board_post(current, ())
                latest = await self.service.get_or_fail(match.id)
                if latest.row.version == current.row.version:
                    break
                current = latest
            reply.mentions = ()  # anyone may ask: the player to move was pinged already
            return reply, current.row.version

        await self._send_board(interaction, match, newest())

    async def _send_board(self, interaction: discord.Interaction, match: Match,
                          build: Awaitable[tuple[Reply, int]], seen: Board | None = None) -> None:
        """Answer with the board `build` draws, with the match version it shows (`seen`: the
        newest board read before it was drawn)."""
        built: list[tuple[Reply, int]] = []

        async def keep() -> Reply:
            built.append(await build)
            reply = built[0][0]
            if interaction.guild_id is not None and not interaction.app_permissions.attach_files:
                drop_picture(reply)
            return reply

        message = await send_reply(interaction, keep())
        reply, version = built[0]
        self.images.shown(match.channel_id, reply, None if message is None else message.id)
        if message is not None:
            await self.record_board(match, message.id, version, seen)

    async def edit_table(self, match: Match, events: tuple[Event, ...],
                         board: Board | None = None) -> int | None:
        """Show the board by editing the live table message, and return its id; None when
        there is none or Discord refuses (then the board is posted instead).

        The message is claimed for this version before the edit and checked after it, so of
        edits racing on it (two processes announcing two moves), the last to land shows the
        newest version: one that finds a newer claim after its edit shows the newest again."""
        board = board or await self.store.board(match.id)
        if board.message_id is None:
            return None
        claim = await self.store.record_board(match.id, board.message_id, match.row.version,
                                              seen=board)
        if not claim.won:  # a newer board is shown already
            return claim.before.message_id
        reply = await self.board_post(match, events)
        if self.bot.perms.missing(match.channel_id, files=reply.png is not None) == ATTACH:
            drop_picture(reply)
        if not await edit_stored(self.bot, match, board.message_id,
                                 "the table (posting it instead)", **reply.edit_kwargs()):
            return None
        self.images.shown(match.channel_id, reply, board.message_id)
        after = await self.store.board(match.id)
        if after.message_id == board.message_id and (after.version or 0) > match.row.version:
            newest = await self.service.get(match.id)  # its edit may have landed first
            if newest is not None:
                await self.edit_table(newest, newest.state.events)
        return board.message_id

    async def answer_edit(self, interaction: discord.Interaction, match: Match,
                          table_id: int) -> None:
        """A command whose board was an edit: only the caller hears that it was done."""
        if interaction.response.is_done() and interaction.type is discord.InteractionType.component:
            return  # a control's own message already says what was chosen
        link = jump_url(match.guild_id, match.channel_id, table_id)
        voice = await self.bot.languages.reader(interaction)
        await answer_privately(interaction, voice(_(
            "\N{WHITE HEAVY CHECK MARK} Done: [the table]({link}) is updated.", link=link)))

    async def post_board_in_channel(self, match: Match, events: Iterable[Event],
                                    newest: Board | None = None) -> bool:
        """The board as a plain channel message (no interaction to answer); False when the
        bot may not post there (it is not sent, so Discord refuses nothing). `newest`: the
        match's newest board, if just read."""
        newest = newest or await self.store.board(match.id)
        reply = await self.board_post(match, tuple(events))
        self.images.drop_repeat(match.channel_id, reply,
                                await self.bot.languages.server(match.guild_id),
                                newest.message_id)
        perms = self.bot.perms
        if perms.missing(match.channel_id, files=reply.png is not None) == ATTACH:
            drop_picture(reply)
        missing = perms.missing(match.channel_id)
        if missing is not None:
            log.info("not posting the board of match %s: %s is missing", match.id, missing)
            return False
        channel = self.bot.get_partial_messageable(match.channel_id, guild_id=match.guild_id)
        message = await channel.send(**reply.kwargs())
        self.images.shown(match.channel_id, reply, message.id)
        await self.record_board(match, message.id, match.row.version, newest)
        return True

    async def tell_missing(self, interaction: discord.Interaction, channel_id: int,
                           guild_id: int | None = None) -> bool:
        """Say once per channel, only to the caller, which permission keeps the board out of
        the channel; whether it was said now. `guild_id`: the match's server, for a press in a
        DM (worded in that server's language if the presser has none of their own)."""
        missing = self.bot.perms.missing(channel_id)
        if missing is None or not self.bot.perms.first_time(channel_id, missing):
            return False
        voice = await self.bot.languages.dm_reader(interaction, guild_id or interaction.guild_id)
        await answer_privately(interaction, voice(_(
            "Your move is saved, but I cannot post in {channel}, so the table there may lag "
            "behind: I need the **{permission}** permission. Ask a moderator to grant it; until "
            "then, `/match status` there shows the board to whoever asks.",
            channel=f"<#{channel_id}>", permission=permission_words(missing))))
        return True

    async def record_board(self, match: Match, message_id: int, version: int,
                           seen: Board | None = None) -> None:
        """Record the board just posted in `message_id`, showing `version`, as the match's
        newest (`seen`: the newest read before it was posted). Across processes the database
        decides which is newest, and Discord's ids say which came last in the channel: a
        board of an older version that landed below one of a newer version is deleted (the
        newer one says it all)."""
        swap = await self.store.record_board(match.id, message_id, version, seen=seen)
        before = swap.before
        if before.message_id is None or before.version is None:
            return
        if swap.won and before.version < version and before.message_id > message_id:
            stale = before.message_id  # an older board landed below this one
        elif not swap.won and message_id > before.message_id:
            stale = message_id  # this one landed below a newer board
        else:
            return
        log.info("deleting the board of match %s posted out of order", match.id)
        channel = self.bot.get_partial_messageable(match.channel_id, guild_id=match.guild_id)
        try:
            await channel.get_partial_message(stale).delete()
        except discord.HTTPException as error:
            log.warning("could not delete a board of match %s posted out of order: %s",
                        match.id, error)
