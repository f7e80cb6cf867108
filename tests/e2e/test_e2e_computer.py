"""Computer players through the real bot and the fake Discord: seating them, whole games of
every game against them, a restart while one is to move, and a computer that fails.

The games' computer players (`games/<game>/ai.py`) are only asked for a move `apply` accepts;
most tests run their decisions in this process (`InlineExecutor`), one through the process
pool the bot uses in production."""

from __future__ import annotations

import random

import pytest

import games.doudizhu as ddz
import games.patchwork as patchwork
import games.reversi as reversi
import games.scrabble as scrabble
from games.patchwork.moves import short_orientation
from tests.e2e.test_e2e_scrabble import phony_word
from tests.e2e_helpers import (
    InlineExecutor,
    fake_world,
    fix_match_seeds,
    mentioned_ids,
    running_bot,
)

pytestmark = pytest.mark.e2e


@pytest.fixture
async def world():
    async with fake_world("games", ("alice", "bob")) as world:
        yield world


def inline(fake, db, guild, **settings):
    return running_bot(fake, db, guild.id, computer_executor=InlineExecutor(), **settings)


def person_command(game: str, state, seat: int, rng: random.Random) -> tuple[str, dict]:
    """A slash command (and its options) for a legal action of the person in `seat`."""
    if game == "reversi":
        return "reversi move", {"square": str(rng.choice(reversi.legal_moves(state, seat)))}
    if game == "scrabble":
        if state.pending is not None and state.pending.final:
            return "scrabble pass", {}
        plays = scrabble.scored_plays(state, seat, one_blank_choice=True)
        if not plays:
            return "scrabble pass", {}
        play = plays[0][1]
        return "scrabble play", {"word": play.word, "square": play.square,
                                 "direction": play.direction}
    if game == "patchwork":
        move = rng.choice(patchwork.legal_moves(state, seat))
        if isinstance(move, patchwork.Place):
            return "patchwork place", {"square": move.square}
        if isinstance(move, patchwork.Buy):
            return "patchwork buy", {"patch": move.choice, "square": move.square,
                                     "orientation": short_orientation(move.orientation)}
        return "patchwork pass", {}
    if state.phase == ddz.ROUND_OVER:
        return "doudizhu stop", {}
    moves = ddz.legal_moves(state, seat)
    if state.phase == ddz.AUCTION:
        amount = rng.choice(moves).amount
        return "doudizhu bid", {"amount": str(amount) if amount else "pass"}
    move = rng.choice(moves)
    return ("doudizhu pass", {}) if isinstance(move, ddz.Pass) else \
        ("doudizhu play", {"cards": str(move)})


async def play_out(fake, bot, channel, person, rng, *, limit: int = 400):
    """The person acts whenever the match waits for them, until it ends; the finished match.
    After each action the fake waits until the bot is idle: the computers have answered."""
    for _ in range(limit):
        match = await bot.service.latest(channel.id)
        if match.status != "active":
            return match
        seat = match.current_seat()
        between_rounds = getattr(match.state, "phase", None) == ddz.ROUND_OVER
        assert between_rounds or match.player(seat).kind == "user", \
            "the bot went idle while a computer was to act"
        command, options = person_command(match.game, match.state, match.seat_of(person.id),
                                          rng)
        result = await fake.slash(person, channel, command, **options)
        assert not result.ephemeral or "Done" in result.text(), result.text()  # a table edit
    raise AssertionError("the game did not end")


async def moves_by_kind(bot, match) -> dict[str, int]:
    kinds: dict[str, int] = {}
    for move in await bot.service.store.moves(match.id):
        kind = match.player(move.seat).kind
        kinds[kind] = kinds.get(kind, 0) + 1
    return kinds


def assert_no_mention_of_nobody(fake) -> None:
    """Nothing was addressed to a computer as if it were a user."""
    assert fake.search("<@None>") == []


async def test_reversi_against_a_computer_from_the_lobby_menu(world, tmp_path, monkeypatch):
    fix_match_seeds(monkeypatch, 3)  # a game long enough for 20 moves each, on every run
    fake, guild, channel, users = world
    alice = users["alice"]
    async with inline(fake, tmp_path / "g.db", guild) as bot:
        lobby = await fake.slash(alice, channel, "reversi new")
        menu = lobby.message.selects[0]
        assert [o["value"] for o in menu["options"]] == ["easy", "normal", "hard"]
        started = await fake.select(alice, lobby.message, menu["custom_id"], ["easy"])
        assert "Reversi: started" in started.message.text()
        assert "2. Computer (easy)" in started.message.text()
        final = await play_out(fake, bot, channel, alice, random.Random(1))
        assert final.status == "finished"
        kinds = await moves_by_kind(bot, final)
        assert kinds["computer"] >= 20 and kinds["user"] >= 20
        state = await bot.service.replay(final.id)  # the computer's moves are in the log
        assert state == final.state
        last = fake.messages(channel)[-1]
        assert "Game over" in last.text() and last.attachments
        thinking = [m for m in fake.messages(channel) if "is thinking" in (m.content or "")]
        assert thinking == [] or all("Computer (easy)" in m.content for m in thinking)
    assert_no_mention_of_nobody(fake)


async def test_a_board_waiting_on_a_computer_says_it_thinks(world, tmp_path):
    """With a pause before the computer acts, the posted board names it, pinging nobody."""
    fake, guild, channel, users = world
    alice = users["alice"]
    async with inline(fake, tmp_path / "g.db", guild, computer_delay="30") as bot:
        await fake.slash(alice, channel, "reversi new")
        started = await fake.slash(alice, channel, "match addbot", level="hard")
        match = await bot.service.current(channel.id)
        if match.computer_to_act() is None:  # alice is black: her move hands the turn over
            seat = match.seat_of(alice.id)
            move = str(reversi.legal_moves(match.state, seat)[0])
            started = await fake.slash(alice, channel, "reversi move", square=move)
        board = [m for m in started.all_messages if m.attachments][-1]
        assert board.content == "**Computer (hard)** is thinking..."
        assert fake.search("<@None>") == []


async def test_scrabble_against_a_computer(world, tmp_path):
    fake, guild, channel, users = world
    alice = users["alice"]
    async with inline(fake, tmp_path / "g.db", guild) as bot:
        await fake.slash(alice, channel, "scrabble new", players=2)
        await fake.slash(alice, channel, "match addbot", level="easy")
        final = await play_out(fake, bot, channel, alice, random.Random(2))
        assert final.status == "finished"
        assert (await moves_by_kind(bot, final))["computer"] >= 5
        assert fake.dm_messages(alice)  # her rack by DM; nobody gets the computer's
        assert fake.dm_messages(users["bob"]) == []


async def test_patchwork_against_a_computer(world, tmp_path):
    fake, guild, channel, users = world
    alice = users["alice"]
    async with inline(fake, tmp_path / "g.db", guild) as bot:
        await fake.slash(alice, channel, "patchwork new")
        await fake.slash(alice, channel, "match addbot", level="easy")
        final = await play_out(fake, bot, channel, alice, random.Random(3))
        assert final.status == "finished"
        assert (await moves_by_kind(bot, final))["computer"] >= 5
        assert await bot.service.replay(final.id) == final.state


async def test_one_person_and_three_computers_at_dou_dizhu(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with inline(fake, tmp_path / "g.db", guild) as bot:
        await fake.slash(alice, channel, "doudizhu new", players=4)
        for level in ("easy", "easy"):
            added = await fake.slash(alice, channel, "match addbot", level=level)
            assert "added a computer" in added.content
        lobby = await bot.service.current(channel.id)
        assert [s.name for s in lobby.seats] == ["alice", "Computer (easy)", "Computer 2 (easy)"]
        await fake.slash(alice, channel, "match addbot", level="easy")  # the fourth: dealt
        final = await play_out(fake, bot, channel, alice, random.Random(4))
        assert final.status == "finished"
        kinds = await moves_by_kind(bot, final)
        assert kinds["computer"] >= 3 and kinds["user"] >= 2
        # only alice got private messages: a computer's hand goes nowhere
        assert fake.dm_messages(alice) and fake.dm_messages(bob) == []
        for seat in final.seats[1:]:
            assert seat.kind == "computer" and seat.user_id is None
    assert_no_mention_of_nobody(fake)


async def test_seating_computers_and_the_refusals(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    async with inline(fake, tmp_path / "g.db", guild) as bot:
        lobby = await fake.slash(alice, channel, "scrabble new", players=4)
        menu = lobby.message.selects[0]["custom_id"]

        refused = await fake.slash(bob, channel, "match addbot", level="hard")
        assert refused.ephemeral and "Only the player who opened the lobby" in refused.content
        by_menu = await fake.select(bob, lobby.message, menu, ["hard"])
        assert by_menu.ephemeral and "Only the player who opened the lobby" in by_menu.text()
        none_yet = await fake.slash(alice, channel, "match removebot")
        assert none_yet.ephemeral and "No computer" in none_yet.content

        added = await fake.select(alice, lobby.message, menu, ["hard"])
        card = added.message
        assert "2. Computer (hard)" in card.text()
        assert "Remove computer" in [b["label"] for b in card.buttons]
        stale = await fake.raw_component(alice, card, {  # the menu of the card before
            "custom_id": menu, "component_type": 3, "values": ["easy"]})
        assert stale.ephemeral and "older version" in stale.text()
        assert len((await bot.service.current(channel.id)).seats) == 2  # nothing was added

        remove = next(b for b in card.buttons if b["label"] == "Remove computer")
        not_creator = await fake.click(bob, card, remove["custom_id"])
        assert not_creator.ephemeral and "Only the player who opened" in not_creator.text()
        removed = await fake.click(alice, card, remove["custom_id"])
        assert "Computer" not in removed.message.text()
        assert "Remove computer" not in [b["label"] for b in removed.message.buttons]
        match = await bot.service.current(channel.id)
        assert [s.kind for s in match.seats] == ["user"]

        await fake.slash(alice, channel, "match cancel")
        await fake.slash(alice, channel, "reversi new", opponent=bob)
        reserved = await fake.slash(alice, channel, "match addbot")
        assert reserved.ephemeral and "reserved" in reserved.content


async def test_a_computer_to_move_at_a_restart_moves_after_it(world, tmp_path):
    fake, guild, channel, users = world
    alice = users["alice"]
    db = tmp_path / "g.db"
    async with inline(fake, db, guild, computer_delay="30") as bot:  # it waits: we stop first
        await fake.slash(alice, channel, "reversi new")
        await fake.slash(alice, channel, "match addbot", level="easy")
        match = await bot.service.current(channel.id)
        if match.computer_to_act() is None:
            seat = match.seat_of(alice.id)
            square = str(reversi.legal_moves(match.state, seat)[0])
            await fake.slash(alice, channel, "reversi move", square=square)
        pending = await bot.service.current(channel.id)
        assert pending.computer_to_act() is not None
    async with inline(fake, db, guild) as bot:
        after = await bot.service.current(channel.id)
        assert after.row.version == pending.row.version + 1
        assert after.current_seat() == after.seat_of(alice.id)
        assert "your move" in fake.messages(channel)[-1].content


async def test_a_failing_computer_is_announced_once_and_the_match_goes_on(world, tmp_path,
                                                                          monkeypatch):
    import games.reversi.ai as reversi_ai

    fake, guild, channel, users = world
    alice = users["alice"]

    def broken(*args, **kwargs):
        raise RuntimeError("a bug in the engine")

    async with inline(fake, tmp_path / "g.db", guild) as bot:
        await fake.slash(alice, channel, "reversi new")
        match = None
        with fake.expect_errors():
            monkeypatch.setattr(reversi_ai, "choose_move", broken)
            await fake.slash(alice, channel, "match addbot", level="normal")
            match = await bot.service.current(channel.id)
            if match.computer_to_act() is None:
                square = str(reversi.legal_moves(match.state, match.seat_of(alice.id))[0])
                await fake.slash(alice, channel, "reversi move", square=square)
                match = await bot.service.current(channel.id)
        assert match.computer_to_act() is not None
        notices = [m for m in fake.messages(channel) if "ran into an error" in (m.content or "")]
        assert len(notices) == 1 and "/match cancel" in notices[0].content
        assert "Computer (normal)" in notices[0].content

        wrong = await fake.slash(alice, channel, "reversi move", square="a1")  # still playable
        assert wrong.ephemeral and "Computer (normal)'s turn" in wrong.content
        await fake.slash(alice, channel, "match status")  # another event: no second notice
        assert len([m for m in fake.messages(channel)
                    if "ran into an error" in (m.content or "")]) == 1

        monkeypatch.undo()  # fixed: Retry lets it move
        retried = await fake.click(alice, notices[0], label="Retry")
        assert "trying again" in retried.message.content and retried.message.buttons == []
        moved = await bot.service.current(channel.id)
        assert moved.row.version == match.row.version + 1
        assert moved.current_seat() == moved.seat_of(alice.id)


async def test_computers_think_in_worker_processes(world, tmp_path):
    """The production executor: decisions in a process pool, the loop free meanwhile."""
    fake, guild, channel, users = world
    alice = users["alice"]
    async with running_bot(fake, tmp_path / "g.db", guild.id, computer_workers="1") as bot:
        await fake.slash(alice, channel, "reversi new")
        await fake.slash(alice, channel, "match addbot", level="easy")
        rng = random.Random(6)
        for _ in range(3):
            match = await bot.service.current(channel.id)
            seat = match.seat_of(alice.id)
            assert match.current_seat() == seat
            square = str(rng.choice(reversi.legal_moves(match.state, seat)))
            await fake.slash(alice, channel, "reversi move", square=square)
        kinds = await moves_by_kind(bot, await bot.service.current(channel.id))
        assert kinds["computer"] >= 3


async def test_a_rematch_seats_the_computers_again(world, tmp_path):
    fake, guild, channel, users = world
    alice = users["alice"]
    async with inline(fake, tmp_path / "g.db", guild) as bot:
        await fake.slash(alice, channel, "reversi new")
        await fake.slash(alice, channel, "match addbot", level="hard")
        first = await bot.service.current(channel.id)
        await fake.slash(alice, channel, "match resign")
        last_board = fake.messages(channel)[-1]
        again = await fake.click(alice, last_board, label="Rematch")
        assert "asks for a rematch" in again.text() and "Join" not in again.content
        match = await bot.service.current(channel.id)
        assert match.id != first.id and match.status == "active"
        assert [(s.kind, s.level) for s in match.seats] == [("user", None), ("computer", "hard")]
        assert any(m.attachments for m in again.all_messages)  # the first board is posted
        assert match.current_seat() == match.seat_of(alice.id)  # the computer moved if first


async def test_a_computer_not_to_move_challenges_a_phony_at_a_table_of_three(
        world, tmp_path, monkeypatch):
    """Any player but the one who made a play may challenge it: a hard computer that is not
    next to move challenges alice's phony before bob acts; an easy one never does."""
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    seed = next(s for s in range(1, 200)  # alice (seat 0) draws first: bob is next
                if scrabble.new_game(3, seed=s).turn == 0)
    fix_match_seeds(monkeypatch, seed)
    for level, challenged in (("hard", True), ("easy", False)):
        async with inline(fake, tmp_path / f"{level}.db", guild) as bot:
            await fake.slash(alice, channel, "scrabble new", players=3)
            await fake.slash(bob, channel, "match join")
            await fake.slash(alice, channel, "match addbot", level=level)
            match = await bot.service.current(channel.id)
            assert [s.kind for s in match.seats] == ["user", "user", "computer"]
            assert match.current_seat() == 0
            phony = phony_word(match.state.racks[0])
            await fake.slash(alice, channel, "scrabble play", word=phony, square="H8",
                             direction="across")
            match = await bot.service.current(channel.id)
            moves = [(m.seat, m.action) for m in await bot.service.store.moves(match.id)]
            if challenged:
                assert moves[-1] == (2, "challenge")
                assert match.state.scores[0] == 0 and match.state.board == scrabble.new_game(
                    3, seed=seed).board  # the tiles went back to alice's rack
                assert match.current_seat() == 1
                played, challenged_board = fake.messages(channel)[-2:]
                assert mentioned_ids(played.content) == [bob.id]  # bob's turn, still
                assert "thinking" not in played.text()
                assert (f"**Computer (hard)** challenges **alice**'s play.\n{phony.upper()} is "
                        "not in the dictionary" in challenged_board.text())
            else:
                assert moves[-1][0] == 0 and match.state.pending is not None
            await fake.slash(alice, channel, "match cancel")


async def test_a_failing_computer_in_a_deleted_channel_cancels_the_match_quietly(
        world, tmp_path, monkeypatch):
    """Its failure notice finds the channel gone (10003): the match is cancelled, not kept
    waiting on a channel nobody can reach."""
    import games.reversi.ai as reversi_ai

    fake, guild, channel, users = world
    alice = users["alice"]

    def deleted_then_broken(*args, **kwargs):
        del fake.channels[channel.id]  # deleted while the computer thinks
        raise RuntimeError("a bug in the engine")

    async with inline(fake, tmp_path / "g.db", guild) as bot:
        await fake.slash(alice, channel, "reversi new")
        monkeypatch.setattr(reversi_ai, "choose_move", deleted_then_broken)
        with fake.expect_errors():
            await fake.slash(alice, channel, "match addbot", level="normal")
            match = await bot.service.latest(channel.id)
            if channel.id in fake.channels:  # alice moves first
                square = str(reversi.legal_moves(match.state, match.seat_of(alice.id))[0])
                await fake.slash(alice, channel, "reversi move", square=square)
        assert channel.id not in fake.channels
        assert (await bot.service.get(match.id)).status == "cancelled"
        posts = [r for r in fake.request_log
                 if r.method == "POST" and r.path == f"/channels/{channel.id}/messages"]
        assert [r.status for r in posts][-1] == 404  # the notice, refused once, then forgotten
