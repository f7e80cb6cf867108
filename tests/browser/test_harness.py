"""The browser tests' own ground: a page served as the web view will be (a strict
Content-Security-Policy, an external script, updates by Server-Sent Events) opens in Chromium,
changes when the server pushes, is photographed at phone and desktop width, and passes axe;
a page with an image without alt text fails it, and a refused inline script is seen."""

from __future__ import annotations

import asyncio
import io
from typing import AsyncIterator

import pytest
from aiohttp import web
from PIL import Image

from tests.browser import harness
from tests.browser.harness import PHONE, axe_violations, describe, record_errors

CSP = "default-src 'self'"

GOOD = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>Reversi: Alice against Bob</title><script src="/live.js" defer></script></head>
<body><main>
<h1>Reversi: Alice against Bob</h1>
<img src="/board.png" alt="The board before the first move" width="64" height="64">
<p id="status" aria-live="polite">Waiting for the first move</p>
</main></body></html>"""

BAD = """<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>A page that fails</title></head>
<body><main>
<h1>A page that fails</h1>
<img src="/board.png">
<p id="status">as served</p>
<script>document.getElementById("status").textContent = "changed inline";</script>
</main></body></html>"""

LIVE_JS = """const status = document.getElementById("status");
const events = new EventSource("/events");
events.onmessage = (event) => { status.textContent = event.data; };
"""


def png() -> bytes:
    out = io.BytesIO()
    Image.new("RGB", (16, 16), (0, 110, 60)).save(out, "PNG")
    return out.getvalue()


class LiveSite:
    """The tiny site: its pages, and the Server-Sent Events streams open to them."""

    def __init__(self) -> None:
        self.streams: list[web.StreamResponse] = []
        self.stream_opened = asyncio.Event()
        self.page_loads = 0
        self.closing = asyncio.Event()
        self.url = ""

    def app(self) -> web.Application:
        app = web.Application()
        app.router.add_get("/", self.good)
        app.router.add_get("/bad", self.bad)
        app.router.add_get("/live.js", self.script)
        app.router.add_get("/board.png", self.picture)
        app.router.add_get("/favicon.ico", self.picture)
        app.router.add_get("/events", self.events)
        return app

    async def good(self, request: web.Request) -> web.Response:
        self.page_loads += 1
        return web.Response(text=GOOD, content_type="text/html", headers={"Content-Security-Policy": CSP})

    async def bad(self, request: web.Request) -> web.Response:
        return web.Response(text=BAD, content_type="text/html", headers={"Content-Security-Policy": CSP})

    async def script(self, request: web.Request) -> web.Response:
        return web.Response(text=LIVE_JS, content_type="text/javascript")

    async def picture(self, request: web.Request) -> web.Response:
        return web.Response(body=png(), content_type="image/png")

    async def events(self, request: web.Request) -> web.StreamResponse:
        response = web.StreamResponse(headers={"Content-Type": "text/event-stream", "Cache-Control": "no-store"})
        await response.prepare(request)
        self.streams.append(response)
        self.stream_opened.set()
        await self.closing.wait()
        return response

    async def push(self, text: str) -> None:
        for stream in self.streams:
            await stream.write(f"data: {text}\n\n".encode())


@pytest.fixture
async def site() -> AsyncIterator[LiveSite]:
    live = LiveSite()
    runner = web.AppRunner(live.app(), shutdown_timeout=1)
    await runner.setup()
    tcp = web.TCPSite(runner, "127.0.0.1", 0)
    await tcp.start()
    port = runner.addresses[0][1]
    live.url = f"http://127.0.0.1:{port}"
    yield live
    live.closing.set()
    await runner.cleanup()


async def test_a_pushed_event_changes_the_page_without_a_reload(browser, page, site, tmp_path):
    from playwright.async_api import expect

    errors = record_errors(page)
    await page.goto(site.url + "/")
    await asyncio.wait_for(site.stream_opened.wait(), harness.WAIT_MS / 1000)
    await page.evaluate("() => { window.loadedOnce = true; }")

    await site.push("Bob played D3")

    await expect(page.locator("#status")).to_have_text("Bob played D3")
    assert await page.evaluate("() => window.loadedOnce === true")
    assert site.page_loads == 1
    assert not errors

    await page.screenshot(path=tmp_path / "desktop.png", full_page=True)
    phone = await browser.new_context(viewport=PHONE)
    small = await phone.new_page()
    await small.goto(site.url + "/")
    await small.screenshot(path=tmp_path / "phone.png", full_page=True)
    assert Image.open(tmp_path / "desktop.png").width == 1280
    assert Image.open(tmp_path / "phone.png").width == 390

    violations = await axe_violations(page)
    assert not violations, describe(violations)


async def test_axe_reports_an_image_without_alt_text_and_the_csp_refuses_inline_script(page, site):
    from playwright.async_api import expect

    errors = record_errors(page)
    await page.goto(site.url + "/bad")

    violations = await axe_violations(page)

    assert "image-alt" in {v["id"] for v in violations}, describe(violations)
    assert "image-alt" in describe(violations)
    await expect(page.locator("#status")).to_have_text("as served")
    assert any("Content Security Policy" in error for error in errors), errors


def test_without_chromium_the_browser_tests_skip_saying_why(monkeypatch):
    monkeypatch.setattr(harness, "CHROMIUM", "/nonexistent/chromium")
    monkeypatch.setattr(harness, "REQUIRED", False)
    with pytest.raises(pytest.skip.Exception, match="Chromium at /nonexistent/chromium"):
        harness.require_browser()


def test_without_chromium_the_browser_tests_fail_where_required(monkeypatch):
    monkeypatch.setattr(harness, "CHROMIUM", "/nonexistent/chromium")
    monkeypatch.setattr(harness, "REQUIRED", True)
    with pytest.raises(pytest.fail.Exception, match="apt-get install"):
        harness.require_browser()
