"""A token bucket per client address for the web routes: a burst, then a steady rate. The
buckets are dropped once full again, so the table holds only addresses seen lately."""

from __future__ import annotations

import ipaddress
import time
from collections.abc import Callable

BURST = 60.0  # requests at once (a page, its picture and reconnections)
RATE = 5.0  # requests a second after that
MAX_ADDRESSES = 10_000  # buckets kept before the full ones are pruned


class RateLimit:
    def __init__(self, burst: float = BURST, rate: float = RATE,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.burst, self.rate, self.clock = burst, rate, clock
        self._buckets: dict[str, tuple[float, float]] = {}  # address -> (tokens, at)

    def allow(self, address: str) -> bool:
        """Take a token from `address`'s bucket; False when it is empty."""
        now = self.clock()
        tokens, at = self._buckets.get(address, (self.burst, now))
        tokens = min(self.burst, tokens + (now - at) * self.rate)
        if len(self._buckets) >= MAX_ADDRESSES:
            self._prune(now)
        if tokens < 1:
            self._buckets[address] = (tokens, now)
            return False
        self._buckets[address] = (tokens - 1, now)
        return True

    def _prune(self, now: float) -> None:
        refill = self.burst / self.rate
        self._buckets = {a: b for a, b in self._buckets.items() if now - b[1] < refill}


def client_address(peer: str | None, forwarded_for: str | None) -> str:
    """Who asks: the peer, or behind a reverse proxy on this machine (a loopback peer) the
    address that proxy puts last in X-Forwarded-For."""
    peer = peer or "?"
    try:
        local = ipaddress.ip_address(peer).is_loopback
    except ValueError:
        local = False
    if local and forwarded_for:
        last = forwarded_for.split(",")[-1].strip()
        if last:
            return last
    return peer
