"""Dou Dizhu through the real bot and the fake Discord: every legal play is one or two clicks
away in the DM menu (and the ephemeral `/doudizhu hand`), also after a restart; and a ten reads
`10` everywhere while `10`, `T` and `0` are all understood."""

from __future__ import annotations

import re

import pytest

import games.doudizhu as ddz
from bot.adapters.doudizhu.controls import MENU_SIZE
from i18n import ENGLISH_VOICE
from tests.e2e.test_e2e_doudizhu import check, message_text, open_table, public_post
from tests.e2e_helpers import fake_world, fix_match_seeds, running_bot

pytestmark = pytest.mark.e2e

#: A ten written `T` (`TJQKA`, a lone `T`), but not the T of a word such as `Trio` or `The`.
TEN_AS_T = re.compile(r"(?<![A-Za-z])T(?![a-z])")
NOT_WORDS = re.compile(r"\d{17,20}|<t:-?\d+(?::[tTdDfFR])?>")  # ids, and timestamps
BACK = "Other kinds of play"
#: Seeds whose first landlord (the opener, bidding 3) holds, at the lead:
MANY_PLAYS = 361  # 277 plays, 11 kinds, one type in two parts, a kind of 90 plays
FOUR_TENS = 83  # four tens


@pytest.fixture
async def world():
    async with fake_world("doudizhu", ("alice", "bob", "carol", "dave")) as world:
        yield world


def legal_texts(state: ddz.State) -> list[str]:
    return sorted(str(move) for move in ddz.legal_moves(state, state.turn)
                  if isinstance(move, ddz.Play))


def menu_of(fake, user):
    """The newest DM to `user` that carries controls."""
    return next(m for m in reversed(fake.dm_messages(user)) if m.components)


def ids(message) -> list[str]:
    return [c["custom_id"] for c in message.all_components() if "custom_id" in c]


def assert_readable(message) -> None:
    """Within Discord's limits, and no ten written `T`."""
    assert len(message.components) <= 5
    for select in message.selects:
        assert len(select["options"]) <= MENU_SIZE and len(select["placeholder"]) <= 150
        assert all(len(o["label"]) <= 100 and len(o["value"]) <= 100 for o in select["options"])
    assert all(len(i) <= 100 for i in ids(message))
    text = message_text(message)
    assert not TEN_AS_T.search(text), f"a ten written T in {text!r}"


async def reachable(fake, user, message) -> list[str]:
    """Every play the menu on `message` offers in one or two clicks: the plays of its first
    step, and those of each kind, going back to the kinds after each."""
    assert_readable(message)
    first = ids(message)
    plays = [o["value"] for s in message.selects if ":play:" in s["custom_id"]
             for o in s["options"]]
    kinds = [(s["custom_id"], o) for s in message.selects if ":kind:" in s["custom_id"]
             for o in s["options"]]
    for custom_id, option in kinds:
        step = await fake.select(user, message, custom_id, [option["value"]])
        assert step.response_type == 7 and not step.errors, step.content
        shown = step.message
        assert_readable(shown)
        assert shown.attachments and shown.embeds  # only the controls changed
        offered = [o["value"] for s in shown.selects for o in s["options"]]
        assert all(":play:" in s["custom_id"] for s in shown.selects)
        assert f"({len(offered)})" in option["label"]  # the kind's count is true
        plays += offered
        back = await fake.click(user, shown, label=BACK)
        assert back.response_type == 7 and ids(back.message) == first
    assert len(plays) == len(set(plays)), "a play offered twice"
    return sorted(plays)


async def choose(fake, user, message, kind_label: str, play: str):
    """Two clicks: the kind whose label starts with `kind_label`, then `play`."""
    (custom_id, value), = [(s["custom_id"], o["value"]) for s in message.selects
                           for o in s["options"] if o["label"].startswith(kind_label)]
    step = await fake.select(user, message, custom_id, [value])
    select = next(s for s in step.message.selects
                  if play in [o["value"] for o in s["options"]])
    return await fake.select(user, step.message, select["custom_id"], [play])


async def crowned_table(fake, channel, bot, users, monkeypatch, seed):
    """A 3-player table at `seed` whose opener bid 3: the landlord is to lead."""
    fix_match_seeds(monkeypatch, seed)
    table, started = await open_table(fake, channel, bot, users)
    opener = await table.to_move()
    await check(table, await fake.slash(opener, channel, "doudizhu bid", amount="3"))
    return table, opener


async def test_every_play_is_one_or_two_clicks_away_also_after_a_restart(
        world, tmp_path, monkeypatch):
    fake, guild, channel, users = world
    db = tmp_path / "g.db"
    async with running_bot(fake, db, guild.id) as bot:
        table, landlord = await crowned_table(fake, channel, bot, list(users.values())[:3],
                                              monkeypatch, MANY_PLAYS)
        state = await table.state()
        legal = legal_texts(state)
        assert len(legal) > 10 * MENU_SIZE
        menu = menu_of(fake, landlord)
        assert await reachable(fake, landlord, menu) == legal
        assert [s["custom_id"].split(":")[2] for s in menu.selects] == ["kind"]
        # `/doudizhu hand` shows the same two-step menu, in its own ephemeral message.
        hand = await fake.slash(landlord, channel, "doudizhu hand")
        assert hand.ephemeral
        assert await reachable(fake, landlord, hand.message) == legal
        # Someone else using the menu gets a polite no.
        other = await fake.select(users["dave"], menu, menu.selects[0]["custom_id"],
                                  [menu.selects[0]["options"][0]["value"]])
        assert other.ephemeral and "out of date" in other.content

    async with running_bot(fake, db, guild.id) as bot:  # nothing was kept in memory
        table.bot = bot
        assert await reachable(fake, landlord, menu) == legal
        high = max((p for p in legal if len(ddz.Play.parse(p).ranks) == 1),
                   key=lambda p: ddz.classify(p).rank)
        played = await choose(fake, landlord, menu, "Single", high)
        assert played.response_type == 7 and not played.errors
        # The live DM now shows the hand after the play, with nothing to click until the next turn.
        assert played.message.components == [] and "Waiting for" in played.message.content
        await check(table, played)
        after = await table.state()
        assert after.trick == ((state.turn, after.played),) and ddz.classify(after.played).rank \
            == ddz.classify(high).rank
        assert f"**{high}** by {landlord.name}" in public_post(played).text()
        # The ephemeral menu from before the play is out of date, at either step.
        stale = await fake.select(landlord, hand.message, hand.message.selects[0]["custom_id"],
                                  [hand.message.selects[0]["options"][0]["value"]])
        assert stale.ephemeral and "out of date" in stale.content
        assert (await table.state()) == after


async def test_a_four_player_lead_with_hundreds_of_plays(world, tmp_path, monkeypatch):
    fake, guild, channel, users = world
    fix_match_seeds(monkeypatch, 241)  # the landlord leads with 721 plays, 17 kinds
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        table, _ = await open_table(fake, channel, bot, list(users.values()), players=4)
        landlord = await table.to_move()
        await fake.slash(landlord, channel, "doudizhu bid", amount="3")
        state = await table.state()
        legal = legal_texts(state)
        assert len(legal) > 700
        assert await reachable(fake, landlord, menu_of(fake, landlord)) == legal


#: Hands with the most plays or kinds found (a hill climb over rank counts): 34 kinds, 1,798
#: plays for the last one.
CROWDED = (("333444555666789TJQKA", 3), ("3334445556789TJQKA2B", 3),
           ("333444555666777888999TTTJJJQQQKKK", 4),
           ("3344555666777888999101010QQKKBBRR", 4))


def test_kinds_hold_every_play_in_parts_that_fit():
    """Every play in exactly one kind, no kind over a page, and the kinds fit the first
    step's four selects."""
    from bot.adapters.doudizhu.controls import PAGE, play_kinds

    for hand, players in CROWDED:
        combos = ddz.legal_plays(hand, None, players)
        kinds = play_kinds(combos)
        assert sorted(str(c) for k in kinds for c in k.plays) == sorted(str(c) for c in combos)
        assert all(0 < len(k.plays) <= PAGE for k in kinds) and len(kinds) <= PAGE
        assert len({k.key for k in kinds}) == len(kinds)
        split = [k for k in kinds if "." in k.key]
        assert split and all("part" in ENGLISH_VOICE(k.label) for k in split)


def test_both_steps_fit_discord_limits_for_crowded_hands():
    """The components of each step, as Discord gets them, for the crowded hands: at most five
    rows, 25 options a select, every kind in the first step and every play of a kind in the
    second, Pass kept on the last row."""
    from dataclasses import replace
    from types import SimpleNamespace

    from bot.adapters.doudizhu.controls import play_kinds, private_controls, step_controls

    for hand, players in CROWDED:
        state = ddz.new_game(players, seed=1)
        state = ddz.apply(state, state.turn, ddz.Bid(3))
        hands = list(state.hands)
        hands[state.turn] = tuple(hand.replace("10", "T"))
        state = replace(state, hands=tuple(hands))
        match = SimpleNamespace(id=12345, row=SimpleNamespace(version=678), state=state)
        kinds = play_kinds(ddz.legal_plays(hands[state.turn], None, players))
        first = private_controls(match, state.turn).to_components()
        assert len(first) <= 5 and all(len(row["components"]) == 1 for row in first)
        offered = [o["value"] for row in first for o in row["components"][0]["options"]]
        assert offered == [k.key for k in kinds]
        for kind in kinds:
            rows = step_controls(match, state.turn, kind.key).to_components()
            selects = [c for row in rows for c in row["components"] if c["type"] == 3]
            assert len(rows) <= 5 and all(len(s["options"]) <= 25 for s in selects)
            assert [o["value"] for s in selects for o in s["options"]] == \
                [str(c) for c in kind.plays]
            assert [c["label"] for c in rows[-1]["components"]] == [BACK]  # a lead: no Pass


async def test_a_ten_reads_10_and_10_t_or_0_plays_it(world, tmp_path, monkeypatch):
    fake, guild, channel, users = world
    alice = users["alice"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        table, landlord = await crowned_table(fake, channel, bot, list(users.values())[:3],
                                              monkeypatch, FOUR_TENS)
        seat = (await table.state()).turn
        assert [c[0] for c in (await table.state()).hands[seat]].count("T") == 4
        results = []
        for typed in ("0", "t", "10"):
            choices = await fake.autocomplete(landlord, channel, "doudizhu play", "cards",
                                              cards=typed)
            assert choices and all(c["value"].startswith("10") for c in choices)
            assert "10" in [c["value"] for c in choices]
            assert not any(TEN_AS_T.search(c["name"]) for c in choices)
            led = await fake.slash(landlord, channel, "doudizhu play", cards=typed)
            assert not led.ephemeral, led.content
            await check(table, led)
            assert f"**10** by {landlord.name}" in public_post(led).text()
            results.append(led)
            follower = await table.to_move()
            low = await fake.slash(follower, channel, "doudizhu play", cards="3")
            assert low.ephemeral and "does not beat 10" in low.content
            for _ in range(2):
                results.append(await fake.slash(await table.to_move(), channel, "doudizhu pass"))
        state = await table.state()
        assert [c[0] for c in state.played] == ["T"] * 3
        assert await bot.service.replay(table.match_id) == state  # the log reads back
        # The text people read: every post and DM of the match, the help and the hints.
        readable = fake.messages(channel) + [m for u in users.values()
                                             for m in fake.dm_messages(u)]
        for message in readable:
            text = message_text(message)
            assert not TEN_AS_T.search(text), f"a ten written T in {text!r}"
        shown = await fake.slash(alice, channel, "gamenight help")
        assert "10JQKA" in shown.text() and "TJQKA" not in shown.text()
        bad = await fake.slash(landlord, channel, "doudizhu play", cards="10x")
        assert bad.ephemeral and "10JQKA" in bad.content and "TJQKA" not in bad.content


async def test_tens_side_by_side_are_spaced_apart(world, tmp_path, monkeypatch):
    """`1010` reads as a thousand and ten: a pair of tens is shown `10 10` (and `1010`,
    `TT` or `00` still play it)."""
    fake, guild, channel, users = world
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        table, landlord = await crowned_table(fake, channel, bot, list(users.values())[:3],
                                              monkeypatch, FOUR_TENS)
        choices = await fake.autocomplete(landlord, channel, "doudizhu play", "cards",
                                          cards="1010")
        assert "10 10" in [c["value"] for c in choices]
        led = await fake.slash(landlord, channel, "doudizhu play", cards="1010")
        await check(table, led)
        assert f"**10 10** by {landlord.name}" in public_post(led).text()
        follower = await table.to_move()
        assert "beat **10 10** from" in menu_of(fake, follower).content
        readable = fake.messages(channel) + [m for u in users.values()
                                             for m in fake.dm_messages(u)]
        # Ids (mentions, links) and timestamps may hold "1010": only words count.
        assert not [m for m in readable if "1010" in NOT_WORDS.sub("", message_text(m))]
