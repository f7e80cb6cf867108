"""`/patchwork ...`: buying, previewing and placing patches, and how the table is posted."""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import games.patchwork as patchwork
from bot.cogs.base import (
    TURN_TIME_CHOICES, TURN_TIME_TEXT, GameCog, GameHelp, add_game, turn_option,
)
from bot.present import COLOUR, Reply, describe_events, mention, render_in_thread, send_reply
from bot.service import LobbyError, Match
from games.common import Event, GameError, counted
from games.patchwork import SQUARES, oriented_cells
from render import alt as alt_text
from render.patchwork import drawn_to_start, render_game, render_preview
from i18n import Voice

if TYPE_CHECKING:
    from bot.client import GamenightBot

WHY = {
    patchwork.TURN_BEHIND: "their time token is behind",
    patchwork.TURN_ON_TOP: "both tokens share a space and theirs arrived last",
    patchwork.TURN_LEATHER: "they reached a leather patch first and must place it",
}
DRAWN_TO_START = "they were drawn to start"
PLACE_FIRST = ("you must place your leather patch first: use `/patchwork place` and a free "
               "square, e.g. `/patchwork place e5`")


@app_commands.guild_only()
class PatchworkCog(GameCog, commands.GroupCog, group_name="patchwork",
                   group_description="Patchwork: sew the best quilt (two players)"):
    game = patchwork.NAME
    help = GameHelp(
        title="Patchwork",
        players="2 players",
        summary=("Buy one of the three patches after the spool with buttons, sew it onto your "
                 "9x9 quilt and move your time token on by its time cost; or pass, moving in "
                 "front of your opponent and taking a button per space. The player behind "
                 "moves. Income spaces pay the buttons on your quilt; leather patches go to "
                 "whoever reaches them first; the first full 7x7 square earns 7. At the end: "
                 "buttons + bonus - 2 per empty square."),
        commands=(("/patchwork new [opponent]", "open a game here (optionally invite someone)"),
                  ("/patchwork buy patch square orientation",
                   "buy patch 1-3 and place its top-left on a square (autocomplete helps)"),
                  ("/patchwork preview patch orientation square",
                   "see a placement on your quilt first (only you)"),
                  ("/patchwork pass", "move in front of your opponent for buttons"),
                  ("/patchwork place square", "place a leather patch you have won")),
    )

    def __init__(self, bot) -> None:
        GameCog.__init__(self, bot)

    @app_commands.command(name="new", description="Open a Patchwork game in this channel")
    @app_commands.describe(opponent="Invite one person: only they can take the second seat",
                           turn_time=TURN_TIME_TEXT)
    @app_commands.choices(turn_time=TURN_TIME_CHOICES)
    async def new(self, interaction: discord.Interaction,
                  opponent: discord.Member | None = None, turn_time: str | None = None) -> None:
        await self.open_lobby(interaction, invited=opponent, options=turn_option(turn_time))

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
            raise LobbyError("The match has not started yet.")
        move = patchwork.Buy(patch, orientation, square)
        await send_reply(interaction, self._preview_reply(match, seat, move), ephemeral=True)

    async def _preview_reply(self, match: Match, seat: int, move: patchwork.Buy) -> Reply:
        state = match.state
        problem = preview_problem(state, seat, move)
        view = patchwork.view(state, seat)
        png = await render_in_thread(render_preview, view, seat, move.choice, move.orientation,
                                     move.square, problem is None, problem)
        if problem is not None:
            text = f"`{move}` would not work: {problem}."
        elif patchwork.current_seat(state) == seat:
            text = f"`{move}` fits: use `/patchwork buy` to do it."
        else:
            text = f"`{move}` fits — you can buy it on your turn."
        alt = f"Your quilt with the patch ghosted in place. {text.replace('`', '')}"
        return Reply(content=text, png=png, filename="preview.png", alt=alt)

    @app_commands.command(name="pass", description="Move in front of your opponent, 1 button a space")
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
        if problem is not None:  # a sentence of its own here, not part of a preview's
            raise patchwork.WrongPhase(f"{problem[:1].upper()}{problem[1:]}.")
        await self.act(interaction, str(read()))

    # -- autocomplete ------------------------------------------------------------------------

    @buy.autocomplete("orientation")
    @preview.autocomplete("orientation")
    async def orientation_choices(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        found = await self._my_offer(interaction)
        if found is None:
            return []
        _, _, patch_id = found
        return [app_commands.Choice(name=name, value=name)
                for name in matching_orientations(patch_id, current)][:25]

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

    # -- presenting --------------------------------------------------------------------------

    async def board_reply(self, match: Match, events: Iterable[Event],
                          voice: Voice) -> Reply:
        state = match.state
        view = patchwork.view(state)
        names = [s.name for s in match.seats]
        png = await render_in_thread(render_game, view, names)
        embed = discord.Embed(title=f"Patchwork: {names[0]} vs {names[1]}",
                              description=voice(describe_events(match, events, self.event_text)) or None, colour=COLOUR)
        for player in view.players:
            left = view.track_end - player.position
            bonus = " · 7x7 bonus" if player.has_bonus else ""
            embed.add_field(
                name=names[player.seat],
                value=(f"{mention(match, player.seat)}\n{counted(player.buttons, 'button')} · income "
                       f"{player.income}\n{left} time left · {player.quilt.empty} empty{bonus}"))
        embed.set_footer(text=f"Match #{match.id} · move {view.move_count}")
        result = view.outcome
        if result is None:
            seat = view.turn
            why = DRAWN_TO_START if drawn_to_start(view) else WHY.get(view.turn_reason,
                                                                        view.turn_reason)
            embed.add_field(name="To move", inline=False,
                            value=f"{mention(match, seat)}: {why}.")
            if view.turn_reason == patchwork.TURN_LEATHER:
                ask = "place your leather patch with `/patchwork place`"
            else:
                ask = "`/patchwork buy` a patch (try `/patchwork preview`) or `/patchwork pass`"
            content = f"{mention(match, seat)}, your turn: {ask}."
            mentions: tuple[int, ...] = (match.player(seat).user_id,)
        else:
            if not result.reason.endswith("resigned"):  # a resignation is not won on points
                embed.add_field(name="Final score", inline=False,
                                value=self._score_breakdown(match, result))
            winner = result.winners[0]
            if result.reason.endswith("resigned"):
                content = (f"**Game over.** {mention(match, winner)} wins: "
                           f"{names[1 - winner]} resigned.")
            else:
                content = (f"**Game over.** {mention(match, winner)} wins "
                           f"{result.scores[winner]} to {result.scores[1 - winner]} "
                           f"({result.reason}).")
            mentions = tuple(s.user_id for s in match.seats if s.user_id)
        return Reply(content=content, embed=embed, png=png,
                     alt=alt_text.patchwork_table(view, names),
                     filename=f"patchwork-{match.id}.png", mentions=mentions)

    @staticmethod
    def _score_breakdown(match: Match, result) -> str:
        details = result.details
        lines = []
        for seat, row in enumerate(match.seats):
            lines.append(
                f"**{row.name}**: {details['buttons'][seat]} buttons + {details['bonus'][seat]} "
                f"bonus − 2 × {details['empty_squares'][seat]} empty = **{result.scores[seat]}**")
        if details.get("tie_break"):
            lines.append("Tied: the first to reach the final space wins.")
        return "\n".join(lines)


def preview_problem(state: patchwork.State, seat: int, move: patchwork.Buy) -> str | None:
    """Why `seat` could not make this purchase on their turn, now or (while the other player
    moves) the next one; None if it would work."""
    if state.pending_seat == seat:
        return PLACE_FIRST
    return patchwork.buy_problem(state, seat, move, any_turn=True)


def phase_problem(state: patchwork.State, seat: int, *, placing: bool) -> str | None:
    """On the caller's turn, why a buy or pass (or a `place`) is the wrong kind of move now,
    in words that name the commands; None otherwise (the engine has the last word)."""
    if patchwork.current_seat(state) != seat:
        return None
    if state.pending_seat == seat and not placing:
        return PLACE_FIRST
    if state.pending_seat is None and placing:
        return ("you have no leather patch to place: `/patchwork buy` a patch or "
                "`/patchwork pass`")
    return None


def matching_orientations(patch_id: int, typed: str) -> list[str]:
    """The patch's distinct orientations matching what was typed: the one `90m` or `90 m`
    reads as (or the one of the same shape), and those containing it (`mirr`)."""
    names = patchwork.orientations(patch_id)
    typed = " ".join(typed.lower().split())
    try:
        shape = oriented_cells(patch_id, patchwork.parse_orientation(typed))
    except GameError:
        shape = None
    return [name for name in names
            if typed in name or oriented_cells(patch_id, name) == shape]


def _square_choices(squares: set[str], current: str) -> list[app_commands.Choice[str]]:
    typed = current.strip().lower()
    ordered = [sq for sq in SQUARES if sq in squares and sq.startswith(typed)]
    return [app_commands.Choice(name=sq, value=sq) for sq in ordered[:25]]


async def setup(bot: GamenightBot) -> None:
    """Add this game to the bot (see `bot.registry`)."""
    await add_game(bot, PatchworkCog(bot))
