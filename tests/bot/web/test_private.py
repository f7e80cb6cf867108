"""Private seat links (bot/web/private.py, seat_links.py): a seat's link shows its own rack,
hand or quilt preview and never another's; a changed, expired, reassigned or finished one shows
nothing private; no user id in any URL or page."""

from __future__ import annotations

import re
from html import unescape
from urllib.parse import urlsplit

import pytest
from aiohttp.test_utils import TestClient, TestServer

from bot.web.limits import RateLimit
from bot.web.seat_links import LINK_SECONDS
from bot.web.server import WebPages
from i18n import voice
from render.alt import doudizhu_cards, scrabble_rack
from render.doudizhu import cards_words
from tests.bot.web.test_pages import PEOPLE, started

EXPIRED = "This private link has expired"
REFUSED = "This private link does not open a seat"
OVER = "The match is over, so this link no longer shows anything private"


class Clock:
    def __init__(self) -> None:
        self.now = 1_800_000_000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
def clock():
    return Clock()


@pytest.fixture
async def pages(store, clock):
    return WebPages(store, public_url="https://games.example/gn", clock=clock,
                    limit=RateLimit(burst=10_000, rate=1_000))  # a test asks for many pages


@pytest.fixture
async def client(pages):
    async with TestClient(TestServer(pages.app())) as client:
        yield client


def path_of(link: str) -> str:
    return urlsplit(link).path.removeprefix("/gn")


def private_part(html: str) -> str:
    found = re.search(r'<section class="mine".*?</section>', html, re.S)
    return "" if found is None else found[0]


def mine_picture(html: str) -> str | None:
    found = re.search(r'<section class="mine".*?<img src="\.\./\.\./\.\./([^"]+)"', html, re.S)
    return None if found is None else "/" + unescape(found[1])


def no_user_id(match, *texts: str) -> None:
    for person in PEOPLE:
        for text in texts:
            assert str(person.user_id) not in text


@pytest.mark.parametrize("game", ["scrabble", "doudizhu"])
async def test_a_seats_link_shows_its_own_hand_and_never_anothers(
        service, store, pages, client, game):
    match = await started(service, game, channel=30)
    say = voice("en")
    links = [await pages.private_link(match.id, seat, match.player(seat).user_id)
             for seat in range(len(match.seats))]
    assert all(link.startswith("https://games.example/gn/m/") for link in links)
    assert len(set(links)) == len(links)
    for seat, link in enumerate(links):
        answer = await client.get(path_of(link), headers={"Accept-Language": "en"})
        assert answer.status == 200 and answer.headers["Cache-Control"] == "no-store"
        html = await answer.text()
        mine = private_part(html)
        assert mine, html
        no_user_id(match, link, html)
        for other in range(len(match.seats)):
            view = match.engine.view(match.state, other)
            if game == "scrabble":
                words = scrabble_rack(view.rack, say)
            else:
                words = say(cards_words(view.hand))
            assert (words in unescape(html)) == (other == seat), (seat, other)
        picture = await client.get(mine_picture(html))
        assert picture.status == 200 and picture.content_type == "image/png"
        assert picture.headers["Cache-Control"] == "no-store"
        own = match.engine.view(match.state, seat)
        alt = scrabble_rack(own.rack, say) if game == "scrabble" else doudizhu_cards(
            own.hand, "Your hand", say)
        assert f'alt="{alt}"' in unescape(mine)
        part = await client.get(path_of(link) + "/live?lang=en")
        assert part.headers["Cache-Control"] == "no-store"
        assert private_part(await part.text()) == mine


async def test_the_public_page_and_its_picture_stay_public(service, store, pages, client):
    match = await started(service, "scrabble", channel=31)
    token = await store.match_token(match.id)
    html = await (await client.get(f"/m/{token}")).text()
    assert not private_part(html)


async def test_a_link_with_any_one_character_changed_is_refused(service, pages, client):
    match = await started(service, "scrabble", channel=32)
    link = path_of(await pages.private_link(match.id, 0, match.player(0).user_id))
    signed = link.rsplit("/", 1)[1]
    base = link[:-len(signed)]
    alphabet = "AbZ09_-."
    for index in range(len(signed)):
        changed = next(c for c in alphabet if c != signed[index])
        forged = signed[:index] + changed + signed[index + 1:]
        answer = await client.get(base + forged, headers={"Accept-Language": "en"})
        html = await answer.text()
        assert answer.status == 200 and not private_part(html), index
        assert REFUSED in html
        assert (await client.get(base + forged + "/mine.png")).status == 404
    for forged in ("x", "." * 300, signed + "A"):
        html = await (await client.get(base + forged)).text()
        assert not private_part(html) and REFUSED in html


async def test_another_seats_link_cannot_be_made_from_ones_own(service, pages, client):
    """The payload names only the seat and the expiry: changing the seat breaks the signature."""
    import base64
    import json
    match = await started(service, "scrabble", channel=33)
    link = path_of(await pages.private_link(match.id, 0, match.player(0).user_id))
    payload, signature = link.rsplit("/", 1)[1].split(".")
    seat, expires = json.loads(base64.urlsafe_b64decode(payload + "=" * (-len(payload) % 4)))
    assert seat == 0 and expires > 0
    other = base64.urlsafe_b64encode(json.dumps([1, expires]).encode()).decode().rstrip("=")
    html = await (await client.get(link.rsplit("/", 1)[0] + f"/{other}.{signature}")).text()
    assert not private_part(html) and REFUSED in html


async def test_an_expired_link_shows_nothing_private(service, pages, client, clock):
    match = await started(service, "doudizhu", channel=34)
    link = path_of(await pages.private_link(match.id, 1, match.player(1).user_id))
    clock.now += LINK_SECONDS - 1
    assert private_part(await (await client.get(link)).text())
    clock.now += 1
    html = await (await client.get(link, headers={"Accept-Language": "en"})).text()
    assert not private_part(html) and EXPIRED in html
    assert (await client.get(link + "/mine.png")).status == 404
    assert not private_part(await (await client.get(link + "/live")).text())


async def test_a_link_after_the_match_ended_shows_nothing_private(service, pages, client):
    match = await started(service, "scrabble", channel=35)
    link = path_of(await pages.private_link(match.id, 0, match.player(0).user_id))
    await service.resign(35, match.player(0).user_id)
    html = await (await client.get(link, headers={"Accept-Language": "en"})).text()
    assert not private_part(html) and OVER in html


async def test_a_seat_that_changed_hands_opens_nothing_private(service, store, pages, client):
    match = await started(service, "scrabble", channel=36)
    link = path_of(await pages.private_link(match.id, 1, match.player(1).user_id))
    assert private_part(await (await client.get(link)).text())
    await store.replace_seat(match.id, match.row.version, 1, 804412345678909999, "dee")
    html = await (await client.get(link, headers={"Accept-Language": "en"})).text()
    assert not private_part(html) and REFUSED in html
    fresh = path_of(await pages.private_link(match.id, 1, 804412345678909999))
    assert private_part(await (await client.get(fresh)).text())


async def test_patchwork_shows_the_seats_quilt_with_a_placement_ghosted(
        service, pages, client):
    match = await started(service, "patchwork", channel=37)
    seat = 0
    link = path_of(await pages.private_link(match.id, seat, match.player(seat).user_id))
    html = await (await client.get(link + "?patch=2&turn=90&square=c3&lang=en")).text()
    assert 'name="square" value="c3"' in html and '<option value="90" selected>' in html
    picture = mine_picture(html)
    assert "patch=2" in picture and "turn=90" in picture and "square=c3" in picture
    answer = await client.get(picture)
    assert answer.status == 200 and answer.content_type == "image/png"
    from render.patchwork import render_preview
    from bot.web.private import Preview, fits
    view = match.engine.view(match.state, seat)
    legal = fits(match, seat, Preview(2, "90", "c3"))
    assert await answer.read() == render_preview(view, seat, 2, "90", "c3", legal, None,
                                                 voice("en"), [s.name for s in match.seats])
    bad = await (await client.get(link + "?patch=9&turn=x&square=zz")).text()
    assert "patch=1" in mine_picture(bad)  # nonsense asks for the first placement
