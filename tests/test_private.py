"""DM delivery: closed DMs are reported, other failures never undo an accepted move."""

from types import SimpleNamespace

import discord

import games.reversi as reversi
from bot.present import Reply
from bot.private import send_private
from bot.service import Match
from bot.store import MatchRow, SeatRow


def http_error(kind, status: int, code: int):
    return kind(SimpleNamespace(status=status, reason="x"), {"code": code, "message": "x"})


class FakeUser:
    def __init__(self, error=None):
        self.error = error
        self.sent = []

    async def send(self, **kwargs):
        if self.error is not None:
            raise self.error
        self.sent.append(kwargs)


def bot_with(user):
    return SimpleNamespace(get_user=lambda user_id: user)


def a_match() -> Match:
    row = MatchRow(id=1, guild_id=1, channel_id=2, game="reversi", status="active", options={},
                   seed=1, state=None, version=1, creator_id=10, invited_id=None,
                   lobby_message_id=None, board_message_id=None, result=None, created_at="",
                   updated_at="", seats=(SeatRow(0, "user", 10, "a"), SeatRow(1, "user", 11, "b")))
    return Match(row, reversi, None)


async def test_a_delivered_dm():
    user = FakeUser()
    assert await send_private(bot_with(user), a_match(), 0, Reply(content="hi")) is True
    assert user.sent[0]["content"] == "hi"


async def test_closed_dms_are_reported():
    user = FakeUser(http_error(discord.Forbidden, 403, 50007))
    assert await send_private(bot_with(user), a_match(), 0, Reply(content="hi")) is False


async def test_other_failures_are_logged_not_raised(caplog):
    for error in (http_error(discord.Forbidden, 403, 50001),
                  http_error(discord.NotFound, 404, 10013),
                  http_error(discord.DiscordServerError, 500, 0)):
        user = FakeUser(error)
        assert await send_private(bot_with(user), a_match(), 1, Reply(content="hi")) is True
    assert caplog.text.count("DM to seat 1 of match 1 failed") == 3
