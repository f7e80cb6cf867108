"""Messages as the fake stores them: content, embeds, components (nested ones too) and
attachments that keep their bytes, with the payloads Discord sends for them."""

from __future__ import annotations

import re
import struct
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from tests.fakediscord.world import FakeChannel, FakeGuild, FakeUser, _now_iso

if TYPE_CHECKING:
    from tests.fakediscord.core import FakeDiscord
    from tests.fakediscord.interactions import FakeInteraction

ATTACHMENT_SIZE_LIMIT = 10 * 1024 * 1024
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


@dataclass(eq=False)
class FakeAttachment:
    id: int
    filename: str
    data: bytes = field(repr=False)
    url: str = ""
    content_type: str | None = None
    description: str | None = None
    ephemeral: bool = False

    @property
    def size(self) -> int:
        return len(self.data)

    @property
    def is_png(self) -> bool:
        return self.data.startswith(PNG_SIGNATURE)

    @property
    def image_size(self) -> tuple[int, int] | None:
        if self.is_png and len(self.data) >= 24:
            return struct.unpack(">II", self.data[16:24])
        return None

    def payload(self) -> dict:
        d = {
            "id": str(self.id),
            "filename": self.filename,
            "size": self.size,
            "url": self.url,
            "proxy_url": self.url,
            "content_type": self.content_type,
            "ephemeral": self.ephemeral,
        }
        if self.description is not None:
            d["description"] = self.description
        dims = self.image_size
        if dims:
            d["width"], d["height"] = dims
        return d


def walk_components(components: Iterable[dict]) -> Iterator[dict]:
    """Every component in a (nested) component list: rows, buttons, selects, sections, ..."""
    for c in components or ():
        yield c
        yield from walk_components(c.get("components") or ())
        for key in ("accessory", "component"):
            if isinstance(c.get(key), dict):
                yield from walk_components([c[key]])


@dataclass(eq=False)
class FakeMessage:
    id: int
    channel: FakeChannel = field(repr=False)
    author: FakeUser
    content: str = ""
    embeds: list[dict] = field(default_factory=list)
    attachments: list[FakeAttachment] = field(default_factory=list)
    components: list[dict] = field(default_factory=list)
    flags: int = 0
    type: int = 0
    created_at: str = field(default_factory=_now_iso, repr=False)
    edited_at: str | None = field(default=None, repr=False)
    deleted: bool = False
    webhook_id: int | None = field(default=None, repr=False)
    interaction: "FakeInteraction | None" = field(default=None, repr=False)
    message_reference: dict | None = field(default=None, repr=False)
    reactions: dict[str, set[int]] = field(default_factory=dict, repr=False)
    pinned: bool = False
    tts: bool = False

    @property
    def ephemeral(self) -> bool:
        return bool(self.flags & 64)

    @property
    def loading(self) -> bool:
        return bool(self.flags & 128)

    @property
    def guild(self) -> FakeGuild | None:
        return self.channel.guild

    @property
    def files(self) -> list[tuple[str, bytes]]:
        return [(a.filename, a.data) for a in self.attachments]

    def attachment(self, filename: str) -> FakeAttachment:
        for a in self.attachments:
            if a.filename == filename:
                return a
        raise LookupError(f"no attachment {filename!r}; have {[a.filename for a in self.attachments]}")

    def all_components(self) -> list[dict]:
        return list(walk_components(self.components))

    @property
    def buttons(self) -> list[dict]:
        return [c for c in walk_components(self.components) if c.get("type") == 2]

    @property
    def selects(self) -> list[dict]:
        return [c for c in walk_components(self.components) if c.get("type") in (3, 5, 6, 7, 8)]

    def find_component(self, custom_id: str | None = None, *, label: str | None = None) -> dict | None:
        for c in walk_components(self.components):
            if custom_id is not None and c.get("custom_id") == custom_id:
                return c
            if label is not None and c.get("label") == label:
                return c
        return None

    def text(self) -> str:
        """Content plus embed texts and attachment descriptions (alt text), for loose assertions."""
        parts = [self.content]
        for e in self.embeds:
            parts += [e.get("title") or "", e.get("description") or ""]
            for f in e.get("fields") or ():
                parts += [f.get("name") or "", f.get("value") or ""]
            parts.append((e.get("footer") or {}).get("text") or "")
            parts.append((e.get("author") or {}).get("name") or "")
        for c in walk_components(self.components):
            if c.get("type") in (10,):  # text display (components v2)
                parts.append(c.get("content") or "")
        parts += [a.description or "" for a in self.attachments]
        return "\n".join(p for p in parts if p)

    def mentions(self) -> list[int]:
        return [int(m) for m in re.findall(r"<@!?(\d+)>", self.content or "")]

    def payload(self, fake: "FakeDiscord | None" = None) -> dict:
        d: dict[str, Any] = {
            "id": str(self.id),
            "channel_id": str(self.channel.id),
            "author": self.author.payload(),
            "content": self.content,
            "timestamp": self.created_at,
            "edited_timestamp": self.edited_at,
            "tts": self.tts,
            "mention_everyone": False,
            "mentions": [],
            "mention_roles": [],
            "mention_channels": [],
            "attachments": [a.payload() for a in self.attachments],
            "embeds": self.embeds,
            "reactions": [
                {"emoji": _emoji_payload(e), "count": len(u), "me": (fake is not None and fake.bot_user.id in u),
                 "me_burst": False, "burst_count": 0, "burst_colors": [],
                 "count_details": {"burst": 0, "normal": len(u)}}
                for e, u in self.reactions.items() if u
            ],
            "pinned": self.pinned,
            "type": self.type,
            "flags": self.flags,
            "components": self.components,
        }
        if fake is not None:
            d["mentions"] = [fake.users[m].payload() for m in self.mentions() if m in fake.users]
        if self.channel.guild is not None:
            d["guild_id"] = str(self.channel.guild.id)
        if self.webhook_id is not None:
            d["webhook_id"] = str(self.webhook_id)
            d["application_id"] = str(self.webhook_id)
        if self.message_reference:
            d["message_reference"] = self.message_reference
        it = self.interaction
        if it is not None:
            meta: dict[str, Any] = {
                "id": str(it.id),
                "type": it.type,
                "user": it.user.payload(),
                "authorizing_integration_owners": it.integration_owners(),
            }
            if it.message is not None:
                meta["interacted_message_id"] = str(it.message.id)
            if it.original is not None and it.original is not self:
                meta["original_response_message_id"] = str(it.original.id)
            d["interaction_metadata"] = meta
            if it.type == 2:
                d["interaction"] = {"id": str(it.id), "type": 2, "name": it.command_name, "user": it.user.payload()}
        return d


def _emoji_payload(e: str) -> dict:
    m = re.fullmatch(r"<?a?:?(\w+):(\d+)>?", e)
    if m:
        return {"id": m.group(2), "name": m.group(1)}
    return {"id": None, "name": e}
