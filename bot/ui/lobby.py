"""Lobby cards, their Join / Leave / Start / Cancel buttons and their computer players' controls.

The buttons are persistent `DynamicItem`s whose custom id carries the match id, so a lobby
posted before a restart keeps working after it: the click looks the match up in the database.
"""

from __future__ import annotations

import logging
from collections.abc import Mapping
from typing import Protocol

import discord

from bot.ui.gone import Host, edit_stored
from bot.ui.persistent import PersistentItem
from bot.ui.present import Reply, in_turn, lobby_embed, send_reply
from bot.ui.presenter import Presenter
from bot.matches.model import LEVELS, LEVEL_NAMES, Match, Player
from bot.matches.service import MatchService
from bot.matches.titles import title
from i18n import ENGLISH_VOICE, Text, Voice, _

log = logging.getLogger(__name__)


class LobbyHost(Host, Protocol):
    """What the lobby cards and their controls use of the bot: the service that changes the
    lobby, the game's presenter that words its rules and announces its start, and the client
    that edits the card (bot/ui/gone.py)."""

    @property
    def service(self) -> MatchService: ...
    @property
    def presenters(self) -> Mapping[str, Presenter]: ...


BUTTONS: dict[str, tuple[Text, discord.ButtonStyle]] = {
    "join": (_("Join"), discord.ButtonStyle.success),
    "leave": (_("Leave"), discord.ButtonStyle.secondary),
    "start": (_("Start"), discord.ButtonStyle.primary),
    "cancel": (_("Cancel"), discord.ButtonStyle.danger),
}
LEVEL_TEXT: dict[str, Text] = {
    "easy": _("Beatable by a beginner"),
    "normal": _("A fair opponent"),
    "hard": _("Plays to win, and thinks longer"),
}
# A controls' label does not matter when a click is read back (`from_custom_id`): the custom id
# says what it does. Built to be posted, a control is worded in the voice of its readers.


class LobbyButton(
    PersistentItem[discord.ui.Button],
    template=r"gn:lobby:(?P<action>join|leave|start|cancel):(?P<match_id>[0-9]+)",
):
    def __init__(self, action: str, match_id: int, voice: Voice = ENGLISH_VOICE) -> None:
        label, style = BUTTONS[action]
        super().__init__(discord.ui.Button(label=voice(label), style=style,
                                           custom_id=f"gn:lobby:{action}:{match_id}"))
        self.action = action
        self.match_id = match_id

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match, /) -> LobbyButton:
        return cls(match["action"], int(match["match_id"]))

    async def use(self, interaction: discord.Interaction) -> None:
        await lobby_action(interaction, self.action, self.match_id, from_button=True)


class AddComputerSelect(
    PersistentItem[discord.ui.Select],
    template=r"gn:lobby:addbot:(?P<match_id>[0-9]+):(?P<version>[0-9]+)",
):
    """The lobby card's menu: the creator seats a computer player at the level picked."""

    def __init__(self, match_id: int, version: int, voice: Voice = ENGLISH_VOICE) -> None:
        options = [discord.SelectOption(label=voice(_("Computer ({level})",
                                                      level=LEVEL_NAMES[level])),
                                        value=level, description=voice(LEVEL_TEXT[level]))
                   for level in LEVELS]
        super().__init__(discord.ui.Select(placeholder=voice(_("Add a computer player...")),
                                           options=options,
                                           custom_id=f"gn:lobby:addbot:{match_id}:{version}"))
        self.match_id = match_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match, /) -> AddComputerSelect:
        return cls(int(match["match_id"]), int(match["version"]))

    async def use(self, interaction: discord.Interaction) -> None:
        bot: LobbyHost = interaction.client  # type: ignore[assignment]
        match = await bot.service.add_computer(self.match_id, interaction.user.id,
                                               self.item.values[0], version=self.version)
        await show_lobby_change(interaction, match, "addbot", from_button=True)


class RemoveComputerButton(
    PersistentItem[discord.ui.Button],
    template=r"gn:lobby:removebot:(?P<match_id>[0-9]+):(?P<version>[0-9]+)",
):
    """The lobby card's button taking out the computer seated last (the creator only)."""

    def __init__(self, match_id: int, version: int, voice: Voice = ENGLISH_VOICE) -> None:
        super().__init__(discord.ui.Button(label=voice(_("Remove computer")),
                                           style=discord.ButtonStyle.secondary,
                                           custom_id=f"gn:lobby:removebot:{match_id}:{version}"))
        self.match_id = match_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match, /) -> RemoveComputerButton:
        return cls(int(match["match_id"]), int(match["version"]))

    async def use(self, interaction: discord.Interaction) -> None:
        bot: LobbyHost = interaction.client  # type: ignore[assignment]
        match = await bot.service.remove_computer(self.match_id, interaction.user.id,
                                                  version=self.version)
        await show_lobby_change(interaction, match, "removebot", from_button=True)


def lobby_actions(match: Match) -> list[str]:
    """The lobby buttons that can apply now: Join while a seat is open, Leave once someone
    besides the creator sits (the creator alone leaving is Cancel), Start only when the game
    may begin before the table is full and enough players sit, and Cancel."""
    seated, need = len(match.seats), match.engine.MIN_SEATS
    actions = [] if match.is_full else ["join"]
    if seated > 1:
        actions.append("leave")
    if need < match.seat_target and seated >= need:
        actions.append("start")
    return [*actions, "cancel"]


def lobby_view(match: Match, voice: Voice = ENGLISH_VOICE) -> discord.ui.View | None:
    """The lobby buttons, Remove computer once one sits, and the Add computer menu while a
    seat is open (both for the creator; anyone else is told so)."""
    if match.status != "lobby":
        return None
    view = discord.ui.View(timeout=None)
    actions = lobby_actions(match)
    for action in actions[:-1]:
        view.add_item(LobbyButton(action, match.id, voice))
    if any(seat.kind == "computer" for seat in match.seats):
        view.add_item(RemoveComputerButton(match.id, match.row.version, voice))
    view.add_item(LobbyButton(actions[-1], match.id, voice))  # Cancel stays last
    if not match.is_full:
        view.add_item(AddComputerSelect(match.id, match.row.version, voice))
    return view


async def lobby_card(bot: LobbyHost, match: Match) -> dict:
    """The lobby message's embed and buttons, with the game's summary of the match options,
    in the server's language (the channel reads it)."""
    voice = await bot.languages.server(match.guild_id)
    rules = bot.presenters[match.game].lobby_rules(match)
    return {"embed": lobby_embed(match, rules, voice), "view": lobby_view(match, voice)}


async def lobby_card_edit(bot: LobbyHost, match: Match) -> dict:
    """`lobby_card` for editing the posted card: once the lobby is over, its invitation text
    ("press **Join**") goes too."""
    card = await lobby_card(bot, match)
    if match.status != "lobby":
        card["content"] = None
    return card


def is_moderator(interaction: discord.Interaction) -> bool:
    return bool(interaction.permissions.manage_messages)


def player_of(interaction: discord.Interaction) -> Player:
    return Player(interaction.user.id, interaction.user.display_name)


async def lobby_action(interaction: discord.Interaction, action: str, match_id: int, *,
                       from_button: bool) -> None:
    """Join, leave, start or cancel a lobby, then show the result."""
    bot: LobbyHost = interaction.client  # type: ignore[assignment]
    service = bot.service
    if action == "join":
        match = await service.join(match_id, player_of(interaction))
    elif action == "leave":
        match = await service.leave(match_id, interaction.user.id)
    elif action == "start":
        match = await service.start(match_id, interaction.user.id)
    else:
        match = await service.cancel_by_id(match_id, interaction.user.id,
                                           moderator=is_moderator(interaction))
    await show_lobby_change(interaction, match, action, from_button=from_button)


async def show_lobby_change(interaction: discord.Interaction, match: Match, action: str, *,
                            from_button: bool) -> None:
    """The lobby card, the start's board or a line about the change, in commit order."""
    bot: LobbyHost = interaction.client  # type: ignore[assignment]
    async with in_turn(match, interaction):
        if from_button:
            await _edit_card_in_reply(interaction, bot, match)
        if match.status == "active":
            await bot.presenters[match.game].announce_start(interaction, match)
        elif not from_button:
            voice = await bot.languages.server(match.guild_id)  # said in the channel
            await send_reply(interaction, Reply(content=voice(lobby_change(
                match, action, interaction.user.display_name))))
        if not from_button:  # after answering: the card edit may wait on Discord
            await refresh_lobby_card(bot, match)


def lobby_change(match: Match, action: str, name: str) -> Text:
    """The channel's line about a change made by command: who did what to which lobby."""
    player, game, number = f"**{name}**", title(match.game), str(match.id)
    if match.status == "cancelled":
        return _("{player} closed the {game} lobby (match #{id}).", player=player, game=game,
                 id=number)
    values = {"player": player, "game": game, "id": number, "seated": len(match.seats),
              "target": match.seat_target}
    if action == "join":
        return _("{player} joined the lobby ({game}, match #{id}, {seated}/{target} seated).",
                 **values)
    if action == "leave":
        return _("{player} left the lobby ({game}, match #{id}, {seated}/{target} seated).",
                 **values)
    if action == "addbot":
        return _("{player} added a computer to the lobby ({game}, match #{id}, "
                 "{seated}/{target} seated).", **values)
    if action == "removebot":
        return _("{player} took a computer out of the lobby ({game}, match #{id}, "
                 "{seated}/{target} seated).", **values)
    return _("{player} changed the lobby ({game}, match #{id}, {seated}/{target} seated).",
             **values)


async def _edit_card_in_reply(interaction: discord.Interaction, bot: LobbyHost,
                              match: Match) -> None:
    """The clicked lobby card, brought up to date as the click's answer."""
    try:
        card = await lobby_card_edit(bot, match)
        if interaction.response.is_done():  # deferred while earlier announcements ran
            await interaction.edit_original_response(**card)
        else:
            await interaction.response.edit_message(**card)
    except discord.HTTPException as error:  # saved already: the start is still announced
        log.warning("could not update the lobby card of match %s: %s", match.id, error)


async def retire_lobby_card(bot: LobbyHost, match: Match) -> None:
    """Take the buttons off a lobby card that was posted again (best effort)."""
    voice = await bot.languages.server(match.guild_id)
    await edit_stored(bot, match, match.row.lobby_message_id, "the old lobby card",
                      content=voice(_("This lobby card was posted again below.")), embed=None,
                      view=None)


async def refresh_lobby_card(bot: LobbyHost, match: Match) -> None:
    """Bring the posted lobby card up to date (best effort: it may have been deleted)."""
    await edit_stored(bot, match, match.row.lobby_message_id, "the lobby card",
                      **await lobby_card_edit(bot, match))