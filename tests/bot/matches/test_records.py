"""Records of finished matches: places, ratings (against openskill's own results), the
recompute check, unrated matches, and forgetting a person."""

from __future__ import annotations

from importlib import import_module

import pytest
from openskill.models import PlackettLuce

from bot.matches.ratings import ALL_TIME, START, Skill, display
from bot.matches.records import recompute
from bot.matches.model import Player
from games.contests import Contest, standing
from games.common import Outcome

pytestmark = pytest.mark.store  # also run on PostgreSQL (tests/project/test_postgres_run.py)

GUILD = 7
PEOPLE = [Player(201 + i, name) for i, name in enumerate(("ana", "ben", "cho", "dev"))]
MODEL = PlackettLuce()


async def play(service, game, people, *, channel, seed, rounds=2, resign=None, computer=None,
               guild=GUILD):
    """Open a lobby for `people` (and a `computer` level), play it out with the easy
    computer's moves for everyone; `resign`: (ply, index in people) resigns then."""
    seats = len(people) + (computer is not None)
    lobby = await service.open_lobby(game, guild_id=guild, channel_id=channel,
                                     creator=people[0], seed=seed, options={"players": seats})
    match = lobby
    for person in people[1:]:
        match = await service.join(lobby.id, person)
    if computer is not None:
        match = await service.add_computer(lobby.id, people[0].user_id, computer)
    ai = import_module(f"games.{game}.ai")
    ply, ended_rounds = 0, 0
    while match.status == "active":
        if resign is not None and ply == resign[0]:
            return (await service.resign(channel, people[resign[1]].user_id)).match
        seat = match.current_seat()
        state = match.state
        if game == "doudizhu" and state.phase == "round_over":
            ended_rounds += 1
            text = "stop" if ended_rounds >= rounds else "next"
        else:
            text = str(ai.choose_move(state, seat, "easy", seed=ply))
        row = match.player(seat)
        if row.kind == "computer":
            result = await service.act_for_computer(match.id, seat, match.row.version, text)
        else:
            result = await service.act(channel, row.user_id, text)
        match = result.match
        ply += 1
    return match


def expected(contests, users, start=None):
    skills = {user: MODEL.rating(*(start or {}).get(user, START)) for user in users}
    for contest in contests:
        teams = [[skills[users[seat]] for seat in team] for team in contest.teams]
        for team, new in zip(contest.teams, MODEL.rate(teams, ranks=list(contest.ranks))):
            for seat, rating in zip(team, new):
                skills[users[seat]] = rating
    return {user: Skill(r.mu, r.sigma) for user, r in skills.items()}


def assert_close(stored: dict, wanted: dict):
    assert stored.keys() == wanted.keys()
    for user in wanted:
        assert stored[user].mu == pytest.approx(wanted[user].mu, abs=1e-9)
        assert stored[user].sigma == pytest.approx(wanted[user].sigma, abs=1e-9)


@pytest.mark.parametrize("game, count", [("reversi", 2), ("patchwork", 2), ("scrabble", 2),
                                         ("scrabble", 3), ("scrabble", 4)])
async def test_a_ranked_game_rates_like_openskill(service, store, game, count):
    people = PEOPLE[:count]
    match = await play(service, game, people, channel=10, seed=3)
    assert match.status == "finished"
    outcome = match.outcome()
    users = [seat.user_id for seat in match.seats]
    places = standing(outcome, count)
    wanted = expected([Contest(tuple((s,) for s in range(count)), tuple(places))], users)
    assert_close(await store.skills(GUILD, game, ALL_TIME), wanted)
    results = await store.match_results(match.id)
    assert [r.place for r in results] == places
    assert [r.score for r in results] == list(outcome.scores)
    assert all(r.rated for r in results) and all(r.turns > 0 for r in results)
    for r in results:  # the change shown is the display rating before and after
        assert r.change == (display(START), display(wanted[r.user_id]))
    row = await store.rating(GUILD, game, ALL_TIME, users[0])
    assert row.games == 1 and row.wins == int(0 in outcome.winners)


@pytest.mark.parametrize("count, rounds", [(3, 3), (4, 2)])
async def test_dou_dizhu_rates_every_round_landlord_against_peasants(service, store, count,
                                                                     rounds):
    match = await play(service, "doudizhu", PEOPLE[:count], channel=11, seed=5, rounds=rounds)
    users = [seat.user_id for seat in match.seats]
    found = []
    for step in await service.steps(match):
        for event in step.after.events:
            if event.kind == "round_end":
                landlord = event.values["landlord"]
                peasants = tuple(s for s in range(count) if s != landlord)
                found.append(Contest(((landlord,), peasants),
                                     (0, 1) if event.values["won"] else (1, 0)))
    assert len(found) == rounds
    assert_close(await store.skills(GUILD, "doudizhu", ALL_TIME), expected(found, users))
    row = await store.rating(GUILD, "doudizhu", ALL_TIME, users[0])
    assert row.games == 1  # one match, however many rounds


async def test_ratings_recomputed_from_the_move_logs_agree(service, store):
    channel = 20
    for seed, (game, count) in enumerate([("reversi", 2), ("scrabble", 3), ("reversi", 2),
                                          ("doudizhu", 3), ("patchwork", 2), ("scrabble", 2),
                                          ("doudizhu", 4), ("reversi", 2)]):
        people = PEOPLE[seed % 2:][:count] if count < 4 else PEOPLE
        await play(service, game, people, channel=channel + seed, seed=seed, rounds=2,
                   resign=(7, 1) if seed == 2 else None)
    recomputed = await recompute(service)
    assert {key[1] for key in recomputed} == {"reversi", "scrabble", "doudizhu", "patchwork"}
    for (guild, game, season), skills in recomputed.items():
        assert_close(await store.skills(guild, game, season), skills)
    assert len(recomputed) == 8  # all time and this season, for each game


async def test_a_resignation_is_a_loss(service, store):
    match = await play(service, "reversi", PEOPLE[:2], channel=30, seed=1, resign=(6, 0))
    assert match.outcome().reason == "resigned"
    ana, ben = [await store.rating(GUILD, "reversi", ALL_TIME, p.user_id) for p in PEOPLE[:2]]
    assert ana.wins == 0 and ben.wins == 1 and ana.display < ben.display


def test_standing_puts_winners_first_then_scores_then_the_resigned():
    outcome = Outcome((300, 250, 400, 100), (2,), "out", details={"resigned_seats": [3, 1]})
    assert standing(outcome, 4) == [1, 2, 0, 3]  # seat 3 resigned first: last
    assert standing(Outcome((32, 32), (0, 1), "full", draw=True), 2) == [0, 0]
    tied = Outcome((200, 180, 180), (0,), "out")
    assert standing(tied, 3) == [0, 1, 1]


async def test_a_computer_at_the_table_leaves_ratings_alone(service, store):
    match = await play(service, "reversi", PEOPLE[:1], channel=40, seed=2, computer="easy")
    assert match.status == "finished"
    results = await store.match_results(match.id)
    assert len(results) == 2 and not any(r.rated for r in results)
    assert await store.skills(GUILD, "reversi", ALL_TIME) == {}
    history = await store.history(GUILD)
    assert history[0].match_id == match.id and history[0].unrated == "computer"


async def test_a_computer_playing_an_away_seat_leaves_the_match_unrated(service, store):
    match = await play(service, "reversi", PEOPLE[:2], channel=41, seed=4, resign=(4, 0))
    assert (await store.match_results(match.id))[0].rated  # the first one counts
    lobby = await service.open_lobby("reversi", guild_id=GUILD, channel_id=42,
                                     creator=PEOPLE[0], seed=4)
    match = await service.join(lobby.id, PEOPLE[1])
    away = match.current_seat()
    match = await service.hand_to_computer(42, match.player(away).user_id,
                                           match.player(away).user_id, moderator=False)
    ai = import_module("games.reversi.ai")
    move = str(ai.choose_move(match.state, away, "easy", seed=0))
    match = (await service.act_for_computer(match.id, away, match.row.version, move)).match
    match = (await service.resign(42, match.player(away).user_id)).match  # back, and gives up
    assert match.status == "finished"
    assert not any(r.rated for r in await store.match_results(match.id))
    assert (await store.rating(GUILD, "reversi", ALL_TIME, PEOPLE[0].user_id)).games == 1


async def test_a_cancelled_match_is_not_recorded(service, store):
    lobby = await service.open_lobby("reversi", guild_id=GUILD, channel_id=43,
                                     creator=PEOPLE[0], seed=4)
    await service.join(lobby.id, PEOPLE[1])
    await service.cancel(43, PEOPLE[0].user_id, moderator=False)
    assert await store.history(GUILD) == [] and await store.match_results(lobby.id) == []


async def test_forgetting_a_person_leaves_no_trace_of_the_name(service, store, db_path):
    name = "zelda-unique-name"
    zelda = Player(299, name)
    await play(service, "reversi", [zelda, PEOPLE[1]], channel=50, seed=6)
    await play(service, "scrabble", [PEOPLE[1], zelda], channel=51, seed=6)
    before = await store.skills(GUILD, "reversi", ALL_TIME)
    await store.set_notify(zelda.user_id, False)
    await store.forget_person(zelda.user_id, -12345)
    async with store._reading() as db:  # every row of every table
        if store.dialect == "sqlite":
            tables = await db.fetchall("SELECT name FROM sqlite_master WHERE type = 'table'")
        else:
            tables = await db.fetchall("SELECT table_name FROM information_schema.tables"
                                       " WHERE table_schema = current_schema()")
        for (table,) in tables:
            for row in await db.fetchall(f"SELECT * FROM {table}"):
                assert name not in repr(tuple(row)) and zelda.user_id not in tuple(row)
    await store.close()
    if store.dialect == "sqlite":  # not in the file's bytes either (freed pages included)
        raw = b"".join(path.read_bytes() for path in db_path.parent.glob(db_path.name + "*"))
        assert name.encode() not in raw

    reopened = await type(store).open(db_path)
    try:
        from bot.matches.service import MatchService
        service = MatchService(reopened)
        after = await reopened.skills(GUILD, "reversi", ALL_TIME)
        assert after == {PEOPLE[1].user_id: before[PEOPLE[1].user_id]}
        recomputed = await recompute(service)  # the others' ratings still follow from the logs
        assert recomputed[(GUILD, "reversi", ALL_TIME)][PEOPLE[1].user_id] == pytest.approx(
            before[PEOPLE[1].user_id])
        results = await reopened.match_results((await reopened.history(GUILD))[0].match_id)
        assert {r.user_id for r in results} == {PEOPLE[1].user_id, -12345}
    finally:
        await reopened.close()


async def test_matches_finished_before_records_are_recorded_at_start(service, store):
    from bot.matches.records import backfill

    first = await play(service, "reversi", PEOPLE[:2], channel=60, seed=9)
    second = await play(service, "scrabble", PEOPLE[1:4], channel=61, seed=9)
    wanted = {game: await store.skills(GUILD, game, ALL_TIME) for game in ("reversi", "scrabble")}
    async with store.transaction() as db:  # as a database from before records were kept
        for table in ("records", "results", "ratings", "rating_changes"):
            await db.execute(f"DELETE FROM {table}")
    assert await store.unrecorded_finished() == [first.id, second.id]
    assert await backfill(service) == 2
    assert await backfill(service) == 0  # once only
    for game, skills in wanted.items():
        assert_close(await store.skills(GUILD, game, ALL_TIME), skills)
    assert [row.match_id for row in await store.history(GUILD)] == [second.id, first.id]
