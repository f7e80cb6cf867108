"""`/doudizhu ...`: Dou Dizhu for 3 or 4 players. Hands go by DM (an image, the cards as text
and the controls for the player's turn). The channel gets a compact public table: what was
played (a small image), the bids or the trick so far, cards left, the stake and whose turn it
is. It is posted anew for news (a deal, the auction's result, a lead, a round's end) and
edited in place for bids, passes and answers within a trick."""

from __future__ import annotations

import functools
import logging
from collections.abc import Iterable
from typing import TYPE_CHECKING, Literal

import discord
from discord import app_commands
from discord.ext import commands

import games.doudizhu as ddz
from bot.cogs.base import (
    TURN_TIME_CHOICES, TURN_TIME_TEXT, GameCog, GameHelp, add_game, turn_option,
)
from bot.cogs.doudizhu.controls import (
    DYNAMIC_ITEMS, legal_combinations, offered_plays, play_label, private_controls,
    round_over_controls,
)
from bot.gone import edit_stored
from bot.present import COLOUR, Reply, describe_events, mention, render_in_thread
from bot.private import told_dms_closed
from bot.service import ActionResult, LobbyError, Match
from games.common import Event, counted, join_and
from render import alt as alt_text
from render.doudizhu import render_hand, render_play
from i18n import Voice

if TYPE_CHECKING:
    from bot.client import GamenightBot


log = logging.getLogger(__name__)


def cards_text(cards: Iterable[str]) -> str:
    return " ".join(ddz.card_text(card) for card in ddz.sort_cards(list(cards))) or "none"


def nick(match: Match, seat: int) -> str:
    return match.player(seat).name


def signed(amount: int) -> str:
    return f"{amount:+d}" if amount else "0"


def ledger_text(match: Match, ledger: Iterable[int]) -> str:
    return " \N{MIDDLE DOT} ".join(f"{nick(match, seat)} {signed(amount)}"
                                   for seat, amount in enumerate(ledger))


def standings_text(match: Match, ledger: tuple[int, ...], winners: Iterable[int] | None = None,
                   *, draw: bool = False) -> str:
    """Who won the series, from the ledger."""
    if winners is None:
        best = max(ledger)
        winners = [seat for seat, amount in enumerate(ledger) if amount == best]
        draw = len(winners) == len(ledger)
    winners = list(winners)
    if draw or not winners:
        return "The ledger is level: nobody wins the series."
    names = join_and(f"**{nick(match, seat)}**" for seat in winners)
    verb = "wins the series" if len(winners) == 1 else "share the series win"
    amount = ledger[winners[0]]  # 0 when a player resigned before anything was paid
    return f"{names} {verb}" + (f" with {signed(amount)}." if amount else ".")


@functools.lru_cache(maxsize=32)
def hand_png(hand: tuple[str, ...]) -> bytes:
    """A hand's picture; every action edits every live DM, mostly with an unchanged hand."""
    return render_hand(hand)


NEWS = {"deal", "landlord", "round_end", "end", "resign"}  # events worth a new channel post


def normalise_play(text: str) -> str:
    """Typed ranks in the compact code: `10 j q` -> `TJQ` (a ten may be `10`, `T` or `0`)."""
    return "".join(text.split()).upper().replace(",", "").replace("10", "T").replace("0", "T")


@app_commands.guild_only()
class DouDizhuCog(GameCog, commands.GroupCog, group_name="doudizhu",
                  group_description="Dou Dizhu (Fight the Landlord) for 3 or 4 players"):
    game = ddz.NAME
    components = DYNAMIC_ITEMS
    has_private = True
    private_command = "/doudizhu hand"
    private_thing = "hand"
    help = GameHelp(
        title="Dou Dizhu",
        players="3 or 4 players",
        summary=("Fight the Landlord: after an auction (bid 1-3) the landlord takes the kitty "
                 "and plays alone against the others. Beat the last play with a higher one of "
                 "the same type and size (bombs and the rocket beat anything) or pass; the first "
                 "side to empty a hand wins the bid, doubled by every bomb and rocket (with 4 "
                 "players only bombs of six or more cards and rockets double). Your hand and a "
                 "menu of your plays come by DM."),
        commands=(("/doudizhu new [players]", "open a 3- or 4-player game here"),
                  ("/doudizhu bid amount", "pass, or bid 1, 2 or 3 in the auction"),
                  ("/doudizhu play cards", "play ranks like 33344 or 10JQKA (autocomplete)"),
                  ("/doudizhu pass", "pass on the current trick"),
                  ("/doudizhu hand", "your hand and controls, only to you"),
                  ("/doudizhu next", "deal the next round after a round"),
                  ("/doudizhu stop", "end the series; the ledger decides the winner")),
    )

    def __init__(self, bot) -> None:
        GameCog.__init__(self, bot)

    def lobby_rules(self, match: Match) -> str:
        if match.table_size == 4:
            return "4 players, two decks (108 cards): 25 cards each, 8 in the kitty"
        return "3 players, one deck (54 cards): 17 cards each, 3 in the kitty"

    # -- commands ----------------------------------------------------------------------------

    @app_commands.command(name="new", description="Open a Dou Dizhu game in this channel")
    @app_commands.describe(players="How many players: 3 (one deck) or 4 (two decks)",
                           turn_time=TURN_TIME_TEXT)
    @app_commands.choices(turn_time=TURN_TIME_CHOICES)
    async def new(self, interaction: discord.Interaction, players: Literal[3, 4] = 3,
                  turn_time: str | None = None) -> None:
        await self.open_lobby(interaction, options={"players": int(players),
                                                    **turn_option(turn_time)})

    @app_commands.command(name="bid", description="Bid in the auction, or pass")
    @app_commands.describe(amount="pass, or 1, 2 or 3 (more than the highest bid so far)")
    async def bid(self, interaction: discord.Interaction,
                  amount: Literal["pass", "1", "2", "3"]) -> None:
        await self.act(interaction, f"bid {amount}")

    @app_commands.command(name="play", description="Play cards on the current trick")
    @app_commands.describe(cards="Ranks, e.g. 33344, 10JQKA, 2 or BR (B/R: black/red joker)")
    async def play(self, interaction: discord.Interaction, cards: str) -> None:
        await self.act(interaction, f"play {cards}")

    @play.autocomplete("cards")
    async def play_choices(self, interaction: discord.Interaction,
                           current: str) -> list[app_commands.Choice[str]]:
        match = await self.service.current(interaction.channel_id)
        if match is None or match.game != self.game or match.state is None:
            return []
        seat = match.seat_of(interaction.user.id)
        if seat is None or match.state.phase != ddz.PLAY or match.state.turn != seat:
            return []
        typed = normalise_play(current)
        combos = [combo for combo in legal_combinations(match, seat)
                  if combo.code.startswith(typed)
                  or "".join(sorted(combo.code)) == "".join(sorted(typed))]
        shown = combos if len(combos) <= 25 else offered_plays(combos)
        return [app_commands.Choice(name=play_label(combo), value=str(combo)) for combo in shown]

    @app_commands.command(name="pass", description="Pass on the current trick")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "pass")

    @app_commands.command(name="hand", description="See your hand and your controls (only you)")
    async def hand(self, interaction: discord.Interaction) -> None:
        match, seat = await self.service.seated(interaction.channel_id, interaction.user.id,
                                                game=self.game)
        await self.show_private(interaction, match, seat)

    @app_commands.command(name="next", description="Deal the next round (once a round is over)")
    async def next_(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "next")

    @app_commands.command(name="stop", description="End the series after a round: the ledger "
                                                   "decides the winner")
    async def stop(self, interaction: discord.Interaction) -> None:
        await self.act(interaction, "stop")

    # -- controls (select and buttons in DMs, ephemeral hands and round results) ---------------

    async def act_from_control(self, interaction: discord.Interaction, text: str,
                               match_id: int, version: int) -> None:
        """A menu or button was used: refuse it if the game has moved on since it was sent,
        otherwise act, mark the control's message as used and post the table in the channel."""
        match = await self.service.get_or_fail(match_id)
        if not match.is_open:
            ended = "was cancelled" if match.status == "cancelled" else "is over"
            raise LobbyError(f"That {match.title} match {ended}.")
        result = await self.service.act(match.channel_id, interaction.user.id, text,
                                        match_id=match_id, version=version)
        message = interaction.message
        private = interaction.guild_id is None or (message is not None and message.flags.ephemeral)
        who = "You" if private else f"**{interaction.user.display_name}**"
        done = f"\N{WHITE HEAVY CHECK MARK} {who} chose `{result.action}`."
        before = message.content if message is not None and message.content else ""
        try:
            await interaction.response.edit_message(content=f"{before}\n{done}".strip(),
                                                    view=None)
        except discord.HTTPException as error:  # the play stands: announce it all the same
            log.warning("could not mark the control of match %s as used: %s",
                        match_id, error)
        await self.announce(result)
        await self.tell_missing(interaction, match.channel_id)  # the table may not be posted

    async def announce(self, result: ActionResult,
                       interaction: discord.Interaction | None = None) -> None:
        """As for every game; after Next or Stop the round's result post also loses its
        buttons, which could only be refused now."""
        round_post = result.match.row.board_message_id
        await super().announce(result, interaction)
        if result.action in ("next", "stop"):
            await self._drop_round_buttons(result.match, round_post)

    async def repost_board(self, interaction: discord.Interaction, match: Match) -> None:
        """`/match status`; between rounds the new post carries Next / Stop, so the round's
        earlier post loses them (Next and Stop later clear only the newest post)."""
        earlier = match.row.board_message_id
        await super().repost_board(interaction, match)
        if match.state is not None and match.state.phase == ddz.ROUND_OVER:
            await self._drop_round_buttons(match, earlier)

    async def _drop_round_buttons(self, match: Match, message_id: int | None) -> None:
        await edit_stored(self.bot, match, message_id, "Next/Stop", view=None)

    # -- private view ------------------------------------------------------------------------

    def computer_to_act(self, match: Match) -> int | None:
        """Between two rounds any seat may deal the next or stop the series: computers leave
        that to the people."""
        if match.state is not None and match.state.phase == ddz.ROUND_OVER:
            return None
        return match.computer_to_act()

    def must_act(self, match: Match, seat: int) -> bool:
        """The seat to bid or play (a round's end is told in the channel, with its buttons)."""
        state: ddz.State = match.state
        return state.phase in (ddz.AUCTION, ddz.PLAY) and state.turn == seat

    async def private_reply(self, match: Match, seat: int, voice: Voice) -> Reply:
        state: ddz.State = match.state
        view = ddz.view(state, seat)
        if state.phase == ddz.OVER:
            return Reply(content=f"The {match.title} series (match #{match.id}) is over.")
        hand = view.hand
        prompt = self._private_prompt(match, view, seat)
        lines = [f"**Cards:** {cards_text(hand)}"] if hand else []
        if view.phase == ddz.AUCTION:
            if view.bid:
                high = next(s for s, amount in reversed(view.bids) if amount == view.bid)
                lines.append(f"**Auction:** the high bid is {view.bid} by {nick(match, high)}.")
            else:
                lines.append("**Auction:** no bid yet.")
        elif view.landlord is not None:
            if view.landlord == seat:
                lines.append(f"**You are the landlord**, playing for {view.bid} "
                             f"\N{MULTIPLICATION SIGN} {view.multiplier}.")
            else:
                partners = [nick(match, s) for s in range(view.players)
                            if s not in (seat, view.landlord)]
                lines.append(f"**The landlord is {nick(match, view.landlord)}**; you play with "
                             f"{join_and(partners)} (stake {view.bid} \N{MULTIPLICATION SIGN} "
                             f"{view.multiplier}).")
        counts = " \N{MIDDLE DOT} ".join(f"{nick(match, s)} {count}"
                                         for s, count in enumerate(view.hand_counts))
        lines.append(f"**Cards left:** {counts}")
        controls = private_controls(match, seat)
        title = f"Your hand: {counted(len(hand), 'card')}" if hand else "You are out of cards"
        embed = discord.Embed(title=title,
                              description="\n".join(lines),
                              colour=COLOUR)
        embed.set_footer(text=f"Dou Dizhu match #{match.id} \N{MIDDLE DOT} round {view.round_no}")
        png = await render_in_thread(hand_png, tuple(hand)) if hand else None
        return Reply(content=prompt, embed=embed, png=png, view=controls,
                     alt=alt_text.doudizhu_cards(hand, "Your hand"),
                     filename=f"hand-{match.id}.png")

    @staticmethod
    def _private_prompt(match: Match, view: ddz.View, seat: int) -> str:
        if view.phase == ddz.ROUND_OVER:
            return (f"Round {view.round_no} is over: the hands and the payment are in the "
                    "channel. Deal the next round, or stop the series?")
        if view.turn != seat:
            return f"Waiting for **{nick(match, view.turn)}**."
        if view.phase == ddz.AUCTION:
            higher = join_and(range(view.bid + 1, 4), "or")
            return f"**Your turn to bid:** pass or bid {higher}."
        if view.to_beat is not None:
            return (f"**Your turn:** beat **{view.to_beat.text}** from "
                    f"{nick(match, view.to_beat.seat)}, or pass.")
        return "**Your turn to lead:** play any combination."

    # -- public table ------------------------------------------------------------------------

    async def posts_anew(self, match: Match, events: tuple[Event, ...]) -> bool:
        """A new post for a deal, the auction's result, a lead, the round's end and the
        series' end, or to ping a player to act who gets no DM; bids, passes and answers
        within a trick edit the live table (the player to act is told by DM)."""
        state: ddz.State = match.state
        kinds = {event.kind for event in events}
        if state.phase not in (ddz.AUCTION, ddz.PLAY) or kinds & NEWS:
            return True
        if "play" in kinds and len(state.trick) == 1:  # a lead: a new trick begins
            return True
        turn = ddz.current_seat(state)
        return turn is not None and await told_dms_closed(self.bot, match, turn)

    async def board_reply(self, match: Match, events: Iterable[Event],
                          voice: Voice) -> Reply:
        state: ddz.State = match.state
        view = ddz.view(state)
        events = tuple(events)
        embed = discord.Embed(title=f"Dou Dizhu \N{MIDDLE DOT} round {view.round_no}",
                              description=voice(describe_events(match, events, self.event_text)) or None, colour=COLOUR)
        shown = self._last_play(view)
        png = alt = None
        if shown is not None:
            png = await render_in_thread(render_play, shown.cards)
            alt = alt_text.doudizhu_cards(shown.cards, f"Played by {nick(match, shown.seat)}")
            embed.add_field(name="On the table", inline=False,
                            value=f"**{shown.text}** by {nick(match, shown.seat)}"
                                  + self._table_note(view, shown))
        mentions: tuple[int, ...] = ()
        controls = None
        if view.phase in (ddz.AUCTION, ddz.PLAY):
            counts = []
            for seat, count in enumerate(view.hand_counts):
                role = " (landlord)" if seat == view.landlord else ""
                arrow = "\N{BLACK RIGHT-POINTING TRIANGLE} " if seat == view.turn else ""
                counts.append(f"{arrow}{nick(match, seat)}{role}: {count}")
            so_far = self._so_far(match, view)
            if so_far:
                embed.add_field(name=so_far[0], value=so_far[1], inline=False)
            embed.add_field(name="Cards left", value="\n".join(counts))
            embed.add_field(name="Stake", value=self._stake_text(view))
            closed = await told_dms_closed(self.bot, match, view.turn)
            content = self._turn_line(match, view, "`/doudizhu hand`" if closed else "your DM")
            mentions = (match.player(view.turn).user_id,)
        elif view.phase == ddz.ROUND_OVER:
            for seat, hand in enumerate(view.revealed_hands or ()):
                role = " (landlord)" if seat == view.landlord else ""
                embed.add_field(name=f"{nick(match, seat)}{role}", inline=False,
                                value=cards_text(hand) if hand else "out of cards")
            if not any(event.kind == "round_end" for event in events):  # else it is told above
                payment = view.payment_text.format(**{f"seat{s.seat}": s.name
                                                      for s in match.seats})
                embed.add_field(name="Payment", value=payment, inline=False)
            embed.add_field(name="This round", value=ledger_text(match, view.payments))
            embed.add_field(name="Ledger", value=ledger_text(match, view.ledger))
            content = (f"**Round {view.round_no} is over.** `/doudizhu next` deals round "
                       f"{view.round_no + 1}; `/doudizhu stop` ends the series.")
            controls = round_over_controls(match)
        else:
            result = view.outcome
            embed.add_field(name="Final ledger", value=ledger_text(match, view.ledger))
            reason = result.reason.format(**{f"seat{s.seat}": s.name for s in match.seats})
            content = (f"**The series is over** ({reason}, {view.round_no} round"
                       f"{'s' if view.round_no != 1 else ''}). "
                       + standings_text(match, view.ledger, result.winners, draw=result.draw))
        embed.set_footer(text=f"Match #{match.id} \N{MIDDLE DOT} ledger: "
                              f"{ledger_text(match, view.ledger)}")
        return Reply(content=content, embed=embed, png=png, view=controls, alt=alt,
                     filename=f"play-{match.id}.png", mentions=mentions)

    @staticmethod
    def _so_far(match: Match, view: ddz.View) -> tuple[str, str] | None:
        """The auction or the trick so far: the live table is edited as it goes on."""
        dot = " \N{MIDDLE DOT} "
        if view.phase == ddz.AUCTION and view.bids:
            return "Bids", dot.join(f"{nick(match, seat)} {amount or 'pass'}"
                                    for seat, amount in view.bids)
        if view.phase == ddz.PLAY and view.trick:
            return "This trick", dot.join(f"{nick(match, entry.seat)} {entry.text}"
                                          for entry in view.trick)
        return None

    @staticmethod
    def _table_note(view: ddz.View, shown: ddz.TrickEntry) -> str:
        if view.to_beat == shown:
            return " (to beat)"
        if view.phase == ddz.PLAY:
            return " (won the trick)"
        return ""

    @staticmethod
    def _last_play(view: ddz.View) -> ddz.TrickEntry | None:
        if view.phase not in (ddz.PLAY, ddz.ROUND_OVER):
            return None
        return next((entry for entry in reversed(view.trick) if entry.cards), None)

    @staticmethod
    def _stake_text(view: ddz.View) -> str:
        if view.landlord is None:
            return f"auction: high bid {view.bid}" if view.bid else "auction: no bid yet"
        times = "\N{MULTIPLICATION SIGN}"
        doubled = f" (doubled by {join_and(view.doublings)})" if view.doublings else ""
        return f"bid {view.bid} {times} {view.multiplier} = {view.stake}{doubled}"

    @staticmethod
    def _turn_line(match: Match, view: ddz.View, controls: str) -> str:
        """Whose turn, and how to act; `controls` is where the player's buttons are (their
        DM, or `/doudizhu hand` for a player whose DMs are closed)."""
        who = mention(match, view.turn)
        if view.phase == ddz.AUCTION:
            higher = join_and(["pass", *(f"`{amount}`" for amount in range(view.bid + 1, 4))],
                              "or")
            return f"{who}, your bid: `/doudizhu bid` {higher} (or the buttons in {controls})."
        if view.to_beat is not None:
            return (f"{who}, beat **{view.to_beat.text}** or pass: `/doudizhu play`, "
                    f"`/doudizhu pass`, or the menu in {controls}.")
        return f"{who}, you lead: `/doudizhu play` or the menu in {controls}."

    # -- the end -----------------------------------------------------------------------------

    def cancel_summary(self, match: Match) -> str:
        """The standings when `/match cancel` ends a series."""
        state: ddz.State | None = match.state
        if state is None:
            return ""
        unfinished = state.phase in (ddz.AUCTION, ddz.PLAY)
        rounds = state.round_no - 1 if unfinished else state.round_no
        note = f" (round {state.round_no} was not finished and does not count)" if unfinished else ""
        return (f"Ledger after {rounds} round{'s' if rounds != 1 else ''}{note}: "
                f"{ledger_text(match, state.ledger)}. {standings_text(match, state.ledger)}")


async def setup(bot: GamenightBot) -> None:
    """Add this game to the bot (see `bot.registry`)."""
    await add_game(bot, DouDizhuCog(bot))
