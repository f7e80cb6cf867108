"""The Discord Activity (DISCORD_CLIENT_SECRET with GAMENIGHT_WEB_PORT): the match of the
channel it is opened in, live, inside Discord's frame, and for a seated player their own hand
and their moves.

The page runs Discord's Embedded App SDK (static/activity-sdk.js, bundled from web/): after the
handshake it asks Discord to authorize the app (a code), which `POST /activity/token` exchanges
at Discord's /oauth2/token with the client secret; the page authenticates the SDK with the
access token, and `POST /activity/session` learns who it is (GET /users/@me with that token)
and where (the activity instance, asked of Discord with the bot's token: its channel, and that
the user is in it). The answer is a session signed with a key derived from the client secret,
so any bot process sharing the secret accepts it; it names the user and the channel, never
a match, so the channel's current match is looked up at each request.

Every route is under /activity/, so one URL mapping in the Developer Portal (`/` to the public
address's /activity) serves it all; its pages may be framed by Discord only.
Moves go through `ActivityMover.act`: the bot's own path for a slash command's move (the match
service, then the game's presenter posts the board), with the same checks.
"""

from __future__ import annotations

import base64
import hashlib
import hmac
import json
import logging
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Protocol
from urllib.parse import urlencode

import aiohttp
from aiohttp import web

from bot.matches.model import Match
from bot.matches.service import MatchService
from bot.web.language import page_language
from bot.web.seat_words import YOUR_HAND
from render.alt import doudizhu_cards, scrabble_rack
from render.doudizhu import cards_words
from i18n import Voice, Words, _, voice

if TYPE_CHECKING:
    from bot.web.server import WebPages

log = logging.getLogger(__name__)

PREFIX = "/activity"
SESSION_SECONDS = 12 * 3600
SCOPES = ("identify",)
DISCORD_FRAMES = ("https://discord.com https://*.discord.com https://discordapp.com "
                  "https://*.discordapp.com https://*.discordsays.com")
HEADERS = {
    "Content-Security-Policy": "default-src 'self'; img-src 'self'; style-src 'self'; "
                               "script-src 'self'; connect-src 'self'; base-uri 'none'; "
                               f"form-action 'self'; frame-ancestors 'self' {DISCORD_FRAMES}; "
                               "object-src 'none'",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}

NOT_SIGNED_IN = _("Open the board from Discord to play here: this page could not sign you in.")
NO_EXCHANGE = _("Discord did not accept the sign-in. Close the board and open it again.")
DISCORD_DOWN = _("Discord cannot be reached just now. Close the board and try again in a "
                 "moment.")
NOT_IN_ACTIVITY = _("This board belongs to another channel's activity: open it from the "
                    "channel's own Open board button.")
NO_MATCH = _("There is no game in this channel yet. Start one with a game's `new` command.")
BAD_REQUEST = _("That request could not be read. Reload the board and try again.")
MOVE_DONE = _("Done: your move is on the board.")


class ActivityMover(Protocol):
    """Who makes the Activity's moves: the bot's side (bot/ui/activity.py ActivityMoves)."""

    @property
    def service(self) -> MatchService: ...

    async def act(self, channel_id: int, user_id: int, text: str) -> Words | None:
        """Make the caller's move in the channel's match as a slash command does; None when
        it is committed and shown, else why not in words, nothing changed."""
        ...


@dataclass(frozen=True)
class Session:
    user_id: int
    channel_id: int


class Refused(Exception):
    """An answer in words, with its HTTP status."""

    def __init__(self, status: int, words: Words) -> None:
        super().__init__(status)
        self.status = status
        self.words = words


class Activity:
    """The Activity's routes in the pages' server."""

    def __init__(self, pages: WebPages, host: ActivityMover, *, api_base: str,
                 client_id: Callable[[], int | None], client_secret: Any, bot_token: Any) -> None:
        """`client_secret` and `bot_token` have `.reveal()` (bot/app/config.py Secret): they
        are read only to be sent to Discord. `client_id` is asked when needed (the bot learns
        the application id at login)."""
        self.pages = pages
        self.host = host
        self.api_base = api_base.rstrip("/")
        self.client_id = client_id
        self._secret = client_secret
        self._bot_token = bot_token
        self._key = hmac.new(client_secret.reveal().encode(), b"gamenight activity session",
                             hashlib.sha256).digest()

    @staticmethod
    def headers_for(path: str) -> dict[str, str]:
        """The security headers of an answer: the Activity's may be framed by Discord."""
        from bot.web.server import HEADERS as PAGES
        return HEADERS if path == PREFIX or path.startswith(PREFIX + "/") else PAGES

    def routes(self) -> list[web.AbstractRouteDef]:
        pages = self.pages
        return [
            web.get(PREFIX, self.redirect),
            web.get(PREFIX + "/", self.page),
            web.post(PREFIX + "/token", self.token),
            web.post(PREFIX + "/session", self.session),
            web.get(PREFIX + "/match", self.match),
            web.post(PREFIX + "/act", self.act),
            web.get(PREFIX + "/m/{token}/live", self.live_part),
            web.get(PREFIX + "/m/{token}/board.png", pages.live_picture),
            web.get(PREFIX + "/m/{token}/events", pages.events),
            web.get(PREFIX + "/m/{token}/s/{signed}/mine.png", pages.seat_pages.picture),
            web.static(PREFIX + "/static", pages_static(), append_version=False),
        ]

    # -- the page ------------------------------------------------------------------------------

    async def redirect(self, request: web.Request) -> web.StreamResponse:
        """`/activity` to `/activity/` (relative: through Discord's proxy too)."""
        query = request.query_string
        raise web.HTTPFound("activity/" + (f"?{query}" if query else ""))

    async def page(self, request: web.Request) -> web.Response:
        say = self.say(request)
        client = self.client_id()
        html = self.pages.templates.get_template("activity.html").render(
            lang=say.lang, client_id="" if client is None else str(client),
            title=say(_("Gamenight")), words={k: say(v) for k, v in PAGE_WORDS.items()})
        return web.Response(text=html, content_type="text/html")

    async def live_part(self, request: web.Request) -> web.Response:
        """The live page's changing part, its links relative to /activity/."""
        shown = await self.pages.shown(request)
        values = self.pages.live_values(request, shown)
        values["root"] = ""
        return self.pages.render("live.html", request, **values)

    # -- signing in ----------------------------------------------------------------------------

    async def token(self, request: web.Request) -> web.Response:
        """The SDK's authorization code exchanged for an access token (the client secret stays
        here)."""
        try:
            code = await field(request, "code")
            client = self.client_id()
            if client is None:
                raise Refused(503, DISCORD_DOWN)
            form = {"grant_type": "authorization_code", "code": code,
                    "client_id": str(client), "client_secret": self._secret.reveal()}
            status, answer = await self.discord("POST", "/oauth2/token", data=form)
            if status != 200 or not isinstance(answer.get("access_token"), str):
                log.info("the activity's token exchange was refused (HTTP %s)", status)
                raise Refused(403, NO_EXCHANGE)
            return web.json_response({"access_token": answer["access_token"]})
        except Refused as refused:
            return self.refuse(request, refused)

    async def session(self, request: web.Request) -> web.Response:
        """Who the access token is and which channel's activity they are in: a signed
        session for both."""
        try:
            access = await field(request, "access_token")
            instance = await field(request, "instance_id")
            status, user = await self.discord("GET", "/users/@me", bearer=access)
            if status != 200 or not str(user.get("id", "")).isdigit():
                raise Refused(403, NOT_SIGNED_IN)
            client = self.client_id()
            status, found = await self.discord(
                "GET", f"/applications/{client}/activity-instances/{instance}", bot=True)
            channel = str((found.get("location") or {}).get("channel_id", ""))
            if status != 200 or user["id"] not in found.get("users", ()) or not channel.isdigit():
                raise Refused(403, NOT_IN_ACTIVITY)
            session = self.sign(Session(int(user["id"]), int(channel)))
            return web.json_response({"session": session, "user": user.get("global_name")
                                      or user.get("username")})
        except Refused as refused:
            return self.refuse(request, refused)

    async def discord(self, method: str, path: str, *, data: dict[str, str] | None = None,
                      bearer: str | None = None, bot: bool = False) -> tuple[int, dict[str, Any]]:
        """One call to Discord's API (DISCORD_API_BASE): its status and JSON object."""
        headers = {}
        if bearer is not None:
            headers["Authorization"] = f"Bearer {bearer}"
        elif bot:
            headers["Authorization"] = f"Bot {self._bot_token.reveal()}"
        try:
            async with aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=10)) as http:
                async with http.request(method, self.api_base + path, data=data,
                                        headers=headers) as answer:
                    body = await answer.json(content_type=None) if answer.content_length != 0 \
                        else {}
                    return answer.status, body if isinstance(body, dict) else {}
        except (aiohttp.ClientError, TimeoutError, ValueError) as error:
            log.warning("the activity could not reach Discord: %s", type(error).__name__)
            raise Refused(502, DISCORD_DOWN) from None

    def sign(self, session: Session) -> str:
        body = json.dumps({"u": session.user_id, "c": session.channel_id,
                           "e": int(self.pages.clock()) + SESSION_SECONDS},
                          separators=(",", ":")).encode()
        mac = hmac.new(self._key, body, hashlib.sha256).digest()
        return f"{b64(body)}.{b64(mac)}"

    def verify(self, request: web.Request) -> Session:
        """The request's session (`Authorization: Bearer ...`), else refused."""
        text = request.headers.get("Authorization", "").removeprefix("Bearer ").strip()
        body_text, _dot, mac_text = text.partition(".")
        try:
            body, mac = unb64(body_text), unb64(mac_text)
            fields = json.loads(body)
            ok = hmac.compare_digest(mac, hmac.new(self._key, body, hashlib.sha256).digest())
            if ok and int(fields["e"]) > self.pages.clock():
                return Session(int(fields["u"]), int(fields["c"]))
        except (ValueError, KeyError, TypeError):
            pass
        raise Refused(401, NOT_SIGNED_IN)

    # -- playing -------------------------------------------------------------------------------

    async def match(self, request: web.Request) -> web.Response:
        """The channel's newest match: its page's token, its version, whether it is open, and
        the caller's seat. Once it is over the page asks again now and then: the next match
        opened in the channel (a rematch, a new lobby) is the answer then."""
        try:
            session = self.verify(request)
            match = await self.host.service.latest(session.channel_id)
            if match is None:
                raise Refused(404, NO_MATCH)
            seat = match.seat_of(session.user_id)
            say = self.say(request)
            shown = None
            if seat is not None:
                shown = seat_view(match, seat, say)
                if shown["alt"] is not None:  # the seat's own picture, as its DMs show it
                    path = await self.pages.seat_pages.path(match.id, seat, session.user_id)
                    query = urlencode({"v": int(match.row.version), "lang": say.lang})
                    shown["picture"] = f"{path}/mine.png?{query}"
            return web.json_response({
                "token": await self.pages.store.match_token(match.id),
                "version": int(match.row.version),
                "open": match.is_open,
                "seat": shown,
            })
        except Refused as refused:
            return self.refuse(request, refused)

    async def act(self, request: web.Request) -> web.Response:
        try:
            session = self.verify(request)
            text = (await field(request, "move")).strip()
            refused = await self.host.act(session.channel_id, session.user_id, text)
            if refused is not None:
                raise Refused(409, refused)
            return web.json_response({"said": self.say(request)(MOVE_DONE)})
        except Refused as refused:
            return self.refuse(request, refused)

    # -- words ---------------------------------------------------------------------------------

    def say(self, request: web.Request) -> Voice:
        return voice(page_language(request.query.get("lang"),
                                   request.headers.get("Accept-Language")))

    def refuse(self, request: web.Request, refused: Refused) -> web.Response:
        return web.json_response({"error": self.say(request)(refused.words)},
                                 status=refused.status)


PAGE_WORDS = {
    "connecting": _("Connecting to Discord…"),
    "signing_in": _("Signing you in…"),
    "your_seat": _("Your seat"),
    "your_move": _("Your move"),
    "send": _("Play"),
    "pick_square": _("Choose a square to play:"),
    "watching": _("You are watching this match."),
}


def seat_view(match: Match, seat: int, say: Voice) -> dict[str, Any]:
    """What a seated player sees of their own seat: whether it is theirs to act, their rack or
    hand in words (and the alt text of its picture, while the match is on), and for Reversi
    the board's cells and the squares they may play."""
    shown: dict[str, Any] = {"game": match.game, "to_act": False, "hand": None, "alt": None,
                             "picture": None, "cells": None, "squares": []}
    if match.state is None:
        return shown
    view = match.engine.view(match.state, seat)
    shown["to_act"] = match.status == "active" and match.current_seat() == seat
    if match.game == "reversi":
        shown["cells"] = view.cells
        if shown["to_act"]:
            shown["squares"] = [match.engine.square_name(square) for square in view.legal]
    elif match.game == "scrabble" and view.rack:
        shown["hand"] = say(_("Your rack: {tiles}", tiles=" ".join(view.rack)))
        shown["alt"] = scrabble_rack(view.rack, say)
    elif match.game == "doudizhu" and view.hand:
        shown["hand"] = say(_("Your hand: {cards}", cards=cards_words(view.hand)))
        shown["alt"] = doudizhu_cards(view.hand, YOUR_HAND, say)
    if match.status != "active":  # the private picture is the open match's alone
        shown["alt"] = None
    return shown


async def field(request: web.Request, name: str) -> str:
    """A string field of the request's JSON object, else refused in words."""
    try:
        body = await request.json()
    except ValueError:
        body = None
    value = body.get(name) if isinstance(body, dict) else None
    if not isinstance(value, str) or not value or len(value) > 4096:
        raise Refused(400, BAD_REQUEST)
    return value


def pages_static() -> Any:
    from bot.web.server import HERE
    return HERE / "static"


def b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode()


def unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))
