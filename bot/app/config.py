"""Settings from the environment, and from a `.env` file when present (the environment wins)."""

from __future__ import annotations

import ipaddress
import os
import re
import shutil
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path

from dotenv import dotenv_values

from bot.web.limits import LOOPBACK, Network, trusted_proxies

DEFAULT_API_BASE = "https://discord.com/api/v10"
LOG_LEVELS = ("DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL")
LOG_FORMATS = ("text", "json")
RENDER_WORKERS = 1  # enough for 50 actions a second (docs/scaling.md)
DEFAULT_BACKUP_EVERY = 24 * 3600.0
DEFAULT_BACKUP_KEEP = 14


class ConfigError(Exception):
    """The configuration cannot work; the message tells the operator what to set."""


class Secret:
    """A string that never shows itself in a repr, a log line or an f-string."""

    def __init__(self, value: str) -> None:
        self._value = value

    def reveal(self) -> str:
        return self._value

    def __repr__(self) -> str:
        return "Secret('********')"

    __str__ = __repr__

    def __bool__(self) -> bool:
        return bool(self._value)


@dataclass(frozen=True)
class Settings:
    token: Secret
    db_path: Path | str  # an SQLite file, or a postgresql:// URL
    api_base: str
    guild_id: int | None
    log_level: str
    log_format: str = "text"  # LOG_FORMAT: text, or json (one object a line)
    lexicon: Path | None = None  # GAMENIGHT_LEXICON: Scrabble's word list (None: ENABLE)
    metrics_port: int | None = None  # GAMENIGHT_METRICS_PORT (None: no metrics; 0: any port)
    metrics_host: str = "127.0.0.1"  # GAMENIGHT_METRICS_HOST: the address /metrics listens on
    computer_delay: float = 1.5  # GAMENIGHT_COMPUTER_DELAY: seconds before a computer acts
    computer_workers: int = field(default_factory=lambda: os.cpu_count() or 1)
    render_workers: int = RENDER_WORKERS  # GAMENIGHT_RENDER_WORKERS: 0 draws in threads
    review_finished: bool = True  # GAMENIGHT_REVIEWS: review each finished match unasked
    shard_count: int | None = None  # GAMENIGHT_SHARDS: Discord shards in all (None: Discord's advice)
    shard_ids: tuple[int, ...] | None = None  # GAMENIGHT_SHARD_IDS: this process's (None: all)
    backup_dir: Path | None = None  # GAMENIGHT_BACKUP_DIR: scheduled backups (None: none)
    backup_every: float = DEFAULT_BACKUP_EVERY  # GAMENIGHT_BACKUP_EVERY, in seconds
    backup_keep: int | None = DEFAULT_BACKUP_KEEP  # GAMENIGHT_BACKUP_KEEP (None: keep all)
    web_port: int | None = None  # GAMENIGHT_WEB_PORT: the match pages (None: no web server)
    web_host: str = "127.0.0.1"  # GAMENIGHT_WEB_HOST: the address the pages listen on
    public_url: str | None = None  # GAMENIGHT_PUBLIC_URL: where people reach the pages
    # GAMENIGHT_WEB_TRUSTED_PROXIES: peers whose X-Forwarded-For names the visitor (the limit's)
    web_trusted_proxies: tuple[Network, ...] = LOOPBACK
    client_id: int | None = None  # DISCORD_CLIENT_ID (None: the application id the bot learns)
    client_secret: Secret | None = None  # DISCORD_CLIENT_SECRET: the Activity (None: off)

    @property
    def activity(self) -> bool:
        """The Discord Activity is served: the pages are on and the client secret is set."""
        return self.web_port is not None and self.client_secret is not None

    @classmethod
    def load(cls, environ: Mapping[str, str] | None = None,
             env_file: str | Path | None = ".env") -> Settings:
        """Read settings; `.env` values fill in what the environment does not set."""
        return cls.from_mapping(environment(environ, env_file))

    @classmethod
    def from_mapping(cls, values: Mapping[str, str]) -> Settings:
        token = values.get("DISCORD_TOKEN", "").strip()
        if not token:
            raise ConfigError("DISCORD_TOKEN is not set: put your bot token (Discord Developer "
                              "Portal -> your application -> Bot -> Reset Token) in the "
                              "environment or in .env.")
        guild = values.get("GAMENIGHT_GUILD", "").strip()
        if guild and not guild.isdigit():
            raise ConfigError("GAMENIGHT_GUILD must be a server (guild) id: digits only, copied "
                              "with Developer Mode on, or left empty to sync commands globally.")
        level = values.get("LOG_LEVEL", "INFO").strip().upper() or "INFO"
        if level not in LOG_LEVELS:
            raise ConfigError(f"LOG_LEVEL must be one of {', '.join(LOG_LEVELS)}.")
        log_format = values.get("LOG_FORMAT", "").strip().lower() or "text"
        if log_format not in LOG_FORMATS:
            raise ConfigError("LOG_FORMAT must be text (readable lines, the default) or json "
                              "(one JSON object a line, for a log search).")
        lexicon = values.get("GAMENIGHT_LEXICON", "").strip()
        if lexicon and not Path(lexicon).is_file():
            raise ConfigError(f"GAMENIGHT_LEXICON names no file ({lexicon}): point it at a word "
                              "list (one word per line, .gz allowed), or leave it empty for the "
                              "built-in ENABLE list.")
        metrics_port = port(values.get("GAMENIGHT_METRICS_PORT", ""))
        metrics_host = address(values.get("GAMENIGHT_METRICS_HOST", ""))
        database = db_path(values.get("GAMENIGHT_DB", ""))
        shard_count, shard_ids = shards(values.get("GAMENIGHT_SHARDS", ""),
                                        values.get("GAMENIGHT_SHARD_IDS", ""), database)
        return cls(
            token=Secret(token),
            db_path=database,
            api_base=(values.get("DISCORD_API_BASE", "").strip() or DEFAULT_API_BASE).rstrip("/"),
            guild_id=int(guild) if guild else None,
            log_level=level,
            log_format=log_format,
            lexicon=Path(lexicon) if lexicon else None,
            metrics_port=metrics_port,
            metrics_host=metrics_host,
            computer_delay=computer_delay(values.get("GAMENIGHT_COMPUTER_DELAY", "")),
            computer_workers=computer_workers(values.get("GAMENIGHT_COMPUTER_WORKERS", "")),
            render_workers=render_workers(values.get("GAMENIGHT_RENDER_WORKERS", "")),
            review_finished=reviews_on(values.get("GAMENIGHT_REVIEWS", "")),
            shard_count=shard_count,
            shard_ids=shard_ids,
            **backups(values, database),
            **web(values),
            **activity(values),
        )


def reviews_on(value: str) -> bool:
    """GAMENIGHT_REVIEWS: `on` (the default) or `off`."""
    said = value.strip().lower() or "on"
    if said not in ("on", "off"):
        raise ConfigError(f"GAMENIGHT_REVIEWS must be on (review every finished match in the "
                          f"background, for the accuracy in /gamenight stats) or off (review "
                          f"only when someone asks), not {value.strip()[:20]!r}.")
    return said == "on"


def environment(environ: Mapping[str, str] | None = None,
                env_file: str | Path | None = ".env") -> dict[str, str]:
    """The environment, `.env` filling in what it does not set."""
    values: dict[str, str] = {}
    if env_file is not None and Path(env_file).is_file():
        values.update({k: v for k, v in dotenv_values(env_file).items() if v is not None})
    values.update(os.environ if environ is None else environ)
    return values


UNITS = {"s": 1, "m": 60, "h": 3600, "d": 86400}
DURATION = re.compile(r"(?:\d+[smhd])+")


def duration(value: str) -> float | None:
    """`6h`, `30m`, `1h30m`, `2d` in seconds; None if it is not one."""
    value = value.strip().lower().replace(" ", "")
    if not DURATION.fullmatch(value):
        return None
    return float(sum(int(n) * UNITS[u] for n, u in re.findall(r"(\d+)([smhd])", value)))


def backups(values: Mapping[str, str], database: Path | str) -> dict[str, object]:
    """GAMENIGHT_BACKUP_DIR (empty: no scheduled backups), GAMENIGHT_BACKUP_EVERY (a duration
    from 1m to 30d; empty: 24h) and GAMENIGHT_BACKUP_KEEP (how many stay; empty: 14, 0: all)."""
    directory = values.get("GAMENIGHT_BACKUP_DIR", "").strip()
    every_text = values.get("GAMENIGHT_BACKUP_EVERY", "").strip()
    keep_text = values.get("GAMENIGHT_BACKUP_KEEP", "").strip()
    every = duration(every_text) if every_text else DEFAULT_BACKUP_EVERY
    if every is None or not 60 <= every <= 30 * 86400:
        raise ConfigError(f"GAMENIGHT_BACKUP_EVERY must be how often to back up, from 1m to 30d, "
                          f"such as 6h, 30m or 1d12h, not {every_text!r}, or left empty for 24h.")
    keep = backup_keep(keep_text, DEFAULT_BACKUP_KEEP)
    if not directory and (every_text or keep_text):
        raise ConfigError("GAMENIGHT_BACKUP_EVERY or GAMENIGHT_BACKUP_KEEP is set but "
                          "GAMENIGHT_BACKUP_DIR is not: set the directory the backups go to "
                          "(e.g. /data/backups), or leave all three empty for no backups.")
    if directory and is_postgres(database) and shutil.which("pg_dump") is None:
        raise ConfigError("GAMENIGHT_BACKUP_DIR is set and the database is PostgreSQL, but "
                          "pg_dump is not installed: install PostgreSQL's client tools, or "
                          "leave GAMENIGHT_BACKUP_DIR empty and back up with pg_dump elsewhere.")
    return {"backup_dir": Path(directory) if directory else None, "backup_every": every,
            "backup_keep": keep}


def backup_keep(text: str, default: int | None) -> int | None:
    """GAMENIGHT_BACKUP_KEEP: how many backups stay (None: all; 0 says all), else `default`."""
    text = text.strip()
    if not text:
        return default
    if not text.isdigit() or int(text) > 100_000:
        raise ConfigError(f"GAMENIGHT_BACKUP_KEEP must be how many backups to keep (a whole "
                          f"number; 0 keeps them all), not {text!r}, or left empty.")
    return int(text) or None


def port(value: str, name: str = "GAMENIGHT_METRICS_PORT", what: str = "metrics") -> int | None:
    """GAMENIGHT_METRICS_PORT: empty for no metrics, else a TCP port (0 picks a free one)."""
    value = value.strip()
    if not value:
        return None
    if not value.isdigit() or int(value) > 65535:
        raise ConfigError(f"{name} must be a TCP port number (1-65535; 0 picks a free one), not "
                          f"{value!r}, or left empty to serve no {what}.")
    return int(value)


def address(value: str, name: str = "GAMENIGHT_METRICS_HOST", what: str = "metrics") -> str:
    """GAMENIGHT_METRICS_HOST: an IP address to listen on (default 127.0.0.1, this machine
    only; 0.0.0.0 for every interface, as in the container)."""
    value = value.strip() or "127.0.0.1"
    try:
        ipaddress.ip_address(value)
    except ValueError:
        raise ConfigError(f"{name} must be an IP address to serve {what} on "
                          f"(127.0.0.1: this machine only; 0.0.0.0: every interface), not "
                          f"{value!r}.") from None
    return value


PUBLIC_URL = re.compile(r"https?://[^\s/?#@]+(?:/[^\s?#]*)?", re.IGNORECASE)


def web(values: Mapping[str, str]) -> dict[str, object]:
    """GAMENIGHT_WEB_PORT (empty: no web pages), GAMENIGHT_WEB_HOST (default 127.0.0.1) and
    GAMENIGHT_PUBLIC_URL, the http(s) address people reach the pages at (behind a reverse
    proxy), which links are made of: required with the port. GAMENIGHT_WEB_TRUSTED_PROXIES:
    the reverse proxies whose X-Forwarded-For is believed (default: this machine)."""
    web_port = port(values.get("GAMENIGHT_WEB_PORT", ""), "GAMENIGHT_WEB_PORT", "web pages")
    web_host = address(values.get("GAMENIGHT_WEB_HOST", ""), "GAMENIGHT_WEB_HOST", "web pages")
    public = values.get("GAMENIGHT_PUBLIC_URL", "").strip()
    proxies = proxies_trusted(values.get("GAMENIGHT_WEB_TRUSTED_PROXIES", ""))
    if web_port is None and values.get("GAMENIGHT_WEB_TRUSTED_PROXIES", "").strip():
        raise ConfigError("GAMENIGHT_WEB_TRUSTED_PROXIES is set but GAMENIGHT_WEB_PORT is not: "
                          "set the port the match pages are served on (e.g. 8080), or leave "
                          "it empty for no pages.")
    if web_port is None:
        if public or values.get("GAMENIGHT_WEB_HOST", "").strip():
            raise ConfigError("GAMENIGHT_PUBLIC_URL or GAMENIGHT_WEB_HOST is set but "
                              "GAMENIGHT_WEB_PORT is not: set the port the match pages are "
                              "served on (e.g. 8080), or leave all three empty for no pages.")
        return {}
    if not public:
        raise ConfigError("GAMENIGHT_WEB_PORT is set but GAMENIGHT_PUBLIC_URL is not: set the "
                          "address people open the pages at, such as "
                          "https://gamenight.example.org (your reverse proxy's).")
    if not PUBLIC_URL.fullmatch(public):
        shown = "" if "@" in public else f", not {public!r}"  # a password never shows
        raise ConfigError(f"GAMENIGHT_PUBLIC_URL must be an http:// or https:// address such "
                          f"as https://gamenight.example.org (no query, no password){shown}.")
    return {"web_port": web_port, "web_host": web_host, "public_url": public.rstrip("/"),
            "web_trusted_proxies": proxies}


def proxies_trusted(value: str) -> tuple[Network, ...]:
    """GAMENIGHT_WEB_TRUSTED_PROXIES: comma-separated IP addresses or networks (empty: the
    loopback addresses, a reverse proxy on this machine)."""
    try:
        return trusted_proxies(value)
    except ValueError as error:
        raise ConfigError(f"GAMENIGHT_WEB_TRUSTED_PROXIES must be IP addresses or networks "
                          f"separated by commas (e.g. 172.17.0.1 or 172.16.0.0/12,::1), not "
                          f"{str(error)!r}, or left empty for this machine's own "
                          f"(127.0.0.0/8, ::1).") from None


def activity(values: Mapping[str, str]) -> dict[str, object]:
    """DISCORD_CLIENT_SECRET (the OAuth2 client secret: the Activity's token exchange) and
    DISCORD_CLIENT_ID (digits; empty: the application id the bot learns at login). The secret
    needs the pages (GAMENIGHT_WEB_PORT); it never appears in a message."""
    secret = values.get("DISCORD_CLIENT_SECRET", "").strip()
    client = values.get("DISCORD_CLIENT_ID", "").strip()
    if client and not client.isdigit():
        raise ConfigError("DISCORD_CLIENT_ID must be your application's id (digits, Developer "
                          "Portal -> your application -> OAuth2 -> Client ID), or empty to "
                          "use the id the bot learns when it logs in.")
    if secret and not values.get("GAMENIGHT_WEB_PORT", "").strip():
        raise ConfigError("DISCORD_CLIENT_SECRET is set but GAMENIGHT_WEB_PORT is not: the "
                          "Activity is served by the web pages, so set the port (and "
                          "GAMENIGHT_PUBLIC_URL) too, or leave the secret empty for no Activity.")
    return {"client_id": int(client) if client else None,
            "client_secret": Secret(secret) if secret else None}


MAX_COMPUTER_DELAY = 60.0


def computer_delay(value: str) -> float:
    """GAMENIGHT_COMPUTER_DELAY: seconds a computer waits before acting (empty: 1.5)."""
    value = value.strip()
    if not value:
        return 1.5
    try:
        delay = float(value)
    except ValueError:
        delay = -1.0
    if not 0 <= delay <= MAX_COMPUTER_DELAY:  # also refuses nan and inf
        raise ConfigError(f"GAMENIGHT_COMPUTER_DELAY must be a number of seconds from 0 to "
                          f"{MAX_COMPUTER_DELAY:g}, not {value!r}, or left empty for 1.5.")
    return delay


def computer_workers(value: str) -> int:
    """GAMENIGHT_COMPUTER_WORKERS: processes computer players think in (empty: one per CPU)."""
    value = value.strip()
    if not value:
        return os.cpu_count() or 1
    if not value.isdigit() or not 1 <= int(value) <= 256:
        raise ConfigError(f"GAMENIGHT_COMPUTER_WORKERS must be a whole number of processes from "
                          f"1 to 256, not {value!r}, or left empty for one per CPU core.")
    return int(value)


def render_workers(value: str) -> int:
    """GAMENIGHT_RENDER_WORKERS: processes pictures are drawn in (0: threads; empty: 1)."""
    value = value.strip()
    if not value:
        return RENDER_WORKERS
    if not value.isdigit() or not 0 <= int(value) <= 64:
        raise ConfigError(f"GAMENIGHT_RENDER_WORKERS must be a whole number of processes from "
                          f"0 to 64, not {value!r}, or left empty for {RENDER_WORKERS}.")
    return int(value)


def db_path(value: str) -> Path | str:
    """GAMENIGHT_DB: an SQLite file path, or a PostgreSQL URL (`postgresql://user@host/db`).
    Any other URL is refused rather than taken for a file of that name."""
    value = value.strip() or "gamenight.db"
    scheme, sep, _ = value.partition("://")
    if sep and scheme in ("postgresql", "postgres"):
        return value
    if sep and scheme.replace("+", "").isalpha():
        raise ConfigError(f"GAMENIGHT_DB is a {scheme}:// URL, but Gamenight stores matches in "
                          "an SQLite file or in PostgreSQL: set it to a file path such as "
                          "/data/gamenight.db, or to a postgresql://user@host/database URL.")
    return Path(value)


MAX_SHARDS = 4096


def shards(total: str, ids: str, database: Path | str) -> tuple[int | None, tuple[int, ...] | None]:
    """GAMENIGHT_SHARDS (how many Discord shards in all) and GAMENIGHT_SHARD_IDS (the ones this
    process runs: `0-3`, `0,2,5-7`). Both empty: one process on every shard Discord advises.
    Only some of the shards here means other processes run the rest, sharing the database, so
    the database must be PostgreSQL (an SQLite file belongs to one process)."""
    total, ids = total.strip(), ids.strip()
    if total and (not total.isdigit() or not 1 <= int(total) <= MAX_SHARDS):
        raise ConfigError(f"GAMENIGHT_SHARDS must be the number of Discord shards in all (1 to "
                          f"{MAX_SHARDS}), not {total!r}, or left empty to let Discord say.")
    count = int(total) if total else None
    if not ids:
        return count, None
    if count is None:
        raise ConfigError("GAMENIGHT_SHARD_IDS is set but GAMENIGHT_SHARDS is not: say how many "
                          "shards there are in all (e.g. GAMENIGHT_SHARDS=8 with "
                          "GAMENIGHT_SHARD_IDS=0-3).")
    chosen = shard_ranges(ids, count)
    if len(chosen) < count and not is_postgres(database):
        raise ConfigError(f"GAMENIGHT_SHARD_IDS={ids} runs {len(chosen)} of the {count} shards, "
                          "so other processes run the rest, and several processes need one "
                          "PostgreSQL database: set GAMENIGHT_DB to a postgresql:// URL (an "
                          "SQLite file serves one process), or leave GAMENIGHT_SHARD_IDS empty.")
    return count, chosen


def shard_ranges(text: str, count: int) -> tuple[int, ...]:
    """`0-3` or `0,2,5-7` as sorted shard ids, each below `count`."""
    chosen: set[int] = set()
    for part in text.split(","):
        low, dash, high = part.strip().partition("-")
        if not low.strip().isdigit() or (dash and not high.strip().isdigit()):
            raise ConfigError(f"GAMENIGHT_SHARD_IDS must list shard ids and ranges such as 0-3 "
                              f"or 0,2,5-7, not {text!r}.")
        first, last = int(low), int(high) if dash else int(low)
        if first > last:
            raise ConfigError(f"GAMENIGHT_SHARD_IDS has the range {part.strip()}, which runs "
                              f"backwards: write it low-high, as in {last}-{first}.")
        if last >= count:
            raise ConfigError(f"GAMENIGHT_SHARD_IDS names shard {last}, but with "
                              f"GAMENIGHT_SHARDS={count} the shards are 0 to {count - 1}.")
        chosen.update(range(first, last + 1))
    return tuple(sorted(chosen))


def is_postgres(database: Path | str) -> bool:
    return isinstance(database, str)
