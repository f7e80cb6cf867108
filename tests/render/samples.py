"""Worst-case content for every renderer, shared by the render tests and
`benchmarks/bench_images.py`: the fullest boards, the longest hands and plays, the longest names.

`samples()` yields (label, draw) pairs; `draw()` returns the PNG bytes of one image.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterator
from dataclasses import replace
from functools import partial
from unittest.mock import patch

from PIL import ImageDraw

import games.doudizhu as dd
from games.common import GameError
from i18n import ENGLISH_VOICE, Voice
import games.patchwork as pw
import games.reversi as reversi
import games.scrabble as scrabble
from render import fonts
from render.doudizhu import render_hand, render_play
from render.patchwork import clear_caches, render_game, render_preview
from render.png import SCALE
from render.reversi import clear_caches as clear_reversi
from render.reversi import render_board
from render.scrabble import render_board as render_scrabble
from render.scrabble import clear_caches as clear_scrabble
from render.scrabble import render_rack
from render.standings import StandingsLine, StandingsView, render_standings

LONG_NAMES = ("W" * 32, "M" * 32)  # the widest 32-character names Discord allows
# 32-character names in every script the fonts draw, and emoji no font has.
SCRIPT_NAMES = (*LONG_NAMES, "ગુજરાતી" * 4 + "ખેલાડીનું નામ", "長" * 32, "🎲" * 16 + "W" * 16,
                "Bartholomew Featherstonehaugh-Ng")
# A 4-player (two decks) airplane with pairs: 6 triples and 6 pairs, 30 cards.
LONG_AIRPLANE = ("3S 3H 3D 4S 4H 4D 5S 5H 5D 6S 6H 6D 7S 7H 7D 8S 8H 8D "
                 "9S 9H TS TH JS JH QS QH KS KH AS AH").split()
HAND_33 = ("3S 3H 4D 5C 6S 6H 7D 8C 9S 9H TS TD TC JH JS QD QC QS KH KD AS AH AC "
           "2S 2H 2D 2C BJ RJ BJ TH 8D 5S").split()


def reversi_states() -> tuple[reversi.State, reversi.State]:
    """A position with many legal moves, and a full board at the end of a game."""
    rng = random.Random(5)
    state = reversi.new_game(2, seed=5)
    busiest = state
    while reversi.current_seat(state) is not None:
        seat = reversi.current_seat(state)
        legal = reversi.legal_moves(state, seat)
        if len(legal) > len(reversi.legal_moves(busiest, reversi.current_seat(busiest))):
            busiest = state
        state = reversi.apply(state, seat, rng.choice(legal))
    return busiest, state


def scrabble_full_board(seed: int = 3) -> scrabble.State:
    """A game played out by best-scoring plays: the fullest board a real game makes."""
    state = scrabble.new_game(2, seed=seed)
    while scrabble.outcome(state) is None:
        seat = scrabble.current_seat(state)
        plays = scrabble.scored_plays(state, seat)
        try:
            state = scrabble.apply(state, seat, plays[0][1] if plays else scrabble.Pass())
        except GameError:  # the last play stands unless challenged: accept it
            state = scrabble.apply(state, seat, scrabble.Pass())
    return state


def patchwork_states(seed: int = 32) -> list[pw.State]:
    """Every state of a seeded Patchwork game, mostly buying."""
    rng = random.Random(seed)
    state = pw.new_game(2, seed=seed)
    states = [state]
    while not state.over:
        seat = pw.current_seat(state)
        moves = pw.legal_moves(state, seat)
        buys = [m for m in moves if isinstance(m, pw.Buy)]
        state = pw.apply(state, seat, rng.choice(buys) if buys and rng.random() < 0.8
                         else rng.choice(moves))
        states.append(state)
    return states


def patchwork_late(states: list[pw.State]) -> pw.State:
    """A late table: full quilts, the bonus claimed, a few patches left."""
    late = states[-8]
    return replace(late, bonus_seat=1)


def samples(voice: Voice = ENGLISH_VOICE) -> Iterator[tuple[str, Callable[[], bytes]]]:
    """Every renderer at its fullest, its labels worded by `voice`."""
    busiest, full = reversi_states()
    yield "reversi board, most legal moves", partial(render_board, reversi.view(busiest), voice)
    yield "reversi board, full, game over", partial(render_board, reversi.view(full), voice)
    board = scrabble_full_board()
    yield "scrabble board, game played out", partial(render_scrabble, scrabble.view(board),
                                                     voice)
    yield "scrabble rack, 7 tiles with blank, Q, Z", partial(render_rack, "QZ?WXYK", voice)
    yield "doudizhu hand, 33 cards", partial(render_hand, HAND_33, voice)
    three = dd.new_game(3, seed=5)
    yield "doudizhu hand, 20 cards", partial(render_hand, three.hands[0] + three.kitty, voice)
    yield "doudizhu play, 30-card airplane", partial(render_play, LONG_AIRPLANE, voice)
    yield "doudizhu play, one card", partial(render_play, ["TH"], voice)
    yield "doudizhu play, rocket", partial(render_play, ["BJ", "RJ"], voice)
    states = patchwork_states()
    start = states[0]
    yield "patchwork table, start (full circle)", partial(
        render_game, pw.view(start, 0), LONG_NAMES, voice)
    late = patchwork_late(states)
    yield "patchwork table, late", partial(render_game, pw.view(late, 0), LONG_NAMES, voice)
    leather = next(s for s in states if s.pending_seat is not None)
    yield "patchwork table, leather to place", partial(render_game, pw.view(leather),
                                                       LONG_NAMES, voice)
    over = states[-1]
    yield "patchwork table, game over", partial(render_game, pw.view(over, 1), LONG_NAMES, voice)
    mid = replace(states[len(states) // 2], buttons=(40, 40))
    seat = pw.current_seat(mid)
    view = pw.view(mid, seat)
    reason = "it would cover a1, already filled, and stick out past the right edge of the quilt"
    yield "patchwork preview, illegal, off the quilt", partial(
        render_preview, view, seat, 1, "90m", "h8", False, reason, voice)
    yield "patchwork preview, legal", partial(render_preview, view, seat, 2, "0", "a1", True,
                                              None, voice)
    for final in (False, True):
        yield (f"night standings, 256 players, {'final' if final else 'after round 7'}",
               partial(render_standings, standings_view(final=final), voice))
    yield "night standings, tables of 3-4, final", partial(
        render_standings, standings_view(final=True, two_player=False, players=40), voice)


def standings_view(*, final: bool, two_player: bool = True, players: int = 256,
                   title: str = "Friday night Scrabble: the long one") -> StandingsView:
    """A night at its widest: the longest names in every script, computers among them, and
    tiebreaks and margins with as many digits as a night makes."""
    rows = []
    for index in range(players):
        points = round(8 - index * 8 / players, 2)
        tiebreaks = ((40.5 - index / 10, 32.75, -1234.0 + index * 9.5) if two_player
                     else (-1234.0 + index * 9.5,))
        rows.append(StandingsLine(index + 1, SCRIPT_NAMES[index % len(SCRIPT_NAMES)], points,
                                  tiebreaks, 8 - index % 2, is_computer=index % 7 == 3))
    return StandingsView("scrabble" if two_player else "doudizhu", title, 8 if final else 7, 8,
                         tuple(rows), final, two_player)


def drawn(draw: Callable[[], bytes]) -> tuple[bytes, list[tuple[float, str]]]:
    """Run a renderer; return its PNG and every (font size in final pixels, text) it drew,
    cached layers included (they are drawn afresh)."""
    for clear in (clear_caches, clear_scrabble, clear_reversi):
        clear()
    texts: list[tuple[float, str]] = []
    original = ImageDraw.ImageDraw.text

    def spy(self, xy, text, *args, **kwargs):
        size = getattr(kwargs.get("font"), "size", None)
        if text.strip() and size is not None:
            texts.append((size / SCALE, text))
        return original(self, xy, text, *args, **kwargs)

    with patch.object(ImageDraw.ImageDraw, "text", spy), \
            patch.object(fonts, "_mask", fonts._mask.__wrapped__):  # shape every run
        png = draw()
    return png, texts
