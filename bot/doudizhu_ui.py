"""Dou Dizhu's controls under a private hand (a DM, or the ephemeral `/doudizhu hand`) and
under a round's result, and which plays a 25-option menu offers.

The controls are persistent `DynamicItem`s, so a menu sent before a restart keeps working
after it. Their custom id carries the match id and the match *version* the controls were
built at; every accepted action bumps the version, so a click on a menu from an earlier turn
is refused politely instead of applying a stale play.

Custom ids:

* `gn:ddz:play:<match>:<version>`: the select of plays; each value is a play such as `33344`.
* `gn:ddz:<action>:<match>:<version>`: a button; action `pass`, `bid0` (pass in the auction),
  `bid1`, `bid2`, `bid3`, `next` or `stop`.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

import discord

import games.doudizhu as ddz
from bot.errors import report_error
from bot.service import Match
from games.doudizhu.combinations import BOMB, ROCKET, TYPES, Combination

if TYPE_CHECKING:
    from bot.cogs.doudizhu import DouDizhuCog

MENU_SIZE = 25  # Discord's limit on a select's options

ACTION_TEXT = {"pass": "pass", "bid0": "bid pass", "bid1": "bid 1", "bid2": "bid 2",
               "bid3": "bid 3", "next": "next", "stop": "stop"}
BUTTONS = {
    "pass": ("Pass", discord.ButtonStyle.secondary),
    "bid0": ("Pass", discord.ButtonStyle.secondary),
    "bid1": ("Bid 1", discord.ButtonStyle.primary),
    "bid2": ("Bid 2", discord.ButtonStyle.primary),
    "bid3": ("Bid 3", discord.ButtonStyle.primary),
    "next": ("Next round", discord.ButtonStyle.success),
    "stop": ("Stop the series", discord.ButtonStyle.danger),
}
_TYPE_ORDER = {kind: index for index, kind in enumerate(TYPES)}


# --------------------------------------------------------------------------- which plays


def _display_key(combo: Combination) -> tuple[int, int, int, int, tuple[int, ...]]:
    """Bombs and the rocket last; otherwise by type (the rules' order), size, then rank."""
    strong = combo.type in (BOMB, ROCKET)
    return (strong, _TYPE_ORDER[combo.type], combo.size, combo.rank, combo.ranks)


def offered_plays(combos: Iterable[Combination], limit: int = MENU_SIZE) -> list[Combination]:
    """The plays a menu of `limit` options offers, in display order.

    1. When every play fits, every play (kickers included).
    2. Otherwise one play per shape (type, size, ranking rank): the one with the lowest kickers.
       Other kickers are one `/doudizhu play` away; this keeps `QQQ3`..`QQQ2` from filling the
       menu.
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


def play_label(combo: Combination) -> str:
    """`33344 · trio with a pair` (the notation `/doudizhu play` takes, and its name)."""
    return f"{combo} \N{MIDDLE DOT} {combo.describe()}"


def legal_combinations(match: Match, seat: int) -> list[Combination]:
    """Every play (not the pass) the seat may make now."""
    state: ddz.State = match.state
    return [ddz.classify(move.ranks, state.players)
            for move in ddz.legal_moves(state, seat) if isinstance(move, ddz.Play)]


# --------------------------------------------------------------------------- components


def _presenter(interaction: discord.Interaction) -> DouDizhuCog:
    return interaction.client.presenters[ddz.NAME]  # type: ignore[attr-defined]


class PlaySelect(
    discord.ui.DynamicItem[discord.ui.Select],
    template=r"gn:ddz:play:(?P<match_id>[0-9]+):(?P<version>[0-9]+)",
):
    def __init__(self, match_id: int, version: int, *, options: Iterable[discord.SelectOption] = (),
                 placeholder: str | None = None) -> None:
        super().__init__(discord.ui.Select(
            custom_id=f"gn:ddz:play:{match_id}:{version}", options=list(options),
            placeholder=placeholder, min_values=1, max_values=1))
        self.match_id = match_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Select,
                             match, /) -> PlaySelect:
        # (a button an older message carries under this id has no options: refused when used)
        return cls(int(match["match_id"]), int(match["version"]),
                   options=getattr(item, "options", ()))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            play = self.item.values[0] if self.item.values else ""
            await _presenter(interaction).act_from_control(
                interaction, f"play {play}", self.match_id, self.version)
        except Exception as error:  # one place decides what the user sees
            await report_error(interaction, error)


class ActionButton(
    discord.ui.DynamicItem[discord.ui.Button],
    template=r"gn:ddz:(?P<action>pass|bid[0-3]|next|stop):(?P<match_id>[0-9]+):(?P<version>[0-9]+)",
):
    def __init__(self, action: str, match_id: int, version: int, *, row: int | None = None) -> None:
        label, style = BUTTONS[action]
        super().__init__(discord.ui.Button(
            label=label, style=style, custom_id=f"gn:ddz:{action}:{match_id}:{version}"),
            row=row)
        self.action = action
        self.match_id = match_id
        self.version = version

    @classmethod
    async def from_custom_id(cls, interaction: discord.Interaction, item: discord.ui.Button,
                             match, /) -> ActionButton:
        return cls(match["action"], int(match["match_id"]), int(match["version"]))

    async def callback(self, interaction: discord.Interaction) -> None:
        try:
            await _presenter(interaction).act_from_control(
                interaction, ACTION_TEXT[self.action], self.match_id, self.version)
        except Exception as error:  # one place decides what the user sees
            await report_error(interaction, error)


def private_controls(match: Match, seat: int) -> tuple[discord.ui.View | None, str | None]:
    """The controls for `seat` now (None when it has nothing to do) and, when the menu cannot
    hold every play, a line saying so."""
    state: ddz.State = match.state
    version = match.row.version
    view = discord.ui.View(timeout=None)
    note = None
    if state.phase == ddz.ROUND_OVER:
        return round_over_controls(match), None
    if state.phase not in (ddz.AUCTION, ddz.PLAY) or state.turn != seat:
        return None, None
    if state.phase == ddz.AUCTION:
        for move in ddz.legal_moves(state, seat):
            view.add_item(ActionButton(f"bid{move.amount}", match.id, version))
        return view, None
    combos = legal_combinations(match, seat)
    offered = offered_plays(combos)
    if offered:
        to_beat = state.to_beat
        placeholder = (f"Beat {ddz.classify(to_beat[1], state.players)} with..." if to_beat
                       else "Lead with...")
        options = [discord.SelectOption(label=play_label(combo), value=str(combo))
                   for combo in offered]
        view.add_item(PlaySelect(match.id, version, options=options, placeholder=placeholder))
        if len(offered) < len(combos):
            note = (f"The menu shows {len(offered)} of your {len(combos)} plays (one kicker "
                    "choice each, the lowest plays of every type first); `/doudizhu play` "
                    "takes any of them.")
    if state.to_beat is not None:
        view.add_item(ActionButton("pass", match.id, version, row=1))
    return view, note


def round_over_controls(match: Match) -> discord.ui.View:
    """Next round / Stop the series, for any seated player, once a round is over."""
    view = discord.ui.View(timeout=None)
    for action in ("next", "stop"):
        view.add_item(ActionButton(action, match.id, match.row.version))
    return view
