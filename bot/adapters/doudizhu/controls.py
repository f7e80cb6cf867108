"""Dou Dizhu's controls under a private hand (a DM, or the ephemeral `/doudizhu hand`) and
under a round's result, and what choosing in them does (`act_from_control`).

Every legal play is one or two clicks away. When the plays fit one select (25 options) the
menu lists them all; otherwise a first select offers the *kinds* of play (single, pair,
trio with a single..., with counts; a kind with more than 100 plays comes in parts) and
choosing one edits the same message to show that kind's plays in up to four selects, with a
button back to the kinds. Nothing is kept in memory between the two steps: the second is
rebuilt from the saved match, so it works the same after a restart.

Labels and placeholders are worded in the voice of whoever sees the controls: the player's
for a private hand, the server's under a round's result in the channel.

The controls are persistent `DynamicItem`s, so a menu sent before a restart keeps working
after it. Their custom id carries the match id and the match *version* the controls were
built at; every accepted action bumps the version, so a click on a menu from an earlier turn
is refused politely instead of applying a stale play.

Custom ids:

* `gn:ddz:play:<match>:<version>[:<n>]`: a select of plays; each value is a play such as
  `33344` or `10JQKA` (`<n>` tells the selects of one message apart).
* `gn:ddz:kind:<match>:<version>:<n>`: a select of kinds of play; each value is a kind's key
  (`trio_single`, or `trio_sequence_pairs.2` for the second part of a long kind).
* `gn:ddz:kinds:<match>:<version>`: the button back from a kind's plays to the kinds.
* `gn:ddz:<action>:<match>:<version>`: a button; action `pass`, `bid0` (pass in the auction),
  `bid1`, `bid2`, `bid3`, `next` or `stop`.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from itertools import groupby
from typing import Any, Protocol

import discord

import games.doudizhu as ddz
from bot.adapters.doudizhu.words import play_label as play_words
from render.doudizhu_words import TYPE_NAMES
from bot.matches.errors import LobbyError, OutOfDate
from bot.matches.model import ActionResult, Match
from bot.matches.titles import title
from bot.ui.persistent import PersistentItem
from games.doudizhu import BOMB, ROCKET, TYPES, Combination
from i18n import ENGLISH_VOICE, Text, Voice, Words, _, n_, p_

log = logging.getLogger(__name__)


class ControlPresenter(Protocol):
    """What the controls need of the Dou Dizhu presenter (which imports this module)."""

    async def announce(self, result: ActionResult,
                       interaction: discord.Interaction | None = None) -> None: ...

    async def tell_missing(self, interaction: discord.Interaction, channel_id: int,
                           guild_id: int | None = None) -> bool: ...


MENU_SIZE = 25  # Discord's limit on a select's options
SELECTS = 4  # selects in one message: Discord allows five rows, the last holds the buttons
PAGE = MENU_SIZE * SELECTS  # the most plays (or kinds) one step shows
LABEL, PLACEHOLDER = 100, 150  # Discord's limits on an option's label and a placeholder

ACTION_TEXT = {"pass": "pass", "bid0": "bid pass", "bid1": "bid 1", "bid2": "bid 2",
               "bid3": "bid 3", "next": "next", "stop": "stop"}
BUTTONS: dict[str, tuple[Text, discord.ButtonStyle]] = {
    "pass": (_("Pass"), discord.ButtonStyle.secondary),
    "bid0": (p_("auction", "Pass"), discord.ButtonStyle.secondary),  # no bid: 不叫
    "bid1": (_("Bid {amount}", amount=1), discord.ButtonStyle.primary),
    "bid2": (_("Bid {amount}", amount=2), discord.ButtonStyle.primary),
    "bid3": (_("Bid {amount}", amount=3), discord.ButtonStyle.primary),
    "next": (_("Next round"), discord.ButtonStyle.success),
    "stop": (_("Stop the series"), discord.ButtonStyle.danger),
}
_TYPE_ORDER = {kind: index for index, kind in enumerate(TYPES)}


# --------------------------------------------------------------------------- which plays


def _display_key(combo: Combination) -> tuple[int, int, int, int, tuple[int, ...]]:
    """Bombs and the rocket last; otherwise by type (the rules' order), size, then rank."""
    strong = combo.type in (BOMB, ROCKET)
    return (strong, _TYPE_ORDER[combo.type], combo.size, combo.rank, combo.ranks)


def offered_plays(combos: Iterable[Combination], limit: int = MENU_SIZE) -> list[Combination]:
    """The plays a list of `limit` choices (autocomplete) offers, in display order.

    1. When every play fits, every play (kickers included).
    2. Otherwise one play per shape (type, size, ranking rank): the one with the lowest kickers.
    3. If more shapes remain than fit, the types take turns, each giving its lowest remaining
       play (smallest size first), so a lead offers the lowest single, pair, trio, sequence,
       bomb... before the higher ones, and an answer offers the smallest plays that beat.
    4. Shown by type in the rules' order, lowest first, bombs and the rocket last.
    """
    plays = sorted(combos, key=_display_key)
    if len(plays) <= limit:
        return plays
    shapes: dict[tuple[str, int, int], Combination] = {}
    for combo in plays:
        shapes.setdefault((combo.type, combo.size, combo.rank), combo)
    plays = list(shapes.values())
    if len(plays) > limit:
        plays = _types_take_turns(plays, limit)
    return sorted(plays, key=_display_key)


def _types_take_turns(plays: list[Combination], limit: int) -> list[Combination]:
    """`limit` plays, each type in turn giving its lowest remaining one."""
    by_type: dict[str, list[Combination]] = {}
    for combo in sorted(plays, key=lambda c: (c.size, c.rank, c.ranks)):
        by_type.setdefault(combo.type, []).append(combo)
    queues = [by_type[kind] for kind in sorted(by_type, key=_TYPE_ORDER.__getitem__)]
    chosen: list[Combination] = []
    while len(chosen) < limit:
        for queue in queues:
            if queue and len(chosen) < limit:
                chosen.append(queue.pop(0))
    return chosen


def play_label(combo: Combination, voice: Voice = ENGLISH_VOICE) -> str:
    """`33344 · trio with a pair` (the notation `/doudizhu play` takes, and its name)."""
    return _cut(voice(play_words(combo)), LABEL)


def legal_combinations(match: Match, seat: int) -> list[Combination]:
    """Every play (not the pass) the seat may make now."""
    return ddz.legal_combinations(match.state, seat)


@dataclass(frozen=True)
class Kind:
    """One option of the first step: the plays of one type (or a part of a long type)."""

    key: str  # `trio_single`, or `trio_sequence_pairs.2` for a type's second part
    label: Words  # worded with a capital: see `capitalised`
    plays: tuple[Combination, ...]

    @property
    def span(self) -> str:
        return span(self.plays)


def span(plays: tuple[Combination, ...] | list[Combination]) -> str:
    """`3334 … 222A`: the lowest and the highest of some plays in display order."""
    first, last = plays[0], plays[-1]
    return str(first) if first == last else f"{first} \N{HORIZONTAL ELLIPSIS} {last}"


def play_kinds(combos: Iterable[Combination]) -> list[Kind]:
    """The kinds of play, in display order: one per type, and a type with more plays than a
    step shows cut into parts (between plays of different main parts where it can)."""
    kinds = []
    plays = sorted(combos, key=_display_key)
    for kind, same in groupby(plays, key=lambda combo: combo.type):
        parts = _parts(list(same))
        name = TYPE_NAMES[kind]
        for number, part in enumerate(parts, start=1):
            key, label = kind, _("{kind} ({n})", kind=name, n=len(part))
            if len(parts) > 1:
                key = f"{kind}.{number}"
                label = _("{kind}, part {part} of {parts} ({n})", kind=name, part=number,
                          parts=len(parts), n=len(part))
            kinds.append(Kind(key, label, tuple(part)))
    return kinds


def _parts(plays: list[Combination]) -> list[list[Combination]]:
    """`plays` (one type, in display order) in parts of at most PAGE."""
    parts: list[list[Combination]] = [[]]
    for _shape, same in groupby(plays, key=lambda combo: (combo.size, combo.rank)):
        unit = list(same)
        if parts[-1] and len(parts[-1]) + len(unit) > PAGE:
            parts.append([])
        for combo in unit:
            if len(parts[-1]) == PAGE:
                parts.append([])
            parts[-1].append(combo)
    return parts


def capitalised(voice: Voice, words: Words) -> str:
    """`words` in `voice`, its first letter a capital where the script has them."""
    text = voice(words)
    first = next((index for index, char in enumerate(text) if char.isalpha()), None)
    return text if first is None else text[:first] + text[first].upper() + text[first + 1:]


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[:limit - 1] + "\N{HORIZONTAL ELLIPSIS}"


def _chunks(items: list, size: int = MENU_SIZE) -> list[list]:
    return [items[start:start + size] for start in range(0, len(items), size)]


# --------------------------------------------------------------------------- components


def _presenter(interaction: discord.Interaction) -> ControlPresenter:
    return interaction.client.presenters[ddz.NAME]  # type: ignore[attr-defined]


def _chosen(select: discord.ui.Select) -> str:
    """The one value chosen (a forged interaction may carry none: that menu is not ours)."""
    if len(select.values) != 1:
        raise OutOfDate()
    return select.values[0]


class PlaySelect(
    PersistentItem[discord.ui.Select],
    template=r"gn:ddz:play:(?P<match_id>[0-9]+):(?P<version>[0-9]+)(?::(?P<part>[0-9]+))?",
):
    def __init__(self, match_id: int, version: int, *, options: Iterable[discord.SelectOption] = (),
                 placeholder: str | None = None, part: int | None = None,
                 row: int | None = None) -> None:
        suffix = "" if part is None else f":{part}"
        super().__init__(discord.ui.Select(
            custom_id=f"gn:ddz:play:{match_id}:{version}{suffix}", options=list(options),
            placeholder=placeholder, min_values=1, max_values=1), row=row)
        self.match_id = match_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match, /) -> PlaySelect:
        # (a button an older message carries under this id has no options: refused when used)
        return cls(int(match["match_id"]), int(match["version"]),
                   options=getattr(item, "options", ()))

    async def use(self, interaction: discord.Interaction) -> None:
        await act_from_control(interaction, f"play {_chosen(self.item)}", self.match_id,
                               self.version)


class KindSelect(
    PersistentItem[discord.ui.Select],
    template=r"gn:ddz:kind:(?P<match_id>[0-9]+):(?P<version>[0-9]+):(?P<part>[0-9]+)",
):
    """The first step: choosing a kind shows its plays in the same message."""

    def __init__(self, match_id: int, version: int, part: int, *,
                 options: Iterable[discord.SelectOption] = (), placeholder: str | None = None,
                 row: int | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"gn:ddz:kind:{match_id}:{version}:{part}", options=list(options),
            placeholder=placeholder, min_values=1, max_values=1), row=row)
        self.match_id = match_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match, /) -> KindSelect:
        return cls(int(match["match_id"]), int(match["version"]), int(match["part"]))

    async def use(self, interaction: discord.Interaction) -> None:
        await show_step(interaction, self.match_id, self.version, _chosen(self.item))


class KindsButton(
    PersistentItem[discord.ui.Button],
    template=r"gn:ddz:kinds:(?P<match_id>[0-9]+):(?P<version>[0-9]+)",
):
    """Back from one kind's plays to the kinds."""

    def __init__(self, match_id: int, version: int, *, row: int | None = None,
                 voice: Voice = ENGLISH_VOICE) -> None:
        super().__init__(discord.ui.Button(
            label=voice(_("Other kinds of play")), style=discord.ButtonStyle.secondary,
            emoji="\N{LEFTWARDS BLACK ARROW}", custom_id=f"gn:ddz:kinds:{match_id}:{version}"),
            row=row)
        self.match_id = match_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match, /) -> KindsButton:
        return cls(int(match["match_id"]), int(match["version"]))

    async def use(self, interaction: discord.Interaction) -> None:
        await show_step(interaction, self.match_id, self.version, None)


class ActionButton(
    PersistentItem[discord.ui.Button],
    template=r"gn:ddz:(?P<action>pass|bid[0-3]|next|stop):(?P<match_id>[0-9]+):(?P<version>[0-9]+)",
):
    def __init__(self, action: str, match_id: int, version: int, *, row: int | None = None,
                 voice: Voice = ENGLISH_VOICE) -> None:
        label, style = BUTTONS[action]
        super().__init__(discord.ui.Button(
            label=voice(label), style=style, custom_id=f"gn:ddz:{action}:{match_id}:{version}"),
            row=row)
        self.action = action
        self.match_id = match_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match, /) -> ActionButton:
        return cls(match["action"], int(match["match_id"]), int(match["version"]))

    async def use(self, interaction: discord.Interaction) -> None:
        await act_from_control(interaction, ACTION_TEXT[self.action], self.match_id,
                               self.version)


#: The menu's own items, for the bot to recognise after a restart.
DYNAMIC_ITEMS = (PlaySelect, KindSelect, KindsButton, ActionButton)


# --------------------------------------------------------------------------- the controls


def private_controls(match: Match, seat: int,
                     voice: Voice = ENGLISH_VOICE) -> discord.ui.View | None:
    """The controls for `seat` now (None when it has nothing to do): the bids, or the plays
    (all in one select when they fit, else the first step: the kinds) with Pass."""
    state: ddz.State = match.state
    if state.phase == ddz.ROUND_OVER:
        return round_over_controls(match, voice)
    if state.phase not in (ddz.AUCTION, ddz.PLAY) or state.turn != seat:
        return None
    view = discord.ui.View(timeout=None)
    if state.phase == ddz.AUCTION:
        for move in ddz.legal_moves(state, seat):
            view.add_item(ActionButton(f"bid{move.amount}", match.id, match.row.version,
                                       voice=voice))
        return view
    combos = sorted(legal_combinations(match, seat), key=_display_key)
    if len(combos) <= MENU_SIZE:
        rows = _play_selects(match, combos, voice(_menu_prompt(state)), voice)
    else:
        rows = _kind_selects(match, play_kinds(combos), len(combos), voice)
    return _with_buttons(match, rows, voice, back=False)


def step_controls(match: Match, seat: int, key: str | None,
                  voice: Voice = ENGLISH_VOICE) -> discord.ui.View:
    """The controls after a click on a kind (`key`), or on the way back (`None`) to the kinds.
    Refused as out of date when the seat has no such choice now."""
    state: ddz.State = match.state
    if state.phase != ddz.PLAY or state.turn != seat:
        raise OutOfDate()
    combos = legal_combinations(match, seat)
    kinds = play_kinds(combos)
    if key is None:
        return _with_buttons(match, _kind_selects(match, kinds, len(combos), voice), voice,
                             back=False)
    kind = next((kind for kind in kinds if kind.key == key), None)
    if kind is None:
        raise OutOfDate()
    rows = _play_selects(match, list(kind.plays), capitalised(voice, kind.label), voice,
                         spans=True)
    return _with_buttons(match, rows, voice, back=True)


async def show_step(interaction: discord.Interaction, match_id: int, version: int,
                    key: str | None) -> None:
    """Edit the message the click came from to show the next step of the menu."""
    match = await interaction.client.service.get_or_fail(match_id)  # type: ignore[attr-defined]
    if not match.is_open:
        raise LobbyError(match_closed(match))
    seat = match.seat_of(interaction.user.id)
    if seat is None or match.row.version != version:
        raise OutOfDate()
    languages = interaction.client.languages  # type: ignore[attr-defined]
    voice = await languages.dm_reader(interaction, match.guild_id)
    await interaction.response.edit_message(view=step_controls(match, seat, key, voice))


async def act_from_control(interaction: discord.Interaction, text: str, match_id: int,
                           version: int) -> None:
    """A menu or button was used: refuse it if the game has moved on since it was sent,
    otherwise act, mark the control's message as used and post the table in the channel."""
    bot: Any = interaction.client  # the GamenightBot
    match = await bot.service.get_or_fail(match_id)
    if not match.is_open:
        raise LobbyError(match_closed(match))
    result = await bot.service.act(match.channel_id, interaction.user.id, text,
                                   match_id=match_id, version=version)
    message = interaction.message
    private = interaction.guild_id is None or (message is not None and message.flags.ephemeral)
    before = message.content if message is not None and message.content else ""
    if private:
        voice = await bot.languages.dm_reader(interaction, result.match.guild_id)
        # TRANSLATORS: {message} is the message the choice was made under, as it was sent.
        said = _("{message}\n\N{WHITE HEAVY CHECK MARK} You chose `{action}`.",
                 message=before, action=result.action)
    else:
        voice = await bot.languages.server(interaction.guild_id)
        # TRANSLATORS: {message} is the message the choice was made under, as it was sent.
        said = _("{message}\n\N{WHITE HEAVY CHECK MARK} **{player}** chose `{action}`.",
                 message=before, player=interaction.user.display_name,
                 action=result.action)
    try:
        await interaction.response.edit_message(content=voice(said).strip(), view=None)
    except discord.HTTPException as error:  # the play stands: announce it all the same
        log.warning("could not mark the control of match %s as used: %s",
                    match_id, error)
    presenter = _presenter(interaction)
    await presenter.announce(result)
    await presenter.tell_missing(interaction, match.channel_id,  # the table may not be posted
                                 result.match.guild_id)


def match_closed(match: Match) -> Text:
    """Why a control of a match that has ended does nothing."""
    if match.status == "cancelled":
        return _("That {game} match was cancelled.", game=title(match.game))
    return _("That {game} match is over.", game=title(match.game))


def _menu_prompt(state: ddz.State) -> Text:
    to_beat = state.to_beat
    if to_beat:
        return _("Beat {play} with...", play=str(ddz.classify(to_beat[1], state.players)))
    return _("Lead with...")


def _kinds_prompt(state: ddz.State, total: int) -> Text:
    to_beat = state.to_beat
    if to_beat:
        return n_("Beat {play}: choose a kind of play ({n} play)...",
                  "Beat {play}: choose a kind of play ({n} plays)...", total,
                  play=str(ddz.classify(to_beat[1], state.players)))
    return n_("Lead: choose a kind of play ({n} play)...",
              "Lead: choose a kind of play ({n} plays)...", total)


def _play_selects(match: Match, combos: list[Combination], what: str, voice: Voice, *,
                  spans: bool = False) -> list[discord.ui.Item]:
    """`combos` in selects of 25 (at most four); with `spans`, each placeholder also names
    its lowest and highest play."""
    chunks = _chunks(combos)
    selects = []
    for part, chunk in enumerate(chunks):
        placeholder = voice(_("{kind}: {plays}", kind=what, plays=span(chunk))) if spans else what
        options = [discord.SelectOption(label=play_label(combo, voice), value=str(combo))
                   for combo in chunk]
        selects.append(PlaySelect(match.id, match.row.version, options=options, row=part,
                                  placeholder=_cut(placeholder, PLACEHOLDER),
                                  part=part if len(chunks) > 1 else None))
    return selects


def _kind_selects(match: Match, kinds: list[Kind], total: int,
                  voice: Voice) -> list[discord.ui.Item]:
    """The first step: the kinds of play in selects of 25 (at most four)."""
    placeholder = voice(_kinds_prompt(match.state, total))
    selects = []
    for part, chunk in enumerate(_chunks(kinds[:PAGE])):  # hands reach 34 kinds, not 100
        options = [discord.SelectOption(label=_cut(capitalised(voice, kind.label), LABEL),
                                        value=kind.key, description=_cut(kind.span, LABEL))
                   for kind in chunk]
        selects.append(KindSelect(match.id, match.row.version, part, options=options,
                                  placeholder=_cut(placeholder, PLACEHOLDER), row=part))
    return selects


def _with_buttons(match: Match, selects: list[discord.ui.Item], voice: Voice, *,
                  back: bool) -> discord.ui.View:
    """The selects, then a row with the way back to the kinds and Pass (when there is one)."""
    view = discord.ui.View(timeout=None)
    for select in selects:
        view.add_item(select)
    row = len(selects)
    if back:
        view.add_item(KindsButton(match.id, match.row.version, row=row, voice=voice))
    if match.state.to_beat is not None:
        view.add_item(ActionButton("pass", match.id, match.row.version, row=row, voice=voice))
    return view


def round_over_controls(match: Match, voice: Voice = ENGLISH_VOICE) -> discord.ui.View:
    """Next round / Stop the series (not in a series of a fixed number of rounds), for any
    seated player, once a round is over."""
    view = discord.ui.View(timeout=None)
    for move in ddz.legal_moves(match.state, 0):  # the same for every seat between rounds
        view.add_item(ActionButton(str(move), match.id, match.row.version, voice=voice))
    return view
