"""discord.py's idle rate-limit buckets are dropped at most once a minute (bot/app/buckets.py)."""

from __future__ import annotations

import asyncio

from discord.http import HTTPClient, Ratelimit

from bot.app.buckets import prune_at_most_every


async def test_idle_buckets_are_dropped_at_most_once_a_minute():
    loop = asyncio.get_running_loop()
    http = HTTPClient(loop)
    now = [0.0]
    prune_at_most_every(http, 60, clock=lambda: now[0])
    for i in range(300):  # idle for ten minutes: discord.py drops such buckets
        bucket = Ratelimit(None)
        bucket._last_request = loop.time() - 600
        http._buckets[f"idle {i}"] = bucket
    http.get_ratelimit("first new")  # a new bucket: the idle ones go
    assert list(http._buckets) == ["first new"]
    for i in range(300):
        bucket = Ratelimit(None)
        bucket._last_request = loop.time() - 600
        http._buckets[f"idle again {i}"] = bucket
    now[0] = 59.0
    http.get_ratelimit("second new")  # within the minute: no scan
    assert len(http._buckets) == 302
    now[0] = 60.0
    http.get_ratelimit("third new")
    assert sorted(http._buckets) == ["first new", "second new", "third new"]
