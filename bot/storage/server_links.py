"""A server's page (bot/web/server_pages.py): its unguessable token (as a match's, from
`secrets`), kept while the server's pages are on, and what changes the page: a stamp of its
matches and nights that grows with every commit of either."""

from __future__ import annotations

from bot.storage.base import StoreBase
from bot.storage.links import new_token
from bot.storage.rows import now_iso


class ServerLinkStore(StoreBase):
    """Server page tokens (a part of `Store`)."""

    async def server_token(self, guild_id: int) -> str | None:
        """The server page's token, made now if it has none; None while the server's pages
        are not on."""
        async with self.transaction() as db:
            on = await db.fetchval("SELECT web_pages FROM guild_settings WHERE guild_id = ?",
                                   (guild_id,))
            if not on:
                return None
            await db.execute("INSERT INTO guild_links (guild_id, token, created_at)"
                             " VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                             (guild_id, new_token(), now_iso()))
            return str(await db.fetchval("SELECT token FROM guild_links WHERE guild_id = ?",
                                         (guild_id,)))

    async def server_of_token(self, token: str) -> int | None:
        """The server whose page a token opens, or None (never made, or pages not on)."""
        async with self._reading() as db:
            found = await db.fetchval(
                "SELECT l.guild_id FROM guild_links l JOIN guild_settings s"
                " ON s.guild_id = l.guild_id WHERE l.token = ? AND s.web_pages = 1", (token,))
        return None if found is None else int(found)

    async def server_stamp(self, guild_id: int) -> int:
        """A number that changes with every commit to the server's matches and nights (each
        commit raises a version; a new match or night adds one)."""
        async with self._reading() as db:
            matches = await db.fetchval(
                "SELECT COUNT(*) + COALESCE(SUM(version), 0) FROM matches WHERE guild_id = ?",
                (guild_id,))
            nights = await db.fetchval(
                "SELECT COUNT(*) + COALESCE(SUM(version), 0) FROM nights WHERE guild_id = ?",
                (guild_id,))
        return int(matches or 0) + int(nights or 0)

    async def guild_of_match(self, match_id: int) -> int | None:
        async with self._reading() as db:
            found = await db.fetchval("SELECT guild_id FROM matches WHERE id = ?", (match_id,))
        return None if found is None else int(found)

    async def server_name(self, guild_id: int) -> str | None:
        """The server's name as its newest match noted it (None if none did)."""
        async with self._reading() as db:
            found = await db.fetchval(
                "SELECT server_name FROM matches WHERE guild_id = ? AND server_name IS NOT NULL"
                " ORDER BY id DESC LIMIT 1", (guild_id,))
        return None if found is None else str(found)
