"""Regenerate the images the README shows: `python docs/make_images.py`."""

from __future__ import annotations

import random
from pathlib import Path

import games.doudizhu as doudizhu
import games.patchwork as patchwork
import games.reversi as reversi
import games.scrabble as scrabble
from bot.adapters.patchwork.words import preview_problem
from bot.nights.pairing import entrants, first_round, swiss_round
from bot.nights.standings import Bye, Result, standings
from render.doudizhu import render_hand, render_play
from render.patchwork import render_game, render_preview
from render.reversi import render_board
from render.scrabble import render_board as render_scrabble
from render.standings import StandingsLine, StandingsView, render_standings
from i18n import voice

HERE = Path(__file__).parent


def reversi_midgame(seed: int = 4, plies: int = 24) -> reversi.State:
    rng = random.Random(seed)
    state = reversi.new_game(2, seed=seed)
    for _ in range(plies):
        seat = reversi.current_seat(state)
        state = reversi.apply(state, seat, rng.choice(reversi.legal_moves(state, seat)))
    return state


def patchwork_midgame(seed: int = 7, plies: int = 24) -> patchwork.State:
    rng = random.Random(1)
    state = patchwork.new_game(2, seed=seed)
    for _ in range(plies):
        seat = patchwork.current_seat(state)
        moves = patchwork.legal_moves(state, seat)
        buys = [m for m in moves if isinstance(m, patchwork.Buy)]
        state = patchwork.apply(state, seat, rng.choice(
            buys if buys and rng.random() < 0.85 else moves))
    return state


def scrabble_midgame(seed: int = 3, plies: int = 10) -> scrabble.State:
    """Each player in turn makes the best-scoring play."""
    state = scrabble.new_game(2, seed=seed)
    for _ in range(plies):
        seat = scrabble.current_seat(state)
        plays = scrabble.scored_plays(state, seat)
        state = scrabble.apply(state, seat, plays[0][1] if plays else scrabble.Pass())
    return state


def patchwork_preview() -> bytes:
    """The placement preview a player gets by DM, for a patch that does not fit where asked."""
    state = patchwork_midgame()
    seat = patchwork.current_seat(state)
    view = patchwork.view(state, seat)
    move = patchwork.Buy(1, "90", "h8")
    reason = preview_problem(state, seat, move)  # the engine's key, in words
    return render_preview(view, seat, 1, "90", "h8", reason is None, reason)


NAMES = {  # players' names in each language's script, as the languages' images show them
    "zh-TW": ["王小明", "陳美玲"],
    "zh-CN": ["李华", "张伟"],
    "gu": ["ક્ષિતિજ", "પ્રિયા"],
}


def language_images() -> dict[str, bytes]:
    """The same Patchwork table in each language the bot speaks besides English."""
    view = patchwork.view(patchwork_midgame())
    return {f"patchwork-{lang}.png": render_game(view, names, voice(lang))
            for lang, names in NAMES.items()}


NIGHT_NAMES = ["Alice", "陳美玲", "ક્ષિતિજ", "Bartholomew", "李华", "Computer (hard)", "Priya",
               "Zoë", "Olusegun", "પ્રિયા", "Mei", "Dmitri"]


def night_standings(rounds: int = 4, seed: int = 11) -> bytes:
    """The last standings of a Swiss Scrabble night of twelve (a computer among them), its
    results seeded: winners by a random spread, a draw now and then."""
    rng = random.Random(seed)
    players = list(range(len(NIGHT_NAMES)))
    results: list[Result | Bye] = []
    played = []
    for number in range(1, rounds + 1):
        table = standings(players, results, seed)
        ranked = [s.player for s in table]
        rnd = (first_round(players, seed) if number == 1 else
               swiss_round(entrants(ranked, {s.player: s.points for s in table}, played)))
        played.append(rnd)
        for pair in rnd.pairs:
            spread = rng.choice([0] + [rng.randint(3, 160)] * 12) * rng.choice([1, -1])
            places = (1, 1) if spread == 0 else (1, 2) if spread > 0 else (2, 1)
            results.append(Result(number, (pair.first, pair.second), places,
                                  (float(spread), float(-spread))))
    rows = tuple(StandingsLine(s.rank, NIGHT_NAMES[s.player], s.points,
                               (s.buchholz_cut1, s.sonneborn_berger, s.margin), rounds,
                               is_computer=NIGHT_NAMES[s.player].startswith("Computer"))
                 for s in standings(players, results, seed))
    return render_standings(StandingsView("scrabble", "Friday Scrabble night", rounds, rounds,
                                          rows, final=True), voice())


if __name__ == "__main__":
    images = {
        "reversi.png": render_board(reversi.view(reversi_midgame())),
        "patchwork.png": render_game(patchwork.view(patchwork_midgame()), ["alice", "bob"]),
        "scrabble.png": render_scrabble(scrabble.view(scrabble_midgame())),
        "doudizhu-hand.png": render_hand(doudizhu.view(doudizhu.new_game(3, seed=5), 0).hand),
        "doudizhu-play.png": render_play("3S 3H 3D 4C 4S 4H 5D 5C 5S 8H 9C TD".split()),
        "patchwork-preview.png": patchwork_preview(),
        "night-standings.png": night_standings(),
        **language_images(),
    }
    for name, png in images.items():
        (HERE / name).write_bytes(png)
        print("wrote", HERE / name)
