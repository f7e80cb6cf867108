"""Make the catalogs from the code: `python -m i18n.extract`.

Collects every `_(...)` and `n_(...)` message in bot/ and render/ with Babel's extractor, and
every slash command's name, description, option and choice from the bot's command tree, into
`i18n/locale/gamenight.pot`; then brings each language's `.po` up to date with it (new messages
untranslated, gone ones dropped). Translators then fill in the `.po` files.
"""

from __future__ import annotations

import asyncio
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po, write_po

from i18n import BABEL_LOCALES, CATALOG_NAMES, DOMAIN, LOCALE_DIR, po_path

ROOT = Path(__file__).resolve().parent.parent
SOURCES = ("bot", "render")
KEYWORDS = {"_": None, "n_": (1, 2), "p_": ((1, "c"), 2)}
COMMAND_NAME = "command name"  # the context bot.language translates names under
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"


def code_messages() -> Iterator[tuple[str | tuple[str, str], str, int, list[str], str | None]]:
    """(message, file, line, comments, context) for every marked message in the code."""
    for folder in SOURCES:
        for filename, line, message, comments, context in extract_from_dir(
                ROOT / folder, [("**.py", "python")], keywords=KEYWORDS,
                comment_tags=("TRANSLATORS:",), strip_comment_tags=True):
            yield message, f"{folder}/{filename}", line, comments, context


def command_messages() -> list[tuple[str, str | None, str]]:
    """(message, context, where) for every word of the slash commands Discord shows."""
    return asyncio.run(_command_messages())


async def _command_messages() -> list[tuple[str, str | None, str]]:
    from discord import app_commands

    from bot.app.client import GamenightBot
    from bot.app.config import Settings
    from bot.registry import GAMES, SHARED
    from importlib import import_module

    bot = GamenightBot(Settings.from_mapping({"DISCORD_TOKEN": "extract"}))
    for adapter in (SHARED, *(game.adapter for game in GAMES)):
        await import_module(adapter).setup(bot)
    found: list[tuple[str, str | None, str]] = []

    def walk(command: app_commands.Command | app_commands.Group, path: str) -> None:
        where = f"/{path}{command.name}"
        found.append((command.name, COMMAND_NAME, where))
        found.append((str(command.description), None, where))
        if isinstance(command, app_commands.Group):
            for child in command.commands:
                walk(child, f"{path}{command.name} ")
            return
        for parameter in command.parameters:
            at = f"{where} {parameter.name}"
            found.append((parameter.name, COMMAND_NAME, at))
            found.append((str(parameter.description), None, at))
            found.extend((str(choice.name), None, at) for choice in parameter.choices)

    for command in bot.tree.get_commands():
        walk(command, "")
    return found


def template() -> Catalog:
    catalog = Catalog(domain=DOMAIN, project="Gamenight", copyright_holder="Gamenight",
                      charset="utf-8")
    for message, filename, line, comments, context in code_messages():
        catalog.add(message, None, [(filename, line)], auto_comments=comments, context=context)
    for message, context, where in command_messages():
        note = "a name in a slash command: lowercase, no spaces" if context else ""
        catalog.add(message, None, [], auto_comments=[where] + ([note] if note else []),
                    context=context)
    return catalog


def update(template_catalog: Catalog) -> None:
    TEMPLATE.parent.mkdir(parents=True, exist_ok=True)
    with TEMPLATE.open("wb") as out:
        write_po(out, template_catalog, width=100, omit_header=False, include_lineno=False)
    for lang in CATALOG_NAMES:
        path = po_path(lang)
        if path.exists():
            with path.open("rb") as po:
                catalog = read_po(po, locale=BABEL_LOCALES[lang], domain=DOMAIN)
        else:
            path.parent.mkdir(parents=True, exist_ok=True)
            catalog = Catalog(locale=BABEL_LOCALES[lang], domain=DOMAIN, project="Gamenight",
                              copyright_holder="Gamenight", charset="utf-8")
        catalog.update(template_catalog, no_fuzzy_matching=True)
        with path.open("wb") as out:
            write_po(out, catalog, width=100, ignore_obsolete=True, omit_header=False,
                     include_lineno=False)


def main() -> None:
    catalog = template()
    update(catalog)
    print(f"{len(catalog)} messages in {TEMPLATE.relative_to(ROOT)}")


if __name__ == "__main__":
    main()
