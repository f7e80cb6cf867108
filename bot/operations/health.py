"""`gamenight health [--live] [--url URL]`: asks the running bot's metrics server whether it is
ready (/readyz) or only alive (/healthz), for Docker's HEALTHCHECK and for people. One line
says why; exit status 0 healthy, 1 not, 2 when there is nothing to ask (no metrics port).

It reads GAMENIGHT_METRICS_PORT (and GAMENIGHT_METRICS_HOST) as the bot does, from the
environment and `.env`, and uses only the standard library, so it starts quickly.
"""

from __future__ import annotations

import argparse
import json
import sys
import urllib.error
import urllib.request

from bot.app.config import ConfigError, address, environment, port

LIVE_TIMEOUT = 1.0  # /healthz: the event loop answers within a second, or it is not alive
READY_TIMEOUT = 5.0  # /readyz waits up to 2 s for the database


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--live", action="store_true",
                        help="ask only whether the process is alive (/healthz), not ready")
    parser.add_argument("--url", help="the metrics server to ask (default: this machine, "
                        "port GAMENIGHT_METRICS_PORT)")


def run(args: argparse.Namespace) -> int:
    path = "/healthz" if args.live else "/readyz"
    base = args.url
    if base is None:
        try:
            base = local_url(environment())
        except ConfigError as err:
            return say(str(err), 2)
    url = base.rstrip("/") + path if not base.rstrip("/").endswith(path) else base
    return check(url, LIVE_TIMEOUT if args.live else READY_TIMEOUT)


def local_url(values: dict[str, str]) -> str:
    """The metrics server on this machine, as GAMENIGHT_METRICS_PORT and _HOST configure it."""
    number = port(values.get("GAMENIGHT_METRICS_PORT", ""))
    if number is None:
        raise ConfigError("GAMENIGHT_METRICS_PORT is not set: the bot serves no health checks "
                          "(set it, or pass --url).")
    if number == 0:
        raise ConfigError("GAMENIGHT_METRICS_PORT is 0 (any free port): pass --url with the "
                          "port the bot logged.")
    host = address(values.get("GAMENIGHT_METRICS_HOST", ""))
    host = {"0.0.0.0": "127.0.0.1", "::": "::1"}.get(host, host)  # every interface: this one
    return f"http://[{host}]:{number}" if ":" in host else f"http://{host}:{number}"


def check(url: str, timeout: float) -> int:
    try:
        with urllib.request.urlopen(url, timeout=timeout) as response:
            body = response.read()
            status = response.status
    except urllib.error.HTTPError as err:
        body, status = err.read(), err.code
    except (urllib.error.URLError, OSError) as err:
        reason = getattr(err, "reason", err)
        return say(f"no answer from {url}: {reason}", 1)
    try:
        answer = json.loads(body)
    except ValueError:
        answer = {}
    problems = answer.get("problems") or []
    word = answer.get("status") or f"HTTP {status}"
    if status == 200:
        return say(f"{word} ({url})", 0)
    return say(f"{word}: {'; '.join(problems) or f'HTTP {status}'} ({url})", 1)


def say(line: str, status: int) -> int:
    print(f"gamenight health: {line}", file=sys.stdout if status == 0 else sys.stderr)
    return status
