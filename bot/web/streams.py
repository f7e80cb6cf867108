"""Server-Sent Events as the pages send them: a number (a match's version, a server's stamp)
each time it changes, from the one read when the stream opened; a comment when all is quiet, so
proxies keep the stream open; `retry` for the browser's reconnections."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from aiohttp import hdrs, web

STREAM_HEADERS = {hdrs.CONTENT_TYPE: "text/event-stream", hdrs.CACHE_CONTROL: "no-cache",
                  "X-Accel-Buffering": "no"}
KEEPALIVE = 20.0  # seconds between comments on a quiet event stream (proxies close idle ones)


async def open_stream(request: web.Request) -> web.StreamResponse:
    response = web.StreamResponse(headers=STREAM_HEADERS)
    await response.prepare(request)
    await response.write(b"retry: 2000\n\n")
    return response


async def send_number(response: web.StreamResponse, number: int) -> None:
    """One event; its id, the number too, is what a reconnecting browser says it last had."""
    await response.write(f"id: {number}\nevent: version\ndata: {number}\n\n".encode())


async def follow(response: web.StreamResponse, watcher: Any, number: int,
                 changed: Callable[[int, int], bool]) -> None:
    """Send `number` (the page fetches what it shows if it differs), then each newer one the
    hub's `watcher` tells of where `changed(new, last)`, until the watcher closes or the viewer
    leaves."""
    try:
        await send_number(response, number)
        while not watcher.closed:
            newer = await watcher.next(KEEPALIVE)
            if watcher.closed:
                break
            if newer is None:
                await response.write(b": still here\n\n")
            elif changed(newer, number):
                number = newer
                await send_number(response, number)
    except (ConnectionResetError, ConnectionError):
        pass  # the viewer left
