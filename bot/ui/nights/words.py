"""How a game night is put in words: its plan, its cards' lines, its standings (no Discord
calls here, only the words)."""

from __future__ import annotations

from bot.matches.titles import title
from bot.nights.model import CANCELLED, CHECKIN, FINISHED, RUNNING, SCHEDULED, Night
from bot.nights.plan import CASUAL, ROUND_ROBIN, SWISS
from bot.nights.standings import Standing
from i18n import Text, Words, _, lines, n_

FORMAT_NAMES: dict[str, Text] = {
    SWISS: _("Swiss"),
    ROUND_ROBIN: _("round robin"),
    CASUAL: _("casual"),
}
MEDALS = ("\N{FIRST PLACE MEDAL}", "\N{SECOND PLACE MEDAL}", "\N{THIRD PLACE MEDAL}")
SHOWN_NAMES = 40  # names listed on the sign-up card


def night_title(night: Night) -> Text:
    return _("Game night #{id}: {game}", id=str(night.id), game=title(night.row.game))


def plan_line(night: Night) -> Words:
    plan = night.plan
    parts: list[Words] = [FORMAT_NAMES[plan.format]]
    if night.row.status in (SCHEDULED, CHECKIN) and plan.rounds is None:
        parts.append(_("rounds to fit the players"))
    else:
        parts.append(n_("{n} round", "{n} rounds", night.rounds))
    if plan.table > 2:
        parts.append(_("tables of {n}", n=plan.table))
    if night.row.game == "doudizhu":
        parts.append(n_("{n} deal a table", "{n} deals a table", plan.deals))
    parts.append(_("rated") if plan.rated else _("not rated"))
    if plan.computers:
        parts.append(_("computers fill short tables"))
    return lines(parts, " · ")


def status_line(night: Night) -> Words:
    start = f"<t:{int(night.row.start_at)}:F> (<t:{int(night.row.start_at)}:R>)"
    status = night.row.status
    if status == SCHEDULED:
        return _("Starts {when}. Check-in opens {minutes} minutes before.", when=start,
                 minutes=night.plan.checkin_minutes)
    if status == CHECKIN:
        return _("Check-in is open: press **Check in** to play. Starts {when}.", when=start)
    if status == RUNNING:
        paused = _(" (paused by the host)") if night.row.paused else ""
        return _("Round {round} of {rounds} is being played{paused}.", round=night.row.round,
                 rounds=night.rounds, paused=paused)
    if status == FINISHED:
        standings = night.standings()
        if not standings:
            return _("The night is over. Thank you for playing!")
        return lines((_("The night is over. Thank you for playing!"),
                      podium_line(night, standings)))
    if status == CANCELLED:
        return _("This game night was called off.")
    return ""


def signed_line(night: Night) -> Words:
    people = night.signed_up
    if not people:
        return _("Nobody has signed up yet: press **I'm in**.")
    names = [p.name + (" \N{WHITE HEAVY CHECK MARK}" if p.checked_in else "")
             for p in people[:SHOWN_NAMES]]
    more = len(people) - len(names)
    listed_names = ", ".join(names) + (f" (+{more})" if more > 0 else "")
    return _("**{count}** signed up: {names}", count=len(people), names=listed_names)


def points_text(points: float) -> Words:
    """`2 points`, `1 point`, `1.5 points`."""
    if points == int(points):
        return n_("{n} point", "{n} points", int(points))
    return _("{points} points", points=f"{points:g}")


def podium_line(night: Night, standings: list[Standing]) -> Words:
    top = [f"{MEDALS[i]} {night.name(s.player)}" for i, s in enumerate(standings[:3])]
    return _("The podium: {names}", names="  ".join(top))
