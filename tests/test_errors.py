"""What the one error handler tells players."""

from types import SimpleNamespace

import discord
from discord import app_commands

from bot.errors import explain, unwrap
from games.common import IllegalMove


def forbidden(code: int) -> discord.Forbidden:
    response = SimpleNamespace(status=403, reason="Forbidden")
    return discord.Forbidden(response, {"code": code, "message": "Missing Permissions"})


def test_game_errors_are_shown_as_written():
    assert explain(IllegalMove("d4 is already taken")) == "d4 is already taken"


def test_missing_channel_permissions_are_named():
    assert "Attach Files" in explain(forbidden(50013))
    assert "View Channel" in explain(forbidden(50001))


def test_an_unusable_member_option_says_what_to_pick():
    transformer = SimpleNamespace(_error_display_name="Member")
    error = app_commands.TransformerError("123", discord.AppCommandOptionType.user, transformer)
    assert explain(error) == "Pick a member of this server from the list for that option."


def test_unexpected_errors_get_no_explanation_so_they_are_logged():
    assert explain(RuntimeError("boom")) is None
    assert explain(forbidden(50035)) is None


def test_command_wrappers_are_unwrapped():
    original = IllegalMove("nope")
    command = SimpleNamespace(name="move", qualified_name="reversi move")
    wrapped = app_commands.CommandInvokeError(command, original)
    assert unwrap(wrapped) is original


async def test_an_overlong_error_is_cut_to_what_discord_accepts():
    from bot.errors import report_error

    sent = []

    class Response:
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
        assert "changed since your Discord app last loaded it" in explain(error)


async def test_an_autocomplete_that_fails_shows_no_choices_instead_of_a_message():
    from bot.errors import report_error

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
