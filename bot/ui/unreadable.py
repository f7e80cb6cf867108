"""Interactions the bot cannot read, answered with one short ephemeral line.

discord.py drops a click that no live view or dynamic item takes without a word, and raises
(or logs a traceback) for a command whose data does not fit today's definitions: a button left
by an older version of the bot, a custom id that does not parse, a client that synced the
commands long ago. Both are spotted here before anything runs:

* `answer_unclaimed` (an `on_interaction` listener) answers a component interaction (or a
  form) exactly when discord.py hands it to nobody, by asking the view store discord.py
  dispatches from (it has no public API for the question);
* `command_problem` reads a command or autocomplete against the commands the tree has now; the
  tree's `interaction_check` answers when it finds a problem and stops the command there.
"""

from __future__ import annotations

import logging
import math
import re
from collections.abc import Iterator, Sequence
from typing import Any

import discord
from discord import app_commands

from i18n import ENGLISH_VOICE, Text, Voice, Words, _, lines

log = logging.getLogger(__name__)

OLD_CONTROL = _("That button or menu belongs to an older version of this message, so I cannot "
                "use it. `/match status` shows the table as it is now.")
OLD_FORM = _("That form belongs to an older version of Gamenight, so I cannot read it. "
             "Nothing changed.")
STALE_COMMAND = _("That command has changed since your Discord app last loaded it. Reload "
                  "Discord (Ctrl+R, or restart the app) and try it again.")
SERVER_ONLY = _("That command works in a server channel, not here.")

MAX_TEXT = 6000  # Discord's longest string option
MAX_INTEGER = 2**53  # Discord's integer options stay within ±2^53
SNOWFLAKE = re.compile(r"[0-9]{1,20}")
AnyCommand = app_commands.Command | app_commands.Group


# --------------------------------------------------------------------------- components


def _view_store(client: discord.Client) -> Any:
    return client._connection._view_store  # noqa: SLF001 - where discord.py dispatches from


def _walk(components: Sequence[discord.Component]) -> Iterator[discord.Component]:
    for component in components:
        yield component
        yield from _walk(getattr(component, "children", ()))
        accessory = getattr(component, "accessory", None)
        if accessory is not None:
            yield from _walk([accessory])


def claimed(interaction: discord.Interaction) -> bool:
    """Whether discord.py hands this component interaction (or modal) to a live view, a
    dynamic item or a modal (the same lookups as its `ViewStore.dispatch_view`)."""
    data: dict = interaction.data or {}  # type: ignore[assignment]
    store = _view_store(interaction.client)
    if interaction.type is discord.InteractionType.modal_submit:
        return data.get("custom_id") in store._modals  # noqa: SLF001
    key = (data.get("component_type"), data.get("custom_id"))
    message = interaction.message
    on_message = message is not None and any(
        (component.type.value, getattr(component, "custom_id", None)) == key
        for component in _walk(message.components))
    if on_message and any(pattern.fullmatch(str(key[1]))
                          for pattern in store._dynamic_items):  # noqa: SLF001
        return True
    views = store._views  # noqa: SLF001
    item = views.get(message.id, {}).get(key) if message is not None else None
    if item is None:
        item = views.get(None, {}).get(key)
    return item is not None and item.view is not None


async def answer_unclaimed(interaction: discord.Interaction) -> None:
    """Answer a click, menu choice or form that nothing in the bot takes any more."""
    if interaction.type not in (discord.InteractionType.component,
                                discord.InteractionType.modal_submit) or claimed(interaction):
        return
    log.info("unclaimed component %r from user %s", (interaction.data or {}).get("custom_id"),
             interaction.user.id)
    form = interaction.type is discord.InteractionType.modal_submit
    await answer(interaction, OLD_FORM if form else OLD_CONTROL)


async def voice_of(interaction: discord.Interaction) -> Voice:
    """The voice of the person behind `interaction` (English if it cannot be known: no bot
    languages yet, or the store failing while an error is being reported)."""
    languages = getattr(getattr(interaction, "client", None), "languages", None)
    if languages is None:
        return ENGLISH_VOICE
    try:
        return await languages.reader(interaction)
    except Exception:  # an answer in English beats none
        log.exception("could not read the language of user %s", interaction.user.id)
        return ENGLISH_VOICE


async def answer(interaction: discord.Interaction, text: Words | str) -> None:
    """One ephemeral line in the reader's language (an empty list for an autocomplete);
    Discord's refusal is logged."""
    try:
        if interaction.type is discord.InteractionType.autocomplete:
            await interaction.response.autocomplete([])
        else:
            voice = await voice_of(interaction)
            await interaction.response.send_message(voice(text), ephemeral=True)
    except discord.HTTPException as error:
        log.warning("could not answer interaction %s: %s", interaction.id, error)


# --------------------------------------------------------------------------- commands


def command_problem(tree: app_commands.CommandTree,
                    interaction: discord.Interaction) -> Words | None:
    """What to tell the user when a slash command or autocomplete does not fit the command
    the tree has now (None: it fits, so run it)."""
    data: dict = interaction.data or {}  # type: ignore[assignment]
    if data.get("type", 1) != 1:
        return None  # a context menu: the tree checks those itself
    found = _find_command(tree, data)
    if found is None:
        return STALE_COMMAND
    command, options = found
    if interaction.guild_id is None and _server_only(command):
        return SERVER_ONLY
    autocomplete = interaction.type is discord.InteractionType.autocomplete
    return _options_problem(command, options, autocomplete=autocomplete)


def _find_command(tree: app_commands.CommandTree,
                  data: dict) -> tuple[app_commands.Command, list] | None:
    """The command `data` names, down its subcommands, with the options it was given."""
    guild_id = data.get("guild_id")
    command: AnyCommand | None = None
    name = data.get("name")
    if isinstance(name, str):
        if isinstance(guild_id, str) and SNOWFLAKE.fullmatch(guild_id):
            command = tree.get_command(name, guild=discord.Object(int(guild_id)))
        if command is None:
            command = tree.get_command(name)
    options = data.get("options", [])
    while isinstance(command, app_commands.Group) and isinstance(options, list):
        subs = [o for o in options if isinstance(o, dict) and o.get("type") in (1, 2)]
        if len(subs) != 1 or len(options) != 1 or not isinstance(subs[0].get("name"), str):
            return None
        command = command.get_command(subs[0]["name"])
        options = subs[0].get("options", [])
    if not isinstance(command, app_commands.Command) or not isinstance(options, list):
        return None
    return command, options


def _server_only(command: AnyCommand) -> bool:
    node: AnyCommand | None = command
    while node is not None:
        if node.guild_only:
            return True
        node = node.parent
    return False


def _options_problem(command: app_commands.Command, options: list,
                     *, autocomplete: bool) -> Words | None:
    params = {param.display_name: param for param in command.parameters}
    names = [o["name"] if isinstance(o, dict) and isinstance(o.get("name"), str) else None
             for o in options]
    if len(set(names)) != len(names) or not all(name in params for name in names):
        return STALE_COMMAND
    focused = [o for o in options if o.get("focused")]
    if autocomplete:
        if len(focused) != 1 or not params[focused[0]["name"]].autocomplete:
            return STALE_COMMAND
    elif focused or any(p.required and p.display_name not in names for p in params.values()):
        return STALE_COMMAND
    for option in options:
        param = params[option["name"]]
        if option.get("type") != param.type.value:
            return STALE_COMMAND
        value, typing = option.get("value"), bool(option.get("focused"))
        if autocomplete and _typed_so_far(param, value, focused=typing):
            continue  # an autocomplete reads what is typed so far, unchecked by Discord
        problem = STALE_COMMAND if typing else _value_problem(param, value)
        if problem == STALE_COMMAND or (problem and not autocomplete):
            return problem
    return None


def _typed_so_far(param: app_commands.Parameter, value: Any, *, focused: bool) -> bool:
    """Whether `value` can be typed so far in an autocomplete: text in a text or whole-number
    option, a number in a number option (discord.py reads an unfocused one as a float)."""
    kind, number = param.type, type(value) in (int, float)
    if kind is discord.AppCommandOptionType.string:
        return isinstance(value, str)
    if kind is discord.AppCommandOptionType.integer:
        return isinstance(value, str) or number
    if kind is discord.AppCommandOptionType.number:
        return number or (focused and isinstance(value, str))
    return False


def _value_problem(param: app_commands.Parameter, value: Any) -> Words | None:
    """A value of the wrong kind is a stale client; one out of range or off the list is named."""
    kind = param.type
    if kind is discord.AppCommandOptionType.string:
        fits = isinstance(value, str) and len(value) <= MAX_TEXT
    elif kind is discord.AppCommandOptionType.integer:
        fits = type(value) is int and abs(value) <= MAX_INTEGER
    elif kind is discord.AppCommandOptionType.number:
        fits = type(value) in (int, float) and math.isfinite(value)
    elif kind is discord.AppCommandOptionType.boolean:
        fits = type(value) is bool
    else:  # users, channels, roles, mentionables and attachments arrive as ids
        fits = isinstance(value, str) and SNOWFLAKE.fullmatch(value) is not None
    if not fits:
        return STALE_COMMAND
    name = f"`{param.display_name}`"
    if param.choices and value not in [choice.value for choice in param.choices]:
        # the choices as Discord shows them to the reader (their names are in the catalogs)
        choices = lines((lines(("`", Text(str(choice.name)), "`"), "") for choice in param.choices),
                        ", ")
        return _("{option} takes one of {choices}: pick one from the list.", option=name,
                 choices=choices)
    low, high = param.min_value, param.max_value  # a string's are its length's
    size = len(value) if isinstance(value, str) else value
    if (low is not None and size < low) or (high is not None and size > high):
        return _span(name, low, high, characters=isinstance(value, str))
    return None


def _span(option: str, low: float | None, high: float | None, *, characters: bool) -> Text:
    """What an option with bounds takes: a length in characters, or a number."""
    low_, high_ = str(low), str(high)  # bounds as typed: no thousands separators
    if low is not None and high is not None:
        return (_("{option} takes {low} to {high} characters.", option=option, low=low_,
                  high=high_) if characters else
                _("{option} takes {low} to {high}.", option=option, low=low_, high=high_))
    if low is not None:
        return (_("{option} takes at least {low} characters.", option=option, low=low_)
                if characters else _("{option} takes at least {low}.", option=option, low=low_))
    return (_("{option} takes at most {high} characters.", option=option, high=high_)
            if characters else _("{option} takes at most {high}.", option=option, high=high_))
