"""`/reversi new` and `/reversi move`, and how a Reversi board is posted."""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

import games.reversi as reversi
from bot.cogs.base import (
    TURN_TIME_CHOICES, TURN_TIME_TEXT, GameCog, GameHelp, add_game, turn_option,
)
from bot.present import COLOUR, Reply, describe_events, mention, render_in_thread
from bot.service import Match
from games.common import Event, counted
from render import alt as alt_text
from render.reversi import render_board
from i18n import Voice

if TYPE_CHECKING:
    from bot.client import GamenightBot

DISC = {reversi.BLACK: "\N{MEDIUM BLACK CIRCLE}", reversi.WHITE: "\N{MEDIUM WHITE CIRCLE}"}


@app_commands.guild_only()
class ReversiCog(GameCog, commands.GroupCog, group_name="reversi",
                 group_description="Reversi (Othello) for two players"):
    game = reversi.NAME
    help = GameHelp(
        title="Reversi",
        players="2 players",
        summary=("Place a disc so that it closes a straight line (across, down or diagonal) of "
                 "your opponent's discs against one of yours; every line you close flips. "
                 "Black moves first. With no legal move you pass (the bot does it for you); "
                 "when neither player can move, the most discs wins."),
        commands=(("/reversi new [opponent]", "open a game here (optionally invite someone)"),
                  ("/reversi move square", "place a disc, e.g. d3 (autocomplete lists yours)")),
    )

    def __init__(self, bot) -> None:
        GameCog.__init__(self, bot)

    @app_commands.command(name="new", description="Open a Reversi game in this channel")
    @app_commands.describe(opponent="Invite one person: only they can take the second seat",
                           turn_time=TURN_TIME_TEXT)
    @app_commands.choices(turn_time=TURN_TIME_CHOICES)
    async def new(self, interaction: discord.Interaction,
                  opponent: discord.Member | None = None, turn_time: str | None = None) -> None:
        await self.open_lobby(interaction, invited=opponent, options=turn_option(turn_time))

    @app_commands.command(name="move", description="Place a disc on a square (a1 to h8)")
    @app_commands.describe(square="Where to place your disc, e.g. d3: column a-h, row 1-8")
    async def move(self, interaction: discord.Interaction, square: str) -> None:
        await self.act(interaction, square)

    @move.autocomplete("square")
    async def square_choices(self, interaction: discord.Interaction,
                             current: str) -> list[app_commands.Choice[str]]:
        match = await self.service.current(interaction.channel_id)
        if match is None or match.game != self.game or match.state is None:
            return []
        seat = match.seat_of(interaction.user.id)
        if seat is None or seat != match.current_seat():
            return []
        typed = current.strip().lower()
        names = [str(m) for m in reversi.legal_moves(match.state, seat)]
        return [app_commands.Choice(name=n, value=n) for n in names if n.startswith(typed)][:25]

    async def board_reply(self, match: Match, events: Iterable[Event],
                          voice: Voice) -> Reply:
        events = tuple(events)
        view = reversi.view(match.state)
        png = await render_in_thread(render_board, view)
        state: reversi.State = match.state
        black, white = state.black_seat, 1 - state.black_seat
        embed = discord.Embed(
            title=f"Reversi: {match.player(black).name} vs {match.player(white).name}",
            description=voice(describe_events(match, events, self.event_text)) or None, colour=COLOUR)
        embed.add_field(name=f"{DISC['black']} Black",
                        value=f"{mention(match, black)}\n{counted(view.black_count, 'disc')}")
        embed.add_field(name=f"{DISC['white']} White",
                        value=f"{mention(match, white)}\n{counted(view.white_count, 'disc')}")
        last = f" · last move {reversi.square_name(view.last_move)}" if view.last_move is not None else ""
        embed.set_footer(text=f"Match #{match.id}{last}")
        if view.outcome is None:
            seat = view.to_move
            colour = state.colour_of(seat)
            embed.add_field(name="To move", inline=False,
                            value=f"{DISC[colour]} {mention(match, seat)}: "
                                  f"{counted(len(view.legal), 'legal square')} (dots on the board)")
            again = ("" if not any(e.kind == "pass" for e in events) else
                     f"{match.player(1 - seat).name} has no legal move, so it is ")
            content = f"{mention(match, seat)}, {again}your move as {colour}: `/reversi move`."
            mentions: tuple[int, ...] = (match.player(seat).user_id,)
        else:
            content = "**Game over.** " + self._result_line(match, view)
            mentions = tuple(s.user_id for s in match.seats if s.user_id)
        alt = alt_text.reversi_board(view, [seat.name for seat in match.seats])
        return Reply(content=content, embed=embed, png=png, alt=alt,
                     filename=f"reversi-{match.id}.png", mentions=mentions)

    @staticmethod
    def _result_line(match: Match, view: reversi.View) -> str:
        result = view.outcome
        tally = f"{view.black_count}-{view.white_count} (black-white)"
        if result.draw:
            return f"A draw, {tally}."
        winner = result.winners[0]
        if result.reason.endswith("resigned"):
            return f"{mention(match, winner)} wins: {match.player(1 - winner).name} resigned."
        return f"{mention(match, winner)} wins {tally}: {result.reason}."


async def setup(bot: GamenightBot) -> None:
    """Add this game to the bot (see `bot.registry`)."""
    await add_game(bot, ReversiCog(bot))
