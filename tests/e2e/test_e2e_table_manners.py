"""Table manners through the real bot and the fake Discord: errors quote what was typed exactly,
lists and the challenge line read well at every table size, only buttons that can apply are
shown, and a busy channel offers a thread (`/match list` shows the server's open matches)."""

from __future__ import annotations

import re

import pytest

import games.scrabble as scrabble
from games.scrabble import movegen
from tests.e2e_helpers import board_message, fake_world, fix_match_seeds, running_bot
from tests.fakediscord import Perm
from tests.games.doudizhu.positions import staged

pytestmark = pytest.mark.e2e


@pytest.fixture
async def world():
    async with fake_world("games", ("alice", "bob", "carol", "dave")) as world:
        yield world


def labels(message) -> list[str]:
    return [button["label"] for button in message.buttons]


async def start(fake, channel, creator, others, command, **options):
    """Open a lobby with `command` and have `others` join it by the button."""
    lobby = await fake.slash(creator, channel, command, **options)
    assert not lobby.ephemeral, lobby.content
    result = lobby
    for user in others:
        result = await fake.click(user, lobby.message, label="Join")
    return lobby, result


async def open_match(bot, channel):
    return await bot.service.current(channel.id)


async def stage(bot, channel, state):
    """Replace the open match's state with a staged one (a test shortcut to a position)."""
    match = await open_match(bot, channel)
    await bot.service.store.record_action(match.id, match.row.version, seat=None,
                                          action="staged", state=state.to_dict())


# -- 6. errors quote what was typed, exactly ---------------------------------------------------

async def test_scrabble_errors_quote_what_was_typed(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        await start(fake, channel, alice, [bob], "scrabble new", players=2)
        exchange = await fake.slash(alice, channel, "scrabble exchange", tiles="1!")
        assert exchange.ephemeral and "`1!` cannot be exchanged" in exchange.content
        spaced = await fake.slash(alice, channel, "scrabble exchange", tiles="A b!")
        assert "`!` cannot be exchanged" in spaced.content
        square = await fake.slash(alice, channel, "scrabble play", word="QUIZ", square="h16",
                                  direction="across")
        assert square.ephemeral and "`h16` is not a square" in square.content
        word = await fake.slash(alice, channel, "scrabble play", word="it's", square="H8",
                                direction="across")
        assert "`it's` must be letters A-Z only" in word.content


async def test_doudizhu_errors_quote_what_was_typed(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        await start(fake, channel, alice, [bob, carol], "doudizhu new", players=3)
        ranks = await fake.slash(alice, channel, "doudizhu play", cards="3x4!")
        assert ranks.ephemeral and "`x!` are not ranks" in ranks.content
        one = await fake.slash(alice, channel, "doudizhu play", cards="10 J q")
        assert "rank" not in one.content  # 10 and lower case are read (the turn decides)


async def test_patchwork_errors_quote_what_was_typed(world, tmp_path):
    fake, guild, channel, users = world
    alice, dave = users["alice"], users["dave"]
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        await start(fake, channel, alice, [dave], "patchwork new")
        quilt = await fake.slash(alice, channel, "patchwork preview", patch=1,
                                 orientation="0", square="a'1")
        assert quilt.ephemeral and "`a'1` is not a square of the quilt" in quilt.content
        turn = await fake.slash(alice, channel, "patchwork preview", patch=1,
                                orientation="45\\X", square="a1")
        assert "the orientation `45\\X`" in turn.content  # no repr escapes


async def test_reversi_errors_quote_what_was_typed(world, tmp_path):
    fake, guild, channel, users = world
    carol, dave = users["carol"], users["dave"]
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        await start(fake, channel, carol, [dave], "reversi new")
        disc = await fake.slash(carol, channel, "reversi move", square="d`9")
        assert disc.ephemeral and "`` d`9 `` is not a square" in disc.content


# -- 7. wording at every table size --------------------------------------------------------------

async def first_play(fake, bot, channel):
    """The player to move lays their first two tiles across H8 (double challenge: it stands
    until challenged, word or not); returns the board post and the match after it."""
    match = await open_match(bot, channel)
    seat = match.current_seat()
    rack = match.state.racks[seat]
    word = "".join("a" if tile == "?" else tile for tile in rack[:2])
    user = fake.users[match.player(seat).user_id]
    result = await fake.slash(user, channel, "scrabble play", word=word, square="H8",
                              direction="across")
    assert not result.ephemeral, result.content
    return board_message(result), await open_match(bot, channel), match.player(seat).name


@pytest.mark.parametrize("players", [2, 3, 4])
async def test_the_challenge_line_reads_well_at_every_table_size(world, tmp_path, players):
    fake, guild, channel, users = world
    alice, *others = (users[n] for n in ("alice", "bob", "carol", "dave"))
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        await start(fake, channel, alice, others[:players - 1], "scrabble new", players=players)
        board, match, player = await first_play(fake, bot, channel)
        turn = match.current_seat()
        rest = [match.player(seat).name for seat in scrabble.view(match.state).order
                if match.player(seat).name not in (player, match.player(turn).name)]
        who = ("You" if not rest else f"You or {rest[0]}" if len(rest) == 1
               else f"You, {rest[0]} or {rest[1]}")
        assert f"{who} may challenge {player}'s play with `/scrabble challenge` until you act." \
            in board.content
        assert f"Until {match.player(turn).name} acts" not in board.content


async def test_a_failed_challenge_by_the_player_to_move_is_told_once(world, tmp_path, monkeypatch):
    fix_match_seeds(monkeypatch, 7)  # the same racks every run
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        await start(fake, channel, alice, [bob], "scrabble new", players=2)
        match = await open_match(bot, channel)
        seat = match.current_seat()
        state = match.state
        play, _ = next(movegen.generate(state.board, state.racks[seat],
                                        scrabble.default_lexicon()))
        player = fake.users[match.player(seat).user_id]
        other = bob if player is alice else alice
        played = await fake.slash(player, channel, "scrabble play", word=play.word,
                                  square=play.square, direction=play.direction)
        assert not played.ephemeral, played.content
        challenged = board_message(await fake.slash(other, channel, "scrabble challenge"))
        text = challenged.text()
        assert f"Every word stands.\n**{other.name}** loses this turn." in text
        assert "loses their next turn" not in text


async def test_three_winners_are_listed_with_commas(world, tmp_path):
    fake, guild, channel, users = world
    table = [users[n] for n in ("alice", "bob", "carol", "dave")]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        await start(fake, channel, table[0], table[1:], "doudizhu new", players=4)
        # alice is the landlord; bob leads his last card and goes out: the farmers win.
        await stage(bot, channel, staged(["3456789", "A", "3", "4"], landlord=0, turn=1))
        out = await fake.slash(table[1], channel, "doudizhu play", cards="A")
        assert "Round 1 is over" in out.text(), out.text()
        stopped = await fake.slash(table[2], channel, "doudizhu stop")
        assert "**bob**, **carol** and **dave** share the series win" in stopped.text()
        assert " and **carol** and " not in stopped.text()


# -- 8. only buttons that can apply -----------------------------------------------------------

async def test_lobby_buttons_are_those_that_can_apply(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    words = fake.add_channel(guild, "words")
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        invite = await fake.slash(alice, channel, "reversi new", opponent=bob)
        assert labels(invite.message) == ["Join", "Cancel"]  # two seats: Start never applies
        assert "press **Join** to play" in invite.message.content
        await fake.click(bob, invite.message, label="Join")
        assert labels(invite.message) == [] and not invite.message.content  # nothing to press

        lobby = await fake.slash(alice, words, "scrabble new", players=3)
        assert labels(lobby.message) == ["Join", "Cancel"]  # alone: no Leave, no Start yet
        await fake.click(bob, lobby.message, label="Join")
        assert labels(lobby.message) == ["Join", "Leave", "Start", "Cancel"]
        left = await fake.slash(bob, words, "match leave")
        assert not left.ephemeral
        assert labels(lobby.message) == ["Join", "Cancel"]
        await fake.click(bob, lobby.message, label="Join")
        await fake.click(carol, lobby.message, label="Join")  # the table is full: it starts
        assert labels(lobby.message) == []


async def test_rematch_goes_once_a_new_match_opens(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        await start(fake, channel, alice, [bob], "reversi new")
        final = board_message(await fake.slash(bob, channel, "match resign"))
        assert labels(final) == ["Rematch", "Review"]
        await fake.slash(carol, channel, "patchwork new")
        assert labels(final) == ["Review"]  # the channel is taken: a rematch could only be refused


async def test_next_and_stop_go_once_the_next_round_is_dealt(world, tmp_path):
    fake, guild, channel, users = world
    table = [users[n] for n in ("alice", "bob", "carol")]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        await start(fake, channel, table[0], table[1:], "doudizhu new", players=3)
        await stage(bot, channel, staged(["3456789", "A", "3"], landlord=0, turn=1))
        out = await fake.slash(table[1], channel, "doudizhu play", cards="A")
        [round_post] = [m for m in out.channel_messages if "Round 1 is over" in m.content]
        assert labels(round_post) == ["Next round", "Stop the series"]
        dealt = await fake.slash(table[2], channel, "doudizhu next")
        assert not dealt.ephemeral, dealt.content
        assert labels(round_post) == []


# -- 13. a busy channel is not a dead end --------------------------------------------------------

async def test_a_busy_channel_offers_a_thread_and_match_list_finds_it(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, carol, dave = (users[n] for n in ("alice", "bob", "carol", "dave"))
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        await fake.slash(alice, channel, "reversi new")
        busy = await fake.slash(carol, channel, "scrabble new", players=2)
        assert busy.ephemeral and "already waiting for players" in busy.content
        assert labels(busy.message) == ["Open it in a thread"]
        assert fake.threads(channel) == []

        opened = await fake.click(carol, busy.message, label="Open it in a thread")
        [thread] = fake.threads(channel)
        assert thread.type == 11 and thread.name == "Scrabble · carol"
        assert opened.ephemeral and thread.mention in opened.content
        assert f"/channels/{guild.id}/{thread.id}/" in opened.content  # a link to the lobby
        assert opened.message.buttons == []
        [card] = fake.messages(thread)
        assert "Scrabble: waiting for players" in card.text() and labels(card) == ["Join", "Cancel"]

        started = await fake.click(dave, card, label="Join")  # an interaction in the thread
        board = board_message(started)
        assert board.channel is thread and "Scrabble" in board.text()
        status = board_message(await fake.slash(bob, thread, "match status"))
        assert status.channel is thread

        listed = await fake.slash(bob, channel, "match list")
        assert listed.ephemeral
        text = listed.text()
        assert "Open matches (2)" in text
        reversi, scrabble = (line for line in text.splitlines() if "#" in line and "·" in line)
        assert "**Reversi**" in reversi and "waiting for players (1/2)" in reversi
        assert channel.mention in reversi and "alice" in reversi
        assert "**Scrabble**" in scrabble and thread.mention in scrabble
        assert "in play" in scrabble and "carol and dave" in scrabble
        assert f"/channels/{guild.id}/{thread.id}/{status.id}" in scrabble  # the newest board


async def test_the_thread_offer_survives_a_restart_and_keeps_the_invitation(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, carol, dave = (users[n] for n in ("alice", "bob", "carol", "dave"))
    db = tmp_path / "g.db"
    async with running_bot(fake, db, guild.id):
        await fake.slash(alice, channel, "reversi new")
        busy = await fake.slash(carol, channel, "patchwork new", opponent=dave)
    async with running_bot(fake, db, guild.id) as bot:
        opened = await fake.click(carol, busy.message, label="Open it in a thread")
        [thread] = fake.threads(channel)
        assert thread.mention in opened.content
        [card] = fake.messages(thread)
        assert card.mentions() == [dave.id] and "invites you to a game of Patchwork" in card.content
        assert labels(card) == ["Join", "Cancel"]
        refused = await fake.click(bob, card, label="Join")
        assert refused.ephemeral and "reserved" in refused.content
        started = await fake.click(dave, card, label="Join")
        assert board_message(started).channel is thread
        match = await open_match(bot, thread)
        assert match.game == "patchwork" and [s.name for s in match.seats] == ["carol", "dave"]
    async with running_bot(fake, db, guild.id):  # the thread is known after a restart too
        status = await fake.slash(dave, thread, "match status")
        assert board_message(status).channel is thread


async def test_the_thread_offer_keeps_the_chosen_turn_time(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        await fake.slash(alice, channel, "reversi new")
        busy = await fake.slash(bob, channel, "patchwork new", turn_time="10m")
        opened = await fake.click(bob, busy.message, label="Open it in a thread")
        assert "lobby (match #2) is open in" in opened.content, opened.content
        [thread] = fake.threads(channel)
        await fake.click(carol, fake.messages(thread)[0], label="Join")
        match = await open_match(bot, thread)
        assert match.game == "patchwork" and match.row.options["turn_time"] == "10m"


async def test_a_thread_in_a_thread_is_not_offered(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        await fake.slash(alice, channel, "reversi new")
        busy = await fake.slash(bob, channel, "reversi new")
        await fake.click(bob, busy.message, label="Open it in a thread")
        [thread] = fake.threads(channel)
        again = await fake.slash(carol, thread, "patchwork new")
        assert again.ephemeral and "already waiting for players" in again.content
        assert again.message.buttons == []


async def test_no_thread_permission_is_said_clearly(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    roles = fake.bot_member(guild).roles
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        await fake.slash(alice, channel, "reversi new")
        busy = await fake.slash(bob, channel, "reversi new")
        for role in roles:  # taken away after the offer was made
            role.permissions &= ~Perm.CREATE_PUBLIC_THREADS
        refused = await fake.click(bob, busy.message, label="Open it in a thread")
        assert refused.ephemeral and "**Create Public Threads**" in refused.content
        assert fake.threads(channel) == []
        again = await fake.slash(bob, channel, "patchwork new")  # missing: no button at all
        assert again.ephemeral and "**Create Public Threads**" in again.content
        assert again.message.buttons == []


async def test_match_list_is_capped_and_hides_nothing_it_counts(world, tmp_path):
    fake, guild, channel, users = world
    alice = users["alice"]
    rooms = [fake.add_channel(guild, f"room-{i}") for i in range(23)]
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        empty = await fake.slash(alice, channel, "match list")
        assert empty.ephemeral and "No open matches" in empty.text()
        for room in rooms:
            await fake.slash(alice, room, "reversi new")
        listed = await fake.slash(alice, channel, "match list")
        lines = [line for line in listed.text().splitlines() if "**Reversi**" in line]
        assert len(lines) == 20 and "…and 3 more matches not shown." in listed.text()
        assert re.search(r"Open matches \(23\)", listed.text())
