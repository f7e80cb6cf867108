"""`/reversi new` and `/reversi move`."""

from __future__ import annotations

import discord
from discord import app_commands
from discord.ext import commands

import games.reversi as reversi
from bot.commands.game import GameCommands, NewLobby, new_command


@app_commands.guild_only()
class ReversiCommands(GameCommands, commands.GroupCog, group_name="reversi",
                      group_description="Reversi (Othello) for two players"):
    @new_command("Open a Reversi game in this channel")
    @app_commands.describe(opponent="Invite one person: only they can take the second seat")
    def new(self, opponent: discord.Member | None = None) -> NewLobby:
        return NewLobby(invited=opponent)

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
