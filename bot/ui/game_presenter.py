"""What every game's presenter shares (`Presenter` in bot/ui/presenter.py): announcing a start
or an action in the channel's commit order (the board, and fresh private views by DM), the
private views themselves, and the defaults of what a game may word or override.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from functools import cached_property
from typing import Any, ClassVar

import discord

from bot.matches.errors import LobbyError
from bot.matches.model import ActionResult, Match
from bot.matches.titles import title
from bot.ui.boards import Boards
from bot.ui.dms import LiveDMs, where
from bot.storage.errors import StoreOutage
from bot.ui.error_replies import NotAnnounced, SavedNotShown
from bot.ui.gone import forget_gone
from bot.ui.present import Reply, answer_privately, in_turn, legacy_names, send_reply
from bot.ui.presenter import Export, ExportFile, GameHelp
from bot.ui.watch import with_seat_button
from games.common import Event, GameError
from i18n import Text, Voice, Words, _


class GamePresenter(Boards):
    """The base of each game's presenter (bot/adapters/<game>/presenter.py), which sets `game`
    and `help`, draws its board (`board_reply`, see `Boards`) and words its engine's events
    (`event_text`) and errors (`error_text`); a game with hidden information sets
    `has_private` and draws each seat's private view (`private_reply`)."""

    game: ClassVar[str]
    help: ClassVar[GameHelp]
    has_private: ClassVar[bool] = False  # hands or racks to send by DM
    private_command: ClassVar[str] = "/match hand"
    private_thing: ClassVar[str] = "hand"

    @cached_property
    def live_dms(self) -> LiveDMs:
        """Each player's hand or rack by DM (made when first used: the store is open by
        then)."""
        return LiveDMs(self.bot.store, self.bot, self.private_thing)

    # -- what a game words or overrides ------------------------------------------------------

    def lobby_rules(self, match: Match) -> Words | str | None:
        """The match options in words, for the lobby card (None: nothing to say)."""
        return None

    def cancel_summary(self, match: Match) -> Words | str | None:
        """What `/match cancel` adds to its notice (e.g. a series' standings), to be worded in
        the server's voice; nothing here."""
        return ""

    def event_text(self, match: Match, event: Event) -> Words:
        """An engine event in words (the game's adapter words its own kinds of event)."""
        return event.text.format(**legacy_names(match))

    def error_text(self, error: GameError) -> Words | None:
        """An engine error of this game in words; None: not one this game words."""
        return None

    async def private_reply(self, match: Match, seat: int, voice: Voice) -> Reply:
        """What `/match hand` shows the seat, in its player's `voice`; games with hidden
        information override this."""
        return Reply(content=voice(_(
            "{game} has no hidden information: everything is on the board. Use `/match status` "
            "to see it again.", game=title(match.game))))

    def must_act(self, match: Match, seat: int) -> bool:
        """Whether `seat` must act now: its private view then comes as a new DM (the
        notification) instead of an edit."""
        return False

    def private_changes(self, result: ActionResult) -> list[int]:
        """The seats whose private view an action changed (their live DM is updated): with
        hidden information, every seat while the game runs, since each DM also says whose
        turn it is."""
        if not self.has_private or result.match.status != "active":
            return []
        return list(range(len(result.match.seats)))

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

    # -- announcing --------------------------------------------------------------------------

    async def announce_start(self, interaction: discord.Interaction, match: Match) -> None:
        """The first board and hands of a match just started (called in its commit order)."""
        done = _("The {game} game started and was saved", game=title(match.game))
        if await self.overtaken(match, interaction, done):
            return
        seats = list(range(len(match.seats))) if self.has_private else []
        self.images.forget(match.channel_id)
        with saved_not_shown(done):
            await self._publish(match, match.state.events, seats, interaction, done)

    async def announce(self, result: ActionResult,
                       interaction: discord.Interaction | None = None) -> None:
        """Show a saved action, in the channel's commit order: the new board and fresh
        private views."""
        done = _("Your move `{action}` was made and saved", action=result.action)
        async with in_turn(result.match, interaction):
            with saved_not_shown(done):
                if await self.overtaken(result.match, interaction, done):
                    return
                await self._publish(result.match, result.events, self.private_changes(result),
                                    interaction, done)
        self.find_late_card(result)

    async def catch_up(self, match: Match) -> bool:
        """Show a board owed since a crash: `match` (with its place in the commit order,
        `service.in_order`) was saved at a version whose board never got posted, because the
        process died in between. Its current board and private views come now, as its
        announcement would have brought them (the player to move is pinged: nobody was);
        False when a board of this version or a newer one is shown meanwhile."""
        async with in_turn(match):
            newest = await self.store.board(match.id)
            if newest.version is not None and newest.version >= match.row.version:
                return False
            seats = list(range(len(match.seats))) if self.has_private else []
            await self._publish(match, match.state.events, seats, None, _("Saved."))
        return True

    async def show_new_deadline(self, match: Match) -> bool:
        """The turn clocks moved (they stood still while the bot was down): edit the match's
        board, and the live DM of the seat to move, to show the deadline as it is now. False
        when there is no board of this version to edit (a newer one shows it)."""
        async with in_turn(match):
            board = await self.store.board(match.id)
            if board.message_id is None or (board.version or 0) > match.row.version:
                return False
            await self.edit_table(match, match.state.events, board)
            seat = match.current_seat()
            if self.has_private and seat is not None and match.status == "active":
                await self.send_privates(match, [seat])
        return True

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
            newest = await self.store.board(match.id)
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

    # -- private views -----------------------------------------------------------------------

    async def show_private(self, interaction: discord.Interaction, match: Match,
                           seat: int) -> None:
        """The seat's private view as an ephemeral reply (`/match hand` and the like)."""
        if match.status == "lobby":
            raise LobbyError(_("The match has not started yet, so there is nothing to show."))
        voice = await self.bot.languages.reader(interaction)
        await send_reply(interaction, self.private_reply(match, seat, voice), ephemeral=True)

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
            await self.live_dms.notify_closed(match, closed, self.private_command)

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
        reply.view = await with_seat_button(self.bot, match, seat, reply.view, voice)
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


@contextmanager
def saved_not_shown(done: Words) -> Iterator[None]:
    """The database lost after the commit (while the board is posted) is not "try again"."""
    try:
        yield
    except StoreOutage as error:
        raise SavedNotShown(done) from error


def _closing_note(match: Match) -> Text:
    """What a finished match's live DMs shrink to."""
    return (_("This match was cancelled: see the channel.") if match.status == "cancelled"
            else _("This match is over: see the channel."))
