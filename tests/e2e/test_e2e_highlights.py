"""The games' highlights through the fake Discord: a finished Scrabble match's result card
names the best play, then gains each person's missed play once the move generator has
replayed the game; `/gamenight stats` words the highlights kept."""

from __future__ import annotations

import pytest

import games.scrabble as scrabble
from games.scrabble.analysis import missed_plays
from games.scrabble.records import highlights
from tests.e2e_helpers import InlineExecutor, board_message, fake_world, running_bot

pytestmark = pytest.mark.e2e


@pytest.fixture
async def world():
    async with fake_world("words", ("alice", "bob")) as world:
        yield world


async def test_scrabble_result_card_and_stats(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with running_bot(fake, tmp_path / "g.db", guild.id,
                           computer_executor=InlineExecutor()) as bot:
        lobby = await fake.slash(alice, channel, "scrabble new", players=2)
        await fake.click(bob, lobby.message, label="Join")
        match = await bot.service.current(channel.id)
        for number in range(16):  # the middle of the game, straight through the service
            seat = match.current_seat()
            move = str(scrabble.choose_move(match.state, seat, "easy", seed=number))
            await bot.service.act(channel.id, match.player(seat).user_id, move)
            match = await bot.service.get(match.id)
        final = board_message(await fake.slash(alice, channel, "match resign"))
        await fake.wait_idle()  # the missed plays are found, then edited into the card

        match = await bot.service.get(match.id)
        steps = await bot.service.steps(match)
        found = highlights(steps, 2)
        best = max(found, key=lambda mine: mine["best_play"])
        maker = match.player(found.index(best)).name
        [card] = [m for m in fake.messages(channel) if m.id == final.id]
        text = card.text()
        assert (f"Best play: **{best['best_play_word']}** for {best['best_play']}, by {maker}"
                in text), text
        for seat, missed in enumerate(missed_plays(steps, 2)):
            assert missed is not None  # easy players leave points on the board
            assert (f"{match.player(seat).name} missed **{missed['word']}** for "
                    f"{missed['best']} (scored {missed['played']} that turn)") in text, text

        stats = await fake.slash(bob, channel, "gamenight stats", player=alice, game="scrabble")
        shown = stats.all_messages[-1].text()
        mine = found[match.seat_of(alice.id)]
        assert f"Best play: **{mine['best_play_word']}** for {mine['best_play']}" in shown
        assert f"Highest game: {mine['score']}" in shown
        average = mine["points"] / mine["turns"]
        assert f"Average score per turn: {average:.1f}" in shown, shown
