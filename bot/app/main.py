"""`gamenight` (or `python -m bot`): with no command, start the bot; `gamenight COMMAND ...` runs
one of the operator's commands (`gamenight --help` lists them). The bot exits with one line, not a
traceback, when it cannot log in or use its database (status 2: fix the configuration) or reach
Discord (1). An unknown command prints the usage and exits with status 2."""

from __future__ import annotations

import argparse
import asyncio
import importlib
import sys
from collections.abc import Sequence

from bot.app.config import ConfigError, Settings
from bot.app import logs

# Each command's module offers `configure(parser)` and `run(args) -> int` (its exit status);
# it is imported only when its command is run.
COMMANDS: dict[str, tuple[str, str]] = {
    "migrate": ("bot.storage.copy", "copy every match, move and setting to another database "
                "and verify the copy"),
    "health": ("bot.operations.health", "ask the running bot's metrics server whether it is "
               "ready (or, with --live, alive): exit 0 if so, else 1"),
    "backup": ("bot.operations.backup_command", "back up the database while the bot runs: "
               "SQLite's online backup, compressed, with a manifest of checksums (pg_dump on "
               "PostgreSQL)"),
    "restore": ("bot.operations.restore", "restore a backup into an empty database and check "
                "it against its manifest"),
    "verify": ("bot.operations.verify", "check a database: its integrity, every match "
               "replayed from its moves, every rating recomputed from the results"),
}


def configure_logging(settings: Settings) -> None:
    logs.configure(settings.log_format, settings.log_level, settings.token.reveal())


async def run(settings: Settings) -> None:
    from bot.app.client import GamenightBot
    from bot.operations.startup import check_database
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
    # imported here, not above: an operator's command (`gamenight health` every 30 s in Docker)
    # starts without loading discord.py, aiohttp and the games
    import sqlite3

    import aiohttp
    import discord

    from bot.app.metrics import MetricsUnavailable
    from bot.web.server import WebUnavailable
    from bot.operations.startup import DatabaseDamaged, damaged_line, is_damage
    from bot.storage.errors import SchemaTooNew, StoreUnavailable

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
    except SchemaTooNew as err:
        print(f"gamenight: {err}. Nothing was changed: run that release or a newer one, or "
              "restore the backup taken before the upgrade (docs/upgrades.md).", file=sys.stderr)
        return 2
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
    except WebUnavailable as err:
        print(f"gamenight: {err}. Set GAMENIGHT_WEB_PORT to a free port, or leave it empty.",
              file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        return 0
    return 0


if __name__ == "__main__":
    sys.exit(main())
