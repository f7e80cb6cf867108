"""The web server (GAMENIGHT_WEB_PORT): aiohttp, pages from Jinja2 templates, static CSS and
JS, every response with a strict Content-Security-Policy, a rate limit per address.

Routes (a match is named by its token only, bot/storage/links.py):
- `/m/{token}`: the live page; `/m/{token}/live` the part that changes (fetched by the page's
  script when told), `/m/{token}/board.png` its picture, `/m/{token}/events` Server-Sent
  Events: the match's version at each commit (the event id, so a reconnection catches up).
- `/r/{token}?ply=N`: a finished match's replay after N actions; `/r/{token}/part` and
  `/r/{token}/board.png` likewise.
- `/m/{token}/s/{signed}`: a seat's private page (bot/web/private.py), its link from
  `private_link`.
- `/s/{token}`: a server's page, when it turned its pages on (bot/web/server_pages.py); a
  server that turned them off has no match page either (`shown`).
"""

from __future__ import annotations

import asyncio
import hashlib
import logging
import re
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

import jinja2
from aiohttp import hdrs, web

from bot.matches.model import Match
from bot.web import words
from bot.web.fresh import FreshReads
from bot.web.hub import Hub
from bot.web.language import page_language
from bot.web.limits import LOOPBACK, Network, RateLimit, client_address
from bot.web.listening import Listening
from bot.web.server_pages import ServerPages, visible
from bot.web.pictures import alt_text, table_png
from bot.web.private import SeatPages
from bot.web.streams import follow, open_stream
from bot.web.showing import Shown, show
from bot.workers.pictures import render_aside
from i18n import LANGUAGES, Voice, voice

log = logging.getLogger(__name__)

HERE = Path(__file__).resolve().parent
TOKEN = re.compile(r"[A-Za-z0-9_-]{16,64}")
PAGE_ROOT = "../"  # from a page (/m/TOKEN, /r/TOKEN) to the root, for its parts too
SHOWN_KEPT = 256  # matches whose read-back log is kept
PICTURES_KEPT = 128  # pictures kept (a move's picture is asked for by every viewer)
TOKENS_KEPT = 4096  # tokens whose match is kept
NOW = "0.0123456789"  # the clock in a kept live part, replaced by the time it is sent at
HEADERS = {  # aiohttp's names (istr): a response, an open stream too, keeps no lowered copies
    hdrs.CONTENT_SECURITY_POLICY: "default-src 'self'; img-src 'self'; style-src 'self'; "
                                  "script-src 'self'; connect-src 'self'; base-uri 'none'; "
                                  "form-action 'self'; frame-ancestors 'none'; object-src 'none'",
    hdrs.X_CONTENT_TYPE_OPTIONS: "nosniff",
    hdrs.REFERRER_POLICY: "no-referrer",
    hdrs.X_FRAME_OPTIONS: "DENY",
}

SHOWN_KEY: web.AppKey[WebPages] = web.AppKey("pages")


class WebUnavailable(Exception):
    """The pages' port cannot be listened on."""


class Lru(OrderedDict[Any, Any]):
    def __init__(self, size: int) -> None:
        super().__init__()
        self.size = size

    def keep(self, key: Any, value: Any) -> Any:
        self[key] = value
        self.move_to_end(key)
        while len(self) > self.size:
            self.popitem(last=False)
        return value


class WebPages:
    """The pages of one bot process, over its store."""

    def __init__(self, store: Any, *, public_url: str = "", limit: RateLimit | None = None,
                 trusted_proxies: tuple[Network, ...] = LOOPBACK,
                 clock: Callable[[], float] = time.time) -> None:
        self.store = store
        self.trusted_proxies = trusted_proxies  # GAMENIGHT_WEB_TRUSTED_PROXIES
        self.public_url = public_url.rstrip("/")  # GAMENIGHT_PUBLIC_URL
        self.clock = clock
        self.hub = Hub(self._version_of)
        self.servers = ServerPages(self)
        self.limit = limit or RateLimit()
        self._shown: Lru = Lru(SHOWN_KEPT)
        self._pictures: Lru = Lru(PICTURES_KEPT)
        self._reads: FreshReads[Shown] = FreshReads()
        self._tokens: Lru = Lru(TOKENS_KEPT)  # token -> match id (a token never changes)
        self._parts: Lru = Lru(SHOWN_KEPT)  # (token, language) -> (Shown, its live part)
        self._runner: web.AppRunner | None = None
        self.listening = Listening(store, self._heard, self.hub.catch_up,
                                   pages_off=self.pages_off)
        self.seat_pages = SeatPages(self)
        self.port: int | None = None
        self.activity: Any = None  # the Discord Activity's routes (bot/web/activity.py), if on
        self.templates = jinja2.Environment(
            loader=jinja2.FileSystemLoader(HERE / "templates"), autoescape=True,
            trim_blocks=True, lstrip_blocks=True, undefined=jinja2.StrictUndefined)

    # -- serving -------------------------------------------------------------------------------

    def app(self) -> web.Application:
        app = web.Application(middlewares=[self._guard])
        app[SHOWN_KEY] = self
        app.on_response_prepare.append(secure)
        app.add_routes([
            web.get("/m/{token}", self.live_page),
            web.get("/m/{token}/live", self.live_part),
            web.get("/m/{token}/board.png", self.live_picture),
            web.get("/m/{token}/events", self.events),
            web.get("/r/{token}", self.replay_page),
            web.get("/r/{token}/part", self.replay_part),
            web.get("/r/{token}/board.png", self.replay_picture),
            *self.servers.routes(),
            web.static("/static", HERE / "static", append_version=False),
            *self.seat_pages.routes(),
        ])
        if self.activity is not None:
            app.add_routes(self.activity.routes())
        return app

    async def start(self, host: str, port: int) -> None:
        self._runner = web.AppRunner(self.app(), access_log=None, shutdown_timeout=5.0)
        await self._runner.setup()
        try:
            await web.TCPSite(self._runner, host, port).start()
        except OSError as err:
            await self._runner.cleanup()
            self._runner = None
            raise WebUnavailable(f"cannot serve the web pages on {host} port {port}: "
                                 f"{err.strerror}") from None
        self.port = self._runner.addresses[0][1]
        await self.listening.start()  # PostgreSQL: other processes' commits
        log.info("serving the match pages on %s port %d", host, self.port)

    async def stop(self) -> None:
        self.hub.close()
        await self.listening.stop()
        self.servers.close()
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def live_link(self, match_id: int) -> str:
        """The address of the match's live page, to link from Discord."""
        return f"{self.public_url}/m/{await self.store.match_token(match_id)}"

    async def replay_link(self, match_id: int) -> str:
        """The address of the match's replay (it opens once the match is finished)."""
        return f"{self.public_url}/r/{await self.store.match_token(match_id)}"

    async def private_link(self, match_id: int, seat: int, user_id: int) -> str:
        """The address of `seat`'s private page (its hand or rack), for `user_id` who holds
        it; it expires (bot/web/seat_links.py), so each DM carries a fresh one."""
        return await self.seat_pages.link(match_id, seat, user_id)

    def committed(self, match: Match) -> None:
        """A commit of this process (the match service's `on_commit`)."""
        self.hub.changed(match.id, int(match.row.version))
        self.servers.committed(match)

    def pages_off(self, guild_id: int) -> None:
        """The server turned its pages off (here, or in another process: PostgreSQL's NOTIFY):
        end the open event streams of its page and of its matches' pages now. Their browsers
        reconnect, are answered 404 and show the page gone (static/live.js)."""
        self.servers.turned_off(guild_id)
        self.hub.close_group(guild_id)

    def _heard(self, match_id: int) -> None:
        """A commit of another process (PostgreSQL)."""
        self.hub.heard(match_id)
        self.servers.heard(match_id)

    async def _version_of(self, match_id: int) -> int | None:
        row = await self.store.get_match(match_id)
        return None if row is None else int(row.version)

    @web.middleware
    async def _guard(self, request: web.Request,
                     handler: Callable[[web.Request], Awaitable[web.StreamResponse]]
                     ) -> web.StreamResponse:
        address = client_address(request.remote, request.headers.get("X-Forwarded-For"),
                                 self.trusted_proxies)
        if not self.limit.allow(address):
            return self.message(request, words.TOO_MANY_TITLE, words.TOO_MANY, 429,
                                {"Retry-After": "5"})
        try:
            return await handler(request)
        except web.HTTPNotFound:
            return self.message(request, words.NOT_FOUND_TITLE, words.NOT_FOUND, 404)

    # -- finding the match ---------------------------------------------------------------------

    async def shown(self, request: web.Request) -> Shown:
        """The match the token names, read back (404 for any other token, and for a match of
        a server that turned its pages off). The viewers who ask at once (each commit wakes
        them all) share one read that began after they asked."""
        token = request.match_info["token"]
        match_id = self._tokens.get(token)
        if match_id is None:
            found = await self.store.match_of_token(token) if TOKEN.fullmatch(token) else None
            if found is None:
                raise web.HTTPNotFound()
            match_id = self._tokens.keep(token, found)
        return await self._reads.read(match_id, lambda: self._read_shown(match_id))

    async def _read_shown(self, match_id: int) -> Shown:
        row = await self.store.get_match(match_id)
        if row is None or not await visible(self.store, row.guild_id):
            raise web.HTTPNotFound()
        kept = self._shown.get(row.id)
        if kept is not None and (kept.version, kept.match.seats) == (row.version, row.seats):
            # the seats too: `/gamenight forget-me` changes a name, not the match's version
            self._shown.move_to_end(row.id)
            return kept
        from bot.matches.engines import engine_for  # the engines, imported once asked for
        engine = engine_for(row.game)
        state = None if row.state is None else engine.State.from_dict(row.state)
        return self._shown.keep(row.id, await show(self.store, Match(row, engine, state)))

    # -- pages ---------------------------------------------------------------------------------

    def speaker(self, request: web.Request) -> Voice:
        return voice(page_language(request.query.get("lang"),
                                   request.headers.get("Accept-Language")))

    def render(self, template: str, request: web.Request, code: int = 200,
               headers: dict[str, str] | None = None, **values: Any) -> web.Response:
        say = self.speaker(request)
        query = {k: v for k, v in request.query.items() if k != "lang"}
        switch = [(code, name, "?" + "&".join(f"{k}={v}" for k, v in
                                              (*query.items(), ("lang", code))))
                  for code, name in LANGUAGES.items()]
        html = self.templates.get_template(template).render(
            say=say, lang=say.lang, words={k: say(v) for k, v in words.PAGE_WORDS.items()},
            languages=switch, **values)
        return web.Response(text=html, content_type="text/html", status=code,
                            headers=headers or {})

    def message(self, request: web.Request, heading: Any, text: Any, code: int,
                headers: dict[str, str] | None = None) -> web.Response:
        say = self.speaker(request)
        return self.render("message.html", request, code, headers, title=say(heading),
                           text=say(text), root=root_of(request))

    def live_values(self, request: web.Request, shown: Shown) -> dict[str, Any]:
        say = self.speaker(request)
        names = [say(name) for name in shown.names]
        view = shown.view()
        due = shown.match.turn_due
        return {
            "shown": shown, "token": request.match_info["token"], "title": say(shown.heading()),
            "status": say(shown.status_line()), "version": shown.version,
            "seats": shown.seats(), "plies": shown.plies, "now": self.clock(),
            "due": due, "due_iso": None if due is None else iso(due),
            "alt": None if view is None else alt_text(shown.game, view, names, say),
            "names_key": names_key(names),
            "finished": shown.match.status in ("finished", "cancelled"),
            "root": PAGE_ROOT,
        }

    async def live_page(self, request: web.Request) -> web.Response:
        shown = await self.shown(request)
        return self.render("match.html", request, **self.live_values(request, shown))

    async def live_part(self, request: web.Request) -> web.Response:
        """Drawn once per read-back and language: each commit has every viewer ask for it."""
        shown = await self.shown(request)
        key = (request.match_info["token"], self.speaker(request).lang)
        kept = self._parts.get(key)
        if kept is not None and kept[0] is shown:  # not read again since (a commit, a name)
            html = kept[1]
        else:
            values = {**self.live_values(request, shown), "now": NOW}
            html = self._parts.keep(key, (shown, self.render("live.html", request,
                                                             **values).text))[1]
        return web.Response(text=html.replace(NOW, str(self.clock()), 1),
                            content_type="text/html")

    async def live_picture(self, request: web.Request) -> web.Response:
        shown = await self.shown(request)
        return await self.picture(request, shown, None)

    def replay_values(self, request: web.Request, shown: Shown) -> dict[str, Any]:
        say = self.speaker(request)
        total = len(shown.plies)
        ply = ply_of(request.query.get("ply"), total)
        names = [say(name) for name in shown.names]
        return {
            "shown": shown, "token": request.match_info["token"], "title": say(shown.heading()),
            "status": say(shown.status_line()), "ply": ply, "total": total,
            "seats": shown.seats(ply), "plies": shown.plies, "caption": say(shown.caption(ply)),
            "alt": alt_text(shown.game, shown.view(ply), names, say),
            "names_key": names_key(names),
            "hands": [(say(name), say(cards)) for name, cards in shown.hands(ply)],
            "root": PAGE_ROOT,
        }

    async def replay_page(self, request: web.Request) -> web.Response:
        shown = await self.shown(request)
        if shown.match.status != "finished" or not shown.views:
            return self.message(request, words.NOT_YET_TITLE, words.NOT_YET, 404)
        return self.render("replay.html", request, **self.replay_values(request, shown))

    async def replay_part(self, request: web.Request) -> web.Response:
        shown = await self.shown(request)
        if shown.match.status != "finished" or not shown.views:
            raise web.HTTPNotFound()
        return self.render("replay_part.html", request, **self.replay_values(request, shown))

    async def replay_picture(self, request: web.Request) -> web.Response:
        shown = await self.shown(request)
        if shown.match.status != "finished" or not shown.views:
            raise web.HTTPNotFound()
        return await self.picture(request, shown, ply_of(request.query.get("ply"),
                                                          len(shown.plies)))

    async def picture(self, request: web.Request, shown: Shown, ply: int | None) -> web.Response:
        """The public table after `ply` actions (None: now), drawn once per version, ply and
        language however many viewers ask at once."""
        view = shown.view(ply)
        if view is None:
            raise web.HTTPNotFound()
        say = self.speaker(request)
        key = (shown.match.id, shown.version, shown.match.seats, ply, say.lang)
        drawing = self._pictures.get(key)
        if drawing is None:
            names = [say(name) for name in shown.names]
            drawing = self._pictures.keep(key, asyncio.ensure_future(render_aside(
                table_png, shown.game, view, say(shown.caption(ply)), names, say)))
        try:
            png = await asyncio.shield(drawing)
        except Exception:
            self._pictures.pop(key, None)  # drawn again when next asked for
            raise
        return web.Response(body=png, content_type="image/png",
                            headers={"Cache-Control": "private, max-age=300"})

    async def events(self, request: web.Request) -> web.StreamResponse:
        match = (await self.shown(request)).match
        match_id = match.id
        watcher = self.hub.watch(match_id, match.guild_id)  # before reading the version
        try:
            version = await self._version_of(match_id)
            if version is None:
                raise web.HTTPNotFound()
            response = await open_stream(request)
            # A commit told of while the stream opened was sent: only newer ones after it.
            await follow(response, watcher, version, lambda new, last: new > last)
        finally:
            self.hub.leave(match_id, watcher)
        return response


async def secure(request: web.Request, response: web.StreamResponse) -> None:
    """Every answer, pages, pictures and static files alike (the Activity's may be framed by
    Discord)."""
    activity = request.app[SHOWN_KEY].activity
    headers = HEADERS if activity is None else activity.headers_for(request.path)
    for name, value in headers.items():
        response.headers.setdefault(name, value)


def names_key(names: list[str]) -> str:
    """A short digest of the names a picture shows, in its address: browsers keep pictures a
    while, and a name `/gamenight forget-me` removed must not stay in a kept one."""
    return hashlib.blake2s("\0".join(names).encode(), digest_size=6).hexdigest()


def root_of(request: web.Request) -> str:
    """The way back to the site's root from the request's page, as a relative path, so the
    pages work behind a proxy that serves them under a path of its own."""
    depth = request.path.count("/") - 1
    return "../" * depth if depth else "./"


def ply_of(text: str | None, total: int) -> int:
    """`?ply=N`, held within 0..total (absent or not a number: the end)."""
    if text is None or not text.strip().lstrip("-").isdigit():
        return total
    return max(0, min(total, int(text)))


def iso(seconds: float) -> str:
    return datetime.fromtimestamp(seconds, timezone.utc).isoformat(timespec="seconds")
