"""An interaction the fake sends the bot, and what a test reads back once the bot has handled
it (InteractionResult)."""

from __future__ import annotations

import asyncio
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from tests.fakediscord.flags import Perm
from tests.fakediscord.messages import ATTACHMENT_SIZE_LIMIT, FakeAttachment, FakeMessage
from tests.fakediscord.rest import RequestRecord
from tests.fakediscord.world import FakeChannel, FakeGuild, FakeUser

if TYPE_CHECKING:
    from tests.fakediscord.core import FakeDiscord


@dataclass(eq=False)
class FakeInteraction:
    id: int
    token: str
    type: int
    user: FakeUser
    channel: FakeChannel
    data: dict
    fake: "FakeDiscord" = field(repr=False)
    message: FakeMessage | None = None  # the message a component was on
    command_name: str = ""
    response_type: int | None = None
    original: FakeMessage | None = None
    followups: list[FakeMessage] = field(default_factory=list)
    choices: list[dict] | None = None
    modal: dict | None = None
    activity_instance: str | None = None  # LAUNCH_ACTIVITY (12): the instance launched
    locale: str = "en-US"
    # set when the bot's first callback arrives (time.perf_counter()): a bot in another
    # process cannot be waited for with wait_idle(), its answer can
    answered_at: float | None = None
    answered: asyncio.Event = field(default_factory=asyncio.Event, repr=False)

    @property
    def guild(self) -> FakeGuild | None:
        return self.channel.guild

    def integration_owners(self) -> dict:
        return {"0": str(self.guild.id)} if self.guild else {"1": str(self.user.id)}

    def payload(self) -> dict:
        fake = self.fake
        d: dict[str, Any] = {
            "id": str(self.id),
            "application_id": str(fake.application_id),
            "type": self.type,
            "data": self.data,
            "token": self.token,
            "version": 1,
            "channel_id": str(self.channel.id),
            "locale": self.locale,
            "entitlements": [],
            "entitlement_sku_ids": [],
            "authorizing_integration_owners": self.integration_owners(),
            "attachment_size_limit": ATTACHMENT_SIZE_LIMIT,
        }
        g = self.guild
        if g is not None:
            member = g.member(self.user)
            assert member is not None
            d["guild_id"] = str(g.id)
            d["guild"] = {"id": str(g.id), "locale": "en-US", "features": []}
            d["guild_locale"] = "en-US"
            d["member"] = member.payload(with_permissions=True)
            d["channel"] = self.channel.payload(permissions=member.permissions())
            d["app_permissions"] = str(fake._bot_perms_in(self.channel))
            d["context"] = 0
        else:
            d["user"] = self.user.payload()
            d["channel"] = self.channel.payload()
            d["app_permissions"] = str(Perm.EVERYONE_DEFAULT)
            d["context"] = 1
        if self.message is not None:
            d["message"] = self.message.payload(fake)
        return d


@dataclass(eq=False)
class InteractionResult:
    """What happened while the bot handled one interaction (until it was idle again)."""

    interaction: FakeInteraction
    new_messages: list[FakeMessage]
    edited: list[FakeMessage]
    deleted: list[FakeMessage]
    errors: list[str]
    requests: list[RequestRecord]

    @property
    def response_type(self) -> int | None:
        return self.interaction.response_type

    @property
    def message(self) -> FakeMessage | None:
        """The original response: the message created (type 4/5) or updated (6/7)."""
        return self.interaction.original

    @property
    def content(self) -> str | None:
        return self.message.content if self.message else None

    @property
    def embeds(self) -> list[dict]:
        return self.message.embeds if self.message else []

    @property
    def files(self) -> list[tuple[str, bytes]]:
        return self.message.files if self.message else []

    @property
    def attachments(self) -> list[FakeAttachment]:
        return self.message.attachments if self.message else []

    @property
    def components(self) -> list[dict]:
        return self.message.components if self.message else []

    @property
    def buttons(self) -> list[dict]:
        return self.message.buttons if self.message else []

    @property
    def ephemeral(self) -> bool:
        return bool(self.message and self.message.ephemeral)

    @property
    def followups(self) -> list[FakeMessage]:
        return self.interaction.followups

    @property
    def choices(self) -> list[dict] | None:
        return self.interaction.choices

    @property
    def modal(self) -> dict | None:
        return self.interaction.modal

    @property
    def dms(self) -> list[FakeMessage]:
        return [m for m in self.new_messages if m.channel.is_dm]

    @property
    def channel_messages(self) -> list[FakeMessage]:
        """New, non-ephemeral messages in guild channels (including a public response)."""
        return [m for m in self.new_messages if not m.channel.is_dm and not m.ephemeral]

    @property
    def all_messages(self) -> list[FakeMessage]:
        """Original response (if any) followed by the followups, without duplicates."""
        out: list[FakeMessage] = []
        for m in ([self.message] if self.message else []) + self.followups:
            if m not in out:
                out.append(m)
        return out

    def text(self) -> str:
        return "\n".join(m.text() for m in self.all_messages)
