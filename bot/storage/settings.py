"""Servers' settings (turn clocks, language, web pages) and people's (turn reminders, languages)."""

from __future__ import annotations

from bot.storage.base import StoreBase
from bot.storage.rows import GuildSettings


class SettingsStore(StoreBase):
    """Servers' and people's settings (a part of `Store`)."""

    async def guild_settings(self, guild_id: int) -> GuildSettings:
        async with self._reading() as db, db.query(
            "SELECT turn_time, on_timeout, lobby_time, language, web_pages FROM guild_settings"
            " WHERE guild_id = ?", (guild_id,),
        ) as cursor:
            row = await cursor.fetchone()
        if row is None:
            return GuildSettings()
        web_pages = None if row["web_pages"] is None else bool(row["web_pages"])
        return GuildSettings(row["turn_time"], row["on_timeout"], row["lobby_time"],
                             row["language"], web_pages)

    async def set_guild_settings(self, guild_id: int, settings: GuildSettings) -> None:
        """Store a server's settings; pages not on drop the server page's token at once (in
        the same transaction: no page is served from it after)."""
        web_pages = None if settings.web_pages is None else int(settings.web_pages)
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO guild_settings (guild_id, turn_time, on_timeout, lobby_time,"
                " language, web_pages) VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (guild_id) DO"
                " UPDATE SET turn_time = excluded.turn_time, on_timeout = excluded.on_timeout,"
                " lobby_time = excluded.lobby_time, language = excluded.language,"
                " web_pages = excluded.web_pages",
                (guild_id, settings.turn_time, settings.on_timeout, settings.lobby_time,
                 settings.language, web_pages))
            if not settings.web_pages:
                await db.execute("DELETE FROM guild_links WHERE guild_id = ?", (guild_id,))
            if settings.web_pages is False:
                await self._announce_pages_off(db, guild_id)

    async def notify(self, user_id: int) -> bool:
        """Whether the person wants turn reminders by DM (yes unless they turned them off)."""
        async with self._reading() as db, db.query(
            "SELECT notify FROM user_settings WHERE user_id = ?", (user_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return row is None or bool(row["notify"])

    async def set_notify(self, user_id: int, on: bool) -> None:
        async with self.transaction() as db:
            await db.execute(
                "INSERT INTO user_settings (user_id, notify) VALUES (?, ?)"
                " ON CONFLICT (user_id) DO UPDATE SET notify = excluded.notify",
                (user_id, int(on)))

    async def user_languages(self, user_id: int) -> tuple[str | None, str | None]:
        """A person's chosen language and their Discord client's last seen one (or None)."""
        async with self._reading() as db, db.query(
            "SELECT language, client_language FROM user_settings WHERE user_id = ?", (user_id,)
        ) as cursor:
            row = await cursor.fetchone()
        return (None, None) if row is None else (row["language"], row["client_language"])

    async def set_user_language(self, user_id: int, column: str, language: str | None) -> None:
        """Store a person's `language` (their choice) or `client_language`."""
        if column not in ("language", "client_language"):
            raise ValueError(column)
        async with self.transaction() as db:
            await db.execute(
                f"INSERT INTO user_settings (user_id, {column}) VALUES (?, ?)"
                f" ON CONFLICT (user_id) DO UPDATE SET {column} = excluded.{column}",
                (user_id, language))
