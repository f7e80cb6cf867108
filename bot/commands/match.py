"""`/match ...` (commands shared by every game), and `/gamenight help`, `settings`, `notify`
and `language`."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import app_commands
from discord.ext import commands

from bot.ui import records as records_view
from bot.commands.game import TURN_TIME_CHOICES
from bot.commands.nights import NightCommands, SeasonCommands
from bot.ui.exports import send_export
from bot.ui.nights.controls import CONTROLS as NIGHT_CONTROLS
from bot.ui.language import language_of
from bot.ui.lobby import (
    AddComputerSelect, LobbyButton, RemoveComputerButton, is_moderator, lobby_card, player_of,
    refresh_lobby_card, retire_lobby_card, show_lobby_change,
)
from bot.ui.opening import RematchButton, ThreadButton
from bot.ui.present import COLOUR, Reply, in_turn, join_sentences, send_reply
from bot.ui.presenter import Presenter
from bot.ui.dms import RetryDMButton
from bot.ui.replays import send_replay
from bot.ui.review import ReviewButton, ReviewSeatMenu, send_review
from bot.ui.hints import send_hint
from bot.matches.errors import LobbyError, NotAllowed
from bot.matches.model import LEVELS, player_name
from bot.nights.when import valid_zone
from bot.storage.rows import GuildSettings, NightSettings
from bot.ui.threads import match_list_embed, visible_to
from bot.matches.turn_time import (
    DEFAULT_LOBBY_TIME, DEFAULT_ON_TIMEOUT, DEFAULT_TURN_TIME, LOBBY_TIMES, TURN_TIMES, duration,
)
from bot.matches.titles import title
from i18n import ENGLISH, LANGUAGES, Duration, Text, Voice, Words, _, lines

if TYPE_CHECKING:
    from bot.app.client import GamenightBot


class CommandStore(Protocol):
    """The slice of the store these commands read and write themselves: a server's settings,
    a person's reminders and language, and which message is a lobby's card."""

    async def guild_settings(self, guild_id: int) -> GuildSettings: ...
    async def set_guild_settings(self, guild_id: int, settings: GuildSettings) -> None: ...
    async def set_notify(self, user_id: int, on: bool) -> None: ...
    async def user_languages(self, user_id: int) -> tuple[str | None, str | None]: ...
    async def set_message(self, match_id: int, *, lobby: int | None = None,
                          board: int | None = None) -> None: ...


@app_commands.guild_only()
class MatchCog(commands.GroupCog, group_name="match",
               group_description="Join, start, follow or end the game in this channel"):
    def __init__(self, bot: GamenightBot) -> None:
        self.bot = bot

    @property
    def service(self):
        return self.bot.service

    @property
    def store(self) -> CommandStore:
        return self.bot.store

    async def _lobby_here(self, interaction: discord.Interaction):
        match = await self.service.require(interaction.channel_id)
        if match.status != "lobby":
            raise LobbyError(_("The {game} match here has already started.",
                               game=title(match.game)))
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
        name = player_name(match.player(seat))
        if player.id == interaction.user.id:
            text = _("**{player}** stepped away: a computer plays their turns until they are back "
                     "(any move of theirs, or **I'm back** in their DM).", player=name)
        else:
            text = _("**{by}** handed **{player}**'s seat to a computer: it plays their turns "
                     "until they are back (any move of theirs, or **I'm back** in their DM).",
                     by=interaction.user.display_name, player=name)
        voice = await self.bot.languages.server(match.guild_id)  # said in the channel
        async with in_turn(match, interaction):
            await send_reply(interaction, Reply(content=voice(text)))
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
            message = await send_reply(interaction, Reply(**await lobby_card(self.bot, match)))
            if message is not None:
                await self.store.set_message(match.id, lobby=message.id)
                await retire_lobby_card(self.bot, match)
            return
        await self.bot.presenters[match.game].repost_board(interaction, match)

    @app_commands.command(name="list", description="The open matches in this server, with links "
                                                    "(only you)")
    async def list_(self, interaction: discord.Interaction) -> None:
        matches = [match for match in await self.service.open_in_guild(interaction.guild_id)
                   if visible_to(interaction, match)]
        voice = await self.bot.languages.reader(interaction)
        await interaction.response.send_message(embed=match_list_embed(matches, voice),
                                                ephemeral=True)

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
        voice = await self.bot.languages.server(match.guild_id)  # said in the channel
        text = voice(_("The {game} match #{id} was cancelled by **{player}**.",
                       game=title(match.game), id=str(match.id),
                       player=interaction.user.display_name))
        if summary:
            text += "\n" + voice(summary)
        async with in_turn(match, interaction):  # after the boards of earlier moves
            await send_reply(interaction, Reply(content=text))
            await self.bot.presenters[match.game].send_privates(match, [])  # live DMs shrink
            await refresh_lobby_card(self.bot, match)

    @app_commands.command(name="hand", description="See your private hand or rack (only you)")
    async def hand(self, interaction: discord.Interaction) -> None:
        match, seat = await self.service.seated(interaction.channel_id, interaction.user.id)
        await self.bot.presenters[match.game].show_private(interaction, match, seat)

    @app_commands.command(name="replay", description="An animation of a whole match, one frame "
                                                      "per move (only you)")
    @app_commands.describe(id="The match's number, as on its board or in /match list")
    async def replay(self, interaction: discord.Interaction,
                     id: app_commands.Range[int, 1]) -> None:
        await send_replay(self.bot, interaction, id)

    @app_commands.command(name="review", description="The coach's review of a finished match: "
                                                      "accuracy and costliest turns (only you)")
    @app_commands.describe(id="The match's number (your last finished match here if left out)")
    async def review(self, interaction: discord.Interaction,
                     id: app_commands.Range[int, 1] | None = None) -> None:
        await send_review(self.bot, interaction, id)

    @app_commands.command(name="hint", description="The move the computer would make in your "
                                                    "place, in a practice game (only you)")
    async def hint(self, interaction: discord.Interaction) -> None:
        await send_hint(self.bot, interaction)

    @app_commands.command(name="history", description="Recent matches in this server, with "
                                                       "results and links (only you)")
    @app_commands.describe(player="Only the matches this member played")
    async def history(self, interaction: discord.Interaction,
                      player: discord.Member | None = None) -> None:
        voice = await self.bot.languages.reader(interaction)
        embed, view = await records_view.history(self.bot.store, interaction, player, 0,
                                                 voice)
        await send_private(interaction, embed=embed, view=view)

    @app_commands.command(name="export", description="A match as a file in its game's "
                                                      "standard format (only you)")
    @app_commands.describe(id="The match's number, as on its board or in /match list")
    async def export(self, interaction: discord.Interaction,
                     id: app_commands.Range[int, 1]) -> None:
        await send_export(self.service, self.bot.presenters, self.bot.languages, interaction, id)


ON_TIMEOUT_CHOICES = [
    app_commands.Choice(name="computer: a computer plays the seat until its player is back",
                        value="computer"),
    app_commands.Choice(name="skip: pass where the rules allow, else a computer moves once",
                        value="skip"),
    app_commands.Choice(name="forfeit: the player resigns", value="forfeit"),
]
ON_TIMEOUT_NAMES: dict[str, Text] = {
    "computer": _("computer"), "skip": _("skip"), "forfeit": _("forfeit"),
}
LOBBY_TIME_CHOICES = [app_commands.Choice(name=duration(seconds), value=value)
                      for value, seconds in LOBBY_TIMES.items()]
AUTO = "auto"  # the language choice that follows Discord (the reader's app, the server's)
LANGUAGE_NAMES: dict[str, Text] = {  # each language by its own name, in every catalog
    "en": _("English"), "zh-TW": _("繁體中文"), "zh-CN": _("简体中文"), "gu": _("ગુજરાતી"),
}
MY_LANGUAGE_CHOICES = [
    *(app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()),
    app_commands.Choice(name="auto: follow my Discord app", value=AUTO),
]
SERVER_LANGUAGE_CHOICES = [
    *(app_commands.Choice(name=name, value=code) for code, name in LANGUAGES.items()),
    app_commands.Choice(name="auto: follow the server's Discord language", value=AUTO),
]
WEB_PAGES_CHOICES = [
    app_commands.Choice(name="on: a page for this server too", value="on"),
    app_commands.Choice(name="off: no page for it or its matches", value="off"),
]
FIELD_VALUE = 1024  # characters Discord shows in an embed field's value
EMBED_TOTAL = 6000  # characters in all the embeds of one message


class HelpCog(commands.GroupCog, group_name="gamenight",
              group_description="About Gamenight and its games"):
    def __init__(self, bot: GamenightBot) -> None:
        self.bot = bot

    @property
    def store(self) -> CommandStore:
        return self.bot.store

    @app_commands.command(name="help", description="The games, their commands and their rules")
    async def help(self, interaction: discord.Interaction) -> None:
        voice = await self.bot.languages.reader(interaction)
        embeds = help_embeds(voice, self.bot.presenters.values())
        await interaction.response.send_message(embed=embeds[0], ephemeral=True)
        for more in embeds[1:]:  # a language whose help is longer than one message holds
            await interaction.followup.send(embed=more, ephemeral=True)

    @app_commands.command(name="settings",
                          description="This server's turn clocks, lobby timeout, language "
                                      "and nights (Manage Server)")
    @app_commands.describe(turn_time="The turn time of new matches (a game's `new` may choose "
                                     "another)",
                           on_timeout="What happens when a player's time runs out",
                           lobby_timeout="How long a lobby waits to fill before it closes",
                           language="The language of boards, lobby cards and announcements",
                           time_zone="Game nights' time zone (e.g. Europe/Paris)",
                           night_host="A role that may host game nights",
                           web_pages="Web pages of this server and its matches")
    @app_commands.choices(turn_time=TURN_TIME_CHOICES, on_timeout=ON_TIMEOUT_CHOICES,
                          lobby_timeout=LOBBY_TIME_CHOICES, language=SERVER_LANGUAGE_CHOICES,
                          web_pages=WEB_PAGES_CHOICES)
    async def settings(self, interaction: discord.Interaction, turn_time: str | None = None,
                       on_timeout: str | None = None, lobby_timeout: str | None = None,
                       language: str | None = None, time_zone: str | None = None,
                       night_host: discord.Role | None = None,
                       web_pages: str | None = None) -> None:
        if interaction.guild_id is None:
            raise LobbyError(_("Settings belong to a server: use this command in one."))
        current = await self.store.guild_settings(interaction.guild_id)
        nights = await self.bot.nights.settings(interaction.guild_id)
        changes = {k: v for k, v in (("turn_time", turn_time), ("on_timeout", on_timeout),
                                     ("lobby_time", lobby_timeout)) if v is not None}
        if language is not None:
            changes["language"] = None if language == AUTO else language
        if web_pages is not None:
            changes["web_pages"] = web_pages == "on"
        night_changes: dict[str, Any] = {}
        if time_zone is not None:
            if not valid_zone(time_zone):
                raise LobbyError(_("{zone} is not a time zone I know: write it like "
                                   "Europe/Paris, America/New_York or Asia/Taipei.",
                                   zone=f"`{time_zone[:40]}`"))
            night_changes["time_zone"] = time_zone
        if night_host is not None:
            night_changes["host_role_id"] = night_host.id
        if changes or night_changes:
            if not interaction.permissions.manage_guild:
                raise NotAllowed(_("Only members with Manage Server can change these settings."))
        if changes:
            current = replace(current, **changes)
            await self.store.set_guild_settings(interaction.guild_id, current)
            self.bot.languages.server_changed(interaction.guild_id, current.language)
            if current.web_pages is False and self.bot.web is not None:
                self.bot.web.pages_off(interaction.guild_id)
        if night_changes:
            nights = replace(nights, **night_changes)
            await self.bot.nights.set_settings(interaction.guild_id, nights)
        voice = await self.bot.languages.reader(interaction)
        said = lines((settings_text(current, self.server_locale(interaction.guild_id)),
                      night_settings_text(nights), *await self.web_text(interaction.guild_id,
                                                                        current)))
        if changes or night_changes:
            said = join_sentences(voice, (_("Saved."), said))
        await interaction.response.send_message(voice(said), ephemeral=True)

    async def web_text(self, guild_id: int, settings: GuildSettings) -> list[Words]:
        """The web pages' line of the settings, with the server page's link when it has one
        (the answer is only the asker's); nothing where the bot serves no web pages."""
        if self.bot.web is None:
            return []
        if settings.web_pages is False:
            return [_("Web pages are **off**: neither this server nor its matches have one.")]
        link = await self.bot.web.servers.link(guild_id) if settings.web_pages else None
        if link is None:
            return [_("Each match has a web page; this server has none of its own "
                      "(`web_pages: on` gives it one).")]
        return [_("Web pages are **on**. This server's page: {link}", link=f"<{link}>")]

    @app_commands.command(name="leaderboard",
                          description="This server's best players of a game (only you)")
    @app_commands.describe(game="The game", period="This season (a calendar quarter) or all time")
    @app_commands.choices(game=records_view.GAME_CHOICES, period=records_view.PERIOD_CHOICES)
    async def leaderboard(self, interaction: discord.Interaction, game: str,
                          period: str = records_view.SEASON) -> None:
        voice = await self.bot.languages.reader(interaction)
        embed, view = await records_view.leaderboard(self.bot.store, interaction.guild_id,
                                                     game, period, 0, voice)
        await send_private(interaction, embed=embed, view=view)

    @app_commands.command(name="stats", description="A player's games, wins, rating and "
                                                    "highlights in this server (only you)")
    @app_commands.describe(player="Whose stats (you, if left out)",
                           game="Only this game (every game played, if left out)")
    @app_commands.choices(game=records_view.GAME_CHOICES)
    async def stats(self, interaction: discord.Interaction, player: discord.Member | None = None,
                    game: str | None = None) -> None:
        voice = await self.bot.languages.reader(interaction)
        await interaction.response.defer(ephemeral=True, thinking=True)  # the chart is drawn
        embed, file = await records_view.stats(self.bot.store, self.bot.presenters,
                                               interaction.guild_id,
                                               player or interaction.user, game, voice)
        extra = {} if file is None else {"file": file}
        await interaction.followup.send(embed=embed, ephemeral=True, **extra)

    @app_commands.command(name="forget-me", description="Delete your name, ratings, stats and "
                                                         "settings (asks first)")
    async def forget_me(self, interaction: discord.Interaction) -> None:
        voice = await self.bot.languages.reader(interaction)
        await interaction.response.send_message(
            voice(records_view.FORGET_TEXT), ephemeral=True,
            view=records_view.forget_view(interaction.user.id, voice))

    @app_commands.command(name="notify", description="Turn reminders by DM on or off (for you)")
    @app_commands.describe(reminders="on: a DM at half your turn time; off: none")
    @app_commands.choices(reminders=[app_commands.Choice(name="on", value="on"),
                                     app_commands.Choice(name="off", value="off")])
    async def notify(self, interaction: discord.Interaction, reminders: str) -> None:
        on = reminders == "on"
        await self.store.set_notify(interaction.user.id, on)
        text = (_("You will get a DM when half your turn time has gone.") if on else
                _("No more turn reminders by DM. `/gamenight notify on` brings them back."))
        voice = await self.bot.languages.reader(interaction)
        await interaction.response.send_message(voice(text), ephemeral=True)

    @app_commands.command(name="language",
                          description="The language Gamenight speaks to you (in every server)")
    @app_commands.describe(language="Leave it out to see which one you have and why")
    @app_commands.choices(language=MY_LANGUAGE_CHOICES)
    async def language(self, interaction: discord.Interaction,
                       language: str | None = None) -> None:
        if language is not None:
            await self.bot.languages.choose(interaction.user.id,
                                            None if language == AUTO else language)
        voice = await self.bot.languages.reader(interaction)  # the new choice says it
        said = await self.language_text(interaction, changed=language is not None)
        await interaction.response.send_message(voice(said), ephemeral=True)

    async def language_text(self, interaction: discord.Interaction, *, changed: bool) -> Words:
        """Which language the reader gets and why; where the channel's comes from."""
        chosen = (await self.store.user_languages(interaction.user.id))[0]
        client = language_of(interaction.locale)
        server = await self.server_language(interaction.guild_id)
        lang = chosen or client or server
        name = LANGUAGE_NAMES.get(lang, lang)
        if changed and chosen:
            mine = _("Saved: Gamenight speaks **{language}** to you from now on, in every "
                     "server.", language=name)
        elif changed:
            mine = _("Saved: Gamenight follows your Discord app again, so it speaks "
                     "**{language}** to you.", language=name)
        elif chosen:
            mine = _("Gamenight speaks **{language}** to you: you chose it with "
                     "`/gamenight language`.", language=name)
        elif client:
            mine = _("Gamenight speaks **{language}** to you: the language of your Discord "
                     "app.", language=name)
        else:
            mine = _("Gamenight speaks **{language}** to you: this server's language (it does "
                     "not speak your Discord app's).", language=name)
        choose = _("Choose with `/gamenight language`: English, 繁體中文, 简体中文 or ગુજરાતી, "
                   "or `auto` to follow your Discord app.")
        if interaction.guild_id is None:
            return lines((mine, choose))
        channel = _("What everyone sees here (boards, lobby cards, announcements) is in this "
                    "server's language, **{language}**: `/gamenight settings language` "
                    "(Manage Server) changes it.", language=LANGUAGE_NAMES.get(server, server))
        return lines((mine, choose, channel))

    async def server_language(self, guild_id: int | None) -> str:
        """The language of a server's channels: its setting, else its Discord locale."""
        if guild_id is None:
            return ENGLISH
        chosen = (await self.store.guild_settings(guild_id)).language
        return chosen or self.server_locale(guild_id)

    def server_locale(self, guild_id: int | None) -> str:
        """The language of the server's Discord locale (English if Gamenight lacks it)."""
        guild = None if guild_id is None else self.bot.get_guild(guild_id)
        return (language_of(guild.preferred_locale) if guild is not None else None) or ENGLISH


def help_embeds(voice: Voice, presenters: Iterable[Presenter]) -> list[discord.Embed]:
    """`/gamenight help` in `voice`: the games, then what every game shares. One embed, or
    more where a language's words do not fit Discord's limits in one."""
    fields: list[tuple[str, str]] = []
    for presenter in presenters:
        info = presenter.help
        commands_ = "\n".join(f"`{usage}` {voice(what)}" for usage, what in info.commands)
        name = voice(_("{game} ({players})", game=info.title, players=info.players))
        fields += split_field(name, f"{voice(info.summary)}\n{commands_}")
    fields += split_field(voice(_("Every game")), voice(_(
        "`/match join` `/match leave` `/match start` seats; `/match addbot [level]` and "
        "`/match removebot` seat or unseat a computer player (the lobby's creator); "
        "`/match status` shows the board again; `/match hand` shows your private hand; "
        "`/match resign`; `/match cancel` (creator or Manage Messages); `/match list` the "
        "server's open matches. A finished game's last board has a **Rematch** button for its "
        "players.")))
    fields += split_field(voice(_("Turn clocks")), voice(_(
        "Turns have a clock (`turn_time` on a game's `new`; the server's default with "
        "`/gamenight settings`). At half time you get a reminder by DM (`/gamenight notify off` "
        "stops them); when it runs out, a computer plays for you until you are back. In a game, "
        "`/match leave` hands your seat to a computer, and `/match kick` someone else's "
        "(creator or Manage Server).")))
    fields += split_field(voice(_("Records")), voice(_(
        "Games between people are rated per server (openskill). `/gamenight leaderboard "
        "game` the best players; `/gamenight stats` your games, rating and highlights; "
        "`/match history` recent matches; `/match export id` a match as a file (GCG, GGF...); "
        "`/match replay id` an animation of it; `/gamenight forget-me` deletes your records.")))
    fields += split_field(voice(_("Languages")), voice(_(
        "Gamenight speaks English, 繁體中文, 简体中文 and ગુજરાતી. You read it in your Discord "
        "app's language, or in the one you choose with `/gamenight language`. Boards, lobby "
        "cards and announcements are in the server's language: `/gamenight settings language` "
        "(Manage Server).")))
    title_ = voice(_("Gamenight"))
    description = voice(_("Tabletop games in this server. One game per channel: in a busy "
                          "channel a game's `new` command offers to open yours in a thread. Open "
                          "a lobby with a game's `new` command; others press **Join**."))
    embeds = [discord.Embed(title=title_, description=description, colour=COLOUR)]
    size = len(title_) + len(description)
    for name, value in fields:
        if size + len(name) + len(value) > EMBED_TOTAL - 200 or len(embeds[-1].fields) == 25:
            embeds.append(discord.Embed(title=title_, colour=COLOUR))
            size = len(title_)
        embeds[-1].add_field(name=name, value=value, inline=False)
        size += len(name) + len(value)
    return embeds


def split_field(name: str, value: str) -> list[tuple[str, str]]:
    """An embed field, as several where its value is longer than Discord shows (cut between
    lines, else anywhere); the ones after the first are named with an invisible space."""
    parts: list[str] = []
    for line in value.split("\n"):
        while len(line) > FIELD_VALUE:
            parts.append(line[:FIELD_VALUE])
            line = line[FIELD_VALUE:]
        if parts and len(parts[-1]) + 1 + len(line) <= FIELD_VALUE:
            parts[-1] += "\n" + line
        else:
            parts.append(line)
    return [(name if i == 0 else "\u200b", part) for i, part in enumerate(parts)]


def night_settings_text(settings: NightSettings) -> Words:
    """The game nights' settings, as `/gamenight settings` shows them."""
    zone = _("Game nights' start times are read in **{zone}**.",
             zone=settings.time_zone or "UTC")
    if settings.host_role_id is None:
        return lines((zone, _("Members with Manage Events host game nights.")))
    return lines((zone, _("Members with Manage Events or the role {role} host game nights.",
                          role=f"<@&{settings.host_role_id}>")))


def settings_text(settings: GuildSettings, locale_language: str = ENGLISH) -> Words:
    """A server's settings, as `/gamenight settings` shows them (`locale_language`: the
    language of the server's Discord locale, which channels follow without a setting)."""
    turn = settings.turn_time or DEFAULT_TURN_TIME
    turn_text = (_("no clock") if turn == "off" else
                 _("{duration} a turn", duration=Duration(TURN_TIMES[turn])))
    lobby = settings.lobby_time or DEFAULT_LOBBY_TIME
    on_timeout = settings.on_timeout or DEFAULT_ON_TIMEOUT
    clocks = _("This server's new matches: **{turn}**; when time runs out: **{on_timeout}**; a "
               "lobby closes after **{lobby}** without filling.", turn=turn_text,
               on_timeout=ON_TIMEOUT_NAMES.get(on_timeout, on_timeout),
               lobby=Duration(LOBBY_TIMES[lobby]))
    if settings.language:
        language = _("Boards, lobby cards and announcements are in **{language}**.",
                     language=LANGUAGE_NAMES.get(settings.language, settings.language))
    else:
        language = _("Boards, lobby cards and announcements follow the server's Discord "
                     "language: **{language}**.", language=LANGUAGE_NAMES[locale_language])
    return lines((clocks, language))


async def send_private(interaction: discord.Interaction, *, embed: discord.Embed,
                       view: discord.ui.View | None) -> None:
    extra = {} if view is None else {"view": view}
    await interaction.response.send_message(embed=embed, ephemeral=True, **extra)


async def setup(bot: GamenightBot) -> None:
    """Add the shared commands and the lobby, rematch and DM retry buttons."""
    await bot.add_cog(MatchCog(bot))
    help_cog = HelpCog(bot)
    help_cog.app_command.add_command(NightCommands())
    help_cog.app_command.add_command(SeasonCommands())
    await bot.add_cog(help_cog)
    bot.add_dynamic_items(*NIGHT_CONTROLS)
    bot.add_dynamic_items(LobbyButton, RematchButton, ThreadButton, RetryDMButton,
                          AddComputerSelect, RemoveComputerButton, records_view.LeaderboardPage,
                          records_view.HistoryPage, records_view.ForgetButton, ReviewButton,
                          ReviewSeatMenu)
