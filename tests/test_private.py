"""DM delivery: closed DMs are reported, other failures never undo an accepted move."""

from types import SimpleNamespace

import discord

import games.reversi as reversi
from bot.present import Reply
from bot.private import LiveControls, send_private
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


class FakeDM:
    """A sent DM whose controls can be taken off."""

    def __init__(self, message_id: int, error=None):
        self.id = message_id
        self.error = error
        self.has_controls = True

    async def edit(self, *, view):
        assert view is None
        if self.error is not None:
            raise self.error
        self.has_controls = False


async def test_an_action_takes_the_older_controls_off():
    controls = LiveControls()
    first, other = FakeDM(1), FakeDM(2)
    await controls.keep(7, 0, 3, first)
    await controls.keep(8, 0, 3, other)  # another match is left alone
    await controls.retire(7, 4)
    assert not first.has_controls and other.has_controls
    fresh = FakeDM(3)
    await controls.keep(7, 0, 4, fresh)
    await controls.retire(7, 4)  # the same version again: the fresh menu stays
    assert fresh.has_controls


async def test_a_late_announcement_neither_strips_newer_controls_nor_keeps_its_own():
    controls = LiveControls()
    newer = FakeDM(1)
    await controls.retire(7, 5)
    await controls.keep(7, 1, 5, newer)
    await controls.retire(7, 4)  # version 4's announcement runs late
    assert newer.has_controls
    late = FakeDM(2)
    await controls.keep(7, 2, 4, late)  # and its DM is stale on arrival
    assert not late.has_controls and newer.has_controls


async def test_a_used_control_is_forgotten_and_a_failed_edit_is_only_logged(caplog):
    caplog.set_level("INFO", logger="bot.private")
    controls = LiveControls()
    used, broken = FakeDM(1), FakeDM(2, http_error(discord.NotFound, 404, 10008))
    await controls.keep(7, 0, 3, used)
    await controls.keep(7, 1, 3, broken)
    controls.forget(7, used.id)
    await controls.retire(7, 4)
    assert used.has_controls  # it was marked as used by its own click, not edited again
    assert "could not take the old controls off a DM of match 7" in caplog.text
