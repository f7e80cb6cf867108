"""`/patchwork ...`: buying, previewing and placing patches, and how the table is posted.

The engine says what happened (events) and what went wrong (errors) as keys and plain values;
`event_words` and `error_words` here put them in words, in any language (see i18n).
"""

from __future__ import annotations

import json
import logging
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

import discord
from discord import app_commands
from discord.ext import commands

import games.patchwork as patchwork
from bot.commands.game import (
    TURN_TIME_CHOICES, TURN_TIME_TEXT, GameCog, GameHelp, add_game, turn_option,
)
from bot.ui.exports import Export, ExportFile
from bot.ui.highlights import average, best, number, total
from bot.ui.present import (
    COLOUR, Reply, describe_events, mention, name_list, seat_names, send_reply,
)
from bot.workers.pictures import render_off_loop
from bot.matches.errors import LobbyError
from bot.matches.model import Match, player_name
from games.common import Event, GameError, quoted, shown
from games.patchwork import SQUARES, oriented_cells
from i18n import ENGLISH_VOICE, Text, Voice, Words, _, lines, listed, n_
from render import alt as alt_text
from render.patchwork import drawn_to_start, render_game, render_preview

if TYPE_CHECKING:
    from bot.app.client import GamenightBot

log = logging.getLogger(__name__)

PLACE_FIRST = _("you must place your leather patch first: use `/patchwork place` and a free "
                "square, e.g. `/patchwork place e5`")
NOT_YOUR_TURN = {  # why the other player moves (the engine's `why`), as a sentence
    patchwork.TURN_LEATHER: _("It is not your turn: the other player must place a leather "
                              "patch first."),
    patchwork.TURN_BEHIND: _("It is not your turn: the other player's time token is behind "
                             "yours, so they move."),
    "start": _("It is not your turn: the other player was drawn to start."),
    patchwork.TURN_ON_TOP: _("It is not your turn: your tokens share a space and the other "
                             "player's arrived last, so it is on top and moves."),
}


def orientation_words(name: str) -> Words | str:
    """An orientation as players read it: `90`, or `90 mirrored` in the reader's words."""
    degrees, _space, mirrored = name.partition(" ")
    return _("{degrees} mirrored", degrees=degrees) if mirrored else degrees


def _cannot_go(values: Mapping[str, object]) -> Text | None:
    """A purchase that does not fit the quilt (`patchwork.sticks_out` or `.overlap`)."""
    where = {"patch": values["patch"], "square": values["square"],
             "orientation": orientation_words(str(values["orientation"]))}
    past = values.get("past")
    if past == "column":
        return _("patch {patch} can't go on {square} turned {orientation}: it sticks out past "
                 "column i", **where)
    if past == "row":
        return _("patch {patch} can't go on {square} turned {orientation}: it sticks out past "
                 "row 9", **where)
    if past == "both":
        return _("patch {patch} can't go on {square} turned {orientation}: it sticks out past "
                 "column i and row 9", **where)
    if "squares" in values:
        return _("patch {patch} can't go on {square} turned {orientation}: it would cover "
                 "{squares}, already filled", squares=listed(values["squares"]), **where)
    return None


def error_words(error: GameError) -> Words | None:
    """A Patchwork engine error in words (None: not one of Patchwork's keys). Most are clauses
    that also fit in a preview's sentence; whose turn it is and the end are sentences."""
    key, values = error.key, error.values
    if not isinstance(key, str) or not key.startswith("patchwork."):
        return None
    what = key.partition(".")[2]
    typed = quoted(values.get("text", ""))
    if what == "not_your_turn":
        return NOT_YOUR_TURN.get(values.get("why"), NOT_YOUR_TURN[patchwork.TURN_ON_TOP])
    if what in ("sticks_out", "overlap"):
        return _cannot_go(values)
    if what == "place_first":
        return n_("you must place a leather patch first: write 'place' and a free square, "
                  "e.g. 'place e5'",
                  "you must place {n} leather patches first: write 'place' and a free square, "
                  "e.g. 'place e5'", values.get("count", 1))
    if what == "few_left":
        return n_("only {n} patch is left on offer; choose 1",
                  "only {n} patches are left on offer; choose 1-{n}", values.get("left", 1))
    words: dict[str, Callable[[], Words]] = {
        "over": lambda: _("The game is over."),
        "not_playing": lambda: _("seat {seat} is not playing in this game",
                                 seat=str(values.get("seat"))),
        "seats": lambda: _("Patchwork is a game for exactly 2 players, not {seats}",
                           seats=values.get("seats", 0)),
        "no_options": lambda: _("Patchwork has no options (got {options})",
                                options=shown(", ".join(values.get("options", ())))),
        "no_leather": lambda: _("you have no leather patch to place: buy a patch "
                                "('buy 1 0 a1') or 'pass'"),
        "not_a_move": lambda: _("{move} is not a Patchwork move: use 'buy 2 90m c4', 'pass' or "
                                "'place e5'", move=str(values.get("move", ""))),
        "finished": lambda: _("your time token is on the final space: you have no turns left "
                              "to buy with"),
        "place_yours_first": lambda: _("you must place your leather patch first"),
        "none_left": lambda: _("every patch has been bought: pass instead"),
        "too_dear": lambda: _("that patch costs {cost} buttons, you have {have}",
                              cost=values.get("cost", 0), have=values.get("have", 0)),
        "filled": lambda: _("{square} is already filled: place the leather patch on an empty "
                            "square", square=str(values.get("square", ""))),
        "bad_orientation": lambda: _("I can't read the orientation {text}: use 0, 90, 180 or 270 "
                                     "(clockwise turns), with m for the mirror image, e.g. 90m",
                                     text=typed),
        "bad_square": lambda: _("{text} is not a square of the quilt: use a column a-i and a row "
                                "1-9 (row 1 at the top), e.g. c4", text=typed),
        "bad_choice": lambda: _("you can only buy patch 1, 2 or 3 of those on offer, not "
                                "{choice}", choice=str(values.get("text", ""))),
        "not_a_buy": lambda: _("a purchase starts with 'buy', like 'buy 2 90m c4', not {text}",
                               text=typed),
        "short_buy": lambda: _("write a purchase as 'buy <1-3> <orientation> <square>', e.g. "
                               "'buy 2 90m c4' (patch 2 on offer, turned 90 degrees clockwise "
                               "and mirrored, top-left on c4)"),
        "choose_patch": lambda: _("choose patch 1, 2 or 3 of those on offer, not {text}",
                                  text=typed),
        "not_a_pass": lambda: _("to pass, write 'pass', not {text}", text=typed),
        "not_a_place": lambda: _("place a leather patch like 'place e5', not {text}", text=typed),
        "no_move": lambda: _("write a move: 'buy 2 90m c4', 'pass' or 'place e5'"),
        "unreadable": lambda: _("I can't read {text}: write 'buy 2 90m c4' (patch, orientation, "
                                "top-left square), 'pass', or 'place e5' for a leather patch",
                                text=typed),
    }
    word = words.get(what)
    return None if word is None else word()


def event_words(event: Event, names: Mapping[str, str]) -> Words | None:
    """A Patchwork engine event in words; `names` are the players' names as `seat0`, `seat1`
    (None: not one of Patchwork's kinds of event)."""
    values = event.values
    player = names.get(f"seat{event.seat}", "")
    kind = event.kind
    if kind == "start":
        return _("{player} was drawn to start.", player=player)
    if kind == "buy":
        return n_("{player} bought a {size}-square patch ({n} button, {time} time, {income} "
                  "income) and placed it on {square} (turned {orientation}).",
                  "{player} bought a {size}-square patch ({n} buttons, {time} time, {income} "
                  "income) and placed it on {square} (turned {orientation}).",
                  values["cost"], player=player, size=values["size"], time=values["time"],
                  income=values["income"], square=str(values["square"]),
                  orientation=orientation_words(str(values["orientation"])))
    if kind == "pass":
        return n_("{player} passed, moving {n} space and taking {n} button.",
                  "{player} passed, moving {n} spaces and taking {n} buttons.",
                  values["moved"], player=player)
    if kind == "income":
        return _income_words(player, values["space"], values["income"], values["final"])
    if kind == "leather":
        return _("{player} reached space {space} first and takes its leather patch.",
                 player=player, space=values["space"])
    if kind == "finish":
        return _("{player} reached the final space.", player=player)
    if kind == "place":
        return _("{player} placed a leather patch on {square}.", player=player,
                 square=str(values["square"]))
    if kind == "bonus":
        return _("{player} filled a 7x7 square first and takes the bonus tile (+{points}).",
                 player=player, points=values["points"])
    if kind == "lost":
        return _("{player}'s quilt is full, so the leather patch is set aside.", player=player)
    if kind == "end":
        a, b = values["scores"]
        scores = {"player0": names.get("seat0", ""), "score0": a,
                  "player1": names.get("seat1", ""), "score1": b, "winner": player}
        if values.get("tie_break"):
            return _("The game is over: {player0} {score0}, {player1} {score1}. {winner} wins "
                     "(tie broken: first to reach the final space).", **scores)
        return _("The game is over: {player0} {score0}, {player1} {score1}. {winner} wins.",
                 **scores)
    if kind == "again":
        if values.get("why") == patchwork.TURN_BEHIND:
            return _("{player} is still behind and moves again.", player=player)
        return _("{player} arrived last on the shared space and moves again.", player=player)
    if kind == "resign":
        return _("{player} resigned; {winner} wins.", player=player,
                 winner=names.get(f"seat{values.get('winner')}", ""))
    return None


def _income_words(player: str, space: int, income: int, final: bool) -> Words:
    if final and income:
        return n_("{player} crossed the final income space {space} and took {n} button of "
                  "income.",
                  "{player} crossed the final income space {space} and took {n} buttons of "
                  "income.", income, player=player, space=space)
    if final:
        return _("{player} crossed the final income space {space} and took no income (no "
                 "buttons on their quilt yet).", player=player, space=space)
    if income:
        return n_("{player} crossed the income space {space} and took {n} button of income.",
                  "{player} crossed the income space {space} and took {n} buttons of income.",
                  income, player=player, space=space)
    return _("{player} crossed the income space {space} and took no income (no buttons on "
             "their quilt yet).", player=player, space=space)


@app_commands.guild_only()
class PatchworkCog(GameCog, commands.GroupCog, group_name="patchwork",
                   group_description="Patchwork: sew the best quilt (two players)"):
    game = patchwork.NAME
    help = GameHelp(
        title=_("Patchwork"),
        players=_("2 players"),
        summary=_("Buy one of the three patches after the spool with buttons, sew it onto your "
                  "9x9 quilt and move your time token on by its time cost; or pass, moving in "
                  "front of your opponent and taking a button per space. The player behind "
                  "moves. Income spaces pay the buttons on your quilt; leather patches go to "
                  "whoever reaches them first; the first full 7x7 square earns 7. At the end: "
                  "buttons + bonus - 2 per empty square."),
        commands=(("/patchwork new [opponent]",
                   _("open a game here (optionally invite someone)")),
                  ("/patchwork buy patch square orientation",
                   _("buy patch 1-3 and place its top-left on a square (autocomplete helps)")),
                  ("/patchwork preview patch orientation square",
                   _("see a placement on your quilt first (only you)")),
                  ("/patchwork pass", _("move in front of your opponent for buttons")),
                  ("/patchwork place square", _("place a leather patch you have won"))),
    )

    def __init__(self, bot) -> None:
        GameCog.__init__(self, bot)

    @app_commands.command(name="new", description="Open a Patchwork game in this channel")
    @app_commands.describe(opponent="Invite one person: only they can take the second seat",
                           turn_time=TURN_TIME_TEXT)
    @app_commands.choices(turn_time=TURN_TIME_CHOICES)
    async def new(self, interaction: discord.Interaction,
                  opponent: discord.Member | None = None, turn_time: str | None = None) -> None:
        await self.open_lobby(interaction, invited=opponent, options=turn_option(turn_time))

    @app_commands.command(name="buy", description="Buy a patch on offer and sew it on your quilt")
    @app_commands.describe(patch="Which of the three patches after the spool (1, 2 or 3)",
                           square="Where its top-left corner goes, a1 to i9 (row 1 at the top)",
                           orientation="Turn clockwise 0/90/180/270, optionally mirrored")
    async def buy(self, interaction: discord.Interaction, patch: app_commands.Range[int, 1, 3],
                  square: str, orientation: str) -> None:
        await self._act_in_phase(interaction, lambda: patchwork.Buy(patch, orientation, square),
                                 placing=False)

    @app_commands.command(name="preview", description="See a patch placed on your quilt (only you)")
    @app_commands.describe(patch="Which of the three patches after the spool (1, 2 or 3)",
                           orientation="Turn clockwise 0/90/180/270, optionally mirrored",
                           square="Where its top-left corner goes, a1 to i9")
    async def preview(self, interaction: discord.Interaction,
                      patch: app_commands.Range[int, 1, 3], orientation: str,
                      square: str) -> None:
        match, seat = await self.service.seated(interaction.channel_id, interaction.user.id,
                                                game=self.game)
        if match.status != "active":
            raise LobbyError(_("The match has not started yet."))
        move = patchwork.Buy(patch, orientation, square)
        voice = await self.bot.languages.reader(interaction)
        await send_reply(interaction, self._preview_reply(match, seat, move, voice),
                         ephemeral=True)

    async def _preview_reply(self, match: Match, seat: int, move: patchwork.Buy,
                             voice: Voice) -> Reply:
        """The preview only its player sees, in their `voice`."""
        state = match.state
        problem = preview_problem(state, seat, move)
        view = patchwork.view(state, seat)
        png = await render_off_loop(render_preview, view, seat, move.choice, move.orientation,
                                     move.square, problem is None, problem, voice,
                                     name_list(match, voice))
        if problem is not None:
            text = _("`{move}` would not work: {problem}.", move=str(move), problem=problem)
        elif patchwork.current_seat(state) == seat:
            text = _("`{move}` fits: use `/patchwork buy` to do it.", move=str(move))
        else:
            text = _("`{move}` fits — you can buy it on your turn.", move=str(move))
        alt = voice(_("Your quilt with the patch ghosted in place. {result}", result=text))
        return Reply(content=voice(text), png=png, filename="preview.png",
                     alt=alt.replace("`", ""))

    @app_commands.command(name="pass", description="Move in front of your opponent, 1 button a space")
    async def pass_(self, interaction: discord.Interaction) -> None:
        await self._act_in_phase(interaction, lambda: "pass", placing=False)

    @app_commands.command(name="place", description="Place the leather patch you have just won")
    @app_commands.describe(square="A free square of your quilt, a1 to i9")
    async def place(self, interaction: discord.Interaction, square: str) -> None:
        await self._act_in_phase(interaction, lambda: patchwork.Place(square), placing=True)

    async def _act_in_phase(self, interaction: discord.Interaction,
                            read: Callable[[], object], *, placing: bool) -> None:
        """`act_read_here`, but a move in the wrong phase hears which command to use."""
        match, seat = await self.service.seated(interaction.channel_id, interaction.user.id,
                                                game=self.game)
        problem = phase_problem(match.state, seat, placing=placing) if match.state else None
        if problem is not None:
            raise patchwork.WrongPhase(problem)
        await self.act(interaction, str(read()))

    # -- autocomplete ------------------------------------------------------------------------

    @buy.autocomplete("orientation")
    @preview.autocomplete("orientation")
    async def orientation_choices(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        found = await self._my_offer(interaction)
        if found is None:
            return []
        patch_id = found[2]
        voice = await self.bot.languages.reader(interaction)
        return [app_commands.Choice(name=voice(orientation_words(name)), value=name)
                for name in matching_orientations(patch_id, current, voice)][:25]

    @buy.autocomplete("square")
    @preview.autocomplete("square")
    async def square_choices(self, interaction: discord.Interaction,
                             current: str) -> list[app_commands.Choice[str]]:
        found = await self._my_offer(interaction)
        if found is None:
            return []
        match, seat, patch_id = found
        mask = match.state.quilt_mask(seat)
        try:
            chosen = [patchwork.parse_orientation(interaction.namespace.orientation)]
        except (GameError, AttributeError, TypeError):
            chosen = list(patchwork.orientations(patch_id))
        squares = {sq for name in chosen
                   for sq in patchwork.legal_placements(mask, patch_id, name)}
        return _square_choices(squares, current)

    @place.autocomplete("square")
    async def free_square_choices(self, interaction: discord.Interaction,
                                  current: str) -> list[app_commands.Choice[str]]:
        match = await self.service.current(interaction.channel_id)
        if match is None or match.game != self.game or match.state is None:
            return []
        seat = match.seat_of(interaction.user.id)
        if seat is None or match.state.pending_seat != seat:
            return []
        mask = match.state.quilt_mask(seat)
        return _square_choices({sq for i, sq in enumerate(SQUARES) if not mask >> i & 1}, current)

    async def _my_offer(self, interaction: discord.Interaction) -> tuple[Match, int, int] | None:
        """The caller's match and seat, and the id of the patch named by the `patch` option
        (None while the caller must place a leather patch: they cannot buy now)."""
        match = await self.service.current(interaction.channel_id)
        if match is None or match.game != self.game or match.state is None:
            return None
        seat = match.seat_of(interaction.user.id)
        choice = getattr(interaction.namespace, "patch", None)
        offer = match.state.offer
        if seat is None or not isinstance(choice, int) or not 1 <= choice <= len(offer):
            return None
        if match.state.pending_seat == seat:
            return None
        return match, seat, offer[choice - 1]

    # -- presenting --------------------------------------------------------------------------

    def event_text(self, match: Match, event: Event) -> Words:
        if event.text:  # saved before events were worded here: English, as it was
            return super().event_text(match, event)
        said = event_words(event, seat_names(match))
        if said is None:  # a kind this version does not know: nothing to say
            log.warning("no words for the Patchwork event %r", event.kind)
            return ""
        return said

    def error_text(self, error: GameError) -> Words | None:
        return error_words(error)

    async def board_reply(self, match: Match, events: Iterable[Event],
                          voice: Voice) -> Reply:
        state = match.state
        view = patchwork.view(state)
        names = name_list(match, voice)
        png = await render_off_loop(render_game, view, names, voice)
        embed = discord.Embed(title=voice(_("Patchwork: {player0} vs {player1}",
                                            player0=names[0], player1=names[1])),
                              description=voice(describe_events(match, events, self.event_text))
                              or None, colour=COLOUR)
        for player in view.players:
            left = view.track_end - player.position
            if player.has_bonus:
                rest = _("{left} time left · {empty} empty · 7x7 bonus", left=left,
                         empty=player.quilt.empty)
            else:
                rest = _("{left} time left · {empty} empty", left=left, empty=player.quilt.empty)
            money = n_("{n} button · income {income}", "{n} buttons · income {income}",
                       player.buttons, income=player.income)
            embed.add_field(name=names[player.seat],
                            value=voice(lines((mention(match, player.seat), money, rest))))
        embed.set_footer(text=voice(_("Match #{id} · move {move}", id=str(match.id),
                                      move=view.move_count)))
        result = view.outcome
        if result is None:
            seat = view.turn
            player = mention(match, seat)
            embed.add_field(name=voice(_("To move")), inline=False,
                            value=voice(to_move_words(view, player)))
            if view.turn_reason == patchwork.TURN_LEATHER:
                content = _("{player}, your turn: place your leather patch with "
                            "`/patchwork place`.", player=player)
            else:
                content = _("{player}, your turn: `/patchwork buy` a patch (try "
                            "`/patchwork preview`) or `/patchwork pass`.", player=player)
            mentions: tuple[int, ...] = (match.player(seat).user_id,)
        else:
            winner = result.winners[0]
            if result.reason == patchwork.RESIGNED:  # a resignation is not won on points
                content = _("**Game over.** {winner} wins: {loser} resigned.",
                            winner=mention(match, winner), loser=names[1 - winner])
            else:
                embed.add_field(name=voice(_("Final score")), inline=False,
                                value=voice(self._score_breakdown(match, result)))
                content = outcome_words(result, mention(match, winner))
            mentions = tuple(s.user_id for s in match.seats if s.user_id)
        return Reply(content=voice(content), embed=embed, png=png,
                     alt=alt_text.patchwork_table(view, names, voice),
                     filename=f"patchwork-{match.id}.png", mentions=mentions)

    # -- records -----------------------------------------------------------------------------

    def export_files(self, export: Export) -> list[ExportFile]:
        """A JSON record: the players, the circle of patches, every action and the result."""
        record = {"match": export.match.id, **patchwork.to_record(
            export.steps, export.names, over=export.over, first=export.first)}
        return [export.file("json", json.dumps(record, ensure_ascii=False, indent=1) + "\n")]

    def stats_lines(self, rows: Sequence[dict[str, Any]]) -> list[Words]:
        """The best score, the average score and the 7x7 bonuses won."""
        highest = best(rows, "score")
        if highest is None:
            return []
        scored = [row for row in rows if "score" in row]
        return [_("Best score: {score}", score=number(highest, "score")),
                _("Average score: {average}", average=average(total(scored, "score"),
                                                             len(scored))),
                n_("{n} 7x7 bonus", "{n} 7x7 bonuses", total(rows, "bonus"))]

    def card_lines(self, match: Match, highlights: list[dict[str, Any]]) -> list[Words]:
        """Who won the 7x7 bonus, if anyone did."""
        return [_("{player} won the 7x7 bonus (+7).", player=player_name(match.player(seat)))
                for seat, row in enumerate(highlights) if number(row, "bonus")]

    @staticmethod
    def _score_breakdown(match: Match, result) -> Words:
        details = result.details
        rows: list[Words] = []
        for seat, row in enumerate(match.seats):
            rows.append(_("**{player}**: {buttons} buttons + {bonus} bonus − 2 × {empty} empty "
                          "= **{score}**", player=player_name(row), buttons=details["buttons"][seat],
                          bonus=details["bonus"][seat], empty=details["empty_squares"][seat],
                          score=result.scores[seat]))
        if details.get("tie_break"):
            rows.append(_("Tied: the first to reach the final space wins."))
        return lines(rows)


def to_move_words(view: patchwork.PatchworkView, player: str) -> Words:
    """Who moves and why, for the board's "To move" field."""
    if drawn_to_start(view):
        return _("{player}: they were drawn to start.", player=player)
    if view.turn_reason == patchwork.TURN_BEHIND:
        return _("{player}: their time token is behind.", player=player)
    if view.turn_reason == patchwork.TURN_LEATHER:
        return _("{player}: they reached a leather patch first and must place it.",
                 player=player)
    return _("{player}: both tokens share a space and theirs arrived last.", player=player)


def outcome_words(result, winner: str) -> Words:
    """The board's last words on a game won on points: `winner` (a mention) and the score."""
    scores = {"winner": winner, "score": result.scores[result.winners[0]],
              "other": result.scores[1 - result.winners[0]]}
    if result.reason == patchwork.TIE_BREAK:
        return _("**Game over.** {winner} wins {score} to {other} (tied score: the first to "
                 "reach the final space wins).", **scores)
    return _("**Game over.** {winner} wins {score} to {other} (highest score).", **scores)


def preview_problem(state: patchwork.State, seat: int, move: patchwork.Buy) -> Words | None:
    """Why `seat` could not make this purchase on their turn, now or (while the other player
    moves) the next one, as a clause; None if it would work."""
    if state.pending_seat == seat:
        return PLACE_FIRST
    problem = patchwork.buy_problem(state, seat, move, any_turn=True)
    if problem is None:
        return None
    words = error_words(problem)
    return str(problem) if words is None else words


def phase_problem(state: patchwork.State, seat: int, *, placing: bool) -> Words | None:
    """On the caller's turn, why a buy or pass (or a `place`) is the wrong kind of move now,
    in a sentence that names the commands; None otherwise (the engine has the last word)."""
    if patchwork.current_seat(state) != seat:
        return None
    if state.pending_seat == seat and not placing:
        return _("You must place your leather patch first: use `/patchwork place` and a free "
                 "square, e.g. `/patchwork place e5`.")
    if state.pending_seat is None and placing:
        return _("You have no leather patch to place: `/patchwork buy` a patch or "
                 "`/patchwork pass`.")
    return None


def matching_orientations(patch_id: int, typed: str, voice: Voice = ENGLISH_VOICE) -> list[str]:
    """The patch's distinct orientations matching what was typed: the one `90m` or `90 m`
    reads as (or the one of the same shape), and those containing it (`mirr`, or the
    reader's word for mirrored)."""
    names = patchwork.orientations(patch_id)
    typed = " ".join(typed.lower().split())
    try:
        shape = oriented_cells(patch_id, patchwork.parse_orientation(typed))
    except GameError:
        shape = None
    return [name for name in names
            if typed in name or typed in voice(orientation_words(name)).lower()
            or oriented_cells(patch_id, name) == shape]


def _square_choices(squares: set[str], current: str) -> list[app_commands.Choice[str]]:
    typed = current.strip().lower()
    ordered = [sq for sq in SQUARES if sq in squares and sq.startswith(typed)]
    return [app_commands.Choice(name=sq, value=sq) for sq in ordered[:25]]


async def setup(bot: GamenightBot) -> None:
    """Add this game to the bot (see `bot.registry`)."""
    await add_game(bot, PatchworkCog(bot))
