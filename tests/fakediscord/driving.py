"""Driving the bot as people would: slash commands, autocomplete, clicks, selects, modals and
plain messages, each waited on until the bot is idle; and raw interactions with any data (for
fuzzing), sent at once or waited on."""

from __future__ import annotations

import dataclasses
import secrets
from typing import Any, Iterable

from tests.fakediscord.errors import BotError
from tests.fakediscord.interactions import FakeInteraction, InteractionResult
from tests.fakediscord.messages import FakeAttachment, FakeMessage
from tests.fakediscord.world import FakeChannel, FakeGuild, FakeMember, FakeRole, FakeUser, _id_of


class Driving:
    """Interactions and messages from users, built from the commands the bot synced."""

    async def slash(self, user: FakeUser, channel: FakeChannel | FakeUser, command: str, /, **options: Any) -> InteractionResult:
        channel = self._resolve_channel(channel)
        data, name = self._command_data(user, channel, command, options, focused=None)
        return await self._interact(2, user, channel, data, command_name=name)

    async def autocomplete(
        self, user: FakeUser, channel: FakeChannel | FakeUser, command: str, focused: str, /, **options: Any
    ) -> list[dict]:
        channel = self._resolve_channel(channel)
        data, name = self._command_data(user, channel, command, options, focused=focused)
        res = await self._interact(4, user, channel, data, command_name=name)
        if res.choices is None:
            raise AssertionError(f"bot did not answer the autocomplete (response type {res.response_type})")
        return res.choices

    async def click(
        self, user: FakeUser, message: FakeMessage | int, custom_id: str | None = None, /, *, label: str | None = None
    ) -> InteractionResult:
        msg = self._resolve_message(message)
        comp = msg.find_component(custom_id, label=label)
        if comp is None or comp.get("type") != 2:
            raise LookupError(
                f"no button {custom_id or label!r} on message {msg.id}; buttons: "
                f"{[(b.get('label'), b.get('custom_id')) for b in msg.buttons]}"
            )
        if comp.get("disabled"):
            raise ValueError(f"button {comp.get('label') or comp.get('custom_id')!r} is disabled")
        if "custom_id" not in comp:
            raise ValueError("link/premium buttons do not create interactions")
        data = {"custom_id": comp["custom_id"], "component_type": 2}
        if "id" in comp:
            data["id"] = comp["id"]
        return await self._interact(3, user, msg.channel, data, message=msg)

    async def select(
        self, user: FakeUser, message: FakeMessage | int, custom_id: str, values: list[Any], /
    ) -> InteractionResult:
        msg = self._resolve_message(message)
        comp = msg.find_component(custom_id)
        if comp is None or comp.get("type") not in (3, 5, 6, 7, 8):
            raise LookupError(f"no select {custom_id!r} on message {msg.id}")
        if comp.get("disabled"):
            raise ValueError(f"select {custom_id!r} is disabled")
        lo, hi = comp.get("min_values", 1), comp.get("max_values", 1)
        if not lo <= len(values) <= hi:
            raise ValueError(f"select {custom_id!r} takes {lo}..{hi} values, got {len(values)}")
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": comp["type"]}
        if comp["type"] == 3:
            allowed = [o["value"] for o in comp.get("options", [])]
            bad = [v for v in values if v not in allowed]
            if bad:
                raise ValueError(f"values {bad} not among the options {allowed}")
            data["values"] = list(values)
        else:
            resolved: dict[str, dict] = {}
            data["values"] = [str(_id_of(v)) for v in values]
            for v in values:
                self._resolve_into(resolved, v, msg.channel)
            data["resolved"] = resolved
        return await self._interact(3, user, msg.channel, data, message=msg)

    async def submit_modal(self, user: FakeUser, result: InteractionResult, values: dict[str, str]) -> InteractionResult:
        """Submit the modal the bot answered ``result``'s interaction with."""
        modal = result.modal
        if modal is None:
            raise AssertionError("that interaction was not answered with a modal")
        rows = []
        for comp in modal.get("components", []):
            if comp.get("type") == 1:
                rows.append({"type": 1, "components": [
                    {"type": c["type"], "custom_id": c["custom_id"], "value": values.get(c["custom_id"], c.get("value", ""))}
                    for c in comp.get("components", []) if c.get("type") == 4
                ]})
            elif comp.get("type") == 18 and isinstance(comp.get("component"), dict):
                c = comp["component"]
                sub = {"type": c["type"], "custom_id": c.get("custom_id")}
                if c["type"] == 4:
                    sub["value"] = values.get(c["custom_id"], c.get("value", ""))
                else:
                    sub["values"] = values.get(c["custom_id"], [])
                rows.append({"type": 18, "id": comp.get("id", 0), "component": sub})
        data = {"custom_id": modal["custom_id"], "components": rows}
        it = result.interaction
        return await self._interact(5, user, it.channel, data, message=it.message)

    # ---------------------------------------------------------------- raw interactions (fuzzing)

    async def raw_component(self, user: FakeUser, message: FakeMessage | int, data: dict, /, *,
                            components: list[dict] | None = None) -> InteractionResult:
        """A component interaction with any ``data`` (custom_id, component_type, values...), not
        checked against the message: what a forged or very old client sends. With
        ``components`` the interaction's message carries those instead of its own, as a message
        an older version of the bot posted would (the stored message is left as it is)."""
        msg = self._resolve_message(message)
        if components is not None:
            msg = dataclasses.replace(msg, components=components)
        return await self._interact(3, user, msg.channel, dict(data), message=msg)

    async def dispatch_raw(self, itype: int, user: FakeUser, channel: FakeChannel | FakeUser,
                           data: dict, /, *, message: FakeMessage | None = None,
                           components: list[dict] | None = None) -> FakeInteraction:
        """Send one interaction of type ``itype`` with any ``data`` and return at once, so many
        can be in flight together (``raw_component`` for ``components``). ``await wait_idle()``
        afterwards, then read its ``response_type``, ``original``, ``followups``, ``choices``."""
        if message is not None and components is not None:
            message = dataclasses.replace(message, components=components)
        channel = message.channel if message is not None else self._resolve_channel(channel)
        iid = self.new_id()
        it = FakeInteraction(iid, f"itoken.{iid}.{secrets.token_urlsafe(16)}", itype, user,
                             channel, dict(data), self, message=message, locale=user.locale,
                             command_name=str(data.get("name", "")) if itype in (2, 4) else "")
        self._interactions[iid] = it
        self._interactions_by_token[it.token] = it
        await self._session(channel.guild).dispatch("INTERACTION_CREATE", it.payload())
        return it

    async def gateway_event(self, event: str, data: dict, /, *,
                            guild: FakeGuild | None = None) -> int:
        """Send one raw gateway dispatch ``event`` with any ``data``, unchecked and not
        recorded anywhere (what a buggy or future Discord might send: an interaction without
        its custom_id, say), to the live session serving ``guild`` (None: shard 0), and wait
        until the bot is idle. Returns the event's sequence number."""
        await self._flush_own()
        seq = await self._session(guild).dispatch(event, data)
        await self.wait_idle()
        return seq

    def interaction_payload(self, itype: int, user: FakeUser, channel: FakeChannel | FakeUser,
                            data: dict, /, *, message: FakeMessage | None = None) -> dict:
        """The INTERACTION_CREATE payload an interaction of ``itype`` with ``data`` would
        have, for ``gateway_event`` to send altered (the fake keeps no record of it, so the
        bot's answer to it, if any, is refused as an unknown interaction)."""
        channel = message.channel if message is not None else self._resolve_channel(channel)
        iid = self.new_id()
        it = FakeInteraction(iid, f"itoken.{iid}.{secrets.token_urlsafe(16)}", itype, user,
                             channel, dict(data), self, message=message, locale=user.locale)
        return it.payload()

    async def slash_nowait(self, user: FakeUser, channel: FakeChannel | FakeUser, command: str, /,
                           **options: Any) -> FakeInteraction:
        """``slash`` without waiting for the bot: send the command and return the
        FakeInteraction at once. For bots in other processes, whose work the fake cannot see:
        ``await interaction.answered.wait()`` (its first callback; ``answered_at``), then read
        ``response_type``, ``original``, ``followups`` as they arrive."""
        channel = self._resolve_channel(channel)
        data, _ = self._command_data(user, channel, command, options, focused=None)
        return await self.dispatch_raw(2, user, channel, data)

    async def raw_command(self, user: FakeUser, channel: FakeChannel | FakeUser, data: dict, /, *,
                          autocomplete: bool = False) -> InteractionResult:
        """A slash command (or, with ``autocomplete``, an autocomplete) interaction with any
        ``data``: names, option types and values Discord would build from commands synced long
        ago, or from no command at all."""
        channel = self._resolve_channel(channel)
        return await self._interact(4 if autocomplete else 2, user, channel, dict(data),
                                    command_name=str(data.get("name", "")))

    async def send(self, user: FakeUser, channel: FakeChannel | FakeUser, content: str) -> FakeMessage:
        """A user posts a plain message (dispatched as MESSAGE_CREATE)."""
        channel = self._resolve_channel(channel)
        msg = FakeMessage(self.new_id(), channel, user, content=content)
        self._store_message(msg)
        await self._flush_own()
        await self._dispatch_message_event("MESSAGE_CREATE", msg)
        await self.wait_idle()
        return msg

    def _resolve_channel(self, channel: FakeChannel | FakeUser) -> FakeChannel:
        return self.dm_channel(channel) if isinstance(channel, FakeUser) else channel

    def _resolve_message(self, message: FakeMessage | int) -> FakeMessage:
        msg = self._messages.get(_id_of(message))
        if msg is None or msg.deleted:
            raise LookupError(f"message {_id_of(message)} does not exist (or was deleted)")
        return msg

    def _find_command(self, channel: FakeChannel, name: str) -> dict | None:
        pools = []
        if channel.guild is not None:
            pools.append(self.guild_commands.get(channel.guild.id, []))
        pools.append(self.global_commands)
        for pool in pools:
            for c in pool:
                if c["name"] == name and c.get("type", 1) == 1:
                    return c
        return None

    def _command_data(self, user: FakeUser, channel: FakeChannel, command: str, options: dict, *, focused: str | None) -> tuple[dict, str]:
        parts = command.split()
        cmd = self._find_command(channel, parts[0])
        if cmd is None:
            names = sorted({c["name"] for c in self.global_commands} | {
                c["name"] for c in self.guild_commands.get(channel.guild.id if channel.guild else 0, [])})
            raise LookupError(f"no synced slash command {parts[0]!r} here; synced: {names}")
        container: dict = cmd
        path: list[dict] = []
        for part in parts[1:]:
            sub = next((o for o in container.get("options", []) if o["name"] == part and o["type"] in (1, 2)), None)
            if sub is None:
                raise LookupError(f"{command!r}: no subcommand {part!r}")
            path.append(sub)
            container = sub
        if any(o["type"] in (1, 2) for o in container.get("options", [])):
            raise LookupError(f"{command!r} needs a subcommand: {[o['name'] for o in container['options']]}")
        if focused is not None and focused not in {o["name"] for o in container.get("options", [])}:
            raise LookupError(f"{command!r} has no option {focused!r}")
        resolved: dict[str, dict] = {}
        built = []
        defs = {o["name"]: o for o in container.get("options", [])}
        unknown = set(options) - set(defs)
        if unknown:
            raise TypeError(f"{command!r} has no option(s) {sorted(unknown)}; options: {sorted(defs)}")
        for name, o in defs.items():
            if name == focused:
                built.append({"name": name, "type": o["type"], "value": str(options.get(name, "")), "focused": True})
                continue
            if name not in options:
                if o.get("required") and focused is None:
                    raise TypeError(f"{command!r}: required option {name!r} missing")
                continue
            built.append({"name": name, "type": o["type"], "value": self._option_value(o, options[name], resolved, channel, focused is None)})
        for sub in reversed(path):
            built = [{"name": sub["name"], "type": sub["type"], "options": built}]
        data: dict[str, Any] = {"id": cmd["id"], "name": cmd["name"], "type": 1, "options": built}
        if cmd.get("guild_id"):
            data["guild_id"] = cmd["guild_id"]
        if resolved:
            data["resolved"] = resolved
        return data, " ".join(parts)

    def _option_value(self, o: dict, value: Any, resolved: dict, channel: FakeChannel, validate: bool) -> Any:
        t = o["type"]
        name = o["name"]
        if t == 3:
            value = str(value)
            if validate and o.get("min_length") is not None and len(value) < o["min_length"]:
                raise ValueError(f"option {name!r}: shorter than {o['min_length']}")
            if validate and o.get("max_length") is not None and len(value) > o["max_length"]:
                raise ValueError(f"option {name!r}: longer than {o['max_length']}")
        elif t == 4:
            if isinstance(value, bool) or int(value) != value:
                raise TypeError(f"option {name!r} is an integer, got {value!r}")
            value = int(value)
        elif t == 5:
            if not isinstance(value, bool):
                raise TypeError(f"option {name!r} is a boolean, got {value!r}")
        elif t == 10:
            value = float(value)
        elif t in (6, 7, 8, 9, 11):
            self._resolve_into(resolved, value, channel, expect=t)
            return str(_id_of(value))
        if validate and t in (4, 10):
            if o.get("min_value") is not None and value < o["min_value"]:
                raise ValueError(f"option {name!r}: below {o['min_value']}")
            if o.get("max_value") is not None and value > o["max_value"]:
                raise ValueError(f"option {name!r}: above {o['max_value']}")
        if validate and o.get("choices"):
            allowed = [c["value"] for c in o["choices"]]
            if value not in allowed:
                raise ValueError(f"option {name!r}: {value!r} is not one of the choices {allowed}")
        return value

    def _resolve_into(self, resolved: dict, value: Any, channel: FakeChannel, expect: int | None = None) -> None:
        guild = channel.guild
        if isinstance(value, FakeMember):
            value = value.user
        if isinstance(value, int) and value in self.users:
            value = self.users[value]
        if isinstance(value, FakeUser) and expect in (None, 6, 9):
            resolved.setdefault("users", {})[str(value.id)] = value.payload()
            m = guild.member(value) if guild else None
            if m is not None:
                resolved.setdefault("members", {})[str(value.id)] = m.payload(with_user=False, with_permissions=True)
        elif isinstance(value, FakeRole) and expect in (None, 8, 9):
            resolved.setdefault("roles", {})[str(value.id)] = value.payload()
        elif isinstance(value, FakeChannel) and expect in (None, 7):
            p = value.payload()
            m = guild.member(self.bot_user) if guild else None
            entry = {"id": p["id"], "name": value.name, "type": value.type,
                     "permissions": str(m.permissions() if m else 0), "flags": 0}
            if value.guild is not None:
                entry["guild_id"] = str(value.guild.id)
            resolved.setdefault("channels", {})[str(value.id)] = entry
        elif isinstance(value, FakeAttachment) and expect in (None, 11):
            resolved.setdefault("attachments", {})[str(value.id)] = value.payload()
        else:
            raise TypeError(f"cannot use {value!r} for an option/select of type {expect}")

    async def _interact(
        self, itype: int, user: FakeUser, channel: FakeChannel, data: dict, *, message: FakeMessage | None = None,
        command_name: str = "",
    ) -> InteractionResult:
        if channel.guild is not None and channel.guild.member(user) is None:
            raise ValueError(f"{user.name} is not a member of {channel.guild.name}")
        await self._flush_own()
        session = self._session(channel.guild)
        iid = self.new_id()
        it = FakeInteraction(
            iid, f"itoken.{iid}.{secrets.token_urlsafe(16)}", itype, user, channel, data, self,
            message=message, command_name=command_name, locale=user.locale,
        )
        self._interactions[iid] = it
        self._interactions_by_token[it.token] = it
        ev0, rq0, er0 = len(self._events), len(self.request_log), len(self.errors)
        failed_before = {id(t) for t in self._tracked if t.done()}
        await session.dispatch("INTERACTION_CREATE", it.payload())
        await self.wait_idle()
        errors = self.errors[er0:] + self._unretrieved_task_errors(failed_before)
        events = self._events[ev0:]
        res = InteractionResult(
            it,
            new_messages=_uniq(m for k, m in events if k == "create"),
            edited=_uniq(m for k, m in events if k == "edit"),
            deleted=_uniq(m for k, m in events if k == "delete"),
            errors=errors,
            requests=self.request_log[rq0:],
        )
        if errors and self.raise_bot_errors and not self._expect_errors:
            raise BotError("the bot reported errors while handling the interaction:\n" + "\n".join(errors))
        return res


def _uniq(items: Iterable[FakeMessage]) -> list[FakeMessage]:
    out: list[FakeMessage] = []
    for m in items:
        if m not in out:
            out.append(m)
    return out
