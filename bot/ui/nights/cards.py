"""The night's messages in its channel: the sign-up card (edited as people sign up and as the
night goes on), the round card (one per round: every table with its thread), and the
standings after each round (a picture and its text; the podium at the end)."""

from __future__ import annotations

import discord

from bot.nights.model import FINISHED, Night
from bot.nights.rounds import BYE, DONE, OUT, is_computer
from bot.storage.rows import NightTable
from bot.ui.error_replies import jump_url
from bot.ui.present import COLOUR
from bot.ui.nights.controls import card_view
from bot.ui.nights.words import (
    night_title, plan_line, podium_line, signed_line, status_line,
)
from i18n import Voice, Words, _, lines

FIELD_LIMIT = 1024
COMPUTER = "\N{ROBOT FACE}"  # a computer at a table, in the round card


def card_embed(night: Night, voice: Voice) -> discord.Embed:
    embed = discord.Embed(title=voice(night_title(night)), colour=COLOUR,
                          description=voice(lines((plan_line(night), status_line(night)))))
    embed.add_field(name=voice(_("Players")), value=voice(signed_line(night))[:FIELD_LIMIT],
                    inline=False)
    embed.set_footer(text=voice(_("Host: {name}", name=night.name(night.row.host_id)))
                     if night.player(night.row.host_id) else voice(_("Gamenight")))
    return embed


def card_message(night: Night, voice: Voice) -> dict:
    view = card_view(night, voice)
    return {"embed": card_embed(night, voice), "view": view}


def table_line(night: Night, table: NightTable) -> Words:
    names = [COMPUTER if is_computer(p) else f"<@{p}>" for p in table.players]
    if table.status == BYE:
        return _("{player} has a bye.", player=names[0])
    if table.status == OUT:
        return _("{player} sits out this round.", player=names[0])
    where = (f" · <#{table.thread_id}>" if table.thread_id else "")
    seated = " · ".join(names)
    if table.status == DONE and table.result:
        places = table.result["places"]
        if table.result.get("unfinished"):
            return _("Table {n}: {players}{where} (not finished: a shared place)",
                     n=table.number, players=seated, where=where)
        winners = [names[i] for i, p in enumerate(places) if p == 1]
        return _("Table {n}: {players}{where}, won by {winners}", n=table.number,
                 players=seated, where=where, winners=" ".join(winners))
    return _("Table {n}: {players}{where}", n=table.number, players=seated, where=where)



def round_embed(night: Night, voice: Voice, round_: int | None = None) -> discord.Embed:
    round_ = night.row.round if round_ is None else round_
    tables = night.round_tables(round_)
    text = "\n".join(voice(table_line(night, t)) for t in tables)
    if len(text) > 4000:
        text = text[:3990] + "…"
    return discord.Embed(title=voice(_("{night}: round {round} of {rounds}",
                                       night=night_title(night), round=round_,
                                       rounds=night.rounds)),
                         description=text, colour=COLOUR)


def standings_embed(night: Night, voice: Voice, after_round: int) -> discord.Embed:
    """The standings message: the picture (attached as standings.png), and at the end the
    podium in words."""
    standings = night.standings()
    final = night.row.status == FINISHED
    heading = (_("{night}: final standings", night=night_title(night)) if final else
               _("{night}: standings after round {round}", night=night_title(night),
                 round=after_round))
    embed = discord.Embed(title=voice(heading), colour=COLOUR)
    if final and standings:
        embed.description = voice(podium_line(night, standings))
    embed.set_image(url="attachment://standings.png")
    return embed


def card_link(night: Night) -> str:
    return jump_url(night.row.guild_id, night.row.channel_id, night.row.card_message_id)
