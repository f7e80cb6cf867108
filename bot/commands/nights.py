"""`/gamenight night ...`: scheduling a game night and running it (the host's controls), and a
player's `drop`; `/gamenight season ...`: a server's seasons and their standings."""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands

from bot.matches.errors import LobbyError, NotAllowed
from bot.matches.titles import title
from bot.nights.model import Night
from bot.nights.plan import CHECKIN_MINUTES, FORMATS, SEATS, SWISS, Plan
from bot.matches.turn_time import TURN_TIMES
from bot.nights.when import BadTime, read_start
from bot.ui.nights.cards import card_link, standings_embed
from bot.ui.nights.pictures import export_files, standings_file
from bot.ui.nights.words import night_title, points_text
from bot.ui.present import COLOUR
from i18n import Words, _, lines, n_

if TYPE_CHECKING:
    from bot.app.client import GamenightBot

GAME_CHOICES = [app_commands.Choice(name=title(game), value=game) for game in SEATS]
FORMAT_CHOICES = [app_commands.Choice(name=name, value=name) for name in FORMATS]


def bot_of(interaction: discord.Interaction) -> GamenightBot:
    return interaction.client  # type: ignore[return-value]


async def may_host(interaction: discord.Interaction, night: Night | None = None) -> bool:
    """Manage Events, the server's night-host role, or (for a night) its own host."""
    if night is not None and interaction.user.id == night.row.host_id:
        return True
    perms = interaction.permissions
    if perms.manage_events or perms.manage_guild:
        return True
    settings = await bot_of(interaction).nights.settings(interaction.guild_id or 0)
    roles = getattr(interaction.user, "roles", [])
    return settings.host_role_id is not None and any(r.id == settings.host_role_id
                                                     for r in roles)


async def require_host(interaction: discord.Interaction, night: Night | None = None) -> None:
    if not await may_host(interaction, night):
        raise NotAllowed(_("Only the night's host, members with Manage Events, or the server's "
                           "night-host role can do that."))


async def night_here(interaction: discord.Interaction, night_id: int | None) -> Night:
    """The night named, else the one in play or next in this channel."""
    nights = bot_of(interaction).nights
    if interaction.guild_id is None:
        raise LobbyError(_("Game nights belong to a server: use this command in one."))
    if night_id is not None:
        return await nights.require(night_id, interaction.guild_id)
    here = [n for n in await nights.open_in(interaction.guild_id)
            if n.row.channel_id == interaction.channel_id]
    if not here:
        raise LobbyError(_("No game night is open in this channel: `/gamenight night list` "
                           "shows the server's, and `night:` names one."))
    return sorted(here, key=lambda n: (n.row.status != "running", n.row.start_at))[0]


async def reply(interaction: discord.Interaction, text: Words) -> None:
    voice = await bot_of(interaction).languages.reader(interaction)
    if interaction.response.is_done():
        await interaction.followup.send(voice(text), ephemeral=True)
    else:
        await interaction.response.send_message(voice(text), ephemeral=True)


class NightCommands(app_commands.Group):
    """`/gamenight night ...`."""

    def __init__(self) -> None:
        super().__init__(name="night", description="Game nights: rounds, sign-up, standings")

    @app_commands.command(name="schedule", description="Schedule a game night (host)")
    @app_commands.describe(
        game="The game", start="2026-12-05 19:30, 19:30 or in 2h", format="The pairing",
        rounds="Default: fits the players", table="Players a table", rated="Moves ratings",
        turn_time="Turn clock: 2m, 10m, 1h, 12h, 24h, 72h or off", channel="Default: here",
        computers="Computers fill short tables", round_minutes="Round deadline (minutes)",
        checkin="Check-in opens this many minutes before",
        bye_points="Points for a bye or a round missed (default 1)")
    @app_commands.choices(game=GAME_CHOICES, format=FORMAT_CHOICES)
    async def schedule(self, interaction: discord.Interaction, game: str, start: str,
                       format: str = SWISS, rounds: app_commands.Range[int, 1, 20] | None = None,
                       table: app_commands.Range[int, 2, 4] | None = None, rated: bool = True,
                       turn_time: str | None = None,
                       channel: discord.TextChannel | None = None, computers: bool = False,
                       round_minutes: app_commands.Range[int, 5, 1440] | None = None,
                       checkin: app_commands.Range[int, 0, 1440] | None = None,
                       bye_points: app_commands.Range[float, 0.0, 1.0] = 1.0) -> None:
        bot = bot_of(interaction)
        if interaction.guild_id is None:
            raise LobbyError(_("Game nights belong to a server: use this command in one."))
        await require_host(interaction)
        if turn_time is not None and turn_time != "off" and turn_time not in TURN_TIMES:
            raise LobbyError(_("A turn lasts one of: off, {times}.", times=", ".join(TURN_TIMES)))
        settings = await bot.nights.settings(interaction.guild_id)
        try:
            start_at = read_start(start, bot.clock.now(), settings.time_zone)
        except BadTime:
            raise LobbyError(_("I cannot read {start} as a time: write it like 2026-12-05 "
                               "19:30, 19:30, or in 2h.", start=f"`{start[:40]}`")) from None
        seats = table or (2 if game == "scrabble" else SEATS[game][0])
        plan = Plan(game, format, rounds=rounds, table=seats, rated=rated, turn_time=turn_time,
                    checkin_minutes=CHECKIN_MINUTES if checkin is None else checkin,
                    computers=computers, bye_points=bye_points, round_minutes=round_minutes)
        night = await bot.nights.schedule(
            guild_id=interaction.guild_id, host_id=interaction.user.id, plan=plan,
            channel_id=(channel or interaction.channel).id,  # type: ignore[union-attr]
            start_at=start_at)
        await bot.nights.sign(night.id, interaction.user.id, interaction.user.display_name,
                              in_=True)
        await interaction.response.defer(ephemeral=True, thinking=True)
        event_id = await bot.night_runner.events.create(night)
        if event_id is not None:
            night = await bot.nights.set_discord(night.id, event_id=event_id)
        night = await bot.night_runner.post_card(await bot.nights.require(night.id))
        said: list[Words] = [_("{night} is scheduled: [its card]({link}).",
                               night=night_title(night), link=card_link(night))]
        if event_id is None:
            said.append(await self._no_event_note(interaction))
        await reply(interaction, lines(said))

    @staticmethod
    async def _no_event_note(interaction: discord.Interaction) -> Words:
        """Said once per server: why the night has no Discord event."""
        bot = bot_of(interaction)
        settings = await bot.nights.settings(interaction.guild_id or 0)
        if settings.permission_told:
            return _("(No Discord event, as before.)")
        await bot.nights.set_settings(interaction.guild_id or 0,
                                           replace(settings, permission_told=True))
        return _("I could not create a Discord event for it: I need the **Create Events** "
                 "permission. The night runs with its card alone; grant it and the next night "
                 "gets an event too.")

    @app_commands.command(name="edit", description="Change a night before it starts (host)")
    @app_commands.describe(night="Night number", start="The new start", rounds="Rounds",
                           computers="Computers fill short tables",
                           round_minutes="Round deadline (minutes)")
    async def edit(self, interaction: discord.Interaction, night: int | None = None,
                   start: str | None = None, rounds: app_commands.Range[int, 1, 20] | None = None,
                   computers: bool | None = None,
                   round_minutes: app_commands.Range[int, 5, 1440] | None = None) -> None:
        bot = bot_of(interaction)
        found = await night_here(interaction, night)
        await require_host(interaction, found)
        start_at = None
        if start is not None:
            settings = await bot.nights.settings(found.row.guild_id)
            try:
                start_at = read_start(start, bot.clock.now(), settings.time_zone)
            except BadTime:
                raise LobbyError(_("I cannot read {start} as a time: write it like 2026-12-05 "
                                   "19:30, 19:30, or in 2h.", start=f"`{start[:40]}`")) from None
        changes: dict[str, Any] = {k: v for k, v in (("rounds", rounds), ("computers", computers),
                                                     ("round_minutes", round_minutes))
                                   if v is not None}
        edited = await bot.nights.edit(found.id, start_at=start_at, changes=changes)
        await bot.night_runner.refresh_card(edited)
        if start_at is not None:
            await bot.night_runner.events.edit(edited)
        await reply(interaction, _("Saved: {night} is updated on [its card]({link}).",
                                   night=night_title(edited), link=card_link(edited)))

    @app_commands.command(name="cancel", description="Call a night off (host)")
    @app_commands.describe(night="Night number")
    async def cancel(self, interaction: discord.Interaction, night: int | None = None) -> None:
        bot = bot_of(interaction)
        found = await night_here(interaction, night)
        await require_host(interaction, found)
        cancelled = await bot.nights.cancel(found.id)
        await bot.night_runner.refresh_card(cancelled)
        await bot.night_runner.events.cancel(cancelled)
        await reply(interaction, _("{night} is called off.", night=night_title(cancelled)))

    @app_commands.command(name="list", description="This server's game nights")
    async def list_(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        if interaction.guild_id is None:
            raise LobbyError(_("Game nights belong to a server: use this command in one."))
        found = await bot.nights.open_in(interaction.guild_id)
        if not found:
            await reply(interaction, _("No game night is scheduled: `/gamenight night schedule` "
                                       "plans one."))
            return
        rows = [_("{night} in {channel}, <t:{start}:F>: {count} signed up ([card]({link}))",
                  night=night_title(n), channel=f"<#{n.row.channel_id}>",
                  start=str(int(n.row.start_at)), count=len(n.signed_up), link=card_link(n))
                for n in found[:20]]
        await reply(interaction, lines(rows))

    @app_commands.command(name="standings", description="A night's standings")
    @app_commands.describe(night="Night number")
    async def standings(self, interaction: discord.Interaction,
                        night: int | None = None) -> None:
        bot = bot_of(interaction)
        found = await night_here_or_last(interaction, night)
        voice = await bot.languages.reader(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)  # the picture is drawn
        done = found.row.round - (0 if found.round_done else 1)
        await interaction.followup.send(embed=standings_embed(found, voice, done),
                                        file=await standings_file(found, voice, done),
                                        ephemeral=True)

    @app_commands.command(name="export", description="A night as files: CSV (and tsh for "
                                                     "Scrabble)")
    @app_commands.describe(night="Night number")
    async def export(self, interaction: discord.Interaction, night: int | None = None) -> None:
        bot = bot_of(interaction)
        found = await night_here_or_last(interaction, night)
        voice = await bot.languages.reader(interaction)
        await interaction.response.send_message(
            voice(_("{night}: every round, table and result.", night=night_title(found))),
            files=export_files(found), ephemeral=True)

    @app_commands.command(name="next", description="End the round now (host)")
    @app_commands.describe(night="Night number")
    async def next_(self, interaction: discord.Interaction, night: int | None = None) -> None:
        bot = bot_of(interaction)
        found = await night_here(interaction, night)
        await require_host(interaction, found)
        if found.row.status != "running":
            raise LobbyError(_("{night} has not started yet.", night=night_title(found)))
        await interaction.response.defer(ephemeral=True, thinking=True)
        advanced = await bot.night_runner.next_round(found.id, force=True)
        await reply(interaction, _("Round {round} is over.", round=found.row.round)
                    if advanced is not None else _("{night} is over.", night=night_title(found)))

    @app_commands.command(name="drop", description="Leave a night after your game")
    @app_commands.describe(night="Night number")
    async def drop(self, interaction: discord.Interaction, night: int | None = None) -> None:
        bot = bot_of(interaction)
        found = await night_here(interaction, night)
        dropped = await bot.nights.drop(found.id, interaction.user.id)
        await bot.night_runner.refresh_card(dropped)
        player = dropped.player(interaction.user.id)
        await reply(interaction, _("You leave {night} after your current game.",
                                   night=night_title(dropped))
                    if player is not None and player.state == "dropping" else
                    _("You are out of {night}.", night=night_title(dropped)))

    @app_commands.command(name="remove", description="Take a player out (host)")
    @app_commands.describe(player="Who leaves", night="Night number")
    async def remove(self, interaction: discord.Interaction, player: discord.Member,
                     night: int | None = None) -> None:
        bot = bot_of(interaction)
        found = await night_here(interaction, night)
        await require_host(interaction, found)
        done = await bot.nights.remove(found.id, interaction.user.id, player.id)
        await bot.night_runner.refresh_card(done)
        await reply(interaction, _("{mention} is out of {night}'s coming rounds.",
                                   mention=player.mention, night=night_title(done)))

    @app_commands.command(name="sub", description="A substitute takes a seat (host)")
    @app_commands.describe(player="Who leaves", substitute="Who plays on",
                           night="Night number")
    async def sub(self, interaction: discord.Interaction, player: discord.Member,
                  substitute: discord.Member, night: int | None = None) -> None:
        bot = bot_of(interaction)
        found = await night_here(interaction, night)
        await require_host(interaction, found)
        done = await bot.nights.sub(found.id, interaction.user.id, player.id, substitute.id,
                                    substitute.display_name)
        await bot.night_runner.seat_substitute(done, player.id, substitute.id)
        await reply(interaction, _("{sub} plays for {player} from now on.",
                                   sub=substitute.mention, player=player.mention))

    @app_commands.command(name="result", description="Set a table's result (host)")
    @app_commands.describe(table="Table number", winner="Who won", reason="Why (logged)",
                           round="Default: this round", night="Night number")
    async def result(self, interaction: discord.Interaction, table: int,
                     winner: discord.Member, reason: app_commands.Range[str, 3, 200],
                     round: int | None = None, night: int | None = None) -> None:
        bot = bot_of(interaction)
        found = await night_here(interaction, night)
        await require_host(interaction, found)
        done = await bot.nights.override(found.id, interaction.user.id, round or found.row.round,
                                         table, [winner.id], reason)
        await reply(interaction, _("Saved: table {table} is won by {winner}.", table=table,
                                   winner=winner.mention))
        await bot.night_runner.edit_round_card(done, done.row.round_message_id, done.row.round)
        if done.round_done:
            await bot.night_runner.next_round(done.id)

    @app_commands.command(name="pause", description="Pause a night (host)")
    @app_commands.describe(night="Night number")
    async def pause(self, interaction: discord.Interaction, night: int | None = None) -> None:
        await self._pause(interaction, night, True)

    @app_commands.command(name="resume", description="Resume a night (host)")
    @app_commands.describe(night="Night number")
    async def resume(self, interaction: discord.Interaction, night: int | None = None) -> None:
        await self._pause(interaction, night, False)

    async def _pause(self, interaction: discord.Interaction, night_id: int | None,
                     paused: bool) -> None:
        bot = bot_of(interaction)
        found = await night_here(interaction, night_id)
        await require_host(interaction, found)
        done = await bot.nights.pause(found.id, interaction.user.id, paused)
        await bot.night_runner.refresh_card(done)
        await reply(interaction, _("{night} is paused: no new game starts until "
                                   "`/gamenight night resume`.", night=night_title(done))
                    if paused else _("{night} goes on.", night=night_title(done)))
        if not paused:
            if done.round_done:
                await bot.night_runner.next_round(done.id)
            else:
                await bot.night_runner.open_round(done)

    @app_commands.command(name="repair", description="Pair this round again (host)")
    @app_commands.describe(night="Night number")
    async def repair(self, interaction: discord.Interaction, night: int | None = None) -> None:
        bot = bot_of(interaction)
        found = await night_here(interaction, night)
        await require_host(interaction, found)
        done = await bot.nights.repair(found.id, interaction.user.id)
        await reply(interaction, _("Round {round} is paired again.", round=done.row.round))
        await bot.night_runner.open_round(done)


async def night_here_or_last(interaction: discord.Interaction, night_id: int | None) -> Night:
    try:
        return await night_here(interaction, night_id)
    except LobbyError:
        if night_id is not None or interaction.guild_id is None:
            raise
    last = await bot_of(interaction).nights.last_in(interaction.guild_id,
                                                    interaction.channel_id or 0)
    if last is None:
        raise LobbyError(_("No game night has been held in this channel."))
    return last




class SeasonCommands(app_commands.Group):
    """`/gamenight season ...`."""

    def __init__(self) -> None:
        super().__init__(name="season", description="Seasons of game nights")

    @app_commands.command(name="start", description="Start a season (host)")
    @app_commands.describe(name="Its name")
    async def start(self, interaction: discord.Interaction,
                    name: app_commands.Range[str, 1, 60]) -> None:
        bot = bot_of(interaction)
        if interaction.guild_id is None:
            raise LobbyError(_("Game nights belong to a server: use this command in one."))
        await require_host(interaction)
        season = await bot.nights.start_season(interaction.guild_id, name)
        await reply(interaction, _("Season **{name}** has started: the nights from now on "
                                   "count towards it.", name=season.name))

    @app_commands.command(name="end", description="End the season (host)")
    async def end(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        if interaction.guild_id is None:
            raise LobbyError(_("Game nights belong to a server: use this command in one."))
        await require_host(interaction)
        season = await bot.nights.end_season(interaction.guild_id)
        if season is None:
            raise LobbyError(_("No season of this server is open: seasons are the calendar "
                               "quarters until `/gamenight season start` names one."))
        await reply(interaction, _("Season **{name}** is over. Until the next one starts, "
                                   "nights count towards the calendar quarter.",
                                   name=season.name))

    @app_commands.command(name="standings", description="This season's standings")
    async def standings(self, interaction: discord.Interaction) -> None:
        bot = bot_of(interaction)
        if interaction.guild_id is None:
            raise LobbyError(_("Game nights belong to a server: use this command in one."))
        span, table, names = await bot.nights.season(interaction.guild_id, bot.clock.now())
        voice = await bot.languages.reader(interaction)
        rows: list[Words] = [
            _("{rank}. {name}: {points} ({nights}; {wins})", rank=line.rank,
              name=names.get(line.player, str(line.player)), points=points_text(line.points),
              nights=n_("{n} night", "{n} nights", line.nights),
              wins=n_("{n} won", "{n} won", line.wins))
            for line in table[:25]]
        if not rows:
            rows = [_("No game night has finished this season yet.")]
        embed = discord.Embed(title=voice(_("Season {name}", name=span.name)),
                              description=voice(lines(rows))[:4000], colour=COLOUR)
        await interaction.response.send_message(embed=embed, ephemeral=True)
