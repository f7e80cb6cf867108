"""Per-route rate limits, as Discord applies them.

Discord limits each route per bucket: the method and route, per top-level resource (channel id,
guild id, webhook id + token), and tells the client in X-RateLimit-* headers how much is left
and when the bucket refills; going over answers 429. Interaction callbacks are not limited
here (Discord does not hold them to the bot's limits; each token answers once anyway).
Off by default: without `rate_limits` the fake sends no such headers, as before."""

from __future__ import annotations

import hashlib
import json
import logging
import math
import time
from dataclasses import dataclass
from typing import Any

from aiohttp import web

log = logging.getLogger("fakediscord")


@dataclass(frozen=True)
class RateLimits:
    """Every bucket allows `limit` requests per `per` seconds (a fixed window from its first)."""

    limit: int = 5
    per: float = 1.0


_MAJOR_PARAMETERS = ("channel", "guild", "app", "token")


@dataclass
class _Bucket:
    name: str
    used: int = 0
    resets_at: float = 0.0


class _RateLimiter:
    """Per-bucket windows on the monotonic clock; counts the 429s it answers in `refused`."""

    def __init__(self, limits: RateLimits, clock: Any = time.monotonic) -> None:
        self.limits, self.clock = limits, clock
        self.refused: list[tuple[str, str]] = []
        self.exhausted = 0  # answers that said Remaining: 0, i.e. the client had to wait
        self._buckets: dict[tuple, _Bucket] = {}

    def _bucket(self, method: str, pattern: str, params: dict[str, str]) -> _Bucket:
        major = tuple(params.get(name) for name in _MAJOR_PARAMETERS)
        key = (method, pattern, major)
        if key not in self._buckets:
            name = hashlib.sha1(f"{method} {pattern}".encode()).hexdigest()[:16]
            self._buckets[key] = _Bucket(name)
        return self._buckets[key]

    def take(self, method: str, sub: str, pattern: str, params: dict[str, str]
             ) -> tuple[dict[str, str], web.Response | None]:
        """Spend one request of its bucket: the headers to send, and a 429 if none was left."""
        bucket, now = self._bucket(method, pattern, params), self.clock()
        if now >= bucket.resets_at:
            bucket.used, bucket.resets_at = 0, now + self.limits.per
        reset_after = math.ceil((bucket.resets_at - now) * 1000) / 1000
        headers = {
            "X-RateLimit-Limit": str(self.limits.limit),
            "X-RateLimit-Reset": f"{time.time() + reset_after:.3f}",
            "X-RateLimit-Reset-After": f"{reset_after:.3f}",
            "X-RateLimit-Bucket": bucket.name,
        }
        if bucket.used >= self.limits.limit:
            self.refused.append((method, sub))
            log.warning("fakediscord: 429 on %s %s (bucket %s)", method, sub, bucket.name)
            body = {"message": "You are being rate limited.", "retry_after": reset_after,
                    "global": False}
            headers.update({"X-RateLimit-Remaining": "0", "X-RateLimit-Scope": "user",
                            "Retry-After": str(math.ceil(reset_after))})
            response = web.Response(body=json.dumps(body).encode(), status=429,
                                    content_type="application/json", headers=headers)
            return headers, response
        bucket.used += 1
        left = self.limits.limit - bucket.used
        self.exhausted += left == 0
        headers["X-RateLimit-Remaining"] = str(left)
        return headers, None
