"""`/match ...` (commands shared by every game), and `/gamenight help`, `settings` and
`notify`."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING

import discord
from discord import app_commands
from discord.ext import commands

from bot.cogs.base import TURN_TIME_CHOICES
from bot.lobby import (
    AddComputerSelect, LobbyButton, RematchButton, RemoveComputerButton,
    is_moderator, lobby_card, player_of, refresh_lobby_card, retire_lobby_card, show_lobby_change,
)
from bot.present import COLOUR, Reply, in_turn, send_reply
from bot.private import RetryDMButton
from bot.service import LEVELS, LobbyError, NotAllowed
from bot.store import GuildSettings
from bot.threads import ThreadButton
from bot.threads import match_list_embed, visible_to
from bot.timing import (
    DEFAULT_LOBBY_TIME, DEFAULT_ON_TIMEOUT, DEFAULT_TURN_TIME, LOBBY_TIMES, TURN_TIMES, duration,
)

if TYPE_CHECKING:
    from bot.client import GamenightBot


@app_commands.guild_only()
class MatchCog(commands.GroupCog, group_name="match",
               group_description="Join, start, follow or end the game in this channel"):
    def __init__(self, bot: GamenightBot) -> None:
        self.bot = bot

    @property
    def service(self):
        return self.bot.service

    async def _lobby_here(self, interaction: discord.Interaction):
        match = await self.service.require(interaction.channel_id)
        if match.status != "lobby":
            raise LobbyError(f"The {match.title} match here has already started.")
        return match

    @app_commands.command(name="join", description="Take a seat in the lobby in this channel")
    async def join(self, interaction: discord.Interaction) -> None:
        match = await self._lobby_here(interaction)
        match = await self.service.join(match.id, player_of(interaction))
        await show_lobby_change(interaction, match, "join", from_button=False)

    @app_commands.command(name="leave", description="Give up your seat in the lobby; in a game, "
                                                     "a computer plays your turns")
    async def leave(self, interaction: discord.Interaction) -> None:
        match = await self.service.require(interaction.channel_id)
        if match.status == "active":
            await self._hand_over(interaction, interaction.user)
            return
        match = await self.service.leave(match.id, interaction.user.id)
        await show_lobby_change(interaction, match, "leave", from_button=False)

    @app_commands.command(name="kick", description="Hand a player's seat to a computer (the "
                                                    "match's creator, or Manage Server)")
    @app_commands.describe(player="The player whose turns a computer plays from now on")
    async def kick(self, interaction: discord.Interaction, player: discord.Member) -> None:
        await self._hand_over(interaction, player)

    async def _hand_over(self, interaction: discord.Interaction,
                         player: discord.User | discord.Member) -> None:
        moderator = bool(interaction.permissions.manage_guild)
        match = await self.service.hand_to_computer(interaction.channel_id, interaction.user.id,
                                                    player.id, moderator=moderator)
        seat = match.seat_of(player.id)
        name = match.player(seat).name
        if player.id == interaction.user.id:
            text = (f"**{name}** stepped away: a computer plays their turns until they are back "
                    "(any move of theirs, or **I'm back** in their DM).")
        else:
            text = (f"**{interaction.user.display_name}** handed **{name}**'s seat to a computer: "
                    "it plays their turns until they are back (any move of theirs, or **I'm "
                    "back** in their DM).")
        async with in_turn(match, interaction):
            await send_reply(interaction, Reply(content=text))
        await self.bot.clocks.offer_return(match, seat)

    @app_commands.command(name="start", description="Start the lobby with the players seated")
    async def start(self, interaction: discord.Interaction) -> None:
        match = await self._lobby_here(interaction)
        match = await self.service.start(match.id, interaction.user.id)
        await show_lobby_change(interaction, match, "start", from_button=False)

    @app_commands.command(name="addbot", description="Seat a computer player in your lobby "
                                                      "(its creator only)")
    @app_commands.describe(level="How strong it plays (default normal)")
    @app_commands.choices(level=[app_commands.Choice(name=level, value=level)
                                 for level in LEVELS])
    async def addbot(self, interaction: discord.Interaction, level: str = "normal") -> None:
        match = await self._lobby_here(interaction)
        match = await self.service.add_computer(match.id, interaction.user.id, level)
        await show_lobby_change(interaction, match, "addbot", from_button=False)

    @app_commands.command(name="removebot", description="Take the last computer player out of "
                                                         "your lobby (its creator only)")
    async def removebot(self, interaction: discord.Interaction) -> None:
        match = await self._lobby_here(interaction)
        match = await self.service.remove_computer(match.id, interaction.user.id)
        await show_lobby_change(interaction, match, "removebot", from_button=False)

    @app_commands.command(name="status", description="Show the current board (or lobby) again")
    async def status(self, interaction: discord.Interaction) -> None:
        match = await self.service.require(interaction.channel_id)
        if match.status == "lobby":
            message = await send_reply(interaction, Reply(**lobby_card(self.bot, match)))
            if message is not None:
                await self.service.store.set_message(match.id, lobby=message.id)
                await retire_lobby_card(self.bot, match)
            return
        await self.bot.presenters[match.game].repost_board(interaction, match)

    @app_commands.command(name="list", description="The open matches in this server, with links "
                                                    "(only you)")
    async def list_(self, interaction: discord.Interaction) -> None:
        matches = [match for match in await self.service.open_in_guild(interaction.guild_id)
                   if visible_to(interaction, match)]
        await interaction.response.send_message(embed=match_list_embed(matches), ephemeral=True)

    @app_commands.command(name="resign", description="Concede the game in this channel")
    async def resign(self, interaction: discord.Interaction) -> None:
        result = await self.service.resign(interaction.channel_id, interaction.user.id)
        await self.bot.presenters[result.match.game].announce(result, interaction)

    @app_commands.command(name="cancel",
                          description="Cancel the match here (its creator, or Manage Messages)")
    async def cancel(self, interaction: discord.Interaction) -> None:
        match = await self.service.cancel(interaction.channel_id, interaction.user.id,
                                          moderator=is_moderator(interaction))
        summary = self.bot.presenters[match.game].cancel_summary(match)
        text = (f"The {match.title} match #{match.id} was cancelled by "
                f"**{interaction.user.display_name}**." + (f"\n{summary}" if summary else ""))
        async with in_turn(match, interaction):  # after the boards of earlier moves
            await send_reply(interaction, Reply(content=text))
            await self.bot.presenters[match.game].send_privates(match, [])  # live DMs shrink
            await refresh_lobby_card(self.bot, match)

    @app_commands.command(name="hand", description="See your private hand or rack (only you)")
    async def hand(self, interaction: discord.Interaction) -> None:
        match, seat = await self.service.seated(interaction.channel_id, interaction.user.id)
        await self.bot.presenters[match.game].show_private(interaction, match, seat)


ON_TIMEOUT_CHOICES = [
    app_commands.Choice(name="computer: a computer plays the seat until its player is back",
                        value="computer"),
    app_commands.Choice(name="skip: pass where the rules allow, else a computer moves once",
                        value="skip"),
    app_commands.Choice(name="forfeit: the player resigns", value="forfeit"),
]
LOBBY_TIME_CHOICES = [app_commands.Choice(name=duration(seconds), value=value)
                      for value, seconds in LOBBY_TIMES.items()]


class HelpCog(commands.GroupCog, group_name="gamenight",
              group_description="About Gamenight and its games"):
    def __init__(self, bot: GamenightBot) -> None:
        self.bot = bot

    @app_commands.command(name="help", description="The games, their commands and their rules")
    async def help(self, interaction: discord.Interaction) -> None:
        embed = discord.Embed(
            title="Gamenight",
            description=("Tabletop games in this server. One game per channel: in a busy "
                         "channel a game's `new` command offers to open yours in a thread. Open "
                         "a lobby with a game's `new` command; others press **Join**."),
            colour=COLOUR)
        for presenter in self.bot.presenters.values():
            info = presenter.help
            lines = "\n".join(f"`{usage}` {what}" for usage, what in info.commands)
            embed.add_field(name=f"{info.title} ({info.players})",
                            value=f"{info.summary}\n{lines}", inline=False)
        shared = ("`/match join` `/match leave` `/match start` seats; `/match addbot [level]` "
                  "and `/match removebot` seat or unseat a computer player (the lobby's "
                  "creator); `/match status` shows the "
                  "board again; `/match hand` shows your private hand; `/match resign`; "
                  "`/match cancel` (creator or Manage Messages); `/match list` the server's open matches. "
                  "A finished game's last board has a **Rematch** button for its players.\n"
                  "Turns have a clock (`turn_time` on a game's `new`; the server's default "
                  "with `/gamenight settings`). At half time you get a reminder by DM "
                  "(`/gamenight notify off` stops them); when it runs out, a computer plays "
                  "for you until you are back. In a game, `/match leave` hands your seat to "
                  "a computer, and `/match kick` someone else's (creator or Manage Server).")
        embed.add_field(name="Every game", value=shared, inline=False)
        await interaction.response.send_message(embed=embed, ephemeral=True)

    @app_commands.command(name="settings",
                          description="This server's turn clocks and lobby timeout (Manage "
                                      "Server to change them)")
    @app_commands.describe(turn_time="The turn time of new matches (a game's `new` may choose "
                                     "another)",
                           on_timeout="What happens when a player's time runs out",
                           lobby_timeout="How long a lobby waits to fill before it closes")
    @app_commands.choices(turn_time=TURN_TIME_CHOICES, on_timeout=ON_TIMEOUT_CHOICES,
                          lobby_timeout=LOBBY_TIME_CHOICES)
    async def settings(self, interaction: discord.Interaction, turn_time: str | None = None,
                       on_timeout: str | None = None, lobby_timeout: str | None = None) -> None:
        if interaction.guild_id is None:
            raise LobbyError("Settings belong to a server: use this command in one.")
        store = self.bot.store
        current = await store.guild_settings(interaction.guild_id)
        changes = {k: v for k, v in (("turn_time", turn_time), ("on_timeout", on_timeout),
                                     ("lobby_time", lobby_timeout)) if v is not None}
        if changes:
            if not interaction.permissions.manage_guild:
                raise NotAllowed("Only members with Manage Server can change these settings.")
            current = replace(current, **changes)
            await store.set_guild_settings(interaction.guild_id, current)
        await interaction.response.send_message(
            ("Saved. " if changes else "") + settings_text(current), ephemeral=True)

    @app_commands.command(name="notify", description="Turn reminders by DM on or off (for you)")
    @app_commands.describe(reminders="on: a DM at half your turn time; off: none")
    @app_commands.choices(reminders=[app_commands.Choice(name="on", value="on"),
                                     app_commands.Choice(name="off", value="off")])
    async def notify(self, interaction: discord.Interaction, reminders: str) -> None:
        on = reminders == "on"
        await self.bot.store.set_notify(interaction.user.id, on)
        text = ("You will get a DM when half your turn time has gone." if on else
                "No more turn reminders by DM. `/gamenight notify on` brings them back.")
        await interaction.response.send_message(text, ephemeral=True)


def settings_text(settings: GuildSettings) -> str:
    """A server's clock settings, as `/gamenight settings` shows them."""
    turn = settings.turn_time or DEFAULT_TURN_TIME
    turn_text = "no clock" if turn == "off" else f"{duration(TURN_TIMES[turn])} a turn"
    lobby = settings.lobby_time or DEFAULT_LOBBY_TIME
    return (f"This server's new matches: **{turn_text}**; when time runs out: "
            f"**{settings.on_timeout or DEFAULT_ON_TIMEOUT}**; a lobby closes after "
            f"**{duration(LOBBY_TIMES[lobby])}** without filling.")


async def setup(bot: GamenightBot) -> None:
    """Add the shared commands and the lobby, rematch and DM retry buttons."""
    await bot.add_cog(MatchCog(bot))
    await bot.add_cog(HelpCog(bot))
    bot.add_dynamic_items(LobbyButton, RematchButton, ThreadButton, RetryDMButton,
                          AddComputerSelect, RemoveComputerButton)
