"""A seat's private page: the match's live page with that seat's own hand or rack (Patchwork:
its quilt with a placement ghosted in), opened by the signed link of bot/web/seat_links.py.

Routes, under the match's public token:
- `/m/{token}/s/{signed}`: the page; `.../live` the part that changes (fetched at each version,
  as the public page does, from the same event stream); `.../mine.png` the private picture.

A link that was changed, has expired, names a seat that has changed hands, or belongs to a
match that is over opens the public page with a line saying why: nothing private. Every answer
is `no-store`, and the private picture is drawn for each request, never kept.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

from aiohttp import web

from bot.matches.model import Match, player_name
from bot.web import seat_words
from bot.web.seat_links import LINK_SECONDS, claimed, genuine, sign
from bot.web.seat_pictures import hand_png, preview_png, rack_png
from bot.web.showing import Shown
from bot.workers.pictures import render_aside
from games.common import GameError
from i18n import Voice, Words, _

SEAT_ROOT = "../../../"  # from /m/TOKEN/s/SIGNED to the root
PRIVATE = {"Cache-Control": "no-store", "Vary": "Accept-Language"}
PREVIEW_QUERY = ("patch", "turn", "square")


@dataclass(frozen=True)
class Preview:
    """A Patchwork placement to ghost in: patch 1-3 on offer (0: the leather patch)."""

    choice: int
    orientation: str
    square: str


class SeatPages:
    """The private seat pages of a `WebPages` (its store, clock, templates and rendering)."""

    def __init__(self, pages: Any, seconds: float = LINK_SECONDS) -> None:
        self.pages = pages
        self.seconds = seconds

    def routes(self) -> list[web.RouteDef]:
        return [web.get("/m/{token}/s/{signed}", self.page),
                web.get("/m/{token}/s/{signed}/live", self.part),
                web.get("/m/{token}/s/{signed}/mine.png", self.picture)]

    async def link(self, match_id: int, seat: int, user_id: int) -> str:
        """The address of `seat`'s private page for `user_id`, who holds it, for LINK_SECONDS."""
        return f"{self.pages.public_url}/{await self.path(match_id, seat, user_id)}"

    async def path(self, match_id: int, seat: int, user_id: int) -> str:
        """`m/<token>/s/<signed>`: the private page's path, below the pages' root."""
        store = self.pages.store
        token = await store.match_token(match_id)
        signed = sign(await store.seat_key(match_id), token, seat, user_id,
                      int(self.pages.clock() + self.seconds))
        return f"m/{token}/s/{signed}"

    async def seat_of(self, request: web.Request, shown: Shown) -> tuple[int | None, Words | None]:
        """The seat the request's link opens, or None and why not."""
        match = shown.match
        claim = claimed(request.match_info["signed"])
        if claim is None or claim.seat >= len(match.seats):
            return None, seat_words.REFUSED
        holder = match.seats[claim.seat]
        if holder.kind != "user" or holder.user_id is None or not genuine(
                request.match_info["signed"], await self.pages.store.seat_key(match.id),
                request.match_info["token"], holder.user_id):
            return None, seat_words.REFUSED
        if match.status in ("finished", "cancelled"):
            return None, seat_words.OVER
        if claim.expires <= self.pages.clock():
            return None, seat_words.EXPIRED
        if match.state is None:
            return None, seat_words.NOT_STARTED
        return claim.seat, None

    # -- answers -------------------------------------------------------------------------------

    async def page(self, request: web.Request) -> web.Response:
        values = await self.values(request)
        return self.pages.render("private.html", request, headers=dict(PRIVATE), **values)

    async def part(self, request: web.Request) -> web.Response:
        values = await self.values(request)
        return self.pages.render("live.html", request, headers=dict(PRIVATE), **values)

    async def values(self, request: web.Request) -> dict[str, Any]:
        shown = await self.pages.shown(request)
        seat, refused = await self.seat_of(request, shown)
        say = self.pages.speaker(request)
        values = {**self.pages.live_values(request, shown), "root": SEAT_ROOT,
                  "seat_words": {k: say(v) for k, v in seat_words.SEAT_WORDS.items()},
                  "refused": None if refused is None else say(refused), "mine": None,
                  "preview": None}
        base = f"{SEAT_ROOT}m/{request.match_info['token']}/s/{request.match_info['signed']}"
        preview = None if seat is None else preview_of(request, shown.match, seat)
        query = preview_query(preview)
        values["part"] = f"{base}/live?{urlencode({**query, 'lang': say.lang})}"
        if seat is not None:
            values["mine"] = self.mine(shown, seat, say, base, preview)
            values["preview"] = None if preview is None else preview_form(shown.match, seat,
                                                                          preview, say)
        return values

    def mine(self, shown: Shown, seat: int, say: Voice, base: str,
             preview: Preview | None) -> dict[str, Any]:
        """What the seat's own part shows: a heading, lines, a picture and its alt text."""
        match, game = shown.match, shown.game
        view = match.engine.view(match.state, seat)
        lines: list[Words] = []
        alt: str | None = None
        if game == "scrabble":
            from render.alt import scrabble_rack
            rack = view.rack or ""
            lines.append(_("Your rack: {tiles}", tiles=" ".join(rack)) if rack
                         else seat_words.EMPTY_RACK)
            alt = scrabble_rack(rack, say) if rack else None
        elif game == "doudizhu":
            from render.alt import doudizhu_cards
            from render.doudizhu import cards_words
            hand = view.hand
            lines.append(_("Your hand: {cards}", cards=cards_words(hand)) if hand
                         else seat_words.NO_CARDS)
            alt = doudizhu_cards(hand, seat_words.YOUR_HAND, say) if hand else None
        elif game == "patchwork":
            alt = say(seat_words.PREVIEW_ALT)
        else:
            from bot.web.showing import note
            colour = note(game, view, seat)
            if colour is not None:
                lines.append(_("You play {colour}.", colour=colour))
        query = {"v": shown.version, "lang": say.lang, **preview_query(preview)}
        picture = None if alt is None else f"{base}/mine.png?{urlencode(query)}"
        return {"heading": say(_("Your seat: {player}", player=player_name(match.seats[seat]))),
                "lines": [say(line) for line in lines], "picture": picture, "alt": alt}

    async def picture(self, request: web.Request) -> web.Response:
        """The seat's private picture, drawn off the event loop (the web lane) for this request
        alone."""
        shown = await self.pages.shown(request)
        seat, _refused = await self.seat_of(request, shown)
        if seat is None:
            raise web.HTTPNotFound()
        match, say = shown.match, self.pages.speaker(request)
        view = match.engine.view(match.state, seat)
        if shown.game == "scrabble" and view.rack:
            png = await render_aside(rack_png, view.rack, say)
        elif shown.game == "doudizhu" and view.hand:
            png = await render_aside(hand_png, tuple(view.hand), say)
        elif shown.game == "patchwork":
            preview = preview_of(request, match, seat)
            assert preview is not None
            png = await render_aside(
                preview_png, view, seat, preview.choice, preview.orientation, preview.square,
                fits(match, seat, preview), say, [say(name) for name in shown.names])
        else:
            raise web.HTTPNotFound()
        return web.Response(body=png, content_type="image/png", headers=dict(PRIVATE))


# -- Patchwork's placement preview -------------------------------------------------------------

def preview_of(request: web.Request, match: Match, seat: int) -> Preview | None:
    """Patchwork: the placement the query asks for (patch, turn, square), else a first one."""
    if match.game != "patchwork":
        return None
    from games.patchwork import ORIENTATIONS, SQUARES
    leather = match.state.pending_seat == seat
    asked = request.query
    choice = asked.get("patch", "0" if leather else "1")
    orientation = asked.get("turn", "0")
    square = asked.get("square", "").strip().lower() or ("e5" if leather else "a1")
    if choice not in ("0", "1", "2", "3") or orientation not in ORIENTATIONS \
            or square not in SQUARES:
        return Preview(0 if leather else 1, "0", "e5" if leather else "a1")
    return Preview(int(choice), orientation, square)


def preview_query(preview: Preview | None) -> dict[str, str]:
    if preview is None:
        return {}
    return {"patch": str(preview.choice), "turn": preview.orientation, "square": preview.square}


def fits(match: Match, seat: int, preview: Preview) -> bool:
    """Whether the placement would work on the seat's turn."""
    import games.patchwork as patchwork
    state = match.state
    try:
        if preview.choice == 0:
            if state.pending_seat != seat:
                return False
            patchwork.apply(state, seat, patchwork.Place(preview.square))
            return True
        if state.pending_seat == seat:
            return False
        move = patchwork.Buy(preview.choice, preview.orientation, preview.square)
        return patchwork.buy_problem(state, seat, move, any_turn=True) is None
    except GameError:
        return False


def preview_form(match: Match, seat: int, preview: Preview, say: Voice) -> dict[str, Any]:
    """The choices of the preview's form, worded, the asked ones marked."""
    from games.patchwork import ORIENTATIONS
    patches = [("0", say(seat_words.SEAT_WORDS["leather"]))] \
        if match.state.pending_seat == seat else []
    patches += [(str(n), say(_("Patch {number}", number=n))) for n in (1, 2, 3)]
    turns = []
    for name in ORIENTATIONS:
        degrees, _space, mirrored = name.partition(" ")
        turns.append((name, say(_("{degrees}°, mirrored", degrees=degrees) if mirrored
                                else _("{degrees}°", degrees=degrees))))
    return {"patches": patches, "turns": turns, "choice": str(preview.choice),
            "turn": preview.orientation, "square": preview.square}
