"""The fake's core: its state, starting and stopping its server, and FakeDiscord itself,
composed of one mixin per part of the fake (see the package's docstring)."""

from __future__ import annotations

import asyncio
import contextlib
import logging
import secrets
import traceback
import weakref
from datetime import datetime, timezone
from typing import Any, Callable

from aiohttp import web

from tests.fakediscord.building import WorldBuilding
from tests.fakediscord.callbacks import Callbacks
from tests.fakediscord.driving import Driving
from tests.fakediscord.event_driving import ScheduledEventDriving
from tests.fakediscord.event_routes import ScheduledEventRoutes
from tests.fakediscord.flags import Perm, _perm_value
from tests.fakediscord.gateway import Gateway, _GatewayConn, _Session
from tests.fakediscord.idleness import Idleness
from tests.fakediscord.interactions import FakeInteraction
from tests.fakediscord.message_store import MessageStore
from tests.fakediscord.messages import FakeAttachment, FakeMessage
from tests.fakediscord.oauth import OAuth
from tests.fakediscord.queries import Queries
from tests.fakediscord.ratelimits import RateLimits, _RateLimiter
from tests.fakediscord.rest import RequestRecord, Rest
from tests.fakediscord.routes import Routes
from tests.fakediscord.schema_check import SchemaCheck, SchemaViolation
from tests.fakediscord.thread_members import ThreadMembers
from tests.fakediscord.world import FakeChannel, FakeGuild, FakeUser

_GC_NOISE = ("Task was destroyed but it is pending", "Unclosed client session", "Unclosed connector")


class _ErrorCollector(logging.Handler):
    def __init__(self, fake: "FakeDiscord") -> None:
        super().__init__(level=logging.ERROR)
        self.fake = fake

    def emit(self, record: logging.LogRecord) -> None:
        try:
            text = f"{record.name}: {record.getMessage()}"
            if record.name == "asyncio" and any(n in text for n in _GC_NOISE):
                self.fake.gc_noise.append(text)  # teardown hygiene, reported at GC time
                return
            if record.exc_info:
                text += "\n" + "".join(traceback.format_exception(*record.exc_info))
        except Exception:  # pragma: no cover
            text = repr(record)
        self.fake.errors.append(text)


class FakeDiscord(WorldBuilding, Queries, Gateway, Idleness, Driving, ScheduledEventDriving,
                  MessageStore, Rest, SchemaCheck, Routes, ScheduledEventRoutes, ThreadMembers,
                  Callbacks, OAuth):
    """The fake Discord: the world in memory, its REST and gateway server, and the driving
    API (see the package docstring)."""

    def __init__(
        self,
        *,
        token: str | None = None,
        bot_name: str = "Gamenight",
        bot_permissions: Any = Perm.BOT_DEFAULT,
        host: str = "127.0.0.1",
        rate_limits: RateLimits | None = None,
    ) -> None:
        self.token = token or f"fake.{secrets.token_urlsafe(24)}"
        self.rate_limiter = _RateLimiter(rate_limits) if rate_limits else None
        self.host = host
        self._last_id = 0
        self.users: dict[int, FakeUser] = {}
        self.guilds: dict[int, FakeGuild] = {}
        self.channels: dict[int, FakeChannel] = {}
        self._messages: dict[int, FakeMessage] = {}
        self._attachments: dict[int, FakeAttachment] = {}
        self.bot_user = self.add_user(bot_name, bot=True)
        self.application_id = self.bot_user.id
        self.bot_permissions = _perm_value(bot_permissions)
        self.global_commands: list[dict] = []
        self.guild_commands: dict[int, list[dict]] = {}
        self.request_log: list[RequestRecord] = []
        self.errors: list[str] = []
        self.unknown_routes: list[tuple[str, str]] = []
        self.raise_bot_errors = True
        self.idle_timeout = 30.0
        self.busy_sleep_limit = 1.0
        # extra "this task is idle" rules: callables taking an asyncio.Task
        self.idle_predicates: list[Any] = []
        self.gc_noise: list[str] = []
        self._expect_errors = 0
        self._events: list[tuple[str, FakeMessage]] = []  # (create|edit|delete, message)
        self._interactions: dict[int, FakeInteraction] = {}
        self._interactions_by_token: dict[str, FakeInteraction] = {}
        self._sessions: dict[str, _Session] = {}
        self._conns: set[_GatewayConn] = set()
        self._gateway_open = asyncio.Event()  # cleared by drop_gateway: resumes and identifies wait
        self._gateway_open.set()
        self._dropped: list[_Session] = []
        self._refused_sessions: set[str] = set()
        self._inflight = 0
        self._bots: list[Any] = []
        self._tracked: "weakref.WeakSet[asyncio.Task]" = weakref.WeakSet()
        self._own_tasks: set[asyncio.Task] = set()
        self._runner: web.AppRunner | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._prev_factory: Any = None
        self._handler = _ErrorCollector(self)
        self.port: int | None = None
        self._routes = self._build_routes()
        self._failures: list[dict[str, Any]] = []
        self.schema_violations: list[SchemaViolation] = []
        self._expect_invalid = 0
        self.check_every_answer = False  # every route's answers, not only _answers_checked
        # the moment Discord judges a scheduled event's times by (a test may set another)
        self.clock: Callable[[], datetime] = lambda: datetime.now(timezone.utc)

    # ---------------------------------------------------------------- lifecycle

    @property
    def base_url(self) -> str:
        return f"http://{self.host}:{self.port}"

    @property
    def api_base(self) -> str:
        return f"{self.base_url}/api/v10"

    @property
    def gateway_url(self) -> str:
        return f"ws://{self.host}:{self.port}/gateway"

    async def start(self) -> "FakeDiscord":
        self._loop = asyncio.get_running_loop()
        self._prev_factory = self._loop.get_task_factory()
        self._loop.set_task_factory(self._task_factory)
        logging.getLogger().addHandler(self._handler)
        app = web.Application(client_max_size=64 * 1024 * 1024)
        app.router.add_get("/gateway", self._gateway)
        app.router.add_route("*", "/{tail:.*}", self._http)
        self._runner = web.AppRunner(app, access_log=None, handle_signals=False)
        await self._runner.setup()
        site = web.TCPSite(self._runner, self.host, 0)
        await site.start()
        self.port = site._server.sockets[0].getsockname()[1]  # type: ignore[union-attr]
        return self

    async def stop(self) -> None:
        for conn in list(self._conns):
            with contextlib.suppress(Exception):
                await conn.ws.close(code=1001)
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None
        logging.getLogger().removeHandler(self._handler)
        if self._loop is not None and self._loop.get_task_factory() == self._task_factory:
            self._loop.set_task_factory(self._prev_factory)

    async def __aenter__(self) -> "FakeDiscord":
        return await self.start()

    async def __aexit__(self, *exc: Any) -> None:
        await self.stop()

    def attach(self, bot: Any) -> None:
        """Let the fake see ``bot``'s websocket sequence (exact, rate-limit free gateway sync)."""
        if bot not in self._bots:
            self._bots.append(bot)

    def detach(self, bot: Any) -> None:
        with contextlib.suppress(ValueError):
            self._bots.remove(bot)

    def _task_factory(self, loop: asyncio.AbstractEventLoop, coro: Any, **kwargs: Any) -> asyncio.Future:
        if self._prev_factory is not None:
            task = self._prev_factory(loop, coro, **kwargs)
        else:
            task = asyncio.Task(coro, loop=loop, **kwargs)
        self._tracked.add(task)
        return task
