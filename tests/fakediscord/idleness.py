"""When the bot is idle: which asyncio tasks still have work to do, and waiting until none has
(or failing with their stacks)."""

from __future__ import annotations

import asyncio
import functools
import os
import traceback
from typing import Any

from tests.fakediscord.errors import IdleTimeout

_IDLE_WAITS = {
    ("asyncio/locks.py", "Event.wait"),
    ("asyncio/locks.py", "Condition.wait"),
    ("asyncio/locks.py", "Lock.acquire"),
    ("asyncio/locks.py", "Semaphore.acquire"),
    ("asyncio/locks.py", "Barrier.wait"),
    ("asyncio/queues.py", "Queue.get"),
    ("asyncio/queues.py", "Queue.put"),
    ("asyncio/queues.py", "Queue.join"),
    ("discord/ui/view.py", "BaseView.wait"),
    ("discord/ui/view.py", "View.wait"),
    ("discord/ui/modal.py", "Modal.wait"),
    ("discord/ext/tasks/__init__.py", "Loop._loop"),
}


# The fake's own modules: a task running their code is a test driving the bot, not the bot.
_PACKAGE = os.path.dirname(__file__)


def _norm(filename: str) -> str:
    return filename.replace("\\", "/")


def _coro_chain(coro: Any) -> list[tuple[Any, Any]]:
    out = []
    c = coro
    while c is not None and len(out) < 200:
        code = getattr(c, "cr_code", None) or getattr(c, "gi_code", None) or getattr(c, "ag_code", None)
        if code is None:
            break
        frame = getattr(c, "cr_frame", None) or getattr(c, "gi_frame", None) or getattr(c, "ag_frame", None)
        out.append((code, frame))
        if hasattr(c, "cr_await"):
            c = c.cr_await
        elif hasattr(c, "gi_yieldfrom"):
            c = c.gi_yieldfrom
        else:
            c = getattr(c, "ag_await", None)
    return out


def _code_key(code: Any) -> tuple[str, str]:
    return _key(code.co_filename, getattr(code, "co_qualname", code.co_name))


# The checks below run for every task many times a second while a test waits for the bot, so
# what they derive from a file name is remembered (by name: equal code objects may come from
# different files).
@functools.cache
def _key(filename: str, qual: str) -> tuple[str, str]:
    fn = _norm(filename)
    parts = fn.rsplit("/", 4)
    for n in (4, 3, 2):
        suffix = "/".join(parts[-n:])
        if any(suffix == k[0] for k in _IDLE_WAITS):
            return suffix, qual
    return "/".join(parts[-2:]), qual


@functools.cache
def _serves_our_http(filename: str) -> bool:
    """The server side of our own HTTP (covered by the in-flight counter)."""
    return _norm(filename).endswith(("aiohttp/web_protocol.py",))


@functools.cache
def _is_fake_code(filename: str) -> bool:
    return os.path.dirname(filename) == _PACKAGE


class Idleness:
    """Waiting for the bot, and the task errors nobody retrieved."""

    def _task_busy(self, task: asyncio.Task, depth: int = 0, chain: list | None = None) -> bool:
        """Whether `task` has work to do (`chain`: its coroutine chain, if already read)."""
        if task.done():
            return False
        if self.idle_predicates and any(p(task) for p in self.idle_predicates):
            return False
        if depth > 20:
            return True
        leaf = getattr(task, "_fut_waiter", None)
        if leaf is None:
            return True  # runnable
        if isinstance(leaf, asyncio.Task):
            return self._bot_task_busy(leaf, depth + 1)
        children = getattr(leaf, "_children", None)
        if children is not None:  # gather()
            return any(self._bot_task_busy(c, depth + 1) for c in children if isinstance(c, asyncio.Task))
        if chain is None:
            chain = _coro_chain(task.get_coro())
        if not chain:
            return True
        inner_code, inner_frame = chain[-1]
        inner_key = _code_key(inner_code)
        if inner_key == ("asyncio/tasks.py", "sleep"):
            delay = inner_frame.f_locals.get("delay", 0) if inner_frame else 0
            return not (delay and delay > self.busy_sleep_limit)
        if inner_key in (("asyncio/tasks.py", "wait_for"), ("asyncio/tasks.py", "_wait")):
            timeout = inner_frame.f_locals.get("timeout") if inner_frame else 0
            return not (timeout is None or timeout > self.busy_sleep_limit)
        if inner_key in _IDLE_WAITS:
            return False
        quals = [_code_key(code)[1] for code, _ in chain]
        if "DiscordWebSocket.poll_event" in quals and "DiscordWebSocket.received_message" not in quals:
            return False  # reading the gateway; unprocessed events are covered by the seq check
        return True

    def _bot_task_busy(self, task: asyncio.Task, depth: int = 0) -> bool:
        """Whether `task` is the bot's (not the fake's, nor a test's driving it) and has work
        to do; its coroutine chain is read once for both."""
        if task.done() or self._ignored_by_name(task):
            return False
        chain = _coro_chain(task.get_coro())
        return not self._ignored_chain(chain) and self._task_busy(task, depth, chain)

    @staticmethod
    def _ignored_by_name(task: asyncio.Task) -> bool:
        return task is asyncio.current_task() or task.get_name().startswith("fakediscord")

    @staticmethod
    def _ignored_chain(chain: list[tuple[Any, Any]]) -> bool:
        if chain and _serves_our_http(chain[0][0].co_filename):
            return True  # server side of our own HTTP; covered by the in-flight counter
        # test drivers (tasks inside fake.slash()/wait_idle()/run_bot()...) are not the bot
        return any(_is_fake_code(code.co_filename) for code, _ in chain)

    def _busy_tasks(self) -> list[asyncio.Task]:
        return [t for t in list(self._tracked) if self._bot_task_busy(t)]

    def _busy(self) -> bool:
        """Whether any of _busy_reasons holds; stops at the first task with work to do."""
        lagging = [s for s in self._live_sessions() if self._session_lagging(s)]  # asks each
        if self._inflight or self._own_tasks or lagging:
            return True
        return any(self._bot_task_busy(t) for t in list(self._tracked))

    def _busy_reasons(self) -> list[str]:
        reasons = []
        if self._inflight:
            reasons.append(f"{self._inflight} HTTP request(s) in flight")
        if self._own_tasks:
            reasons.append(f"{len(self._own_tasks)} fake dispatch task(s) pending")
        for s in self._live_sessions():
            if self._session_lagging(s):
                reasons.append(f"gateway session {s.id[:8]} has unprocessed events (seq {s.seq})")
        for t in self._busy_tasks():
            reasons.append(f"busy task {t.get_name()!r}: " + " > ".join(q for _, q in map(
                _code_key, [c for c, _ in _coro_chain(t.get_coro())])))
        return reasons

    async def wait_idle(self, timeout: float | None = None) -> None:
        """Wait until the bot has processed everything and has nothing left to do."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (timeout or self.idle_timeout)
        stable = busy = 0
        while True:
            if not self._busy():
                busy = 0
                stable += 1
                if stable >= 4:
                    return
            else:
                stable = 0
                busy += 1
                if loop.time() > deadline:
                    reasons = self._busy_reasons()
                    stacks = []
                    for t in self._busy_tasks():
                        stacks.append("".join(traceback.format_stack(t.get_stack()[-1])) if t.get_stack() else repr(t))
                    raise IdleTimeout("bot not idle:\n  " + "\n  ".join(reasons) + "\n" + "\n".join(stacks))
            if stable:
                await asyncio.sleep(0 if stable < 2 else 0.002)
            else:  # then every 2 ms: a check takes tens of µs, a rendering thread keeps the GIL
                await asyncio.sleep(0 if busy < 20 else 0.002)

    async def disconnect_bot(self, code: int = 4000, *, timeout: float | None = None) -> None:
        """Drop the bot's gateway connection(s) like Discord sometimes does, then wait until the
        bot has RESUMEd (discord.py resumes on codes other than 1000/4004/4010-4014) and is idle."""
        sessions = self._live_sessions()
        for s in sessions:
            await s.conn.ws.close(code=code)  # type: ignore[union-attr]
        loop = asyncio.get_running_loop()
        deadline = loop.time() + (timeout or self.idle_timeout)
        while not all(s.live for s in sessions):
            if loop.time() > deadline:
                raise IdleTimeout("the bot did not reconnect to the fake gateway")
            await asyncio.sleep(0.005)
        await self.wait_idle()

    def _unretrieved_task_errors(self, since: set) -> list[str]:
        out = []
        for t in list(self._tracked):
            if t.done() and not t.cancelled() and getattr(t, "_log_traceback", False) and id(t) not in since:
                exc = t.exception()  # marks it retrieved
                out.append(f"task {t.get_name()!r} died: " + "".join(traceback.format_exception(exc)))
        return out
