"""What a test reads back from the world: messages (as a user sees them too), commands, the
request log, where a text appears; and a block in which bot errors are only reported."""

from __future__ import annotations

import contextlib
import json
from typing import Iterator

from tests.fakediscord.messages import FakeMessage
from tests.fakediscord.world import FakeChannel, FakeGuild, FakeUser, _id_of


class Queries:
    """Reading the world back."""

    def messages(self, channel: FakeChannel | FakeUser, *, include_ephemeral: bool = False) -> list[FakeMessage]:
        if isinstance(channel, FakeUser):
            channel = self.dm_channel(channel)
        return [m for m in channel.messages if not m.deleted and (include_ephemeral or not m.ephemeral)]

    def dm_messages(self, user: FakeUser) -> list[FakeMessage]:
        return self.messages(self.dm_channel(user))

    def visible_messages(self, channel: FakeChannel, user: FakeUser) -> list[FakeMessage]:
        """What ``user`` sees in ``channel``: public messages plus ephemerals addressed to them."""
        return [
            m for m in channel.messages
            if not m.deleted and (not m.ephemeral or (m.interaction is not None and m.interaction.user is user))
        ]

    def get_message(self, message_id: int | FakeMessage) -> FakeMessage:
        return self._messages[_id_of(message_id)]

    def commands(self, guild: FakeGuild | None = None) -> list[dict]:
        return self.global_commands if guild is None else self.guild_commands.get(guild.id, [])

    @property
    def requests(self) -> list[tuple[str, str]]:
        return [(r.method, r.path) for r in self.request_log]

    def search(self, needle: str) -> list[str]:
        """Where ``needle`` shows up in stored messages, attachments, embeds, components, commands."""
        hits = []
        nb = needle.encode()
        for m in self._messages.values():
            if needle in json.dumps(m.payload()):
                hits.append(f"message {m.id} in {m.channel.name}")
            for a in m.attachments:
                if nb in a.data or needle in a.filename:
                    hits.append(f"attachment {a.filename} of message {m.id}")
        for cmds in [self.global_commands, *self.guild_commands.values()]:
            if needle in json.dumps(cmds):
                hits.append("application commands")
        return hits

    @contextlib.contextmanager
    def expect_errors(self) -> Iterator[None]:
        """Within this block bot errors are reported in ``result.errors`` but not raised."""
        self._expect_errors += 1
        try:
            yield
        finally:
            self._expect_errors -= 1
