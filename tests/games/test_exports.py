"""The exporters: games played out by the engines' computer players (with challenges,
exchanges and resignations slipped in), exported, and read back.

Scrabble's GCG is read by a reader written from the specification
(tests/games/scrabble/gcg_reader.py): every play's score, every total and the final scores must
agree with the engine's; a match still in play shows no rack. Reversi's transcript and GGF
replay to the same game; Patchwork's record replays too; Dou Dizhu's log shows a round's hands
only once it is over.
"""

from __future__ import annotations

import importlib
import itertools
import json
import re
from collections import Counter
from dataclasses import dataclass

import pytest

import games.scrabble as scrabble
from bot.adapters.doudizhu.export import round_log
from games.patchwork.record import to_record
from games.replay import Step, apply_logged, final_state, steps
from games.reversi.transcript import to_ggf, transcript
from games.scrabble.gcg import nicknames, to_gcg
from i18n import voice
from tests.games.scrabble.gcg_reader import GCGError, read_gcg

NAMES = ["Alice Liddell", "bob", "bob", "Carol: the third"]


def phony(rack: str) -> str:
    """Two or three of the rack's tiles that make no word (a blank as a lower-case e)."""
    lexicon = scrabble.default_lexicon()
    letters = [t if t != "?" else "e" for t in rack]
    for size in (2, 3):
        for combo in itertools.permutations(letters, size):
            if "".join(combo).upper() not in lexicon:
                return "".join(combo)
    raise AssertionError(rack)


def scrabble_actions(players: int, seed: int, options=None, *, twists: bool = True,
                     resign_at: int | None = None) -> list[tuple[int, str]]:
    """A game played out by the easy computer, with (when `twists`) a phony opening that is
    challenged off, an exchange, a failed challenge by the next player and, with 3 or more,
    one by a player further on (who loses a later turn)."""
    engine = scrabble
    state = engine.new_game(players, seed=seed, options=options)
    actions: list[tuple[int, str]] = []

    def act(seat: int, action: str) -> None:
        nonlocal state
        actions.append((seat, action))
        state = apply_logged(engine, state, seat, action)

    n = 0
    while engine.outcome(state) is None:
        n += 1
        seat = engine.current_seat(state)
        pending = state.pending
        if twists and n == 1:
            act(seat, f"H8 across {phony(state.racks[seat])}")
            act(engine.current_seat(state), "challenge")
            continue
        if twists and n == 3 and len(state.bag) >= 7:
            act(seat, f"exchange {state.racks[seat][:3]}")
            continue
        if twists and n in (6, 9) and pending is not None and not pending.final:
            others = [s for s in state.playing if s not in (pending.seat, seat)]
            challenger = seat if n == 6 or not others else others[0]
            act(challenger, "challenge")
            continue
        if resign_at is not None and n == resign_at:
            act((seat + 1) % players, "resign")
            continue
        act(seat, str(scrabble.choose_move(state, seat, "easy", seed=n)))
    return actions


def replayed(game: str, players: int, seed: int, actions, options=None):
    engine = importlib.import_module(f"games.{game}")
    return engine, list(steps(engine, players, seed, options, actions))


def engine_scores(all_steps) -> list[int]:
    return [e.values["score"] for s in all_steps for e in s.after.events if e.kind == "play"]


SCRABBLE_GAMES = [
    pytest.param(2, 7, None, {}, id="two players"),
    pytest.param(3, 3, None, {}, id="three players"),
    pytest.param(4, 5, None, {"resign_at": 12}, id="four players, one resigns"),
    pytest.param(2, 11, {"tiles": 9}, {}, id="nine-tile racks"),
    pytest.param(3, 4, {"finish": 100}, {}, id="finish line"),
    pytest.param(2, 8, {"challenge": "void"}, {"twists": False}, id="void challenge"),
    pytest.param(2, 9, None, {"twists": False, "resign_at": 8}, id="two players, resigned"),
]


@pytest.mark.parametrize("players, seed, options, how", SCRABBLE_GAMES)
def test_a_finished_scrabble_game_reads_back_with_the_engines_scores(players, seed, options,
                                                                      how):
    actions = scrabble_actions(players, seed, options, **how)
    _, all_steps = replayed("scrabble", players, seed, actions, options)
    final = all_steps[-1].after
    assert final.result is not None
    text = to_gcg(all_steps, NAMES[:players], over=True, title="Gamenight Scrabble match 1")
    game = read_gcg(text)

    assert text.startswith("#character-encoding UTF-8\n")
    assert [game.players[n][1] for n in sorted(game.players)] == NAMES[:players]
    assert len(set(game.nicks)) == players
    assert [e.change for e in game.plays()] == engine_scores(all_steps)
    assert [game.totals[nick] for nick in game.nicks] == list(final.result.scores)
    # every play's rack holds its tiles; the board the reader built is the engine's
    board = ["".join(ch or "." for ch in row) for row in game.board]
    assert board == list(final.board.rows)

    kinds = Counter(e.kind for e in game.events)
    if how.get("twists", True):
        assert kinds["withdrawn"] == 1 and kinds["exchange"] >= 1
        assert "loses this turn for a challenge of valid words" in text
    if final.result.reason in ("out", "passes", "blocked"):
        held = [rack for rack in final.result.details["racks"] if rack]
        assert kinds["end_penalty"] == len(held)  # who went out holds nothing
    if final.result.reason == "out":
        assert kinds["end_bonus"] == 1
    if options and "finish" in options:
        assert final.result.reason == "finish" and "reaches the finish line" in text
    if how.get("resign_at"):
        assert " resigns" in text


def test_the_withdrawn_play_and_the_lost_turns_are_written_as_the_spec_has_them():
    actions = scrabble_actions(3, 3)
    _, all_steps = replayed("scrabble", 3, 3, actions)
    lines = to_gcg(all_steps, NAMES[:3], over=True).splitlines()
    events = [line for line in lines if line.startswith(">")]
    first, second = events[0].split(), events[1].split()
    assert first[2] == "8H" and first[4].startswith("+")  # H8 across is row 8, column H
    assert second[0] == first[0] and second[2] == "--" and second[3] == "-" + first[4][1:]
    assert second[4] == "0"
    lost = [i for i, line in enumerate(lines) if "loses this turn" in line]
    assert lost and all(re.fullmatch(r">\S+: [A-Z?]+ - \+0 -?\d+", lines[i - 1]) for i in lost)


def test_positions_blanks_and_tiles_played_through():
    board = scrabble.Board().place([(7, 7, "C"), (7, 8, "A"), (7, 9, "T")])
    state = scrabble.position(board, ["S?ABCDE", "AEIOUXY"])
    after = scrabble.apply(state, 0, "J6 down bATES")
    step = Step(1, 0, "J6 down bATES", state, after)
    text = to_gcg([step], ["a", "b"], over=True)
    assert f">a: {state.racks[0]} J6 bA.ES +" in text  # J8's T was on the board; b: a blank
    across = scrabble.apply(state, 0, "E8 across bASCAT")
    text = to_gcg([Step(1, 0, "E8 across bASCAT", state, across)], ["a", "b"], over=False)
    assert ">a: ?AS 8E bAS... +" in text  # in play: the rack field is the tiles laid


def test_nicknames_have_no_spaces_or_colons_and_differ():
    assert nicknames(NAMES) == ["Alice_Liddell", "bob", "bob_3", "Carol_the_third"]
    assert nicknames(["", " "]) == ["player1", "player2"]


def test_the_reader_refuses_a_wrong_total():
    text = "#player1 a A\n#player2 b B\n>a: ABCDEFG 8D BAD +12 13\n"
    with pytest.raises(GCGError, match="total"):
        read_gcg(text)


@pytest.mark.parametrize("players, seed", [(2, 7), (3, 3)])
def test_a_running_scrabble_game_shows_no_rack(players, seed):
    actions = scrabble_actions(players, seed)
    _, all_steps = replayed("scrabble", players, seed, actions)
    for cut in (2, 5, len(all_steps) // 2, len(all_steps) - 1):
        shown = all_steps[:cut]
        text = to_gcg(shown, NAMES[:players], over=False)
        game = read_gcg(text)
        assert "(" not in text  # no end-of-game racks
        for event in game.events:
            if event.kind == "play":
                assert Counter(event.rack) == Counter(event.tiles)  # only the tiles laid
            elif event.kind == "withdrawn":
                assert event.rack is not None and "." not in event.rack
            else:
                assert event.rack is None, event
            if event.kind == "exchange":
                assert event.exchanged.isdigit()  # how many, not which
        racks_now = shown[-1].after.racks
        for rack in racks_now:
            assert not re.search(rf"\b{re.escape(rack)}\b", text) or len(rack) < 3
        assert [e.change for e in game.plays()] == engine_scores(shown)
        assert [game.totals[n] for n in game.nicks] == list(shown[-1].after.scores)


# --------------------------------------------------------------------------- Reversi


def reversi_game(seed: int, resign_at: int | None = None):
    import games.reversi as reversi
    state = reversi.new_game(2, seed=seed)
    actions = []
    n = 0
    while reversi.outcome(state) is None:
        n += 1
        seat = reversi.current_seat(state)
        action = "resign" if n == resign_at else str(reversi.choose_move(state, seat, "easy",
                                                                          seed=n))
        actions.append((seat, action))
        state = apply_logged(reversi, state, seat, action)
    return replayed("reversi", 2, seed, actions)


def ggf_moves(ggf: str) -> list[tuple[str, str]]:
    return re.findall(r"(?<![A-Z])([BW])\[([^\]]*)\]", ggf)


@pytest.mark.parametrize("seed", [1, 2, 3, 4, 5, 6])
def test_reversi_transcript_and_ggf_replay_the_game(seed):
    import games.reversi as reversi
    engine, all_steps = reversi_game(seed)
    final = all_steps[-1].after
    text = transcript(all_steps)
    squares = re.findall(r"[a-h][1-8]", text)
    assert "".join(squares) == text and len(squares) == len(all_steps)
    # the transcript alone replays the game (whoever is to move plays the next square)
    state = reversi.new_game(2, seed=seed)
    for square in squares:
        state = reversi.apply(state, reversi.current_seat(state), reversi.parse_move(square))
    assert state == final

    ggf = to_ggf(all_steps, ["Alice [A]", "bob"])
    assert ggf.startswith("(;GM[Othello]") and ggf.endswith(";)\n")
    black = all_steps[0].before.black_seat
    assert f"PB[{['Alice (A)', 'bob'][black]}]" in ggf
    assert "BO[8 -------- -------- -------- ---O*--- ---*O--- -------- -------- -------- *]" in ggf
    diff = final.black.bit_count() - final.white.bit_count()
    assert f"RE[{diff:+d}.000]" in ggf
    moves = ggf_moves(ggf)
    assert moves[0][0] == "B"
    colour = "B"
    for mover, square in moves:  # colours alternate once passes are counted
        assert mover == colour
        colour = "W" if colour == "B" else "B"
    assert [sq.lower() for _, sq in moves if sq != "PA"] == squares
    passes = sum(1 for s in all_steps for e in s.after.events if e.kind == "pass")
    assert sum(1 for _, sq in moves if sq == "PA") == passes


def test_a_resigned_reversi_game_says_so():
    engine, all_steps = reversi_game(3, resign_at=9)
    loser = all_steps[-1].seat
    winner_black = all_steps[0].before.black_seat != loser
    assert f"RE[{'+' if winner_black else '-'}64.000:r]" in to_ggf(all_steps, ["a", "b"])
    assert len(transcript(all_steps)) == 2 * 8


# --------------------------------------------------------------------------- Patchwork


def test_the_patchwork_record_replays_and_keeps_the_seed_out():
    import games.patchwork as patchwork
    seed = 4
    state = patchwork.new_game(2, seed=seed)
    actions, n = [], 0
    while patchwork.outcome(state) is None:
        n += 1
        seat = patchwork.current_seat(state)
        action = str(patchwork.choose_move(state, seat, "easy", seed=n))
        actions.append((seat, action))
        state = apply_logged(patchwork, state, seat, action)
    _, all_steps = replayed("patchwork", 2, seed, actions)
    record = json.loads(json.dumps(to_record(all_steps, ["Alice", "Bob"], over=True)))
    assert "seed" not in json.dumps(record)
    assert record["players"] == [{"seat": 0, "name": "Alice"}, {"seat": 1, "name": "Bob"}]
    assert record["result"]["scores"] == list(patchwork.outcome(state).scores)
    assert [(m["seat"], m["action"]) for m in record["moves"]] == actions
    buys = [e for m in record["moves"] for e in m["events"] if e["kind"] == "buy"]
    assert buys and {"patch", "cost", "time", "income", "square", "orientation"} <= set(
        buys[0]["values"])
    assert final_state(patchwork, 2, seed, None, actions) == state
    assert record["circle"] == list(patchwork.new_game(2, seed=seed).circle)
    running = to_record(all_steps[:10], ["Alice", "Bob"], over=False)
    assert running["result"] is None and len(running["moves"]) == 10


# --------------------------------------------------------------------------- Dou Dizhu


@dataclass
class Seat:
    seat: int
    name: str
    kind: str = "user"


class Table:
    """What the log needs of a match: its number and its players' names."""

    id = 12

    def __init__(self, players: int) -> None:
        self.seats = [Seat(s, n) for s, n in enumerate(["Alice", "Bob", "Carol", "Dave"])][
            :players]

    def player(self, seat: int) -> Seat:
        return self.seats[seat]


def doudizhu_game(players: int, seed: int, rounds: int):
    import games.doudizhu as ddz
    state = ddz.new_game(players, seed=seed)
    actions, n, played = [], 0, 0
    while ddz.outcome(state) is None:
        n += 1
        seat = ddz.current_seat(state)
        if state.phase == ddz.ROUND_OVER:
            played += 1
            action = "stop" if played >= rounds else "next"
        else:
            action = str(ddz.choose_move(state, seat, "easy", seed=n))
        actions.append((seat, action))
        state = apply_logged(ddz, state, seat, action)
    return replayed("doudizhu", players, seed, actions)


def hand_line(name: str, hand, lang: str = "en") -> str:
    from render.doudizhu import cards_words
    return f"{name}: {voice(lang)(cards_words(hand))}"


@pytest.mark.parametrize("players, seed", [(3, 7), (4, 2)])
def test_the_dou_dizhu_log_shows_hands_only_for_rounds_that_are_over(players, seed):
    _, all_steps = doudizhu_game(players, seed, rounds=3)
    table = Table(players)
    log = round_log(table, all_steps, voice(), over=True)
    assert log.startswith(f"Dou Dizhu match #12: {', '.join(s.name for s in table.seats)}")
    assert log.count("Hands as dealt:") == 3 and "**" not in log
    assert log.count("Ledger: ") == 3
    assert "is the landlord for" in log and "takes the kitty" in log

    # in the middle of the third round: the first two rounds' hands, not the third's
    third = next(i for i, s in enumerate(all_steps)
                 if any(e.kind == "deal" and e.values["round"] == 3 for e in s.after.events))
    cut = third + players + 3
    middle = all_steps[:cut]
    dealt = all_steps[third].after.hands
    log = round_log(table, middle, voice(), over=False)
    assert log.count("Hands as dealt:") == 2
    assert "The round is still in play: its hands stay hidden." in log
    for seat, hand in enumerate(dealt):
        assert hand_line(table.seats[seat].name, hand) not in log
    assert all_steps[third].after.events[-1].kind == "deal"


def test_the_dou_dizhu_log_is_in_the_readers_language():
    _, all_steps = doudizhu_game(3, 5, rounds=1)
    log = round_log(Table(3), all_steps, voice("zh-TW"), over=True)
    assert "Round" not in log and "Ledger" not in log and "Hands" not in log
    assert log.count("\n") > 20
