"""Alt text: the words a screen reader says for each image, from the same views."""

import dataclasses

import games.doudizhu as ddz
import games.patchwork as patchwork
import games.reversi as reversi
import games.scrabble as scrabble
from render import alt


def test_reversi_names_every_disc_and_the_legal_squares():
    state = reversi.new_game(2, seed=1)
    black = state.black_seat
    names = ["alice", "bob"]
    text = alt.reversi_board(reversi.view(state), names)
    assert text == (f"Reversi board. Black, {names[black]}, 2 discs: e4, d5. White, "
                    f"{names[1 - black]}, 2 discs: d4, e5. {names[black]} to move as black: "
                    "d3, c4, f5, e6.")
    after = reversi.apply(state, black, reversi.parse_move("d3"))
    text = alt.reversi_board(reversi.view(after), names)
    assert "4 discs: d3, d4, e4, d5. White" in text and "1 disc: e5. Last move d3." in text


def scrabble_view(rows):
    view = scrabble.view(scrabble.new_game(2, seed=3))
    return dataclasses.replace(view, board=scrabble.Board.parse("\n".join(rows)).rows)


def test_scrabble_lists_every_word_across_and_down_by_its_first_square():
    empty = ["." * 15] * 15
    assert alt.scrabble_board(scrabble_view(empty)).startswith("Scrabble board, empty")
    rows = list(empty)
    rows[7] = ".......QUIz...."   # H8 across, the Z a blank
    rows[8] = ".......A......."   # H9: makes H8 down QA; a lone tile is no word
    rows[9] = "...X..........."
    text = alt.scrabble_board(scrabble_view(rows))
    assert text == ("Scrabble board; words by first square (lower case: a blank): "
                    "H8 across QUIz, H8 down QA.")


def test_alt_text_fits_discord_limit():
    rows = ["AT.AT.AT.AT.AT."] * 15  # 75 words across, 50 down
    text = alt.scrabble_board(scrabble_view(rows))
    assert len(text) == alt.LIMIT and text.endswith("…")


def test_scrabble_rack_says_blank():
    assert alt.scrabble_rack("QI?") == "Your rack, 3 tiles: Q I blank."
    assert alt.scrabble_rack("E") == "Your rack, 1 tile: E."


def test_patchwork_table_reads_players_turn_and_offer():
    view = patchwork.view(patchwork.new_game(2, seed=4))
    text = alt.patchwork_table(view, ["alice", "bob"])
    assert text.startswith("Patchwork table. alice: 5 buttons, income 0, time track 0 of 53, "
                           "81 empty squares, score now -157. bob: 5 buttons")
    first = view.offer[0]
    buttons = f"{first.cost} button" + ("" if first.cost == 1 else "s")
    assert (f"On offer: 1: {first.size} squares, costs {buttons} and "
            f"{first.time} time, income {first.income}; 2: ") in text
    assert text.endswith(f"{len(view.circle)} patches left in the circle.")
    assert f"{['alice', 'bob'][view.turn]} to move (" in text


def test_doudizhu_cards_sorted_with_suits_and_jokers():
    from i18n import _, voice

    text = alt.doudizhu_cards(["RJ", "TD", "3S", "BJ"], _("Your hand"))
    assert text == f"Your hand: 3{ddz.card_text('3S')[1:]} 10\u2666 black joker red joker."
    chinese = alt.doudizhu_cards(["RJ", "TD", "3S", "BJ"], _("Your hand"), voice("zh-TW"))
    assert "\u5c0f\u738b" in chinese and "\u5927\u738b" in chinese  # 小王, 大王
    assert "Your hand" not in chinese and "joker" not in chinese


def test_patchwork_first_turn_says_the_start_player_was_drawn():
    state = patchwork.new_game(2, seed=4)
    text = alt.patchwork_table(patchwork.view(state), ["alice", "bob"])
    assert f"{['alice', 'bob'][state.start_seat]} to move (drawn to start)." in text
    moved = patchwork.apply(state, state.start_seat, patchwork.Pass())
    text = alt.patchwork_table(patchwork.view(moved), ["alice", "bob"])
    assert "drawn to start" not in text and "(behind)." in text
