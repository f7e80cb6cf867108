"""Scrabble through the real discord.py bot and the fake Discord: lobbies and options, racks by
DM (and the closed-DM fallback), plays, exchanges, passes, both kinds of challenge, errors, a
restart in the middle and a game played to its end; and no rack ever shown to anyone else."""

from __future__ import annotations

import itertools
import os
import re
from pathlib import Path

import pytest

import games.scrabble as scrabble
from bot.app.client import GamenightBot
from bot.app.config import ConfigError, Settings
from games.scrabble.lexicon import ENV_VAR
from i18n import ENGLISH_VOICE, PSEUDO, voice
from render.alt import scrabble_rack
from render.scrabble import render_rack
from tests import pseudo
from tests.e2e_helpers import (
    board_message, fake_world, fix_match_seeds, mentioned_ids, png_size, running_bot,
)
from tests.fakediscord import run_bot

pytestmark = pytest.mark.e2e

RACK_TEXT = re.compile(r"Your Scrabble rack: \*\*([A-Z?](?: [A-Z?])*)\*\*")
BOARD_SIZE = (600, 600)  # phone-sized (render/phone.py)
READER = voice(PSEUDO) if pseudo.ENABLED else ENGLISH_VOICE  # how every player reads the bot


# Match seeds come from `secrets`; a fixed one makes every run deal the same tiles. With this
# seed bob starts, then carol (whose DMs are closed) with a blank on her rack, then alice. The
# test still reads who is who, and every rack, from the bot's database.
SEED = 14


@pytest.fixture(autouse=True)
def fixed_seed(monkeypatch):
    fix_match_seeds(monkeypatch, SEED)


@pytest.fixture
async def world():
    async with fake_world("word-games", ("alice", "bob", "carol", "dave"),
                          dms_closed=("carol",)) as world:
        yield world


def spaced(rack: str) -> str:
    return " ".join(rack)


class Table:
    """The test's look at the match through the bot's service (the bot itself never cheats):
    who sits where, and every rack each player has held, to check what each one was shown."""

    def __init__(self, users):
        self.users = {user.id: user for user in users.values()}
        self.held: dict[int, set[str]] = {}
        self.bot = None
        self.channel = None

    async def match(self):
        """The channel's latest match (open or finished), read from the database."""
        row = await self.bot.service.store.latest_match_in(self.channel.id)
        return await self.bot.service.get(row.id)

    async def state(self) -> scrabble.State:
        return (await self.match()).state

    async def record(self):
        """Note every seat's rack as it stands now."""
        match = await self.match()
        for seat in match.seats:
            self.held.setdefault(seat.user_id, set()).add(match.state.racks[seat.seat])
        return match

    async def user(self, seat: int):
        return self.users[(await self.match()).player(seat).user_id]

    async def seat_of(self, user) -> int:
        return (await self.match()).seat_of(user.id)


def check_rack_dm(message, rack: str, match_id: int) -> None:
    """A rack DM: where it is from, the tiles in text, and the image of exactly those tiles."""
    text = message.content
    assert "Game Night Club" in text and "#word-games" in text, text
    assert f"Scrabble match #{match_id}" in text, text
    assert shown_rack(message) == rack, text
    if rack:
        png = message.attachments[0].data
        assert message.attachments[0].is_png and png == render_rack(rack, READER)
        assert message.attachments[0].description == scrabble_rack(rack)
    else:  # went out: the game ends if the play stands
        assert "Your Scrabble rack is empty." in text and message.attachments == []


def shown_rack(message) -> str:
    """The rack a private message shows, as a string of tiles."""
    if "Your Scrabble rack is empty." in message.content:
        return ""
    return RACK_TEXT.search(message.content).group(1).replace(" ", "")


def live_dm(fake, user):
    """The player's one live rack DM: the newest; every older one is shrunk to one line."""
    *older, live = fake.dm_messages(user)
    assert all(not m.embeds and not m.attachments for m in older)
    return live


def readers(result) -> list:
    """Who received a new DM during `result` (an edit is not a new DM)."""
    return [m.channel.recipient for m in result.dms]


def called(user, carol) -> list:
    """The new DMs when `user` is now to move: one to them (carol's DMs are closed)."""
    return [] if user is carol else [user]


async def act(fake, table, user, channel, command, **options):
    result = await fake.slash(user, channel, command, **options)
    assert not result.ephemeral, result.content
    await table.record()
    return result


async def test_commands_are_synced_and_help_lists_scrabble(world, tmp_path):
    fake, guild, channel, users = world
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        command = next(c for c in fake.commands(guild) if c["name"] == "scrabble")
        subs = {o["name"]: o for o in command["options"]}
        assert set(subs) == {"new", "play", "exchange", "pass", "challenge", "rack", "bag"}
        assert [o["name"] for o in subs["new"]["options"]] == [
            "players", "challenge", "tiles", "finish", "turn_time", "hints"]
        assert [o["name"] for o in subs["play"]["options"]] == ["word", "square", "direction"]
        direction = subs["play"]["options"][2]
        assert [c["value"] for c in direction["choices"]] == ["across", "down"]
        readme = (Path(__file__).resolve().parents[2] / "README.md").read_text()
        for name in subs:
            assert f"| `/scrabble {name}" in readme
        assert "| `GAMENIGHT_LEXICON` |" in readme
        help_result = await fake.slash(users["dave"], channel, "gamenight help")
        assert help_result.ephemeral and "/scrabble play word square direction" in (
            help_result.text())


async def test_options_autocomplete_start_early_and_void_challenge(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        levels = await fake.autocomplete(alice, channel, "scrabble new", "finish", finish="")
        assert [c["value"] for c in levels] == ["none", "beginner", "intermediate", "expert"]
        assert "first to 50 points" in levels[1]["name"]  # 4 players by default
        two = await fake.autocomplete(alice, channel, "scrabble new", "finish", players=2,
                                      finish="")
        assert [c["name"] for c in two][1:] == [
            "beginner: first to 70 points wins (2 players)",
            "intermediate: first to 120 points wins (2 players)",
            "expert: first to 200 points wins (2 players)"]
        typed = await fake.autocomplete(alice, channel, "scrabble new", "finish", finish="150")
        assert typed[0] == {"name": "first to 150 points wins", "value": "150"}
        narrowed = await fake.autocomplete(alice, channel, "scrabble new", "finish",
                                           finish="ex")
        assert [c["value"] for c in narrowed] == ["expert"]

        for wrong in ("soon", "0", "1001", "9" * 2000, "\N{SUPERSCRIPT TWO}"):
            bad = await fake.slash(alice, channel, "scrabble new", finish=wrong)
            assert bad.ephemeral and "`finish` is none" in bad.content
        assert await bot.service.current(channel.id) is None
        long = await fake.autocomplete(alice, channel, "scrabble new", "finish",
                                       finish="9" * 90)
        assert [c["value"] for c in long] == ["none", "beginner", "intermediate", "expert"]

        lobby = await fake.slash(alice, channel, "scrabble new", challenge="void", tiles=9,
                                 finish="expert")
        assert "Seats (1/4)" in lobby.text()
        assert ("9-tile racks · void: words checked as they are played · finish line: expert "
                "(160 points at a full table)") in lobby.text()
        joined = await fake.slash(bob, channel, "match join")
        assert not joined.ephemeral and "2/4 seated" in joined.content
        early = await fake.slash(bob, channel, "scrabble rack")
        assert early.ephemeral and "not started" in early.content
        refused = await fake.click(bob, lobby.message, label="Start")
        assert refused.ephemeral and "Only the player who opened" in refused.content
        started = await fake.click(alice, lobby.message, label="Start")
        board = board_message(started)
        assert png_size(board.attachments[0].data) == BOARD_SIZE
        text = board.text()
        assert "Draw for first turn" in text and "goes first" in text
        assert ("This game: 9-tile racks; first to 200 points wins; words are checked as they "
                "are played.") in text
        assert "9-tile racks · words checked as played · first to 200 points" in text

        match = await bot.service.current(channel.id)
        state = match.state
        assert (state.rack_size, state.finish, state.challenge) == (9, 200, "void")
        for user in (alice, bob):
            [dm] = fake.dm_messages(user)
            check_rack_dm(dm, state.racks[match.seat_of(user.id)], match.id)
            assert len(RACK_TEXT.search(dm.content).group(1).split()) == 9
        first = alice if match.player(state.turn).user_id == alice.id else bob
        assert mentioned_ids(board.content) == [first.id]

        # In a void game a word outside the dictionary is refused at once, and nobody challenges.
        word = phony_word(state.racks[state.turn])
        refused = await fake.slash(first, channel, "scrabble play", word=word, square="H8",
                                   direction="across")
        assert refused.ephemeral and "not in the dictionary" in refused.content
        no_challenge = await fake.slash(first, channel, "scrabble challenge")
        assert no_challenge.ephemeral and "challenges are off" in no_challenge.content
        assert (await bot.service.current(channel.id)).state == state
        cancelled = await fake.slash(alice, channel, "match cancel")
        assert not cancelled.ephemeral
        assert "Scores when it stopped: alice 0, bob 0." in cancelled.content


def phony_word(rack: str) -> str:
    """Two or three of the rack's tiles that make no word (a blank as a lower-case e)."""
    lexicon = scrabble.default_lexicon()
    letters = [t if t != "?" else "e" for t in rack]
    for size in (2, 3):
        for combo in itertools.permutations(letters, size):
            word = "".join(combo)
            if word.upper() not in lexicon:
                return word
    raise AssertionError(f"every arrangement of {rack} is a word")


async def test_three_players_dms_challenges_errors_restart_and_the_end(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, carol, dave = users["alice"], users["bob"], users["carol"], users["dave"]
    db = tmp_path / "gamenight.db"
    table = Table(users)
    table.channel = channel
    boards = []

    async with running_bot(fake, db, guild.id) as bot:
        table.bot = bot
        lobby = await fake.slash(alice, channel, "scrabble new", players=3)
        assert not lobby.ephemeral and "Seats (1/3)" in lobby.text()
        await fake.click(bob, lobby.message, label="Join")
        started = await fake.click(carol, lobby.message, label="Join")
        match = await table.record()
        state = match.state
        board = board_message(started)
        boards.append(board)

        # The opening draw and the order, and the first player called.
        text = board.text()
        assert text.count("Draw for first turn") == len(state.opening)
        assert f"**{match.player(state.first).name}** goes first. Turn order:" in text
        p0, p1, p2 = [await table.user(s) for s in scrabble.view(state).order]
        assert mentioned_ids(board.content) == [p0.id]
        assert "your turn: `/scrabble play`, `/scrabble exchange` or `/scrabble pass`" in (
            board.content)
        assert "100 tiles" not in text and f"{100 - 21} tiles left" in text

        # Racks by DM to alice and bob; carol's DMs are closed, so the channel is told.
        for user in (alice, bob):
            [dm] = fake.dm_messages(user)
            check_rack_dm(dm, state.racks[match.seat_of(user.id)], match.id)
        assert fake.dm_messages(carol) == []
        [notice] = [m for m in started.channel_messages if m is not board
                    and "/scrabble rack" in m.content]
        assert mentioned_ids(notice.content) == [carol.id] and "DMs are closed" in (
            notice.content)
        carol_rack = state.racks[match.seat_of(carol.id)]
        own = await fake.slash(carol, channel, "scrabble rack")
        assert own.ephemeral and RACK_TEXT.search(own.content).group(1) == spaced(carol_rack)
        assert own.attachments[0].data == render_rack(carol_rack, READER)
        hand = await fake.slash(carol, channel, "match hand")
        assert hand.ephemeral and RACK_TEXT.search(hand.content).group(1) == spaced(carol_rack)
        outsider = await fake.slash(dave, channel, "scrabble rack")
        assert outsider.ephemeral and "not playing" in outsider.content

        # Mistakes are answered privately and change nothing.
        rack0 = state.racks[await table.seat_of(p0)]
        missing = next(letter for letter in "QZXJKVWYFHBCMPGD" if letter not in rack0)
        errors = {
            (p1, "scrabble play", (("word", "AT"), ("square", "H8"), ("direction", "across"))):
                "It is not your turn",
            (p0, "scrabble play", (("word", missing * 2), ("square", "H8"),
                                   ("direction", "down"))): f"you have no {missing}",
            (p0, "scrabble exchange", (("tiles", missing),)): f"you have no {missing}",
            (p0, "scrabble play", (("word", rack0[:2]), ("square", "A1"),
                                   ("direction", "across"))): "must cover the centre square",
            (p0, "scrabble play", (("word", rack0[:2]), ("square", "Z9"),
                                   ("direction", "across"))): "is not a square",
            (p2, "scrabble challenge", ()): "there is no play to challenge",
            (dave, "scrabble pass", ()): "not playing in this match",
        }
        for (user, command, options), message in errors.items():
            refused = await fake.slash(user, channel, command, **dict(options))
            assert refused.ephemeral and message in refused.content, (command, refused.content)
            assert refused.channel_messages == [] and refused.dms == []
        assert await table.state() == state

        # p0 lays a word that is not in the dictionary; it stands until someone challenges.
        phony = phony_word(rack0)
        played = await act(fake, table, p0, channel, "scrabble play", word=phony,
                           square="H8", direction="across")
        board = board_message(played)
        boards.append(board)
        state = await table.state()
        assert f"played H8 across {phony} for {state.scores[await table.seat_of(p0)]}" in (
            board.text())
        assert mentioned_ids(board.content) == [p1.id]
        assert (f"You or {p2.name} may challenge {p0.name}'s play with `/scrabble challenge` "
                "until you act.") in board.content
        # p0's rack DM shows the new rack in place; p1, now to move, gets a new DM.
        assert readers(played) == called(p1, carol)
        if p0 is not carol:
            check_rack_dm(live_dm(fake, p0), state.racks[await table.seat_of(p0)], match.id)
        mine = await fake.slash(p0, channel, "scrabble challenge")
        assert mine.ephemeral and "your own play" in mine.content

        # p2 challenges: the word is not good, so the tiles come back and p0 scores nothing.
        challenged = await act(fake, table, p2, channel, "scrabble challenge")
        board = board_message(challenged)
        boards.append(board)
        assert f"**{p2.name}** challenges **{p0.name}**'s play." in board.text()
        assert f"{phony.upper()} is not in the dictionary: **{p0.name}** takes the tiles back" in (
            board.text())
        state = await table.state()
        assert state.board.is_empty() and state.scores == (0, 0, 0)
        assert state.racks[await table.seat_of(p0)] == rack0
        assert mentioned_ids(board.content) == [p1.id]
        assert challenged.dms == []  # still p1's turn: p1's DM is already the notice
        if p0 is not carol:
            assert shown_rack(live_dm(fake, p0)) == rack0

        # p1 plays a good word; p0 challenges it and loses their next turn.
        score, play = scrabble.scored_plays(state, await table.seat_of(p1))[0]
        good = await act(fake, table, p1, channel, "scrabble play", word=play.word,
                         square=play.square, direction=play.direction)
        board = board_message(good)
        boards.append(board)
        words = scrabble.score_play(state, await table.seat_of(p1), play).words
        assert f"**{p1.name}** played {play} for {score} (" + ", ".join(
            f"{w} {s}" for w, s in words) in board.text()
        failed = await act(fake, table, p0, channel, "scrabble challenge")
        board = board_message(failed)
        boards.append(board)
        assert f"Every word stands: **{p0.name}** loses their next turn." in board.text()
        assert "loses the next turn" in board.text() and mentioned_ids(board.content) == [p2.id]
        assert readers(good) == called(p2, carol)  # p2, now to move, is called
        assert failed.dms == []  # and is still to move: no second call

        # The word is on the board now: a word elsewhere must touch it.
        rack2 = (await table.state()).racks[await table.seat_of(p2)]
        apart = await fake.slash(p2, channel, "scrabble play", word=rack2[:2].replace("?", "e"),
                                 square="A1", direction="across")
        assert apart.ephemeral and "does not touch any tile" in apart.content

        # p2 exchanges two tiles; p0 loses the turn, so it goes to p1, who passes.
        swap = rack2[:2]
        exchanged = await act(fake, table, p2, channel, "scrabble exchange", tiles=swap.lower())
        board = board_message(exchanged)
        boards.append(board)
        assert f"**{p2.name}** exchanged 2 tiles." in board.text()
        assert f"**{p0.name}** loses this turn." in board.text()
        assert mentioned_ids(board.content) == [p1.id]
        state = await table.state()
        assert readers(exchanged) == called(p1, carol)
        if p2 is not carol:
            check_rack_dm(live_dm(fake, p2), state.racks[await table.seat_of(p2)], match.id)
        passed = await act(fake, table, p1, channel, "scrabble pass")
        board = board_message(passed)
        boards.append(board)
        assert f"**{p1.name}** passed." in board.text()
        assert readers(passed) == called(p2, carol)
        assert mentioned_ids(board.content) == [p2.id]

        bag = await fake.slash(alice, channel, "scrabble bag")
        state = await table.state()
        alice_view = scrabble.view(state, await table.seat_of(alice))
        assert bag.ephemeral and f"**{state.bag.__len__()}** tiles left in the bag" in bag.content
        assert f"Unseen tiles ({len(alice_view.unseen)}: the bag and the other racks)" in (
            bag.content)

    # A new bot process on the same database carries on.
    async with running_bot(fake, db, guild.id) as bot:
        table.bot = bot
        status = await fake.slash(dave, channel, "match status")
        pictured = [board for board in boards if board.attachments]  # a pass shows none
        assert status.attachments[0].data == pictured[-1].attachments[0].data
        assert mentioned_ids(status.content) == [p2.id]
        assert f"Last play\n{p1.name}: `{play}` for **{score}**" in status.text()
        carol_rack = (await table.state()).racks[await table.seat_of(carol)]
        own = await fake.slash(carol, channel, "scrabble rack")
        assert own.ephemeral and own.attachments[0].data == render_rack(carol_rack, READER)

        final = await play_to_the_end(fake, table, channel, boards)

        outcome = (await table.state()).result
        text = final.text()
        assert final.content.startswith("**Game over.** ")
        # With this deal the game ends on a play that goes out; the next player accepts it.
        assert "play ends the game if it stands. Challenge it with `/scrabble challenge`, or " \
               "accept it with `/scrabble pass`." in boards[-2].content
        assert "accepts the play." in text
        names = {s.seat: s.name for s in (await table.match()).seats}
        assert outcome.reason == "out"
        went_out = names[outcome.details["seat"]]
        assert f"**Game over.** **{went_out}** went out with the bag empty. " in final.content
        winner = await table.user(outcome.winners[0])
        assert f"<@{winner.id}> wins with {outcome.scores[outcome.winners[0]]}" in final.content
        details = outcome.details
        for seat, name in names.items():
            if details["adjustments"][seat] < 0:
                assert (f"{name}: {details['before'][seat]} − {-details['adjustments'][seat]} "
                        f"(left with {details['racks'][seat]}) = **{outcome.scores[seat]}**"
                        ) in text
            elif details["adjustments"][seat] > 0:
                assert f"{name}: {details['before'][seat]} + {details['adjustments'][seat]}" in (
                    text)
        late = await fake.slash(alice, channel, "scrabble play", word="AT", square="H8",
                                direction="across")
        assert late.ephemeral and "is over" in late.content
        rack = await fake.slash(carol, channel, "scrabble rack")
        assert rack.ephemeral and "is over. Start a new one with `/scrabble new`" in rack.content

    # Nobody ever saw another player's rack; once the game is over, every rack DM is one line.
    for user in (alice, bob, carol):
        for dm in fake.dm_messages(user):
            assert not dm.embeds and not dm.attachments and "Your Scrabble rack" not in dm.text()
    assert fake.dm_messages(carol) == []
    racks = {rack for held in table.held.values() for rack in held if len(rack) >= 3}
    for message in fake.messages(channel):
        assert "Your Scrabble rack" not in message.text()
        for attachment in message.attachments:
            assert attachment.image_size == BOARD_SIZE
        for rack in racks:
            assert spaced(rack) not in message.text()
    assert len(boards) > 20 and fake.search(fake.token) == []
    # Carol was told once that her DMs are closed, although her rack changed after the restart.
    notices = [m for m in fake.messages(channel) if "DMs are closed" in m.text()]
    assert len(notices) == 1


async def play_to_the_end(fake, table, channel, boards):
    """The player to move makes the best play (or accepts a final play, or passes)."""
    for _ in range(200):
        match = await table.match()
        state = match.state
        seat = state.turn
        user = await table.user(seat)
        if state.pending is not None and state.pending.final:
            result = await act(fake, table, user, channel, "scrabble pass")
        else:
            plays = scrabble.scored_plays(state, seat)
            if plays:
                play = plays[0][1]
                result = await act(fake, table, user, channel, "scrabble play",
                                   word=play.word, square=play.square,
                                   direction=play.direction)
            else:
                result = await act(fake, table, user, channel, "scrabble pass")
        board = board_message(result)
        boards.append(board)
        after = await table.state()
        if after.result is not None:
            assert result.dms == []
            return board
        mentioned = mentioned_ids(board.content)
        assert mentioned == [match.player(after.turn).user_id]
        upcoming = await table.user(after.turn)
        assert readers(result) == ([] if upcoming.name == "carol" else [upcoming])
        if user.name != "carol":
            check_rack_dm(live_dm(fake, user), after.racks[seat], match.id)
    raise AssertionError("the game did not end")


def test_the_lexicon_setting_needs_a_file(tmp_path):
    words = tmp_path / "words.txt"
    words.write_text("QI\nZA\n")
    settings = Settings.from_mapping({"DISCORD_TOKEN": "t", "GAMENIGHT_LEXICON": str(words)})
    assert settings.lexicon == words
    assert Settings.from_mapping({"DISCORD_TOKEN": "t"}).lexicon is None
    with pytest.raises(ConfigError, match="GAMENIGHT_LEXICON names no file"):
        Settings.from_mapping({"DISCORD_TOKEN": "t",
                               "GAMENIGHT_LEXICON": str(tmp_path / "missing.txt")})
    env = tmp_path / ".env"
    env.write_text(f"DISCORD_TOKEN=t\nGAMENIGHT_LEXICON={words}\n")
    assert Settings.load({}, env_file=env).lexicon == words


async def test_the_bot_hands_the_lexicon_setting_to_the_engine(world, tmp_path, monkeypatch):
    """A GAMENIGHT_LEXICON from .env is not in the environment, where the engine reads it: the
    cog puts it there before the word list is first loaded (off the event loop)."""
    fake, guild = world[0], world[1]
    words = tmp_path / "words.txt"
    words.write_text("QI\nZA\n")
    monkeypatch.setenv(ENV_VAR, "")  # and so the setting leaves the environment afterwards
    seen = []
    monkeypatch.setattr(scrabble, "default_lexicon", lambda: seen.append(os.environ[ENV_VAR]))
    settings = Settings.from_mapping({
        "DISCORD_TOKEN": fake.token, "GAMENIGHT_DB": str(tmp_path / "g.db"),
        "DISCORD_API_BASE": fake.api_base, "GAMENIGHT_GUILD": str(guild.id),
        "GAMENIGHT_LEXICON": str(words)})
    async with run_bot(GamenightBot(settings), fake):
        assert seen == [str(words)]


async def test_in_a_three_player_game_the_others_play_on_after_a_resignation(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, dave = users["alice"], users["bob"], users["dave"]
    table = Table(users)
    table.channel = channel
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        table.bot = bot
        lobby = await fake.slash(alice, channel, "scrabble new", players=3)
        await fake.click(bob, lobby.message, label="Join")
        await fake.click(dave, lobby.message, label="Join")
        state = await table.state()
        p0, p1, p2 = [await table.user(s) for s in scrabble.view(state).order]

        # The player to move resigns: the board says so and calls the next player.
        gone = await act(fake, table, p0, channel, "match resign")
        board = board_message(gone)
        assert f"**{p0.name}** resigned: their 7 tiles went back into the bag" in board.text()
        assert mentioned_ids(board.content) == [p1.id]
        assert f"~~{p0.name}~~ 0 · resigned" in board.text()
        assert "Game over" not in board.content
        state = await table.state()
        assert state.racks[await table.seat_of(p0)] == "" and state.tile_count() == 100

        # The resigned player can no longer act; their rack says why it is empty.
        refused = await fake.slash(p0, channel, "scrabble pass")
        assert refused.ephemeral and "You resigned from this game" in refused.content
        rack = await fake.slash(p0, channel, "scrabble rack")
        assert rack.ephemeral and "You resigned from this game" in rack.content

        # The other two play on, p0's turn skipped; when one more resigns, the last one wins.
        await act(fake, table, p1, channel, "scrabble pass")
        board = board_message(await act(fake, table, p2, channel, "scrabble pass"))
        assert mentioned_ids(board.content) == [p1.id]
        final = board_message(await act(fake, table, p1, channel, "match resign"))
        assert final.content.startswith("**Game over.** ")
        assert f"<@{p2.id}> wins with 0" in final.content
        assert f"~~{p0.name}~~: 0 (resigned)" in final.text()
        assert [b["label"] for b in final.buttons] == ["Rematch", "Review"]

        # Scrabble has a coach: /match review answers the asker alone with each seat's
        # accuracy and the asker's costliest turns (passes here, with plays to be had), each
        # pictured.
        asked = await fake.slash(p2, channel, "match review")
        assert asked.ephemeral and "**Review of Scrabble match" in asked.content
        assert f"**{p2.name}**'s costliest turns:" in asked.content
        assert "played **pass**; better **" in asked.content
        assert asked.files and all(name.endswith(".png") for name, _ in asked.files)


async def test_a_play_that_ends_the_game_is_explained_once_and_rack_dms_say_only_what_applies(
        world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, dave = users["alice"], users["bob"], users["dave"]
    table = Table(users)
    table.channel = channel
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        table.bot = bot
        lobby = await fake.slash(alice, channel, "scrabble new", players=3, finish="1")
        assert "finish line: first to 1 point" in lobby.text() and "1 points" not in lobby.text()
        await fake.click(bob, lobby.message, label="Join")
        await fake.click(dave, lobby.message, label="Join")
        state = await table.state()
        p0, p1, p2 = [await table.user(s) for s in scrabble.view(state).order]

        # The blank's hint is on a rack that holds one, and only there.
        racks = {user: state.racks[await table.seat_of(user)] for user in (alice, bob, dave)}
        assert any("?" in rack for rack in racks.values())
        assert any("?" not in rack for rack in racks.values())
        for user, rack in racks.items():
            assert ("is a blank" in live_dm(fake, user).text()) == ("?" in rack), rack

        # Any play reaches the finish line: it ends the game if it stands. The post says so
        # once, and names everyone who may still challenge it.
        play = scrabble.scored_plays(state, state.turn)[0][1]
        board = board_message(await act(fake, table, p0, channel, "scrabble play",
                                        word=play.word, square=play.square,
                                        direction=play.direction))
        text = board.text()
        assert f"**{p0.name}** reached 1 point." in text
        assert "1 points" not in text and "first to 1 point" in text
        assert text.count("may challenge") == 1 and text.count("ends the game") == 1
        assert board.content.partition("\n⏱ Time runs out")[0] == (  # then the turn clock
            f"<@{p1.id}>: {p0.name}'s play ends the game if it stands. Challenge it with "
            f"`/scrabble challenge`, or accept it with `/scrabble pass`. {p2.name} may "
            "challenge it too.")


async def test_a_resigned_players_dm_is_left_alone_and_they_rank_below_those_who_played_on(
        world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, dave = users["alice"], users["bob"], users["dave"]
    table = Table(users)
    table.channel = channel
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        table.bot = bot
        lobby = await fake.slash(alice, channel, "scrabble new", players=3)
        await fake.click(bob, lobby.message, label="Join")
        await fake.click(dave, lobby.message, label="Join")
        state = await table.state()
        p0, p1, p2 = [await table.user(s) for s in scrabble.view(state).order]

        # p0 scores, the others pass (accepting the play), then p0 resigns.
        score, play = scrabble.scored_plays(state, state.turn)[0]
        await act(fake, table, p0, channel, "scrabble play", word=play.word,
                  square=play.square, direction=play.direction)
        await act(fake, table, p1, channel, "scrabble pass")
        await act(fake, table, p2, channel, "scrabble pass")
        gone = await act(fake, table, p0, channel, "match resign")
        resigned_dm = live_dm(fake, p0)
        assert resigned_dm in gone.edited
        assert "You resigned from this game" in resigned_dm.text()
        assert "To move" not in resigned_dm.text() and "Bag" not in resigned_dm.text()
        assert resigned_dm.attachments == []  # no rack left to picture

        # The game goes on without them: their DM is not touched again.
        passed = await act(fake, table, p1, channel, "scrabble pass")
        assert resigned_dm not in passed.edited and passed.dms == [p2_dm := live_dm(fake, p2)]
        assert "To move" in p2_dm.text()

        # The last one playing wins; those who resigned come after, whatever their score.
        final = board_message(await act(fake, table, p2, channel, "match resign"))
        assert final.content.startswith("**Game over.** ")
        [scores] = [f["value"] for f in final.embeds[0]["fields"] if f["name"] == "Final scores"]
        assert scores.splitlines() == [f"{p1.name}: **0**", f"~~{p0.name}~~: {score} (resigned)",
                                       f"~~{p2.name}~~: 0 (resigned)"]


async def test_a_play_error_quotes_the_option_as_typed(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        lobby = await fake.slash(alice, channel, "scrabble new", players=2)
        await fake.click(bob, lobby.message, label="Join")
        match = await bot.service.current(channel.id)
        first = alice if match.player(match.state.turn).user_id == alice.id else bob
        answers = {("T I", "H8"): "`T I` must be letters A-Z only",
                   ("TI", "H 8"): "`H 8` is not a square",
                   ("TI", "8H"): "`8H` is not a square"}
        for (word, square), answer in answers.items():
            refused = await fake.slash(first, channel, "scrabble play", word=word,
                                       square=square, direction="across")
            assert refused.ephemeral and answer in refused.content, refused.content
        assert (await bot.service.current(channel.id)).state == match.state


async def test_a_new_matchs_first_board_is_pictured_after_a_match_that_looked_the_same(
        world, tmp_path):
    """A match cancelled before any play leaves the empty board as the channel's last
    picture; the next match's first board still shows its own."""
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        for _ in range(2):
            lobby = await fake.slash(alice, channel, "scrabble new", players=2)
            board = board_message(await fake.click(bob, lobby.message, label="Join"))
            assert png_size(board.attachments[0].data) == BOARD_SIZE
            assert "Unchanged" not in board.text()
            assert not (await fake.slash(alice, channel, "match cancel")).ephemeral
