"""`gamenight` (or `python -m bot`): with no command, start the bot; `gamenight COMMAND ...` runs
one of the operator's commands (`gamenight --help` lists them). The bot exits with one line, not a
traceback, when it cannot log in or use its database (status 2: fix the configuration) or reach
Discord (1). An unknown command prints the usage and exits with status 2."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import logging
import sqlite3
import sys
from collections.abc import Sequence

import aiohttp
import discord

from bot.app.config import ConfigError, Settings
from bot.app.metrics import MetricsUnavailable
from bot.operations.startup import DatabaseDamaged, check_database, damaged_line, is_damage
from bot.storage.errors import StoreUnavailable

# Each command's module offers `configure(parser)` and `run(args) -> int` (its exit status);
# it is imported only when its command is run.
COMMANDS: dict[str, tuple[str, str]] = {
    "migrate": ("bot.storage.copy", "copy every match, move and setting to another database "
                "and verify the copy"),
    "backup": ("bot.operations.backup_command", "back up the database while the bot runs: "
               "SQLite's online backup, compressed, with a manifest of checksums (pg_dump on "
               "PostgreSQL)"),
    "restore": ("bot.operations.restore", "restore a backup into an empty database and check "
                "it against its manifest"),
    "verify": ("bot.operations.verify", "check a database: its integrity, every match "
               "replayed from its moves, every rating recomputed from the results"),
}


class RedactToken(logging.Filter):
    """Replaces the token in any log record, should a library ever print it."""

    def __init__(self, token: str) -> None:
        super().__init__()
        self._token = token

    def filter(self, record: logging.LogRecord) -> bool:
        message = record.getMessage()
        if self._token and self._token in message:
            record.msg = message.replace(self._token, "[token]")
            record.args = ()
        return True


def configure_logging(settings: Settings) -> None:
    handler = logging.StreamHandler()
    handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)-7s %(name)s: %(message)s"))
    handler.addFilter(RedactToken(settings.token.reveal()))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(settings.log_level)


async def run(settings: Settings) -> None:
    from bot.app.client import GamenightBot
    from bot.storage.store import Store

    await asyncio.to_thread(check_database, settings.db_path)  # a damaged file: say so first
    await (await Store.open(settings.db_path)).close()  # a database it cannot use: say so first
    async with GamenightBot(settings) as bot:
        await bot.start(settings.token.reveal())


def usage() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="gamenight", description="Gamenight, a Discord bot that hosts tabletop games. "
        "With no command it runs the bot (settings: .env.example).")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (_module, summary) in COMMANDS.items():
        commands.add_parser(name, help=summary, add_help=False)
    return parser


def run_command(name: str, argv: Sequence[str]) -> int:
    module_name, summary = COMMANDS[name]
    module = importlib.import_module(module_name)
    parser = argparse.ArgumentParser(prog=f"gamenight {name}", description=summary[0].upper()
                                     + summary[1:] + ".")
    module.configure(parser)
    return int(module.run(parser.parse_args(argv)))


def main(argv: Sequence[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else list(argv)
    if argv and argv[0] in COMMANDS:
        return run_command(argv[0], argv[1:])
    if argv:
        usage().parse_args(argv)  # prints the usage: --help exits 0, anything else 2
        return 2
    return run_bot()


def run_bot() -> int:
    try:
        settings = Settings.load()
    except ConfigError as err:
        print(f"gamenight: {err}", file=sys.stderr)
        return 2
    configure_logging(settings)
    try:
        asyncio.run(run(settings))
    except discord.LoginFailure:
        print("gamenight: Discord rejected DISCORD_TOKEN: copy a fresh token from the Developer "
              "Portal (Bot -> Reset Token) into the environment or .env.", file=sys.stderr)
        return 2
    except aiohttp.ClientConnectorError as err:
        print(f"gamenight: cannot reach the Discord API at {settings.api_base}: {err.os_error}. "
              "Check the network, or DISCORD_API_BASE if you set it.", file=sys.stderr)
        return 1
    except StoreUnavailable as err:
        print(f"gamenight: {err}. Point GAMENIGHT_DB at a writable SQLite file (a new one is "
              "created if it does not exist) or at a PostgreSQL database Gamenight can reach.",
              file=sys.stderr)
        return 2
    except DatabaseDamaged as err:
        print(f"gamenight: {damaged_line(settings.db_path, str(err), settings.backup_dir)}",
              file=sys.stderr)
        return 2
    except sqlite3.DatabaseError as err:
        if not is_damage(err):
            raise
        print(f"gamenight: {damaged_line(settings.db_path, str(err), settings.backup_dir)}",
              file=sys.stderr)
        return 2
    except MetricsUnavailable as err:
        print(f"gamenight: {err}. Set GAMENIGHT_METRICS_PORT to a free port, or leave it empty.",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
