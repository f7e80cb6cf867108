"""Turn clocks through the real bot and the fake Discord, with a clock the test moves: the
half-time reminder, a timeout handing the seat to a computer and the "I'm back" return,
`skip` and `forfeit`, a lobby that never fills, and a restart with the bot down meanwhile."""

from __future__ import annotations

import pytest

import games.doudizhu as ddz
import games.reversi as reversi
from bot.matches.model import Player
from bot.storage.rows import GuildSettings
from tests.e2e_helpers import FakeClock, InlineExecutor, fake_world, running_bot
from tests.fakediscord import Perm

pytestmark = pytest.mark.e2e

MINUTE = 60.0


@pytest.fixture
async def world():
    async with fake_world("games", ("alice", "bob")) as world:
        yield world


def timed_bot(fake, db, guild, clock):
    return running_bot(fake, db, guild.id, computer_executor=InlineExecutor(), clock=clock)


async def reversi_match(fake, bot, channel, users, turn_time="10m"):
    options = {} if turn_time is None else {"turn_time": turn_time}
    await fake.slash(users["alice"], channel, "reversi new", **options)
    await fake.slash(users["bob"], channel, "match join")
    match = await bot.service.current(channel.id)
    to_move = next(u for u in users.values() if u.id == match.player(match.current_seat()).user_id)
    return match, to_move


async def later(fake, clock, seconds):
    clock.advance(seconds)
    await fake.wait_idle()


def texts(fake, channel):
    return [m.text() for m in fake.messages(channel)]


async def test_the_board_shows_the_clock_and_half_time_reminds_once_by_dm(world, tmp_path):
    fake, guild, channel, users = world
    clock = FakeClock()
    async with timed_bot(fake, tmp_path / "g.db", guild, clock) as bot:
        match, to_move = await reversi_match(fake, bot, channel, users)
        due = int(clock.now() + 10 * MINUTE)
        assert f"Time runs out <t:{due}:R>" in texts(fake, channel)[-1]
        before = len(fake.dm_messages(to_move))

        await later(fake, clock, 5 * MINUTE - 1)
        assert len(fake.dm_messages(to_move)) == before  # not yet half time
        await later(fake, clock, 2)
        reminders = fake.dm_messages(to_move)[before:]
        assert len(reminders) == 1 and "It is your turn" in reminders[0].text()
        assert f"<t:{due}:R>" in reminders[0].text()
        await later(fake, clock, 4 * MINUTE)  # still before the timeout: no second reminder
        assert len(fake.dm_messages(to_move)) == before + 1


async def test_no_reminder_for_a_player_who_turned_them_off(world, tmp_path):
    fake, guild, channel, users = world
    clock = FakeClock()
    async with timed_bot(fake, tmp_path / "g.db", guild, clock) as bot:
        for user in users.values():
            await bot.store.set_notify(user.id, False)
        match, to_move = await reversi_match(fake, bot, channel, users)
        before = len(fake.dm_messages(to_move))
        await later(fake, clock, 6 * MINUTE)
        assert len(fake.dm_messages(to_move)) == before
        assert not any("a reminder" in t for t in texts(fake, channel))


async def test_a_timeout_hands_the_seat_to_a_computer_until_im_back(world, tmp_path):
    fake, guild, channel, users = world
    clock = FakeClock()
    async with timed_bot(fake, tmp_path / "g.db", guild, clock) as bot:
        match, to_move = await reversi_match(fake, bot, channel, users)
        seat = match.seat_of(to_move.id)
        other = next(u for u in users.values() if u is not to_move)
        await later(fake, clock, 10 * MINUTE)

        notice = next(t for t in texts(fake, channel) if "ran out of time" in t)
        assert f"**{to_move.name}** ran out of time (10 minutes a turn)" in notice
        match = await bot.service.current(channel.id)
        assert match.player(seat).away == "away"
        moves = await bot.service.store.moves(match.id)
        assert [m.seat for m in moves] == [seat]  # a computer moved for them
        assert match.current_seat() != seat

        board = fake.messages(channel)[-1].text()
        assert f"*(a computer played for {to_move.name})*" in board

        # While away, the computer plays their next turn too.
        square = str(reversi.legal_moves(match.state, match.current_seat())[0])
        await fake.slash(other, channel, "reversi move", square=square)
        match = await bot.service.current(channel.id)
        assert [m.seat for m in await bot.service.store.moves(match.id)] == [seat, 1 - seat, seat]

        dm = next(m for m in fake.dm_messages(to_move) if "Your time ran out" in m.text())
        back = await fake.click(to_move, dm, label="I'm back")
        assert "Welcome back" in back.message.text() and back.message.buttons == []
        match = await bot.service.current(channel.id)
        assert match.player(seat).away is None
        square = str(reversi.legal_moves(match.state, match.current_seat())[0])
        await fake.slash(other, channel, "reversi move", square=square)
        match = await bot.service.current(channel.id)
        assert match.current_seat() == seat  # theirs again: nobody moved for them
        again = await fake.raw_component(to_move, dm, {  # a second press, from an old copy
            "custom_id": f"gn:back:{match.id}", "component_type": 2})
        assert again.ephemeral and "older version" in again.text()
        assert (await bot.service.current(channel.id)).row.version == match.row.version


@pytest.mark.parametrize("policy", ["skip", "forfeit"])
async def test_skip_and_forfeit_from_the_servers_setting(world, tmp_path, policy):
    fake, guild, channel, users = world
    clock = FakeClock()
    async with timed_bot(fake, tmp_path / "g.db", guild, clock) as bot:
        await bot.store.set_guild_settings(guild.id, GuildSettings(on_timeout=policy))
        await fake.slash(users["alice"], channel, "scrabble new", players=2, turn_time="2m")
        await fake.slash(users["bob"], channel, "match join")
        match = await bot.service.current(channel.id)
        seat = match.current_seat()
        await later(fake, clock, 2 * MINUTE)
        latest = await bot.service.latest(channel.id)
        moves = await bot.service.store.moves(latest.id)
        name = match.player(seat).name
        if policy == "skip":
            assert [(m.seat, m.action) for m in moves] == [(seat, "pass")]
            assert any(f"**{name}** ran out of time (2 minutes a turn) and passes." in t
                       for t in texts(fake, channel))
            assert latest.status == "active" and latest.current_seat() == 1 - seat
        else:
            assert [(m.seat, m.action) for m in moves] == [(seat, "resign")]
            assert latest.status == "finished"
            assert any("and forfeits." in t for t in texts(fake, channel))


async def test_a_lobby_nobody_joins_closes_and_frees_the_channel(world, tmp_path):
    fake, guild, channel, users = world
    clock = FakeClock()
    async with timed_bot(fake, tmp_path / "g.db", guild, clock) as bot:
        lobby = await fake.slash(users["alice"], channel, "reversi new")
        await later(fake, clock, 30 * MINUTE - 1)
        assert (await bot.service.current(channel.id)) is not None
        await later(fake, clock, 1)
        assert (await bot.service.current(channel.id)) is None
        assert any("nobody joined within 30 minutes" in t for t in texts(fake, channel))
        card = fake.get_message(lobby.message.id)
        assert card.buttons == [] and "closed" in card.text()
        again = await fake.slash(users["bob"], channel, "reversi new")
        assert not again.ephemeral  # the channel is free


async def test_clocks_stand_still_while_the_bot_is_down(world, tmp_path):
    fake, guild, channel, users = world
    clock = FakeClock()
    db = tmp_path / "g.db"
    async with timed_bot(fake, db, guild, clock) as bot:
        match, to_move = await reversi_match(fake, bot, channel, users)
        await later(fake, clock, 3 * MINUTE)
    clock.advance(60 * MINUTE)  # the bot is down for an hour: the turn would have run out
    async with timed_bot(fake, db, guild, clock) as bot:
        await fake.wait_idle()
        match = await bot.service.current(channel.id)
        assert match.player(match.current_seat()).user_id == to_move.id  # nobody moved
        assert await bot.service.store.moves(match.id) == []
        due = match.turn_due
        assert due == pytest.approx(clock.now() + 7 * MINUTE)  # 3 minutes used, 7 left
        assert any("The bot was offline for 1 hour" in t and f"<t:{int(due)}:R>" in t
                   for t in texts(fake, channel))
        await later(fake, clock, 7 * MINUTE)
        assert (await bot.service.current(channel.id)).player(match.current_seat()).away == "away"


async def test_server_settings_need_manage_server_and_set_new_matches_clocks(world, tmp_path):
    fake, guild, channel, users = world
    admin = fake.add_user("carol")
    fake.add_member(guild, admin, permissions=Perm.MANAGE_GUILD)
    clock = FakeClock()
    async with timed_bot(fake, tmp_path / "g.db", guild, clock) as bot:
        await fake.wait_idle()
        shown = await fake.slash(users["alice"], channel, "gamenight settings")
        assert shown.ephemeral and "**1 day a turn**" in shown.content
        assert "a lobby closes after **30 minutes**" in shown.content
        refused = await fake.slash(users["alice"], channel, "gamenight settings", turn_time="1h")
        assert refused.ephemeral and "Manage Server" in refused.content
        assert await bot.store.guild_settings(guild.id) == GuildSettings()
        saved = await fake.slash(admin, channel, "gamenight settings", turn_time="1h",
                                 on_timeout="skip", lobby_timeout="10m")
        assert saved.ephemeral and saved.content.startswith("Saved.")
        assert "**1 hour a turn**" in saved.content and "**skip**" in saved.content

        match, _ = await reversi_match(fake, bot, channel, users, turn_time=None)
        assert (match.row.turn_seconds, match.row.on_timeout) == (3600, "skip")
        await fake.slash(users["alice"], channel, "match cancel")
        chosen, _ = await reversi_match(fake, bot, channel, users, turn_time="off")
        assert chosen.row.turn_seconds is None and chosen.turn_due is None
        assert "Time runs out" not in texts(fake, channel)[-1]


async def test_notify_off_and_on_by_command(world, tmp_path):
    fake, guild, channel, users = world
    clock = FakeClock()
    async with timed_bot(fake, tmp_path / "g.db", guild, clock) as bot:
        off = await fake.slash(users["alice"], channel, "gamenight notify", reminders="off")
        assert off.ephemeral and "No more turn reminders" in off.content
        assert await bot.store.notify(users["alice"].id) is False
        assert await bot.store.notify(users["bob"].id) is True
        on = await fake.slash(users["alice"], channel, "gamenight notify", reminders="on")
        assert on.ephemeral and await bot.store.notify(users["alice"].id) is True


async def test_leave_and_kick_during_a_game_hand_the_seat_to_a_computer(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob = users["alice"], users["bob"]
    clock = FakeClock()
    async with timed_bot(fake, tmp_path / "g.db", guild, clock) as bot:
        match, _ = await reversi_match(fake, bot, channel, users)
        refused = await fake.slash(bob, channel, "match kick", player=alice)
        assert refused.ephemeral and "Only the player who opened this match" in refused.content
        left = await fake.slash(bob, channel, "match leave")
        assert not left.ephemeral and "**bob** stepped away" in left.content
        match = await bot.service.current(channel.id)
        bob_seat = match.seat_of(bob.id)
        assert match.player(bob_seat).away == "away"
        assert match.current_seat() == 1 - bob_seat  # if it was bob's turn, the computer moved
        dm = fake.dm_messages(bob)[-1]
        assert "You are away in the Reversi match" in dm.text()
        assert [b["label"] for b in dm.buttons] == ["I'm back"]
        twice = await fake.slash(alice, channel, "match kick", player=bob)
        assert twice.ephemeral and "already plays" in twice.content

        # bob comes back by moving himself on his turn... which the computer takes at once
        # here, so alice (the creator) kicks herself out instead: both seats are computers'.
        kicked = await fake.slash(alice, channel, "match kick", player=alice)
        assert not kicked.ephemeral and "stepped away" in kicked.content
        finished = await bot.service.latest(channel.id)
        assert finished.status == "finished"  # two computers played it out


async def test_a_match_nobody_plays_for_seven_days_is_closed(world, tmp_path):
    fake, guild, channel, users = world
    clock = FakeClock()
    async with timed_bot(fake, tmp_path / "g.db", guild, clock) as bot:
        await fake.slash(users["alice"], channel, "reversi new", turn_time="off")
        await fake.slash(users["bob"], channel, "match join")
        await later(fake, clock, 7 * 24 * 60 * MINUTE - 1)
        assert (await bot.service.current(channel.id)) is not None
        await later(fake, clock, 1)
        assert (await bot.service.current(channel.id)) is None
        assert any("closed as abandoned: nobody has played in it for 7 days" in t
                   for t in texts(fake, channel))


async def test_skip_where_no_pass_is_allowed_lets_a_computer_make_that_one_move(world, tmp_path):
    """Reversi has no pass while a move exists: the computer moves once; the seat is theirs."""
    fake, guild, channel, users = world
    clock = FakeClock()
    async with timed_bot(fake, tmp_path / "g.db", guild, clock) as bot:
        await bot.store.set_guild_settings(guild.id, GuildSettings(on_timeout="skip"))
        match, to_move = await reversi_match(fake, bot, channel, users, turn_time="2m")
        seat = match.seat_of(to_move.id)
        await later(fake, clock, 2 * MINUTE)
        match = await bot.service.current(channel.id)
        assert [m.seat for m in await bot.service.store.moves(match.id)] == [seat]
        assert match.player(seat).away is None  # the next turn is theirs
        assert any("a computer makes this move for them; the next turn is theirs" in t
                   for t in texts(fake, channel))
        assert not [m for m in fake.dm_messages(to_move) if "I'm back" in str(m.buttons)]


async def test_any_command_of_an_away_player_brings_them_back(world, tmp_path):
    fake, guild, channel, users = world
    clock = FakeClock()
    async with timed_bot(fake, tmp_path / "g.db", guild, clock) as bot:
        match, to_move = await reversi_match(fake, bot, channel, users)
        seat = match.seat_of(to_move.id)
        await later(fake, clock, 10 * MINUTE)  # away; the computer moved for them
        assert (await bot.service.current(channel.id)).player(seat).away == "away"
        await fake.slash(to_move, channel, "match status")
        match = await bot.service.current(channel.id)
        assert match.player(seat).away is None
        other = next(u for u in users.values() if u is not to_move)
        square = str(reversi.legal_moves(match.state, match.current_seat())[0])
        await fake.slash(other, channel, "reversi move", square=square)
        assert (await bot.service.current(channel.id)).current_seat() == seat  # theirs to play


async def test_the_reminder_comes_in_the_channel_when_dms_are_closed(tmp_path):
    async with fake_world("games", ("alice", "bob"), dms_closed=("alice", "bob")) as world:
        fake, guild, channel, users = world
        clock = FakeClock()
        async with timed_bot(fake, tmp_path / "g.db", guild, clock) as bot:
            match, to_move = await reversi_match(fake, bot, channel, users)
            await later(fake, clock, 5 * MINUTE)
            reminders = [m for m in fake.messages(channel) if "a reminder" in m.text()]
            assert len(reminders) == 1
            assert reminders[0].content.startswith(f"<@{to_move.id}>, a reminder: it is your "
                                                   "turn, and your time runs out <t:")
            assert fake.dm_messages(to_move) == []
            assert await bot.store.dms_closed(to_move.id) is not None  # not tried again


@pytest.mark.parametrize("game", ["patchwork", "doudizhu"])
async def test_skip_passes_in_patchwork_and_the_dou_dizhu_auction(tmp_path, game):
    async with fake_world("games", ("alice", "bob", "carol")) as world:
        fake, guild, channel, users = world
        clock = FakeClock()
        async with timed_bot(fake, tmp_path / "g.db", guild, clock) as bot:
            await bot.store.set_guild_settings(guild.id, GuildSettings(on_timeout="skip"))
            await fake.slash(users["alice"], channel, f"{game} new", turn_time="10m")
            for name in ("bob", "carol")[:2 if game == "doudizhu" else 1]:
                await fake.slash(users[name], channel, "match join")
            match = await bot.service.current(channel.id)
            seat = match.current_seat()
            await later(fake, clock, 10 * MINUTE)
            match = await bot.service.current(channel.id)
            moves = [(m.seat, m.action) for m in await bot.service.store.moves(match.id)]
            assert moves == [(seat, "pass")]
            assert match.current_seat() != seat and match.player(seat).away is None


async def test_forfeit_at_a_scrabble_table_of_three_lets_the_others_play_on(tmp_path):
    async with fake_world("games", ("alice", "bob", "carol")) as world:
        fake, guild, channel, users = world
        clock = FakeClock()
        async with timed_bot(fake, tmp_path / "g.db", guild, clock) as bot:
            await bot.store.set_guild_settings(guild.id, GuildSettings(on_timeout="forfeit"))
            await fake.slash(users["alice"], channel, "scrabble new", players=3, turn_time="1h")
            await fake.slash(users["bob"], channel, "match join")
            await fake.slash(users["carol"], channel, "match join")
            match = await bot.service.current(channel.id)
            seat = match.current_seat()
            await later(fake, clock, 60 * MINUTE)
            match = await bot.service.current(channel.id)
            assert match.status == "active" and seat in match.state.resigned
            assert match.current_seat() not in (seat, None)
            assert any(f"**{match.player(seat).name}** ran out of time (1 hour a turn) and "
                       "forfeits." in t for t in texts(fake, channel))


async def test_dou_dizhu_forfeit_loses_the_round_and_the_series_goes_on(tmp_path):
    """Forfeit in the play: the seat's side loses the round, a computer takes the seat, and
    when nobody deals the next round in time the series ends with its ledger."""
    async with fake_world("games", ("alice", "bob", "carol")) as world:
        fake, guild, channel, users = world
        clock = FakeClock()
        async with timed_bot(fake, tmp_path / "g.db", guild, clock) as bot:
            await bot.store.set_guild_settings(guild.id, GuildSettings(on_timeout="forfeit"))
            await fake.slash(users["alice"], channel, "doudizhu new", turn_time="10m")
            for name in ("bob", "carol"):
                await fake.slash(users[name], channel, "match join")
            match = await bot.service.current(channel.id)
            for _ in range(3):  # the auction: whoever bids first takes it at 3
                if match.state.phase != ddz.AUCTION:
                    break
                bidder = next(u for u in users.values()
                              if u.id == match.player(match.current_seat()).user_id)
                await fake.slash(bidder, channel, "doudizhu bid", amount="3")
                match = await bot.service.current(channel.id)
            assert match.state.phase == ddz.PLAY
            seat, landlord = match.current_seat(), match.state.landlord
            await later(fake, clock, 10 * MINUTE)

            match = await bot.service.latest(channel.id)
            assert match.status == "active" and match.state.phase == ddz.ROUND_OVER
            assert match.player(seat).away == "away"
            payments = match.state.payments
            assert (payments[landlord] < 0) == (seat == landlord)  # the seat's side lost
            assert ("forfeit" in [m.action for m in await bot.service.store.moves(match.id)])
            assert await bot.service.replay(match.id) == match.state

            await later(fake, clock, 10 * MINUTE)  # nobody deals the next round
            match = await bot.service.latest(channel.id)
            assert match.status == "finished"
            assert any("Nobody dealt the next round within 10 minutes" in t
                       for t in texts(fake, channel))


async def bid_three(fake, channel, match, users):
    """The seat to open the auction bids 3: it is the landlord."""
    bidder = next(u for u in users.values() if u.id == match.player(match.current_seat()).user_id)
    await fake.slash(bidder, channel, "doudizhu bid", amount="3")


def match_landlord(match):
    return match.player(match.state.landlord).user_id


async def test_a_series_of_a_fixed_number_of_rounds_is_dealt_on_when_nobody_deals(tmp_path):
    """A game night's table (its lobby opened with the option `deals`, as the night opens it):
    the table says `deal 1 of 2`, offers Next without Stop, and when nobody deals the next
    round in time the clock deals it instead of ending the series."""
    async with fake_world("games", ("alice", "bob", "carol")) as world:
        fake, guild, channel, users = world
        clock = FakeClock()
        async with timed_bot(fake, tmp_path / "g.db", guild, clock) as bot:
            await bot.store.set_guild_settings(guild.id, GuildSettings(on_timeout="forfeit"))
            await bot.service.open_lobby(
                "doudizhu", guild_id=guild.id, channel_id=channel.id,
                creator=Player(users["alice"].id, "alice"),
                options={"players": 3, "deals": 2, "turn_time": "10m"})
            for name in ("bob", "carol"):
                await fake.slash(users[name], channel, "match join")
            await bid_three(fake, channel, await bot.service.current(channel.id), users)
            crowned = await bot.service.current(channel.id)
            landlord = next(u for u in users.values() if u.id == match_landlord(crowned))
            await later(fake, clock, 10 * MINUTE)  # the landlord forfeits the round

            match = await bot.service.latest(channel.id)
            assert match.state.phase == ddz.ROUND_OVER and match.state.deals == 2
            # A computer plays the forfeited seat's next deals until its person is back.
            dm = fake.dm_messages(landlord)[-1]
            assert "Your time ran out" in dm.text() and "I'm back" in str(dm.buttons)
            await fake.click(landlord, dm, label="I'm back")
            board = fake.messages(channel)[-1]
            assert "**Deal 1 of 2 is over.** `/doudizhu next` deals the next one." in board.text()
            assert "Dou Dizhu \N{MIDDLE DOT} deal 1 of 2" in board.text()
            assert [c["label"] for c in board.all_components() if "label" in c] == ["Next round"]

            await later(fake, clock, 10 * MINUTE)  # nobody deals the next round
            match = await bot.service.latest(channel.id)
            assert match.status == "active" and match.state.phase == ddz.AUCTION
            assert match.state.round_no == 2
            said = texts(fake, channel)
            assert any("Nobody dealt the next round within 10 minutes, so it is dealt now." in t
                       for t in said)
            assert "Dou Dizhu \N{MIDDLE DOT} deal 2 of 2" in said[-1]

            await bid_three(fake, channel, match, users)
            await later(fake, clock, 10 * MINUTE)  # the last deal is forfeited: the end
            match = await bot.service.latest(channel.id)
            assert match.status == "finished" and match.outcome().reason == "deals"
            final = fake.messages(channel)[-1].text()
            assert "**The series of 2 deals is over.**" in final
            assert "That was deal 2 of 2: the series is over." in final
            assert "(landlord)" in final and "Final ledger" in final  # the last hands shown
            assert await bot.service.replay(match.id) == match.state


async def test_the_dm_of_the_player_to_move_shows_their_time(world, tmp_path):
    fake, guild, channel, users = world
    clock = FakeClock()
    async with timed_bot(fake, tmp_path / "g.db", guild, clock) as bot:
        await fake.slash(users["alice"], channel, "scrabble new", players=2, turn_time="1h")
        await fake.slash(users["bob"], channel, "match join")
        match = await bot.service.current(channel.id)
        to_move = match.player(match.current_seat()).user_id
        due = int(clock.now() + 3600)
        for user in users.values():
            rack = fake.dm_messages(user)[-1].text()
            assert (f"Your time runs out <t:{due}:R>." in rack) == (user.id == to_move)
