"""discord.py keeps a rate-limit bucket per route and channel, and each time it makes a new one
while it holds 256 or more, it scans them all for those idle five minutes. A busy bot touches
thousands of channels and DMs in five minutes, so that scan (5 ms at 30,000 buckets, holding
the interpreter lock) came with every new channel. Here it runs at most once a minute: idle
buckets are dropped a minute later at worst, and no request waits on the scan."""

from __future__ import annotations

import time
from collections.abc import Callable

import discord

PRUNE_EVERY = 60.0  # seconds


def prune_at_most_every(http: discord.http.HTTPClient, seconds: float = PRUNE_EVERY, *,
                        clock: Callable[[], float] = time.monotonic) -> None:
    """Let `http` drop its idle rate-limit buckets at most once every `seconds` (a discord.py
    without that scan is left as it is)."""
    prune = getattr(http, "_try_clear_expired_ratelimits", None)
    if prune is None:
        return
    last = [float("-inf")]

    def pruned_now_and_then() -> None:
        now = clock()
        if now - last[0] >= seconds:
            last[0] = now
            prune()

    http._try_clear_expired_ratelimits = pruned_now_and_then  # type: ignore[method-assign]
