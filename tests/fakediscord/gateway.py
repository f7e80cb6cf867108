"""The gateway: one websocket connection per bot (shard), sessions that resume and replay
what was missed, and events dispatched to the sessions that serve a guild and want an intent."""

from __future__ import annotations

import asyncio
import json
import logging
import secrets
import zlib
from typing import Any

from aiohttp import WSMsgType, web

from tests.fakediscord.rest import RequestRecord
from tests.fakediscord.world import FakeGuild, _id_of

log = logging.getLogger("fakediscord")


class _GatewayConn:
    def __init__(self, ws: web.WebSocketResponse, compress: str | None) -> None:
        self.ws = ws
        self.compress = compress
        self.lock = asyncio.Lock()
        self.session: _Session | None = None
        self.client_seq = 0  # highest seq the client reported in a heartbeat
        self.heartbeat_event = asyncio.Event()
        if compress == "zlib-stream":
            self._z = zlib.compressobj()
        elif compress == "zstd-stream":
            import zstandard  # noqa: F401  (only if discord.py picked zstd; we can then answer it)

            self._z = zstandard.ZstdCompressor().compressobj()
        elif compress:
            raise ValueError(f"unsupported gateway compression {compress!r}")

    @property
    def closed(self) -> bool:
        return self.ws.closed

    async def send(self, payload: dict) -> None:
        raw = json.dumps(payload, separators=(",", ":"))
        async with self.lock:
            if self.ws.closed:
                return
            if self.compress == "zlib-stream":
                data = self._z.compress(raw.encode()) + self._z.flush(zlib.Z_SYNC_FLUSH)
                await self.ws.send_bytes(data)
            elif self.compress == "zstd-stream":
                import zstandard

                data = self._z.compress(raw.encode()) + self._z.flush(zstandard.COMPRESSOBJ_FLUSH_BLOCK)
                await self.ws.send_bytes(data)
            else:
                await self.ws.send_str(raw)


class _Session:
    def __init__(self, sid: str, intents: int, shard: list[int]) -> None:
        self.id = sid
        self.intents = intents
        self.shard = shard
        self.seq = 0
        self.buffer: list[dict] = []
        self.conn: _GatewayConn | None = None
        self.lock = asyncio.Lock()
        self.heartbeat_requested_for = -1

    @property
    def live(self) -> bool:
        return self.conn is not None and not self.conn.closed

    def serves(self, guild: "FakeGuild | int | None") -> bool:
        """Whether Discord sends this session what happens in `guild` (None: in DMs)."""
        shard_id, count = self.shard
        if guild is None:
            return shard_id == 0
        return (_id_of(guild) >> 22) % count == shard_id

    async def dispatch(self, event: str, data: Any) -> int:
        async with self.lock:
            self.seq += 1
            msg = {"op": 0, "t": event, "s": self.seq, "d": data}
            self.buffer.append(msg)
            del self.buffer[:-1000]
            if self.live:
                await self.conn.send(msg)  # type: ignore[union-attr]
            return self.seq


class Gateway:
    """Sessions, dispatching events and the gateway's websocket endpoint."""

    def _live_sessions(self) -> list[_Session]:
        return [s for s in self._sessions.values() if s.live]

    def _session(self, guild: "FakeGuild | None" = None) -> _Session:
        """The newest live session on the shard of `guild` (None: DMs, shard 0), else one
        dropped by `drop_gateway` (what is sent to it waits there for a resume)."""
        live = self._live_sessions()
        if not live and not self._dropped:
            raise RuntimeError("the bot is not connected to the fake gateway (use run_bot)")
        serving = ([s for s in live if s.serves(guild)]
                   or [s for s in self._dropped if s.serves(guild)])
        if not serving:
            raise RuntimeError(f"no bot connected to the fake gateway runs the shard of "
                               f"{'the DMs' if guild is None else guild.name}")
        return serving[-1]

    async def drop_gateway(self, code: int = 4000, *, refuse_resume: bool = False) -> None:
        """Close the bot's gateway connections as Discord sometimes does (4000: resumable) and
        keep them down: the bot's resume or identify waits until `restore_gateway()`.
        Interactions sent meanwhile (`slash_nowait`, `dispatch_raw`) wait in the dropped
        session, as Discord keeps events for a resume. With `refuse_resume` the resume is
        answered op 9 (Invalid Session, not resumable), as when a session expired: the session
        and what waited in it are gone, and the bot identifies anew."""
        self._gateway_open.clear()
        self._dropped = self._live_sessions()
        if refuse_resume:
            self._refused_sessions.update(s.id for s in self._dropped)
        for s in self._dropped:
            await s.conn.ws.close(code=code)  # type: ignore[union-attr]

    async def restore_gateway(self, timeout: float | None = None) -> None:
        """Let the held connections through, then wait until the bot is connected again on
        every shard `drop_gateway` dropped, and idle."""
        shards = {tuple(s.shard) for s in self._dropped}
        self._gateway_open.set()
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (timeout or self.idle_timeout)
        while not shards <= {tuple(s.shard) for s in self._live_sessions()}:
            if loop.time() > deadline:
                raise RuntimeError("the bot did not come back to the fake gateway")
            await asyncio.sleep(0.005)
        self._dropped = []
        await self.wait_idle()

    def _wants(self, s: _Session, intent: int | None) -> bool:
        return intent is None or bool(s.intents & intent)

    async def _dispatch(self, event: str, data: Any, *, intent: int | None = None,
                        guild: FakeGuild | None = None) -> None:
        """To every live session that wants `intent` and (when given) serves `guild`."""
        for s in self._live_sessions():
            if self._wants(s, intent) and (guild is None or s.serves(guild)):
                await s.dispatch(event, data)

    def _dispatch_soon(self, event: str, make: Any, *, guild: FakeGuild | None = None, intent: int | None = None) -> None:
        if not self._live_sessions():
            return

        async def go() -> None:
            await self._dispatch(event, make(), intent=intent, guild=guild)

        t = asyncio.get_running_loop().create_task(go(), name=f"fakediscord: {event}")
        self._own_tasks.add(t)
        t.add_done_callback(self._own_tasks.discard)

    async def _flush_own(self) -> None:
        while self._own_tasks:
            await asyncio.gather(*list(self._own_tasks), return_exceptions=True)

    def _bot_ws_for(self, session: _Session) -> Any:
        for bot in self._bots:
            shards = getattr(bot, "_AutoShardedClient__shards", None)
            wss = [getattr(s, "ws", None) for s in shards.values()] if shards else [getattr(bot, "ws", None)]
            for ws in wss:
                if ws is not None and getattr(ws, "session_id", None) == session.id:
                    return ws
        return None

    def _session_lagging(self, s: _Session) -> bool:
        if not s.live:
            return False
        ws = self._bot_ws_for(s)
        if ws is not None:
            return (ws.sequence or 0) < s.seq
        if s.conn.client_seq >= s.seq:  # type: ignore[union-attr]
            return False
        if s.heartbeat_requested_for < s.seq:
            # Not attached: ask the client for a heartbeat (it reports its sequence).  Note that
            # discord.py rate-limits its own gateway sends (110/min), so prefer fake.attach(bot).
            s.heartbeat_requested_for = s.seq
            self._dispatch_raw_soon(s, {"op": 1, "d": None})
        return True

    def _dispatch_raw_soon(self, s: _Session, payload: dict) -> None:
        conn = s.conn
        if conn is None:
            return
        t = asyncio.get_running_loop().create_task(conn.send(payload), name="fakediscord: raw")
        self._own_tasks.add(t)
        t.add_done_callback(self._own_tasks.discard)

    async def _gateway(self, request: web.Request) -> web.StreamResponse:
        ws = web.WebSocketResponse(max_msg_size=0, autoping=True)
        await ws.prepare(request)
        self.request_log.append(RequestRecord("WS", "/gateway", dict(request.query)))
        if request.query.get("encoding", "json") != "json":
            log.error("fakediscord: gateway encoding %r not supported", request.query.get("encoding"))
            await ws.close(code=4002)
            return ws
        conn = _GatewayConn(ws, request.query.get("compress"))
        self._conns.add(conn)
        try:
            await conn.send({"op": 10, "d": {"heartbeat_interval": 41250, "_trace": ["fakediscord"]}})
            async for msg in ws:
                if msg.type == WSMsgType.TEXT:
                    await self._gateway_op(conn, json.loads(msg.data))
                elif msg.type == WSMsgType.BINARY:
                    log.error("fakediscord: unexpected binary frame from client")
                elif msg.type == WSMsgType.ERROR:
                    break
        finally:
            self._conns.discard(conn)
            if conn.session is not None and conn.session.conn is conn:
                conn.session.conn = None
        return ws

    async def _gateway_op(self, conn: _GatewayConn, msg: dict) -> None:
        op, d = msg.get("op"), msg.get("d")
        if op == 1:  # heartbeat
            if isinstance(d, int):
                conn.client_seq = max(conn.client_seq, d)
            await conn.send({"op": 11})
        elif op == 2:  # identify
            await self._gateway_open.wait()  # drop_gateway holds it
            if d.get("token") != self.token:
                log.error("fakediscord: IDENTIFY with a wrong token")
                await conn.ws.close(code=4004, message=b"Authentication failed.")
                return
            s = _Session(secrets.token_hex(16), int(d.get("intents") or 0), list(d.get("shard") or [0, 1]))
            self._sessions[s.id] = s
            conn.session = s
            s.conn = conn
            await s.dispatch("READY", self._ready_payload(s))
            for g in self.guilds.values():
                if s.serves(g):
                    await s.dispatch("GUILD_CREATE", g.payload(full=True))
        elif op == 6:  # resume
            await self._gateway_open.wait()  # drop_gateway holds it
            if d.get("session_id") in self._refused_sessions:  # drop_gateway(refuse_resume=True)
                self._refused_sessions.discard(d["session_id"])
                self._sessions.pop(d["session_id"], None)
            s = self._sessions.get(d.get("session_id"))
            if s is None or d.get("token") != self.token:
                await conn.send({"op": 9, "d": False})
                return
            conn.session = s
            async with s.lock:
                s.conn = conn
                for ev in s.buffer:
                    if ev["s"] > (d.get("seq") or 0):
                        await conn.send(ev)
                s.seq += 1
                await conn.send({"op": 0, "t": "RESUMED", "s": s.seq, "d": {"_trace": ["fakediscord"]}})
        elif op == 8:  # request guild members
            s = conn.session
            g = self.guilds.get(int(d.get("guild_id")))
            if s is None or g is None:
                return
            members = list(g.members.values())
            if d.get("user_ids"):
                ids = {int(x) for x in d["user_ids"]}
                members = [m for m in members if m.user.id in ids]
            elif d.get("query"):
                members = [m for m in members if m.user.name.lower().startswith(d["query"].lower())]
            if d.get("limit"):
                members = members[: d["limit"]]
            chunk = {
                "guild_id": str(g.id),
                "members": [m.payload() for m in members],
                "chunk_index": 0,
                "chunk_count": 1,
                "not_found": [],
            }
            if d.get("nonce") is not None:
                chunk["nonce"] = d["nonce"]
            await s.dispatch("GUILD_MEMBERS_CHUNK", chunk)
        elif op in (3, 4):  # presence / voice state: ignored
            pass
        else:
            log.error("fakediscord: unknown gateway op %r: %r", op, msg)

    def _ready_payload(self, s: _Session) -> dict:
        return {
            "v": 10,
            "user": {**self.bot_user.payload(), "verified": True, "mfa_enabled": False, "email": None},
            "guilds": [{"id": str(g), "unavailable": True} for g in self.guilds if s.serves(g)],
            "session_id": s.id,
            "session_type": "normal",
            "resume_gateway_url": self.gateway_url,
            "shard": s.shard,
            "application": {"id": str(self.application_id), "flags": 0},
            "private_channels": [],
            "relationships": [],
            "presences": [],
            "geo_ordered_rtc_regions": [],
            "guild_join_requests": [],
            "user_settings": {},
            "_trace": ["fakediscord"],
        }
