"""What every game cog shares: opening a lobby, acting, and posting boards."""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar

import discord
from discord import app_commands

from bot.ui.error_replies import MISSING_ACCESS, MISSING_PERMISSIONS, NotAnnounced, jump_url
from bot.ui.gone import edit_stored, forget_gone
from bot.ui.lobby import lobby_card, player_of, rematch_view, retire_rematch
from bot.ui.permissions import ATTACH, drop_picture, permission_words
from bot.ui.present import (
    Reply, ShownImages, answer_privately, in_turn, legacy_names, send_reply, settle_deferred,
)
from bot.ui.exports import Export, ExportFile
from bot.ui.records import result_card
from bot.ui.dms import LiveDMs, notify_closed_dms, place_of, where
from bot.matches.errors import ChannelTaken, LobbyError, WrongGame
from bot.matches.model import ActionResult, Match, Player, player_name
from bot.matches.service import MatchService
from bot.storage.rows import Board
from bot.ui.threads import (
    NO_THREAD_PERMISSION, THREAD_DAY, offer_thread, thread_permissions_missing,
)
from bot.matches.titles import TITLES, title
from bot.matches.turn_time import TURN_OPTION, TURN_TIMES, duration
from games.common import Event, GameError
from i18n import Text, Voice, Words, _, lines, listed

if TYPE_CHECKING:
    from bot.app.client import GamenightBot

log = logging.getLogger(__name__)


TURN_TIME_TEXT = "How long each turn may take (default: the server's setting, else 24h)"
TURN_TIME_CHOICES = [app_commands.Choice(name="off: no clock", value="off")] + [
    app_commands.Choice(name=f"{duration(seconds)} a turn", value=value)
    for value, seconds in TURN_TIMES.items()
]


def turn_option(turn_time: str | None) -> dict[str, str]:
    """The lobby option for a `turn_time` chosen with `/<game> new` (none: the default)."""
    return {} if turn_time is None else {TURN_OPTION: turn_time}


@dataclass(frozen=True)
class GameHelp:
    """What `/gamenight help` says about a game."""

    title: Words
    players: Words
    summary: Words  # the rules in short
    commands: tuple[tuple[str, Words], ...]  # (usage, what it does)


async def add_game(bot: GamenightBot, cog: GameCog) -> None:
    """What a game's extension `setup` does: add its cog and its persistent controls."""
    await bot.add_cog(cog)  # type: ignore[arg-type]  # each game cog is also a commands.Cog
    TITLES[cog.game] = cog.help.title
    if cog.components:
        bot.add_dynamic_items(*cog.components)


class GameCog:
    """Mixed into each game's `commands.GroupCog`.

    The game cog defines `async board_reply(match, events, voice) -> Reply`, the public board
    post after `events` in the channel's language, and may override `private_reply` for hidden
    information. It words its engine's events (`event_text`) and errors (`error_text`).
    """

    game: ClassVar[str]
    help: ClassVar[GameHelp]
    has_private: ClassVar[bool] = False  # hands or racks to send by DM
    private_command: ClassVar[str] = "/match hand"
    private_thing: ClassVar[str] = "hand"
    components: ClassVar[tuple[type[discord.ui.DynamicItem], ...]] = ()  # persistent controls

    def __init__(self, bot: GamenightBot) -> None:
        self.bot = bot
        self.live_dms = LiveDMs(bot, self.private_thing)  # each player's hand or rack by DM
        self.images = ShownImages()  # never the same picture twice in a row in a channel
        self.late_lines: dict[int, list[Words]] = {}  # finished match -> its slow card lines
        self.final_events: dict[int, tuple[Event, ...]] = {}  # what its final board said
        self._late: set[asyncio.Task[None]] = set()
        bot.presenters[self.game] = self

    @property
    def service(self) -> MatchService:
        return self.bot.service

    async def private_reply(self, match: Match, seat: int, voice: Voice) -> Reply:
        """What `/match hand` shows the seat, in its player's `voice`; games with hidden
        information override this."""
        return Reply(content=voice(_(
            "{game} has no hidden information: everything is on the board. Use `/match status` "
            "to see it again.", game=title(match.game))))

    def event_text(self, match: Match, event: Event) -> Words:
        """An engine event in words (the game's adapter words its own kinds of event)."""
        return event.text.format(**legacy_names(match))

    def error_text(self, error: GameError) -> Words | None:
        """An engine error of this game in words; None: not one this game words."""
        return None

    def export_files(self, export: Export) -> list[ExportFile]:
        """A match as files in the game's standard format, for `/match export`."""
        raise LobbyError(_("Matches of this game cannot be exported yet."))

    def stats_lines(self, rows: Sequence[dict[str, Any]]) -> list[Words]:
        """One person's highlights of this game (a dict per finished match) in words, for
        `/gamenight stats`."""
        return []

    def card_lines(self, match: Match, highlights: list[dict[str, Any]]) -> list[Words]:
        """A finished match's highlights (a dict per seat) in words, for its result card."""
        return []

    async def late_card_lines(self, match: Match) -> list[Words]:
        """Result-card lines that take a while to find (run after the final board is up)."""
        return []

    @property
    def has_late_card(self) -> bool:
        return type(self).late_card_lines is not GameCog.late_card_lines

    async def add_result_card(self, match: Match, reply: Reply, voice: Voice) -> None:
        """A finished match's board carries its result card: rating changes and highlights."""
        said = [*await result_card(self.bot, match), *self.late_lines.get(match.id, ())]
        if not said:
            return
        text = voice(lines(said))[:1024]
        if reply.embed is None:
            reply.content = f"{reply.content}\n{text}" if reply.content else text
        else:
            reply.embed.add_field(name=voice(_("Records")), value=text, inline=False)

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

    async def show_private(self, interaction: discord.Interaction, match: Match,
                           seat: int) -> None:
        """The seat's private view as an ephemeral reply (`/match hand` and the like)."""
        if match.status == "lobby":
            raise LobbyError(_("The match has not started yet, so there is nothing to show."))
        voice = await self.bot.languages.reader(interaction)
        await send_reply(interaction, self.private_reply(match, seat, voice), ephemeral=True)

    async def open_lobby(self, interaction: discord.Interaction, *,
                         invited: discord.User | discord.Member | None = None,
                         options: dict[str, Any] | None = None) -> Match | None:
        """A lobby in this channel; if a match is open here, an offer to open it in a thread."""
        if invited is not None and invited.bot:
            raise LobbyError(_("Bots cannot take a seat: invite a person, or leave `opponent` "
                               "empty so anyone can join."))
        guest = None if invited is None else Player(invited.id, invited.display_name)
        previous = await self.service.latest(interaction.channel_id)
        try:
            match = await self.service.open_lobby(
                self.game, guild_id=interaction.guild_id, channel_id=interaction.channel_id,
                creator=player_of(interaction), invited=guest, options=options,
                place=place_of(interaction),
            )
        except ChannelTaken as taken:
            await offer_thread(interaction, taken, self.game, guest, options)
            return None
        await self._post_lobby(interaction, match, self.invite_text(interaction, guest, match),
                               () if invited is None else (invited.id,))
        await retire_rematch(self.bot, previous)
        return match

    async def open_in_thread(self, interaction: discord.Interaction, invited: Player | None,
                             options: dict[str, Any] | None) -> None:
        """Create a public thread in this channel, open the lobby there and say where it is."""
        reader = await self.bot.languages.reader(interaction)
        if thread_permissions_missing(interaction):
            await interaction.response.send_message(reader(NO_THREAD_PERMISSION), ephemeral=True)
            return
        creator = player_of(interaction)
        self.service.check_lobby(self.game, creator=creator, invited=invited, options=options)
        parent = interaction.channel
        if not isinstance(parent, discord.TextChannel):
            parent = await self.bot.fetch_channel(interaction.channel_id)
        server = await self.bot.languages.server(interaction.guild_id)  # what the channel sees
        try:
            thread = await parent.create_thread(
                name=server(_("{game} · {player}", game=self.help.title,
                              player=interaction.user.display_name))[:100],
                type=discord.ChannelType.public_thread, auto_archive_duration=THREAD_DAY,
                reason=server(_("{game} lobby opened by {user}", game=self.help.title,
                                user=str(interaction.user))))
        except discord.Forbidden as error:
            if error.code not in (MISSING_ACCESS, MISSING_PERMISSIONS):
                raise
            await interaction.response.send_message(reader(NO_THREAD_PERMISSION), ephemeral=True)
            return
        match = await self.service.open_lobby(  # checked above: a new thread has no match yet
            self.game, guild_id=interaction.guild_id, channel_id=thread.id,
            creator=creator, invited=invited, options=options,
            place=place_of(interaction, thread))
        mentions = () if invited is None else (invited.user_id,)
        invite = self.invite_text(interaction, invited, match)
        reply = Reply(content=None if invite is None else server(invite),
                      **await lobby_card(self.bot, match), mentions=mentions)
        message = await thread.send(**reply.kwargs())
        await self.service.store.set_message(match.id, lobby=message.id)
        link = jump_url(interaction.guild_id, thread.id, message.id)
        await interaction.response.edit_message(content=reader(_(
            "Your {game} lobby (match #{id}) is open in {thread}: [go to it]({link}). Players "
            "join it there.", game=title(match.game), id=str(match.id), thread=thread.mention,
            link=link)), view=None)

    @staticmethod
    def invite_text(interaction: discord.Interaction, invited: Player | None,
                    match: Match) -> Text | None:
        """The invitation above a lobby card (to be worded in the server's voice)."""
        if invited is None:
            return None
        return _("{invited}, **{player}** invites you to a game of {game}: press **Join** to "
                 "play.", invited=f"<@{invited.user_id}>", player=interaction.user.display_name,
                 game=title(match.game))

    async def open_rematch(self, interaction: discord.Interaction, finished: Match) -> Match:
        """A new lobby with the same game and options, asked for by a player of `finished`."""
        match = await self.service.rematch(finished.id, player_of(interaction))
        others = tuple(seat.user_id for seat in finished.seats
                       if seat.kind == "user" and seat.user_id != interaction.user.id)
        await self._post_lobby(interaction, match, self.rematch_text(
            interaction, match, finished, others), others)
        await retire_rematch(self.bot, finished)
        return match

    @staticmethod
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

    async def _post_lobby(self, interaction: discord.Interaction, match: Match,
                          content: Words | None, mentions: tuple[int, ...]) -> None:
        """The lobby card with `content` above it, in the server's voice."""
        voice = await self.bot.languages.server(interaction.guild_id)
        reply = Reply(content=None if content is None else voice(content),
                      **await lobby_card(self.bot, match), mentions=mentions)
        async with in_turn(match, interaction):
            message = await send_reply(interaction, reply)
            if message is not None:
                await self.service.store.set_message(match.id, lobby=message.id)
            if match.status == "active":  # a rematch whose computers filled the table
                await self.announce_start(interaction, match)

    def cancel_summary(self, match: Match) -> Words | str:
        """What `/match cancel` adds to its notice (e.g. a series' standings), to be worded in
        the server's voice; nothing here."""
        return ""

    def lobby_rules(self, match: Match) -> Words | str | None:
        """The match options in words, for the lobby card (None: nothing to say)."""
        return None

    def private_changes(self, result: ActionResult) -> list[int]:
        """The seats whose private view an action changed (their live DM is updated): with
        hidden information, every seat while the game runs, since each DM also says whose
        turn it is."""
        if not self.has_private or result.match.status != "active":
            return []
        return list(range(len(result.match.seats)))

    def computer_to_act(self, match: Match) -> int | None:
        """The computer seat the bot plays for now, if any (a game may leave some choices,
        such as whether to play on, to the people)."""
        return match.computer_to_act()

    def must_act(self, match: Match, seat: int) -> bool:
        """Whether `seat` must act now: its private view then comes as a new DM (the
        notification) instead of an edit."""
        return False

    async def match_here(self, interaction: discord.Interaction) -> Match:
        """The open match in this channel, which must be of this cog's game."""
        match = await self.service.require(interaction.channel_id)
        if match.game != self.game:
            raise WrongGame(match, self.game)
        return match

    async def act(self, interaction: discord.Interaction, text: str) -> ActionResult:
        """Apply one action for the caller, post the new board, and update private views."""
        result = await self.service.act(interaction.channel_id, interaction.user.id, text,
                                        game=self.game)
        await self.announce(result, interaction)
        return result

    async def act_read_here(self, interaction: discord.Interaction,
                            read: Callable[[], object]) -> ActionResult:
        """`act` for a move the command reads from its options: the game and the caller's seat
        are checked first, so a bystander hears that, not what was wrong with the move."""
        await self.service.seated(interaction.channel_id, interaction.user.id, game=self.game)
        return await self.act(interaction, str(read()))

    async def announce(self, result: ActionResult,
                       interaction: discord.Interaction | None = None) -> None:
        """Show a saved action, in the channel's commit order: the new board and fresh
        private views."""
        done = _("Your move `{action}` was made and saved", action=result.action)
        async with in_turn(result.match, interaction):
            if await self.overtaken(result.match, interaction, done):
                return
            await self._publish(result.match, result.events, self.private_changes(result),
                                interaction, done)
        if result.finished and self.has_late_card:
            self.final_events[result.match.id] = tuple(result.events)
            task = asyncio.get_running_loop().create_task(
                self.add_late_card(result.match), name=f"gamenight: card of {result.match.id}")
            self._late.add(task)
            task.add_done_callback(self._late.discard)

    async def overtaken(self, match: Match, interaction: discord.Interaction | None,
                        done: Words) -> bool:
        """Whether a later commit closed the open `match` before it was announced: its board
        would ask for a move in a dead match, so only the interaction hears of it."""
        if match.ticket is None or not match.ticket.superseded or not match.is_open:
            return False
        latest = await self.service.get(match.id)
        if latest is None or latest.is_open:
            return False
        if interaction is not None:
            if latest.status == "cancelled":
                said = _("{done}, but the match was cancelled right after, so its board is not "
                         "posted.", done=done)
            else:
                said = _("{done}, but the match was over right after, so its board is not "
                         "posted.", done=done)
            voice = await self.bot.languages.reader(interaction)
            await answer_privately(interaction, voice(said))
        return True

    async def _publish(self, match: Match, events: Iterable[Event], private_seats: list[int],
                       interaction: discord.Interaction | None, done: Words) -> None:
        """The board (as the interaction's reply, or in the channel when there is none or it
        fails) and the private views of `private_seats`. What it shows is already saved, so
        when Discord refuses, the player hears that (`done`) rather than "try again"."""
        refused: list[discord.HTTPException] = []
        try:
            newest = await self.service.store.board(match.id)
            if newest.version is not None and newest.version > match.row.version:
                # another process committed and announced a later move first (within a
                # process, commit order holds)
                if interaction is not None:
                    voice = await self.bot.languages.reader(interaction)
                    await answer_privately(interaction, voice(_(
                        "{done}; the board of a later move is already posted, and shows it.",
                        done=done)))
            else:
                await self._show_board(match, tuple(events), interaction, newest)
        except discord.HTTPException as error:
            await forget_gone(self.bot, match.id, error)  # its channel is gone: the match too
            refused.append(error)
        finally:  # whatever became of the board, the private views follow
            try:
                await self.send_privates(match, private_seats)
            except discord.HTTPException as error:
                refused.append(error)
        if refused:  # told to the interaction's caller, else only logged
            languages = self.bot.languages
            voice = (await languages.reader(interaction) if interaction is not None
                     else await languages.server(match.guild_id))
            raise NotAnnounced(voice(done), refused[0]) from refused[0]

    async def record_board(self, match: Match, message_id: int, version: int,
                           seen: Board | None = None) -> None:
        """Record the board just posted in `message_id`, showing `version`, as the match's
        newest (`seen`: the newest read before it was posted). Across processes the database
        decides which is newest, and Discord's ids say which came last in the channel: a
        board of an older version that landed below one of a newer version is deleted (the
        newer one says it all)."""
        swap = await self.service.store.record_board(match.id, message_id, version, seen=seen)
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

    async def send_privates(self, match: Match, seats: Iterable[int]) -> None:
        """Show each seat its private view in its live DM; point those with closed DMs to the
        private command. Once the match is over, the live DMs shrink to one line."""
        if not self.has_private:
            return
        if match.status != "active":
            await self.live_dms.close(match, _closing_note(match))
            return

        seats = list(seats)
        delivered = await asyncio.gather(*(self.deliver_private(match, s) for s in seats))
        closed = [seat for seat, ok in zip(seats, delivered) if not ok]
        if closed:
            await notify_closed_dms(self.bot, match, closed, self.private_command,
                                    self.private_thing)

    async def deliver_private(self, match: Match, seat: int) -> bool:
        """The seat's private view in its live DM; False when its DMs are closed. A
        computer's hand is never drawn or sent anywhere."""
        player = match.player(seat)
        if player.kind != "user":
            return True
        voice = await self.bot.languages.person(player.user_id, match.guild_id)
        reply = await self.private_reply(match, seat, voice)
        reply.content = f"{voice(where(self.bot, match))}\n{reply.content or ''}".rstrip()
        prompt = self.must_act(match, seat)
        if prompt and match.turn_due is not None and not match.computer_plays(seat):
            reply.content += "\n" + voice(_("⏱ Your time runs out {when}.",
                                            when=f"<t:{int(match.turn_due)}:R>"))
        return await self.live_dms.show(match, seat, reply, prompt=prompt,
                                        again=lambda: self._deliver_newest(match.id, seat))

    async def _deliver_newest(self, match_id: int, seat: int) -> None:
        """The seat's newest private view again (another process's edit raced this one's)."""
        newest = await self.service.get(match_id)
        if newest is None:
            return
        if newest.status == "active":
            await self.deliver_private(newest, seat)
        else:
            await self.live_dms.close(newest, _closing_note(newest), seats=(seat,))

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

    async def posts_anew(self, match: Match, events: tuple[Event, ...]) -> bool:
        """Whether this board is a new channel post (something new to see, or someone to
        ping) rather than an edit of the live table message. Boards are always new here."""
        return True

    async def edit_table(self, match: Match, events: tuple[Event, ...],
                         board: Board | None = None) -> int | None:
        """Show the board by editing the live table message, and return its id; None when
        there is none or Discord refuses (then the board is posted instead).

        The message is claimed for this version before the edit and checked after it, so of
        edits racing on it (two processes announcing two moves), the last to land shows the
        newest version: one that finds a newer claim after its edit shows the newest again."""
        store = self.service.store
        board = board or await store.board(match.id)
        if board.message_id is None:
            return None
        claim = await store.record_board(match.id, board.message_id, match.row.version,
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
        after = await store.board(match.id)
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
        newest = newest or await self.service.store.board(match.id)
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
        return reply

    async def announce_start(self, interaction: discord.Interaction, match: Match) -> None:
        """The first board and hands of a match just started (called in its commit order)."""
        done = _("The {game} game started and was saved", game=title(match.game))
        if await self.overtaken(match, interaction, done):
            return
        seats = list(range(len(match.seats))) if self.has_private else []
        self.images.forget(match.channel_id)
        await self._publish(match, match.state.events, seats, interaction, done)


def _closing_note(match: Match) -> Text:
    """What a finished match's live DMs shrink to."""
    return (_("This match was cancelled: see the channel.") if match.status == "cancelled"
            else _("This match is over: see the channel."))
