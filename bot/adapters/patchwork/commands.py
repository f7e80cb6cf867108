"""`/patchwork ...`: buying, previewing and placing patches, with autocomplete that offers only
the orientations and squares where the patch fits."""

from __future__ import annotations

from collections.abc import Callable

import discord
from discord import app_commands
from discord.ext import commands

import games.patchwork as patchwork
from bot.adapters.patchwork.presenter import PatchworkPresenter
from bot.adapters.patchwork.words import orientation_words, phase_problem
from bot.commands.game import GameCommands, NewLobby, new_command
from bot.matches.errors import LobbyError
from bot.matches.model import Match
from bot.ui.present import send_reply
from games.common import GameError
from games.patchwork import SQUARES, oriented_cells
from i18n import ENGLISH_VOICE, Voice, _


@app_commands.guild_only()
class PatchworkCommands(GameCommands, commands.GroupCog, group_name="patchwork",
                        group_description="Patchwork: sew the best quilt (two players)"):
    presenter: PatchworkPresenter
    @new_command("Open a Patchwork game in this channel")
    @app_commands.describe(opponent="Invite one person: only they can take the second seat")
    def new(self, opponent: discord.Member | None = None) -> NewLobby:
        return NewLobby(invited=opponent)

    @app_commands.command(name="buy", description="Buy a patch on offer and sew it on your quilt")
    @app_commands.describe(patch="Which of the three patches after the spool (1, 2 or 3)",
                           square="Where its top-left corner goes, a1 to i9 (row 1 at the top)",
                           orientation="Turn clockwise 0/90/180/270, optionally mirrored")
    async def buy(self, interaction: discord.Interaction, patch: app_commands.Range[int, 1, 3],
                  square: str, orientation: str) -> None:
        await self._act_in_phase(interaction, lambda: patchwork.Buy(patch, orientation, square),
                                 placing=False)

    @app_commands.command(name="preview", description="See a patch placed on your quilt (only you)")
    @app_commands.describe(patch="Which of the three patches after the spool (1, 2 or 3)",
                           orientation="Turn clockwise 0/90/180/270, optionally mirrored",
                           square="Where its top-left corner goes, a1 to i9")
    async def preview(self, interaction: discord.Interaction,
                      patch: app_commands.Range[int, 1, 3], orientation: str,
                      square: str) -> None:
        match, seat = await self.service.seated(interaction.channel_id, interaction.user.id,
                                                game=self.game)
        if match.status != "active":
            raise LobbyError(_("The match has not started yet."))
        move = patchwork.Buy(patch, orientation, square)
        voice = await self.bot.languages.reader(interaction)
        await send_reply(interaction, self.presenter.preview_reply(match, seat, move, voice),
                         ephemeral=True)

    @app_commands.command(name="pass",
                          description="Move in front of your opponent, 1 button a space")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self._act_in_phase(interaction, lambda: "pass", placing=False)

    @app_commands.command(name="place", description="Place the leather patch you have just won")
    @app_commands.describe(square="A free square of your quilt, a1 to i9")
    async def place(self, interaction: discord.Interaction, square: str) -> None:
        await self._act_in_phase(interaction, lambda: patchwork.Place(square), placing=True)

    async def _act_in_phase(self, interaction: discord.Interaction,
                            read: Callable[[], object], *, placing: bool) -> None:
        """`act_read_here`, but a move in the wrong phase hears which command to use."""
        match, seat = await self.service.seated(interaction.channel_id, interaction.user.id,
                                                game=self.game)
        problem = phase_problem(match.state, seat, placing=placing) if match.state else None
        if problem is not None:
            raise patchwork.WrongPhase(problem)
        await self.act(interaction, str(read()))

    # -- autocomplete ------------------------------------------------------------------------

    @buy.autocomplete("orientation")
    @preview.autocomplete("orientation")
    async def orientation_choices(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        found = await self._my_offer(interaction)
        if found is None:
            return []
        patch_id = found[2]
        voice = await self.bot.languages.reader(interaction)
        return [app_commands.Choice(name=voice(orientation_words(name)), value=name)
                for name in matching_orientations(patch_id, current, voice)][:25]

    @buy.autocomplete("square")
    @preview.autocomplete("square")
    async def square_choices(self, interaction: discord.Interaction,
                             current: str) -> list[app_commands.Choice[str]]:
        found = await self._my_offer(interaction)
        if found is None:
            return []
        match, seat, patch_id = found
        mask = match.state.quilt_mask(seat)
        try:
            chosen = [patchwork.parse_orientation(interaction.namespace.orientation)]
        except (GameError, AttributeError, TypeError):
            chosen = list(patchwork.orientations(patch_id))
        squares = {sq for name in chosen
                   for sq in patchwork.legal_placements(mask, patch_id, name)}
        return _square_choices(squares, current)

    @place.autocomplete("square")
    async def free_square_choices(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        match = await self.service.current(interaction.channel_id)
        if match is None or match.game != self.game or match.state is None:
            return []
        seat = match.seat_of(interaction.user.id)
        if seat is None or match.state.pending_seat != seat:
            return []
        mask = match.state.quilt_mask(seat)
        return _square_choices({sq for i, sq in enumerate(SQUARES) if not mask >> i & 1}, current)

    async def _my_offer(self, interaction: discord.Interaction) -> tuple[Match, int, int] | None:
        """The caller's match and seat, and the id of the patch named by the `patch` option
        (None while the caller must place a leather patch: they cannot buy now)."""
        match = await self.service.current(interaction.channel_id)
        if match is None or match.game != self.game or match.state is None:
            return None
        seat = match.seat_of(interaction.user.id)
        choice = getattr(interaction.namespace, "patch", None)
        offer = match.state.offer
        if seat is None or not isinstance(choice, int) or not 1 <= choice <= len(offer):
            return None
        if match.state.pending_seat == seat:
            return None
        return match, seat, offer[choice - 1]


def matching_orientations(patch_id: int, typed: str, voice: Voice = ENGLISH_VOICE) -> list[str]:
    """The patch's distinct orientations matching what was typed: the one `90m` or `90 m`
    reads as (or the one of the same shape), and those containing it (`mirr`, or the
    reader's word for mirrored)."""
    names = patchwork.orientations(patch_id)
    typed = " ".join(typed.lower().split())
    try:
        shape = oriented_cells(patch_id, patchwork.parse_orientation(typed))
    except GameError:
        shape = None
    return [name for name in names
            if typed in name or typed in voice(orientation_words(name)).lower()
            or oriented_cells(patch_id, name) == shape]


def _square_choices(squares: set[str], current: str) -> list[app_commands.Choice[str]]:
    typed = current.strip().lower()
    ordered = [sq for sq in SQUARES if sq in squares and sq.startswith(typed)]
    return [app_commands.Choice(name=sq, value=sq) for sq in ordered[:25]]
