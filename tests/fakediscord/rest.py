"""The fake's HTTP side: the route table, one record per request, bodies read (JSON or
multipart), failures injected by tests, and handler errors answered as Discord answers them."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web
from aiohttp.helpers import parse_mimetype
from aiohttp.http_parser import HeadersParser
from aiohttp.multipart import content_disposition_filename, parse_content_disposition
from multidict import CIMultiDictProxy

from tests import pseudo
from tests.fakediscord.errors import _HTTPError

log = logging.getLogger("fakediscord")


@dataclass
class RequestRecord:
    method: str
    path: str
    query: dict
    payload: Any = None
    files: list[str] = field(default_factory=list)
    status: int | None = None


class Rest:
    """Routing, request records and failure injection over the handlers in routes.py and callbacks.py."""

    def fail_next(self, method: str, path: str, status: int, code: int = 0,
                  message: str = "injected failure", *, times: int = 1) -> dict[str, Any]:
        """Answer the next `times` requests `method path` (a regex on the path after the API
        base, e.g. ``/channels/123/messages``) with an error, as Discord would. Returns the
        failure; its ``left`` counts down as requests hit it."""
        failure = {"method": method, "rx": re.compile(path + "$"), "left": times,
                   "error": _HTTPError(status, code, message)}
        self._failures.append(failure)
        return failure

    def _injected_failure(self, method: str, sub: str) -> "_HTTPError | None":
        for failure in self._failures:
            if failure["left"] and failure["method"] == method and failure["rx"].search(sub):
                failure["left"] -= 1
                return failure["error"]
        return None

    def _build_routes(self) -> list[tuple[str, re.Pattern, Any, bool]]:
        S = r"(?P<{}>\d+)"
        raw = [
            ("GET", "/users/@me", self._r_me, False),  # the bot's token, or a Bearer (oauth.py)
            ("POST", "/oauth2/token", self._r_oauth_token, False),
            ("GET", f"/users/{S.format('user_id')}", self._r_user, True),
            ("POST", "/users/@me/channels", self._r_open_dm, True),
            ("GET", "/gateway", self._r_gateway, False),
            ("GET", "/gateway/bot", self._r_gateway_bot, True),
            ("GET", "/oauth2/applications/@me", self._r_app, True),
            ("GET", "/applications/@me", self._r_app, True),
            ("GET", f"/applications/{S.format('app')}/commands", self._r_cmds_get, True),
            ("PUT", f"/applications/{S.format('app')}/commands", self._r_cmds_put, True),
            ("POST", f"/applications/{S.format('app')}/commands", self._r_cmd_post, True),
            ("GET", f"/applications/{S.format('app')}/commands/{S.format('cmd')}", self._r_cmd_get, True),
            ("PATCH", f"/applications/{S.format('app')}/commands/{S.format('cmd')}", self._r_cmd_patch, True),
            ("DELETE", f"/applications/{S.format('app')}/commands/{S.format('cmd')}", self._r_cmd_delete, True),
            ("GET", f"/applications/{S.format('app')}/guilds/{S.format('guild')}/commands", self._r_cmds_get, True),
            ("PUT", f"/applications/{S.format('app')}/guilds/{S.format('guild')}/commands", self._r_cmds_put, True),
            ("POST", f"/applications/{S.format('app')}/guilds/{S.format('guild')}/commands", self._r_cmd_post, True),
            ("GET", f"/applications/{S.format('app')}/guilds/{S.format('guild')}/commands/permissions", self._r_empty_list, True),
            ("GET", f"/applications/{S.format('app')}/guilds/{S.format('guild')}/commands/{S.format('cmd')}", self._r_cmd_get, True),
            ("PATCH", f"/applications/{S.format('app')}/guilds/{S.format('guild')}/commands/{S.format('cmd')}", self._r_cmd_patch, True),
            ("DELETE", f"/applications/{S.format('app')}/guilds/{S.format('guild')}/commands/{S.format('cmd')}", self._r_cmd_delete, True),
            ("GET", f"/channels/{S.format('channel')}", self._r_channel, True),
            ("GET", f"/channels/{S.format('channel')}/messages", self._r_history, True),
            ("POST", f"/channels/{S.format('channel')}/messages", self._r_post_message, True),
            ("GET", f"/channels/{S.format('channel')}/messages/{S.format('message')}", self._r_get_message, True),
            ("PATCH", f"/channels/{S.format('channel')}/messages/{S.format('message')}", self._r_edit_message, True),
            ("DELETE", f"/channels/{S.format('channel')}/messages/{S.format('message')}", self._r_delete_message, True),
            ("POST", f"/channels/{S.format('channel')}/messages/bulk-delete", self._r_bulk_delete, True),
            ("POST", f"/channels/{S.format('channel')}/typing", self._r_no_content, True),
            ("POST", f"/channels/{S.format('channel')}/threads", self._r_create_thread, True),
            ("PUT", f"/channels/{S.format('channel')}/messages/{S.format('message')}/reactions/(?P<emoji>[^/]+)/@me", self._r_react, True),
            ("DELETE", f"/channels/{S.format('channel')}/messages/{S.format('message')}/reactions/(?P<emoji>[^/]+)/@me", self._r_unreact, True),
            ("DELETE", f"/channels/{S.format('channel')}/messages/{S.format('message')}/reactions", self._r_clear_reactions, True),
            ("GET", f"/guilds/{S.format('guild')}", self._r_guild, True),
            ("GET", f"/guilds/{S.format('guild')}/channels", self._r_guild_channels, True),
            ("GET", f"/guilds/{S.format('guild')}/roles", self._r_guild_roles, True),
            ("GET", f"/guilds/{S.format('guild')}/members", self._r_guild_members, True),
            ("GET", f"/guilds/{S.format('guild')}/members/{S.format('user_id')}", self._r_guild_member, True),
            ("POST", f"/interactions/{S.format('iid')}/(?P<token>[^/]+)/callback", self._r_callback, False),
            ("POST", f"/webhooks/{S.format('app')}/(?P<token>[^/]+)", self._r_followup, False),
            ("GET", f"/webhooks/{S.format('app')}/(?P<token>[^/]+)/messages/(?P<message>@original|\\d+)", self._r_wh_get, False),
            ("PATCH", f"/webhooks/{S.format('app')}/(?P<token>[^/]+)/messages/(?P<message>@original|\\d+)", self._r_wh_edit, False),
            ("DELETE", f"/webhooks/{S.format('app')}/(?P<token>[^/]+)/messages/(?P<message>@original|\\d+)", self._r_wh_delete, False),
        ]
        checked = (self._scheduled_event_routes(S) + self._thread_member_routes(S)
                   + self._oauth_routes(S))
        self._answers_checked = {handler for _, _, handler, _ in checked}
        raw += checked
        return [(m, re.compile(p + "$"), h, auth) for m, p, h, auth in raw]

    @staticmethod
    def _json(data: Any, status: int = 200) -> web.Response:
        # body= (not text=) so aiohttp does not append "; charset=utf-8": discord.py only parses
        # JSON when Content-Type is exactly "application/json".
        return web.Response(body=json.dumps(data).encode(), status=status, content_type="application/json")

    async def _http(self, request: web.Request) -> web.StreamResponse:
        path = request.path
        if request.method == "GET" and path.startswith("/attachments/"):
            m = re.match(r"^/attachments/\d+/(\d+)/", path)
            a = self._attachments.get(int(m.group(1))) if m else None
            if a is None:
                return web.Response(status=404)
            return web.Response(body=a.data, content_type=a.content_type or "application/octet-stream")
        api = re.match(r"^/api/v\d+(/.*)$", path)
        sub = api.group(1) if api else path
        rec = RequestRecord(request.method, sub, dict(request.query))
        self.request_log.append(rec)
        self._inflight += 1
        try:
            resp = await self._route(request, sub, rec)
        finally:
            self._inflight -= 1
        rec.status = resp.status
        return resp

    async def _route(self, request: web.Request, sub: str, rec: RequestRecord) -> web.StreamResponse:
        for method, rx, handler, auth in self._routes:
            if method != request.method:
                continue
            m = rx.match(sub)
            if not m:
                continue
            if auth and request.headers.get("Authorization") != f"Bot {self.token}":
                return self._json({"message": "401: Unauthorized", "code": 0}, 401)
            headers: dict[str, str] = {}
            if self.rate_limiter and handler != self._r_callback:
                headers, refused = self.rate_limiter.take(request.method, sub, rx.pattern,
                                                          m.groupdict())
                if refused is not None:
                    return refused
            response = await self._answer(request, sub, rec, handler, m)
            response.headers.update(headers)
            return response
        self.unknown_routes.append((request.method, sub))
        log.error("fakediscord: UNKNOWN ROUTE %s %s (not implemented by the fake)", request.method, sub)
        return self._json({"message": f"404: Not Found (fakediscord has no route {request.method} {sub})", "code": 0}, 404)

    async def _answer(self, request: web.Request, sub: str, rec: RequestRecord, handler: Any,
                      m: re.Match) -> web.StreamResponse:
        """Run the handler; an error it raises becomes Discord's JSON error answer."""
        try:
            payload, files = await self._read_body(request)
            rec.payload, rec.files = pseudo.plain(payload), [f[1] for f in files]
            self._check_schema(request.method, sub, payload)
            payload = rec.payload  # tests read English; the markers were checked
            injected = self._injected_failure(request.method, sub)
            if injected is not None:
                raise injected
            result = await handler(request, payload, files, **m.groupdict())
        except _HTTPError as e:
            body: dict[str, Any] = {"message": e.message, "code": e.code}
            if e.errors is not None:
                body["errors"] = e.errors
                log.warning("fakediscord: %s %s -> %s %s", request.method, sub, e.status, body)
            self._check_answer(handler, request.method, sub, e.status, body)
            return self._json(body, e.status)
        except Exception:
            log.exception("fakediscord: internal error handling %s %s", request.method, sub)
            return self._json({"message": "fakediscord internal error", "code": 0}, 400)
        if isinstance(result, web.StreamResponse):
            return result
        self._check_answer(handler, request.method, sub, 200 if result is not None else 204, result)
        return web.Response(status=204) if result is None else self._json(result)

    @staticmethod
    async def _read_body(request: web.Request) -> tuple[Any, list]:
        files: list[tuple[int, str, bytes, str | None]] = []
        if not request.can_read_body:
            return None, files
        ctype = request.content_type
        if ctype == "application/json":
            return await request.json(), files
        if ctype == "application/x-www-form-urlencoded":  # OAuth2 (oauth.py)
            return dict(await request.post()), files
        if ctype.startswith("multipart/"):
            payload = None
            boundary = parse_mimetype(request.headers["Content-Type"]).parameters["boundary"]
            for headers, data in _multipart_parts(await request.read(), boundary):
                _, params = parse_content_disposition(headers.get("Content-Disposition"))
                name = content_disposition_filename(params, "name")
                if name == "payload_json":
                    payload = json.loads(data)
                    continue
                m = re.fullmatch(r"files\[(\d+)\]|file(\d*)", name or "")
                if m is None:
                    log.error("fakediscord: unexpected multipart field %r", name)
                    continue
                idx = int(m.group(1) or m.group(2) or 0)
                filename = content_disposition_filename(params, "filename")
                files.append((idx, filename or f"file{idx}", data, headers.get("Content-Type")))
            return payload, files
        body = await request.read()
        return (json.loads(body) if body else None), files


def _multipart_parts(body: bytes, boundary: str) -> Iterator[tuple[CIMultiDictProxy[str], bytes]]:
    """The parts of a whole multipart body: each one's headers (parsed as aiohttp's multipart
    reader parses them) and bytes. Split at once rather than streamed through that reader,
    which cost half a millisecond for each picture the bot posts."""
    chunks = (b"\r\n" + body).split(b"\r\n--" + boundary.encode())
    for chunk in chunks[1:]:  # chunks[0] is the preamble
        if chunk.startswith(b"--"):  # the closing delimiter
            return
        part = chunk[chunk.index(b"\r\n") + 2:]  # after the delimiter's line
        head, _, data = (b"", b"", part[2:]) if part.startswith(b"\r\n") else \
            part.partition(b"\r\n\r\n")
        headers, _ = HeadersParser().parse_headers([*head.split(b"\r\n"), b""])
        yield headers, data
