"""A server's page (issue 30, item 5), once the server turned its web pages on
(`/gamenight settings web_pages:on`): its open matches, a game night's round and standings,
leaderboards and recent results, each linking to its match's live page or replay.

Routes (the server is named by its token only, bot/storage/server_links.py):
- `/s/{token}`: the page; `/s/{token}/part` the part that changes, fetched again by the page's
  script when told; `/s/{token}/events` Server-Sent Events of the server's stamp (a number
  that changes with every commit of its matches and nights), sent when one of its matches
  commits, in this process (`committed`) or another (`heard`, PostgreSQL's NOTIFY).

A server that turned its pages off has no page at all: this one and its matches' live pages
and replays answer 404 from that moment (`visible`, which the match pages ask too).
"""

from __future__ import annotations

import asyncio
import logging
import re
from collections import OrderedDict
from dataclasses import dataclass
from datetime import UTC, datetime
from collections.abc import Callable
from typing import Any, Protocol

from aiohttp import web

from bot.matches.model import Match, player_name
from bot.matches.ratings import ALL_TIME, season_of
from bot.matches.titles import title
from bot.nights.model import RUNNING, Night
from bot.nights.rounds import BYE, DONE, OUT, PENDING, PLAYING, is_computer
from bot.registry import GAMES
from bot.storage.rows import GuildSettings, HistoryRow, RatingRow, SeatRow
from bot.web import server_words as said
from bot.web import words
from bot.web.hub import Hub
from bot.web.showing import Shown
from bot.web.streams import follow, open_stream
from i18n import Voice, Words, _, listed

log = logging.getLogger(__name__)

TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")  # as the match pages' (bot/web/server.py)
PAGE_ROOT = "../"  # from /s/TOKEN to the root, for its part too
BOARD_LINES = 10  # players on each game's leaderboard
RECENT = 10  # finished matches listed
KEPT = 64  # servers whose page is kept between commits
KEPT_FOR = 30.0  # seconds a kept page is shown at most (a name forgotten meanwhile goes then)
GAME_NAMES = tuple(game.engine.rsplit(".", 1)[-1] for game in GAMES)


class Pages(Protocol):
    """What this needs of the match pages (bot/web/server.py's WebPages)."""

    store: Any
    public_url: str
    clock: Callable[[], float]

    def speaker(self, request: web.Request) -> Voice: ...

    def render(self, template: str, request: web.Request, code: int = 200,
               headers: dict[str, str] | None = None, **values: Any) -> web.Response: ...

    def message(self, request: web.Request, heading: Any, text: Any, code: int,
                headers: dict[str, str] | None = None) -> web.Response: ...


async def visible(store: Any, guild_id: int | None) -> bool:
    """Whether a server's matches may be shown on the web: yes unless it turned its pages
    off (a match outside any server always)."""
    if guild_id is None:
        return True
    settings: GuildSettings = await store.guild_settings(guild_id)
    return settings.web_pages is not False


# -- what the page shows ------------------------------------------------------------------------

@dataclass(frozen=True)
class MatchLine:
    game: Words
    players: Words
    status: Words
    token: str


@dataclass(frozen=True)
class TableLine:
    name: Words
    players: Words
    state: Words | None
    token: str | None


@dataclass(frozen=True)
class StandingLine:
    rank: int
    name: Words
    points: float


@dataclass(frozen=True)
class NightShown:
    title: Words
    status: Words
    tables: tuple[TableLine, ...]
    standings: tuple[StandingLine, ...]


@dataclass(frozen=True)
class BoardShown:
    heading: Words
    rows: tuple[RatingRow, ...]


@dataclass(frozen=True)
class ResultLine:
    game: Words
    players: Words
    outcome: Words
    finished: str  # ISO 8601, UTC
    token: str


@dataclass(frozen=True)
class ServerShown:
    """A server's page at one stamp, in no language yet (the templates word it)."""

    stamp: int
    at: float  # when it was read
    title: Words
    matches: tuple[MatchLine, ...]
    nights: tuple[NightShown, ...]
    boards: tuple[BoardShown, ...]
    results: tuple[ResultLine, ...]


async def gather(store: Any, guild_id: int, stamp: int, at: float) -> ServerShown:
    """Everything the page shows of a server, read from the store."""
    now = datetime.fromtimestamp(at, UTC)
    name = await store.server_name(guild_id)
    heading = said.TITLE_UNNAMED if name is None else _("Games on {server}", server=name)
    return ServerShown(stamp, at, heading, await open_matches(store, guild_id),
                       await running_nights(store, guild_id),
                       await leaderboards(store, guild_id, now),
                       await recent_results(store, guild_id))


async def open_matches(store: Any, guild_id: int) -> tuple[MatchLine, ...]:
    from bot.matches.engines import engine_for  # the engines, imported once asked for
    found = []
    for row in await store.open_matches_in_guild(guild_id):
        engine = engine_for(row.game)
        state = None if row.state is None else engine.State.from_dict(row.state)
        match = Match(row, engine, state)
        names = tuple(player_name(seat) for seat in match.seats)
        status = Shown(match, names, (), (), (), ()).status_line()  # no move log read
        found.append(MatchLine(title(row.game), listed(names), status,
                               await store.match_token(row.id)))
    return tuple(found)


async def running_nights(store: Any, guild_id: int) -> tuple[NightShown, ...]:
    found = []
    for row in await store.guild_nights(guild_id):
        if row.status != RUNNING:
            continue
        night = Night(row, tuple(await store.night_players(row.id)),
                      tuple(await store.night_tables(row.id)))
        tables = tuple([await table_line(store, night, table)
                        for table in night.round_tables()])
        standings = tuple(StandingLine(s.rank, night_name(night, s.player), s.points)
                          for s in night.standings())  # the night's own standings
        status = _("Round {round} of {rounds} is being played{paused}.", round=row.round,
                   rounds=night.rounds, paused=said.PAUSED if row.paused else "")
        found.append(NightShown(_("Game night #{id}: {game}", id=str(row.id),
                                  game=title(row.game)), status, tables, standings))
    return tuple(found)


def night_name(night: Night, player: int) -> Words:
    """A seat at a night's table by name (never by id)."""
    if is_computer(player):
        return said.COMPUTER
    found = night.player(player)
    return said.SOMEONE if found is None or not found.name else found.name


async def table_line(store: Any, night: Night, table: Any) -> TableLine:
    names = [night_name(night, player) for player in table.players]
    token = None if table.match_id is None else await store.match_token(table.match_id)
    name = _("Table {n}", n=table.number)
    if table.status == BYE:
        return TableLine(name, _("{player} has a bye.", player=names[0]), None, None)
    if table.status == OUT:
        return TableLine(name, _("{player} sits out this round.", player=names[0]), None, None)
    state: Words = {PENDING: said.WAITING, PLAYING: said.PLAYING}.get(table.status,
                                                                     said.FINISHED_TABLE)
    if table.status == DONE and table.result:
        if table.result.get("unfinished"):
            state = said.SHARED
        else:
            winners = [names[i] for i, place in enumerate(table.result["places"]) if place == 1]
            state = _("won by {players}", players=listed(winners))
    return TableLine(name, listed(names), state, token)


async def leaderboards(store: Any, guild_id: int, now: datetime) -> tuple[BoardShown, ...]:
    """Each game's best players this season, or of all time if none played this season."""
    found = []
    for game in GAME_NAMES:
        season = season_of(now)
        rows, _total = await store.leaderboard(guild_id, game, season, limit=BOARD_LINES)
        when: Words = _("this season ({season})", season=season)
        if not rows:
            rows, _total = await store.leaderboard(guild_id, game, ALL_TIME, limit=BOARD_LINES)
            when = said.ALL_TIME
        if rows:
            found.append(BoardShown(_("{game}, {when}", game=title(game), when=when),
                                    tuple(rows)))
    return tuple(found)


async def recent_results(store: Any, guild_id: int) -> tuple[ResultLine, ...]:
    found = []
    for row in await store.history(guild_id, limit=RECENT):
        found.append(await result_line(store, row))
    return tuple(found)


async def result_line(store: Any, row: HistoryRow) -> ResultLine:
    names = [player_name(SeatRow(r.seat, "computer" if r.user_id is None else "user",
                                 r.user_id, r.name)) for r in row.results]
    scores = listed([_("{player}: {score}", player=name, score=r.score)
                     for name, r in zip(names, row.results)])
    winners = [name for name, r in zip(names, row.results) if r.won]
    outcome = _("won by {players}", players=listed(winners)) if winners else words.DRAWN
    return ResultLine(title(row.game), scores, outcome, row.finished_at,
                      await store.match_token(row.match_id))


# -- serving ------------------------------------------------------------------------------------

class ServerHub(Hub):
    """Watchers of server pages by server id; told of a match's commit, it reads the server's
    stamp once for all its watchers (`Hub.heard`)."""

    def match_heard(self, store: Any, match_id: int) -> None:
        """Another process committed to a match: which server's page, if any is watched."""
        if not self._watchers:
            return
        task = asyncio.get_running_loop().create_task(self._match_read(store, match_id))
        self._tasks.add(task)
        task.add_done_callback(self._tasks.discard)

    async def _match_read(self, store: Any, match_id: int) -> None:
        guild_id = await store.guild_of_match(match_id)
        if guild_id is not None:
            self.heard(guild_id)

    def close_server(self, guild_id: int) -> None:
        for watcher in self._watchers.get(guild_id, ()):
            watcher.close()


class ServerPages:
    """The server pages beside the match pages, over the same store and templates."""

    def __init__(self, pages: Pages) -> None:
        self.pages = pages
        self.store = pages.store
        self.hub = ServerHub(self.store.server_stamp)
        self._kept: OrderedDict[int, ServerShown] = OrderedDict()

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/s/{token}", self.page), web.get("/s/{token}/part", self.part),
                web.get("/s/{token}/events", self.events)]

    async def link(self, guild_id: int) -> str | None:
        """The address of the server's page, to give in Discord (None: its pages are not on)."""
        token = await self.store.server_token(guild_id)
        return None if token is None else f"{self.pages.public_url}/s/{token}"

    def committed(self, match: Match) -> None:
        """A commit of this process: wake the server's page, if anyone watches it."""
        if match.guild_id is not None:
            self.hub.heard(match.guild_id)

    def heard(self, match_id: int) -> None:
        """A commit of another process (PostgreSQL's NOTIFY)."""
        self.hub.match_heard(self.store, match_id)

    def turned_off(self, guild_id: int) -> None:
        """The server turned its pages off: end its page's open event streams now."""
        self._kept.pop(guild_id, None)
        self.hub.close_server(guild_id)

    def close(self) -> None:
        self.hub.close()

    async def guild_of(self, request: web.Request) -> int:
        token = request.match_info["token"]
        guild_id = await self.store.server_of_token(token) if TOKEN.fullmatch(token) else None
        if guild_id is None:
            raise web.HTTPNotFound()
        return guild_id

    async def shown(self, guild_id: int) -> ServerShown:
        """The server's page as of its stamp now (gathered once per stamp, however many
        viewers fetch it after a commit, and again after KEPT_FOR seconds)."""
        stamp = await self.store.server_stamp(guild_id)
        now = self.pages.clock()
        kept = self._kept.get(guild_id)
        if kept is None or kept.stamp != stamp or not 0 <= now - kept.at < KEPT_FOR:
            kept = await gather(self.store, guild_id, stamp, now)
            self._kept[guild_id] = kept
        self._kept.move_to_end(guild_id)
        while len(self._kept) > KEPT:
            self._kept.popitem(last=False)
        return kept

    def values(self, request: web.Request, shown: ServerShown) -> dict[str, Any]:
        say = self.pages.speaker(request)
        return {"server": shown, "token": request.match_info["token"], "root": PAGE_ROOT,
                "title": say(shown.title), "when": when,
                "sw": {key: say(text) for key, text in said.SERVER_WORDS.items()}}

    async def page(self, request: web.Request) -> web.Response:
        try:
            guild_id = await self.guild_of(request)
        except web.HTTPNotFound:
            return self.pages.message(request, said.NOT_FOUND_TITLE, said.NOT_FOUND, 404)
        shown = await self.shown(guild_id)
        return self.pages.render("server.html", request, **self.values(request, shown))

    async def part(self, request: web.Request) -> web.Response:
        shown = await self.shown(await self.guild_of(request))
        return self.pages.render("server_part.html", request, **self.values(request, shown))

    async def events(self, request: web.Request) -> web.StreamResponse:
        guild_id = await self.guild_of(request)
        stamp = await self.store.server_stamp(guild_id)
        response = await open_stream(request)
        watcher = self.hub.watch(guild_id)
        try:
            await follow(response, watcher, stamp, lambda new, last: new != last)
        finally:
            self.hub.leave(guild_id, watcher)
        return response


def when(iso: str) -> str:
    """A stored time (ISO 8601, UTC) as the page shows it: `2026-11-28 12:37 UTC`."""
    try:
        moment = datetime.fromisoformat(iso)
    except ValueError:
        return iso
    return moment.astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
