"""Dou Dizhu combinations: every type, every restriction, beats(), and legal_plays()
cross-checked against a brute-force enumeration of all sub-multisets."""

from __future__ import annotations

import random
from itertools import product

import pytest

from games.doudizhu.combinations import (
    BOMB,
    PAIR,
    PAIR_SEQUENCE,
    QUADPLEX,
    ROCKET,
    SEQUENCE,
    SINGLE,
    TRIO,
    TRIO_PAIR,
    TRIO_SEQUENCE,
    TRIO_SEQUENCE_PAIRS,
    TRIO_SEQUENCE_SINGLES,
    TRIO_SINGLE,
    RANKS,
    beats,
    classify,
    classify_ranks,
    counts_of,
    explain_invalid,
    explain_not_beating,
    legal_plays,
    ranks_text,
)
from tests.games.doudizhu.positions import said


def kind(text: str, players: int = 3) -> tuple[str, str, int] | None:
    combo = classify(text, players)
    return None if combo is None else (combo.type, RANKS[combo.rank], combo.length)


@pytest.mark.parametrize("text, players, expected", [
    ("7", 3, (SINGLE, "7", 1)),
    ("R", 3, (SINGLE, "R", 1)),
    ("KK", 3, (PAIR, "K", 1)),
    ("BB", 4, (PAIR, "B", 1)),
    ("RR", 4, (PAIR, "R", 1)),
    ("222", 3, (TRIO, "2", 1)),
    ("3334", 3, (TRIO_SINGLE, "3", 1)),
    ("222B", 3, (TRIO_SINGLE, "2", 1)),
    ("33344", 3, (TRIO_PAIR, "3", 1)),
    ("33344", 4, (TRIO_PAIR, "3", 1)),
    ("222AA", 3, (TRIO_PAIR, "2", 1)),
    ("777BB", 4, (TRIO_PAIR, "7", 1)),
    ("34567", 3, (SEQUENCE, "7", 5)),
    ("3456789TJQKA", 3, (SEQUENCE, "A", 12)),
    ("334455", 3, (PAIR_SEQUENCE, "5", 3)),
    ("QQKKAA", 4, (PAIR_SEQUENCE, "A", 3)),
    ("333444", 3, (TRIO_SEQUENCE, "4", 2)),
    ("KKKAAA", 4, (TRIO_SEQUENCE, "A", 2)),
    ("3334445R", 3, (TRIO_SEQUENCE_SINGLES, "4", 2)),
    ("333444555789", 3, (TRIO_SEQUENCE_SINGLES, "5", 3)),
    ("KKKAAA2B", 3, (TRIO_SEQUENCE_SINGLES, "A", 2)),
    ("3334445566", 3, (TRIO_SEQUENCE_PAIRS, "4", 2)),
    ("333444BBRR", 4, (TRIO_SEQUENCE_PAIRS, "4", 2)),
    ("9999", 3, (BOMB, "9", 1)),
    ("99999", 4, (BOMB, "9", 1)),
    ("22222222", 4, (BOMB, "2", 1)),
    ("BR", 3, (ROCKET, "R", 1)),
    ("BBRR", 4, (ROCKET, "R", 1)),
    ("555534", 3, (QUADPLEX, "5", 1)),
    ("5555342", 3, None),
    ("55553344", 3, (QUADPLEX, "5", 1)),
    ("55552B", 3, (QUADPLEX, "5", 1)),
    ("2222AAKK", 3, (QUADPLEX, "2", 1)),
])
def test_every_type(text: str, players: int, expected: tuple | None) -> None:
    assert kind(text, players) == expected


@pytest.mark.parametrize("text, players", [
    # chains: minimum lengths, no 2s or jokers
    ("3456", 3), ("JQKA2", 3), ("TJQKA2", 3), ("3344", 3), ("KKAA22", 3), ("AAA222", 3),
    ("34568", 3), ("334466", 3), ("333555", 3),
    # kickers never share a rank with the trios / the four or with each other
    ("33334", 3), ("33343", 3), ("3334443", 3), ("33344455", 3), ("3334445555", 3),
    ("555544", 3), ("55554444", 3),
    # both jokers never kickers together
    ("333444BR", 3), ("5555BR", 3), ("3333BR", 3),
    # jokers: same-colour pairs only with 4 players, the rocket per player count
    ("BB", 3), ("BR", 4), ("BBR", 4), ("BBRR", 3), ("333BR", 4), ("333BB", 3),
    # types 4, 9 and 13 are illegal with 4 players
    ("3334", 4), ("33344456", 4), ("555534", 4), ("55553344", 4),
    # bombs: 4 cards with 3 players, 4 to 8 with 4 players, never jokers
    ("55555", 3), ("555555555", 4),
    # nothing at all
    ("34", 3), ("3345", 3),
])
def test_restrictions(text: str, players: int) -> None:
    assert classify(text, players) is None


def test_classify_accepts_concrete_cards_and_orders_kickers_last() -> None:
    combo = classify(["4H", "3S", "4D", "3H", "3C"], 3)
    assert combo is not None and str(combo) == "33344"
    assert str(classify("R5334443", 3)) == "3334445R"
    assert str(classify("6655333444", 3)) == "3334445566"
    assert str(classify("2B5555", 3)) == "55552B"


def c(text: str, players: int = 3):
    combo = classify(text, players)
    assert combo is not None, text
    return combo


@pytest.mark.parametrize("new, old, players, result", [
    ("8", "7", 3, True), ("7", "8", 3, False), ("7", "7", 3, False),
    ("2", "A", 3, True), ("B", "2", 3, True), ("R", "B", 3, True),
    ("99", "88", 3, True), ("99", "8", 3, False), ("88", "9", 3, False),
    ("45678", "34567", 3, True), ("456789", "34567", 3, False),
    ("4445", "333K", 3, True), ("44455", "3334", 3, False),
    ("44455", "333KK", 3, True), ("444555", "333444", 3, True),
    ("4445556J", "3334445R", 3, True), ("444555JJQQ", "333444KKAA", 3, True),
    ("555534", "44442B", 3, True), ("55553344", "555534", 3, False),
    # bombs beat everything but the rocket; higher bombs beat lower ones
    ("3333", "2", 3, True), ("3333", "3456789TJQKA", 3, True), ("3333", "55553344", 3, True),
    ("4444", "3333", 3, True), ("3333", "4444", 3, False),
    ("BR", "2222", 3, True), ("2222", "BR", 3, False), ("BR", "3", 3, True),
    # 4 players: more cards beat fewer regardless of rank, then rank
    ("33333", "7777", 4, True), ("7777", "33333", 4, False), ("88888", "77777", 4, True),
    ("333333", "22222", 4, True), ("22222222", "3333333", 4, True),
    ("BBRR", "22222222", 4, True), ("22222222", "BBRR", 4, False),
    ("3333", "RR", 4, True), ("RR", "BB", 4, True), ("RR", "22", 4, True),
    ("44455", "333BB", 4, True),
])
def test_beats(new: str, old: str, players: int, result: bool) -> None:
    assert beats(c(new, players), c(old, players), players) is result


def brute_force(counts: list[int], players: int, to_beat=None) -> dict:
    found = {}
    for pick in product(*(range(count + 1) for count in counts)):
        ranks = [rank for rank, count in enumerate(pick) for _ in range(count)]
        combo = classify_ranks(ranks, players) if ranks else None
        if combo is not None and (to_beat is None or beats(combo, to_beat, players)):
            found[combo.key] = combo
    return found


@pytest.mark.parametrize("players", [3, 4])
def test_legal_plays_matches_brute_force(players: int) -> None:
    rng = random.Random(players)
    deck = [rank for rank in range(15) for _ in range(4 if rank < 13 else 1)] * (players - 2)
    for _ in range(120):
        hand = sorted(rng.sample(deck, rng.randint(3, 10)))
        counts = counts_of(hand)
        expected = brute_force(counts, players)
        got = legal_plays(ranks_text(hand), None, players)
        assert len({combo.key for combo in got}) == len(got)
        assert {combo.key: combo for combo in got} == expected, ranks_text(hand)
        for old in rng.sample(list(expected.values()), min(3, len(expected))):
            answers = legal_plays(ranks_text(hand), old, players)
            assert {combo.key: combo for combo in answers} == brute_force(counts, players, old)


def test_legal_plays_hand_built_cases() -> None:
    # rich hand for the kicker types, checked against brute force too
    for text, players in (("3334445556JBR", 3), ("33334444BR2", 3), ("3333344444BBRR", 4),
                          ("777888999TT", 3), ("77788899BBRR", 4)):
        counts = counts_of(RANKS.index(ch) for ch in text)
        got = {combo.key: combo for combo in legal_plays(text, None, players)}
        assert got == brute_force(counts, players), text


def test_legal_plays_answers_include_bombs_and_rocket() -> None:
    plays = [str(p) for p in legal_plays("34445555BR", c("3"), 3)]
    assert plays == ["4", "5", "B", "R", "5555", "BR"]
    assert [str(p) for p in legal_plays("3333BR", c("2222"), 3)] == ["BR"]
    assert legal_plays("3333B", c("BR"), 3) == []
    # 4 players: five 3s beat four 7s, four 3s do not
    assert [str(p) for p in legal_plays("33333", c("7777", 4), 4)] == ["33333"]
    assert [str(p) for p in legal_plays("3333", c("7777", 4), 4)] == []


def test_legal_plays_large_hands() -> None:
    rng = random.Random(7)
    for players, size in ((3, 20), (4, 33)):
        deck = [r + s for r in RANKS[:13] for s in "SHDC"] * (players - 2) + ["BJ", "RJ"] * (players - 2)
        for _ in range(5):
            hand = rng.sample(deck, size)
            plays = legal_plays(hand, None, players)
            assert plays and all(classify_ranks(p.ranks, players) == p for p in plays)


@pytest.mark.parametrize("text, players, message", [
    ("", 3, "you must play at least one card"),
    ("3334", 4, "a trio with a single is not allowed with 4 players"),
    ("33344456", 4, "a trio sequence with singles is not allowed with 4 players"),
    ("555534", 4, "a quadplex set is not allowed with 4 players"),
    ("3456", 3, "a sequence needs at least 5 cards"),
    ("3344", 3, "a pair sequence needs at least 3 pairs"),
    ("JQKA2", 3, "a sequence cannot contain 2s or jokers"),
    ("KKAA22", 3, "a pair sequence cannot contain 2s or jokers"),
    ("34568", 3, "34568 is not a sequence: the ranks must be consecutive"),
    ("333444BR", 3, "the two jokers may not both be used in one combination"),
    ("33344453", 3, "the extra cards may not share a rank with the trios"),
    ("33344455", 3, "the extra cards must all have different ranks"),
    ("AAA22245", 3, "2s cannot be part of a trio sequence"),
    ("BR", 4, "with 4 players two jokers are a pair only when they have the same colour"),
    # both jokers as kickers of a type the 4-player game has not got: the type is the problem
    ("3333BR", 4, "a quadplex set is not allowed with 4 players"),
    ("333444BR", 4, "a trio sequence with singles is not allowed with 4 players"),
    ("334BR", 4, "a black and a red joker are not a pair and cannot both be extra cards"),
    ("333555", 3, "333555 is not a trio sequence: the ranks must be consecutive"),
    ("3335559", 3, "the trios of a trio sequence must be of consecutive ranks"),
    ("3344556", 3, "3344556 is not a combination: see the 13 combinations in the rules"),
])
def test_explain_invalid(text: str, players: int, message: str) -> None:
    """The reasons are keys and plain data; the bot's adapter says them."""
    assert text == "" or classify(text, players) is None
    key, values = explain_invalid(text, players)
    assert key.startswith("doudizhu.") and all(
        isinstance(value, (str, int)) for value in values.values())
    assert said((key, values)).startswith(message)


def test_explain_not_beating() -> None:
    assert explain_not_beating(c("444"), c("777")) == (
        "doudizhu.does_not_beat", {"play": "444", "to_beat": "777"})
    assert explain_not_beating(c("3"), c("77")) == (
        "doudizhu.answer_in_kind", {"type": PAIR, "size": 2})
    assert said(explain_not_beating(c("444"), c("777"))) == "444 does not beat 777"
    assert said(explain_not_beating(c("3"), c("77"))).startswith("you must answer a pair")
    assert said(explain_not_beating(c("345678"), c("34567"))).startswith(
        "you must answer a sequence of 5 cards")
    assert said(explain_not_beating(c("33"), c("555567"))) == (
        "you must answer a four with two singles (or play a bomb or the rocket)")
    assert said(explain_not_beating(c("33"), c("55556677"))).startswith(
        "you must answer a four with two pairs")
    assert said(explain_not_beating(c("333444"), c("55566678"))).startswith(
        "you must answer a trio sequence with singles of 8 cards")
    assert said(explain_not_beating(c("7777", 4), c("33333", 4), 4)).startswith(
        "7777 does not beat 33333")
    assert said(explain_not_beating(c("3"), c("BR"))) == "nothing beats the rocket: you must pass"
    assert said(explain_not_beating(c("777"), c("3333"))) == (
        "only a higher bomb or the rocket beats the bomb 3333")
    assert said(explain_not_beating(c("JJJ", 4), c("77777", 4), 4)) == (
        "only a bomb with more cards, a higher bomb of 5 cards or the rocket beats the bomb 77777")
