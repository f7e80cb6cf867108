"""The coach through the real bot and the fake Discord (Reversi, whose reviewer judges every
turn in the computers' worker pool): `/match review` answers only the asker with each
player's accuracy and their costliest turns pictured, a menu shows another player's, the
finished board's Review button gives the same, the review is computed once and kept across a
restart, `/gamenight stats` shows the accuracy; refusals are friendly and private."""

from __future__ import annotations

import pytest

import games.reversi as reversi
from tests.e2e_helpers import board_message, fake_world, running_bot

pytestmark = pytest.mark.e2e


async def play_to_the_end(fake, bot, channel, people) -> None:
    """Both play Reversi by slash command, each its first legal square, to the end."""
    for _ in range(80):
        match = await bot.service.current(channel.id)
        if match is None or match.status != "active":
            return
        seat = match.current_seat()
        square = str(reversi.legal_moves(match.state, seat)[0])
        await fake.slash(people[match.player(seat).user_id], channel, "reversi move",
                         square=square)
    raise AssertionError("the game did not end")


def review_text(result) -> str:
    message = result.all_messages[-1]
    return message.text()


async def test_a_finished_match_is_reviewed_once_for_whoever_asks(tmp_path):
    async with fake_world("reversi", ("alice", "bob", "cleo")) as (fake, guild, channel, users):
        alice, bob, cleo = users["alice"], users["bob"], users["cleo"]
        async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
            none_yet = await fake.slash(alice, channel, "match review")
            assert none_yet.ephemeral and "no finished match" in none_yet.text()
            lobby = await fake.slash(alice, channel, "reversi new")
            assert board_message(await fake.click(bob, lobby.message, label="Join"))
            match = await bot.service.current(channel.id)
            early = await fake.slash(alice, channel, "match review", id=match.id)
            assert early.ephemeral and "not over yet" in early.text()
            await play_to_the_end(fake, bot, channel, {alice.id: alice, bob.id: bob})
            final = fake.messages(channel)[-1]
            assert final.find_component(label="Review") is not None
            assert final.find_component(label="Rematch") is not None

            before = len(fake.messages(channel))
            asked = await fake.slash(alice, channel, "match review")
            reply = asked.all_messages[-1]
            assert reply.ephemeral and len(fake.messages(channel)) == before
            text = reply.text()
            assert f"Review of Reversi match #{match.id}" in text
            assert "Accuracy: alice" in text and "bob" in text
            assert "alice" in text.split("\n")[2]  # her own turns first
            assert 1 <= len(reply.attachments) <= 3 or "gave nothing away" in text
            for picture in reply.attachments:
                assert picture.is_png and picture.description
                width, height = picture.image_size
                assert width <= 600 and height <= 1.5 * width
            seconds = bot.reviews.worker_seconds
            assert seconds > 0

            menu = reply.selects[0]
            assert [o["value"] for o in menu["options"]] == ["0", "1"]
            bob_seat = str(match.seat_of(bob.id))
            switched = await fake.select(alice, reply, menu["custom_id"], [bob_seat])
            assert "bob**'s costliest turns" in switched.message.text() \
                or "**bob** gave nothing away" in switched.message.text()

            by_button = await fake.click(cleo, final, label="Review")  # a spectator may ask
            assert f"Review of Reversi match #{match.id}" in review_text(by_button)
            assert by_button.all_messages[-1].ephemeral
            assert "Game over" in final.text()  # the board it is under stays as it was
            assert [b["label"] for b in final.buttons] == ["Rematch", "Review"]
            assert bot.reviews.worker_seconds == seconds  # computed once

            stats = await fake.slash(alice, channel, "gamenight stats")
            assert "Accuracy: **" in stats.all_messages[-1].text()

        async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:  # after a restart
            again = await fake.slash(bob, channel, "match review", id=match.id)
            assert f"Review of Reversi match #{match.id}" in review_text(again)
            assert bot.reviews.worker_seconds == 0  # read back, not judged again
