"""`/doudizhu ...`: lobbies for 3 or 4 players, bids, plays (with autocomplete from the hand),
passes, the private hand, the next round and the end of a series."""

from __future__ import annotations

from typing import Literal

import discord
from discord import app_commands
from discord.ext import commands

import games.doudizhu as ddz
from bot.adapters.doudizhu.controls import legal_combinations, offered_plays, play_label
from bot.commands.game import GameCommands, NewLobby, new_command


def normalise_play(text: str) -> str:
    """Typed ranks in the compact code: `10 j q` -> `TJQ` (a ten may be `10`, `T` or `0`)."""
    return "".join(text.split()).upper().replace(",", "").replace("10", "T").replace("0", "T")


@app_commands.guild_only()
class DouDizhuCommands(GameCommands, commands.GroupCog, group_name="doudizhu",
                       group_description="Dou Dizhu (Fight the Landlord) for 3 or 4 players"):
    @new_command("Open a Dou Dizhu game in this channel")
    @app_commands.describe(players="How many players: 3 (one deck) or 4 (two decks)")
    def new(self, players: Literal[3, 4] = 3) -> NewLobby:
        return NewLobby({"players": int(players)})

    @app_commands.command(name="bid", description="Bid in the auction, or pass")
    @app_commands.describe(amount="pass, or 1, 2 or 3 (more than the highest bid so far)")
    async def bid(self, interaction: discord.Interaction,
                  amount: Literal["pass", "1", "2", "3"]) -> None:
        await self.act(interaction, f"bid {amount}")

    @app_commands.command(name="play", description="Play cards on the current trick")
    @app_commands.describe(cards="Ranks, e.g. 33344, 10JQKA, 2 or BR (B/R: black/red joker)")
    async def play(self, interaction: discord.Interaction, cards: str) -> None:
        await self.act(interaction, f"play {cards}")

    @play.autocomplete("cards")
    async def play_choices(self, interaction: discord.Interaction,
                           current: str) -> list[app_commands.Choice[str]]:
        match = await self.service.current(interaction.channel_id)
        if match is None or match.game != self.game or match.state is None:
            return []
        seat = match.seat_of(interaction.user.id)
        if seat is None or match.state.phase != ddz.PLAY or match.state.turn != seat:
            return []
        typed = normalise_play(current)
        combos = [combo for combo in legal_combinations(match, seat)
                  if combo.code.startswith(typed)
                  or "".join(sorted(combo.code)) == "".join(sorted(typed))]
        shown = combos if len(combos) <= 25 else offered_plays(combos)
        voice = await self.bot.languages.reader(interaction)
        return [app_commands.Choice(name=play_label(combo, voice), value=str(combo))
                for combo in shown]

    @app_commands.command(name="pass", description="Pass on the current trick")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "pass")

    @app_commands.command(name="hand", description="See your hand and your controls (only you)")
    async def hand(self, interaction: discord.Interaction) -> None:
        match, seat = await self.service.seated(interaction.channel_id, interaction.user.id,
                                                game=self.game)
        await self.presenter.show_private(interaction, match, seat)

    @app_commands.command(name="next", description="Deal the next round (once a round is over)")
    async def next_(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "next")

    @app_commands.command(name="stop", description="End the series after a round: the ledger "
                                                   "decides the winner")
    async def stop(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "stop")
