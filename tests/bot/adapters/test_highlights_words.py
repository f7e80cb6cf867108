"""The highlights in every language: each game's presenter words a player's rows for
`/gamenight stats` (`stats_lines`) and a finished match's dicts for its result card
(`card_lines`); Scrabble's missed plays come later (`late_card_lines`), found in a process
pool from the move log."""

from __future__ import annotations

import re
from types import SimpleNamespace

import pytest

import games.scrabble as scrabble
from bot.adapters.doudizhu.presenter import DouDizhuPresenter
from bot.adapters.patchwork.presenter import PatchworkPresenter
from bot.adapters.reversi.presenter import ReversiPresenter
from bot.adapters.scrabble.presenter import ScrabblePresenter
from bot.ui.computer_players import process_pool
from bot.ui.game_presenter import GamePresenter
from games.doudizhu.records import highlights as doudizhu_highlights
from games.patchwork.records import highlights as patchwork_highlights
from games.reversi.records import highlights as reversi_highlights
from games.scrabble.analysis import missed_plays
from games.scrabble.records import highlights as scrabble_highlights
from i18n import LANGUAGES, voice
from tests.bot.conftest import ALICE
from tests.games.records_play import match_steps
from tests.games.test_records_highlights import patchwork_bonus_walk, scrabble_walk

NATIVE = re.compile(r"[\u4e00-\u9fff\u0a80-\u0aff]")  # Chinese or Gujarati letters
COGS = {"reversi": ReversiPresenter, "scrabble": ScrabblePresenter, "doudizhu": DouDizhuPresenter,
        "patchwork": PatchworkPresenter}


def cog(game: str) -> GamePresenter:
    """The presenter without a bot: its wording needs none."""
    return COGS[game].__new__(COGS[game])


def table(names, computers=()):
    """A match as the words see it: `match.player(seat)` of people (and computers)."""
    seats = [SimpleNamespace(seat=i, name=name, kind="computer" if i in computers else "user",
                             away=None, level="easy" if i in computers else None)
             for i, name in enumerate(names)]
    return SimpleNamespace(seats=seats, player=lambda seat: seats[seat])


NAMES = {2: ("alice", "bob"), 3: ("alice", "bob", "carol"), 4: ("alice", "bob", "carol", "dave")}


def example(game: str) -> tuple[int, list[dict]]:
    """Highlights of a match with something to say: hand-made (a Scrabble bingo, a Patchwork
    bonus) or played out by the computers (a Dou Dizhu series with bombs, a Reversi game)."""
    if game == "scrabble":
        return 2, scrabble_highlights(scrabble_walk(), 2)
    if game == "patchwork":
        return 2, patchwork_highlights(patchwork_bonus_walk(), 2)
    if game == "doudizhu":
        return 3, doudizhu_highlights(match_steps("doudizhu", 3, 1, rounds=4), 3)
    return 2, reversi_highlights(match_steps(game, 2, 2), 2)


@pytest.mark.parametrize("lang", list(LANGUAGES))
@pytest.mark.parametrize("game", list(COGS))
def test_every_line_is_worded(game, lang):
    say = voice(lang)
    players, found = example(game)
    stats = [say(line) for line in cog(game).stats_lines(found[:1] * 3)]
    card = [say(line) for line in cog(game).card_lines(table(NAMES[players]), found)]
    assert stats and 1 <= len(card) <= 3, (stats, card)
    for text in stats + card:
        assert text and "{" not in text and "seat" not in text, text
        if lang != "en":
            assert NATIVE.search(text), text
    assert any(name in text for text in card for name in NAMES[players])


def test_no_lines_from_no_highlights():
    """A match whose highlights could not be computed is stored with empty dicts."""
    for game in COGS:
        assert cog(game).card_lines(table(NAMES[2]), [{}, {}]) == []
        assert all("{" not in voice()(line) for line in cog(game).stats_lines([{}]))


def test_reversi_in_english():
    say = voice()
    rows = [{"discs": 40, "margin": 16, "moves": 30, "flips": 70, "best_flip": 9},
            {"discs": 20, "margin": -24, "moves": 28, "flips": 50, "best_flip": 11},
            {"discs": 33, "margin": 1, "moves": 30, "flips": 60, "best_flip": 1}]
    assert [say(x) for x in cog("reversi").stats_lines(rows)] == [
        "Largest win: by 16 discs", "Best move: 11 discs flipped"]
    assert [say(x) for x in cog("reversi").stats_lines(rows[1:2])] == [
        "Best move: 11 discs flipped"]  # never won
    card = cog("reversi").card_lines(table(NAMES[2]), rows[1::-1])
    assert [say(x) for x in card] == ["bob finished 16 discs ahead.",
                                      "Best move: alice flipped 11 discs at once."]
    draw = [{"discs": 32, "margin": 0, "best_flip": 1}, {"discs": 32, "margin": 0,
                                                          "best_flip": 1}]
    assert [say(x) for x in cog("reversi").card_lines(table(NAMES[2]), draw)] == [
        "Best move: alice flipped 1 disc at once."]


def test_scrabble_in_english():
    say = voice()
    found = scrabble_highlights(scrabble_walk(), 2)
    assert [say(x) for x in cog("scrabble").card_lines(table(NAMES[2]), found)] == [
        "Best play: **RETAINS** for 66, by bob", "Bingos: bob (1)"]
    assert [say(x) for x in cog("scrabble").stats_lines(found)] == [
        "Best play: **RETAINS** for 66", "Highest game: 66", "1 bingo",
        "Average score per turn: 19.6"]  # 98 points in 5 turns
    assert [say(x) for x in cog("scrabble").stats_lines(found[:1])] == [
        "Best play: **QAT** for 32", "Highest game: 32", "0 bingos",
        "Average score per turn: 10.7"]


def test_scrabble_missed_plays_in_words_for_people_only():
    missed = missed_plays(scrabble_walk(), 2)
    say = voice()
    assert [say(x) for x in ScrabblePresenter.missed_lines(table(NAMES[2]), missed)] == [
        "alice missed **ZEST** for 33 (scored 0 that turn)",
        "bob missed **SEE** for 5 (scored 0 that turn)"]
    with_computer = ScrabblePresenter.missed_lines(table(NAMES[2], computers=(1,)), missed)
    assert [say(x) for x in with_computer] == ["alice missed **ZEST** for 33 (scored 0 that "
                                               "turn)"]
    assert voice("zh-TW")(with_computer[0]) == "alice 錯過了 **ZEST**，可得 33 分（該回合得 0 分）"
    assert ScrabblePresenter.missed_lines(table(NAMES[2]), [None, None]) == []


def test_doudizhu_in_english():
    say = voice()
    series = [{"rounds": 3, "landlord_rounds": 2, "landlord_wins": 1, "peasant_wins": 1,
               "bombs": 2, "springs": 1, "best_round": 12},
              {"rounds": 3, "landlord_rounds": 1, "landlord_wins": 1, "peasant_wins": 0,
               "bombs": 0, "springs": 0, "best_round": 4},
              {"rounds": 3, "landlord_rounds": 0, "landlord_wins": 0, "peasant_wins": 1,
               "bombs": 1, "springs": 0, "best_round": 2}]
    assert [say(x) for x in cog("doudizhu").card_lines(table(NAMES[3]), series)] == [
        "As landlord: alice won 1 of 2 rounds and bob won 1 of 1 round",
        "Bombs and rockets: alice (2) and carol (1)", "Springs: alice (1)"]
    assert [say(x) for x in cog("doudizhu").stats_lines(series[:2])] == [
        "6 rounds played", "Landlord in 3 rounds, won 2", "1 round won as a peasant",
        "2 bombs or rockets played", "1 spring", "Biggest win in one round: 12"]
    assert voice("zh-CN")(cog("doudizhu").card_lines(table(NAMES[3]), series)[2]) == (
        "春天：alice（1）")


def test_patchwork_in_english():
    say = voice()
    rows = [{"score": 16, "bonus": 1}, {"score": -8, "bonus": 0}, {"score": 25, "bonus": 0}]
    assert [say(x) for x in cog("patchwork").stats_lines(rows)] == [
        "Best score: 25", "Average score: 11.0", "1 7x7 bonus"]
    assert [say(x) for x in cog("patchwork").card_lines(table(NAMES[2]), rows[:2])] == [
        "alice won the 7x7 bonus (+7)."]
    assert cog("patchwork").card_lines(table(NAMES[2]), rows[1:]) == []


async def test_scrabble_late_lines_come_from_the_move_log_in_a_process_pool(service):
    """A whole game saved by the service; the cog replays its move log in the computers'
    process pool (a real one: the worker and its arguments cross into another process)."""
    lobby = await service.open_lobby("scrabble", guild_id=1, channel_id=7, creator=ALICE,
                                     options={"players": 2}, seed=5)
    match = await service.add_computer(lobby.id, ALICE.user_id, "easy")
    for number in range(200):
        if match.status != "active":
            break
        seat = match.current_seat()
        move = str(scrabble.choose_move(match.state, seat, "easy", seed=number))
        if match.player(seat).kind == "user":
            await service.act(7, ALICE.user_id, move)
        else:
            await service.act_for_computer(match.id, seat, match.row.version, move)
        match = await service.get(match.id)
    assert match.status == "finished"
    pool = process_pool(1)
    try:
        scrabble_cog = cog("scrabble")
        scrabble_cog.bot = SimpleNamespace(service=service, store=service.store,
                                           computers=SimpleNamespace(executor=lambda: pool))
        lines = await scrabble_cog.late_card_lines(match)
    finally:
        pool.shutdown()
    missed = missed_plays(await service.steps(match), 2)
    assert missed[0] is not None and missed[1] is not None
    assert lines == ScrabblePresenter.missed_lines(match, missed)
    assert len(lines) == 1 and voice()(lines[0]).startswith("alice missed **")
