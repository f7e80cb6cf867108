"""What the one error handler tells players."""

from types import SimpleNamespace

import discord
from discord import app_commands

from bot.ui.error_replies import explain, unwrap
from games.common import GameError, IllegalMove, NotYourTurn
from i18n import ENGLISH_VOICE, _, voice


def said(error, presenters=None, lang="en"):
    """What a player reading `lang` is told about `error`."""
    words = explain(error, presenters)
    return None if words is None else voice(lang)(words)


def forbidden(code: int) -> discord.Forbidden:
    response = SimpleNamespace(status=403, reason="Forbidden")
    return discord.Forbidden(response, {"code": code, "message": "Missing Permissions"})


def test_game_errors_are_shown_as_written():
    assert said(IllegalMove("d4 is already taken")) == "d4 is already taken"


def test_missing_channel_permissions_are_named():
    assert "Attach Files" in said(forbidden(50013))
    assert "View Channel" in said(forbidden(50001))


def test_an_unusable_member_option_says_what_to_pick():
    transformer = SimpleNamespace(_error_display_name="Member")
    error = app_commands.TransformerError("123", discord.AppCommandOptionType.user, transformer)
    assert said(error) == "Pick a member of this server from the list for that option."


def test_unexpected_errors_get_no_explanation_so_they_are_logged():
    assert explain(RuntimeError("boom")) is None
    assert explain(forbidden(50035)) is None


def test_command_wrappers_are_unwrapped():
    original = IllegalMove("nope")
    command = SimpleNamespace(name="move", qualified_name="reversi move")
    wrapped = app_commands.CommandInvokeError(command, original)
    assert unwrap(wrapped) is original


async def test_an_overlong_error_is_cut_to_what_discord_accepts():
    from bot.ui.error_replies import report_error

    sent = []

    class Response:
        type = None  # not answered yet

        def is_done(self):
            return False

        async def send_message(self, text, ephemeral):
            sent.append((text, ephemeral))

    interaction = SimpleNamespace(response=Response(), id=1, command=None,
                                  type=discord.InteractionType.application_command)
    await report_error(interaction, IllegalMove("x" * 5000))
    [(text, ephemeral)] = sent
    assert ephemeral and len(text) == 2000 and text.endswith("…")


def test_a_command_discord_knows_but_the_bot_does_not_asks_for_a_reload():
    command = SimpleNamespace(name="move", qualified_name="reversi move")
    for error in (app_commands.CommandNotFound("chess", []),
                  app_commands.CommandSignatureMismatch(command)):
        assert "changed since your Discord app last loaded it" in said(error)


async def test_an_autocomplete_that_fails_shows_no_choices_instead_of_a_message():
    from bot.ui.error_replies import report_error

    shown = []

    class Response:
        def is_done(self):
            return False

        async def autocomplete(self, choices):
            shown.append(choices)

    interaction = SimpleNamespace(response=Response(), id=1, command=None,
                                  type=discord.InteractionType.autocomplete)
    await report_error(interaction, IllegalMove("no"))
    assert shown == [[]]


def test_the_bots_own_errors_are_worded_in_the_readers_language():
    from bot.matches.errors import LobbyError

    error = LobbyError(_("Every seat is taken."))
    assert str(error) == "Every seat is taken." == said(error)
    assert said(error, lang="zh-TW") == voice("zh-TW")(_("Every seat is taken.")) != str(error)


def test_an_engine_error_is_worded_by_its_games_cog_and_shared_keys_by_the_core():
    class Cog:
        @staticmethod
        def error_text(error):
            return _("Place a disc on an empty square.") if error.key == "reversi.occupied" \
                else None

    presenters = {"reversi": Cog()}
    assert said(IllegalMove("reversi.occupied", square="d4"), presenters) == \
        "Place a disc on an empty square."
    assert said(GameError("game.over"), presenters) == "The game is over."
    assert said(GameError("game.not_your_turn"), presenters, "zh-CN") == \
        voice("zh-CN")(_("It is not your turn."))
    assert said(GameError("game.no_seat", seat=5), presenters) == \
        "There is no seat 5 in this game."


def test_not_your_turn_names_whose_turn_it_is_after_the_engines_reason():
    from bot.matches.errors import OthersTurn

    class Cog:
        @staticmethod
        def error_text(error):
            return _("You play white.") if error.key == "reversi.white" else None

    error = OthersTurn(NotYourTurn("reversi.white"), "bob")
    assert said(error, {"reversi": Cog()}) == "You play white. It is bob's turn."
    assert said(OthersTurn(NotYourTurn("it is not your turn: you play white"), "bob")) == \
        "It is not your turn: you play white. It is bob's turn."
    assert ENGLISH_VOICE(explain(OthersTurn(NotYourTurn("game.not_your_turn"), None))) == \
        "The game is over."
