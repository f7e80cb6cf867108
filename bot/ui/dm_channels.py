"""Each user's DM channel, by user id. discord.py sends a DM by asking Discord for the user
(GET /users/{id}: without the members intent it caches none) and then for the DM channel
(POST /users/@me/channels), which it keeps for only the 128 newest. A user's DM channel never
changes, so it is kept here for the newest `SIZE` users: a DM to one of them is one request."""

from __future__ import annotations

from collections import OrderedDict

import discord

SIZE = 20_000  # users; about 2 MB


class DMChannels:
    def __init__(self, client: discord.Client, size: int = SIZE) -> None:
        self._client = client
        self._size = size
        self._ids: OrderedDict[int, int] = OrderedDict()

    async def of(self, user_id: int) -> discord.PartialMessageable:
        """The user's DM channel, opened (one request) if it is not known yet."""
        channel_id = self._ids.get(user_id)
        if channel_id is None:
            channel_id = (await self._client.create_dm(discord.Object(user_id))).id
        self.remember(user_id, channel_id)
        return self._client.get_partial_messageable(channel_id,
                                                    type=discord.ChannelType.private)

    def remember(self, user_id: int, channel_id: int) -> None:
        self._ids[user_id] = channel_id
        self._ids.move_to_end(user_id)
        if len(self._ids) > self._size:
            self._ids.popitem(last=False)
