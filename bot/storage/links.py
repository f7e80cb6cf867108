"""The web pages' links (bot/web/): each match's unguessable token (128 bits and more, from
`secrets`), made once when its link is first asked for. A page's URL holds the token only, so
no URL names a match or a person, and none can be guessed from another."""

from __future__ import annotations

import secrets

from bot.storage.base import StoreBase
from bot.storage.rows import now_iso

TOKEN_BYTES = 18  # 144 bits, 24 URL-safe characters
KEY_BYTES = 32  # a seat link's signing key: 256 bits


def new_token() -> str:
    return secrets.token_urlsafe(TOKEN_BYTES)


class LinkStore(StoreBase):
    """Match tokens for the web pages (a part of `Store`)."""

    async def match_token(self, match_id: int) -> str:
        """The match's token, made now if it has none (of two processes making one at once,
        the first written is the one both answer)."""
        async with self.transaction() as db:
            await db.execute("INSERT INTO match_links (match_id, token, created_at)"
                             " VALUES (?, ?, ?) ON CONFLICT DO NOTHING",
                             (match_id, new_token(), now_iso()))
            return str(await db.fetchval("SELECT token FROM match_links WHERE match_id = ?",
                                         (match_id,)))

    async def match_of_token(self, token: str) -> int | None:
        """The match a token opens, or None (a token never made, or its match deleted)."""
        async with self._reading() as db:
            found = await db.fetchval("SELECT match_id FROM match_links WHERE token = ?",
                                      (token,))
        return None if found is None else int(found)

    async def seat_key(self, match_id: int) -> str:
        """The random key the match's private seat links are signed with, made now if it has
        none (kept in the database: every process sharing it signs and checks alike)."""
        token = await self.match_token(match_id)
        async with self.transaction() as db:
            await db.execute("UPDATE match_links SET seat_key = ? WHERE token = ?"
                             " AND seat_key IS NULL", (secrets.token_urlsafe(KEY_BYTES), token))
            return str(await db.fetchval("SELECT seat_key FROM match_links WHERE token = ?",
                                         (token,)))
