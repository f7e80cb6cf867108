"""The bot's answers to interactions: the callback (one per interaction) and the interaction's
webhook, for follow-ups and for reading, editing and deleting its messages."""

from __future__ import annotations

import time
from typing import Any

from tests.fakediscord.errors import _HTTPError
from tests.fakediscord.interactions import FakeInteraction
from tests.fakediscord.messages import FakeMessage


class Callbacks:
    """The interaction callback and webhook routes."""

    # 12: LAUNCH_ACTIVITY, for a command or a component (the app's Activity opens)
    _ALLOWED_CALLBACKS = {2: {4, 5, 9, 12}, 3: {4, 5, 6, 7, 9, 12}, 4: {8}, 5: {4, 5, 6, 7}}

    async def _r_callback(self, request, payload, files, iid, token):
        it = self._interactions.get(int(iid))
        if it is None or it.token != token:
            raise _HTTPError(404, 10062, "Unknown interaction")
        if it.response_type is not None:
            raise _HTTPError(400, 40060, "Interaction has already been acknowledged.")
        t = int(payload["type"])
        data = payload.get("data") or {}
        if t not in self._ALLOWED_CALLBACKS.get(it.type, set()) or (t in (6, 7) and it.message is None):
            raise _HTTPError(400, 50035, "Invalid Form Body", {"type": f"callback type {t} not valid for interaction type {it.type}"})
        ephemeral = bool(int(data.get("flags") or 0) & 64)
        if t == 4:
            msg = self._new_message_from(it.channel, self.bot_user, data, files, interaction=it, ephemeral=ephemeral,
                                         mtype=20 if it.type == 2 else 0)
            self._store_message(msg)
            it.original = msg
        elif t == 5:
            msg = FakeMessage(self.new_id(), it.channel, self.bot_user, flags=128 | (64 if ephemeral else 0),
                              type=20 if it.type == 2 else 0, webhook_id=self.application_id, interaction=it)
            self._store_message(msg)
            it.original = msg
        elif t in (6, 7):
            it.original = it.message
            if t == 7:
                self._edit_message(it.message, data, files)  # type: ignore[arg-type]
        elif t == 8:
            it.choices = data.get("choices") or []
        elif t == 9:
            it.modal = data
        elif t == 12:
            it.activity_instance = f"i-{self.new_id()}"
        it.response_type = t
        it.answered_at = time.perf_counter()
        it.answered.set()
        if t in (4, 5):
            await self._dispatch_message_event("MESSAGE_CREATE", it.original)  # type: ignore[arg-type]
        elif t == 7:
            await self._dispatch_message_event("MESSAGE_UPDATE", it.original)  # type: ignore[arg-type]
        if request.query.get("with_response") not in ("1", "true", "True"):
            return None
        inter: dict[str, Any] = {"id": str(it.id), "type": it.type}
        out: dict[str, Any] = {"interaction": inter}
        if it.original is not None and t in (4, 5, 6, 7):
            inter.update(
                response_message_id=str(it.original.id),
                response_message_loading=t == 5,
                response_message_ephemeral=it.original.ephemeral,
            )
        if t in (4, 5, 7):
            out["resource"] = {"type": t, "message": it.original.payload(self)}  # type: ignore[union-attr]
        elif t == 12:
            inter["activity_instance_id"] = it.activity_instance
            out["resource"] = {"type": t, "activity_instance": {"id": it.activity_instance}}
        return out

    def _webhook_interaction(self, app: str, token: str) -> FakeInteraction:
        it = self._interactions_by_token.get(token)
        if it is None or int(app) != self.application_id or it.response_type is None:
            raise _HTTPError(404, 10015, "Unknown Webhook")
        return it

    def _webhook_message(self, it: FakeInteraction, message: str) -> FakeMessage:
        if message == "@original":
            msg = it.original
        else:
            msg = self._messages.get(int(message))
            if msg is not None and msg.interaction is not it and msg is not it.original:
                msg = None
        if msg is None or msg.deleted:
            raise _HTTPError(404, 10008, "Unknown Message")
        return msg

    async def _r_followup(self, request, payload, files, app, token):
        it = self._webhook_interaction(app, token)
        payload = payload or {}
        orig = it.original
        if orig is not None and orig.loading and it.response_type == 5:
            # Discord: the first followup after a deferred ("thinking") response replaces it
            self._edit_message(orig, {k: v for k, v in payload.items() if k != "flags"}, files)
            it.followups.append(orig)
            await self._dispatch_message_event("MESSAGE_UPDATE", orig)
            msg = orig
        else:
            ephemeral = bool(int(payload.get("flags") or 0) & 64)
            msg = self._new_message_from(it.channel, self.bot_user, payload, files, interaction=it, ephemeral=ephemeral,
                                         mtype=20 if it.type == 2 else 0)
            self._store_message(msg)
            it.followups.append(msg)
            await self._dispatch_message_event("MESSAGE_CREATE", msg)
        if request.query.get("wait") in ("1", "true", "True"):
            return msg.payload(self)
        return None

    async def _r_wh_get(self, request, payload, files, app, token, message):
        return self._webhook_message(self._webhook_interaction(app, token), message).payload(self)

    async def _r_wh_edit(self, request, payload, files, app, token, message):
        msg = self._webhook_message(self._webhook_interaction(app, token), message)
        self._edit_message(msg, payload or {}, files)
        await self._dispatch_message_event("MESSAGE_UPDATE", msg)
        return msg.payload(self)

    async def _r_wh_delete(self, request, payload, files, app, token, message):
        msg = self._webhook_message(self._webhook_interaction(app, token), message)
        await self._delete(msg)
        return None
