"""A TCP proxy in front of the PostgreSQL server that a test can cut and restore, as a server
restarting: cutting drops every connection through it and refuses new ones; restoring listens
again on the same port.

It runs its own event loop in a thread of its own, so its waiting connections are never taken
for the bot's work by the fake Discord's idleness check."""

from __future__ import annotations

import asyncio
import threading
from urllib.parse import urlsplit, urlunsplit


class TcpProxy:
    def __init__(self, host: str, port: int) -> None:
        self._target = (host, port)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="tcp proxy",
                                        daemon=True)
        self._server: asyncio.AbstractServer | None = None
        self._links: set[asyncio.StreamWriter] = set()
        self.port = 0
        self.connections = 0  # accepted through the proxy, over its life

    @classmethod
    def to(cls, url: str) -> TcpProxy:
        """A proxy to the server `url` names (not started)."""
        parts = urlsplit(url)
        return cls(parts.hostname or "127.0.0.1", parts.port or 5432)

    def via(self, url: str) -> str:
        """`url` with its host and port this proxy's."""
        parts = urlsplit(url)
        user = parts.netloc.rpartition("@")[0]
        netloc = f"{user}@127.0.0.1:{self.port}" if user else f"127.0.0.1:{self.port}"
        return urlunsplit(parts._replace(netloc=netloc))

    def start(self) -> None:
        self._thread.start()
        self.restore()

    def cut(self) -> None:
        """As the server going down: every connection dropped, new ones refused."""
        self._call(self._cut())

    def restore(self) -> None:
        """As the server back up: connections accepted again, on the same port."""
        self._call(self._listen())

    def stop(self) -> None:
        self.cut()
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(5)

    def _call(self, coro) -> None:
        asyncio.run_coroutine_threadsafe(coro, self._loop).result(10)

    async def _listen(self) -> None:
        self._server = await asyncio.start_server(self._link, "127.0.0.1", self.port)
        self.port = self._server.sockets[0].getsockname()[1]

    async def _cut(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        for writer in list(self._links):
            writer.transport.abort()
        self._links.clear()

    async def _link(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        self.connections += 1
        try:
            up_reader, up_writer = await asyncio.open_connection(*self._target)
        except OSError:
            writer.transport.abort()
            return
        self._links.update((writer, up_writer))
        await asyncio.gather(_pipe(reader, up_writer), _pipe(up_reader, writer))
        self._links.difference_update((writer, up_writer))


async def _pipe(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
    try:
        while data := await reader.read(65536):
            writer.write(data)
            await writer.drain()
    except (ConnectionError, OSError):
        pass
    finally:
        writer.transport.abort()
