"""Turning matches into Discord messages: lobby cards, board posts and private replies.

Rendering runs in a worker thread; when it takes long, the interaction is deferred first so
Discord's three-second acknowledgement limit is never at risk.
"""

from __future__ import annotations

import asyncio
import hashlib
import io
import logging
from collections.abc import AsyncIterator, Awaitable, Callable, Iterable
from contextlib import asynccontextmanager
from dataclasses import dataclass, field

import discord

from bot.matches.model import HINTS_OPTION, Match, player_name
from bot.matches.titles import title
from games.common import Event
from i18n import ENGLISH_VOICE, Duration, Joined, Voice, Words, _, lines, n_

log = logging.getLogger(__name__)

DEFER_AFTER = 1.2  # seconds of rendering before the interaction is deferred
COLOUR = discord.Colour.from_rgb(88, 101, 242)


@dataclass
class Reply:
    """A message to send: text, an embed, and optionally one PNG shown inside the embed with
    `alt`, the words a screen reader says for it."""

    content: str | None = None
    embed: discord.Embed | None = None
    png: bytes | None = None
    filename: str = "board.png"
    alt: str | None = None
    view: discord.ui.View | None = None
    mentions: tuple[int, ...] = field(default=())
    voice: Voice | None = None  # the language it is worded in, for notes added later

    def kwargs(self) -> dict:
        kwargs: dict = {"content": self.content, "embed": self.embed,
                        "allowed_mentions": discord.AllowedMentions(
                            everyone=False, roles=False,
                            users=[discord.Object(i) for i in self.mentions if i is not None])}
        if self.png is not None:
            kwargs["file"] = discord.File(io.BytesIO(self.png), filename=self.filename,
                                          description=self.alt)
            if self.embed is not None:
                self.embed.set_image(url=f"attachment://{self.filename}")
        if self.view is not None:
            kwargs["view"] = self.view
        return kwargs

    def edit_kwargs(self) -> dict:
        """`kwargs` for editing a message in place: every part is replaced, the image too."""
        kwargs = self.kwargs()
        file = kwargs.pop("file", None)
        kwargs["attachments"] = [file] if file is not None else []
        kwargs.setdefault("view", None)
        return kwargs


class ShownImages:
    """The last picture this process showed in each channel, and the message showing it. A
    new board whose picture is the same (a pass that changed nothing drawn) leaves it out and
    says so: it is right above. Other processes post boards too, so only while that message
    is still the match's newest board (in the database)."""

    def __init__(self) -> None:
        self._last: dict[int, tuple[bytes, int | None]] = {}
        self._left_out: dict[int, bytes] = {}  # a repeat left out of the board being sent

    def drop_repeat(self, channel_id: int, reply: Reply, voice: Voice = ENGLISH_VOICE,
                    newest: int | None = None) -> None:
        """Leave out a picture the channel just saw in `newest` (the newest board message),
        saying so in the channel's `voice`."""
        self._left_out.pop(channel_id, None)
        if reply.png is None or self._last.get(channel_id) != (_digest(reply.png), newest):
            return
        self._left_out[channel_id] = _digest(reply.png)
        reply.png = reply.alt = None
        if reply.embed is not None:
            reply.embed.add_field(name=voice(_("Board")),
                                  value=voice(_("Unchanged: the picture above shows it.")),
                                  inline=False)

    def shown(self, channel_id: int, reply: Reply, message_id: int | None) -> None:
        """`reply` was posted as `message_id`. A board whose picture was left out points to
        the one above, so the next repeat may be left out too while it is the newest."""
        left_out = self._left_out.pop(channel_id, None)
        if reply.png is not None:
            self._last[channel_id] = (_digest(reply.png), message_id)
        elif left_out is not None:
            self._last[channel_id] = (left_out, message_id)

    def forget(self, channel_id: int) -> None:
        """A new match starts here: its first board is always pictured, even when an earlier
        match's last picture looked the same (an empty board, the opening position)."""
        self._last.pop(channel_id, None)
        self._left_out.pop(channel_id, None)


def _digest(png: bytes) -> bytes:
    return hashlib.sha256(png).digest()


def mention(match: Match, seat: int) -> Words:
    """A person's mention (it pings them), or a computer's name in bold, worded."""
    row = match.player(seat)
    if row.kind == "user" and row.user_id:
        return f"<@{row.user_id}>"
    return lines(("**", player_name(row), "**"), "")


def seat_names(match: Match, *, bold: bool = True) -> dict[str, Words]:
    """`{seat0: name, ...}`: each seat's name (a computer's worded), for a Text's values."""
    return {f"seat{s.seat}": lines(("**", player_name(s), "**"), "") if bold else player_name(s)
            for s in match.seats}


def legacy_names(match: Match, *, bold: bool = True) -> dict[str, str]:
    """`seat_names` as plain strings, for events saved with English text (`Event.text`)."""
    return {f"seat{s.seat}": (f"**{s.name}**" if bold else s.name) for s in match.seats}


def name_list(match: Match, voice: Voice) -> list[str]:
    """Every seat's name as `voice` says it (a computer's in its words), for images."""
    return [voice(player_name(seat)) for seat in match.seats]


def describe_events(match: Match, events: Iterable[Event],
                    word: Callable[[Match, Event], Words]) -> Joined:
    """The events' lines, worded by the game (`word`); an action of a seat whose player is
    away says that a computer made it."""
    return lines(_for_away(match, event, word(match, event)) for event in events)


def _for_away(match: Match, event: Event, said: Words) -> Words:
    seat = event.seat
    if seat is None or not 0 <= seat < len(match.seats) or match.seats[seat].away is None:
        return said
    return lines((said, _("*(a computer played for {player})*", player=player_name(match.seats[seat]))),
                 " ")


async def send_reply(interaction: discord.Interaction, build: Reply | Awaitable[Reply], *,
                     ephemeral: bool = False) -> discord.Message | None:
    """Send a reply as the interaction's response (or a follow-up if already answered).

    When `build` is still being rendered after DEFER_AFTER seconds, defer first.
    """
    if isinstance(build, Reply):
        reply = build
    else:
        task = asyncio.ensure_future(build)
        if not interaction.response.is_done():
            done, _ = await asyncio.wait({task}, timeout=DEFER_AFTER)
            if not done:
                await interaction.response.defer(ephemeral=ephemeral, thinking=True)
        reply = await task
    if not interaction.response.is_done():
        callback = await interaction.response.send_message(**reply.kwargs(), ephemeral=ephemeral)
        resource = callback.resource if callback is not None else None
        return resource if isinstance(resource, discord.InteractionMessage) else None
    return await interaction.followup.send(**reply.kwargs(), ephemeral=ephemeral, wait=True)


async def answer_privately(interaction: discord.Interaction, text: str) -> None:
    """Answer only the caller, even after a public "thinking..." deferral (it is removed).
    `text` is already worded, in the caller's voice (`bot.languages.reader`)."""
    if interaction.response.type is discord.InteractionResponseType.deferred_channel_message:
        try:
            await interaction.delete_original_response()
        except discord.HTTPException as error:
            log.info("could not remove the deferred response: %s", error)
    await send_reply(interaction, Reply(content=text), ephemeral=True)


async def settle_deferred(interaction: discord.Interaction, note: str) -> None:
    """Replace a deferred "thinking..." response that will get no answer with `note`, so it
    does not end as "The application did not respond" (best effort). The response is public:
    `note` is worded in the server's voice."""
    if interaction.response.type is not discord.InteractionResponseType.deferred_channel_message:
        return
    try:
        await interaction.edit_original_response(content=note)
    except discord.HTTPException as error:
        log.info("could not settle the deferred response: %s", error)


@asynccontextmanager
async def in_turn(match: Match,
                  interaction: discord.Interaction | None = None) -> AsyncIterator[None]:
    """Announce `match` in the channel's commit order (bot/matches/commit_order.py): wait for the
    announcements of earlier commits first. An interaction kept waiting is deferred, so
    Discord's three-second limit holds."""
    ticket = match.ticket
    if ticket is None:
        yield
        return

    async def defer() -> None:
        if interaction is None or interaction.response.is_done():
            return
        try:
            if interaction.type is discord.InteractionType.component:
                await interaction.response.defer()
            else:
                await interaction.response.defer(thinking=True)
        except discord.HTTPException as error:  # the answer falls back to the channel
            log.info("could not defer an interaction waiting its turn: %s", error)

    try:
        await ticket.wait(defer if interaction is not None else None, patience=DEFER_AFTER)
        yield
    finally:
        ticket.release()


def join_sentences(voice: Voice, sentences: Iterable[Words]) -> str:
    """Whole sentences worded one after another: with a space, but none in Chinese."""
    space = "" if voice.lang.startswith("zh") else " "
    return space.join(voice(sentence) for sentence in sentences)


def lobby_embed(match: Match, rules: Words | str | None = None,
                voice: Voice = ENGLISH_VOICE) -> discord.Embed:
    """The lobby card, in the channel's `voice`: seats, how the game starts, and the match's
    chosen `rules`."""
    engine = match.engine
    seats = [f"{i + 1}. {voice(player_name(s))}" for i, s in enumerate(match.seats)]
    invited = match.row.invited_id
    target = match.table_size
    for i in range(len(match.seats), target):
        if invited is not None and i == target - 1:
            free = _("reserved for {mention}", mention=f"<@{invited}>")
        else:
            free = _("*open*")
        seats.append(f"{i + 1}. {voice(free)}")
    game = title(match.game)
    how: list[Words] = []
    if match.status == "lobby":
        heading = _("{game}: waiting for players", game=game)
        if engine.MIN_SEATS == target:
            how.append(n_("Press **Join** to take a seat. The game starts as soon as {n} player "
                          "is seated.", "Press **Join** to take a seat. The game starts as soon "
                          "as {n} players are seated.", target))
        else:
            how.append(n_("Press **Join** to take a seat. The game starts by itself when {n} "
                          "player is seated, or when the creator presses **Start** (at least "
                          "{least}).", "Press **Join** to take a seat. The game starts by itself "
                          "when {n} players are seated, or when the creator presses **Start** "
                          "(at least {least}).", target, least=engine.MIN_SEATS))
        if not match.is_full:
            how.append(_("Its creator may seat computer players (**Add a computer player**)."))
    elif match.status == "active":
        heading = _("{game}: started", game=game)
        how.append(_("The seats below are playing; boards follow."))
    elif match.status == "finished":
        heading = _("{game}: played", game=game)
        how.append(_("The game with these seats is over."))
    elif match.state is not None:  # cancelled after it started: it was no longer a lobby
        heading = _("{game}: cancelled", game=game)
        how.append(_("This match was cancelled before it ended."))
    else:
        heading = _("{game}: lobby closed", game=game)
        how.append(_("This lobby was cancelled.") if match.status == "cancelled" else
                   _("This lobby is closed."))
    embed = discord.Embed(title=voice(heading), description=join_sentences(voice, how),
                          colour=COLOUR)
    embed.add_field(name=voice(_("Seats ({seated}/{target})", seated=len(match.seats),
                                 target=target)), value="\n".join(seats))
    if rules:
        embed.add_field(name=voice(_("Rules")), value=voice(rules))
    turn = match.row.turn_seconds
    embed.add_field(name=voice(_("Clock")), value=voice(
        _("No turn clock") if turn is None else _("{duration} a turn", duration=Duration(turn))))
    if match.row.options.get(HINTS_OPTION) == "on":
        embed.add_field(name=voice(_("Hints")), value=voice(_(
            "On: `/match hint` shows the computer's move to whoever asks. A match with a hint "
            "given is not rated.")))
    embed.set_footer(text=voice(_("Match #{id}", id=str(match.id))))
    return embed
