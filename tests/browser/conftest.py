"""Fixtures of the browser tests (tests/browser/harness.py says how they are built):

- `browser`: Playwright connected to this test process's headless Chromium, for the test's
  own contexts: `await browser.new_context(viewport=PHONE)`; every context it opened is closed
  after the test.
- `page`: a page of a fresh context at desktop size (DESKTOP).
"""

from __future__ import annotations

from typing import Any, AsyncIterator, Iterator

import pytest

from tests.browser.harness import DESKTOP, WAIT_MS, Chromium, require_browser


@pytest.fixture(scope="session")
def chromium() -> Iterator[Chromium]:
    """This test process's Chromium (one per pytest-xdist worker), stopped at the end."""
    require_browser()
    browser = Chromium()
    yield browser
    browser.stop()


@pytest.fixture
async def browser(chromium: Chromium) -> AsyncIterator[Any]:
    from playwright.async_api import async_playwright, expect

    expect.set_options(timeout=WAIT_MS)
    endpoint = chromium.endpoint()
    async with async_playwright() as playwright:
        connected = await playwright.chromium.connect_over_cdp(endpoint)
        try:
            yield connected
        finally:
            await connected.close()  # closes the contexts the test opened, and disconnects


@pytest.fixture
async def page(browser: Any) -> Any:
    context = await browser.new_context(viewport=DESKTOP)
    return await context.new_page()
