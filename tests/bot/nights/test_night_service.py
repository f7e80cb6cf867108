"""A whole night through the night service and the match service, without Discord: sign-up,
check-in, rounds of matches, results, standings, and the host's controls."""

from __future__ import annotations

import pytest

from bot.matches.errors import LobbyError
from bot.nights.model import CANCELLED, DROPPED, FINISHED, PLAYING, RUNNING, WITHDRAWN
from bot.nights.pairing import first_round
from bot.nights.plan import Plan
from bot.nights.service import NightService
from bot.storage.rows import PlaceNames
from tests.e2e_helpers import FakeClock

GUILD, CHANNEL, HOST = 1, 2, 900


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def nights(store, service, clock):
    store.clock = clock.now
    return NightService(store, service, clock)


async def scheduled(nights, clock, plan: Plan, people: int, checked: int):
    night = await nights.schedule(guild_id=GUILD, channel_id=CHANNEL, host_id=HOST, plan=plan,
                                  start_at=clock.now() + 3600)
    for user in range(1, people + 1):
        await nights.sign(night.id, user, f"p{user}", in_=True)
    await nights.open_checkin(night.id)
    for user in range(1, checked + 1):
        await nights.check_in(night.id, user, f"p{user}")
    return await nights.begin(night.id)


async def open_round(nights, night):
    matches = []
    for table in night.round_tables():
        if table.status == "pending":
            thread = 10_000 + night.row.round * 100 + table.number
            matches.append(await nights.open_table(night.id, table, thread, PlaceNames()))
    return matches


async def play_round(nights, service, night, loser=max):
    """Every table of the round is played out: at each, the players resign one by one, the
    one `loser` picks first, so the lowest id wins."""
    await open_round(nights, night)
    night = await nights.require(night.id)
    for table in night.round_tables():
        if table.match_id is None:
            continue
        match = await service.get(table.match_id)
        ids = sorted((s.user_id for s in match.seats if s.user_id), reverse=loser is max)
        for uid in ids:
            if match.status != "active":
                break
            match = (await service.resign(match.channel_id, uid)).match
        await nights.match_ended(match)
    return await nights.require(night.id)


async def test_seven_sign_ups_one_no_show_three_round_swiss_with_byes(nights, service, clock):
    night = await scheduled(nights, clock, Plan("reversi", rounds=3), people=7, checked=6)
    assert night.row.status == RUNNING and night.row.round == 1
    assert night.player(7).state == WITHDRAWN  # signed up, never checked in
    assert len(night.round_tables()) == 3 and all(len(t.players) == 2
                                                  for t in night.round_tables())
    met = set()
    for round_ in (1, 2, 3):
        for table in night.round_tables():
            pair = frozenset(table.players)
            assert pair not in met
            met.add(pair)
        night = await play_round(nights, service, night, loser=max)
        night = await nights.advance(night.id)
    assert night.row.status == FINISHED
    standings = night.standings()
    points = {s.player: s.points for s in standings}
    assert points[1] == 3.0 == standings[0].points  # the lowest id wins every game...
    # ...but may share the top: no rematch outranks a meeting of the leaders, so with some
    # seeds 1 and 2 never meet and the tiebreaks decide
    assert [s.rank for s in standings] == list(range(1, 7))


async def test_odd_count_gives_one_bye_each_and_the_bye_scores(nights, service, clock):
    night = await scheduled(nights, clock, Plan("reversi", rounds=3), people=5, checked=5)
    byes = []
    for _ in range(3):
        byes += [t.players[0] for t in night.round_tables() if t.status == "bye"]
        night = await play_round(nights, service, night)
        night = await nights.advance(night.id)
    assert len(byes) == 3 and len(set(byes)) == 3
    points = {s.player: s.points for s in night.standings()}
    assert sum(points.values()) == 3 * 2 + 3  # two games and a bye a round


async def test_too_few_checked_in_cancels(nights, clock):
    night = await scheduled(nights, clock, Plan("reversi"), people=3, checked=1)
    assert night.row.status == CANCELLED


async def test_drop_leaves_after_the_current_game(nights, service, clock):
    night = await scheduled(nights, clock, Plan("reversi", rounds=2), people=4, checked=4)
    await open_round(nights, night)
    night = await nights.drop(night.id, 1)
    assert night.player(1).state == "dropping"
    night = await play_round(nights, service, night)
    assert night.player(1).state == DROPPED
    night = await nights.advance(night.id)
    assert all(1 not in t.players for t in night.round_tables())
    assert any(t.status == "bye" for t in night.round_tables())


async def test_sub_takes_the_seat_and_the_game_goes_on(nights, service, clock):
    night = await scheduled(nights, clock, Plan("reversi", rounds=2), people=4, checked=4)
    matches = await open_round(nights, night)
    match = matches[0]
    out = match.seats[0].user_id
    night = await nights.sub(night.id, HOST, out, 55, "sub")
    assert night.player(55).state == PLAYING and night.player(out).state == DROPPED
    again = await service.get(match.id)
    assert again.status == "active" and again.seats[0].user_id == 55
    assert ("sub" in [entry[2] for entry in await nights.store.night_log(night.id)])


async def test_round_deadline_or_next_closes_unfinished_games(nights, service, clock):
    night = await scheduled(nights, clock, Plan("reversi", rounds=2), people=4, checked=4)
    matches = await open_round(nights, night)
    assert await nights.advance(night.id) is None  # games still in play
    night = await nights.advance(night.id, force=True)
    assert night.row.round == 2
    for match in matches:
        assert (await service.get(match.id)).status == "cancelled"
    points = {s.player: s.points for s in night.standings()}
    assert set(points.values()) == {0.5}


async def test_override_and_repair(nights, service, clock):
    night = await scheduled(nights, clock, Plan("reversi", rounds=2), people=4, checked=4)
    table = night.round_tables()[0]
    night = await nights.repair(night.id, HOST)  # nothing started yet: pairs again
    assert night.row.round == 1 and len(night.round_tables()) == 2
    table = night.round_tables()[0]
    night = await nights.override(night.id, HOST, 1, table.number, [table.players[1]],
                                  "a no-show agreed by both")
    done = night.round_tables()[0]
    assert done.status == "done" and done.result["places"] == [2, 1]
    await open_round(nights, night)
    with pytest.raises(LobbyError):
        await nights.repair(night.id, HOST)


async def test_doudizhu_seven_players_tables_of_three_one_sits_out(nights, service, clock):
    night = await scheduled(nights, clock, Plan("doudizhu", table=3, rounds=2), people=7,
                            checked=7)
    tables = night.round_tables()
    assert sorted(len(t.players) for t in tables) == [1, 3, 3]
    assert [t.status for t in tables if len(t.players) == 1] == ["out"]


async def test_doudizhu_computers_fill_the_short_table(nights, service, clock):
    night = await scheduled(nights, clock, Plan("doudizhu", table=3, rounds=1, computers=True),
                            people=7, checked=7)
    tables = night.round_tables()
    assert sorted(len(t.players) for t in tables) == [3, 3, 3]
    matches = await open_round(nights, night)
    kinds = sorted(s.kind for m in matches for s in m.seats)
    assert kinds.count("computer") == 2


async def test_late_join_until_half_the_rounds(nights, service, clock):
    night = await scheduled(nights, clock, Plan("reversi", rounds=4), people=4, checked=4)
    night = await nights.check_in(night.id, 77, "late")
    assert night.player(77).joined_round == 2
    night = await play_round(nights, service, night)
    night = await nights.advance(night.id)
    assert any(77 in t.players for t in night.round_tables())
    points = {s.player: s.points for s in night.standings()}
    assert points[77] == 1.0  # a bye's points for the round missed


async def test_a_no_show_forfeits_a_walkover_and_is_withdrawn_until_checking_in(
        nights, service, clock):
    night = await scheduled(nights, clock, Plan("reversi", rounds=3, turn_time="10m"),
                            people=4, checked=4)
    matches = await open_round(nights, night)
    match = matches[0]
    seat = match.current_seat()
    absent = match.player(seat).user_id
    clock.advance(10 * 60 + 1)
    timeout = await service.time_out(match.id, clock.now())
    assert timeout.kind == "forfeit" and timeout.after.status == "finished"
    night = await nights.match_ended(timeout.after)
    table = night.table_of(absent, 1)
    assert table.result["forfeits"] == [absent]
    assert night.player(absent).state == WITHDRAWN
    # the other tables finish; the absent player is not seated in round 2
    for other in matches[1:]:
        ended = await service.resign(other.channel_id, other.player(0).user_id)
        await nights.match_ended(ended.match)
    night = await nights.advance(night.id)
    assert night.row.round == 2 and night.table_of(absent) is None
    night = await nights.check_in(night.id, absent, "back")
    assert night.player(absent).state == PLAYING


async def test_a_player_who_has_moved_is_not_a_no_show(nights, service, clock):
    night = await scheduled(nights, clock, Plan("reversi", rounds=2, turn_time="10m"),
                            people=2, checked=2)
    match = (await open_round(nights, night))[0]
    first = match.player(match.current_seat()).user_id
    moved = await service.act(match.channel_id, first, "d3")
    second = moved.match.player(moved.match.current_seat()).user_id
    await service.act(match.channel_id, second, "c5")
    clock.advance(10 * 60 + 1)
    timeout = await service.time_out(match.id, clock.now())
    assert timeout.kind == "away"  # the server's rule: a computer plays for them
    assert timeout.after.status == "active"


async def test_a_rated_night_pairs_round_one_by_rating_top_half_against_bottom_half(
        nights, store, clock):
    ratings = {1: 1500, 2: 1400, 3: 1300, 4: 1200, 5: 1100, 6: 1000}
    async with store.transaction() as db:
        for user, display in ratings.items():
            await db.execute(
                "INSERT INTO ratings (guild_id, game, season, user_id, name, mu, sigma,"
                " display, games, wins) VALUES (?, 'reversi', 'all', ?, ?, 25, 8, ?, 5, 2)",
                (GUILD, user, f"p{user}", display))
    night = await scheduled(nights, clock, Plan("reversi", rounds=3), people=6, checked=6)
    pairs = {frozenset(t.players) for t in night.round_tables()}
    assert pairs == {frozenset((1, 4)), frozenset((2, 5)), frozenset((3, 6))}
    unrated = await scheduled(nights, clock, Plan("reversi", rounds=3, rated=False),
                              people=6, checked=6)
    again = first_round(sorted(p.user_id for p in unrated.in_play), unrated.row.seed)
    assert {frozenset(t.players) for t in unrated.round_tables()} == {
        frozenset((p.first, p.second)) for p in again.pairs}  # recomputed from the stored seed


async def test_the_bye_and_a_late_joiners_missed_rounds_earn_the_nights_bye_points(
        nights, service, clock):
    night = await scheduled(nights, clock, Plan("reversi", rounds=3, bye_points=0.5),
                            people=5, checked=5)
    [bye] = [t.players[0] for t in night.round_tables() if t.status == "bye"]
    night = await nights.check_in(night.id, 88, "late")
    night = await play_round(nights, service, night)
    night = await nights.advance(night.id)
    points = {s.player: s.points for s in night.standings()}
    assert points[88] == 0.5  # round 1 missed
    assert points[bye] == 0.5
