"""Who reads which language, and the slash commands in the reader's language.

A person reads their own choice (`/gamenight language`), else the language of their Discord
client, else their server's. A channel reads its server's: the server's setting
(`/gamenight settings language`), else the server's Discord locale, else English. Discord has
no Gujarati locale, so Gujarati only ever comes from a setting.
"""

from __future__ import annotations

import logging
import time
from typing import Any, Protocol

import discord
from discord import app_commands

from bot.storage.rows import GuildSettings
from i18n import ENGLISH, LANGUAGES, PSEUDO, Voice, translations, voice

log = logging.getLogger(__name__)

DISCORD_LANGUAGES = {  # Discord client locales -> Gamenight languages
    discord.Locale.american_english: "en",
    discord.Locale.british_english: "en",
    discord.Locale.taiwan_chinese: "zh-TW",
    discord.Locale.chinese: "zh-CN",
}
COMMAND_NAME = "command name"  # catalog context of command, option and group names
KEEP_SECONDS = 30.0  # settings read are kept this long: another process may change them


def language_of(locale: discord.Locale | None) -> str | None:
    return DISCORD_LANGUAGES.get(locale) if locale is not None else None


class LanguageStore(Protocol):
    """The slice of the store the languages read and write: people's and servers' choices."""

    async def guild_settings(self, guild_id: int) -> GuildSettings: ...
    async def user_languages(self, user_id: int) -> tuple[str | None, str | None]: ...
    async def set_user_language(self, user_id: int, column: str,
                                language: str | None) -> None: ...


class Languages:
    """The voices readers get. Settings read for a person or server are kept `KEEP_SECONDS`:
    another process sharing the database may change them (it serves other shards)."""

    pseudo: bool = False  # tests: every reader gets the pseudo voice (i18n.PSEUDO)

    def __init__(self, bot: discord.Client, store: LanguageStore) -> None:
        self.bot = bot
        self.store = store
        self._people: Kept = Kept()  # user id -> (chosen, client's)
        self._servers: Kept = Kept()  # guild id -> chosen

    def _voice(self, lang: str | None) -> Voice:
        return voice(PSEUDO if self.pseudo else lang if lang in LANGUAGES else ENGLISH)

    async def reader(self, interaction: discord.Interaction) -> Voice:
        """The voice of the person behind `interaction` (for what only they see)."""
        user_id = interaction.user.id
        chosen, seen = await self._person(user_id)
        client = language_of(interaction.locale)
        if client is not None and client != seen:
            self._people[user_id] = (chosen, client)
            await self.store.set_user_language(user_id, "client_language", client)
        if chosen or client:
            return self._voice(chosen or client)
        return await self.server(interaction.guild_id)

    async def person(self, user_id: int, guild_id: int | None) -> Voice:
        """The voice of a person the bot writes to unasked (a DM, a reminder)."""
        chosen, seen = await self._person(user_id)
        if chosen or seen:
            return self._voice(chosen or seen)
        return await self.server(guild_id)

    async def server(self, guild_id: int | None) -> Voice:
        """The voice of a server's channels (boards, lobby cards, announcements)."""
        if guild_id is None:
            return self._voice(ENGLISH)
        if guild_id not in self._servers:
            self._servers[guild_id] = (await self.store.guild_settings(guild_id)).language
        chosen = self._servers.get(guild_id)
        if chosen:
            return self._voice(chosen)
        guild = self.bot.get_guild(guild_id)
        return self._voice(language_of(guild.preferred_locale) if guild is not None else None)

    async def dm_reader(self, interaction: discord.Interaction, guild_id: int | None) -> Voice:
        """The voice for answering a press in a DM: the presser's language, else that of the
        server the DM is about (a DM itself belongs to no server)."""
        voice = await self.reader(interaction)  # also notes their client's language
        if interaction.guild_id is not None:
            return voice
        return await self.person(interaction.user.id, guild_id)

    async def choose(self, user_id: int, language: str | None) -> None:
        """A person's own choice (None: follow their Discord client again)."""
        await self.store.set_user_language(user_id, "language", language)
        self._people[user_id] = (language, (await self._person(user_id))[1])

    def forget(self, user_id: int) -> None:
        """The person's settings were deleted: read them again when next needed."""
        self._people.pop(user_id, None)

    def server_changed(self, guild_id: int, language: str | None) -> None:
        self._servers[guild_id] = language

    async def _person(self, user_id: int) -> tuple[str | None, str | None]:
        if user_id not in self._people:
            self._people[user_id] = await self.store.user_languages(user_id)
        return self._people.get(user_id, (None, None))


class Kept:
    """A dict whose entries are forgotten `KEEP_SECONDS` after they were set."""

    def __init__(self) -> None:
        self._items: dict[Any, tuple[float, Any]] = {}

    def __contains__(self, key: Any) -> bool:
        item = self._items.get(key)
        if item is not None and time.monotonic() - item[0] >= KEEP_SECONDS:
            del self._items[key]
            return False
        return item is not None

    def get(self, key: Any, default: Any = None) -> Any:
        return self._items[key][1] if key in self else default

    def __setitem__(self, key: Any, value: Any) -> None:
        self._items[key] = (time.monotonic(), value)

    def pop(self, key: Any, default: Any = None) -> Any:
        item = self._items.pop(key, None)
        return default if item is None else item[1]


class CommandTranslator(app_commands.Translator):
    """Command names, descriptions, options and choices in the client's language, from the
    same catalogs as everything else (names under the "command name" context)."""

    async def translate(self, string: app_commands.locale_str, locale: discord.Locale,
                        context: app_commands.TranslationContext) -> str | None:
        lang = language_of(locale)
        if lang is None or lang == ENGLISH:
            return None
        worded = command_text(lang, string.message, is_name(context.location))
        return worded if worded != string.message else None


def is_name(location: app_commands.TranslationContextLocation) -> bool:
    names = app_commands.TranslationContextLocation
    return location in (names.command_name, names.group_name, names.parameter_name)


def command_text(lang: str, message: str, name: bool) -> str:
    catalog = translations(lang)
    return catalog.pgettext(COMMAND_NAME, message) if name else catalog.gettext(message)
