"""A Dou Dizhu series of a fixed number of rounds (the option `deals`): it ends by itself once
the last round is paid, it cannot be stopped, it replays from its move log, computer players
play it; and a series without the option is saved and played exactly as before."""

from __future__ import annotations

import json
from dataclasses import replace

import pytest

import games.doudizhu as dd
from games.common import GameOver
from games.doudizhu import Next, Stop
from games.replay import final_state, steps
from tests.games.doudizhu.positions import cards, play, refused


def computers_play(state: dd.State, log: list[tuple[int, str]]) -> dd.State:
    """The normal computer plays every seat until the round is paid; the actions are logged."""
    while state.phase in (dd.AUCTION, dd.PLAY):
        seat = dd.current_seat(state)
        move = dd.choose_move(state, seat, "normal", seed=len(log))
        log.append((seat, str(move)))
        state = dd.apply(state, seat, move)
    return state


def landlord_goes_out(state: dd.State) -> dd.State:
    """The round's opener bids 3 and goes out with a single card: the landlord collects 6."""
    state = play(state, "bid 3")
    hands = list(state.hands)
    hands[state.landlord] = cards("3")
    return play(replace(state, hands=tuple(hands)), "3")


@pytest.mark.parametrize("players", [3, 4])
def test_a_series_of_two_rounds_ends_by_itself_with_its_ledger(players: int) -> None:
    log: list[tuple[int, str]] = []
    state = dd.new_game(players, seed=21, options={"deals": 2})
    assert state.deals == 2 and dd.view(state).deals == 2
    first = computers_play(state, log)
    assert first.phase == dd.ROUND_OVER and dd.outcome(first) is None
    assert dd.legal_moves(first, 0) == [Next()]
    assert dd.choose_move(first, 0, "hard", seed=1) == Next()
    seat = (first.went_out + 1) % players  # any seat deals the next round
    log.append((seat, "next"))
    second = dd.apply(first, seat, Next())
    assert second.round_no == 2 and second.deals == 2 and second.phase == dd.AUCTION
    assert second.ledger == first.payments

    over = computers_play(second, log)
    assert over.phase == dd.OVER and dd.current_seat(over) is None
    assert over.ledger == tuple(a + b for a, b in zip(first.payments, over.payments))
    assert sum(over.ledger) == 0
    assert [e.kind for e in over.events][-2:] == ["round_end", "end"]
    assert over.events[-1].seat is None
    assert over.events[-1].values == {"round": 2, "deals": 2}
    result = dd.outcome(over)
    best = max(over.ledger)
    assert result.reason == "deals" and result.scores == over.ledger
    assert result.winners == tuple(s for s in range(players) if over.ledger[s] == best)
    assert result.details == {"ledger": list(over.ledger), "rounds": 2, "deals": 2}
    assert dd.view(over).payment == dd.payment(over)  # the last round's payment is shown
    with refused("doudizhu.series_over", "^The series is over.$", GameOver):
        dd.apply(over, 0, Next())

    # The move log, replayed from the seed and the options, gives the same states.
    assert final_state(dd, players, 21, {"deals": 2}, log) == over
    replayed = list(steps(dd, players, 21, {"deals": 2}, log))
    assert replayed[0].before == state and replayed[-1].after == over
    assert [step.after for step in replayed if step.action == "next"] == [second]
    saved = json.loads(json.dumps(over.to_dict()))
    assert saved["deals"] == 2 and dd.State.from_dict(saved) == over


def test_stop_is_refused_in_every_phase_of_a_fixed_series() -> None:
    state = dd.new_game(3, seed=4, options={"deals": 3})
    english = ("^this series is 3 deals long and ends by itself after the last: it cannot be "
               "stopped$")
    with refused("doudizhu.fixed_deals", english, deals=3, round=1):
        dd.apply(state, state.turn, Stop())
    with refused("doudizhu.fixed_deals", english, deals=3):
        dd.apply(play(state, "bid 2", "pass", "pass"), 0, Stop())
    between = landlord_goes_out(state)
    assert between.phase == dd.ROUND_OVER and between.payments[between.landlord] == 6
    for seat in range(3):
        with refused("doudizhu.fixed_deals", english, deals=3, round=1):
            dd.apply(between, seat, Stop())
    with refused("doudizhu.fixed_deals", english):  # whoever says it, whenever
        dd.apply(state, (state.turn + 1) % 3, Stop())
    assert dd.apply(between, 2, Next()).round_no == 2


def test_one_round_series_and_a_forfeit_of_the_last_round() -> None:
    single = landlord_goes_out(dd.new_game(3, seed=4, options={"deals": 1}))
    assert single.phase == dd.OVER and dd.outcome(single).reason == "deals"
    assert dd.outcome(single).winners == (single.landlord,)

    state = dd.new_game(3, seed=7, options={"deals": 2})
    state = dd.apply(landlord_goes_out(state), 0, Next())
    state = play(state, "bid 3")
    over = dd.forfeit(state, state.landlord)
    assert over.phase == dd.OVER and over.went_out is None
    assert [e.kind for e in over.events] == ["forfeit", "round_end", "end"]
    assert dd.outcome(over).reason == "deals" and dd.outcome(over).scores == over.ledger
    resigned = dd.resign(state, state.landlord)  # resigning still ends any series at once
    assert dd.outcome(resigned).reason == "resigned"


@pytest.mark.parametrize("options, key, english", [
    ({"deals": 0}, "deals_option", "^the deals option is a number of deals from 1 to 20$"),
    ({"deals": 21}, "deals_option", None), ({"deals": "3"}, "deals_option", None),
    ({"deals": True}, "deals_option", None), ({"deals": 2.0}, "deals_option", None),
    ({"deal": 3}, "unknown_option", "^Dou Dizhu has no option `deal`: use deals$"),
])
def test_bad_options_are_refused(options: dict, key: str, english: str | None) -> None:
    with refused(f"doudizhu.{key}", english, dd.BadOption):
        dd.new_game(3, seed=1, options=options)


def test_the_option_is_declared_and_takes_one_to_twenty_rounds() -> None:
    assert dd.OPTIONS["deals"]["default"] is None and dd.MAX_DEALS == 20
    assert dd.new_game(4, seed=1, options={"deals": 20}).deals == 20
    assert dd.new_game(3, seed=1, options={"deals": None}) == dd.new_game(3, seed=1)


# What a state saved before the option existed holds, in order.
SAVED_KEYS = ["players", "seed", "round_no", "redeal_no", "phase", "hands", "kitty", "face_up",
              "face_up_seat", "turn", "ledger", "bids", "landlord", "trick", "played",
              "doublings", "went_out", "payments", "resigned", "events"]


def test_an_open_series_is_saved_and_played_as_before() -> None:
    """Without the option, nothing changes: the saved data is what it was before the option
    (no `deals`), such data loads as an open series, and `stop` ends it between rounds."""
    state = dd.new_game(3, seed=4)
    between = landlord_goes_out(state)
    for each in (state, between, dd.apply(between, 1, Next())):
        data = json.loads(json.dumps(each.to_dict()))
        assert list(data) == SAVED_KEYS
        old = dd.State.from_dict(data)
        assert old == each and old.deals is None and dd.view(old).deals is None
    old = dd.State.from_dict(json.loads(json.dumps(between.to_dict())))
    assert dd.legal_moves(old, 1) == [Next(), Stop()]
    over = dd.apply(old, 1, Stop())
    assert dd.outcome(over).reason == "stopped" and dd.outcome(over).details == {
        "ledger": list(between.ledger), "rounds": 1}
    log = [(state.turn, "bid 3")]
    assert final_state(dd, 3, 4, None, log) == play(state, "bid 3")
