"""How a Dou Dizhu match is shown. Hands go by DM (an image, the cards as text and the
controls for the player's turn). The channel gets a compact public table: what was played (a
small image), the bids or the trick so far, cards left, the stake and whose turn it is. It is
posted anew for news (a deal, the auction's result, a lead, a round's end) and edited in place
for bids, passes and answers within a trick.

The table speaks the server's language; hands, menus and refusals the reader's."""

from __future__ import annotations

import functools
from collections.abc import Iterable, Sequence
from typing import Any

import discord

import games.doudizhu as ddz
from bot.adapters.doudizhu.controls import private_controls, round_over_controls
from bot.adapters.doudizhu.export import round_log
from bot.adapters.doudizhu.highlights import card_words, stats_words
from bot.adapters.doudizhu.words import (
    DOT, error_words, event_words, hand_footer, ledger_text, name, payment_words,
    private_prompt, reason_words, round_over_line, so_far, stake_text, standings_words,
    table_note, table_title, turn_line,
)
from bot.matches.model import ActionResult, Match
from bot.ui.dms import told_dms_closed
from bot.ui.game_presenter import GamePresenter
from bot.ui.gone import edit_stored
from bot.ui.present import COLOUR, Reply, describe_events
from bot.ui.presenter import Export, ExportFile, GameHelp
from bot.workers.pictures import render_off_loop
from games.common import Event, GameError
from i18n import Voice, Words, _, lines, listed, n_
from render import alt as alt_text
from render.doudizhu import cards_words, render_hand, render_play

NEWS = {"deal", "landlord", "round_end", "end", "resign"}  # events worth a new channel post


@functools.lru_cache(maxsize=32)
def hand_png(hand: tuple[str, ...], voice: Voice) -> bytes:
    """A hand's picture; every action edits every live DM, mostly with an unchanged hand."""
    return render_hand(hand, voice)


def last_play(view: ddz.View) -> ddz.TrickEntry | None:
    """The cards shown on the table: the trick's last play, or the round's last."""
    if view.phase not in (ddz.PLAY, ddz.ROUND_OVER):
        return None
    return next((entry for entry in reversed(view.trick) if entry.cards), None)


class DouDizhuPresenter(GamePresenter):
    game = ddz.NAME
    has_private = True
    private_command = "/doudizhu hand"
    private_thing = "hand"
    help = GameHelp(
        title=_("Dou Dizhu"),
        players=_("3 or 4 players"),
        summary=_(
            "Fight the Landlord: after an auction (bid 1-3) the landlord takes the kitty and "
            "plays alone against the others. Beat the last play with a higher one of the same "
            "type and size (bombs and the rocket beat anything) or pass; the first side to "
            "empty a hand wins the bid, doubled by every bomb and rocket (with 4 players only "
            "bombs of six or more cards and rockets double). Your hand and a menu of your plays "
            "come by DM."),
        commands=(("/doudizhu new [players]", _("open a 3- or 4-player game here")),
                  ("/doudizhu bid amount", _("pass, or bid 1, 2 or 3 in the auction")),
                  ("/doudizhu play cards",
                   _("play ranks like 33344 or 10JQKA (autocomplete)")),
                  ("/doudizhu pass", _("pass on the current trick")),
                  ("/doudizhu hand", _("your hand and controls, only to you")),
                  ("/doudizhu next", _("deal the next round after a round")),
                  ("/doudizhu stop", _("end the series; the ledger decides the winner"))),
    )

    def lobby_rules(self, match: Match) -> Words:
        if match.table_size == 4:
            rules = _("4 players, two decks (108 cards): 25 cards each, 8 in the kitty")
        else:
            rules = _("3 players, one deck (54 cards): 17 cards each, 3 in the kitty")
        deals = (match.engine_options or {}).get("deals")
        if deals is None:
            return rules
        return lines((rules, n_("{n} deal", "{n} deals", deals)), DOT)

    def event_text(self, match: Match, event: Event) -> Words:
        return event_words(match, event)

    def error_text(self, error: GameError) -> Words | None:
        return error_words(error)

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
            return Reply(content=voice(_("The {game} series (match #{id}) is over.",
                                         game=self.help.title, id=str(match.id))))
        hand = view.hand
        prompt = voice(private_prompt(match, view, seat))
        said: list[Words] = [_("**Cards:** {cards}", cards=cards_words(hand))] if hand else []
        if view.phase == ddz.AUCTION:
            if view.bid:
                high = next(s for s, amount in reversed(view.bids) if amount == view.bid)
                said.append(_("**Auction:** the high bid is {bid} by {player}.", bid=view.bid,
                              player=name(match, high)))
            else:
                said.append(_("**Auction:** no bid yet."))
        elif view.landlord is not None:
            if view.landlord == seat:
                said.append(_("**You are the landlord**, playing for {bid} "
                              "\N{MULTIPLICATION SIGN} {multiplier}.", bid=view.bid,
                              multiplier=view.multiplier))
            else:
                partners = [name(match, s) for s in range(view.players)
                            if s not in (seat, view.landlord)]
                said.append(_("**The landlord is {landlord}**; you play with {partners} (stake "
                              "{bid} \N{MULTIPLICATION SIGN} {multiplier}).",
                              landlord=name(match, view.landlord), partners=listed(partners),
                              bid=view.bid, multiplier=view.multiplier))
        counts = lines((lines((name(match, s), str(count)), " ")
                        for s, count in enumerate(view.hand_counts)), DOT)
        said.append(_("**Cards left:** {counts}", counts=counts))
        controls = private_controls(match, seat, voice)
        title = (n_("Your hand: {n} card", "Your hand: {n} cards", len(hand)) if hand
                 else _("You are out of cards"))
        embed = discord.Embed(title=voice(title), description="\n".join(map(voice, said)),
                              colour=COLOUR)
        embed.set_footer(text=voice(hand_footer(match, view)))
        png = await render_off_loop(hand_png, tuple(hand), voice) if hand else None
        return Reply(content=prompt, embed=embed, png=png, view=controls,
                     alt=alt_text.doudizhu_cards(hand, _("Your hand"), voice),
                     filename=f"hand-{match.id}.png")

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
        return turn is not None and await told_dms_closed(self.live_dms.store, match, turn)

    async def board_reply(self, match: Match, events: Iterable[Event],
                          voice: Voice) -> Reply:
        state: ddz.State = match.state
        view = ddz.view(state)
        events = tuple(events)
        said = voice(describe_events(match, events, self.event_text))
        embed = discord.Embed(title=voice(table_title(view)),
                              description=said or None, colour=COLOUR)
        shown = last_play(view)
        png = alt = None
        if shown is not None:
            player = name(match, shown.seat)
            png = await render_off_loop(render_play, shown.cards, voice)
            alt = alt_text.doudizhu_cards(shown.cards, _("Played by {player}", player=player),
                                          voice)
            embed.add_field(name=voice(_("On the table")), inline=False,
                            value=voice(table_note(view, shown, player)))
        mentions: tuple[int, ...] = ()
        controls = None
        if view.phase in (ddz.AUCTION, ddz.PLAY):
            counts = []
            for seat, count in enumerate(view.hand_counts):
                arrow = "\N{BLACK RIGHT-POINTING TRIANGLE} " if seat == view.turn else ""
                line = (voice(_("{player} (landlord): {count}", player=name(match, seat),
                                count=count))
                        if seat == view.landlord else voice(lines((name(match, seat), str(count)),
                                                                  ": ")))
                counts.append(arrow + line)
            progress = so_far(match, view)
            if progress:
                embed.add_field(name=voice(progress[0]), value=voice(progress[1]), inline=False)
            embed.add_field(name=voice(_("Cards left")), value="\n".join(counts))
            embed.add_field(name=voice(_("Stake")), value=voice(stake_text(view)))
            closed = await told_dms_closed(self.live_dms.store, match, view.turn)
            content = voice(turn_line(match, view, closed))
            mentions = (match.player(view.turn).user_id,)
        elif view.phase == ddz.ROUND_OVER:
            self._round_fields(embed, match, view, events, voice)
            embed.add_field(name=voice(_("Ledger")), value=voice(ledger_text(match, view.ledger)))
            content = voice(round_over_line(view))
            controls = round_over_controls(match, voice)
        else:
            result = view.outcome
            if result.reason == "deals":  # the last deal, paid: shown as every deal before it
                self._round_fields(embed, match, view, events, voice)
            embed.add_field(name=voice(_("Final ledger")),
                            value=voice(ledger_text(match, view.ledger)))
            standings = standings_words(match, view.ledger, result.winners, draw=result.draw)
            if result.reason == "deals":
                content = voice(n_("**The series of {n} deal is over.** {standings}",
                                   "**The series of {n} deals is over.** {standings}",
                                   view.round_no, standings=standings))
            else:
                content = voice(n_("**The series is over** ({reason}, {n} round). {standings}",
                                   "**The series is over** ({reason}, {n} rounds). {standings}",
                                   view.round_no, reason=reason_words(match, result),
                                   standings=standings))
        embed.set_footer(text=voice(_("Match #{id} \N{MIDDLE DOT} ledger: {ledger}",
                                      id=str(match.id), ledger=ledger_text(match, view.ledger))))
        return Reply(content=content, embed=embed, png=png, view=controls, alt=alt,
                     filename=f"play-{match.id}.png", mentions=mentions)

    @staticmethod
    def _round_fields(embed: discord.Embed, match: Match, view: ddz.View,
                      events: tuple[Event, ...], voice: Voice) -> None:
        """A paid round: every hand shown, the payment (unless an event above tells it) and
        what the round paid each seat."""
        for seat, hand in enumerate(view.revealed_hands or ()):
            player = (_("{player} (landlord)", player=name(match, seat))
                      if seat == view.landlord else name(match, seat))
            embed.add_field(name=voice(player), inline=False,
                            value=voice(cards_words(hand) if hand else _("out of cards")))
        if not any(event.kind == "round_end" for event in events):  # else it is told above
            payment = payment_words(match, view.payment, bold=False)
            embed.add_field(name=voice(_("Payment")), value=voice(payment), inline=False)
        embed.add_field(name=voice(_("This round")),
                        value=voice(ledger_text(match, view.payments)))

    # -- the end -----------------------------------------------------------------------------

    def export_files(self, export: Export) -> list[ExportFile]:
        """A round log in the reader's language; hands only of the rounds that are over."""
        return [export.file("txt", round_log(export.match, export.steps, export.voice,
                                             over=export.over, first=export.first))]

    def stats_lines(self, rows: Sequence[dict[str, Any]]) -> list[Words]:
        return stats_words(rows)

    def card_lines(self, match: Match, highlights: list[dict[str, Any]]) -> list[Words]:
        return card_words(match, highlights)

    def cancel_summary(self, match: Match) -> Words:
        """The standings when `/match cancel` ends a series."""
        state: ddz.State | None = match.state
        if state is None:
            return ""
        unfinished = state.phase in (ddz.AUCTION, ddz.PLAY)
        rounds = state.round_no - 1 if unfinished else state.round_no
        said = {"ledger": ledger_text(match, state.ledger),
                "standings": standings_words(match, state.ledger)}
        if unfinished:
            return n_("Ledger after {n} round (round {round} was not finished and does not "
                           "count): {ledger}. {standings}",
                           "Ledger after {n} rounds (round {round} was not finished and does "
                           "not count): {ledger}. {standings}", rounds, round=state.round_no,
                           **said)
        return n_("Ledger after {n} round: {ledger}. {standings}",
                       "Ledger after {n} rounds: {ledger}. {standings}", rounds, **said)

