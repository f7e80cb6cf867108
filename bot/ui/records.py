"""Records on Discord: the leaderboard, a person's stats, the match history, forgetting a
person, and the result card under a finished match's board. The numbers come from the store
(bot/storage/records.py); each game's adapter words its own highlights (`stats_lines`,
`card_lines`)."""

from __future__ import annotations

import io
import secrets
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any, Protocol

import discord
from discord import app_commands

from bot.ui.error_replies import jump_url
from bot.ui.persistent import PersistentItem
from bot.ui.present import COLOUR
from bot.workers.pictures import render_off_loop
from bot.matches.ratings import ALL_TIME, season_of
from bot.registry import GAMES
from bot.matches.errors import LobbyError, NotAllowed
from bot.matches.model import Match, game_title, player_name
from bot.storage.rows import HistoryRow, RatingRow, ResultRow, SeatRow
from bot.ui.presenter import Presenter
from bot.ui.threads import channel_visible
from bot.matches.titles import title
from i18n import Duration, Text, Voice, Words, _, lines, listed, n_
from render.records import rating_chart

if TYPE_CHECKING:
    from bot.ui.language import Languages

PAGE = 10  # leaderboard lines and history entries per page
SEASON = "season"
GAME_NAMES = [game.engine.rsplit(".", 1)[-1] for game in GAMES]
GAME_CHOICES = [app_commands.Choice(name=game_title(game), value=game) for game in GAME_NAMES]
PERIOD_CHOICES = [app_commands.Choice(name="this season", value=SEASON),
                  app_commands.Choice(name="all time", value=ALL_TIME)]
UNRATED: dict[str, Text] = {
    "computer": _("not rated: a computer played"),
    "away": _("not rated: a computer played for someone away"),
    "no_server": _("not rated"),
    "night": _("not rated: an unrated game night"),
    "hint": _("not rated: a hint was given"),
}


class RecordsStore(Protocol):
    """The slice of the store the records read (and forgetting a person writes)."""

    async def leaderboard(self, guild_id: int, game: str, season: str, *, offset: int = 0,
                          limit: int = 10) -> tuple[list[RatingRow], int]: ...
    async def rating(self, guild_id: int, game: str, season: str,
                     user_id: int) -> RatingRow | None: ...
    async def rating_path(self, guild_id: int, game: str, user_id: int,
                          limit: int = 100) -> list[int]: ...
    async def person_results(self, guild_id: int, user_id: int,
                             game: str | None = None) -> list[ResultRow]: ...
    async def match_results(self, match_id: int) -> list[ResultRow]: ...
    async def history(self, guild_id: int, user_id: int | None = None, *, limit: int = 10,
                      offset: int = 0) -> list[HistoryRow]: ...
    async def open_seats_of(self, user_id: int) -> list[int]: ...
    async def forget_person(self, user_id: int, pseudonym: int) -> None: ...


def need_server(guild_id: int | None) -> int:
    if guild_id is None:
        raise LobbyError(_("Records belong to a server: use this command in one."))
    return guild_id


def season_key(period: str, now: datetime | None = None) -> str:
    return ALL_TIME if period == ALL_TIME else season_of(now or datetime.now(UTC))


def result_name(result: ResultRow) -> Words:
    """A seat's name in a record: a person's, a computer's in words, or a forgotten one."""
    kind = "computer" if result.user_id is None else "user"
    return player_name(SeatRow(result.seat, kind, result.user_id, result.name))


def signed(change: int) -> str:
    return f"+{change}" if change >= 0 else f"−{-change}"


# -- leaderboard ------------------------------------------------------------------------------

async def leaderboard(store: RecordsStore, guild_id: int, game: str, period: str, page: int,
                      voice: Voice) -> tuple[discord.Embed, discord.ui.View | None]:
    season = season_key(period)
    guild_id = need_server(guild_id)
    rows, total = await store.leaderboard(guild_id, game, season, offset=page * PAGE,
                                          limit=PAGE)
    if not rows and total:  # a page button from when there were more players
        page = (total - 1) // PAGE
        rows, total = await store.leaderboard(guild_id, game, season, offset=page * PAGE,
                                              limit=PAGE)
    when = _("all time") if season == ALL_TIME else _("this season ({season})", season=season)
    embed = discord.Embed(colour=COLOUR, title=voice(_("\N{TROPHY} {game} leaderboard, {when}",
                                                       game=title(game), when=when)))
    if not rows:
        embed.description = voice(_("No rated {game} games yet. Games between people count; "
                                    "games with a computer do not.", game=title(game)))
        return embed, None
    embed.description = "\n".join(
        voice(_("**{place}.** {name}: **{rating}** ({games}, {wins})", place=page * PAGE + i + 1,
                name=discord.utils.escape_markdown(row.name), rating=row.display,
                games=n_("{n} game", "{n} games", row.games),
                wins=n_("{n} win", "{n} wins", row.wins)))
        for i, row in enumerate(rows))
    pages = (total + PAGE - 1) // PAGE
    embed.set_footer(text=voice(_("Page {page} of {pages} · rating = 1000 + 40 × (μ − 3σ), "
                                  "openskill", page=page + 1, pages=pages)))
    view = pager(LeaderboardPage, voice, page, pages, game=game, period=period)
    return embed, view


def pager(item: type, voice: Voice, page: int, pages: int, **keys: Any) -> discord.ui.View | None:
    if pages <= 1:
        return None
    view = discord.ui.View(timeout=None)
    view.add_item(item(page - 1, voice, back=True, disabled=page == 0, **keys))
    view.add_item(item(page + 1, voice, back=False, disabled=page + 1 >= pages, **keys))
    return view


def page_button(custom_id: str, label: Text, voice: Voice | None,
                disabled: bool) -> discord.ui.Button:
    """A page button; rebuilt from its custom id (voice None) only its callback matters."""
    return discord.ui.Button(label=voice(label) if voice else "-", custom_id=custom_id,
                             disabled=disabled, style=discord.ButtonStyle.secondary)


class LeaderboardPage(
    PersistentItem[discord.ui.Button],
    template=r"gn:board:(?P<game>[a-z]+):(?P<period>all|season):(?P<page>[0-9]+):(?P<d>[bf])",
):
    def __init__(self, page: int, voice: Voice | None, *, back: bool, disabled: bool = False,
                 game: str, period: str) -> None:
        self.page, self.game, self.period = max(page, 0), game, period
        custom_id = f"gn:board:{game}:{period}:{self.page}:{'b' if back else 'f'}"
        label = _("◀ Higher") if back else _("Lower ▶")
        super().__init__(page_button(custom_id, label, voice, disabled))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match, /) -> LeaderboardPage:
        return cls(int(match["page"]), None, back=match["d"] == "b", game=match["game"],
                   period=match["period"])

    async def use(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        voice = await bot.languages.reader(interaction)
        embed, view = await leaderboard(bot.store, interaction.guild_id, self.game, self.period,
                                        self.page, voice)
        await interaction.response.edit_message(embed=embed, view=view)


# -- stats --------------------------------------------------------------------------------------

async def stats(store: RecordsStore, presenters: Mapping[str, Presenter], guild_id: int,
                user: discord.abc.User, game: str | None,
                voice: Voice) -> tuple[discord.Embed, discord.File | None]:
    results = await store.person_results(need_server(guild_id), user.id, game)
    embed = discord.Embed(colour=COLOUR, title=voice(_("Stats: {name}",
                                                       name=user.display_name)))
    if not results:
        embed.description = voice(_("No finished games in this server yet.") if game is None
                                  else _("No finished {game} games in this server yet.",
                                         game=title(game)))
        return embed, None
    by_game: dict[str, list[ResultRow]] = {}
    for result in results:
        by_game.setdefault(result.game, []).append(result)
    for name in (g for g in GAME_NAMES if g in by_game):
        value = voice(await game_stats(store, presenters, guild_id, user.id, name,
                                       by_game[name]))
        embed.add_field(name=voice(title(name)), value=value[:1024], inline=False)
    charted = game or max(by_game, key=lambda g: sum(r.rated for r in by_game[g]))
    path = await store.rating_path(guild_id, charted, user.id)
    if len(path) < 2:
        return embed, None
    png = await render_off_loop(rating_chart, path, voice)
    embed.set_image(url="attachment://rating.png")
    embed.set_footer(text=voice(_("The chart: {game}, all time", game=title(charted))))
    alt = voice(_("{name}'s {game} rating over their last games, now {rating}",
                  name=user.display_name, game=title(charted), rating=path[-1]))
    return embed, discord.File(io.BytesIO(png), filename="rating.png", description=alt[:1024])


async def game_stats(store: RecordsStore, presenters: Mapping[str, Presenter], guild_id: int,
                     user_id: int, game: str, results: Sequence[ResultRow]) -> Words:
    rated = sum(r.rated for r in results)
    said: list[Words] = [_("Played {games} ({rated} rated), won {wins}.",
                           games=len(results), rated=rated, wins=sum(r.won for r in results))]
    overall = await store.rating(guild_id, game, ALL_TIME, user_id)
    season = await store.rating(guild_id, game, season_of(datetime.now(UTC)), user_id)
    if overall is not None and season is not None:
        said.append(_("Rating: **{rating}** all time, **{season}** this season",
                      rating=overall.display, season=season.display))
    elif overall is not None:
        said.append(_("Rating: **{rating}** all time", rating=overall.display))
    reviewed = [r.accuracy for r in results if r.accuracy is not None]
    if reviewed:
        said.append(n_("Accuracy: **{accuracy}** on average ({n} match reviewed)",
                       "Accuracy: **{accuracy}** on average ({n} matches reviewed)",
                       len(reviewed), accuracy=round(sum(reviewed) / len(reviewed))))
    turns = sum(r.turns for r in results)
    seconds = sum(r.seconds for r in results)
    if turns:
        said.append(_("Average time per turn: {time}",
                      time=Duration(round(seconds / turns))))
    presenter = presenters.get(game)
    if presenter is not None:
        said.extend(presenter.stats_lines([r.highlights for r in results]))
    return lines(said)


# -- history ------------------------------------------------------------------------------------

async def history(store: RecordsStore, interaction: discord.Interaction,
                  user: discord.abc.User | None, page: int,
                  voice: Voice) -> tuple[discord.Embed, discord.ui.View | None]:
    user_id = None if user is None else user.id
    rows = await visible_history(store, interaction, user_id, (page + 1) * PAGE + 1)
    more, rows = len(rows) > (page + 1) * PAGE, rows[page * PAGE:(page + 1) * PAGE]
    guild_id = interaction.guild_id
    heading = (_("Recent matches in this server") if user is None else
               _("Recent matches of {name}", name=user.display_name))
    embed = discord.Embed(colour=COLOUR, title=voice(heading))
    if not rows:
        embed.description = voice(_("No finished matches yet.") if page == 0
                                  else _("No older matches."))
    else:
        embed.description = "\n".join(voice(history_line(guild_id, row)) for row in rows)[:4096]
    view = pager(HistoryPage, voice, page, page + 2 if more else page + 1,
                 user_id=user_id or 0)
    return embed, view


async def visible_history(store: RecordsStore, interaction: discord.Interaction,
                          user_id: int | None, wanted: int) -> list[Any]:
    """The newest `wanted` finished matches whose channel the asker may see (a private
    channel's matches are not listed to the others)."""
    guild_id = need_server(interaction.guild_id)
    found: list[Any] = []
    offset, batch = 0, max(wanted, 50)
    while len(found) < wanted:
        rows = await store.history(guild_id, user_id, limit=batch, offset=offset)
        found += [row for row in rows if channel_visible(interaction, row.channel_id)]
        if len(rows) < batch:
            break
        offset += batch
    return found[:wanted]


def history_line(guild_id: int, row: Any) -> Words:
    when = int(datetime.fromisoformat(row.finished_at).timestamp())
    scores = listed(_("{name} {score}", name=result_name(r), score=r.score) for r in row.results)
    winners = [result_name(r) for r in row.results if r.won]
    if len(winners) == len(row.results) > 1:
        result: Words = _("a draw")
    else:
        result = _("{names} won", names=listed(winners))
    link = jump_url(guild_id, row.channel_id, row.board_message_id)
    line = _("`#{id}` <t:{when}:d> **{game}**: {scores}; {result} · [board]({link})",
             id=str(row.match_id), when=str(when), game=title(row.game), scores=scores,
             result=result, link=link)
    if row.unrated is not None:
        line = _("{line} ({why})", line=line, why=UNRATED.get(row.unrated, UNRATED["no_server"]))
    return line


class HistoryPage(
    PersistentItem[discord.ui.Button],
    template=r"gn:history:(?P<user>[0-9]+):(?P<page>[0-9]+):(?P<d>[bf])",
):
    """A history page; `user_id` 0: the whole server's."""

    def __init__(self, page: int, voice: Voice | None, *, back: bool, disabled: bool = False,
                 user_id: int) -> None:
        self.page, self.user_id = max(page, 0), user_id
        custom_id = f"gn:history:{user_id}:{self.page}:{'b' if back else 'f'}"
        label = _("◀ Newer") if back else _("Older ▶")
        super().__init__(page_button(custom_id, label, voice, disabled))

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match, /) -> HistoryPage:
        return cls(int(match["page"]), None, back=match["d"] == "b", user_id=int(match["user"]))

    async def use(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        voice = await bot.languages.reader(interaction)
        user = None
        if self.user_id:
            user = await member_or_user(bot, interaction.guild, self.user_id)
        embed, view = await history(bot.store, interaction, user, self.page, voice)
        await interaction.response.edit_message(embed=embed, view=view)


async def member_or_user(client: discord.Client, guild: discord.Guild | None,
                         user_id: int) -> discord.abc.User:
    member = guild.get_member(user_id) if guild is not None else None
    return member or client.get_user(user_id) or await client.fetch_user(user_id)


# -- forgetting a person ------------------------------------------------------------------------

FORGET_TEXT = _("This deletes, in every server: your name in past matches (you become "
                "\"a former player\"), your ratings, your stats and your settings. The moves "
                "of past games stay, so the other players' records stand. It cannot be undone.")


def forget_view(user_id: int, voice: Voice) -> discord.ui.View:
    view = discord.ui.View(timeout=None)
    view.add_item(ForgetButton(True, user_id, voice))
    view.add_item(ForgetButton(False, user_id, voice))
    return view


class ForgetButton(
    PersistentItem[discord.ui.Button],
    template=r"gn:forget:(?P<choice>yes|no):(?P<user>[0-9]+)",
):
    def __init__(self, yes: bool, user_id: int, voice: Voice | None = None) -> None:
        label = _("Forget me") if yes else _("Keep my records")
        style = discord.ButtonStyle.danger if yes else discord.ButtonStyle.secondary
        super().__init__(discord.ui.Button(
            label=voice(label) if voice else "-", style=style,
            custom_id=f"gn:forget:{'yes' if yes else 'no'}:{user_id}"))
        self.yes, self.user_id = yes, user_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match, /) -> ForgetButton:
        return cls(match["choice"] == "yes", int(match["user"]))

    async def use(self, interaction: discord.Interaction) -> None:
        bot = interaction.client
        if interaction.user.id != self.user_id:
            raise NotAllowed(_("Only the person who asked can answer this."))
        voice = await bot.languages.reader(interaction)
        if not self.yes:
            await interaction.response.edit_message(
                content=voice(_("Nothing was deleted: your records stay.")), view=None)
            return
        await forget(bot.store, bot.languages, self.user_id)
        await interaction.response.edit_message(content=voice(_(
            "Done: your name, ratings, stats and settings are deleted. Past games show "
            "\"a former player\" in your seats.")), view=None)


async def forget(store: RecordsStore, languages: Languages, user_id: int) -> None:
    """Forget a person, unless they sit in an open match (its board names them)."""
    open_ids = await store.open_seats_of(user_id)
    if open_ids:
        raise LobbyError(_("You are playing in an open match ({ids}). Finish it, leave it or "
                           "resign first, then ask again.",
                           ids=listed(f"#{match_id}" for match_id in open_ids)))
    await store.forget_person(user_id, -1 - secrets.randbits(62))
    languages.forget(user_id)


# -- the result card ------------------------------------------------------------------------------

async def result_card(store: RecordsStore, presenters: Mapping[str, Presenter],
                      match: Match) -> list[Words]:
    """The lines a finished match's board adds: rating changes (or why it is unrated) and the
    game's highlights."""
    results = await store.match_results(match.id)
    if not results:
        return []
    said: list[Words] = []
    changes = [r for r in results if r.change is not None]
    if changes:
        said.append(_("Ratings: {changes}", changes=listed(
            _("{name} {rating} ({change})", name=result_name(r), rating=r.change[1],
              change=signed(r.change[1] - r.change[0])) for r in changes)))
    else:
        said.append(UNRATED.get(results[0].unrated or "", UNRATED["no_server"]))
    presenter = presenters.get(match.game)
    if presenter is not None:
        said.extend(presenter.card_lines(match, [r.highlights for r in results]))
    return said
