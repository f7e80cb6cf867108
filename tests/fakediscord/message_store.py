"""How messages come to be: attachments uploaded with a request, messages made and edited from
request bodies, and the MESSAGE_* events sent to the bot."""

from __future__ import annotations

import json
import mimetypes

from tests.fakediscord.errors import _HTTPError
from tests.fakediscord.flags import Intent
from tests.fakediscord.interactions import FakeInteraction
from tests.fakediscord.messages import ATTACHMENT_SIZE_LIMIT, FakeAttachment, FakeMessage
from tests.fakediscord.world import FakeChannel, FakeUser, _now_iso


class MessageStore:
    """Making, storing, editing and announcing messages."""

    def _new_attachment(self, filename: str, data: bytes, content_type: str | None, channel_id: int,
                        description: str | None = None, ephemeral: bool = False) -> FakeAttachment:
        aid = self.new_id()
        ctype = content_type if content_type not in (None, "application/octet-stream") else None
        ctype = ctype or mimetypes.guess_type(filename)[0] or "application/octet-stream"
        a = FakeAttachment(aid, filename, data, f"{self.base_url}/attachments/{channel_id}/{aid}/{filename}",
                           ctype, description, ephemeral)
        self._attachments[aid] = a
        return a

    def _store_message(self, msg: FakeMessage) -> None:
        self._messages[msg.id] = msg
        msg.channel.messages.append(msg)
        self._events.append(("create", msg))

    async def _dispatch_message_event(self, event: str, msg: FakeMessage) -> None:
        if msg.ephemeral:
            return
        intent = Intent.DIRECT_MESSAGES if msg.channel.is_dm else Intent.GUILD_MESSAGES
        for s in self._live_sessions():
            if not self._wants(s, intent) or not s.serves(msg.guild):
                continue
            if event == "MESSAGE_DELETE":
                d = {"id": str(msg.id), "channel_id": str(msg.channel.id)}
            else:
                d = msg.payload(self)
                if msg.guild is not None:
                    m = msg.guild.member(msg.author)
                    if m is not None:
                        d["member"] = m.payload(with_user=False)
                if (
                    not s.intents & Intent.MESSAGE_CONTENT and not msg.channel.is_dm
                    and msg.author is not self.bot_user and self.bot_user.id not in msg.mentions()
                ):
                    d.update(content="", embeds=[], attachments=[], components=[])
            if msg.guild is not None:
                d["guild_id"] = str(msg.guild.id)
            await s.dispatch(event, d)

    def _attachments_from(self, payload: dict, files: list, channel: FakeChannel, existing: list[FakeAttachment],
                          ephemeral: bool, editing: bool) -> list[FakeAttachment]:
        by_index = {idx: (fn, data, ct) for idx, fn, data, ct in files}
        if "attachments" in payload and payload["attachments"] is not None:
            out = []
            old = {a.id: a for a in existing}
            for ent in payload["attachments"]:
                aid = int(ent["id"])
                if aid in by_index:
                    fn, data, ct = by_index.pop(aid)
                    out.append(self._new_attachment(ent.get("filename") or fn, data, ct, channel.id,
                                                    ent.get("description"), ephemeral))
                elif aid in old:
                    out.append(old[aid])
                else:
                    raise _HTTPError(400, 50035, "Invalid Form Body", {"attachments": f"unknown attachment id {aid}"})
            for idx, (fn, data, ct) in sorted(by_index.items()):  # files not listed: still uploaded
                out.append(self._new_attachment(fn, data, ct, channel.id, None, ephemeral))
        else:
            out = list(existing) if editing else []
            for idx, (fn, data, ct) in sorted(by_index.items()):
                out.append(self._new_attachment(fn, data, ct, channel.id, None, ephemeral))
        for a in out:
            if a.size > ATTACHMENT_SIZE_LIMIT:
                raise _HTTPError(413, 40005, "Request entity too large")
        return out

    def _resolve_embeds(self, embeds: list[dict], attachments: list[FakeAttachment]) -> list[dict]:
        out = []
        by_name = {a.filename: a for a in attachments}
        for e in embeds or []:
            e = json.loads(json.dumps(e))
            e.setdefault("type", "rich")
            for key in ("image", "thumbnail"):
                sub = e.get(key)
                if isinstance(sub, dict) and str(sub.get("url", "")).startswith("attachment://"):
                    a = by_name.get(sub["url"][len("attachment://"):])
                    if a is not None:
                        sub.update(url=a.url, proxy_url=a.url)
                        if a.image_size:
                            sub["width"], sub["height"] = a.image_size
            out.append(e)
        return out

    def _new_message_from(self, channel: FakeChannel, author: FakeUser, payload: dict, files: list, *,
                          interaction: FakeInteraction | None = None, ephemeral: bool = False, mtype: int = 0) -> FakeMessage:
        flags = int(payload.get("flags") or 0) & ((1 << 2) | (1 << 12) | (1 << 15))
        if ephemeral:
            flags |= 64
        atts = self._attachments_from(payload, files, channel, [], ephemeral, editing=False)
        embeds = self._resolve_embeds(payload.get("embeds") or [], atts)
        content = payload.get("content") or ""
        comps = payload.get("components") or []
        if not (content or embeds or atts or comps or payload.get("sticker_ids") or payload.get("poll")):
            raise _HTTPError(400, 50006, "Cannot send an empty message")
        msg = FakeMessage(
            self.new_id(), channel, author, content=str(content), embeds=embeds, attachments=atts,
            components=comps, flags=flags, type=mtype, tts=bool(payload.get("tts")),
            webhook_id=self.application_id if interaction is not None else None, interaction=interaction,
            message_reference=payload.get("message_reference"),
        )
        if msg.message_reference:
            msg.type = 19
        return msg

    def _edit_message(self, msg: FakeMessage, payload: dict, files: list) -> None:
        if "attachments" in payload or files:
            msg.attachments = self._attachments_from(payload, files, msg.channel, msg.attachments, msg.ephemeral, editing=True)
        if "content" in payload:
            msg.content = payload["content"] or ""
        if "embeds" in payload:
            msg.embeds = self._resolve_embeds(payload["embeds"] or [], msg.attachments)
        if "components" in payload:
            msg.components = payload["components"] or []
        if payload.get("flags") is not None:
            msg.flags = (msg.flags & ~4) | (int(payload["flags"]) & 4)
        msg.flags &= ~128
        msg.edited_at = _now_iso()
        self._events.append(("edit", msg))
