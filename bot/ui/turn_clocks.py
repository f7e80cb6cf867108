"""Turn clocks: the half-time reminder, what happens when a turn's time runs out, lobbies that
never fill and matches nobody plays any more; and after the whole bot was down (its clocks
stood still: bot/matches/timekeeper.py), every moved deadline shown on its board, and the
boards of changes saved but never shown posted.

Every deadline follows from the match row (`turn_since`, `turn_seconds`, `human_at`...), which
each commit writes with the action, so arming them is arithmetic: after every commit
(`arm`), and for every open match at start-up. A deadline that fires re-reads its match and
does nothing if the match moved on.
"""

from __future__ import annotations

import asyncio
import logging
from datetime import UTC, datetime
from collections.abc import Hashable, Mapping
from typing import TYPE_CHECKING, Any, Protocol

import discord

from bot.matches.deadlines import Clock, Deadlines
from bot.ui.error_replies import jump_url
from bot.ui.gone import DMS_CLOSED, Host, edit_stored, post_notice
from bot.ui.persistent import PersistentItem
from bot.ui.present import in_turn
from bot.ui.presenter import Presenter
from bot.matches.errors import Conflict
from bot.matches.model import ABANDONED_AFTER, Match, Timeout, player_name
from bot.matches.service import MatchService
from bot.storage.rows import ClockRow, ClosedDMs, Downtime, MatchRow
from bot.matches.titles import title
from games.common import GameError
from i18n import ENGLISH_VOICE, Duration, Text, Voice, Words, _, n_

if TYPE_CHECKING:
    from bot.ui.dm_channels import DMChannels
    from bot.ui.language import Languages

log = logging.getLogger(__name__)


REMIND, TURN, LOBBY, ABANDON = "remind", "turn", "lobby", "abandon"
DAY = 86400
HOUR = 3600
CATCH_UP_AT_ONCE = 4  # boards owed since a crash, posted this many at a time


class TurnClockStore(Protocol):
    """The slice of the store the turn clocks read and write: the clocks themselves, the
    boards owed, and whom a reminder may reach."""

    async def clock_rows(self) -> list[ClockRow]: ...
    async def owed_boards(self, *, before: float | None = None, after: float | None = None,
                          finished_after: float | None = None) -> list[int]: ...
    async def mark_reminded(self, match_id: int, version: int) -> bool: ...
    async def away_in(self, channel_id: int, user_id: int) -> int | None: ...
    async def notify(self, user_id: int) -> bool: ...
    async def dms_closed(self, user_id: int) -> ClosedDMs | None: ...
    async def mark_dms_closed(self, user_id: int, at: datetime) -> None: ...


class ClockHost(Host, Protocol):
    """What the turn clocks use of the bot beside the store: the client they post notices
    and send DMs through (named here, not imported: the client imports this module)."""

    @property
    def dm_channels(self) -> DMChannels: ...
    async def wait_until_ready(self) -> None: ...


class TurnClocks:
    def __init__(self, store: TurnClockStore, service: MatchService,
                 presenters: Mapping[str, Presenter], languages: Languages, host: ClockHost,
                 clock: Clock) -> None:
        """`presenters`: each game's, by its name (filled as the games are added); `host`:
        the client that posts the notices and sends the DMs."""
        self.store = store
        self.service = service
        self.presenters = presenters
        self.languages = languages
        self.host = host
        self.clock = clock
        self.deadlines = Deadlines(clock, self._fire)
        self._tasks: set[asyncio.Task[None]] = set()  # boards owed, found by a re-scan

    # -- arming ------------------------------------------------------------------------------

    def arm(self, row: MatchRow | ClockRow) -> None:
        """Set the match's deadlines from its row (after each commit, and at start-up)."""
        due: dict[str, float | None] = dict.fromkeys((REMIND, TURN, LOBBY, ABANDON))
        since = row.turn_since if row.turn_since is not None else self.clock.now()
        if row.status == "lobby" and row.lobby_seconds:
            due[LOBBY] = since + row.lobby_seconds
        if row.status == "active":
            if row.turn_seconds:
                due[TURN] = since + row.turn_seconds
                if row.reminded != row.version:
                    due[REMIND] = since + row.turn_seconds / 2
            due[ABANDON] = (row.human_at if row.human_at is not None else since) + ABANDONED_AFTER
        for kind, when in due.items():
            if when is None:
                self.deadlines.disarm((row.id, kind))
            else:
                self.deadlines.arm((row.id, kind), when)

    async def start(self) -> None:
        """Arm every open match's deadlines and start keeping time (taking over from another
        process, what fell due meanwhile is done at once; the whole bot's downtime was taken
        out of the clocks at start-up: `Store.resume_clocks`)."""
        for row in await self.store.clock_rows():
            self.arm(row)
        self.deadlines.start()

    def _spawn(self, work: Any, name: str) -> None:
        task = asyncio.get_running_loop().create_task(work, name=f"gamenight: {name}")
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def stop(self) -> None:
        """Stop keeping time."""
        for task in list(self._tasks):
            task.cancel()
        await asyncio.gather(*self._tasks, return_exceptions=True)
        await self.deadlines.stop()

    # -- after a downtime --------------------------------------------------------------------

    async def after_downtime(self, downtime: Downtime) -> None:
        """Once connected, after the whole bot was down (`Store.resume_clocks`): the boards
        owed since the crash (in commit order), every other moved deadline edited into its
        board, then where a turn would have run out meanwhile, its new end."""
        await self.host.wait_until_ready()
        await self.catch_up(list(downtime.owed))
        edited = 0
        for match_id, due in downtime.moved:  # one at a time: the players' moves come first
            if match_id not in downtime.owed and self._shows_differently(due, downtime.seconds):
                edited += await self._each(match_id, "show_new_deadline")
        if downtime.moved:
            log.info("showed %d of %d moved deadline(s) on their boards (the others look the "
                     "same)", edited, len(downtime.moved))
        for match_id in downtime.affected:
            await self._tell_paused(match_id, downtime.seconds)

    def _shows_differently(self, due: float, moved: float) -> bool:
        """Whether the deadline `due`, moved by `moved` seconds, looks different on Discord:
        a `<t:…:R>` within the hour counts down in minutes and seconds; a later one says
        hours or days, and its full date (on hover) changes only with the minute."""
        return due - self.clock.now() < HOUR or int(due // 60) != int((due - moved) // 60)

    async def catch_up(self, owed: list[int]) -> int:
        """Post the current board of each match in `owed` (`Store.owed_boards`) whose board
        is still older than its saved state, a few at a time (each in its channel's commit
        order); how many were posted."""
        gate = asyncio.Semaphore(CATCH_UP_AT_ONCE)

        async def one(match_id: int) -> bool:
            async with gate:
                return await self._each(match_id, "catch_up")

        posted = sum(await asyncio.gather(*(one(match_id) for match_id in owed)))
        if owed:
            log.info("posted %d of %d board(s) saved but never shown (the others were shown "
                     "meanwhile)", posted, len(owed))
        return posted

    async def catch_up_owed(self, before: float, after: float) -> int:
        """Post, in the background, the boards owed for changes committed between `after`
        and `before` (a re-scan: a process died before announcing them); how many are owed.
        Run twice at once, each board is still posted once: the second waits in the
        channel's commit order and finds it shown."""
        owed = await self.store.owed_boards(before=before, after=after)
        if owed:
            self._spawn(self.catch_up(owed), "owed boards")
        return len(owed)

    async def _each(self, match_id: int, what: str) -> bool:
        """Run the match's presenter's `what` (catch_up, show_new_deadline) on it as saved
        now, in its channel's commit order; one match's failure does not stop the others."""
        try:
            match = await self.service.in_order(match_id)
            if match is None:
                return False
            return await getattr(self.presenters[match.game], what)(match)
        except Exception:
            log.exception("could not show match %s again (%s)", match_id, what)
            return False

    async def _tell_paused(self, match_id: int, down: float) -> None:
        """Where a turn would have run out while the bot was down: its new end."""
        match = await self.service.get(match_id)
        seat = None if match is None else match.current_seat()
        if match is None or seat is None or match.turn_due is None:
            return
        await self.say(match, _(
            "The bot was offline for {downtime}, and turn clocks stood still meanwhile: "
            "**{player}**'s turn now ends {when}.", downtime=Duration(down),
            player=player_name(match.player(seat)), when=f"<t:{int(match.turn_due)}:R>"))

    async def back_by_command(self, interaction: discord.Interaction) -> None:
        """Any slash command of a player who is away, in their match's channel, brings them
        back: their turns are theirs again (a listener on every interaction)."""
        if interaction.type is not discord.InteractionType.application_command or (
                interaction.guild_id is None or interaction.channel_id is None):
            return
        await self.back_by_acting(interaction.channel_id, interaction.user.id)

    async def back_by_acting(self, channel_id: int, user_id: int) -> None:
        """A player away in the channel's active match who acts there (a slash command, a
        move from the Activity) plays their own turns again; nothing if they are not away."""
        match_id = await self.store.away_in(channel_id, user_id)
        if match_id is None:
            return
        try:
            back = await self.service.come_back(match_id, user_id)
        except GameError:  # their own move brought them back first
            return
        async with in_turn(back):
            pass  # nothing to post: their command's (or move's) answer follows

    # -- firing ------------------------------------------------------------------------------

    async def _fire(self, key: Hashable) -> None:
        try:
            await self._act_on(key)
        except Conflict:  # another process acted on the match first (a takeover's overlap)
            log.info("deadline %s: the match changed meanwhile; nothing to do", key)

    async def _act_on(self, key: Hashable) -> None:
        match_id, kind = key  # type: ignore[misc]
        if kind == TURN:
            await self._time_out(match_id)
        elif kind == REMIND:
            await self._remind(match_id)
        else:
            await self._close(match_id, kind)

    async def _time_out(self, match_id: int) -> None:
        timeout = await self.service.time_out(match_id, self.clock.now())
        if timeout is None:
            return
        if timeout.result is not None:  # a pass or a resignation: told with its board
            await self.say(timeout.before, self.timeout_text(timeout))
            await self.presenters[timeout.before.game].announce(timeout.result)
            if _plays_on_for_them(timeout):
                await self.offer_return(timeout.after, timeout.seat, timed_out=True)
            return
        async with in_turn(timeout.after):  # before the computer's move is announced
            await self.say(timeout.before, self.timeout_text(timeout))
        if timeout.kind == "away":
            await self.offer_return(timeout.after, timeout.seat, timed_out=True)

    @staticmethod
    def timeout_text(timeout: Timeout) -> Text:
        """What the channel hears when a turn's time ran out, by what happens next."""
        match = timeout.before
        values = {"player": player_name(match.player(timeout.seat)),
                  "limit": Duration(match.row.turn_seconds or 0)}
        if timeout.kind == "stop":
            return _("⏰ Nobody dealt the next round within {limit}: the series ends here.",
                     **values)
        if timeout.kind == "deal":
            return _("⏰ Nobody dealt the next round within {limit}, so it is dealt now.",
                     **values)
        if timeout.kind == "away":
            return _("⏰ **{player}** ran out of time ({limit} a turn): a computer plays their "
                     "turns until they are back (any move of theirs, or **I'm back** in their "
                     "DM).", **values)
        if timeout.kind == "once":
            return _("⏰ **{player}** ran out of time ({limit} a turn): a computer makes this "
                     "move for them; the next turn is theirs.", **values)
        if timeout.kind == "skip":
            return _("⏰ **{player}** ran out of time ({limit} a turn) and passes.", **values)
        if timeout.kind == "forfeit":
            return _("⏰ **{player}** ran out of time ({limit} a turn) and forfeits.", **values)
        raise ValueError(f"unknown timeout kind {timeout.kind!r}")

    async def offer_return(self, match: Match, seat: int, *, timed_out: bool = False) -> None:
        """DM a player a computer now plays for an **I'm back** button (not to closed DMs)."""
        user_id = match.player(seat).user_id
        if user_id is None or await self.store.dms_closed(user_id) is not None:
            return
        voice = await self.languages.person(user_id, match.guild_id)  # a DM: theirs
        view = discord.ui.View(timeout=None)
        view.add_item(BackButton(match.id, voice))
        values = {"game": title(match.game), "id": str(match.id),
                  "link": jump_url(match.guild_id, match.channel_id, match.row.board_message_id)}
        if timed_out:
            text = _("Your time ran out in the {game} match #{id} ({link}): a computer plays "
                     "your turns meanwhile. Press **I'm back** to play them yourself again.",
                     **values)
        else:
            text = _("You are away in the {game} match #{id} ({link}): a computer plays your "
                     "turns meanwhile. Press **I'm back** to play them yourself again.", **values)
        await self._dm(user_id, voice(text), view=view)

    async def _remind(self, match_id: int) -> None:
        match = await self.service.get(match_id)
        if match is None or match.turn_due is None or match.row.reminded == match.row.version:
            return
        seat = match.current_seat()
        if seat is None or match.computer_plays(seat):
            return
        if not await self.store.mark_reminded(match.id, match.row.version):
            return  # the match moved on meanwhile
        user_id = match.player(seat).user_id
        if user_id is None or not await self.store.notify(user_id):
            return
        link = jump_url(match.guild_id, match.channel_id, match.row.board_message_id)
        ends = f"<t:{int(match.turn_due)}:R>"
        if await self.store.dms_closed(user_id) is None:
            voice = await self.languages.person(user_id, match.guild_id)  # a DM: theirs
            if await self._dm(user_id, voice(_(
                    "⏰ It is your turn in the {game} match #{id} ({link}): your time runs out "
                    "{when}. (`/gamenight notify off` stops these.)", game=title(match.game),
                    id=str(match.id), link=link, when=ends))):
                return
        await self.say(match, _("{player}, a reminder: it is your turn, and your time runs out "
                                "{when}.", player=f"<@{user_id}>", when=ends), mention=user_id)

    async def _close(self, match_id: int, kind: str) -> None:
        reason = "lobby" if kind == LOBBY else "abandoned"
        match = await self.service.close_idle(match_id, reason, self.clock.now())
        if match is None:
            return
        if reason == "lobby":
            voice = await self.languages.server(match.guild_id)
            await edit_stored(self.host, match, match.row.lobby_message_id, "the lobby card",
                              content=voice(_("This lobby closed: nobody joined in time.")),
                              view=None)
            text = _("The {game} lobby closed: nobody joined within {limit}. Open a new one "
                     "with `{command}`.", game=title(match.game),
                     limit=Duration(match.row.lobby_seconds or 0), command=f"/{match.game} new")
        else:
            text = n_("The {game} match #{id} was closed as abandoned: nobody has played in "
                      "it for {n} day.", "The {game} match #{id} was closed as abandoned: "
                      "nobody has played in it for {n} days.", ABANDONED_AFTER // DAY,
                      game=title(match.game), id=str(match.id))
        await self.say(match, text)

    # -- saying ------------------------------------------------------------------------------

    async def say(self, match: Match, text: Words | str, *,
                  mention: int | None = None) -> None:
        """A notice in the match's channel (in the server's voice), mentioning only
        `mention`."""
        mentions = discord.AllowedMentions(users=[discord.Object(mention)] if mention else [])
        await post_notice(self.host, match, text, what="a turn-clock notice",
                          allowed_mentions=mentions)

    async def _dm(self, user_id: int, text: str, **kwargs: object) -> bool:
        try:
            channel = await self.host.dm_channels.of(user_id)
            await channel.send(text, **kwargs)
        except discord.HTTPException as error:
            log.info("could not DM user %s about a turn clock: %s", user_id, error)
            if error.code == DMS_CLOSED:  # at the wall time, as bot/ui/dms.py records it
                await self.store.mark_dms_closed(user_id, datetime.now(UTC))
            return False
        return True


class BackButton(
    PersistentItem[discord.ui.Button],
    template=r"gn:back:(?P<match_id>[0-9]+)",
):
    """On the DM telling a player that a computer plays their turns: play them yourself again."""

    def __init__(self, match_id: int, voice: Voice = ENGLISH_VOICE) -> None:
        """`voice`: the DM reader's, for the label (none when Discord's press is read back)."""
        super().__init__(discord.ui.Button(label=voice(_("I'm back")),
                                           style=discord.ButtonStyle.success,
                                           custom_id=f"gn:back:{match_id}"))
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match, /) -> BackButton:
        return cls(int(match["match_id"]))

    async def use(self, interaction: discord.Interaction) -> None:
        bot: Any = interaction.client
        match = await bot.service.come_back(self.match_id, interaction.user.id)
        voice = await bot.languages.dm_reader(interaction, match.guild_id)
        async with in_turn(match, interaction):
            await interaction.response.edit_message(content=voice(_(
                "Welcome back: your turns in the {game} match #{id} are yours again.",
                game=title(match.game), id=str(match.id))), view=None)


def _plays_on_for_them(timeout: Timeout) -> bool:
    """A forfeit where the series goes on (Dou Dizhu): a computer plays the seat's next deals
    until its person is back."""
    after = timeout.after
    return (timeout.kind == "forfeit" and after.status == "active"
            and getattr(after.engine, "forfeit", None) is not None
            and after.player(timeout.seat).away is not None)
