"""A night's exports: the CSV of every seat and the tsh `.t` player file, worked by hand for a
night of four with a bye and a forfeit, then checked over random Swiss nights: every player on
one line, opponents that agree, scores that are the games' own, starts that pair 1 with 2."""

from __future__ import annotations

import csv
import io
import random
import re

import pytest

from bot.nights.exports import (
    CSV_HEADER,
    ExportNight,
    ExportTable,
    night_csv,
    tsh_file,
    tsh_name,
)
from tests.bot.nights.night import swiss_night

ANN, BEN, CAT, DAN = 11, 12, 13, -1  # Dan is a computer


def four_player_night() -> ExportNight:
    """Round 1: Ann beats Dan 420-380, Ben beats Cat 400-350. Round 2: Ben forfeits to Ann
    (he leaves the night, 120-95 on the board), Dan and Cat draw 390-390. Round 3: Cat beats
    Ann 455-301; Dan has the bye; Ben is gone. The first seat moved first."""
    return ExportNight(
        night_id=7, game="scrabble",
        names={ANN: "Ann", BEN: "Ben", CAT: "Cat", DAN: "Dan (computer)"},
        ratings={ANN: 1810.4, BEN: 1700.0, CAT: 1650.6},
        tables=[
            ExportTable(1, 1, (ANN, DAN), (1, 2), (420, 380), (40, -40)),
            ExportTable(1, 2, (CAT, BEN), (2, 1), (350, 400), (-50, 50)),
            ExportTable(2, 1, (BEN, ANN), (2, 1), (120, 95), (-25, 25), forfeits=(BEN,),
                        note="Ben left the night"),
            ExportTable(2, 2, (DAN, CAT), (1, 1), (390, 390), (0, 0)),
            ExportTable(3, 1, (CAT, ANN), (1, 2), (455, 301), (154, -154)),
        ],
        byes=[(3, DAN)], bye_points=1.0)


def test_the_tsh_file_of_four_players_by_hand():
    """Player numbers by rating: Ann 1 (1810), Ben 2 (1700), Cat 3 (1651), Dan 4 (unrated, 0).
    Ann: r1 against 4 scoring 420, first; r2 Ben's forfeit: unpaired, +50; r3 against 3
    scoring 301, second. Ben: r1 against 3, 400, second; r2 his forfeit, -50; r3 gone: 0, 0.
    Cat: 2, 4, 1 scoring 350, 390, 455, moving first, second, first. Dan: 1, 3 and the bye,
    380, 390 and +50, second, first, and no start in the bye."""
    assert tsh_file(four_player_night()) == (
        "Ann                     1810 4 0 3; 420 50 301; p12 1 0 2\n"
        "Ben                     1700 3 0 0; 400 -50 0; p12 2 0 0\n"
        "Cat                     1651 2 4 1; 350 390 455; p12 1 2 1\n"
        "Dan (computer)             0 1 3 0; 380 390 50; p12 2 1 0\n")


def test_the_csv_of_four_players_by_hand():
    rows = list(csv.reader(io.StringIO(night_csv(four_player_night()))))
    assert rows[0] == list(CSV_HEADER)
    assert rows[1:] == [
        ["7", "scrabble", "1", "1", "1", "11", "Ann", "no", "1810.4", "1", "1", "420", "40",
         "no", "played", ""],
        ["7", "scrabble", "1", "1", "2", "-1", "Dan (computer)", "yes", "", "2", "0", "380",
         "-40", "no", "played", ""],
        ["7", "scrabble", "1", "2", "1", "13", "Cat", "no", "1650.6", "2", "0", "350", "-50",
         "no", "played", ""],
        ["7", "scrabble", "1", "2", "2", "12", "Ben", "no", "1700", "1", "1", "400", "50",
         "no", "played", ""],
        ["7", "scrabble", "2", "1", "1", "12", "Ben", "no", "1700", "2", "0", "120", "-25",
         "yes", "played", "Ben left the night"],
        ["7", "scrabble", "2", "1", "2", "11", "Ann", "no", "1810.4", "1", "1", "95", "25",
         "no", "played", "Ben left the night"],
        ["7", "scrabble", "2", "2", "1", "-1", "Dan (computer)", "yes", "", "1", "0.5", "390",
         "0", "no", "played", ""],
        ["7", "scrabble", "2", "2", "2", "13", "Cat", "no", "1650.6", "1", "0.5", "390", "0",
         "no", "played", ""],
        ["7", "scrabble", "3", "1", "1", "13", "Cat", "no", "1650.6", "1", "1", "455", "154",
         "no", "played", ""],
        ["7", "scrabble", "3", "1", "2", "11", "Ann", "no", "1810.4", "2", "0", "301", "-154",
         "no", "played", ""],
        ["7", "scrabble", "3", "", "", "-1", "Dan (computer)", "yes", "", "", "1", "", "", "no",
         "bye", ""],
    ]


def test_the_csv_of_tables_of_three_and_four_and_an_unfinished_one():
    night = ExportNight(3, "doudizhu", {1: "A", 2: "B", 3: "C", 4: "D", 5: "E", 6: "F", 7: "G"},
                        {}, [
                            ExportTable(1, 1, (1, 2, 3, 4), (2, 1, 4, 2), (10, 40, -30, 10),
                                        (10, 40, -30, 10)),
                            ExportTable(1, 2, (5, 6, 7), None, (), ()),
                        ])
    rows = list(csv.DictReader(io.StringIO(night_csv(night))))
    assert [(r["player"], r["place"], r["points"]) for r in rows] == [
        ("A", "2", "0.5"), ("B", "1", "1"), ("C", "4", "0"), ("D", "2", "0.5"),
        ("E", "", ""), ("F", "", ""), ("G", "", "")]
    assert {r["status"] for r in rows[4:]} == {"unfinished"}
    with pytest.raises(ValueError):
        tsh_file(night)


def test_a_name_a_spreadsheet_would_run_stays_text():
    night = ExportNight(1, "reversi", {1: "=HYPERLINK(\"x\")", 2: "-Bob"}, {},
                        [ExportTable(1, 1, (1, 2), (1, 2), (40, 24), (16, -16), note="+1")])
    rows = list(csv.DictReader(io.StringIO(night_csv(night))))
    assert [r["player"] for r in rows] == ["'=HYPERLINK(\"x\")", "'-Bob"]
    assert rows[0]["note"] == "'+1"


# -- tsh names and the format as tsh reads it --------------------------------------------------

# A .t line as tsh's reader takes it apart: the name (shortest, ending in a non-space), the
# rating, the opponents up to the first `;`, the scores, then `; key words` fields.
LINE = re.compile(r"(?P<name>.+?\S)\s+(?P<rating>\d+(?:[.+]\d+)*)\s*(?P<opponents>[\d\s]*);"
                  r"\s*(?P<scores>[-\d\s]*)(?P<rest>(?:;[^;]*)*)")


def read_t(text: str) -> list[dict]:
    players = []
    for line in text.splitlines():
        match = LINE.fullmatch(line)
        assert match, line
        fields = {part.split()[0]: part.split()[1:] for part in match["rest"].split(";")
                  if part.strip()}
        players.append({"name": match["name"], "rating": int(match["rating"]),
                        "opponents": [int(o) for o in match["opponents"].split()],
                        "scores": [None if s == "00" else int(s) for s in match["scores"].split()],
                        "p12": [int(v) for v in fields.get("p12", [])]})
    return players


@pytest.mark.parametrize(("name", "written"), [
    ("Smith, John", "Smith John"),
    ("semi;colon", "semi colon"),
    ("#1 fan", "1 fan"),
    ("two\nlines\t here", "two lines here"),
    ("Room 101", "Room_101"),
    ("Agent 0 0 7", "Agent_0_0_7"),
    ("12 3", "12_3"),
    ("R2D2", "R2D2"),
    ("Q", "Q_"),
    ("", "Player"),
    ("陳小明", "陳小明"),
    ("ગુજરાતી ખેલાડી", "ગુજરાતી ખેલાડી"),
])
def test_names_as_tsh_reads_them(name, written):
    assert tsh_name(name) == written
    night = ExportNight(1, "scrabble", {1: name, 2: "Other"}, {1: 1500},
                        [ExportTable(1, 1, (1, 2), (1, 2), (400, 300), (100, -100))])
    first = read_t(tsh_file(night))[0]
    assert (first["name"], first["rating"], first["opponents"], first["scores"]) == (
        written, 1500, [2], [400])


def test_a_game_won_against_the_scores_is_written_as_a_forfeit():
    """Ben resigned while ahead 300-280: tsh reads the winner from the scores, so the game is
    written as tsh writes a forfeit, Ann +50 and Ben -50."""
    night = ExportNight(1, "scrabble", {1: "Ann", 2: "Ben"}, {1: 1600, 2: 1500},
                        [ExportTable(1, 1, (1, 2), (1, 2), (280, 300), (-20, 20))])
    assert [(p["opponents"], p["scores"], p["p12"]) for p in read_t(tsh_file(night))] == [
        ([0], [50], [0]), ([0], [-50], [0])]


def test_an_unfinished_game_has_its_pairing_and_no_score_yet():
    night = ExportNight(1, "scrabble", {1: "Ann", 2: "Ben", 3: "Cat", 4: "Dan"}, {}, [
        ExportTable(1, 1, (1, 2), (1, 2), (400, 300), (100, -100)),
        ExportTable(1, 2, (3, 4), (2, 1), (200, 310), (-110, 110)),
        ExportTable(2, 1, (1, 3), None, (120, 88), ()),
        ExportTable(2, 2, (4, 2), (1, 2), (350, 349), (1, -1)),
    ])
    cards = {p["name"]: p for p in read_t(tsh_file(night))}
    assert cards["Ann"]["opponents"] == [2, 3] and cards["Ann"]["scores"] == [400]
    assert cards["Ben"]["scores"] == [300, 349] and cards["Ben"]["p12"] == [2, 2]


@pytest.mark.parametrize(("bye_points", "score"), [(1.0, 50), (0.5, 0), (0.0, -50)])
def test_a_bye_scores_the_spread_tsh_gives_it(bye_points, score):
    night = ExportNight(1, "scrabble", {1: "Ann", 2: "Ben", 3: "Cat"}, {},
                        [ExportTable(1, 1, (1, 2), (1, 2), (400, 300), (100, -100))],
                        byes=[(1, 3)], bye_points=bye_points)
    cat = read_t(tsh_file(night))[2]
    assert (cat["name"], cat["opponents"], cat["scores"], cat["p12"]) == (
        "Cat", [0], [score], [0])
    assert read_t(tsh_file(night, bye_spread=100))[2]["scores"] == [round(score * 2)]


# -- properties over random nights -----------------------------------------------------------


def random_night(players: int, rounds: int, seed: int) -> ExportNight:
    """A Swiss night with Scrabble scores that agree with its results, a forfeit now and then,
    and the last round's last game unfinished."""
    rng = random.Random(seed)
    played, results = swiss_night(players, rounds, seed)
    tables, byes = [], []
    numbers: dict[int, int] = {}
    for result in results:
        if not hasattr(result, "places"):
            byes.append((result.round, result.player))
            continue
        low = rng.randint(250, 420)
        high = low + (0 if result.places[0] == result.places[1] else rng.randint(1, 150))
        scores = (high, low) if result.places[0] <= result.places[1] else (low, high)
        loser = result.players[result.places.index(max(result.places))]
        forfeits = (loser,) if result.places[0] != result.places[1] and rng.random() < 0.1 \
            else ()
        numbers[result.round] = numbers.get(result.round, 0) + 1
        tables.append(ExportTable(result.round, numbers[result.round], result.players,
                                  result.places, scores, result.margins, forfeits))
    last = tables[-1]
    tables[-1] = ExportTable(last.round, last.number, last.players, None, (), ())
    names = {p: f"Player {p}" for p in range(100, 100 + players)}
    ratings = {p: rng.uniform(800, 2100) for p in names}
    return ExportNight(seed, "scrabble", names, ratings, tables, byes)


@pytest.mark.parametrize("seed", range(40))
def test_tsh_files_of_random_nights_agree_with_themselves(seed):
    rng = random.Random(seed)
    night = random_night(rng.randint(3, 24), rng.randint(1, 7), seed)
    cards = read_t(tsh_file(night))
    rounds = max(t.round for t in night.tables)
    assert sorted(c["name"] for c in cards) == sorted(
        f"Player_{p}" for p in night.names)  # every player once ("Player 105": a number last)
    number = {f"Player_{p}": p for p in night.names}
    by_id = {number[c["name"]]: (i, c) for i, c in enumerate(cards, start=1)}
    games = {(t.round, p): t for t in night.tables for p in t.players}
    for player, (me, card) in by_id.items():
        assert len(card["opponents"]) == len(card["p12"]) == rounds
        for rnd, opponent in enumerate(card["opponents"], start=1):
            table = games.get((rnd, player))
            score = card["scores"][rnd - 1] if rnd <= len(card["scores"]) else None
            if opponent == 0:  # a bye or a forfeit: ±50 and no start
                assert card["p12"][rnd - 1] == 0 and score in (50, -50)
                if table is not None:
                    assert table.forfeits and (score == -50) == (player in table.forfeits)
                else:
                    assert (rnd, player) in night.byes
                continue
            them, theirs = by_id[[p for p in table.players if p != player][0]]
            assert them == opponent and theirs["opponents"][rnd - 1] == me  # symmetric
            assert {card["p12"][rnd - 1], theirs["p12"][rnd - 1]} == {1, 2}
            assert card["p12"][rnd - 1] == table.players.index(player) + 1
            if table.places is None:
                assert score is None
            else:
                assert score == table.scores[table.players.index(player)]


@pytest.mark.parametrize("seed", range(10))
def test_the_csv_of_random_nights_has_a_row_per_seat_and_bye(seed):
    night = random_night(9 + seed, 5, seed)
    rows = list(csv.DictReader(io.StringIO(night_csv(night))))
    assert len(rows) == sum(len(t.players) for t in night.tables) + len(night.byes)
    for rnd in {t.round for t in night.tables}:
        finished = [t for t in night.tables if t.round == rnd and t.places is not None]
        played = [r for r in rows if r["round"] == str(rnd) and r["status"] == "played"]
        assert sum(float(r["points"]) for r in played) == pytest.approx(len(finished))
    assert [int(r["round"]) for r in rows] == sorted(int(r["round"]) for r in rows)
