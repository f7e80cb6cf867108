"""Prometheus metrics for whoever runs the bot (on when GAMENIGHT_METRICS_PORT is set).

Discord bans an IP address for about an hour once it refuses (401, 403, 429) more than 10,000
requests in 10 minutes, so the refusals of the last 10 minutes are a gauge, and a warning is
logged when they pass 1,000. Every request is seen through an aiohttp trace on discord.py's
session, which interaction replies share; labels carry route templates, never ids or tokens.
Each bot has its own registry, so several can run in one process (tests).

The same server answers /healthz (alive: its handler runs on the event loop, and the loop's last
measured lag is under a second) and /readyz (whatever `ready` says is not ready: bot/app/
readiness.py), 200 or 503 with a short JSON body, for Docker's HEALTHCHECK (`gamenight health`)
or an orchestrator's probes.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import discord
import yarl
from aiohttp import web
from prometheus_client import CollectorRegistry, Counter, Gauge, Histogram
from prometheus_client.aiohttp import make_aiohttp_handler

from bot.matches.engines import ENGINES
from bot.ui.gone import DMS_CLOSED

log = logging.getLogger(__name__)

REFUSED = frozenset({401, 403, 429})
WINDOW = 600.0  # Discord counts refusals over 10 minutes
WARN_ABOVE = 1000
LATENCY_BUCKETS = (0.05, 0.1, 0.25, 0.5, 1.0, 1.5, 2.0, 2.5, 3.0, 5.0, 10.0)
THINK_BUCKETS = (0.01, 0.05, 0.1, 0.3, 0.5, 1.0, 2.0, 5.0, 10.0, 30.0)
LOOP_INTERVAL = 2.0  # seconds between two measurements of the event loop's lag
PENDING_FOR = 30.0  # an interaction unanswered this long is forgotten (Discord allows 3 s)
LEASE_CHANGES = ("taken", "lost")
BACKUP_OUTCOMES = ("done", "failed")
LIVE_LAG = 1.0  # /healthz: a loop that ran a timer this many seconds late is not alive


class MetricsUnavailable(Exception):
    """The metrics port cannot be listened on; the message says which and why."""


class RefusalWindow:
    """Refused requests over a sliding window, with a warning once per crossing of the limit."""

    def __init__(self, span: float = WINDOW, warn_above: int = WARN_ABOVE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.span, self.warn_above, self.clock = span, warn_above, clock
        self._times: deque[float] = deque()
        self._warned = False

    def add(self) -> None:
        self._times.append(self.clock())
        if self.count() > self.warn_above and not self._warned:
            self._warned = True
            log.warning("Discord refused %d requests in the last %d minutes; it bans the bot's "
                        "IP address for about an hour past 10,000", len(self._times),
                        self.span // 60)

    def count(self) -> int:
        cutoff = self.clock() - self.span
        while self._times and self._times[0] <= cutoff:
            self._times.popleft()
        if len(self._times) <= self.warn_above:
            self._warned = False  # back under: the next crossing warns again
        return len(self._times)


def route_template(path: str, base_path: str = "") -> str:
    """A request path with ids as {id} and tokens as {token}, so labels stay few and secret-free."""
    if base_path and path.startswith(base_path):
        path = path[len(base_path):]
    parts = path.strip("/").split("/")
    out: list[str] = []
    for i, part in enumerate(parts):
        before = out[i - 2] if i >= 2 else ""
        if part.isdigit():
            out.append("{id}")
        elif before in ("interactions", "webhooks"):
            out.append("{token}")
        elif out and out[-1] == "reactions":
            out.append("{emoji}")
        else:
            out.append(part)
    return "/" + "/".join(out)


class Metrics:
    """The bot's metrics and the HTTP endpoint that serves them."""

    def __init__(self, api_base: str, clock: Callable[[], float] = time.monotonic) -> None:
        self.base_path = yarl.URL(api_base).path.rstrip("/")
        self.clock = clock
        self.registry = registry = CollectorRegistry()
        self.requests = Counter("gamenight_discord_requests", "Discord API requests by route "
                                "template and HTTP status", ["method", "route", "status"],
                                registry=registry)
        self.refusals = RefusalWindow(clock=clock)
        Gauge("gamenight_discord_refused_last_10m", "Requests Discord refused (401, 403, 429) "
              "in the last 10 minutes; it bans the IP past 10,000",
              registry=registry).set_function(self.refusals.count)
        self.latency = Histogram("gamenight_interaction_reply_seconds", "From an interaction "
                                 "received to its first response sent", buckets=LATENCY_BUCKETS,
                                 registry=registry)
        self.loop_lag = Gauge("gamenight_event_loop_lag_seconds", "How late the event loop ran "
                              "a timer due now (scheduling delay)", registry=registry)
        self.matches = Gauge("gamenight_matches_open", "Open matches by game and status",
                             ["game", "status"], registry=registry)
        self.dms_refused = Counter("gamenight_dms_refused", "DMs Discord refused because the "
                                   "player's DMs are closed (50007)", registry=registry)
        self.db_time = Histogram("gamenight_db_write_seconds", "Time of a match's store write "
                                 "per action", ["operation"], registry=registry)
        self.computer_decisions = Counter("gamenight_computer_decisions", "Computer players' "
                                          "decisions by game, level and outcome (played, "
                                          "stale: the match moved on, failed)",
                                          ["game", "level", "outcome"], registry=registry)
        self.computer_time = Histogram("gamenight_computer_decision_seconds", "Time a computer "
                                       "player spent choosing a move (in its worker process)",
                                       ["game", "level"], buckets=THINK_BUCKETS,
                                       registry=registry)
        self.gateway_connected = Gauge("gamenight_gateway_connected", "1 while a shard's "
                                       "gateway connection is up, else 0", ["shard"],
                                       registry=registry)
        self.lease_held = Gauge("gamenight_timekeeper_lease_held", "1 while this process holds "
                                "the timekeeper lease (turn clocks, computers' turns)",
                                registry=registry)
        self.lease_changes = Counter("gamenight_timekeeper_lease_changes", "Times this process "
                                     "took or lost the timekeeper lease", ["change"],
                                     registry=registry)
        self.backup_last_success = Gauge("gamenight_backup_last_success_timestamp_seconds",
                                         "Unix time of the last scheduled backup that succeeded",
                                         registry=registry)
        self.backups = Counter("gamenight_backups", "Scheduled backups by outcome (done, failed)",
                               ["outcome"], registry=registry)
        # Every label a counter can take, at 0 from the start: a series that appears only once
        # counted has no rate over its first change, and dashboards and alerts find it at once.
        for change in LEASE_CHANGES:
            self.lease_changes.labels(change)
        for outcome in BACKUP_OUTCOMES:
            self.backups.labels(outcome)
        self._pending: OrderedDict[int, float] = OrderedDict()
        self._runner: web.AppRunner | None = None
        self._lag_task: asyncio.Task[None] | None = None
        self._last_lag = 0.0
        self.port: int | None = None

    # -- hooks ---------------------------------------------------------------------------------

    def trace_config(self) -> aiohttp.TraceConfig:
        """An aiohttp trace for discord.py's session (the `http_trace` client option)."""
        trace = aiohttp.TraceConfig()
        trace.on_request_end.append(self._on_request_end)
        trace.on_request_exception.append(self._on_request_exception)
        return trace

    async def _on_request_end(self, session: Any, context: Any,
                              params: aiohttp.TraceRequestEndParams) -> None:
        self.responded(params.method, params.url, params.response.status)

    async def _on_request_exception(self, session: Any, context: Any,
                                    params: aiohttp.TraceRequestExceptionParams) -> None:
        self.requests.labels(params.method, route_template(params.url.path, self.base_path),
                             "error").inc()

    def responded(self, method: str, url: yarl.URL, status: int) -> None:
        route = route_template(url.path, self.base_path)
        self.requests.labels(method, route, str(status)).inc()
        if status in REFUSED:
            self.refusals.add()
        if route == "/interactions/{id}/{token}/callback":
            interaction_id = int(url.path.rstrip("/").split("/")[-3])
            received = self._pending.pop(interaction_id, None)
            if received is not None:
                self.latency.observe(self.clock() - received)

    def interaction_received(self, interaction: discord.Interaction) -> None:
        now = self.clock()
        self._pending[interaction.id] = now
        while self._pending and next(iter(self._pending.values())) < now - PENDING_FOR:
            self._pending.popitem(last=False)

    def count_dm_refusals(self, http: discord.http.HTTPClient) -> None:
        """Wrap this client's `request` to count DMs refused because they are closed."""
        request = http.request

        async def counted(route: discord.http.Route, **kwargs: Any) -> Any:
            try:
                return await request(route, **kwargs)
            except discord.Forbidden as err:
                if err.code == DMS_CLOSED:
                    self.dms_refused.inc()
                raise

        http.request = counted  # type: ignore[method-assign]

    def computer_decision(self, game: str, level: str, outcome: str,
                          seconds: float | None) -> None:
        self.computer_decisions.labels(game, level, outcome).inc()
        if seconds is not None:
            self.computer_time.labels(game, level).observe(seconds)

    def db_write(self, operation: str, seconds: float) -> None:
        self.db_time.labels(operation).observe(seconds)

    def lease(self, held: bool) -> None:
        """The timekeeper took (True) or lost or gave up (False) its lease."""
        self.lease_held.set(1 if held else 0)
        self.lease_changes.labels("taken" if held else "lost").inc()

    # -- serving -------------------------------------------------------------------------------

    async def start(self, port: int, open_counts: Callable[[], Any], host: str = "127.0.0.1",
                    ready: Callable[[], Awaitable[list[str]]] | None = None) -> None:
        """Serve /metrics, /healthz and /readyz on `host`:`port` (0: any free port, then
        `self.port`), and watch the event loop. `ready` lists what is not ready (none: ready)."""
        serve = make_aiohttp_handler(self.registry)

        async def handler(request: web.Request) -> web.StreamResponse:
            await self._count_matches(open_counts)
            return await serve(request)

        async def readyz(request: web.Request) -> web.StreamResponse:
            problems = [] if ready is None else await ready()
            return health_answer("ready", problems)

        app = web.Application()
        app.router.add_get("/metrics", handler)
        app.router.add_get("/healthz", self._healthz)
        app.router.add_get("/readyz", readyz)
        self._runner = web.AppRunner(app, access_log=None)
        await self._runner.setup()
        site = web.TCPSite(self._runner, host, port)
        try:
            await site.start()
        except OSError as err:
            await self._runner.cleanup()
            raise MetricsUnavailable(f"cannot serve metrics on {host} port {port}: "
                                     f"{err.strerror}") from None
        self.port = self._runner.addresses[0][1]
        self._lag_task = asyncio.create_task(self._watch_loop(), name="gamenight: loop lag")
        log.info("serving Prometheus metrics on %s port %d at /metrics", host, self.port)

    async def _healthz(self, request: web.Request) -> web.StreamResponse:
        """Answered on the event loop, so an answer at all means the loop turns."""
        lag = self._last_lag
        problems = [f"event loop: ran {lag:.1f} s late"] if lag >= LIVE_LAG else []
        return health_answer("alive", problems, loop_lag_seconds=round(lag, 3))

    async def _count_matches(self, open_counts: Callable[[], Any]) -> None:
        counts = await open_counts()
        for game in ENGINES:
            for status in ("lobby", "active"):
                self.matches.labels(game, status).set(counts.get((game, status), 0))

    async def _watch_loop(self) -> None:
        loop = asyncio.get_running_loop()
        while True:
            due = loop.time() + LOOP_INTERVAL
            await asyncio.sleep(LOOP_INTERVAL)
            self._last_lag = max(0.0, loop.time() - due)
            self.loop_lag.set(self._last_lag)

    async def stop(self) -> None:
        if self._lag_task is not None:
            self._lag_task.cancel()
            await asyncio.gather(self._lag_task, return_exceptions=True)
        if self._runner is not None:
            await self._runner.cleanup()


def health_answer(state: str, problems: list[str], **details: Any) -> web.Response:
    """200 {"status": state} when nothing is wrong, else 503 {"status": "not " + state, and
    the problems}."""
    if problems:
        return web.json_response({"status": f"not {state}", "problems": problems, **details},
                                 status=503)
    return web.json_response({"status": state, **details})
