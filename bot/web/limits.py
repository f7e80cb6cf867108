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


Network = ipaddress.IPv4Network | ipaddress.IPv6Network
LOOPBACK: tuple[Network, ...] = (ipaddress.ip_network("127.0.0.0/8"),
                                 ipaddress.ip_network("::1/128"))  # a proxy on this machine


def trusted_proxies(value: str) -> tuple[Network, ...]:
    """GAMENIGHT_WEB_TRUSTED_PROXIES: comma-separated IP addresses or networks (`10.0.0.0/8`);
    empty: this machine's loopback. ValueError names the first entry that is neither."""
    entries = [entry.strip() for entry in value.split(",") if entry.strip()]
    if not entries:
        return LOOPBACK
    networks = []
    for entry in entries:
        try:
            networks.append(ipaddress.ip_network(entry, strict=False))
        except ValueError:
            raise ValueError(entry) from None
    return tuple(networks)


def client_address(peer: str | None, forwarded_for: str | None,
                   trusted: tuple[Network, ...] = LOOPBACK) -> str:
    """Who asks: the peer, or when the peer is a trusted proxy, the address its X-Forwarded-For
    names last that is not itself a trusted proxy (a proxy in front of another)."""
    peer = peer or "?"
    if not forwarded_for or not is_trusted(peer, trusted):
        return peer
    hops = [hop.strip() for hop in forwarded_for.split(",") if hop.strip()]
    for hop in reversed(hops):
        if not is_trusted(hop, trusted):
            return hop
    return hops[0] if hops else peer


def is_trusted(address: str, trusted: tuple[Network, ...]) -> bool:
    try:
        ip = ipaddress.ip_address(address)
    except ValueError:
        return False
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped  # a dual-stack socket's ::ffff:127.0.0.1
    return any(ip in network for network in trusted)
