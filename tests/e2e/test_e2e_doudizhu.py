"""Dou Dizhu through the real bot and the fake Discord: hands by DM with a menu of plays,
bids and plays by slash command, closed DMs, a restart mid-trick, errors, a 4-player lobby,
next round, stop and cancel with the ledger. Every public message and every DM is checked:
nobody ever sees another player's cards."""

from __future__ import annotations

import re

import pytest

import games.doudizhu as ddz
from bot.adapters.doudizhu.controls import offered_plays
from bot.adapters.doudizhu.words import payment_words
from games.doudizhu.combinations import classify
from bot.ui.language import Languages
from i18n import ENGLISH_VOICE, PSEUDO, voice
from render.doudizhu import render_hand
from tests.e2e_helpers import fake_world, fix_match_seeds, mentioned_ids, png_size, running_bot

pytestmark = pytest.mark.e2e

SUITS = {"\u2660": "S", "\u2665": "H", "\u2666": "D", "\u2663": "C"}
CARD_TOKEN = re.compile(r"(10|[2-9JQKA])([\u2660\u2665\u2666\u2663])|(black|red) joker")


def cards_named(text: str) -> set[str]:
    """The cards a text shows (`7♥` -> `7H`, `10♠` -> `TS`, `red joker` -> `RJ`)."""
    found = set()
    for rank, suit, joker in CARD_TOKEN.findall(text):
        if joker:
            found.add("BJ" if joker == "black" else "RJ")
        else:
            found.add(("T" if rank == "10" else rank) + SUITS[suit])
    return found


def message_text(message) -> str:
    """Everything a message shows in words: content, embeds, component labels."""
    parts = [message.text()]
    for component in message.all_components():
        parts.append(component.get("label") or "")
        parts.append(component.get("placeholder") or "")
        for option in component.get("options") or ():
            parts += [option.get("label") or "", option.get("description") or ""]
    return "\n".join(parts)


@pytest.fixture
async def world():
    names = ("alice", "bob", "carol", "dave", "erin", "mod")
    async with fake_world("doudizhu", names, dms_closed=("erin",), moderators=("mod",)) as world:
        yield world


class Table:
    """One match seen from the test: who sits where, and checks on everything the bot sent."""

    def __init__(self, fake, channel, bot, match_id, players):
        self.fake, self.channel, self.bot = fake, channel, bot
        self.match_id = match_id
        self.players = players  # seat -> FakeUser
        self.dms_checked = 0

    async def match(self):
        return await self.bot.service.get(self.match_id)

    async def state(self) -> ddz.State:
        return (await self.match()).state

    async def to_move(self):
        state = await self.state()
        return self.players[state.turn]


def dm_seat_of(table, dm):
    for seat, user in enumerate(table.players):
        if table.fake.dm_channel(user) is dm.channel:
            return seat
    raise AssertionError("DM to nobody at the table")


async def check(table, result, *, hand_images=False):
    """`Table.check`, finding each DM's reader through the fake's DM channels."""
    state = await table.state()
    public = set(state.played) | {state.face_up}
    if state.landlord is not None:
        public |= set(state.kitty)
    shown = result.channel_messages + edited_tables(result)
    for message in shown:
        named = cards_named(message_text(message))
        if "is over" in message.content and state.phase in (ddz.ROUND_OVER, ddz.OVER):
            public |= {card for hand in state.hands for card in hand}
        assert named <= public, f"public message shows hidden cards {named - public}"
        for image in message.attachments:  # the played cards, read out
            assert image.description.startswith("Played by ") and cards_named(image.description)
    edited = [m for m in result.edited if m.channel.is_dm and m.embeds and m not in result.dms
              and table.fake.dm_messages(m.channel.recipient)[-1] is m]
    for dm in result.dms + edited:  # new DMs, and the live DMs edited in place
        seat = dm_seat_of(table, dm)
        hand = set(state.hands[seat])
        text = message_text(dm)
        assert cards_named(text) <= hand, "a DM shows cards its reader does not hold"
        assert "**Game Night Club**" in dm.content and "#doudizhu" in dm.content
        assert f"match #{table.match_id}" in dm.content
        if hand:
            (image,) = dm.attachments
            assert image.is_png and cards_named(text) == hand
            assert cards_named(image.description) == hand  # the alt text reads the hand out
            if hand_images:  # (everybody reads the same voice in the tests)
                reader = voice(PSEUDO) if Languages.pseudo else ENGLISH_VOICE
                assert image.data == render_hand(state.hands[seat], reader)
        table.dms_checked += 1
    return result


def latest_dm(fake, user):
    return fake.dm_messages(user)[-1]


def select_of(message):
    (select,) = message.selects
    return select


def public_post(result):
    (post,) = result.channel_messages
    return post


def table_post(result):
    """The table an action showed: a new public post, or else the live table it edited."""
    if result.channel_messages:
        return public_post(result)
    (table,) = edited_tables(result)
    return table


def edited_tables(result):
    """Public channel messages the bot edited meanwhile (not the clicked message itself)."""
    return [m for m in result.edited
            if not m.channel.is_dm and not m.ephemeral and m is not result.message]


def acknowledged(result) -> bool:
    """A slash command's answer: the new table post, or a short "done" only for the caller."""
    if result.ephemeral:
        return "Done: [the table]" in result.content and not result.channel_messages
    return bool(result.channel_messages)


async def bid_round(table, fake, channel, amounts):
    """Whoever is to bid bids the next amount by slash command."""
    for amount in amounts:
        bidder = await table.to_move()
        result = await fake.slash(bidder, channel, "doudizhu bid", amount=amount)
        assert acknowledged(result), result.content
        await check(table, result)


async def play_greedy(table, *, via: str, limit: int = 200):
    """Play until the round ends: the player to move plays the largest play offered (by the DM
    menu or by autocomplete), or passes when nothing is offered. Returns the last result."""
    fake, channel = table.fake, table.channel
    result = None
    for _ in range(limit):
        state = await table.state()
        if state.phase != ddz.PLAY:
            return result
        user = table.players[state.turn]
        if via == "dm":
            dm = latest_dm(fake, user)
            selects = dm.selects
            if selects:
                options = selects[0]["options"]
                value = max((o["value"] for o in options), key=len)
                result = await fake.select(user, dm, selects[0]["custom_id"], [value])
            else:
                result = await fake.click(user, dm, label="Pass")
        else:
            choices = await fake.autocomplete(user, channel, "doudizhu play", "cards", cards="")
            if choices:
                value = max((c["value"] for c in choices), key=len)
                result = await fake.slash(user, channel, "doudizhu play", cards=value)
            else:
                result = await fake.slash(user, channel, "doudizhu pass")
            assert acknowledged(result), result.content
        assert not result.errors
        await check(table, result)
    raise AssertionError("the round did not end")


async def open_table(fake, channel, bot, users, players=3):
    creator, *others = users
    lobby = await fake.slash(creator, channel, "doudizhu new", players=players)
    assert not lobby.ephemeral
    match_id = int(re.search(r"Match #(\d+)", lobby.message.text()).group(1))
    assert f"Seats (1/{players})" in lobby.message.text()
    result = None
    for user in others:
        result = await fake.click(user, lobby.message, label="Join")
    return Table(fake, channel, bot, match_id, list(users)), result


async def test_commands_and_help(world, tmp_path):
    fake, guild, channel, users = world
    async with running_bot(fake, tmp_path / "g.db", guild.id):
        group = next(c for c in fake.commands(guild) if c["name"] == "doudizhu")
        subs = {o["name"]: o for o in group["options"]}
        assert set(subs) == {"new", "bid", "play", "pass", "hand", "next", "stop"}
        players = subs["new"]["options"][0]
        assert players["name"] == "players" and [c["value"] for c in players["choices"]] == [3, 4]
        amount = subs["bid"]["options"][0]
        assert [c["value"] for c in amount["choices"]] == ["pass", "1", "2", "3"]
        assert subs["play"]["options"][0]["autocomplete"] is True
        shown = await fake.slash(users["carol"], channel, "gamenight help")
        assert shown.ephemeral and "Dou Dizhu" in shown.text() and "/doudizhu bid" in shown.text()


async def test_a_three_player_series(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, carol, dave = users["alice"], users["bob"], users["carol"], users["dave"]
    db = tmp_path / "gamenight.db"

    async with running_bot(fake, db, guild.id) as bot:
        table, started = await open_table(fake, channel, bot, [alice, bob, carol])
        # The table: public post, then each player's hand by DM (a PNG and the cards as text).
        await check(table, started, hand_images=True)
        assert sorted(dm_seat_of(table, dm) for dm in started.dms) == [0, 1, 2]
        board = next(m for m in started.channel_messages if "your bid" in m.content)
        state = await table.state()
        assert mentioned_ids(board.content) == [table.players[state.turn].id]
        assert "alice: 17" in board.text() and "auction: no bid yet" in board.text()
        opener = table.players[state.turn]
        # The opener's DM offers the bids; the others' say whose turn it is.
        assert [b["label"] for b in latest_dm(fake, opener).buttons] == \
            ["Pass", "Bid 1", "Bid 2", "Bid 3"]
        waiting = [u for u in table.players if u is not opener]
        for user in waiting:
            assert latest_dm(fake, user).components == []
            assert "Waiting for" in latest_dm(fake, user).content

        # Errors are ephemeral and say what is wrong.
        early = await fake.slash(waiting[0], channel, "doudizhu bid", amount="1")
        assert early.ephemeral and "not your turn" in early.content
        outsider = await fake.slash(dave, channel, "doudizhu pass")
        assert outsider.ephemeral and "not playing" in outsider.content
        too_soon = await fake.slash(opener, channel, "doudizhu play", cards="3")
        assert too_soon.ephemeral and "auction is on" in too_soon.content

        # The auction by slash command: pass, 1, then 1 again is refused, then 3.
        with_buttons = latest_dm(fake, opener)
        await bid_round(table, fake, channel, ["pass", "1"])
        # The opener passed by slash command: the bid buttons in their DM are gone.
        assert fake.get_message(with_buttons).components == []
        third = await table.to_move()
        low = await fake.slash(third, channel, "doudizhu bid", amount="1")
        assert low.ephemeral and "you must bid more than 1" in low.content
        crowned = await fake.slash(third, channel, "doudizhu bid", amount="3")
        await check(table, crowned)
        state = await table.state()
        landlord = table.players[state.landlord]
        assert landlord is third and "is the landlord for 3" in public_post(crowned).text()
        assert "bid 3 \u00d7 1 = 3" in public_post(crowned).text()
        assert "20 cards" in latest_dm(fake, landlord).text()  # the kitty joined the hand

        # Not holding the cards, not beating: the engine's words, only to the player.
        hand = state.hands[state.landlord]
        held = {rank: sum(c[0] == rank for c in hand) for rank in "3456789TJQKA2"}
        scarce = min(held, key=held.get)  # ask for one more than the landlord holds
        lacking = await fake.slash(landlord, channel, "doudizhu play",
                                   cards=scarce * (held[scarce] + 1))
        assert lacking.ephemeral and "you do not hold" in lacking.content
        cant_pass = await fake.slash(landlord, channel, "doudizhu pass")
        assert cant_pass.ephemeral and "you lead this trick" in cant_pass.content

        # The landlord leads a single by slash command, chosen from autocomplete.
        follower = table.players[(state.landlord + 1) % 3]
        theirs = state.hands[(state.landlord + 1) % 3]
        low_card = min(theirs, key=classify_rank)
        top = max(classify_rank(card) for card in theirs)
        # a lead the follower's lowest card cannot beat but a higher one can
        lead = min((c for c in hand if classify_rank(low_card) < classify_rank(c) < top),
                   key=classify_rank)
        offered = await fake.autocomplete(landlord, channel, "doudizhu play", "cards", cards="")
        assert 0 < len(offered) <= 25
        assert shown_rank(lead) in [c["value"] for c in offered]
        narrowed = await fake.autocomplete(landlord, channel, "doudizhu play", "cards",
                                           cards=lead[0])
        assert all(c["value"].startswith(shown_rank(lead)) for c in narrowed)
        assert await fake.autocomplete(follower, channel, "doudizhu play", "cards",
                                       cards="") == []
        led = await fake.slash(landlord, channel, "doudizhu play", cards=lead[0])
        await check(table, led)
        post = public_post(led)
        assert post.attachments[0].is_png and png_size(post.attachments[0].data)[0] > 0
        assert f"**{shown_rank(lead)}** by {landlord.name} (to beat)" in post.text()
        assert mentioned_ids(post.content) == [follower.id]
        assert f"{landlord.name} (landlord): 19" in post.text()

        not_beating = await fake.slash(follower, channel, "doudizhu play", cards=low_card[0])
        assert not_beating.ephemeral
        assert f"{shown_rank(low_card)} does not beat {shown_rank(lead)}" in not_beating.content
        wrong_turn = await fake.slash(landlord, channel, "doudizhu play", cards=lead[0])
        assert wrong_turn.ephemeral and "not your turn" in wrong_turn.content

        # The follower answers from the DM menu: the smallest answers come first.
        menu = latest_dm(fake, follower)
        select = select_of(menu)
        values = [o["value"] for o in select["options"]]
        follower_state = await table.state()
        answers = [m for m in ddz.legal_moves(follower_state, follower_state.turn)
                   if isinstance(m, ddz.Play)]
        assert values == [str(c) for c in offered_plays(
            classify(m.ranks) for m in answers)]
        assert [b["label"] for b in menu.buttons] == ["Pass"]
        assert re.fullmatch(rf"gn:ddz:play:{table.match_id}:\d+", select["custom_id"])
        answered = await fake.select(follower, menu, select["custom_id"], [values[0]])
        assert answered.response_type == 7  # the DM is updated: menu gone, choice noted,
        assert answered.message.components == []  # then the same DM shows the new hand
        assert answered.message.id == menu.id and "Waiting for" in answered.message.content
        await check(table, answered)
        assert f"**{values[0]}** by {follower.name}" in table_post(answered).text()

        # The third player passes by slash command: the controls in their DM come off, and
        # the ones on an earlier `/doudizhu hand` are refused as out of date.
        third = await table.to_move()
        old_menu = latest_dm(fake, third)
        assert old_menu.components
        shown = await fake.slash(third, channel, "doudizhu hand")
        assert shown.ephemeral and shown.message.components
        passed = await fake.slash(third, channel, "doudizhu pass")
        await check(table, passed)
        assert f"**{third.name}** passes" in table_post(passed).text()
        assert fake.get_message(old_menu).components == []
        played = (await table.state()).played
        old_select = shown.message.selects[0] if shown.message.selects else None
        if old_select is not None:
            stale = await fake.select(third, shown.message, old_select["custom_id"],
                                      [old_select["options"][0]["value"]])
        else:
            stale = await fake.click(third, shown.message, label="Pass")
        assert stale.ephemeral and "out of date" in stale.content
        assert (await table.state()).played == played  # nothing was applied

        # Whoever cannot answer passes, until the player to move has a menu of plays.
        to_move = await table.to_move()
        while not latest_dm(fake, to_move).selects:
            assert [b["label"] for b in latest_dm(fake, to_move).buttons] == ["Pass"]
            await check(table, await fake.slash(to_move, channel, "doudizhu pass"))
            to_move = await table.to_move()
        before_restart = latest_dm(fake, to_move)

    # A new bot process: the DM menu sent before the restart still plays.
    async with running_bot(fake, db, guild.id) as bot:
        table.bot = bot
        select = select_of(before_restart)
        value = select["options"][-1]["value"]
        after = await fake.select(to_move, before_restart, select["custom_id"], [value])
        assert after.response_type == 7 and not after.errors
        await check(table, after)
        assert f"**{value}** by {to_move.name}" in table_post(after).text()

        # The rest of round 1 by DM menus, choosing from what they offer.
        ended = await play_greedy(table, via="dm")
        state = await table.state()
        assert state.phase == ddz.ROUND_OVER
        end = public_post(ended)
        text = end.text()
        assert "Round 1 is over" in end.content
        for seat, user in enumerate(table.players):  # every hand revealed
            assert cards_named(text) >= set(state.hands[seat])
        paid = payment_words(await table.match(), ddz.payment(state))
        assert ENGLISH_VOICE(paid) in text  # doublings explained
        assert text.count("\u00d7 2 (") == len(state.doublings)
        assert sum(state.ledger) == 0 and f"{alice.name} {state.ledger[0]:+d}" in text
        assert [b["label"] for b in end.buttons] == ["Next round", "Stop the series"]
        late = await fake.slash(to_move, channel, "doudizhu pass")
        assert late.ephemeral and "the round is over" in late.content

        # Carol's private view offers the same choice; Bob deals the next round from the
        # result's button, which is then used up, and Carol's buttons are out of date.
        hers = await fake.slash(carol, channel, "doudizhu hand")
        assert [b["label"] for b in hers.message.buttons] == ["Next round", "Stop the series"]
        dealt = await fake.click(bob, end, label="Next round")
        assert dealt.response_type == 7 and dealt.message.buttons == []
        assert "**bob** chose `next`" in dealt.message.content
        await check(table, dealt, hand_images=True)
        # One new DM: the first bidder's; the other two live DMs show their new hands.
        assert len(dealt.dms) == 1
        assert len([m for m in dealt.edited if m.channel.is_dm and m.embeds]) == 2
        assert "Round 2" in public_post(dealt).text()
        again = await fake.click(carol, hers.message, label="Stop the series")
        assert again.ephemeral and "out of date" in again.content

        # Round 2 by slash commands and autocomplete, then stop: the ledger decides.
        await bid_round(table, fake, channel, ["3"])
        await play_greedy(table, via="slash")
        state = await table.state()
        ledger = state.ledger
        stopped = await fake.slash(carol, channel, "doudizhu stop")
        await check(table, stopped)
        final = public_post(stopped).text()
        assert "series is over" in final and "2 rounds" in final
        best = max(ledger)
        winners = [u.name for seat, u in enumerate(table.players) if ledger[seat] == best]
        if best:
            assert f"**{winners[0]}**" in final and f"{best:+d}" in final
        else:
            assert "ledger is level" in final
        assert "Final ledger" in public_post(stopped).text()
        assert [b["label"] for b in public_post(stopped).buttons] == ["Rematch", "Review"]
        gone = await fake.slash(alice, channel, "doudizhu hand")
        assert gone.ephemeral and "is over" in gone.content

    assert table.dms_checked >= 20
    assert fake.search(fake.token) == []


def classify_rank(card: str) -> int:
    return classify(card[0]).rank


def shown_rank(card: str) -> str:
    """A card's rank as the bot writes it: `10` for a ten."""
    return str(classify(card[0]))


async def test_closed_dms_fall_back_to_hand_command(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, erin, mod = users["alice"], users["bob"], users["erin"], users["mod"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        table, started = await open_table(fake, channel, bot, [alice, erin, bob])
        await check(table, started)
        assert fake.dm_messages(erin) == []
        notice = next(m for m in started.channel_messages if "DMs are closed" in m.content)
        assert mentioned_ids(notice.content) == [erin.id]
        assert "/doudizhu hand" in notice.content and cards_named(notice.content) == set()

        # /doudizhu hand always works, only for erin, with the same controls a DM would have.
        shown = await fake.slash(erin, channel, "doudizhu hand")
        assert shown.ephemeral and shown.attachments[0].is_png
        state = await table.state()
        assert cards_named(message_text(shown.message)) == set(state.hands[1])
        same = await fake.slash(erin, channel, "match hand")
        assert same.ephemeral
        assert [c.get("custom_id") for c in same.message.all_components()] == \
            [c.get("custom_id") for c in shown.message.all_components()]

        # Bid until erin is to bid; her ephemeral hand then holds the bid buttons.
        while (await table.to_move()) is not erin:
            await bid_round(table, fake, channel, ["pass"])
        mine = await fake.slash(erin, channel, "doudizhu hand")
        labels = [b["label"] for b in mine.message.buttons]
        assert labels[0] == "Pass" and "Bid 3" in labels
        took = await fake.click(erin, mine.message, label="Bid 3")
        assert took.response_type == 7 and took.message.ephemeral
        await check(table, took)
        assert mentioned_ids(public_post(took).content) == [erin.id]  # the landlord leads
        state = await table.state()
        assert state.landlord == 1 and state.turn == 1

        # Her lead from the ephemeral menu, then the others answer until the trick is hers
        # or someone else's; the notice about closed DMs is not repeated.
        mine = await fake.slash(erin, channel, "doudizhu hand")
        select = select_of(mine.message)
        led = await fake.select(erin, mine.message, select["custom_id"],
                                [select["options"][0]["value"]])
        await check(table, led)
        assert not [m for m in led.channel_messages if "DMs are closed" in m.content]
        assert len(fake.dm_messages(erin)) == 0

        # /match cancel ends the series and gives the standings from the ledger.
        refused = await fake.slash(bob, channel, "match cancel")
        assert refused.ephemeral and "Manage Messages" in refused.content
        cancelled = await fake.slash(mod, channel, "match cancel")
        assert not cancelled.ephemeral
        assert "Ledger after 0 rounds" in cancelled.content
        assert "nobody wins" in cancelled.content


async def test_four_player_lobby_round_and_cancel_with_the_ledger(world, tmp_path):
    fake, guild, channel, users = world
    four = [users[name] for name in ("alice", "bob", "carol", "dave")]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        lobby = await fake.slash(four[0], channel, "doudizhu new", players=4)
        assert "Seats (1/4)" in lobby.message.text()
        assert "two decks (108 cards)" in lobby.message.text()
        await fake.click(four[1], lobby.message, label="Join")
        third = await fake.slash(four[2], channel, "match join")
        assert "3/4 seated" in third.content
        match_id = int(re.search(r"Match #(\d+)", lobby.message.text()).group(1))
        table = Table(fake, channel, bot, match_id, four)
        assert (await table.match()).status == "lobby"
        started = await fake.click(four[3], lobby.message, label="Join")
        await check(table, started, hand_images=True)
        assert (await table.match()).status == "active"
        assert len(started.dms) == 4
        for user in four:
            assert "25 cards" in latest_dm(fake, user).text()
        board = public_post(started) if len(started.channel_messages) == 1 else next(
            m for m in started.channel_messages if "your bid" in m.content)
        assert "dave: 25" in board.text()

        await bid_round(table, fake, channel, ["3"])
        state = await table.state()
        assert len(state.hands[state.landlord]) == 33
        await play_greedy(table, via="dm")
        state = await table.state()
        assert state.phase == ddz.ROUND_OVER and sum(state.ledger) == 0
        cancelled = await fake.slash(four[0], channel, "match cancel")
        assert "Ledger after 1 round:" in cancelled.content
        best = max(state.ledger)
        leader = next(u for seat, u in enumerate(four) if state.ledger[seat] == best)
        assert f"**{leader.name}**" in cancelled.content


def test_the_menu_offers_one_play_per_shape_lowest_first():
    hand = "3 3 3 4 4 5 6 7 8 9 T J Q K A 2 2 2 2 B R".split()
    combos = ddz.legal_plays(hand, None, 3)
    assert len(combos) > 25
    offered = offered_plays(combos)
    assert len(offered) == 25
    texts = [str(c) for c in offered]
    assert texts[0] == "3" and "33" in texts and "333" in texts and "34567" in texts
    assert texts[-2:] == ["2222", "BR"]  # bombs and the rocket come last
    assert "3334" in texts and "3335" not in texts  # one kicker choice per trio
    answers = offered_plays(ddz.legal_plays(hand, classify("9"), 3))
    assert [str(c) for c in answers] == ["10", "J", "Q", "K", "A", "2", "B", "R", "2222", "BR"]


def test_the_menu_offers_every_play_when_they_fit():
    hand = "3 3 3 4 5 9 9".split()
    combos = ddz.legal_plays(hand, None, 3)
    assert len(combos) <= 25
    texts = [str(c) for c in offered_plays(combos)]
    assert sorted(texts) == sorted(str(c) for c in combos)
    assert {"3334", "3335", "3339", "33399"} <= set(texts)  # every kicker choice
    assert texts[0] == "3"


async def test_status_and_resign(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        table, started = await open_table(fake, channel, bot, [alice, bob, carol])
        await bid_round(table, fake, channel, ["2", "3"])
        state = await table.state()
        landlord = table.players[state.landlord]
        status = await fake.slash(carol, channel, "match status")
        await check(table, status)
        assert mentioned_ids(status.content) == [landlord.id] and "you lead" in status.content
        assert "bid 3 \u00d7 1 = 3" in status.message.text()
        resigned = await fake.slash(landlord, channel, "match resign")
        await check(table, resigned)
        final = public_post(resigned)
        assert f"{landlord.name} resigned" in final.content
        state = await table.state()
        assert state.ledger[state.landlord] == -6 and "series is over" in final.content
        others = [u for u in table.players if u is not landlord]
        assert all(f"**{u.name}**" in final.content for u in others)
        assert "share the series win with +3" in final.content

        # The last post offers a rematch: a new 3-seat lobby that mentions the other two.
        assert [b["label"] for b in final.buttons] == ["Rematch", "Review"]
        asked = await fake.click(others[0], final, label="Rematch")
        assert "asks for a rematch of Dou Dizhu match #1" in asked.content
        assert sorted(mentioned_ids(asked.content)) == sorted(
            u.id for u in table.players if u is not others[0])
        assert "Seats (1/3)" in asked.text()


async def test_stop_button_ends_the_series_with_a_rematch_button(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        table, _ = await open_table(fake, channel, bot, [alice, bob, carol])
        await bid_round(table, fake, channel, ["3"])
        last = await play_greedy(table, via="dm")
        [end] = [m for m in last.channel_messages if "Round 1 is over" in m.content]
        stopped = await fake.click(bob, end, label="Stop the series")
        assert "**bob** chose `stop`" in stopped.message.content
        final = public_post(stopped)
        assert "series is over" in final.content
        assert [b["label"] for b in final.buttons] == ["Rematch", "Review"]
        asked = await fake.click(alice, final, label="Rematch")
        assert "asks for a rematch of Dou Dizhu match #1" in asked.content


async def test_status_between_rounds_leaves_one_post_with_next_and_stop(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        table, _ = await open_table(fake, channel, bot, [alice, bob, carol])
        await bid_round(table, fake, channel, ["3"])
        last = await play_greedy(table, via="dm")
        [end] = [m for m in last.channel_messages if "Round 1 is over" in m.content]
        status = await fake.slash(carol, channel, "match status")
        assert [b["label"] for b in status.message.buttons] == ["Next round", "Stop the series"]
        assert fake.get_message(end).buttons == []  # the newest post is the one to use
        out = table.players[(await table.state()).went_out]  # their DM: no "0 cards"
        assert "You are out of cards" in latest_dm(fake, out).text()
        assert "0 cards" not in latest_dm(fake, out).text()
        assert "Cards:** none" not in latest_dm(fake, out).text()
        await fake.click(alice, latest_dm(fake, alice), label="Stop the series")
        offering = [m for m in fake.messages(channel)
                    if any(b["label"] in ("Next round", "Stop the series") for b in m.buttons)]
        assert offering == []


async def test_the_table_points_a_player_with_closed_dms_to_the_hand_command(
        world, tmp_path, monkeypatch):
    fake, guild, channel, users = world
    alice, bob, erin = users["alice"], users["bob"], users["erin"]
    fix_match_seeds(monkeypatch, 1)
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        table, started = await open_table(fake, channel, bot, [alice, erin, bob])
        assert (await table.to_move()) is not erin  # (the deal is posted before DMs are tried)
        while (await table.to_move()) is not erin:
            await bid_round(table, fake, channel, ["pass"])
        [asked] = [m for m in fake.messages(channel) if m.mentions() == [erin.id]][-1:]
        assert "your bid" in asked.content and "buttons in `/doudizhu hand`" in asked.content
        assert "your DM" not in asked.content
        took = await fake.slash(erin, channel, "doudizhu bid", amount="3")
        lead = public_post(took)
        assert lead.mentions() == [erin.id] and "menu in `/doudizhu hand`" in lead.content
        choices = await fake.autocomplete(erin, channel, "doudizhu play", "cards", cards="")
        led = await fake.slash(erin, channel, "doudizhu play", cards=choices[0]["value"])
        answer = public_post(led)  # the next player has DMs: the menu is in them
        assert answer.mentions() == [bob.id] and "or the menu in your DM" in answer.content


async def test_a_resignation_in_the_first_auction_reads_as_a_win_without_an_amount(world, tmp_path):
    fake, guild, channel, users = world
    alice, bob, carol = users["alice"], users["bob"], users["carol"]
    async with running_bot(fake, tmp_path / "g.db", guild.id) as bot:
        table, _ = await open_table(fake, channel, bot, [alice, bob, carol])
        quitter = await table.to_move()
        final = public_post(await fake.slash(quitter, channel, "match resign"))
        others = [u.name for u in table.players if u is not quitter]
        assert f"**{others[0]}** and **{others[1]}** share the series win." in final.content
        assert "with 0" not in final.content
